"""The executor of a run on a Dask cluster, :class:`DaskGames` (made by
:func:`tronlab.arena.cluster.dask_executor`, after its checks of the workers): each
game goes with a check of the worker that plays it, a worker that fails the check is
left out, and the run says on stderr when no worker is left.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import sys
import threading
import time

#: what the run says on stderr when the cluster has no worker left
NO_WORKERS = ("no Dask worker is left on the scheduler at {address}: the run waits for "
              "workers to join it again (start some with 'dask worker {address}', or press "
              "Ctrl-C to stop; the games played so far are kept)")
#: what the run says on stderr when a worker comes after :data:`NO_WORKERS` and plays
JOINED = "the Dask worker {address} joined and passed the check: the run goes on"
#: what the run says on stderr when it leaves a worker out (:func:`leave_out`)
LEFT_OUT = ("the Dask worker {address} {why}: the run goes on without it, and it is "
            "retired from the cluster (start it again from this tronlab, {version} in "
            "{root}, seeing the bots' and maps' files at the same paths as here)")


class DaskGames(cf.Executor):
    """The executor of a run on a Dask cluster (made by
    :func:`~tronlab.arena.cluster.dask_executor`).

    Each game is sent with a check that runs on its worker first: a worker that joined
    after :func:`~tronlab.arena.cluster.check_dask_workers` (or was restarted since)
    and has another tronlab, code older than its files or lacks one of the run's
    ``files`` that this machine sees (a file gone from here too is no fault of the
    worker: the game is played, as it would be here), refuses the game.
    The run then says so in one line on stderr (:data:`LEFT_OUT`), retires that worker
    from the cluster (the scheduler moves its games elsewhere and its ``dask worker``
    ends) and sends the game again: it goes on with the other workers.  While games
    are out, a thread looks at the cluster every ``poll`` seconds and says on stderr
    when no worker is left (:data:`NO_WORKERS`, said again when a worker that joined
    is left out: the games wait for workers to join; Dask's own executor waited
    silently).  The first game that comes back after that names the worker that
    played it (:data:`JOINED`): only a game says that a worker passed the check (the
    thread, which counts workers, took one about to be left out for one that joined).
    A game's outcome is handed over once only: Dask's own executor logged Tornado's
    ``InvalidStateError`` when a game finished just as the run cancelled it.
    :meth:`cancel_games` cancels many games in one call to the scheduler."""

    def __init__(self, client, expected, probe, judge, files=(), poll=1.0):
        self._client, self._poll, self._expected = client, poll, expected
        self._game, self._files = _checked_game(probe, judge, expected[:2]), tuple(files)
        self._pending: set = set()
        self._tasks: dict = {}          # each game's future -> its Dask task now
        self._retired: set = set()      # addresses of the workers that refused a game
        self._batch = None              # the tasks cancel_games cancels together
        self._lock = threading.Lock()
        self._watcher, self._empty = None, False   # empty: NO_WORKERS said, none back since
        self._again = False                 # a worker was left out: say NO_WORKERS again

    def submit(self, fn, /, *args):
        future = cf.Future()
        future.add_done_callback(self._done)
        with self._lock:
            self._pending.add(future)
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, daemon=True,
                                                 name="tronlab-dask-watch")
                self._watcher.start()
        try:
            self._send(future, fn, args)
        except BaseException:           # the client is closed: no game is out
            with self._lock:
                self._pending.discard(future)
            raise
        return future

    def _send(self, future, fn, args):
        task = self._client.submit(self._game, _present(self._files), fn, *args, pure=False)
        with self._lock:
            gone = future.done()        # cancelled while a refused game was sent again
            if not gone:
                self._tasks[future] = task
        if gone:
            task.cancel()
            _tell_cancelled(future)
        else:
            task.add_done_callback(lambda t: self._returned(t, future, fn, args))

    def _returned(self, task, future, fn, args):
        refused = _refusal(task)
        if refused is None:
            _hand_over(task, future, self._workers_back)
            return
        try:
            self._retire(*refused)
            if not future.done():
                self._send(future, fn, args)
            else:                   # cancelled meanwhile (a bot given up on, mid-run)
                _tell_cancelled(future)
        except Exception as exc:    # noqa: BLE001 - (the client was closed): the run stops
            with contextlib.suppress(cf.InvalidStateError):
                future.set_exception(exc)

    def _retire(self, address, why):
        with self._lock:
            if address in self._retired:
                return
            self._retired.add(address)
        leave_out(self._client, address, why, self._expected)
        with self._lock:
            self._again = True

    def cancel_games(self, futures) -> None:
        """Cancel those of ``futures`` (this executor's) that are not done, with one
        call to the scheduler for all their games (``Future.cancel`` makes one each:
        a minute for thousands of queued games)."""
        with self._lock:
            self._batch = batch = []
        try:
            for future in futures:
                future.cancel()
        finally:
            with self._lock:
                self._batch = None
        if batch:
            with contextlib.suppress(Exception):    # the scheduler went away
                self._client.cancel(batch)

    def _done(self, future):
        with self._lock:
            self._pending.discard(future)
            task = self._tasks.pop(future, None)
            batch = self._batch
        if future.cancelled() and task is not None \
                and task.status not in ("cancelled", "finished", "error"):
            if batch is not None:
                batch.append(task)
            else:
                task.cancel()

    def _workers_back(self, address):
        """A game played at ``address`` came back (that worker passed the check)."""
        with self._lock:
            back, self._empty = self._empty, False
        if back:
            _say(JOINED.format(address=address))

    def _watch(self):
        while True:
            with self._lock:
                if not self._pending:
                    self._watcher = None
                    return
            try:
                workers = len(self._client.nthreads())
            except Exception:           # noqa: BLE001 - the scheduler went away: the run says so
                workers = None
            if workers == 0:
                with self._lock:
                    say = not self._empty or self._again
                    self._empty, self._again = True, False
                if say:
                    _say(NO_WORKERS.format(address=self._client.scheduler.address))
            time.sleep(self._poll)


def leave_out(client, address, why, expected) -> None:
    """Leave the worker at ``address`` out of the run, because of ``why``: one line on
    stderr (:data:`LEFT_OUT`) names it, and it is retired from the cluster (the
    scheduler moves its games elsewhere and its ``dask worker`` ends: it is started
    again from this tronlab, ``expected`` is ``(version, code, folder)``)."""
    version, _, root = expected
    _say(LEFT_OUT.format(address=address, why=why, version=version, root=root))
    with contextlib.suppress(Exception):    # gone already, or the client closed
        client.retire_workers([address])


def _say(text) -> None:
    """Print ``text`` on stderr as a line of its own: a progress bar drawn there is
    cleared first and drawn again below it."""
    from tqdm import tqdm

    with tqdm.external_write_mode(file=sys.stderr):
        print(text, file=sys.stderr, flush=True)


def _hand_over(task, future, played=None) -> None:
    """Give ``future`` the outcome of the Dask ``task``, unless the run cancelled it;
    first ``played(address)`` with the address of the worker that played a game that
    finished."""
    try:
        if task.status == "finished":
            address, row = task.result()
            if played is not None:
                played(address)
            future.set_result(row)
        elif task.status == "cancelled":
            if future.cancel():
                future.set_running_or_notify_cancel()
        else:
            future.set_exception(task.exception().with_traceback(task.traceback()))
    except (cf.InvalidStateError, RuntimeError):    # the run cancelled it meanwhile
        if future.cancelled():      # (its task finished first): tell its waiters
            with contextlib.suppress(RuntimeError):
                future.set_running_or_notify_cancel()


def _tell_cancelled(future) -> None:
    """Tell the waiters of ``future`` (as_completed, wait) that the run cancelled it, where
    no Dask task will: a cancelled future they are not told of is waited for for ever."""
    if future.cancelled():
        with contextlib.suppress(RuntimeError):     # told already
            future.set_running_or_notify_cancel()


def _refusal(task):
    """``(worker address, why)`` when the Dask ``task`` failed because its worker
    refused the game (:func:`_checked_game`), else None."""
    if task.status != "error":
        return None
    exc = task.exception()
    return tuple(exc.args) if type(exc).__name__ == "DaskWorkerRefused" else None


def _present(paths) -> tuple:
    """Those of ``paths`` that are files here."""
    return tuple(p for p in paths if os.path.isfile(p))


def _checked_game(probe, judge, expected):
    """The function each game runs on its worker, sent by value: it probes the worker's
    tronlab once a process, looks for ``files`` (the run's files that this machine
    sees, each one until the worker saw it) and plays ``fn(*args)`` only where the
    tronlab is this run's and every file is there: ``(worker address, its result)``."""
    lacks = _lacks()

    class DaskWorkerRefused(RuntimeError):
        """``(address, why)``: a worker that cannot play this run's games."""

    def tronlab_game(files, fn, *args):
        import os

        import tronlab
        from distributed import get_worker
        found = tronlab.__dict__.get("_dask_probe")
        if found is None:
            found = tronlab._dask_probe = probe()
        why = judge(found, *expected)
        if why is None and files:
            seen = tronlab.__dict__.setdefault("_dask_files_seen", set())
            lacking = [p for p in files if p not in seen and not os.path.isfile(p)]
            seen.update(set(files) - set(lacking))
            why = lacks(lacking) if lacking else None
        if why:
            raise DaskWorkerRefused(get_worker().address, why)
        return get_worker().address, fn(*args)

    return tronlab_game


def _lacks():
    """``lacks(paths)``: the words for a worker without ``paths``; nested, so that a
    game sends it to its worker by value."""

    def lacks(paths):
        return (f"lacks {', '.join(paths[:3])}"
                + (f" and {len(paths) - 3} more" if len(paths) > 3 else ""))

    return lacks
