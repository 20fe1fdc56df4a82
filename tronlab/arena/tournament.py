"""Run a plan: play the games its store lacks, on any ``concurrent.futures`` executor.

:func:`run` skips every game whose key is already in the store, hands the rest
to an executor and writes each result the moment it comes back (one
transaction a game, in this process only, so workers never touch the
database).  Before the first game it loads each ``py:`` bot once in a process of its
own, so a file whose loading raises is a ValueError naming it, the line and the
exception (:func:`tronlab.arena.pycheck.check_bots_load`).  Executors:

* none and ``jobs=1`` - the games are played here, one after another;
* :func:`~tronlab.arena.pool.process_pool` (``jobs > 1``) - spawned worker processes
  that ignore Ctrl-C (this process handles it), end with this process if it is killed,
  kill their games' programs when they end, and keep each game they finish on disk
  until the run has stored it (a run killed with rows in the pool's pipe loses none);
* :func:`~tronlab.arena.cluster.dask_executor` - a Dask cluster, its workers
  checked and their numba caches warmed once first (a worker that joins later is
  checked before its first game);
* any other ``concurrent.futures.Executor`` you pass.

Each game is claimed just before it is handed on (:mod:`tronlab.arena.claims`): runs
sharing one database (a second terminal) share its games instead of each playing all.
Ctrl-C stops the run cleanly: games not yet finished are dropped (a rerun plays
them), the finished ones are in the store, and :func:`run` returns with
``interrupted`` set.  A worker process that dies in a game (a bot that kills
the process playing it, the machine's out-of-memory killer) breaks a process
pool, Dask gives up on a game that killed several workers, and a Dask scheduler
that goes away cancels every game in progress: the run stops the same way, with
``failed`` saying what happened.  So does a game that raises where an executor plays it
(:func:`game_error`), and a database it cannot write (locked, a full disk: ``CannotWrite``);
a game that finished as its write failed is kept beside it (:mod:`tronlab.arena.unstored`).
A progress bar (tqdm; a widget in a notebook) shows games done, the rate and the time left.

A game whose ``py:`` or ``cmd:`` bot's file changed since the plan was made (a student
handed in a new file while the run played) is not stored: its key names the old file
(:func:`~tronlab.arena.play.play_spec`); ``changed`` counts them, and a rerun plays
that bot's games with the new file.

A program that timed out on the first move of each of its first ``give_up_after`` games
is given up on (:mod:`tronlab.arena.giveup`): its games not started are cancelled (not
played, not stored; those running finish), and ``given_up`` says which and how many.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os
import signal
import sys
from dataclasses import dataclass, field

from .cluster import dask_executor  # noqa: F401  (its home before cluster.py)
from .claims import Claims
from .giveup import GIVE_UP_AFTER, GiveUp
from .ownscript import check_not_importing, own_script_note
from .play import plan_warm, play_spec, program_start
from .pool import _kill_pool, play_and_keep, process_pool
from .pycheck import load_problems
from .store import CannotWrite
from .unstored import (add_or_keep, end_run, file_changed, finished, hold_run, store_journals,
                       store_kept, store_or_keep)


@dataclass
class RunResult:
    """What a run did: games played now, games found already played, and whether
    Ctrl-C stopped it; ``rows`` are the rows written by this run."""
    planned: int
    skipped: int
    played: int = 0
    interrupted: bool = False
    rows: list = field(default_factory=list)
    failed: str | None = None     # why the executor could not go on (a worker died)
    #: the programs given up on (:class:`~tronlab.arena.giveup.GivenUp`), this run or before
    given_up: list = field(default_factory=list)
    #: the games left to another run that is playing them: key -> its pid
    held: dict = field(default_factory=dict)
    #: bots whose file changed while the run played -> their games it did not store
    changed: dict = field(default_factory=dict)
    #: finished games not stored when the run stopped, kept beside the database (unstored.py)
    kept: list = field(default_factory=list)


def _results(todo, executor, cancel=True, quit_=None, claims=None, window=None, unread=None,
             play=play_spec):
    """Rows as games finish.  ``cancel=False`` for a pool run() owns: its futures are
    cancelled by the pool's own shutdown, because cancelling them from here while the
    pool breaks down (Ctrl-C reaches the workers too) makes CPython 3.11's pool thread
    fail with InvalidStateError (fixed in 3.12).  The games of a bot ``quit_`` (a
    :class:`~tronlab.arena.giveup.GiveUp`) gives up on are not played from then on.
    Each game is claimed (``claims``, :mod:`tronlab.arena.claims`) just before it is
    handed on, at most ``window`` at once (None: all at the start), and passed over when
    another run holds it or stored it meanwhile; an executor plays it with ``play``.  The
    rows of the games that finished but were not read when the run stopped go to
    ``unread``."""
    def claimed(specs):
        if quit_ is not None:
            quit_.dropped += sum(map(quit_.skips, specs))
            specs = [s for s in specs if not quit_.skips(s)]
        if claims is None or not specs:
            return specs
        got = set(claims.claim([s.key for s in specs]))
        return [s for s in specs if s.key in got]

    if executor is None:
        for spec in todo:
            yield from map(play_spec, claimed([spec]))
        return
    # a Dask worker has a folder and an environment of its own: bot paths are read from our
    # folder, programs get our TRONLAB_PROGRAM_START, a cmd: line's Python is ours (play_spec)
    where = (os.getcwd(), program_start(), sys.executable)
    waiting = iter(todo)
    futures: dict = {}              # future -> its game, all handed on
    running: set = set()            # those not yet read nor cancelled
    try:
        while True:
            # games another run holds make room for the next: fill the window again
            while window is None or len(running) < window:
                specs = list(itertools.islice(waiting, (window or len(todo)) - len(running)))
                if not specs:
                    break
                for spec in claimed(specs):
                    futures[(future := _submit(executor, spec, where, play))] = spec
                    running.add(future)
            if not running:
                return
            done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for future in done:
                running.discard(future)
                try:
                    row = future.result()
                except Exception as exc:
                    raise WorkerDied(worker_death(exc, futures[future])
                                     or game_error(exc, futures[future])) from exc
                yield row
                if quit_ is not None and quit_.given_up:
                    running -= _drop(executor, {f: futures[f] for f in running}, quit_)
    finally:
        if unread is not None:
            unread.extend(finished(running))
        if cancel:
            _cancel(executor, futures)


def _submit(executor, spec, where, play=play_spec):
    """``executor.submit(play, spec, *where)``.  A pool spawns its workers in
    submit(): they start with SIGINT blocked (the mask is inherited), so a Ctrl-C while
    one still imports does not print its traceback; this process still gets the Ctrl-C
    (another thread takes it, or it waits for the unblock)."""
    mask = hasattr(signal, "pthread_sigmask")
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if mask else None
    try:
        return executor.submit(play, spec, *where)
    finally:
        if mask:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _drop(executor, futures, quit_) -> set:
    """Cancel the games not started of the bots ``quit_`` gave up on; those cancelled."""
    games = [f for f, spec in futures.items() if not f.done() and quit_.skips(spec)]
    _cancel(executor, games)
    gone = {f for f in games if f.cancelled()}
    quit_.dropped += len(gone)
    return gone


def _cancel(executor, futures) -> None:
    """Cancel the games not finished: in one call where the executor can (a Dask run's
    :meth:`~tronlab.arena.daskgames.DaskGames.cancel_games`), else one by one."""
    many = getattr(executor, "cancel_games", None)
    if many is not None:
        many(futures)
    else:
        for future in futures:
            future.cancel()


class WorkerDied(RuntimeError):
    """A worker process died in a game, or the Dask scheduler went away: the executor
    cannot go on."""


def worker_death(exc, spec) -> str | None:
    """A sentence when ``exc`` (from a game's future) says the executor cannot go on (a
    worker process died, a Dask scheduler went away and cancelled the games), else
    None.  A broken pool fails every game in progress, so its sentence names none;
    Dask names the game it gave up on or cancelled first."""
    if isinstance(exc, cf.BrokenExecutor):
        return ("a worker process died during a game (a bot may have ended the process "
                "playing it, or the system killed it) and the process pool cannot go on"
                + own_script_note())
    game = f"the game {' v '.join(spec.names)} on {spec.map_label} (key {spec.key})"
    if type(exc).__name__ == "KilledWorker":
        return f"Dask gave up on {game}: every worker that played it died"
    if isinstance(exc, cf.CancelledError):
        # this run cancels its futures only once it stops reading them
        return (f"the executor cancelled {game} and every game in progress; on a Dask "
                f"cluster, the scheduler went away (it was stopped, or the network to it "
                f"failed): start it and its workers again")
    return None


def game_error(exc, spec) -> str:
    """One sentence for an exception that a game raised where an executor played it (a
    defect, not a bot's fault: those are in the game's row): the game, the exception
    and the line that raised it."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {os.path.basename(frames[-1].filename)}, line {frames[-1].lineno})" \
        if frames else ""
    return (f"the game {' v '.join(spec.names)} on {spec.map_label} (key {spec.key}) "
            f"failed where it was played: {type(exc).__name__}: {exc}{where}")


