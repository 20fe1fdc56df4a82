"""No program a game started outlives it: not on close, not at interpreter exit, not
when ``tronlab match`` is stopped by SIGTERM or SIGHUP, not when a child of the program
left the process group with ``setsid``; and a program that floods its output loses
quickly with bounded memory (issue 11, defects 1 and 2)."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tronlab.runner import reaper
from tronlab.runner.external import ExternalBot
from tronlab.tron.board import Board

from test_external import DUEL, fixture, wait_gone

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the token scan reads /proc")
PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _wait_for(path: Path, seconds=30.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists():
            return [int(x) for x in path.read_text().split()]
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def test_close_ends_a_child_that_left_the_group(tmp_path):
    pidfile = tmp_path / "pids"
    bot = ExternalBot(fixture("setsid_spawner.py", pidfile))
    bot.start_game(Board.from_ascii(DUEL), 0)
    try:
        pids = _wait_for(pidfile)
        assert os.getsid(pids[1]) == pids[1] != os.getsid(pids[0])   # it did leave
    finally:
        bot.close()
    assert wait_gone(pids) == []
    assert reaper.live_programs() == {}


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_signal_to_tronlab_match_ends_every_program_it_started(tmp_path, signame):
    pidfile = tmp_path / "pids"
    cmd = [PY, "-m", "tronlab", "match", "random",
           f"cmd:{PY} {fixture('setsid_spawner.py', pidfile)[1]} {pidfile}", "--time", "30"]
    match = subprocess.Popen(cmd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        pids = _wait_for(pidfile)
        time.sleep(0.2)          # the match waits for the program's first answer now
        match.send_signal(getattr(signal, signame))
        match.wait(timeout=20)
        assert match.returncode == -getattr(signal, signame)   # it still dies by the signal
        assert wait_gone(pids) == [], f"left running after {signame}"
    finally:
        match.kill()
        match.wait()
        match.stdout.close()
        match.stderr.close()


def test_interpreter_exit_ends_a_child_that_left_the_group(tmp_path):
    pidfile = tmp_path / "pids"
    script = textwrap.dedent(f"""
        import os, sys, time
        from tronlab.tron.board import Board
        from tronlab.runner.external import ExternalBot
        bot = ExternalBot({fixture("setsid_spawner.py", pidfile)!r})
        bot.start_game(Board.from_ascii({DUEL!r}), 0)
        for _ in range(400):
            if os.path.exists({str(pidfile)!r}):
                break
            time.sleep(0.05)
        sys.exit(0)   # no close()
    """)
    subprocess.run([PY, "-c", script], check=True, timeout=60, env=_env())
    pids = [int(x) for x in pidfile.read_text().split()]
    assert len(pids) == 2 and wait_gone(pids) == []


def test_kill_program_finds_processes_by_token_alone():
    token = reaper.new_token()
    child = subprocess.Popen([PY, "-c", "import time; time.sleep(60)"],
                             env=reaper.child_env(token), start_new_session=True)
    try:
        end = time.monotonic() + 10           # between fork and exec the child still
        while reaper.pids_with_token(token) != [child.pid] and time.monotonic() < end:
            time.sleep(0.02)                  # carries our environment, without the token
        assert reaper.pids_with_token(token) == [child.pid]
        reaper.kill_program(token)            # no pid given: the scan alone finds it
        assert child.wait(timeout=5) == -signal.SIGKILL
    finally:
        child.kill()
        child.wait()


def test_kill_all_ends_a_program_still_being_started():
    """A pool worker told to stop (SIGTERM) runs kill_all in its main thread while a game's
    thread may be starting a program: Popen has returned, register() not yet.  After
    Ctrl-C such a student's program outlived 'tronlab arena run' now and then."""
    token = reaper.new_token()
    child = subprocess.Popen([PY, "-c", "import time; time.sleep(60)"],
                             env=reaper.child_env(token), start_new_session=True)
    try:
        end = time.monotonic() + 10         # wait for the exec: then the token is there
        while reaper.pids_with_token(token) != [child.pid] and time.monotonic() < end:
            time.sleep(0.02)
        assert token not in reaper.live_programs()      # not registered yet
        reaper.kill_all()
        assert child.wait(timeout=5) == -signal.SIGKILL
    finally:
        child.kill()
        child.wait()


def test_a_normal_exit_ends_the_watchdog_without_a_resource_warning():
    # the watchdog's Popen was left running at exit: Python shut down with "ResourceWarning:
    # subprocess NNN is still running" and "unclosed file <_io.BufferedWriter name=15>"
    code = ("import sys\nfrom tronlab.runner import reaper\n"
            "from tronlab.runner.program import Program\n"
            "p = Program([sys.executable, '-c', 'pass'])\np.close()\n"
            "print(reaper._watchdog.pid, flush=True)\n")
    out = subprocess.run([PY, "-W", "always::ResourceWarning", "-c", code], env=_env(),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "ResourceWarning" not in out.stderr, out.stderr
    assert wait_gone([int(out.stdout)]) == []


def test_an_ignored_signal_stays_ignored():
    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        reaper.install_signal_handlers()
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, old)


def test_a_program_that_prints_without_end_loses_at_once_with_bounded_memory():
    """``yes 2`` prints valid answers forever: it used to hang the match for good
    while memory grew ~70 MB/s."""
    script = textwrap.dedent("""
        import sys
        from tronlab.cli import main
        rc = main(["match", "random", "cmd:yes 2", "--seed", "1"])
        # VmHWM is this process's own peak (ru_maxrss would carry the forking parent's)
        peak = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")][0].split()[1]
        print("maxrss_kb", peak, file=sys.stderr)
        sys.exit(rc)
    """)
    t0 = time.monotonic()
    out = subprocess.run([PY, "-c", script], env=_env(), capture_output=True, text=True,
                         timeout=30)
    seconds = time.monotonic() - t0
    assert out.returncode == 0, out.stderr
    assert "cmd:yes 2: died (bad-output)" in out.stdout
    assert "printed without being asked" in out.stdout
    rss_mb = int(out.stderr.split("maxrss_kb")[1].split()[0]) / 1024
    assert rss_mb < 400, f"peak memory {rss_mb:.0f} MB"
    assert seconds < 30


def test_a_second_ctrl_c_while_exiting_still_ends_the_programs_without_a_traceback(tmp_path):
    # An impatient Ctrl-C Ctrl-C stopping 'tronlab arena run': the second one came while
    # the exit hook waited for the watchdog, and Python printed "Exception ignored in
    # atexit callback" with a KeyboardInterrupt traceback.  Here the second Ctrl-C comes
    # in the middle of the exit hook's kill_all; the program must still be ended.
    code = textwrap.dedent("""
        import os, signal, sys, time
        from tronlab.runner import reaper
        from tronlab.runner.program import Program
        p = Program([sys.executable, '-c', 'import time; time.sleep(60)'])
        print(p.proc.pid, reaper._watchdog.pid, flush=True)
        kill_all = reaper.kill_all

        def interrupted():
            os.kill(os.getpid(), signal.SIGINT)     # the second Ctrl-C
            time.sleep(0.2)
            kill_all()

        reaper.kill_all = interrupted
        sys.exit(0)         # no close(): the exit hook ends the program
    """)
    out = subprocess.run([PY, "-c", code], env=_env(), capture_output=True, text=True,
                         timeout=60)
    assert "Traceback" not in out.stderr and "KeyboardInterrupt" not in out.stderr, out.stderr
    assert wait_gone([int(pid) for pid in out.stdout.split()]) == []
