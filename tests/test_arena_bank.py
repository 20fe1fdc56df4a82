"""``tronlab arena run --bank S``: a Light Riders class contest under the contest's time bank."""

from __future__ import annotations

import hashlib
import inspect
import json
import sqlite3
from dataclasses import replace

import pytest

from tronlab.arena import Store, gauntlet, report, round_robin, run
from tronlab.arena.play import _Depths
from tronlab.arena.store import SCHEMA, latest_versions, record_of
from tronlab.cli import main as tronlab_main
from tronlab.runner.registry import get_bot

BANK = ["--game", "lightriders", "--maps", "random:1", "--no-progress"]
LEFT = "def move(board, player):\n    moves = list(board.legal_moves(player))\n" \
       "    return moves[0] if moves else 0\n"


def _arena(capsys, *args):
    code = tronlab_main(["arena", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _metadata(store, row):
    return record_of(store.record_json(row["id"])).metadata


def test_a_tournament_under_a_bank_keeps_it_in_every_game(tmp_path):
    plan = round_robin(["chamber", "hugger"], "random:1", game="lightriders", bank=1,
                       time=0.02)
    assert {spec.bank for spec in plan} == {1.0}
    with Store(tmp_path / "b.sqlite") as store:
        assert run(plan, store, progress=False).played == 2
        rows = store.rows()
        for row in rows:
            meta = _metadata(store, row)
            assert meta["time_bank"] == [1.0, 0.02] and meta["time_limit"] is None
            assert all(0 <= least <= 1.0 for least in meta["least_bank"])
            assert row["bank"] == 1.0 and row["time"] == 0.02
            assert "timeout" not in row["faults"]
            assert [e for e in record_of(store.record_json(row["id"])).events
                    if e["kind"] == "timeout"] == []
        assert run(plan, store, progress=False).played == 0        # resumed: nothing new
        # a replay says the clock too: its timeouts read against it
        head = report.replay_text(rows[0], record_of(store.record_json(rows[0]["id"])))
        assert head.splitlines()[0].endswith("; clock: time bank 1 s, 0.02 s added a move")
    assert "clock: time bank 1 s, 0.02 s added a move" in report.table_text(rows)


def test_a_search_bot_hears_its_bank_through_the_arena():
    # the arena wraps each bot to note its depths: the wrapper must pass set_clock on, or
    # a search bot plans from --time alone and overdraws a bank it never heard of
    bot = _Depths(get_bot("chamber"))
    assert callable(getattr(bot, "set_clock", None))


def test_a_run_with_another_clock_does_not_reuse_the_bank_games(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    bots = ["--bots", "hugger", "random", "--db", db]
    code, out, err = _arena(capsys, "run", *BANK, *bots, "--bank", "1", "--time", "0.02")
    assert code == 0, err
    assert "2 games planned, 0 already in" in out
    assert "clock: time bank 1 s, 0.02 s added a move" in out
    code, out, err = _arena(capsys, "run", *BANK, *bots, "--bank", "1", "--time", "0.02")
    assert code == 0 and "2 already in" in out and "0 to play" in out
    for other in (["--time", "0.02"], ["--bank", "2", "--time", "0.02"]):
        code, out, err = _arena(capsys, "run", *BANK, *bots, *other)
        assert code == 0, err
        assert "2 games planned, 0 already in" in out, other
    code, out, err = _arena(capsys, "table", db)
    assert code == 0 and "6 games (lightriders)" in out and "left out" not in out
    assert ("clocks: time bank 1 s, 0.02 s added a move (2 games); 0.02 s a move (2 games); "
            "time bank 2 s, 0.02 s added a move (2 games)") in out
    with Store(db) as store:
        assert [r["bank"] for r in store.rows()] == [1.0, 1.0, None, None, 2.0, 2.0]
        meta = [_metadata(store, r)["time_bank"] for r in store.rows()]
    assert meta == [[1.0, 0.02]] * 2 + [None] * 2 + [[2.0, 0.02]] * 2


def test_the_bank_alone_is_the_contests_clock(tmp_path, capsys):
    db = str(tmp_path / "d.sqlite")
    code, out, err = _arena(capsys, "run", *BANK, "--bots", "hugger", "random", "--db", db,
                            "--bank", "10")
    assert code == 0, err
    assert "clock: time bank 10 s, 0.2 s added a move" in out


@pytest.mark.parametrize("game", ["google2010", "codingame", "backtothecode"])
def test_a_bank_for_a_game_without_one_is_refused(tmp_path, capsys, game):
    db = tmp_path / "r.sqlite"
    code, out, err = _arena(capsys, "run", "--game", game, "--bots", "random", "hugger",
                            "--bank", "1", "--db", str(db), "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert "--bank is for lightriders" in err and f"{game} takes --time" in err
    assert not db.exists()                                      # refused before anything


def test_the_api_checks_the_bank_naming_it():
    with pytest.raises(ValueError, match="bank is for lightriders.*google2010 takes time"):
        round_robin(["random", "hugger"], "arena", bank=10)
    with pytest.raises(ValueError, match="bank is for lightriders"):
        gauntlet("random", ["hugger"], "random:1", game="codingame", bank=10)
    with pytest.raises(TypeError, match="bank is the seconds"):
        round_robin(["random", "hugger"], "random:1", game="lightriders", bank="10")
    with pytest.raises(TypeError, match="bank is the seconds"):
        round_robin(["random", "hugger"], "random:1", game="lightriders", bank=True)
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="bank is a positive number"):
            gauntlet("random", ["hugger"], "random:1", game="lightriders", bank=bad)
    with pytest.raises(ValueError, match="with bank, time is the seconds added"):
        round_robin(["random", "hugger"], "random:1", game="lightriders", bank=10, time=None)


def test_the_api_time_default_follows_the_clock_as_the_command_does():
    # time's default is the contest's 0.2 s a move under a bank, else 0.1 s a move
    for make in (lambda **kw: round_robin(["random", "hugger"], "random:1", **kw),
                 lambda **kw: gauntlet("random", ["hugger"], "random:1", **kw)):
        assert {g.time for g in make(game="lightriders", bank=10)} == {0.2}
        assert {g.time for g in make(game="lightriders")} == {0.1}
        assert {g.time for g in make(game="lightriders", bank=10, time=0.05)} == {0.05}
        assert {g.time for g in make(game="lightriders", time=None)} == {None}
    assert "0.2 with a bank" in str(inspect.signature(round_robin))


def test_a_bank_changes_the_key_and_a_game_without_one_keeps_its_old_key():
    base = round_robin(["random", "hugger"], "random:1", game="lightriders", time=0.2)[0]
    old = [base.tag, base.game, list(base.bots), base.map, base.seed, base.time, base.depth]
    assert base.key == hashlib.sha1(json.dumps(old).encode()).hexdigest()[:20]
    keys = {base.key, replace(base, bank=10.0).key, replace(base, bank=5.0).key}
    assert len(keys) == 3


def test_a_python_file_plays_under_the_bank(tmp_path, capsys):
    bot = tmp_path / "left.py"
    bot.write_text(LEFT)
    db = str(tmp_path / "p.sqlite")
    # 3 s hold a first move on a busy machine
    code, out, err = _arena(capsys, "run", *BANK, "--bots", f"py:{bot}", "hugger",
                            "--bank", "3", "--time", "0.02", "--db", db)
    assert code == 0, err
    assert "faults (timeouts, crashes, bad output): none in 2 games" in out
    with Store(db) as store:
        for row in store.rows():
            meta = _metadata(store, row)
            seat = row["names"].index("left")
            assert meta["time_bank"] == [3.0, 0.02]
            assert 0 < meta["least_bank"][seat] < 3.0      # its thinking came off the bank
            assert meta["think_seconds"][seat] > 0


def test_an_older_database_gets_the_bank_column(tmp_path):
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old)
    conn.execute(SCHEMA[0].split("record   TEXT NOT NULL,")[0] + "record TEXT NOT NULL)")
    conn.execute("INSERT INTO games (key, game, bots, names, map, map_set, seed, time, ranks, "
                 "turns, faults, created, record) VALUES ('k', 'lightriders', '[\"a\", \"b\"]', "
                 "'[\"a\", \"b\"]', 'm', 's', 1, 0.1, '[0, 1]', 3, '[null, null]', 'now', '{}')")
    conn.commit()
    conn.close()
    with Store(old, read_only=True) as store:          # read-only: the file is not changed
        assert [r["bank"] for r in store.rows()] == [None]
    with Store(old) as store:
        assert [r["bank"] for r in store.rows()] == [None]
        row = dict(store.rows()[0], key="k2", bank=1.0, record="{}")
        assert store.add(row)
        rows = store.rows()
    assert [r["bank"] for r in rows] == [None, 1.0]
    # a bank game is not a newer version of the game under a limit a move
    assert latest_versions(rows) == (rows, 0)
    assert report.clocks_phrase(rows) == ("clocks: 0.1 s a move (1 game); "
                                   "time bank 1 s, 0.1 s added a move (1 game)")


def test_a_python_file_with_set_clock_hears_its_bank(tmp_path):
    """A py: file may define set_clock(time_left, time_per_move), as the search bots do;
    it hears its bank before each move (it had no way to know the clock before)."""
    from tronlab.arena.bots import make_bot
    from tronlab.runner.engine import play
    from tronlab.tron.mapgen import lightriders_board

    bot = tmp_path / "timed.py"
    bot.write_text("import sys\n\ndef set_clock(time_left, time_per_move):\n"
                   "    print(f'clock {time_left:.2f} {time_per_move:.2f}', file=sys.stderr)\n\n"
                   + LEFT)
    timed = make_bot(f"py:{bot}", "lightriders")
    try:
        record = play(lightriders_board(rng=1), [timed, get_bot("hugger")],
                      rules="lightriders", time_bank=(3, 0.05), max_turns=3)
    finally:
        timed.close()
    heard = [line.split() for line in record.stderr[0].splitlines() if line.startswith("clock")]
    assert len(heard) == 3 and all(per == "0.05" for _, _, per in heard), record.stderr[0]
    assert 2.0 < float(heard[0][1]) <= 3.0 and float(heard[1][1]) <= 3.0, heard


def test_a_capture_replay_of_one_turn_says_turn_not_turns():
    from types import SimpleNamespace
    row = {"id": 3, "game": "backtothecode", "map": "random:1", "seed": 7,
           "names": ["a", "b"], "time": 0.1, "bank": None, "depth": None}
    record = SimpleNamespace(final=["..."], events=[], notes=[],
                             outcome={"turns": 1, "scores": [1, 0], "ranks": [1, 2],
                                      "reason": "b exited"})
    assert "after 1 turn: scores [1, 0]" in report.replay_text(row, record)
    record.outcome["turns"] = 2
    assert "after 2 turns: scores" in report.replay_text(row, record)


def test_a_class_folder_moved_and_played_again_keeps_only_its_newer_games():
    """A teacher copies cap/ to cap2/, fixes a file and plays the class again: every spec's
    path changed, so every game is played again, and the table must count those, not
    both (before, each bot showed its games twice under one name)."""
    def game(i, folder, seed):
        return {"id": i, "tag": "", "game": "backtothecode", "map": "random-1", "seed": seed,
                "time": 0.05, "depth": None, "bank": None, "names": ["ann", "bob"],
                "bots": [f"cmd:python {folder}/ann.py", f"cmd:python {folder}/bob.py"]}
    old = [game(1, "/t/cap", 1), game(2, "/t/cap", 2)]
    new = [game(3, "/t/cap2", 1), game(4, "/t/cap2", 2)]
    assert latest_versions(old + new) == (new, 2)
    assert latest_versions(old + new[:1]) == ([old[1], new[0]], 1)   # seed 2 not yet again