def _progress(total, progress):
    if not progress or total == 0:
        return None
    from tqdm.auto import tqdm
    return tqdm(total=total, unit="game", desc="arena", smoothing=0.05)


def check_plan_loads(plan, done=frozenset()) -> None:
    """Load every ``py:`` bot of the games of ``plan`` not in ``done`` once, in a
    child process: a bot whose loading raises is named now (file, line,
    exception), not reported as "exited" in each of its games."""
    problems = plan_load_problems(plan, done)
    if problems:
        raise ValueError("; ".join(problems.values()))


def plan_load_problems(plan, done=frozenset()) -> dict:
    """:func:`check_plan_loads`'s findings without raising: absolute path of each
    ``py:`` file whose loading raised -> one line naming it, its line and the exception."""
    files = sorted({b[3:] for spec in plan if spec.key not in done
                    for b in spec.bots if b.startswith("py:")})
    return load_problems(files, program_start()) if files else {}


def run(plan, store, *, executor=None, jobs: int = 1, progress: bool = True, on_game=None,
        check_load: bool = True, give_up_after: int = GIVE_UP_AFTER, give_up=None) -> RunResult:
    """Play the games of ``plan`` that ``store`` lacks; see the module docstring.

    ``on_game(row)`` is called after each game is stored.  ``check_load=False``
    skips :func:`check_plan_loads` (the caller ran it).  ``give_up_after``: the games
    a program may time out on the first move of, each of its first, before the run
    gives up on it (0: never; :mod:`tronlab.arena.giveup`); ``give_up``: the
    :class:`~tronlab.arena.giveup.GiveUp` of the stored games, if the caller made it."""
    check_not_importing()
    quit_ = GiveUp(plan, store, give_up_after) if give_up is None else give_up
    todo, result = _todo(plan, store, quit_)
    if check_load:
        check_plan_loads(todo)
    own, held = _own_pool(todo, store, jobs) if executor is None else (None, None)
    executor, journals = executor if own is None else own, own is not None
    bar, claims, unread = _progress(len(todo), progress), Claims(store), []
    # a pool's games are claimed as its workers take them, a Dask run's all at once
    rows = _results(todo, executor, cancel=own is None, quit_=quit_, claims=claims,
                    window=getattr(executor, "_max_workers", None), unread=unread,
                    play=play_and_keep if journals else play_spec)
    workers: set = set()         # every pool worker this run had: never swept as an orphan
    write = True                 # False when the database cannot be written
    try:
        for row in rows:
            _sweep(executor, workers)
            game = not file_changed(row, result)     # else a file changed: no game
            if game:
                add_or_keep(store, row, result)
                quit_.add(row)
            if bar is not None:
                bar.update(1)
                bar.total = len(todo) - quit_.dropped - claims.passed
            if on_game is not None and game:
                on_game(row)
    except (KeyboardInterrupt, WorkerDied, CannotWrite) as exc:
        if isinstance(exc, KeyboardInterrupt):
            result.interrupted = True
            workers.update(getattr(executor, "_processes", None) or ())
        else:       # the executor cannot go on, or the database cannot be written
            result.failed, write = str(exc), not isinstance(exc, CannotWrite)
        if own is not None:
            _kill_pool(own)
            own = None
    finally:
        if bar is not None:
            bar.total = len(todo) - quit_.dropped - claims.passed
            bar.close()
        if own is not None:
            own.shutdown(wait=True, cancel_futures=True)
        rows.close()
        _store_the_rest(store, unread, result, write, journals, held)
        claims.release()
        _sweep(None, workers)
    done = store.done_keys()
    result.given_up = quit_.report(plan, done)
    result.held = claims.still_held(done)
    return result


