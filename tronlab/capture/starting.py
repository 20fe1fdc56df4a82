"""A Back to the Code contest program whose search loads in another process.

The rectangle and path bots need numba's kernels.  Without the ahead-of-time
module (:mod:`tronlab.jit.aot`) they come from numba's cache (one to three
seconds) or its compiler (tens of seconds).  Loaded in a thread of the program
itself (:class:`~tronlab.capture.warmup.Warmup`), that work holds Python's
interpreter lock for long stretches: a thread answering with the
nearest-neutral rule beside it measured stalls of 150-380 ms during a load
from a warm cache on a busy machine (``benchmarks/capture_loop.py``), past the
contest's 100 ms a turn and its 50 ms of grace, and a timeout eliminates the
player.  So
``tronlab bot NAME --protocol backtothecode`` plays a :class:`StartingCapture`,
as the Tron programs play a :class:`tronlab.runner.starting.StartingBot`:

1. every turn it answers with the nearest-neutral rule (B2, numpy only), and
   sends the turn to a *worker*, ``python -m tronlab.capture.starting SPEC``;
2. the worker makes the bot, loads its kernels, then says it is ready; the
   turns it missed meanwhile are fed to the bot without a search (it
   remembers every trail, as it would have in the program);
3. from then on each turn is the worker's: the program waits for its answer
   up to :data:`WAIT` seconds, and answers with B2 when none came (a late
   answer is dropped; the worker plays on).

The worker's pipes carry :func:`tronlab.runner.starting.send` messages, the
turns written by a thread of the program's (a loading worker reads none, and a
full pipe must not hold the program's answer up: it did, at round 65).  No
worker outlives the program: :meth:`StartingCapture.close` kills it, the kernel
does if the program is killed outright (Linux), and it leaves when its parent
is gone.
"""

from __future__ import annotations

import atexit
import os
import queue
import sys
import threading
import time
import types

from ..runner.orphans import exit_with_parent
from ..runner.starting import _spawn, end_process, receive, say, send
from .bots import nearest_target

#: seconds the program waits for the worker's answer to a turn (the contest gives 100 ms)
WAIT = 0.075
_LOADING = types.SimpleNamespace(done=False)    # a Warmup that is not done: B2, no search


class _WorkerGone(Exception):
    """The worker failed to load, or ended: the message says which."""


