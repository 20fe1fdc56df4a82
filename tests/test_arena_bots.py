"""A classroom folder with a crashing, a hanging, a garbage-printing and a forking bot:
the tournament completes, each misbehaving bot loses its games with the right
fault, and no process is left behind.

The run is started by a small supervisor that makes itself a *child subreaper*
(Linux ``PR_SET_CHILD_SUBREAPER``): every process the run leaves behind, however
deep and whatever its session, is re-parented to the supervisor instead of to
init, so the supervisor sees it.  After the run exits, the supervisor lists its
remaining children, reports them and kills them.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tronlab.arena import Store

#: a hanging program costs its game the first-move floor (5 s by default); 2 s still covers
#: starting Python on this busy 2-core machine and keeps these runs short
FAST_START = {**os.environ, "TRONLAB_PROGRAM_START": "2"}
#: the class run below plays two games at once while hang.py spins a core in each game
#: it is in: 2 s was once too short for crash.py's Python to start and fault (CI, session
#: 51: a 'timeout' where an 'error' was asserted); 4 s keeps hang's waits short still
CLASS_START = {**os.environ, "TRONLAB_PROGRAM_START": "4"}

BOTS = {
    "good.py": """
        def move(board, player):
            legal = board.legal_moves(player)
            return legal[0] if legal else 0
        """,
    "crash.py": """
        def move(board, player):
            raise RuntimeError("my bot has a bug")
        """,
    "hang.py": """
        def move(board, player):
            while True:
                pass
        """,
    "garbage.py": """
        import sys
        for line in sys.stdin:
            print("jump over the wall please", flush=True)
        """,
    "fork.py": """
        import os, subprocess, sys
        def move(board, player):
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            with open(os.path.join(os.path.dirname(__file__), "forked.pids"), "a") as f:
                f.write(f"{child.pid}\\n")
            legal = board.legal_moves(player)
            return legal[0] if legal else 0
        """,
}

ESCAPEE = """
    import os, subprocess
    def move(board, player):
        # a child that leaves the group and clears its environment: no token, no group
        child = subprocess.Popen(["sleep", "300"], env={"PATH": "/usr/bin:/bin"},
                                 start_new_session=True)
        with open(os.path.join(os.path.dirname(__file__), "escaped.pids"), "a") as f:
            f.write(f"{child.pid}\\n")
        legal = board.legal_moves(player)
        return legal[0] if legal else 0
    """

SUPERVISOR = """
import ctypes, json, os, signal, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1)                      # PR_SET_CHILD_SUBREAPER
after = int(os.environ.get("INTERRUPT_AFTER", "0"))
kill_after = os.environ.get("KILL_AFTER_LINE")
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                        start_new_session=True)
out = []
if after:                    # Ctrl-C as a terminal sends it: SIGINT to the whole process group
    for line in proc.stdout:
        out.append(line)
        if sum(x.startswith("stored ") for x in out) >= after:
            os.killpg(proc.pid, signal.SIGINT)
            break
if kill_after:               # kill -9 of the run's own process only, a second into a game
    for line in proc.stdout:
        out.append(line)
        if line.startswith(kill_after):
            time.sleep(1.0)
            os.kill(proc.pid, signal.SIGKILL)
            break
rest, err = proc.communicate()
run = subprocess.CompletedProcess(proc.args, proc.returncode, "".join(out) + rest, err)
time.sleep(1.0)
me = str(os.getpid())
left = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                left.append(f.read().replace(b"\\0", b" ").decode())
            os.kill(int(pid), signal.SIGKILL)
