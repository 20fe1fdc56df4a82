"""A contest program that never waits for the compiler: :class:`StartingBot`.

A search bot's kernels come from the ahead-of-time module (milliseconds), from
numba's cache (one to two seconds: importing numba, building its registries,
loading each kernel) or from numba's compiler (tens of seconds on an empty
cache).  Contests give one to three seconds for the first move and a tenth of
a second to a second for the others.  So ``tronlab bot NAME`` without the AOT
module plays a :class:`StartingBot`:

1. It answers at once from the plain-Python ``quick`` bot
   (:mod:`tronlab.tron.bots.quick`), which imports nothing heavy.
2. On a cold cache (:func:`tronlab.jit.cache.is_warm`) it prints a one-line
   hint on stderr and starts ``python -m tronlab.jit.warmup --bot NAME`` at a
   lower priority (``nice 10``): that process compiles the bot's kernels into
   numba's cache.
3. Then it starts a *worker*, ``python -m tronlab.runner.starting SPEC``, which
   loads the bot from the cache and says when it is ready.  ``SPEC`` is the name
   with the bot's options as ``tronlab bot`` got them (``chamber+depth=3``): the
   worker reads them as :func:`tronlab.arena.bots.make_bot` does (JSON values).
4. From then on every move is the worker's: the board goes down a pipe, the
   move comes back.  If the worker does not answer within 90% of the move's time
   (or dies), the quick bot answers instead and the worker is dropped.

Why other processes and not a thread: loading numba holds Python's interpreter
lock for up to a quarter of a second at a time (measured: dlopen of LLVM,
numba's first dispatch, the bot's warm-up search), longer than a CodinGame move
may take.  In its own process it cannot hold this process's lock.

No helper outlives the bot: both are killed by :meth:`StartingBot.close`
(:func:`tronlab.runner.stdio.run_stdio` calls it when the game ends or stdin
closes), at interpreter exit, and - if this process is killed outright - by the
kernel (Linux ``PR_SET_PDEATHSIG``) or by their own check that their parent is
still there.
"""

from __future__ import annotations

import atexit
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import time

from .orphans import die_with_parent, exit_with_parent

#: bots that use no compiled kernel: they start at once anyway
NO_KERNELS = ("random", "hugger", "quick")
HINT = ("tronlab bot: numba's cache is cold, so the compiled search is not ready; answering "
        "with the quick bot while it compiles in the background (run `tronlab warmup` once "
        "to start at full strength)")
_HEADER = struct.Struct("<I")
_REPLY_SHARE = 0.9          # of the move's time: how long to wait for the worker


