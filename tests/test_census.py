"""The process census (tests/census.py) fails a test that leaves a process behind -
a plain child, a daemon that double-forked, a ``setsid`` escapee - and kills it; a
test that cleans up, and processes of session fixtures, pass.  Shown by running a
small pytest session of deliberately leaky tests in a child pytest."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import census

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.skipif(not census.ENABLED, reason="the census reads Linux's /proc")

LEAKY = textwrap.dedent('''
    import os, subprocess, sys, time
    import pytest

    SLEEP = [sys.executable, "-c", "import time; time.sleep(120)"]

    @pytest.fixture(scope="session")
    def server():
        p = subprocess.Popen(SLEEP)          # a session fixture's process: not a test's
        yield p
        p.kill()
        p.wait()

    def _note(name, pid):
        with open(os.environ["LEAK_PIDS"], "a") as f:
            f.write(f"{name} {pid}\\n")

    def test_plain_child_left_running():
        _note("plain", subprocess.Popen(SLEEP).pid)

    def test_daemon_that_double_forked():
        r, w = os.pipe()
        code = ("import os, sys, time\\n"
                "if os.fork() == 0:\\n"
                "    os.setsid()\\n"
                "    os.write(int(sys.argv[1]), str(os.getpid()).encode())\\n"
                "    time.sleep(120)\\n"
                "os._exit(0)\\n")
        subprocess.run([sys.executable, "-c", code, str(w)], pass_fds=(w,), check=True)
        os.close(w)
        _note("daemon", int(os.read(r, 100)))
        os.close(r)

    def test_clean_child(server):
        p = subprocess.Popen(SLEEP)
        p.kill()
        p.wait()

    def test_session_process_is_not_the_tests(server):
        assert server.poll() is None
''')


def test_the_census_reports_and_kills_what_a_test_leaves_behind(tmp_path):
    (tmp_path / "conftest.py").write_text(f"import sys\nsys.path.insert(0, {str(HERE)!r})\n"
                                          f"pytest_plugins = ['census']\n")
    (tmp_path / "test_leaky.py").write_text(LEAKY)
    pids_file = tmp_path / "pids"
    env = dict(os.environ, LEAK_PIDS=str(pids_file))
    env.pop("TRONLAB_CENSUS", None)
    for name in ("CI", "BUILD_NUMBER"):     # pytest prints summary lines in full under CI,
        env.pop(name, None)                 # which would count each message twice
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-o", "addopts=", "-rA", str(tmp_path / "test_leaky.py")],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    out = r.stdout
    assert r.returncode == 1, out
    assert "4 passed, 2 errors" in out, out
    for name in ("test_plain_child_left_running", "test_daemon_that_double_forked"):
        assert f"ERROR at teardown of {name}" in out
    assert out.count("process census: the test left 1 process(es) of its own running") == 2
    pids = dict(line.split() for line in pids_file.read_text().split("\n") if line)
    for name, pid in pids.items():
        assert f"pid {pid}: {sys.executable} -c" in out, name
        assert census._stat(int(pid)) is None or census._stat(int(pid))[0] in "ZX", name
    assert "ERROR test_leaky.py::test_clean_child" not in out
    assert "ERROR test_leaky.py::test_session_process_is_not_the_tests" not in out


def test_descendants_sees_a_child_and_its_ancestry():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in census.descendants()
        assert child.pid in census.own_leftovers({})
        assert census.own_leftovers(census.descendants()) == {}
    finally:
        child.kill()
        child.wait()
    assert child.pid not in census.descendants()
