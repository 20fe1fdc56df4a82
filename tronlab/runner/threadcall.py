"""Run an in-process bot's call under a time limit: the one clock both game loops use.

:func:`call_in_thread` runs ``fn(*args, **kwargs)`` in a daemon thread and waits
for it at most ``wait`` seconds, so that a bot stuck in an endless Python loop
cannot hang the game.  A call still running at the end of its wait is told to stop:
:class:`Abandoned` is raised inside it (:func:`_stop`), which ends an endless Python
loop at once, so it no longer takes half the interpreter from the other bot and
later cells; code blocked in C (a long wait, numba's compiled code) ends when it
returns to Python.  The thread is handed back, maybe still running.  It never
raises what ``fn`` raised (nothing can cross a thread's edge): any exception,
``SystemExit`` and ``KeyboardInterrupt`` included, comes back in
:attr:`Called.error` and the caller decides.  The two callers decide differently:

* the Tron engine (:class:`tronlab.runner.engine._Seat`) raises a
  ``KeyboardInterrupt`` again and records any other exception as the bot's fault
  (a course's own ``BaseException`` stop signal too); it runs a seat's calls on
  one :class:`Worker` for the whole game (starting a thread a move cost about
  0.15 ms, a queue 0.03 ms), and a worker still busy with an overrun call makes
  the bot's next move time out at once;
* the capture loop (:func:`tronlab.capture.game.play_capture`) records an
  ``Exception`` or ``SystemExit`` as the bot's fault and raises any other
  ``BaseException`` again (exercise 10 stops a game with one); it too keeps one
  :class:`Worker` a seat for the game, and an overrun call eliminates the player.

>>> called = call_in_thread(divmod, (7, 2), wait=1.0)
>>> called.value, called.error, called.worker
((3, 1), None, None)
>>> type(call_in_thread(int, ("x",)).error).__name__
'ValueError'
"""

from __future__ import annotations

import ctypes
import queue
import threading
import time
from typing import NamedTuple


class Abandoned(BaseException):
    """Raised inside a call that ran past its wait (:func:`call_in_thread`): nobody waits
    for its answer any more.  A ``BaseException``, so that a bot's own ``except
    Exception`` does not swallow it."""


class Called(NamedTuple):
    """What one call gave: ``value`` (None unless it returned), ``error`` (what it
    raised, else None), ``seconds`` (the time it took, or the whole wait when it
    overran) and ``worker`` (the thread still running after the wait, else None)."""
    value: object
    error: BaseException | None
    seconds: float
    worker: threading.Thread | None

    @property
    def overran(self) -> bool:
        """Whether the call was still running when the wait ended."""
        return self.worker is not None


def _run(fn, args, kwargs, box) -> None:
    """``fn``'s value or error into ``box``; while ``fn`` runs (``box["running"]``, set
    under ``box["lock"]``) :func:`_stop` may raise :class:`Abandoned` in this thread."""
    with box["lock"]:
        box["running"] = True
    try:
        box["value"] = fn(*args, **(kwargs or {}))
    except BaseException as err:  # noqa: BLE001 - the caller's policy decides
        box["error"] = err
    with box["lock"]:
        box["running"] = False


def _run_to_end(fn, args, kwargs, box, done=None) -> None:
    """:func:`_run` as a thread's whole work (``done`` set after): an
    :class:`Abandoned` that lands just as ``fn`` ended, outside its code (storing its
    answer or marking its end), is dropped, never a thread's crash."""
    try:
        _run(fn, args, kwargs, box)
    except Abandoned as err:
        box.setdefault("error", err)
    finally:
        if done is not None:
            done.set()


def raise_in_thread(ident: int, exc: type[BaseException] | None) -> bool:
    """Raise ``exc`` in the thread ``ident`` at its next Python bytecode (CPython's
    ``PyThreadState_SetAsyncExc``); None withdraws one not yet raised.  Whether a
    thread was found."""
    arg = None if exc is None else ctypes.py_object(exc)
    return ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), arg) == 1


def _box() -> dict:
    return {"lock": threading.Lock()}


def _stop(box, thread) -> bool:
    """Raise :class:`Abandoned` in ``thread`` if it still runs the call of ``box``, once;
    whether it was raised.  Only while the call's function runs (or :func:`_run` stores
    its end), so never in a later call or in a worker's own loop."""
    if not box["lock"].acquire(timeout=1.0):
        return False
    try:
        if not box.get("running") or "stopped" in box or thread.ident is None:
            return False
        box["stopped"] = True
        return raise_in_thread(thread.ident, Abandoned)
    finally:
        box["lock"].release()


def call_in_thread(fn, args=(), kwargs=None, wait: float | None = None, *,
                   name: str = "tronlab-call", stop: bool = True) -> Called:
    """``fn(*args, **kwargs)`` in a daemon thread named ``name``, waited for ``wait``
    seconds, then told to stop (:class:`Abandoned`) unless ``stop`` is false; with
    ``wait`` None, in this thread (no limit, no thread to start)."""
    box = _box()
    start = time.perf_counter()
    if wait is None:
        _run(fn, args, kwargs, box)
    else:
        worker = threading.Thread(target=_run_to_end, args=(fn, args, kwargs, box), daemon=True,
                                  name=name)
        worker.start()
        worker.join(wait)
        if worker.is_alive():
            if stop:
                _stop(box, worker)
            return Called(None, None, wait, worker)
    return Called(box.get("value"), box.get("error"), time.perf_counter() - start, None)


class Worker:
    """One daemon thread that runs calls one at a time, each waited for as
    :func:`call_in_thread` waits for its own thread.  While a call that overran
    still runs the worker is :attr:`busy` and takes no other; its late result
    goes to that call's own box, never to a later call.  :meth:`stop` ends the
    thread once it is free (one stuck for good in C code is abandoned, as a thread is).

    >>> worker = Worker("tronlab-doc")
    >>> worker.call(divmod, (7, 2), wait=1.0).value
    (3, 1)
    >>> worker.stop()
    """

    def __init__(self, name: str = "tronlab-worker"):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._done: threading.Event | None = None      # set when the latest call ended
        self.thread = threading.Thread(target=self._serve, daemon=True, name=name)
        self.thread.start()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            _run_to_end(*job)

    @property
    def busy(self) -> bool:
        """Whether a call that overran its wait still runs."""
        return self._done is not None and not self._done.is_set()

    def call(self, fn, args=(), kwargs=None, wait: float | None = None, *,
             stop: bool = True) -> Called:
        """:func:`call_in_thread` on this worker's thread (``wait`` None: as long as
        it takes; ``stop``: tell a call that overran to stop); a RuntimeError while it
        is :attr:`busy`."""
        if self.busy:
            raise RuntimeError("the worker is still busy with a call that overran")
        box, self._done = _box(), threading.Event()
        start = time.perf_counter()
        self._jobs.put((fn, args, kwargs, box, self._done))
        if not self._done.wait(wait):
            if stop:
                _stop(box, self.thread)
            return Called(None, None, wait, self.thread)
        return Called(box.get("value"), box.get("error"), time.perf_counter() - start, None)

    def settle(self, seconds: float) -> bool:
        """Wait at most ``seconds`` for a call that overran to end; whether the worker is
        free now (a call told to stop in Python code ends within microseconds)."""
        return self._done is None or self._done.wait(seconds)

    def stop(self) -> None:
        """End the thread after the call it runs, if any."""
        self._jobs.put(None)
