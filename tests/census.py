"""The process census: a test that leaves a process of its own behind fails.

A pytest plugin (``pytest_plugins = ["census"]`` in ``tests/conftest.py``).  At the
start of the session the pytest process makes itself a *child subreaper* (Linux
``PR_SET_CHILD_SUBREAPER``), so a process whose parent died - a daemon that
double-forked, a child that called ``setsid`` - is handed to pytest instead of to
init and stays in pytest's process tree, where the census sees it.

Around every test an autouse fixture lists pytest's descendants (through
``/proc/PID/task/TID/children``) before and after.  A process is the test's own
when it is new and no process that was already there before the test is among its
ancestors: so the JupyterLab server and browser that a session fixture of the
browser tests started, and the kernels that server starts, are not the test's;
threads (pytest-timeout's) are not processes at all; zombies (ended, waiting for
their parent to read their status) do not run and are ignored, and so are
multiprocessing's resource tracker and fork server, which live for the session, and
pytest's own reaper watchdog (:mod:`tronlab.runner.reaper`).
What is left after a grace of :data:`GRACE` seconds is killed (so it does not leak
into the next test) and reported: the test errors in its teardown with one line
per process (pid and command line).

Off with ``TRONLAB_CENSUS=0``; on other systems than Linux it does nothing.
"""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

GRACE = 3.0                       # seconds a test's processes get to finish after it
#: the reaper's watchdog (tronlab.runner.reaper.WATCHDOG_MARK): pytest's own one lives
#: for the session; one a test's own process started must end with that process
WATCHDOG_MARK = "tronlab-reaper-watchdog"
SESSION_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver",
                   "from multiprocessing.")
ENABLED = sys.platform.startswith("linux") and os.environ.get("TRONLAB_CENSUS", "1") != "0"


def _read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def _stat(pid: int):
    """``(state, ppid, starttime)`` of a process, or None once it is gone."""
    text = _read(f"/proc/{pid}/stat")
    if not text:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1]), int(fields[19])


def _children(pid: int) -> list[int]:
    out = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        out += [int(c) for c in _read(f"/proc/{pid}/task/{tid}/children").split()]
    return out


def descendants(root: int | None = None) -> dict[int, tuple]:
    """Every living descendant of ``root`` (default: this process): ``{pid: (ppid,
    starttime)}``; zombies left out."""
    root = os.getpid() if root is None else root
    found: dict[int, tuple] = {}
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid in _children(parent):
            st = _stat(pid)
            if st is None or pid in found:
                continue
            todo.append(pid)
            if st[0] not in "ZX":
                found[pid] = (st[1], st[2])
    return found


def cmdline(pid: int, wait: float = 1.0) -> str:
    """The command line of ``pid``, or "?".  A child caught inside its ``execve`` has
    none yet (Python 3.13's subprocess returns from ``Popen`` while the new program is
    still being loaded): wait up to ``wait`` seconds for it while the process lives."""
    end = time.monotonic() + wait
    while True:
        text = _read(f"/proc/{pid}/cmdline").replace("\0", " ").strip()
        if text or time.monotonic() > end or (_stat(pid) or "Z")[0] in "ZX":
            return text or "?"
        time.sleep(0.01)


def own_leftovers(before: dict, root: int | None = None) -> dict[int, str]:
    """Processes below ``root`` that are not in ``before`` and have no ancestor in
    ``before``: ``{pid: command line}``."""
    now = descendants(root)
    old = {pid for pid, (_, start) in before.items() if now.get(pid, (None, start))[1] == start}
    out = {}
    for pid, (ppid, start) in now.items():
        if pid in old:
            continue
        chain, p = set(), ppid
        while p in now and p not in old and p not in chain:
            chain.add(p)
            p = now[p][0]
        if p in old:                       # a session fixture's process started it
            continue
        cmd = cmdline(pid)
        if any(h in cmd for h in SESSION_HELPERS):
            continue
        if WATCHDOG_MARK in cmd and ppid == os.getpid():
            continue                       # pytest's own reaper watchdog lives as long as it
        out[pid] = cmd
    return out


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux)."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def settle_and_kill(left: dict, seconds: float = GRACE) -> dict[int, str]:
    """Wait up to ``seconds`` for ``left`` to end; kill the rest; return the rest."""
    end = time.monotonic() + seconds
    alive = dict(left)
    while alive and time.monotonic() < end:
        time.sleep(0.05)
        alive = {p: c for p, c in alive.items() if (_stat(p) or "Z")[0] not in "ZX"}
    for pid in alive:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return alive


def pytest_configure(config):
    if ENABLED:
        become_subreaper()


@pytest.fixture(autouse=True)
def process_census(request):
    """Fail a test that leaves a process of its own running (see the module doc)."""
    if not ENABLED:
        yield
        return
    before = descendants()
    yield
    left = settle_and_kill(own_leftovers(before))
    if left:
        lines = "\n".join(f"  pid {pid}: {' '.join(cmd.split())[:200]}"
                          for pid, cmd in sorted(left.items()))
        pytest.fail(f"process census: the test left {len(left)} process(es) of its own "
                    f"running (now killed):\n{lines}", pytrace=False)
