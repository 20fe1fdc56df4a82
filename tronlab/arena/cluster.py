"""Play a plan on a Dask cluster: :func:`dask_executor` and the checks it makes.

A Dask worker is another process, maybe on another machine, started from a folder
of its own: before the first game :func:`check_dask_workers` makes sure that at
least one worker joined, that every worker imports this very tronlab (the same
version and files: otherwise its games are another program's games, or fail in
it), and that it sees every file the plan's games read (``py:`` files, programs,
map files) at the same path as here.  Each game is then sent with this process's
folder, from which relative bot paths are read (:func:`tronlab.arena.play.play_spec`).
"""

from __future__ import annotations

from .play import DEFAULT_WARM, warm_up


def dask_executor(client_or_address, warm=DEFAULT_WARM, wait_for_workers=30.0, files=()):
    """``(executor, client)`` for a Dask cluster (an address or a ``distributed.Client``);
    every worker loads the bots ``warm`` once before the first game.  A ValueError
    when no worker joins within ``wait_for_workers`` seconds, when a worker cannot
    import tronlab or has another version or other files of it (its games would not
    be this tronlab's games), or lacks one of ``files`` (:func:`plan_files`):
    :func:`check_dask_workers`.  A client made here from an address is closed on an
    error."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--dask needs the distributed package: pip install 'tronlab[dask]'") \
            from None
    client = client_or_address
    if not isinstance(client, Client):
        client = Client(client_or_address)
    try:
        check_dask_workers(client, wait_for_workers, files)
        client.run(warm_up, tuple(warm))
    except BaseException:
        if client is not client_or_address:
            client.close()
        raise
    return client.get_executor(pure=False), client


def check_dask_workers(client, wait=30.0, files=()) -> None:
    """Refuse a cluster without workers (after ``wait`` seconds), workers whose
    tronlab is missing or not this process's (another version, or the same version
    with other code: a hash of its files, an install from another commit) and
    workers that lack one of ``files`` (absolute paths)."""
    import asyncio

    address = client.scheduler.address
    try:
        client.wait_for_workers(1, timeout=wait)
    except (TimeoutError, asyncio.TimeoutError):    # one class from Python 3.11 on
        raise ValueError(f"no Dask worker joined the scheduler at {address} within "
                         f"{wait:g} s: start some with 'dask worker {address}'") from None

    probe = _code_probe()
    version, code, root, _ = probe()
    wrong = []
    for worker, (v, c, r, stale) in sorted(client.run(probe).items()):
        if v is None:
            wrong.append(f"{worker} {c}")
        elif v != version:
            wrong.append(f"{worker} has tronlab {v}")
        elif c != code:
            wrong.append(f"{worker} has other code of tronlab {v} (in {r})")
        elif stale:
            wrong.append(f"{worker} loaded tronlab before its files changed (restart it)")
    if wrong:
        raise ValueError(f"every Dask worker needs this tronlab ({version}, in {root}), but "
                         + "; ".join(wrong))
    _check_files(client, sorted(files))


def _code_probe():
    """A function that tells which tronlab its process runs, defined here so that
    cloudpickle sends it to the workers by value: a worker without tronlab runs it."""

    def tronlab_code():
        """``(version, hash of the .py and .txt files, folder, stale)`` of the tronlab this
        process imports, ``stale`` when a module of it has a file that changed after the
        process imported tronlab (it runs older code than the files; a file only touched,
        as a checkout does, counts too); ``(None, why, None, False)`` when it cannot be
        imported."""
        import hashlib
        import os
        import sys
        import time
        try:
            import tronlab
        except ImportError as err:
            return None, f"cannot import tronlab ({err})", None, False
        root = os.path.dirname(os.path.abspath(tronlab.__file__))
        digest = hashlib.sha1()
        for rel in sorted(os.path.relpath(os.path.join(d, f), root) for d, _, files
                          in os.walk(root) for f in files if f.endswith((".py", ".txt"))):
            digest.update(rel.replace(os.sep, "/").encode())
            with open(os.path.join(root, rel), "rb") as f:
                digest.update(f.read())
        # tronlab notes when it was imported; psutil's process start time is only good to
        # about a second (the boot time it adds is whole seconds)
        started = getattr(tronlab, "_IMPORTED_AT", None) or time.time()
        stale = any(os.path.getmtime(m.__file__) > started for name, m in list(sys.modules.items())
                    if name.startswith("tronlab.") and getattr(m, "__file__", None)
                    and os.path.isfile(m.__file__))
        return getattr(tronlab, "__version__", "(no version)"), digest.hexdigest(), root, stale

    return tronlab_code


def _check_files(client, files) -> None:
    def missing(paths):     # nested: sent by value
        import os
        return [p for p in paths if not os.path.isfile(p)]

    lacking = {w: m for w, m in sorted(client.run(missing, files).items()) if m} \
        if files else {}
    if lacking:
        raise ValueError("the Dask workers must see the files of the bots and maps at the "
                         "same paths as here (a shared folder), but "
                         + "; ".join(f"{w} lacks {', '.join(m[:3])}"
                                     + (f" and {len(m) - 3} more" if len(m) > 3 else "")
                                     for w, m in lacking.items()))


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
