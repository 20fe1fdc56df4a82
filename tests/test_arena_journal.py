"""A pool worker keeps each game it finished on disk until the run has stored it.

A run killed with a finished game's row still in the pool's pipe (kill -9 between the
worker's answer and the run's transaction) used to lose that game: the rerun played it
again.  The worker now writes the row to a journal of its own first
(:func:`tronlab.arena.pool.play_and_keep`); the next run stores it before anything else.
"""

import json
import os
import subprocess
import sys

from tronlab.arena import Store, round_robin, run
from tronlab.arena.tournament import RunResult
from tronlab.arena.unstored import journal_path, kept_files, kept_rows, store_journals

BOTS, MAPS = ["random", "hugger"], "random:2:7x7"

_KILLED = """
import os, signal, sys
from tronlab.arena import Store, round_robin, run, tournament

def die(store, row, result):       # the first row back from a worker, not stored yet
    print(row["key"], flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

tournament.add_or_keep = die
with Store(sys.argv[1]) as store:
    run(round_robin(%r, %r, time=0.05), store, jobs=2, progress=False, check_load=False)
""" % (BOTS, MAPS)


def test_a_run_killed_before_it_stored_a_workers_game_loses_no_game(tmp_path, capsys):
    db = tmp_path / "j.sqlite"
    out = subprocess.run([sys.executable, "-c", _KILLED, str(db)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == -9, out.stderr[-3000:]
    key = out.stdout.split()[0]
    with Store(db) as store:
        assert store.done_keys() == set()            # killed before its first transaction
    kept = {r["key"]: r for r in kept_rows(db)}
    assert key in kept and all(len(r["record"]) > 2 for r in kept.values())
    files = kept_files(db)
    assert files and all(".unstored." in f and f.endswith(".jsonl") for f in files)

    from tronlab.arena.cli import main
    assert main(["table", str(db)]) == 0              # the table says where they are
    said = capsys.readouterr().out
    assert f"kept in {', '.join(files)}" in said and "stopped or killed" in said, said

    plan = round_robin(BOTS, MAPS, time=0.05)
    with Store(db) as store:
        result = run(plan, store, progress=False)
        assert result.skipped == len(kept) and result.played == len(plan) - len(kept)
        stored = {r["key"]: r for r in store.rows()}
    assert stored.keys() == {s.key for s in plan}
    for k, row in kept.items():                      # stored as the worker played it
        assert (stored[k]["winner"], stored[k]["turns"]) == (row["winner"], row["turns"])
    assert kept_files(db) == []
    assert sorted(os.listdir(tmp_path)) == ["j.sqlite"], os.listdir(tmp_path)


def test_a_pool_run_stores_each_game_once_and_leaves_no_journal(tmp_path):
    db = tmp_path / "p.sqlite"
    plan = round_robin(BOTS, MAPS, time=0.05)
    with Store(db) as store:
        result = run(plan, store, jobs=2, progress=False)
        assert result.played == len(plan) == len(store.done_keys())
    assert kept_files(db) == [] and sorted(os.listdir(tmp_path)) == ["p.sqlite"]


def _row(key):
    return {"key": key, "game": "google2010", "bots": ["a", "b"], "names": ["a", "b"],
            "map": "m", "map_set": "s", "seed": 1, "winner": 0, "ranks": [0, 1], "turns": 3,
            "faults": [None, None], "record": "{}"}


def test_the_end_of_a_run_stores_what_its_workers_wrote_and_no_other_runs(tmp_path):
    """A game a worker finished as the run stopped reading is stored and counted when the
    run ends; the journals of another run (another pid) are left to that run; a line a
    kill cut short is passed over."""
    db = tmp_path / "e.sqlite"
    ours, theirs = journal_path(db, os.getpid(), 11), journal_path(db, 1, 12)
    with open(ours, "w", encoding="utf-8") as f:
        f.write(json.dumps(_row("k1")) + "\n" + json.dumps(_row("k2")) + "\n")
        f.write(json.dumps(_row("k3"))[:40])         # a kill -9 while it was written
    with open(theirs, "w", encoding="utf-8") as f:
        f.write(json.dumps(_row("k4")) + "\n")
    (tmp_path / "e.sqlite.unstored.x.jsonl").write_text("not a journal\n")
    with Store(db) as store:
        store.add(_row("k1"))                        # the run stored this one itself
        result = RunResult(planned=4, skipped=0)
        store_journals(store, result)
        assert store.done_keys() == {"k1", "k2"}
        assert result.played == 1 and [r["key"] for r in result.rows] == ["k2"]
    assert kept_files(db) == [theirs] and os.path.exists(ours) is False
    assert [r["key"] for r in kept_rows(db)] == ["k4"]


def test_a_worker_that_starts_after_its_run_was_killed_exits():
    """Linux sends a worker SIGTERM when its run dies only if the worker asked before:
    one still starting when the run was killed used to wait forever for games (and kept
    the run's output pipe open).  Told its run's pid, it sees it is gone and exits."""
    code = ("import os\n"
            "from tronlab.arena import pool\n"
            "pool._init_worker((), None, os.getppid())\n"          # its run is alive
            "print('alive', flush=True)\n"
            "pool._init_worker((), None, os.getppid() + 1)\n"      # its run is gone
            "print('not reached', flush=True)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 128 + 15 and out.stdout == "alive\n", (out.stdout, out.stderr)


def test_a_second_run_leaves_a_live_runs_journals_to_it(tmp_path):
    """A second terminal's run on the same database starts while the first plays: the
    first run's journals hold games it is storing itself, so the second neither stores
    them (the first would count fewer games than it played) nor says an earlier run
    left them; once the first has ended (here: dropped its mark), they are anyone's."""
    from tronlab.arena.unstored import end_run, hold_run
    db = tmp_path / "s.sqlite"
    Store(db).close()
    held = hold_run(db)
    assert held is not None
    with open(journal_path(db, os.getpid(), 7), "w", encoding="utf-8") as f:
        f.write(json.dumps(_row("k1")) + "\n")
    other = ("import sys\n"
             "from tronlab.arena import Store\n"
             "from tronlab.arena.unstored import kept_files, store_kept\n"
             "with Store(sys.argv[1]) as store:\n"
             "    print(len(kept_files(store.path)), store_kept(store))\n")
    second = [sys.executable, "-c", other, str(db)]
    assert subprocess.run(second, capture_output=True, text=True, timeout=120).stdout == "0 0\n"
    assert os.path.exists(journal_path(db, os.getpid(), 7))
    end_run(db, held)                               # the first run ends (or is killed)
    assert subprocess.run(second, capture_output=True, text=True, timeout=120).stdout == "1 1\n"
    assert sorted(os.listdir(tmp_path)) == ["s.sqlite"]