print(json.dumps({"code": run.returncode, "out": run.stdout, "err": run.stderr, "left": left}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs PR_SET_CHILD_SUBREAPER")
@pytest.mark.parametrize("jobs", [2])   # the pool's path; one job is test_arena.py's runs
def test_bad_bots_lose_and_leave_no_process(tmp_path, jobs):
    folder = tmp_path / "class"
    folder.mkdir()
    for name, text in BOTS.items():
        (folder / name).write_text(textwrap.dedent(text))
    db = tmp_path / "class.sqlite"
    html = tmp_path / "board.html"
    cmd = [sys.executable, "-m", "tronlab", "arena", "run", "--bots-dir", str(folder),
           "--bots", "hugger", "--maps", "arena", "--time", "0.05", "--db", str(db),
           "--no-progress", "--jobs", str(jobs), "--html", str(html)]
    out = subprocess.run([sys.executable, "-c", SUPERVISOR, *cmd], capture_output=True, text=True,
                         timeout=300, env=CLASS_START)
    report = json.loads(out.stdout)
    assert report["code"] == 0, report["err"]
    assert report["left"] == [], f"processes left behind: {report['left']}"
    with Store(db) as store:
        rows = store.rows()
    hang = [r for r in rows if "hang" in r["names"]]
    # 6 bots, 15 pairs, both seats: 30 games, but the run gave up on hang after its first
    # 2 (a game or two more may be under way in the pool): the other 20 are all played
    assert len(rows) - len(hang) == 20 and 2 <= len(hang) < 10
    assert "gave up on hang: it did not answer its first move" in report["out"]
    faults = {}
    for row in rows:
        for name, code in zip(row["names"], row["faults"]):
            faults.setdefault(name, []).append(code)
    assert set(faults["crash"]) == {"error"}
    assert set(faults["hang"]) == {"timeout"}
    assert set(faults["garbage"]) == {"bad-output"}
    assert "exited" not in faults["good"] and "timeout" not in faults["hugger"]
    pids = (folder / "forked.pids").read_text().split()
    assert pids, "the forking bot never forked"
    crash_rows = [r for r in rows if "crash" in r["names"]]
    with Store(db) as store:
        record = json.loads(store.record_json(crash_rows[0]["id"]))
    assert "my bot has a bug" in json.dumps(record["outcome"]["details"])
    assert "hang" in report["out"] and html.exists()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs PR_SET_CHILD_SUBREAPER")
def test_ctrl_c_stops_cleanly_prints_the_table_and_the_rerun_resumes(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("good.py", "hang.py", "fork.py"):
        (folder / name).write_text(textwrap.dedent(BOTS[name]))
    db = tmp_path / "stop.sqlite"
    cmd = [sys.executable, "-m", "tronlab", "arena", "run", "--bots-dir", str(folder),
           "--bots", "hugger", "random", "--maps", "arena,random:1:10x10", "--time", "0.05",
           "--db", str(db), "--no-progress", "--verbose", "--jobs", "2"]
    out = subprocess.run([sys.executable, "-c", SUPERVISOR, *cmd], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "INTERRUPT_AFTER": "3"})
    report = json.loads(out.stdout)
    assert report["code"] == 130, report["err"]
    assert report["left"] == [], f"processes left behind: {report['left']}"
    assert "Traceback" not in report["err"]
    assert "stopped: " in report["out"] and "rating" in report["out"]
    stored = {line.split()[1] for line in report["out"].splitlines() if line.startswith("stored ")}
    with Store(db) as store:
        keys = store.done_keys()
        assert store.integrity_check() == "ok"
    assert stored <= keys and 3 <= len(keys) < 40       # 5 bots, 10 pairs, 2 maps, 2 seats
    # the rerun checks the resume, not the results: hang.py's sixteen games may cost 0.5 s each
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                           env={**os.environ, "TRONLAB_PROGRAM_START": "0.5"})
    assert again.returncode == 0, again.stderr
    assert f"40 games planned, {len(keys)} already in" in again.stdout


def _sigint_bits(pid):
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":\t") for line in f.read().splitlines() if ":\t" in line)
    return {k: bool(int(fields[k], 16) & 2) for k in ("SigBlk", "SigIgn")}   # bit 2: SIGINT


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_pool_workers_start_deaf_to_ctrl_c_and_end_up_ignoring_it():
    """A worker still importing when Ctrl-C came printed 'KeyboardInterrupt' with its
    traceback: workers are spawned with SIGINT blocked, and their initializer ignores it
    and unblocks it (a Ctrl-C pending meanwhile is dropped)."""
    import signal

    from tronlab.arena.pool import process_pool

    pool = process_pool(1, warm=())
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})     # as _results does
    try:
        future = pool.submit(os.getpid)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    try:
        assert _sigint_bits(future.result(timeout=120)) == {"SigBlk": False, "SigIgn": True}
    finally:
        pool.shutdown(wait=True)


def test_a_killed_pool_has_closed_its_wakeup_pipe_before_the_run_goes_on():
    """After Ctrl-C the run printed its table and exited while the pool's thread was still
    closing its wake-up pipe; CPython's exit hook writes to that pipe unlocked, so now and
    then 'OSError: [Errno 9] Bad file descriptor' was printed after the table."""
    import time

    from tronlab.arena.pool import _kill_pool, process_pool

    pool = process_pool(1, warm=())
    manager = None
    try:
        assert pool.submit(os.getpid).result(timeout=120) > 0      # the worker is up
        pool.submit(time.sleep, 60)
        time.sleep(0.2)
        manager = pool._executor_manager_thread
        _kill_pool(pool)
        assert not manager.is_alive()
    finally:
        pool.shutdown(wait=False)
        if manager is not None:
            manager.join(timeout=60)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs PR_SET_CHILD_SUBREAPER")
