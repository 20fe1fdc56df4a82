"""Run an in-process bot's call under a time limit: the one clock both game loops use.

:func:`call_in_thread` runs ``fn(*args, **kwargs)`` in a daemon thread and waits
for it at most ``wait`` seconds, so that a bot stuck in an endless Python loop
cannot hang the game: the thread is abandoned (Python cannot stop it) and handed
back, still running.  It never raises what ``fn`` raised (nothing can cross a
thread's edge): any exception, ``SystemExit`` and ``KeyboardInterrupt`` included,
comes back in :attr:`Called.error` and the caller decides.  The two callers
decide differently:

* the Tron engine (:class:`tronlab.runner.engine._Seat`) raises a
  ``KeyboardInterrupt`` again and records any other exception as the bot's fault
  (a course's own ``BaseException`` stop signal too); it keeps an overrun thread
  as the seat's *busy* call, so the bot's next move times out at once;
* the capture loop (:func:`tronlab.capture.game.play_capture`) records an
  ``Exception`` or ``SystemExit`` as the bot's fault and raises any other
  ``BaseException`` again (exercise 10 stops a game with one); an overrun call
  eliminates the player.

>>> called = call_in_thread(divmod, (7, 2), wait=1.0)
>>> called.value, called.error, called.worker
((3, 1), None, None)
>>> type(call_in_thread(int, ("x",)).error).__name__
'ValueError'
"""

from __future__ import annotations

import threading
import time
from typing import NamedTuple


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


def call_in_thread(fn, args=(), kwargs=None, wait: float | None = None, *,
                   name: str = "tronlab-call") -> Called:
    """``fn(*args, **kwargs)`` in a daemon thread named ``name``, waited for ``wait``
    seconds; with ``wait`` None, in this thread (no limit, no thread to start)."""
    box = {}

    def run():
        try:
            box["value"] = fn(*args, **(kwargs or {}))
        except BaseException as err:  # noqa: BLE001 - the caller's policy decides
            box["error"] = err

    start = time.perf_counter()
    if wait is None:
        run()
    else:
        worker = threading.Thread(target=run, daemon=True, name=name)
        worker.start()
        worker.join(wait)
        if worker.is_alive():
            return Called(None, None, wait, worker)
    return Called(box.get("value"), box.get("error"), time.perf_counter() - start, None)
