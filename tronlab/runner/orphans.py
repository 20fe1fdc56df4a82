"""Helper processes that do not outlive the process that started them.

A helper (a worker of :class:`~tronlab.runner.starting.StartingBot`, a pool worker of
an arena run, a student's file under :mod:`tronlab.arena.pyprogram`) left behind by a
parent killed outright would go on computing, hold pipes open or, re-parented to the
arena's subreaper, be mistaken for a live bot.  Two ways to end it with its parent:

* :func:`die_with_parent`: Linux's ``PR_SET_PDEATHSIG``, a signal from the kernel when
  the parent dies, plus the check the kernel leaves to us (a parent that died before
  the ask sends nothing);
* :func:`exit_with_parent`: a thread that polls for the parent, for helpers that must
  also end on systems without it.

Standard library only: a contest program and a student's file import this at start.
"""

from __future__ import annotations

import os
import sys
import threading
import time


def can_die_with_parent() -> bool:
    """Whether this system can send a process a signal when its parent dies
    (:func:`die_with_parent`): Linux, with ``prctl`` reachable through ctypes."""
    return _prctl() is not None


def _prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent(sig: int, parent: int | None = None, code: int | None = None) -> bool:
    """Ask Linux to send signal ``sig`` to this process when its parent dies
    (``PR_SET_PDEATHSIG``); False where that cannot be asked.  A parent that died
    before the ask sends nothing: given the parent's pid, a process whose parent is
    already gone exits at once, with ``code`` (by default ``128 + sig``, as if the
    signal had come).  Used by the helpers of :class:`~tronlab.runner.starting.StartingBot`,
    the arena's pool workers and a student's file under :mod:`tronlab.arena.pyprogram`."""
    prctl = _prctl()
    asked = prctl is not None and prctl(1, sig) == 0        # 1: PR_SET_PDEATHSIG
    if parent is not None and os.getppid() != parent:
        os._exit(128 + sig if code is None else code)
    return asked


def exit_with_parent(pid: int) -> None:
    """In a helper process: leave as soon as process ``pid`` (its parent) is gone."""
    def watch():
        while True:
            time.sleep(0.25)
            if os.getppid() != pid:
                os._exit(3)
    threading.Thread(target=watch, daemon=True, name="tronlab-parent-watch").start()