def test_kill_9_of_a_one_job_run_leaves_no_hanging_bot_behind(tmp_path):
    # with one job the games are played in the run's own process: nothing of it runs after
    # a kill -9, so its reaper's watchdog must end the hanging bot's program
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("good.py", "hang.py"):
        (folder / name).write_text(textwrap.dedent(BOTS[name]))
    cmd = [sys.executable, "-m", "tronlab", "arena", "run", "--bots-dir", str(folder),
           "--maps", "arena", "--time", "0.05", "--db", str(tmp_path / "k.sqlite"),
           "--no-progress"]
    out = subprocess.run([sys.executable, "-c", SUPERVISOR, *cmd], capture_output=True, text=True,
                         timeout=300, env={**FAST_START, "KILL_AFTER_LINE": "2 games planned"})
    report = json.loads(out.stdout)
    assert report["code"] == -9, report
    assert report["left"] == [], f"processes left behind: {report['left']}"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs PR_SET_CHILD_SUBREAPER")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_child_that_leaves_the_group_and_clears_its_environment_is_ended(tmp_path, jobs):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "good.py").write_text(textwrap.dedent(BOTS["good.py"]))
    (folder / "escape.py").write_text(textwrap.dedent(ESCAPEE))
    cmd = [sys.executable, "-m", "tronlab", "arena", "run", "--bots-dir", str(folder),
           "--maps", "arena", "--time", "0.5", "--db", str(tmp_path / "e.sqlite"),
           "--no-progress", "--jobs", str(jobs)]
    out = subprocess.run([sys.executable, "-c", SUPERVISOR, *cmd], capture_output=True, text=True,
                         timeout=300, env=FAST_START)
    report = json.loads(out.stdout)
    assert report["code"] == 0, report["err"]
    assert (folder / "escaped.pids").read_text().split(), "the bot never started its child"
    assert report["left"] == [], f"processes left behind: {report['left']}"


#: a contest program (no move(): cmd:) that kills the process playing its game, a pool
#: worker.  (A py: file doing the same kills only the process that waits for it: see
#: test_pyprogram_faults.)
KILLER = """
    import os, sys
    sys.stdin.readline()
    os.kill(os.getppid(), 9)
    """


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs PR_SET_CHILD_SUBREAPER")
def test_a_bot_that_kills_its_worker_stops_the_run_in_one_line_and_keeps_the_rest(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "good.py").write_text(textwrap.dedent(BOTS["good.py"]))
    (folder / "killer.py").write_text(textwrap.dedent(KILLER))
    db = tmp_path / "class.sqlite"
    cmd = [sys.executable, "-m", "tronlab", "arena", "run", "--bots-dir", str(folder),
           "--bots", "hugger", "--maps", "arena", "--time", "0.05", "--db", str(db),
           "--no-progress", "--jobs", "2"]
    out = subprocess.run([sys.executable, "-c", SUPERVISOR, *cmd], capture_output=True, text=True,
                         timeout=300, env=FAST_START)
    report = json.loads(out.stdout)
    assert report["code"] == 2, report
    err = report["err"].strip().splitlines()
    assert len(err) == 1 and "a worker process died during a game" in err[0], report["err"]
    assert "Traceback" not in report["err"] and "stopped:" in report["out"]
    assert report["left"] == [], f"processes left behind: {report['left']}"
    with Store(db) as store:
        assert all("killer" not in row["names"] for row in store.rows())


def test_a_command_line_or_a_file_given_as_a_bot_name_is_told_how_to_write_it(tmp_path,
                                                                             monkeypatch):
    """``tronlab match hugger "python3 mybot.py"`` (or ``mybot.py``) said only "unknown bot"
    and listed the registered names: the contest programmer who forgot ``cmd:`` or ``py:``
    was not told that either exists."""
    from tronlab.arena.bots import check_spec

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybot.py").write_text("print(1)\n")
    (tmp_path / "prog").write_text("#!/bin/sh\n")

    def message(spec, game="google2010"):
        with pytest.raises(ValueError) as err:
            check_spec(spec, game)
        return str(err.value)

    both = ("; a contest program is cmd:COMMAND (cmd:python3 mybot.py), or py:mybot.py for "
            "a file with move(board, player)")
    assert message("python3 mybot.py").endswith(both)
    assert message("mybot.py").endswith(both)
    assert message("prog").endswith("; a contest program is cmd:COMMAND (cmd:./prog)")
    assert message("mybot.py", "backtothecode").endswith("(cmd:python3 mybot.py)")  # no py:
    assert message("chamberx").endswith("voronoi")          # a misspelt name: the list alone
    r = subprocess.run([sys.executable, "-m", "tronlab", "match", "hugger", "mybot.py"],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and both in r.stderr, r.stderr
