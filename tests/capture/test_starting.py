"""The capture contest program's worker process (tronlab.capture.starting), in-process:
a fake worker on real pipes, so no numba is loaded and nothing waits on a clock."""

import os
import threading
import types

from tronlab.capture import reset, step
from tronlab.capture.bots import nearest_target
from tronlab.capture.cli import contest_bot
from tronlab.capture.starting import StartingCapture, send, serve


class Worker:
    """A Popen look-alike whose other ends of the pipes the test holds."""

    def __init__(self):
        r_in, self._w_in = os.pipe()        # program -> worker
        self._r_out, w_out = os.pipe()      # worker -> program
        self.stdin = os.fdopen(self._w_in, "wb")
        self.stdout = os.fdopen(self._r_out, "rb")
        self.inp = os.fdopen(r_in, "rb")    # the worker's side
        self.out = os.fdopen(w_out, "wb")
        self.killed = False

    def poll(self):
        return 0 if self.killed else None

    def kill(self):
        """The program's reader hears the end; a thread blocked on the worker's side stays
        blocked (a daemon: closing a file under a blocked read or write would hang)."""
        self.killed = True
        self.out.close()

    def serve(self, bot):
        """serve() until this worker is killed."""
        try:
            serve(bot, self.inp, self.out)
        except (OSError, ValueError):    # killed: its pipes are closed under it
            pass

    def wait(self, timeout=None):
        return 0


class Bot:
    """Remembers every turn it is shown and whether it could search on it."""

    def __init__(self):
        self.warmup = types.SimpleNamespace(done=True)
        self.seen = []

    def __call__(self, view, player):
        self.seen.append((view.round, self.warmup.done))
        return (0, 0) if self.warmup.done else nearest_target(view, player)


def views(n):
    state, out = reset(2, rng=1), []
    for _ in range(n):
        out.append(state.view())
        state = step(state, [(34, 19), (0, 0)]).state
    return out


def test_while_the_worker_loads_every_turn_is_answered_by_the_rule_and_none_waits():
    # the turns went down the worker's pipe from the answering thread: a worker loading
    # its kernels reads nothing, so after about 64 turns the pipe was full and the
    # program stopped answering (all four programs timed out at round 65)
    worker = Worker()
    starting = StartingCapture("rectangles", stderr=open(os.devnull, "w"))
    starting.attach(worker)
    turns = views(2) * 75           # 150 turns of about 1 KB: more than a 64 KiB pipe
    answers = []
    player = threading.Thread(target=lambda: answers.extend(starting(v, 0) for v in turns),
                              daemon=True)
    player.start()
    player.join(20)
    try:
        assert not player.is_alive() and len(answers) == 150
        assert answers == [nearest_target(v, 0) for v in turns]
    finally:
        starting.close()
    assert worker.killed


def test_once_ready_the_worker_has_seen_every_turn_and_answers_the_next():
    worker, bot = Worker(), Bot()
    starting = StartingCapture("rectangles", wait=10.0)
    starting.attach(worker)
    turns = views(4)
    assert [starting(v, 0) for v in turns[:3]] == [nearest_target(v, 0) for v in turns[:3]]
    send(worker.out, ("ready",))
    serving = threading.Thread(target=worker.serve, args=(bot,), daemon=True)
    serving.start()
    for _ in range(1000):               # the reader thread has heard "ready"
        if starting.ready:
            break
        threading.Event().wait(0.005)
    assert starting(turns[3], 0) == (0, 0)       # the bot's own answer
    assert bot.seen == [(1, False), (2, False), (3, False), (4, True)]
    assert bot.warmup.done                       # fed turns leave its warm-up as it was
    starting.close()


def test_a_late_answer_is_dropped_and_the_rule_answers_that_turn():
    worker = Worker()
    starting = StartingCapture("rectangles", wait=0.0)
    starting.attach(worker)
    send(worker.out, ("ready",))
    for _ in range(1000):
        if starting.ready:
            break
        threading.Event().wait(0.005)
    first, second = views(2)
    assert starting(first, 0) == nearest_target(first, 0) and starting.late == 1
    send(worker.out, ("answer", 1, (5, 5)))     # turn 1's, too late
    send(worker.out, ("answer", 2, (7, 7)))
    starting.wait = 10.0
    assert starting(second, 0) == (7, 7)
    starting.close()


def test_contest_bot_loads_the_kernels_elsewhere_only_when_there_are_kernels(monkeypatch):
    from tronlab.jit import aot
    from tronlab.runner import starting as runner_starting

    spawned = []

    def spawn(args, **kwargs):
        spawned.append(args)
        return Worker()

    monkeypatch.setattr("tronlab.capture.starting._spawn", spawn)
    monkeypatch.setattr(aot, "loaded_names", lambda: [])
    assert not isinstance(contest_bot("nearest"), StartingCapture) and spawned == []
    bot = contest_bot("paths+max_nodes=5000", seed=3, stderr=open(os.devnull, "w"))
    try:
        assert isinstance(bot, StartingCapture)
        assert spawned == [["-m", "tronlab.capture.starting", "paths+max_nodes=5000",
                            "--seed", "3"]]
    finally:
        bot.close()
    monkeypatch.setattr(aot, "loaded_names", lambda: ["scan_kernel"])     # the twins
    assert not isinstance(contest_bot("paths"), StartingCapture)
    assert runner_starting.send is send


def test_a_worker_that_fails_or_ends_is_said_once_and_the_rule_plays_on():
    # a worker that ended mid-game left the program on the rule without a word
    import io

    for last, said in ((("failed", "RuntimeError: no LLVM"), "rectangles could not be loaded "
                        "(RuntimeError: no LLVM); answering with the nearest-neutral rule"),
                       (None, "rectangles stopped (its worker ended); "
                              "answering with the nearest-neutral rule")):
        worker, err = Worker(), io.StringIO()
        starting = StartingCapture("rectangles", stderr=err)
        starting.attach(worker)
        if last is None:
            send(worker.out, ("ready",))
        else:
            send(worker.out, last)
        worker.out.close()                  # the worker is gone
        for _ in range(1000):
            if starting.error is not None:
                break
            threading.Event().wait(0.005)
        view = views(1)[0]
        assert starting(view, 0) == nearest_target(view, 0) and not starting.ready
        assert err.getvalue().count("\n") == 1 and said in err.getvalue(), err.getvalue()
        starting.close()
