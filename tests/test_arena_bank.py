"""Arena tournaments of Light Riders under the contest's time bank (``bank=``)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import replace

import pytest

from tronlab.arena import Store, gauntlet, report, round_robin, run
from tronlab.arena.play import _Depths
from tronlab.arena.store import SCHEMA, latest_versions, record_of
from tronlab.runner.registry import get_bot



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
    assert "clock: time bank 1 s, 0.02 s added a move" in report.table_text(rows)


def test_a_search_bot_hears_its_bank_through_the_arena():
    # the arena wraps each bot to note its depths: the wrapper must pass set_clock on, or
    # a search bot plans from --time alone and overdraws a bank it never heard of
    bot = _Depths(get_bot("chamber"))
    assert callable(getattr(bot, "set_clock", None))


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


def test_a_bank_changes_the_key_and_a_game_without_one_keeps_its_old_key():
    base = round_robin(["random", "hugger"], "random:1", game="lightriders", time=0.2)[0]
    old = [base.tag, base.game, list(base.bots), base.map, base.seed, base.time, base.depth]
    assert base.key == hashlib.sha1(json.dumps(old).encode()).hexdigest()[:20]
    keys = {base.key, replace(base, bank=10.0).key, replace(base, bank=5.0).key}
    assert len(keys) == 3


def test_an_older_database_gets_the_bank_column(tmp_path):
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old)
    conn.execute(SCHEMA[0].replace("record   TEXT NOT NULL,", "record   TEXT NOT NULL")
                 .replace("bank     REAL", ""))
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
