"""Play a plan on a Dask cluster: :func:`dask_executor` and the checks it makes.

A Dask worker is another process, maybe on another machine, started from a folder
of its own: before the first game :func:`check_dask_workers` makes sure that at
least one worker joined, and looks at whether each one imports this very tronlab
(the same version and files: otherwise its games are another program's games, or
fail in it) and sees every file the plan's games read (``py:`` files, programs, map
files) at the same path as here.  A worker that fails is left out with a line on
stderr and retired; the run is refused when no worker passes.  Each game is then
sent with this process's folder, from which relative bot paths are read
(:func:`tronlab.arena.play.play_spec`), through
:class:`~tronlab.arena.daskgames.DaskGames`, which checks a worker that joins later
before its first game in the same way (and leaves it out in the same way) and says
on stderr when no worker is left.
"""

from __future__ import annotations

from .daskgames import DaskGames, _lacks, leave_out
from .play import DEFAULT_WARM, warm_up



def dask_executor(client_or_address, warm=DEFAULT_WARM, wait_for_workers=30.0, files=()):
    """``(executor, client)`` for a Dask cluster (an address or a ``distributed.Client``);
    every worker loads the bots ``warm`` once before the first game.  A ValueError
    when no worker joins within ``wait_for_workers`` seconds, or when no worker can
    play the run's games: each one cannot import tronlab, has another version or other
    files of it (its games would not be this tronlab's games), or lacks one of
    ``files`` (:func:`plan_files`).  When some can, the others are left out (named on
    stderr and retired): :func:`check_dask_workers`.  A client made here from an
    address is closed on an error.  The executor is a
    :class:`~tronlab.arena.daskgames.DaskGames`: a worker that joins later is checked
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
        expected, good = check_dask_workers(client, wait_for_workers, files)
        client.run(warm_up, tuple(warm), workers=good)
    except BaseException:
        if client is not client_or_address:
            client.close()
        raise
    return DaskGames(client, expected, _code_probe(), _verdict(), sorted(files)), client


def check_dask_workers(client, wait=30.0, files=()) -> tuple:
    """Check the workers of the cluster before the first game: ``(expected, good)``,
    this process's ``(version, code hash, folder)`` and the addresses of the workers
    that can play the run's games.  A ValueError when no worker joined within ``wait``
    seconds, or when none of them can: each is named with its reason (its tronlab is
    missing or not this process's: another version, or the same version with other
    code, a hash of its files, an install from another commit; it runs code older than
    its files; it lacks one of ``files``, absolute paths), and the cluster is left as
    it is.  When some can, the others are left out as a worker that joins later and
    fails the check is (:func:`~tronlab.arena.daskgames.leave_out`): each is named
    in one line on stderr and retired from the cluster."""
    import asyncio

    address = client.scheduler.address
    try:
        client.wait_for_workers(1, timeout=wait)
    except (TimeoutError, asyncio.TimeoutError):    # one class from Python 3.11 on
        raise ValueError(f"no Dask worker joined the scheduler at {address} within "
                         f"{wait:g} s: start some with 'dask worker {address}'") from None

    probe, judge = _code_probe(), _verdict()
    version, code, root, _ = probe()
    found = client.run(probe)
    wrong = {w: why for w, f in found.items() if (why := judge(f, version, code))}
    lacking = _lacking(client, sorted(set(found) - set(wrong)), sorted(files))
    good = sorted(set(found) - set(wrong) - set(lacking))
    if not good:
        raise ValueError(_refused(version, root, wrong, lacking))
    for worker, why in sorted({**wrong, **lacking}.items()):
        leave_out(client, worker, why, (version, code, root))
    return (version, code, root), good


def _refused(version, root, wrong, lacking) -> str:
    """The words of a run refused because no worker can play its games: what a worker
    needs, then each worker and why it cannot (``wrong``: its tronlab, ``lacking``:
    files)."""
    needs = ([f"needs this tronlab ({version}, in {root})"] if wrong else []) \
        + (["must see the files of the bots and maps at the same paths as here (a shared "
            "folder)"] if lacking else [])
    return (f"every Dask worker {' and '.join(needs)}, but "
            + "; ".join(f"{w} {why}" for w, why in sorted({**wrong, **lacking}.items())))


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


def _lacking(client, workers, files) -> dict:
    """``{worker: why}`` for those of ``workers`` that lack one of ``files``."""
    def missing(paths):     # nested: sent by value
        import os
        return [p for p in paths if not os.path.isfile(p)]

    if not files or not workers:
        return {}
    lacks = _lacks()
    return {w: lacks(m) for w, m in client.run(missing, files, workers=workers).items() if m}


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
