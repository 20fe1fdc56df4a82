"""The process pool of an arena run: spawned workers that ignore Ctrl-C (the run handles
it), end with the run's process if it is killed (Linux), kill their games' programs when
they end, and write each game they finish to a journal of their own before handing its
row back (:mod:`tronlab.arena.unstored`), so that a run killed with rows still in the
pool's pipe loses no finished game.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal

from .play import DEFAULT_WARM, play_spec, warm_up
from .unstored import journal_path, keep
from ..runner.orphans import die_with_parent
from ..tron.values import is_whole


def _on_term(signum, frame):
    """A worker told to stop kills the programs of its game, then exits at once; a second
    SIGTERM meanwhile is ignored (Ctrl-C and the pool's shutdown can both send one)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    from ..runner import reaper        # already loaded by _init_worker: no import here
    reaper.kill_all()
    os._exit(128 + signum)


#: in a pool worker of :func:`run`: ``(database, the run's pid)`` whose journal it writes
_JOURNAL: list = []


def _init_worker(warm, journal=None, parent=None) -> None:
    # the handler must not import: a signal that arrives while the handler imports would
    # run it again on a half-initialised module
    from ..runner import reaper  # noqa: F401
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):     # blocked at spawn (_results): a Ctrl-C that
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # came is dropped now
    signal.signal(signal.SIGTERM, _on_term)
    die_with_parent(signal.SIGTERM, parent)     # a parent already gone: exit now
    if journal is not None:
        _JOURNAL[:] = [journal]
    warm_up(warm)


def play_and_keep(spec, *where) -> dict:
    """:func:`~tronlab.arena.play.play_spec` in a pool worker of :func:`run`: the finished
    game is also on disk in the worker's journal (:mod:`tronlab.arena.unstored`) before
    its row goes back, so a run killed before it reads the row loses no game."""
    row = play_spec(spec, *where)
    if _JOURNAL and "changed" not in row:
        db, run_pid = _JOURNAL[0]
        keep(db, row, journal_path(db, run_pid, os.getpid()))
    return row


def process_pool(jobs: int, warm=DEFAULT_WARM, journal=None) -> cf.ProcessPoolExecutor:
    """``jobs`` spawned worker processes, each with the bots ``warm`` loaded once (and,
    for :func:`run`, ``journal``: where :func:`play_and_keep` writes its games)."""
    import multiprocessing

    if not is_whole(jobs) or jobs < 1:
        raise ValueError(f"jobs is a whole number >= 1, got {jobs!r}")
    return cf.ProcessPoolExecutor(int(jobs), mp_context=multiprocessing.get_context("spawn"),
                                  initializer=_init_worker,
                                  initargs=(tuple(warm), journal, os.getpid()))


#: seconds a stopped pool's thread gets to wind down before the run goes on without it
_POOL_GONE = 30.0


def _kill_pool(executor) -> None:
    processes = getattr(executor, "_processes", None) or {}
    for proc in list(processes.values()):
        try:
            proc.terminate()       # SIGTERM: the worker kills its programs (_on_term)
        except (OSError, ValueError):
            pass
    manager = getattr(executor, "_executor_manager_thread", None)   # shutdown forgets it
    # no cancel_futures: the pool is broken now, and CPython 3.11's pool thread fails with
    # InvalidStateError when it marks a future broken that was cancelled meanwhile
    executor.shutdown(wait=False)
    # wait for the pool's thread to close its wake-up pipe: at interpreter exit CPython
    # (3.11, 3.12) writes to that pipe without its lock, and a thread closing it meanwhile
    # made Ctrl-C print "OSError: [Errno 9] Bad file descriptor" after the table.  The
    # exit would join the thread anyway (the workers are ending: it ends soon)
    if manager is not None:
        manager.join(timeout=_POOL_GONE)
