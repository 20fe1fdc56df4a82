"""Issue 11, defect 8: ``benchmarks/strength.py``'s results.  The JSON-lines file
(a truncated last line crashed every later run; ``--fresh`` rewrote the file in
place, so kill -9 during it lost other tags' results) became the arena's SQLite
store.  Here: kill -9 in the middle of ``--fresh`` (``Store.delete_tag``) loses
nothing, kill -9 right after it loses only that tag, and a damaged file is named in
one line instead of a ``JSONDecodeError``.  (Kill -9 during a run of games:
``tests/test_arena_kill.py``.)"""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tronlab.arena.store import Store

ROOT = Path(__file__).resolve().parents[1]


def row(tag, i):
    return {"key": f"{tag}-{i}", "tag": tag, "game": "google2010", "bots": ["a", "b"],
            "names": ["a", "b"], "map": "m", "map_set": "s", "seed": i, "winner": 0,
            "ranks": [0, 1], "turns": 3, "faults": [None, None], "record": "{}" + " " * 400}


def filled(path, per_tag=200):
    with Store(path) as store:
        for tag in ("mine", "theirs"):
            for i in range(per_tag):
                assert store.add(row(tag, i))
    return path


def kill_during_fresh(path, moment):
    """``delete_tag('mine')`` in a child that kills itself with SIGKILL at ``moment``:
    'before-commit' (the rows deleted, the transaction open) or 'after-commit'."""
    script = textwrap.dedent(f"""
        import os, signal
        from tronlab.arena.store import Store
        store = Store({str(path)!r})
        real = store.conn

        class Dying:
            def execute(self, sql, *args):
                if sql == "COMMIT" and {moment!r} == "before-commit":
                    os.kill(os.getpid(), signal.SIGKILL)
                out = real.execute(sql, *args)
                if sql == "COMMIT" and {moment!r} == "after-commit":
                    os.kill(os.getpid(), signal.SIGKILL)
                return out
        store.conn = Dying()
        store.delete_tag("mine")
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=60)
    assert r.returncode == -signal.SIGKILL, r.stderr


@pytest.mark.parametrize("moment, mine_left", [("before-commit", 200), ("after-commit", 0)])
def test_kill_9_during_fresh_never_loses_another_tags_games(tmp_path, moment, mine_left):
    path = filled(tmp_path / "results.sqlite")
    kill_during_fresh(path, moment)
    with Store(path) as store:
        assert store.integrity_check() == "ok"
        assert len(store.rows(tag="theirs")) == 200
        assert len(store.rows(tag="mine")) == mine_left


def test_a_damaged_results_file_is_named_in_one_line(tmp_path):
    path = filled(tmp_path / "results.sqlite")
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])        # cut in the middle, like a lost tail
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "tronlab", "arena", "table", str(path)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and str(path) in r.stderr
    assert "JSONDecodeError" not in r.stderr


def test_rows_are_oldest_first_and_filtered_by_tag_game_and_keys(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        for i, tag in enumerate(["b", "a", "b", "a"]):
            assert store.add({**row(tag, i), "game": "codingame" if i == 2 else "google2010"})
        assert not store.add(row("b", 0))                          # a key is stored once
        assert [r["key"] for r in store.rows()] == ["b-0", "a-1", "b-2", "a-3"]
        assert [r["key"] for r in store.rows(tag="b")] == ["b-0", "b-2"]
        assert [r["key"] for r in store.rows(game="google2010")] == ["b-0", "a-1", "a-3"]
        assert [r["key"] for r in store.rows(tag="b", game="google2010")] == ["b-0"]
        assert [r["key"] for r in store.rows(keys={"a-3", "b-0", "zz"})] == ["b-0", "a-3"]
        assert store.rows(keys=[]) == [] and store.done_keys() == {"b-0", "a-1", "b-2", "a-3"}


def test_a_run_leaves_another_programs_sqlite_database_alone(tmp_path, capsys):
    # '--db grades.sqlite' (the school's own file): the run switched it to WAL, added a
    # games table beside the school's tables and played into it
    import sqlite3

    from tronlab.cli import main as tronlab_main

    db = tmp_path / "grades.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE marks (student TEXT, mark REAL)")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    code = tronlab_main(["arena", "run", "--no-progress", "--bots", "random", "hugger",
                         "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "is not a tronlab results database: it holds other tables (marks)" in err
    assert db.read_bytes() == before
