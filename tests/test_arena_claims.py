"""Runs sharing one database share its games (tronlab.arena.claims): a game a live run
holds is left to it, a claim of a run that died (kill -9) or of another host that
stopped renewing it is taken over, and the run says how many games it left to whom."""

import concurrent.futures as cf
import os
import socket
import sqlite3
import subprocess
import time

import pytest

from tronlab.arena import Store, round_robin, run
from tronlab.arena.claims import STALE, Claims, process_start

PLAN = round_robin(["random", "hugger"], "arena,random:1:9x9")        # 4 games


@pytest.fixture
def other_run():
    """A live process of this host standing for another run: its claimant identity."""
    proc = subprocess.Popen(["sleep", "60"])
    try:
        yield proc, (socket.gethostname(), proc.pid, process_start(proc.pid))
    finally:
        proc.kill()
        proc.wait()


def _claims(store):
    return dict(store.conn.execute("SELECT key, pid FROM claims"))


def test_a_game_a_live_run_holds_is_left_to_it_and_taken_over_once_it_is_killed(
        tmp_path, other_run):
    proc, them = other_run
    held = PLAN[1].key
    with Store(tmp_path / "c.sqlite") as store:
        assert Claims(store, me=them).claim([held]) == [held]
        result = run(PLAN, store, progress=False)
        assert (result.played, result.held) == (3, {held: proc.pid})
        assert held not in store.done_keys() and _claims(store) == {held: proc.pid}
        proc.kill()                     # kill -9: its claim stays behind
        proc.wait()
        again = run(PLAN, store, progress=False)
        assert (again.played, again.held) == (1, {})
        assert store.done_keys() == {s.key for s in PLAN}
        assert _claims(store) == {} and store.integrity_check() == "ok"


def test_a_reused_pid_or_a_silent_other_host_holds_nothing(tmp_path, other_run):
    _, (host, pid, _) = other_run
    keys = [s.key for s in PLAN]
    with Store(tmp_path / "c.sqlite") as store:
        Claims(store, me=(host, pid, "another-boot:1")).claim(keys[:1])     # pid reused
        Claims(store, me=("elsewhere", 7, "b:2")).claim(keys[1:3])
        store.conn.execute("UPDATE claims SET renewed = ? WHERE key = ?",
                           (time.time() - STALE - 1, keys[2]))
        mine = Claims(store)
        assert mine.claim(keys) == [keys[0], keys[2], keys[3]]
        assert mine.held == {keys[1]: "7 on elsewhere"}
        mine.release()
        assert _claims(store) == {keys[1]: 7}
        assert Claims(store).claim([keys[0]]) == [keys[0]]      # released: free again


def test_a_pool_claims_a_game_as_a_worker_takes_it_not_all_at_the_start(tmp_path,
                                                                         other_run):
    """Two workers; the first two games are another run's.  Were the window not filled
    again past them, this run would play nothing; were all games claimed at the start, a
    second run would find nothing left to play."""
    _, them = other_run
    plan = round_robin(["random", "hugger", "filler"], "arena,random:1:9x9")   # 12 games
    most = []
    with Store(tmp_path / "c.sqlite") as store, cf.ThreadPoolExecutor(2) as pool:
        Claims(store, me=them).claim([s.key for s in plan[:2]])

        def on_game(row):
            most.append(sum(p == os.getpid() for p in _claims(store).values()))
        result = run(plan, store, executor=pool, progress=False, on_game=on_game)
        assert result.played == 10 and len(result.held) == 2
        assert max(most) <= 2               # the game just stored is no longer claimed
        assert set(_claims(store)) == {s.key for s in plan[:2]}


def test_a_database_of_an_older_tronlab_gets_the_claims_table(tmp_path):
    db = tmp_path / "old.sqlite"
    with Store(db) as store:
        run(PLAN[:1], store, progress=False)
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE claims")
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert run(PLAN, store, progress=False).played == 3
        assert store.integrity_check() == "ok"


def test_the_command_says_which_games_another_run_is_playing(tmp_path, capsys, other_run):
    from tronlab.arena.cli import main, make_plan
    from tronlab.arena.parser import build_parser

    proc, them = other_run
    argv = ["run", "--bots", "random", "hugger", "--maps", "arena", "--db",
            str(tmp_path / "c.sqlite"), "--no-progress"]
    plan = make_plan(build_parser().parse_args(argv))
    with Store(tmp_path / "c.sqlite") as store:
        Claims(store, me=them).claim([s.key for s in plan])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"2 games are being played by another run (pid {proc.pid}): not in the table " \
           f"above yet" in out

