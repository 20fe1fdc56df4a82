"""Play a plan on a Dask cluster: :func:`dask_executor` and the checks it makes.

A Dask worker is another process, maybe on another machine, started from a folder
of its own: before the first game :func:`check_dask_workers` makes sure that at
least one worker joined, that every worker imports this very tronlab (the same
version and files: otherwise its games are another program's games, or fail in
it), and that it sees every file the plan's games read (``py:`` files, programs,
map files) at the same path as here.  Each game is then sent with this process's
folder, from which relative bot paths are read (:func:`tronlab.arena.play.play_spec`),
through :class:`DaskGames`, which checks a worker that joins later before its first
game (one that fails is left out with a line on stderr and retired, and the run goes
on) and says on stderr when no worker is left.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import sys
import threading
import time

from .play import DEFAULT_WARM, warm_up

#: what the run says on stderr when the cluster has no worker left
NO_WORKERS = ("no Dask worker is left on the scheduler at {address}: the run waits for "
              "workers to join it again (start some with 'dask worker {address}', or press "
              "Ctrl-C to stop; the games played so far are kept)")
#: what the run says on stderr when a worker that joined late refuses a game
LEFT_OUT = ("the Dask worker {address} {why}: the run goes on without it, and it is "
            "retired from the cluster (start it again from this tronlab, {version} in "
            "{root}, seeing the bots' and maps' files at the same paths as here)")


def dask_executor(client_or_address, warm=DEFAULT_WARM, wait_for_workers=30.0, files=()):
    """``(executor, client)`` for a Dask cluster (an address or a ``distributed.Client``);
    every worker loads the bots ``warm`` once before the first game.  A ValueError
    when no worker joins within ``wait_for_workers`` seconds, when a worker cannot
    import tronlab or has another version or other files of it (its games would not
    be this tronlab's games), or lacks one of ``files`` (:func:`plan_files`):
    :func:`check_dask_workers`.  A client made here from an address is closed on an
    error.  The executor is a :class:`DaskGames`: a worker that joins later is checked
    before its first game (and left out if it fails), and a run left without workers
    says so on stderr."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--dask needs the distributed package: pip install 'tronlab[dask]'") \
            from None
    client = client_or_address
    if not isinstance(client, Client):
        client = Client(client_or_address)
    try:
        expected = check_dask_workers(client, wait_for_workers, files)
        client.run(warm_up, tuple(warm))
    except BaseException:
        if client is not client_or_address:
            client.close()
        raise
    return DaskGames(client, expected, _code_probe(), _verdict(), sorted(files)), client


def check_dask_workers(client, wait=30.0, files=()) -> tuple:
    """Refuse a cluster without workers (after ``wait`` seconds), workers whose
    tronlab is missing or not this process's (another version, or the same version
    with other code: a hash of its files, an install from another commit), workers
    that run code older than their files and workers that lack one of ``files``
    (absolute paths).  Returns this process's ``(version, code hash, folder)``."""
    import asyncio

    address = client.scheduler.address
    try:
        client.wait_for_workers(1, timeout=wait)
    except (TimeoutError, asyncio.TimeoutError):    # one class from Python 3.11 on
        raise ValueError(f"no Dask worker joined the scheduler at {address} within "
                         f"{wait:g} s: start some with 'dask worker {address}'") from None

    probe, judge = _code_probe(), _verdict()
    version, code, root, _ = probe()
    wrong = [f"{worker} {why}" for worker, found in sorted(client.run(probe).items())
             if (why := judge(found, version, code))]
    if wrong:
        raise ValueError(f"every Dask worker needs this tronlab ({version}, in {root}), but "
                         + "; ".join(wrong))
    _check_files(client, sorted(files))
    return version, code, root


def _verdict():
    """``judge(found, version, code)``: why a worker whose probe gave ``found`` cannot
    play this run's games, or None; sent by value to the workers, like the probe."""

    def judge(found, version, code):
        v, c, r, stale = found
        if v is None:
            return c
        if v != version:
            return f"has tronlab {v}"
        if c != code:
            return f"has other code of tronlab {v} (in {r})"
        if stale:
            return stale
        return None

    return judge


