"""Play a plan on a Dask cluster: :func:`dask_executor` and the checks it makes.

A Dask worker is another process, maybe on another machine, started from a folder
of its own: before the first game :func:`check_dask_workers` makes sure that at
least one worker joined, that every worker imports this very tronlab (the same
version and files: otherwise its games are another program's games, or fail in
it), and that it sees every file the plan's games read (``py:`` files, programs,
map files) at the same path as here.  Each game is then sent with this process's
folder, from which relative bot paths are read (:func:`tronlab.arena.play.play_spec`),
through :class:`~tronlab.arena.daskgames.DaskGames`, which checks a worker that joins
later before its first game (one that fails is left out with a line on stderr and
retired, and the run goes on) and says on stderr when no worker is left.
"""

from __future__ import annotations

from .daskgames import DaskGames, _lacks
from .play import DEFAULT_WARM, warm_up



def dask_executor(client_or_address, warm=DEFAULT_WARM, wait_for_workers=30.0, files=()):
    """``(executor, client)`` for a Dask cluster (an address or a ``distributed.Client``);
    every worker loads the bots ``warm`` once before the first game.  A ValueError
    when no worker joins within ``wait_for_workers`` seconds, when a worker cannot
    import tronlab or has another version or other files of it (its games would not
    be this tronlab's games), or lacks one of ``files`` (:func:`plan_files`):
    :func:`check_dask_workers`.  A client made here from an address is closed on an
    error.  The executor is a :class:`~tronlab.arena.daskgames.DaskGames`: a worker
    that joins later is checked before its first game (and left out if it fails), and
    a run left without workers says so on stderr."""
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