def _own_pool(todo, store, jobs) -> tuple:
    """:func:`run`'s own process pool when it has ``jobs > 1`` and two games or more to
    play, its workers writing journals (:func:`~tronlab.arena.pool.play_and_keep`) under
    the run's mark (:func:`~tronlab.arena.unstored.hold_run`): ``(pool, mark)``."""
    if jobs <= 1 or len(todo) <= 1:
        return None, None
    held = hold_run(store.path)
    return process_pool(min(jobs, len(todo)), plan_warm(todo),
                        (os.path.abspath(store.path), os.getpid())), held


def _store_the_rest(store, unread, result, write, journals, held) -> None:
    """When :func:`run` stops: the rows it did not read (``unread``), then those only its
    workers' journals hold, stored (or kept, :mod:`tronlab.arena.unstored`), its mark
    dropped."""
    store_or_keep(store, unread, result, write)
    if journals and write and not result.kept:
        store_journals(store, result)
    end_run(store.path, held)


def _todo(plan, store, quit_) -> tuple[list, RunResult]:
    """The games of ``plan`` to play (not stored, no bot given up on), and the run's
    result so far (the games planned and those stored already).  The plan's stored
    games are the latest of theirs again (a student went back to an earlier file:
    :meth:`~tronlab.arena.store.Store.take`), for ``arena table`` and ``arena export``; the
    games an earlier run finished but could not store are stored first (:mod:`.unstored`)."""
    store_kept(store)
    store.take({spec.key for spec in plan})
    done = store.done_keys()
    todo = [spec for spec in {spec.key: spec for spec in plan if spec.key not in done}.values()
            if not quit_.skips(spec)]
    keys = {s.key for s in plan}
    return todo, RunResult(planned=len(keys), skipped=len(keys & done))


def _sweep(executor, workers: set) -> None:
    """In a command-line run (a child subreaper), end the processes that games left
    behind and that were handed to this one (:func:`tronlab.runner.reaper.sweep_orphans`).
    ``workers`` collects the pool's worker pids as they are seen: after Ctrl-C the pool
    is gone from here while its workers still end themselves, and they must be left to
    do that (killing one that holds the pool's queue lock would hang this process)."""
    from ..runner import reaper
    if reaper.is_subreaper():
        workers.update(getattr(executor, "_processes", None) or ())
        reaper.sweep_orphans(keep=workers)