class StartingCapture:
    """Answers with the nearest-neutral rule until bot ``spec`` plays in its worker; see
    the module docstring.  ``ready`` is true while the worker answers turns."""

    def __init__(self, spec: str, *, seed=None, stderr=None, wait: float = WAIT):
        self.spec, self.seed, self.wait = spec, seed, wait
        self._stderr = stderr
        self.worker = None
        self.ready = False
        self.error = None
        self.late = 0               # turns the worker answered too late (B2 answered)
        self._replies: queue.Queue = queue.Queue()
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()   # turns for the worker
        self._turn = 0
        self._closed = False

    def start(self) -> None:
        """Start the worker and the thread that reads its replies."""
        from ..jit.cache import is_warm
        from .cli import COLD_HINT, WARM_NAME

        if not is_warm(WARM_NAME):
            self._log(COLD_HINT)
        args = ["-m", "tronlab.capture.starting", self.spec]
        if self.seed is not None:
            args += ["--seed", str(int(self.seed))]
        self.attach(_spawn(args, pipes=True, env=dict(os.environ, TRONLAB_AOT="0")))

    def attach(self, worker) -> None:
        """Talk to ``worker`` (a Popen with binary pipes, or anything with ``stdin``,
        ``stdout``, ``poll``, ``kill`` and ``wait``): its reader and writer threads."""
        self.worker = worker
        atexit.register(self.close)
        threading.Thread(target=self._read, daemon=True, name="tronlab-capture-start").start()
        threading.Thread(target=self._write, daemon=True, name="tronlab-capture-send").start()

    def _write(self) -> None:
        """Send the turns in order.  In a thread of its own: while the worker loads it
        reads nothing, and once the pipe is full (about 64 turns) a write waits."""
        while (message := self._outbox.get()) is not None:
            try:
                send(self.worker.stdin, message)
            except (AttributeError, OSError, ValueError):     # the worker is gone
                return

    def _read(self) -> None:
        try:
            hello = receive(self.worker.stdout)
            if not (isinstance(hello, tuple) and hello[0] == "ready"):
                raise _WorkerGone(hello[1] if isinstance(hello, tuple) and len(hello) > 1
                                  else f"the worker did not start ({hello!r})")
            self.ready = True
            while (message := receive(self.worker.stdout)) is not None:
                self._replies.put(message)
            raise _WorkerGone("its worker ended")
        except Exception as exc:        # noqa: BLE001 - B2 plays on; said once
            self.error = exc
            if not self._closed:
                why = exc if isinstance(exc, _WorkerGone) else f"{type(exc).__name__}: {exc}"
                self._log(f"tronlab bot: {self.spec} {'stopped' if self.ready else 'could not'}"
                          f"{'' if self.ready else ' be loaded'} ({why}); "
                          f"answering with the nearest-neutral rule (B2)")
        finally:
            self.ready = False
            self._replies.put(None)

    def __call__(self, view, player):
        self._turn += 1
        ask = self.ready
        self._outbox.put(("turn", self._turn, view, player, ask))
        if ask:
            reply = self._reply(self._turn)
            if reply is not None and reply[0] == "error":
                raise RuntimeError(f"{self.spec} in its worker: {reply[2]}")
            if reply is not None:
                return reply[2]
        return nearest_target(view, player)

    def _reply(self, turn: int):
        """The worker's reply to ``turn``, or None when it did not come in time."""
        end = time.perf_counter() + self.wait
        while True:
            try:
                reply = self._replies.get(timeout=max(0.0, end - time.perf_counter()))
            except queue.Empty:
                self.late += 1
                return None
            if reply is None:
                return None
            if reply[1] == turn:        # else a late answer to an earlier turn: dropped
                return reply

    def close(self) -> None:
        """Stop the worker (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.ready = False
        self._outbox.put(None)
        worker, self.worker = self.worker, None
        end_process(worker)

    def _log(self, message: str) -> None:
        say(self._stderr, message)


def _feed(bot, view, player) -> None:
    """A turn the program answered itself: the bot remembers it but does not search."""
    warmup, bot.warmup = bot.warmup, _LOADING
    try:
        bot(view, player)
    finally:
        bot.warmup = warmup


def serve(bot, inp, out) -> None:
    """The worker's loop: each turn from ``inp`` is fed to ``bot`` (a turn the program
    answered itself) or answered on ``out``, until ``inp`` ends."""
    while (message := receive(inp)) is not None:
        _, turn, view, player, ask = message
        if not ask:
            _feed(bot, view, player)
            continue
        try:
            send(out, ("answer", turn, bot(view, player)))
        except Exception as err:        # noqa: BLE001 - the program says so and answers
            send(out, ("error", turn, f"{type(err).__name__}: {err}"))


def worker_main(argv=None) -> int:
    """``python -m tronlab.capture.starting SPEC [--seed N]``: load, then :func:`serve`."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tronlab.capture.starting",
                                 description="Serve a capture bot's turns to a StartingCapture.")
    ap.add_argument("spec")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--parent", type=int)
    args = ap.parse_args(argv)
    if args.parent:
        exit_with_parent(args.parent)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr                     # stray prints must not break the pipe
    from ..jit.cache import mark_warm
    from ..runner.registry import make_spec_bot
    from .cli import WARM_NAME

    bot = make_spec_bot(args.spec, game="backtothecode", rng=args.seed)
    bot.prepare_for_protocol()
    bot.warmup.begin()
    bot.warmup.ready.wait()
    if bot.warmup.error is not None:
        send(out, ("failed", f"{type(bot.warmup.error).__name__}: {bot.warmup.error}"))
        return 1
    mark_warm(WARM_NAME)
    send(out, ("ready",))
    serve(bot, sys.stdin.buffer, out)
    return 0


if __name__ == "__main__":
    sys.exit(worker_main())