def _code_probe():
    """A function that tells which tronlab its process runs, defined here so that
    cloudpickle sends it to the workers by value: a worker without tronlab runs it."""

    def tronlab_code():
        """``(version, hash of the .py and .txt files, folder, stale)`` of the tronlab this
        process imports; ``stale`` says why the process runs older code than the files,
        else it is None.  The first probe in a process notes a hash of each file; later
        probes compare the files of the loaded modules with those, so a checkout that
        only touches files (same content) is fine.  Before that note, a module file
        newer than the import of tronlab is all there is to go by.
        ``(None, why, None, None)`` when tronlab cannot be imported."""
        import hashlib
        import os
        import sys
        import time
        try:
            import tronlab
        except ImportError as err:
            return None, f"cannot import tronlab ({err})", None, None
        root = os.path.dirname(os.path.abspath(tronlab.__file__))
        files = {}
        for rel in sorted(os.path.relpath(os.path.join(d, f), root) for d, _, names
                          in os.walk(root) for f in names if f.endswith((".py", ".txt"))):
            with open(os.path.join(root, rel), "rb") as f:
                files[rel.replace(os.sep, "/")] = hashlib.sha1(f.read()).hexdigest()
        digest = hashlib.sha1(repr(sorted(files.items())).encode()).hexdigest()
        loaded = [m.__file__ for name, m in list(sys.modules.items())
                  if name.startswith("tronlab.") and getattr(m, "__file__", None)
                  and os.path.isfile(m.__file__)]
        noted = getattr(tronlab, "_loaded_files", None)
        stale = None
        if noted is not None:
            rels = [os.path.relpath(p, root).replace(os.sep, "/") for p in loaded]
            if any(noted.get(rel) != files.get(rel) for rel in rels):
                stale = "runs code of tronlab that its files no longer hold (restart it)"
        else:
            # tronlab notes when it was imported; psutil's process start time is only good
            # to about a second (the boot time it adds is whole seconds)
            started = getattr(tronlab, "_IMPORTED_AT", None) or time.time()
            if any(os.path.getmtime(p) > started for p in loaded):
                stale = ("loaded tronlab before its files changed (restart it; it imported "
                         "tronlab before a run noted their content, so files a checkout "
                         "only touched count too)")
            else:
                tronlab._loaded_files = files
        return getattr(tronlab, "__version__", "(no version)"), digest, root, stale

    return tronlab_code


def _check_files(client, files) -> None:
    def missing(paths):     # nested: sent by value
        import os
        return [p for p in paths if not os.path.isfile(p)]

    lacking = {w: m for w, m in sorted(client.run(missing, files).items()) if m} \
        if files else {}
    if lacking:
        lacks = _lacks()
        raise ValueError("the Dask workers must see the files of the bots and maps at the "
                         "same paths as here (a shared folder), but "
                         + "; ".join(f"{w} {lacks(m)}" for w, m in lacking.items()))


def _lacks():
    """``lacks(paths)``: the words for a worker without ``paths``; nested, so that a
    game sends it to its worker by value."""

    def lacks(paths):
        return (f"lacks {', '.join(paths[:3])}"
                + (f" and {len(paths) - 3} more" if len(paths) > 3 else ""))

    return lacks


def plan_files(plan) -> list[str]:
    """Every file the games of ``plan`` read where they are played, absolute: the files
    of its ``py:`` and ``cmd:`` bots (:func:`tronlab.arena.bots.bot_files`, relative
    ones from this folder) and its map files."""
    import os

    from .bots import bot_files

    bots = {b for spec in plan for b in spec.bots}
    files = {os.path.abspath(f) for b in bots for f in bot_files(b)}
    return sorted(files | {spec.map for spec in plan if os.path.isabs(spec.map)})


def quiet_dask_logs() -> None:
    """Silence the Dask client's own log lines in this process (``tronlab arena run``
    does, unless ``TRONLAB_DEBUG`` is set): a scheduler that goes away logs tracebacks
    of its reconnection before the run says what happened in a sentence."""
    import logging

    try:
        import distributed  # noqa: F401  (sets up its loggers, which are then quietened)
    except ImportError:         # dask_executor says what to install
        return
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


