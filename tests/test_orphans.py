"""tronlab.runner.orphans: helper processes end with the process that started them."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tronlab.runner.orphans import can_die_with_parent

pytestmark = pytest.mark.skipif(not can_die_with_parent(), reason="Linux only (PR_SET_PDEATHSIG)")


def _gone(pid: int) -> bool:
    """No such process, or a zombie nobody has reaped yet."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.startswith("State:") and "Z" in line.split()[1] for line in f)
    except FileNotFoundError:
        return True


def _run(code: str, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)


def test_a_helper_whose_parent_is_already_gone_exits_at_once(tmp_path):
    # the parent died between fork and the ask: the kernel would send nothing
    done = _run("""
        import os
        from tronlab.runner.orphans import die_with_parent
        die_with_parent(15, parent=os.getppid() + 1_000_000, code=7)
        print("still here")
        """, tmp_path)
    assert (done.returncode, done.stdout) == (7, ""), done.stderr
    done = _run("""
        import os
        from tronlab.runner.orphans import die_with_parent
        die_with_parent(15, parent=os.getppid() + 1_000_000)
        """, tmp_path)
    assert done.returncode == 128 + signal.SIGTERM, done.stderr


def test_a_helper_with_its_parent_alive_goes_on(tmp_path):
    done = _run("""
        import os
        from tronlab.runner.orphans import die_with_parent
        print(die_with_parent(15, parent=os.getppid()))
        """, tmp_path)
    assert (done.returncode, done.stdout) == (0, "True\n"), done.stderr


def test_a_helper_dies_when_its_parent_is_killed(tmp_path):
    # the parent forks a helper that asks for SIGTERM, then is killed outright
    done = _run("""
        import os, signal, time
        from tronlab.runner.orphans import die_with_parent
        parent = os.getpid()
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            die_with_parent(signal.SIGTERM, parent)
            os.write(w, b"x")
            time.sleep(60)
            os._exit(0)
        os.read(r, 1)
        print(pid, flush=True)
        os.kill(parent, signal.SIGKILL)
        """, tmp_path)
    assert done.returncode == -signal.SIGKILL, done.stderr
    helper = int(done.stdout)
    deadline = time.monotonic() + 10
    while not _gone(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    gone = _gone(helper)
    if not gone:
        os.kill(helper, signal.SIGKILL)
    assert gone, "the helper outlived its killed parent"