# ---------------------------------------------------------------------------
# messages: a 4-byte length, then a pickle
# ---------------------------------------------------------------------------
def send(stream, message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream):
    """The next message, or None at end of stream."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (n,) = _HEADER.unpack(head)
    data = stream.read(n)
    return pickle.loads(data) if len(data) == n else None


def _child_setup(nice: int, parent: int) -> None:     # pragma: no cover - runs in the child
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass
    die_with_parent(signal.SIGKILL, parent)


def _spawn(args, *, nice=0, env=None, pipes=False):
    kw = {"stdin": subprocess.PIPE if pipes else subprocess.DEVNULL,
          "stdout": subprocess.PIPE if pipes else subprocess.DEVNULL,
          "stderr": None if pipes else subprocess.PIPE,
          "env": env}
    parent = os.getpid()
    if os.name == "posix":
        kw["preexec_fn"] = lambda: _child_setup(nice, parent)
    return subprocess.Popen([sys.executable, *args, "--parent", str(parent)], **kw)


# ---------------------------------------------------------------------------
# the bot the game talks to
# ---------------------------------------------------------------------------
class StartingBot:
    """Answers with the quick bot until bot ``spec`` (a name, or ``NAME+key=value``
    with the bot's options) runs in its worker; see the module docstring.  ``ready``
    is true once the worker answers moves; ``switched_after`` the number of quick
    answers before the first worker answer; ``compiler`` and ``worker`` the helper
    processes (or None)."""

    def __init__(self, spec: str, *, time=None, seed=None, stderr=None, nice: int = 10):
        from ..tron.bots.quick import QuickBot

        self.spec = spec
        self.name = spec.partition("+")[0]      # whose kernels: the options change none
        self.time = time
        self.seed = seed
        self.nice = nice
        self._stderr = stderr
        self.quick = QuickBot()
        self.compiler = None
        self.worker = None
        self.ready = False
        self.error = None
        self.switched_after = None
        self.ready_after = None
        self.last_stats = None
        self._replies: queue.Queue = queue.Queue()
        self._started = time_now()
        self._game = None
        self._move_time = 1.0
        self._bot_time = None       # the worker's bot's thinking time (a time= option wins)
        self._clock = None
        self._turn_start = None
        self._answers = 0
        self._closed = False
        self._thread = None

    # ---- helpers ---------------------------------------------------------------
    def start(self) -> None:
        """Start the compile (cold cache) and the worker, in the background."""
        from ..jit.cache import is_warm

        if not is_warm(self.name):
            self._log(HINT)
            self.compiler = _spawn(["-m", "tronlab.jit.warmup", "--bot", self.name, "--quiet"],
                                   nice=self.nice, env=dict(os.environ, TRONLAB_AOT="0"))
        atexit.register(self.close)
        self._thread = threading.Thread(target=self._run, name="tronlab-starting", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            if self.compiler is not None:
                _, err = self.compiler.communicate()
                if self._closed:
                    return
                if self.compiler.returncode != 0:
                    tail = (err or b"").decode(errors="replace").strip().splitlines()[-1:]
                    raise RuntimeError(f"the background compile failed (exit "
                                       f"{self.compiler.returncode}) {' '.join(tail)}")
            args = ["-m", "tronlab.runner.starting", self.spec]
            if self.time is not None:
                args += ["--time", repr(float(self.time))]
            if self.seed is not None:
                args += ["--seed", str(int(self.seed))]
            self.worker = _spawn(args, pipes=True, env=dict(os.environ, TRONLAB_AOT="0"))
            hello = receive(self.worker.stdout)
            if self._closed:
                return
            if not (isinstance(hello, tuple) and hello[0] == "ready"):
                raise RuntimeError(f"the worker did not start: {hello!r}")
            self.ready_after = time_now() - self._started
            self._bot_time = hello[2] if len(hello) > 2 else None
            self.ready = True
            while True:
                message = receive(self.worker.stdout)
                self._replies.put(message)
                if message is None:
                    return
        except Exception as exc:        # stay with the quick bot for the rest of the game
            self.error = exc
            self.ready = False
            if not self._closed:
                self._log(f"tronlab bot: {self.spec} could not be started, playing the quick "
                          f"bot: {type(exc).__name__}: {exc}")

    def wait_ready(self, timeout=None) -> bool:
        """Wait until the worker is ready (or failed); True when ready."""
        end = None if timeout is None else time_now() + timeout
        while not self.ready and self.error is None and self._thread.is_alive():
            if end is not None and time_now() >= end:
                break
            time.sleep(0.01)
        return self.ready

    # ---- the bot protocol -----------------------------------------------------------
    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None, time_bank=None,
                   max_turns=None):
        """Kept for the worker's bot, heard when it first moves (``time_bank``, the
        game's whole Light Riders bank, and ``max_turns``, its turn limit, too: each
        passed on if its ``start_game`` takes it)."""
        from .games import get_game

        rules = getattr(rules, "name", rules)
        self._game = (board.copy(), player, {"rules": rules, "time_limit": time_limit,
                                             "time_bank": time_bank, "max_turns": max_turns})
        limit = self.time or time_limit
        if limit is None and rules is not None:
            limit = get_game(rules).move_time
        self._move_time = float(limit or 1.0)

    def set_clock(self, time_left, time_per_move=None):
        """The server's clock for the next move (the Light Riders time bank): passed
        on to the worker's bot, and the longest wait for its answer."""
        self._clock = (float(time_left), None if time_per_move is None else float(time_per_move))

    def set_turn_start(self, start_ns):
        """When the turn's input began (a contest program): passed on to the worker's
        bot (the clock is the machine's monotonic one, shared by both processes)."""
        self._turn_start = int(start_ns)

    def __call__(self, board, player):
        clock, self._clock = self._clock, None
        turn_start, self._turn_start = self._turn_start, None
        if self.ready:
            move = self._ask_worker(board, player, clock, turn_start)
            if move is not None:
                return move
        self._answers += 1
        move = self.quick(board, player)
        self.last_stats = self.quick.last_stats
        return move

    def _ask_worker(self, board, player, clock=None, turn_start=None):
        t0 = time_now()
        wait = _REPLY_SHARE * ((self._bot_time or self._move_time) if clock is None else clock[0])
        try:
            if self.switched_after is None:
                self.switched_after = self._answers
                if self.compiler is not None:
                    self._log(f"tronlab bot: {self.spec} ready after {self.ready_after:.1f} s; "
                              f"switching from the quick bot")
                if self._game is not None:
                    send(self.worker.stdin, ("start_game", *self._game))
            send(self.worker.stdin, ("move", board, player, clock, turn_start))
            reply = self._replies.get(timeout=max(0.0, wait - (time_now() - t0)))
            if not (isinstance(reply, tuple) and reply[0] == "move"):
                raise RuntimeError(f"the worker answered {reply!r}")
            self.last_stats = reply[2]
            return reply[1]
        except (queue.Empty, OSError, ValueError, RuntimeError) as exc:
            why = "no answer in time" if isinstance(exc, queue.Empty) else str(exc)
            self._log(f"tronlab bot: the {self.name} worker failed ({why}); "
                      f"the quick bot plays on")
            self.ready = False
            end_process(self.worker)
            return None

    def close(self) -> None:
        """Stop both helpers (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.ready = False
        if self.worker is not None:
            try:
                self.worker.stdin.close()         # the worker's cue to leave
            except OSError:
                pass
        end_process(self.compiler)
        end_process(self.worker)

    def _log(self, msg: str) -> None:
        say(self._stderr, msg)


def end_process(proc) -> None:
    """Kill ``proc`` (a helper process, or None) if it still runs, and reap it."""
    if proc is not None and proc.poll() is None:
        proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def say(stream, msg: str) -> None:
    """One line on ``stream`` (None: stderr), silently nothing when it is closed."""
    stream = stream if stream is not None else sys.stderr
    try:
        stream.write(msg + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


time_now = time.perf_counter


# ---------------------------------------------------------------------------
# the worker: python -m tronlab.runner.starting SPEC [--time S] [--seed N]
# ---------------------------------------------------------------------------
def worker_main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tronlab.runner.starting",
                                 description="Serve a bot's moves to a StartingBot over pipes.")
    ap.add_argument("spec", help="a bot's name, with options as NAME+key=value (JSON values)")
    ap.add_argument("--time", type=float)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--parent", type=int)
    args = ap.parse_args(argv)
    if args.parent:
        exit_with_parent(args.parent)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr                     # stray prints must not break the pipe
    inp = sys.stdin.buffer

    from ..jit.cache import mark_warm
    from .registry import make_spec_bot

    bot = make_spec_bot(args.spec, time=args.time, rng=args.seed)
    mark_warm(args.spec.partition("+")[0])
    bot_time = getattr(bot, "time", None)
    send(out, ("ready", args.spec, bot_time if isinstance(bot_time, float) else None))
    while True:
        message = receive(inp)
        if message is None:
            return 0
        if message[0] == "start_game":
            _, board, player, kw = message
            hook = getattr(bot, "start_game", None)
            if hook is not None:
                from .engine import START_KEYWORDS, takes_keyword
                for name in START_KEYWORDS:     # the engine's list: none forgotten here
                    if name in kw and not takes_keyword(hook, name):
                        kw.pop(name)
                hook(board, player, **kw)
        elif message[0] == "move":
            _, board, player, *clock = message
            if clock and clock[0] is not None and hasattr(bot, "set_clock"):
                bot.set_clock(*clock[0])
            if len(clock) > 1 and clock[1] is not None and hasattr(bot, "set_turn_start"):
                bot.set_turn_start(clock[1])
            move = bot(board, player)
            send(out, ("move", move, getattr(bot, "last_stats", None)))


if __name__ == "__main__":
    sys.exit(worker_main())