class DaskGames(cf.Executor):
    """The executor of a run on a Dask cluster (made by :func:`dask_executor`).

    Each game is sent with a check that runs on its worker first: a worker that joined
    after :func:`check_dask_workers` (or was restarted since) and has another tronlab,
    code older than its files or lacks one of the run's ``files``, refuses the game.
    The run then says so in one line on stderr (:data:`LEFT_OUT`), retires that worker
    from the cluster (the scheduler moves its games elsewhere and its ``dask worker``
    ends) and sends the game again: it goes on with the other workers.  While games
    are out, a thread looks at the cluster every ``poll`` seconds and says on stderr
    when no worker is left (the games wait for workers to join again; Dask's own
    executor waited silently) and when workers are back.  A game's outcome is handed
    over once only: Dask's own executor logged Tornado's ``InvalidStateError`` when a
    game finished just as the run cancelled it.  :meth:`cancel_games` cancels many
    games in one call to the scheduler."""

    def __init__(self, client, expected, probe, judge, files=(), poll=1.0):
        self._client, self._poll, self._expected = client, poll, expected
        self._game = _checked_game(probe, judge, expected[:2], tuple(files))
        self._pending: set = set()
        self._tasks: dict = {}          # each game's future -> its Dask task now
        self._retired: set = set()      # addresses of the workers that refused a game
        self._batch = None              # the tasks cancel_games cancels together
        self._lock = threading.Lock()
        self._watcher, self._empty = None, False

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
        task = self._client.submit(self._game, fn, *args, pure=False)
        with self._lock:
            gone = future.done()        # cancelled while a refused game was sent again
            if not gone:
                self._tasks[future] = task
        if gone:
            task.cancel()
        else:
            task.add_done_callback(lambda t: self._returned(t, future, fn, args))

    def _returned(self, task, future, fn, args):
        refused = _refusal(task)
        if refused is None:
            _hand_over(task, future)
            return
        try:
            self._retire(*refused)
            if not future.done():
                self._send(future, fn, args)
        except Exception as exc:    # noqa: BLE001 - (the client was closed): the run stops
            with contextlib.suppress(cf.InvalidStateError):
                future.set_exception(exc)

    def _retire(self, address, why):
        with self._lock:
            if address in self._retired:
                return
            self._retired.add(address)
        version, _, root = self._expected
        print(LEFT_OUT.format(address=address, why=why, version=version, root=root),
              file=sys.stderr, flush=True)
        with contextlib.suppress(Exception):    # gone already, or the client closed
            self._client.retire_workers([address])

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
        if not future.cancelled():
            self._workers_back()        # a game came back: a worker is there again
        elif task is not None and task.status not in ("cancelled", "finished", "error"):
            if batch is not None:
                batch.append(task)
            else:
                task.cancel()

    def _workers_back(self, workers=None):
        with self._lock:
            back, self._empty = self._empty, False
        if back:
            count = workers or len(self._client.nthreads())
            print(f"{count} Dask worker{'s' if count != 1 else ''} joined: the run goes on",
                  file=sys.stderr, flush=True)

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
            if workers == 0 and not self._empty:
                self._empty = True
                print(NO_WORKERS.format(address=self._client.scheduler.address),
                      file=sys.stderr, flush=True)
            elif workers:
                self._workers_back(workers)
            time.sleep(self._poll)


def _hand_over(task, future) -> None:
    """Give ``future`` the outcome of the Dask ``task``, unless the run cancelled it."""
    try:
        if task.status == "finished":
            future.set_result(task.result())
        elif task.status == "cancelled":
            if future.cancel():
                future.set_running_or_notify_cancel()
        else:
            future.set_exception(task.exception().with_traceback(task.traceback()))
    except (cf.InvalidStateError, RuntimeError):    # the run cancelled it meanwhile
        if future.cancelled():      # (its task finished first): tell its waiters
            with contextlib.suppress(RuntimeError):
                future.set_running_or_notify_cancel()


def _refusal(task):
    """``(worker address, why)`` when the Dask ``task`` failed because its worker
    refused the game (:func:`_checked_game`), else None."""
    if task.status != "error":
        return None
    exc = task.exception()
    return tuple(exc.args) if type(exc).__name__ == "DaskWorkerRefused" else None


def _checked_game(probe, judge, expected, files=()):
    """The function each game runs on its worker, sent by value: it probes the worker's
    tronlab once a process, looks for ``files`` (each one until it is seen) and plays
    ``fn(*args)`` only where the tronlab is this run's and every file is there."""
    lacks = _lacks()

    class DaskWorkerRefused(RuntimeError):
        """``(address, why)``: a worker that cannot play this run's games."""

    def tronlab_game(fn, *args):
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
        return fn(*args)

    return tronlab_game
