"""The arena: plans, the store, the statistics against scipy, the ratings against a
brute-force fit, and the ``tronlab arena`` command."""

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import types
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tronlab.arena import Store, gauntlet, round_robin, run
from tronlab.arena.bots import bots_in_folder
from tronlab.arena.ratings import ELO, fit, log_likelihood, ratings, tallies
from tronlab.arena.stats import pair_row, score_interval, sign_test, verdict
from tronlab.arena.store import record_of
from tronlab.cli import main as tronlab_main
from tronlab.runner.records import GameRecord

scipy_stats = pytest.importorskip("scipy.stats")
scipy_optimize = pytest.importorskip("scipy.optimize")


# ---- plans ------------------------------------------------------------------------------

def test_round_robin_plays_every_pair_in_both_seats_on_every_map_and_seed():
    plan = round_robin(["random", "hugger", "filler"], "arena,random:2", seeds=2)
    assert len(plan) == 3 * 2 * 3 * 2
    seatings = {g.bots for g in plan}
    assert seatings == {(a, b) for a in ("random", "hugger", "filler")
                        for b in ("random", "hugger", "filler") if a != b}
    assert len({g.key for g in plan}) == len(plan)
    assert len({g.seed for g in plan}) == len(plan)
    again = round_robin(["random", "hugger", "filler"], "arena,random:2", seeds=2)
    assert [g.key for g in again] == [g.key for g in plan]
    assert {g.key for g in round_robin(["random", "hugger"], "arena", tag="x")}.isdisjoint(
        g.key for g in plan)


def test_a_games_key_changes_with_everything_that_decides_the_game():
    # the store skips a planned game whose key it holds: a key that missed a field would
    # take a game played at another depth, time, ... for this one
    from dataclasses import replace
    base = round_robin(["random", "hugger"], "arena")[0]
    changes = [{"depth": 3}, {"time": 0.2}, {"time": None}, {"tag": "x"},
               {"seed": base.seed + 1}, {"map": "random:1"}, {"game": "lightriders"},
               {"bots": base.bots[::-1]}, {"files": ("0" * 40, "")}]
    keys = [replace(base, **change).key for change in changes]
    assert len(set(keys + [base.key])) == len(changes) + 1
    assert replace(base).key == base.key


def test_a_bot_named_twice_is_planned_once_and_never_meets_itself():
    plan = round_robin(["random", "hugger", "random"], "arena")
    assert [g.key for g in plan] == [g.key for g in round_robin(["random", "hugger"], "arena")]
    hero = gauntlet("filler", ["random", "filler", "random"], "arena")
    assert [g.bots for g in hero] == [("filler", "random"), ("random", "filler")]


def test_one_program_run_two_ways_is_two_bots(tmp_path):
    # before: both were named 'mine' and the plan was refused (two bots, one name), so a
    # contest programmer had to copy the file to compare two settings of it
    prog = tmp_path / "mine.py"
    prog.write_text("print('up')\n")
    specs = [f"cmd:{sys.executable} {prog}", f"cmd:{sys.executable} {prog} --depth 3",
             f"cmd:{sys.executable} {prog} --note 'two words'"]
    plan = round_robin(specs, "random:1")
    assert {n for g in plan for n in g.names} == {"mine", "mine --depth 3",
                                                  "mine --note 'two words'"}


def test_tronlabs_own_bots_run_as_programs_are_named_by_bot_not_all_tronlab():
    # before: both were named 'tronlab' and the plan was refused (two bots, one name)
    own = [f"cmd:{sys.executable} -m tronlab bot {b} --protocol lightriders"
           for b in ("nash", "chamber+depth=3")]
    plan = round_robin(own, "random:1", game="lightriders")
    assert {g.names for g in plan} == {("tronlab bot nash", "tronlab bot chamber+depth=3"),
                                       ("tronlab bot chamber+depth=3", "tronlab bot nash")}
    command = os.path.join(os.path.dirname(sys.executable), "tronlab")     # the venv's script
    plan = round_robin([f"cmd:{command} bot nash", f"cmd:{command} bot quick"], "random:1",
                       game="lightriders")
    assert set(plan[0].names) == {"tronlab bot nash", "tronlab bot quick"}



def test_tronlabs_own_bot_run_two_ways_as_programs_is_told_how_to_tell_them_apart():
    # before: 'a py: or cmd: bot is named after its file: rename one of the files', where
    # there is no file to rename: 'tronlab bot NAME' is the name whatever its options
    own = [f"cmd:{sys.executable} -m tronlab bot chamber --protocol lightriders --time {t}"
           for t in (0.1, 0.5)]
    with pytest.raises(ValueError, match=r"two bots have the name 'tronlab bot chamber': .*"
                                         r"put the options in NAME \(chamber\+time=0.5\)") as err:
        round_robin(own, "random:1", game="lightriders")
    assert "rename" not in str(err.value)

def test_plan_size_limits_are_inclusive():
    from tronlab.arena.schedule import MAX_GAMES, MAX_SEEDS, check_plan_size
    check_plan_size(1, 1, MAX_SEEDS)
    check_plan_size(MAX_GAMES // 10, 10, 1)                     # exactly MAX_GAMES games
    with pytest.raises(ValueError, match="^seeds is the number"):   # the API's words
        check_plan_size(1, 1, MAX_SEEDS + 1)
    with pytest.raises(ValueError, match="^depth is a whole number"):
        round_robin(["random", "hugger"], "arena", depth=0)
    with pytest.raises(ValueError, match="more than"):
        check_plan_size(MAX_GAMES + 1, 1, 1)


def test_codingame_groups_rotate_through_every_seat():
    bots = ["random", "hugger", "filler", "multivoronoi"]
    plan = round_robin(bots, "random:1", game="codingame", players=4)
    assert len(plan) == 8 and len({g.bots for g in plan}) == 8
    for seat in range(4):
        assert Counter(g.bots[seat] for g in plan) == {b: 2 for b in bots}
    # CodinGame Tron moves in index order: every pair sits each way round as often
    # (rotations alone sat each pair adjacent in the list first in 3 games of 4)
    for a, b in itertools.permutations(bots, 2):
        assert sum(g.bots.index(a) < g.bots.index(b) for g in plan) == 4, (a, b)
    three = round_robin(bots[:3], "random:1", game="codingame", players=3)
    assert sorted(g.bots for g in three) == sorted(itertools.permutations(bots[:3]))
    three = gauntlet("multivoronoi", ["random"], "random:2", game="codingame", players=3)
    assert sorted(g.bots.index("multivoronoi") for g in three) == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("bots, game, message", [
    (["random", "nosuchbot"], "google2010", "unknown bot 'nosuchbot'"),
    (["random", "py:/no/such/file.py"], "google2010", "no such Python file"),
    (["random", "cmd:/no/such/program"], "google2010", "program not found"),
    (["random", "nearest"], "google2010", "unknown bot 'nearest'"),
    (["random", "hugger"], "backtothecode", "unknown bot 'hugger'"),
])
def test_bad_bots_are_named(bots, game, message):
    with pytest.raises(ValueError, match=message):
        round_robin(bots, None, game=game)


def test_a_program_named_without_its_folder_is_refused_before_any_game(tmp_path, monkeypatch):
    """``cmd:mybot.py`` with mybot.py in the current folder passed the check, then lost
    every game with 'could not start mybot.py: No such file or directory' (a bare
    name is looked up on PATH only)."""
    from tronlab.arena.bots import check_program

    bot = tmp_path / "mybot.py"
    bot.write_text("#!/usr/bin/env python3\n")
    bot.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    for game in ("google2010", "backtothecode"):
        with pytest.raises(ValueError, match=r"'mybot.py' \(from 'cmd:mybot.py'\) is a file in "
                                             r"this folder.*write cmd:./mybot.py or "
                                             r"cmd:python3 mybot.py"):
            round_robin(["random" if game == "google2010" else "nearest", "cmd:mybot.py"],
                        None, game=game)
    assert check_program("cmd:./mybot.py --fast") == ["./mybot.py", "--fast"]
    bot.chmod(0o644)
    with pytest.raises(ValueError, match=r"^./mybot.py is not executable: chmod \+x ./mybot.py$"):
        check_program("cmd:./mybot.py")


def test_bad_maps_and_player_counts_are_named():
    with pytest.raises(ValueError, match="unknown map 'nowhere'"):
        round_robin(["random", "hugger"], "nowhere")
    with pytest.raises(ValueError, match="google2010 is played by 2 players, got 3"):
        round_robin(["random", "hugger", "filler"], "arena", players=3)


def test_bots_in_folder_tells_student_files_from_programs(tmp_path):
    (tmp_path / "ann.py").write_text("def move(board, player):\n    return 0\n")
    (tmp_path / "bob.py").write_text("import sys\nfor line in sys.stdin:\n    print(1)\n")
    (tmp_path / "notes.txt").write_text("not a bot")
    tool = tmp_path / "carl"
    tool.write_text("#!/bin/sh\nwhile read x; do echo 1; done\n")
    tool.chmod(0o755)
    specs = bots_in_folder(tmp_path)
    assert specs[0] == f"py:{tmp_path / 'ann.py'}"
    assert specs[1].startswith("cmd:") and specs[1].endswith("bob.py")
    assert specs[2] == f"cmd:{tool}"
    assert [s.split("/")[-1] for s in specs] == ["ann.py", "bob.py", "carl"]


# ---- playing into the store ---------------------------------------------------------------

def test_a_run_stores_replayable_games_and_a_rerun_plays_nothing(tmp_path):
    plan = round_robin(["random", "hugger", "filler"], "arena,random:1:9x9")
    with Store(tmp_path / "r.sqlite") as store:
        first = run(plan, store, progress=False)
        assert (first.planned, first.skipped, first.played) == (12, 0, 12)
        again = run(plan, store, progress=False)
        assert (again.skipped, again.played) == (12, 0)
        rows = store.rows()
        assert sorted(r["key"] for r in rows) == sorted(g.key for g in plan)
        for row in rows:
            record = record_of(store.record_json(row["id"]))
            record.verify()
            assert record.metadata["names"] == row["names"]
            assert record.outcome.winner == row["winner"]
            assert record.outcome.turns == row["turns"]
        assert store.integrity_check() == "ok"


@pytest.mark.parametrize("game, bots, players, maps", [
    ("codingame", ["random", "hugger", "filler", "multivoronoi"], 4, "random:1"),
    ("codingame", ["random", "hugger", "filler"], 3, "random:1"),
    ("lightriders", ["random", "hugger"], 2, "random:1"),
    ("backtothecode", ["random", "nearest"], 2, "capture:0"),
])
def test_every_registered_game_plays(tmp_path, game, bots, players, maps):
    maps = "random:1:12x8" if maps == "capture:0" else maps
    plan = round_robin(bots, maps, game=game, players=players)
    with Store(tmp_path / "g.sqlite") as store:
        assert run(plan, store, progress=False).played == len(plan)
        for row in store.rows():
            assert sorted(set(row["ranks"]))[0] == 0 and len(row["ranks"]) == players
            record = record_of(store.record_json(row["id"]))
            record.verify()


def _two_runs_script(db):
    return ("import sys\nfrom tronlab.arena import Store, round_robin, run\n"
            "plan = round_robin(['random', 'hugger', 'filler'], 'random:12:9x9')\n"
            f"print(run(plan, Store({str(db)!r}), progress=False).played)\n")


class _CtrlCAfterCommit:
    """A connection whose COMMIT succeeds and is then interrupted, as a Ctrl-C landing
    just after SQLite returns from the commit would."""

    def __init__(self, conn):
        self.conn = conn

    def __getattr__(self, name):
        return getattr(self.conn, name)

    def execute(self, sql, *args):
        cur = self.conn.execute(sql, *args)
        if sql == "COMMIT":
            raise KeyboardInterrupt
        return cur


def test_ctrl_c_just_after_a_commit_keeps_the_game_and_stays_a_ctrl_c(tmp_path):
    from tronlab.arena.play import play_spec

    row = play_spec(round_robin(["random", "hugger"], "arena")[0])
    with Store(tmp_path / "c.sqlite") as store:
        real, store.conn = store.conn, _CtrlCAfterCommit(store.conn)
        with pytest.raises(KeyboardInterrupt):     # not "cannot rollback": the run stops cleanly
            store.add(row)
        store.conn = real
        assert [r["key"] for r in store.rows()] == [row["key"]]
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert store.add(row) is False                 # stored once


def test_a_worker_stopped_twice_exits_quietly():
    """A pool worker's SIGTERM handler imports nothing (the reaper is loaded before the
    handler is set: a signal during an import in the handler once ran it again on a
    half-loaded module) and ignores a second SIGTERM while it kills its programs."""
    code = textwrap.dedent("""
        import os, signal, sys
        from tronlab.arena import pool
        assert "tronlab.runner.reaper" not in sys.modules
        pool._init_worker(())
        assert "tronlab.runner.reaper" in sys.modules
        from tronlab.runner import reaper
        def kill_all():                     # a second SIGTERM arrives mid-clean-up
            os.kill(os.getpid(), signal.SIGTERM)
            print("cleaned", flush=True)
        reaper.kill_all = kill_all
        os.kill(os.getpid(), signal.SIGTERM)
        print("not reached", flush=True)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 128 + signal.SIGTERM, out.stderr
    assert out.stdout == "cleaned\n" and out.stderr == ""


def test_two_runs_at_once_share_one_database(tmp_path):
    db = tmp_path / "shared.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", _two_runs_script(db)], stdout=subprocess.PIPE,
                              text=True) for _ in range(2)]
    played = [int(p.communicate(timeout=120)[0]) for p in procs]
    with Store(db) as store:
        rows = store.rows()
        assert len(rows) == 72 == len({r["key"] for r in rows})
        assert sum(played) == 72          # a game both played is stored (and counted) once
        assert store.integrity_check() == "ok"
        # each claimed the games it played (tronlab.arena.claims) and left no claim behind
        assert store.conn.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)


def test_opening_retries_while_sqlite_refuses_to_wait(tmp_path, monkeypatch):
    """SQLite answers 'database is locked' at once, without its busy timeout, where waiting
    could deadlock (two new runs switching one new file to WAL together): the store tries
    again instead of calling the file 'not a tronlab results database'."""
    from tronlab.arena import store as store_module
    real, calls = store_module._open, []

    def refuse_twice(path):
        calls.append(path)
        if len(calls) <= 2:
            raise sqlite3.OperationalError("database is locked")
        return real(path)

    monkeypatch.setattr(store_module, "_open", refuse_twice)
    with Store(tmp_path / "r.sqlite") as store:
        assert store.done_keys() == set() and store.integrity_check() == "ok"
    assert len(calls) == 3


def test_a_database_locked_for_too_long_is_named_as_locked(tmp_path, monkeypatch):
    from tronlab.arena import store as store_module

    def always_locked(path):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store_module, "_open", always_locked)
    monkeypatch.setattr(store_module, "LOCK_WAIT", 0.2)
    with pytest.raises(ValueError, match="another process kept it locked") as err:
        Store(tmp_path / "l.sqlite")
    assert "not a tronlab results database" not in str(err.value)


def test_opening_waits_for_a_run_that_holds_the_write_lock(tmp_path):
    db = tmp_path / "w.sqlite"
    Store(db).close()
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")
    timer = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    timer.start()
    try:
        with Store(db) as store:           # waits for the lock instead of failing
            assert store.integrity_check() == "ok"
    finally:
        timer.join()
        other.close()


# ---- statistics ---------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(0, 60))
def test_sign_test_is_scipys_exact_binomial_test(wins, losses):
    if wins + losses == 0:
        assert sign_test(0, 0) == 1.0
        return
    want = scipy_stats.binomtest(wins, wins + losses, 0.5, alternative="two-sided").pvalue
    assert sign_test(wins, losses) == pytest.approx(want, rel=1e-9, abs=1e-15)
    assert verdict(wins, 5, losses) == ("unclear" if want >= 0.01 else
                                        "clear" if wins > losses else "lost")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40))
def test_score_interval_is_the_normal_interval_of_the_points_plus_two_wins_and_losses(w, d, l):
    if w + d + l == 0:
        assert score_interval(0, 0, 0) == (0.0, 0.0)
        return
    pts = np.array([1.0] * w + [0.5] * d + [0.0] * l)
    padded = np.concatenate([pts, [1.0, 1.0, 0.0, 0.0]])
    mean, half = score_interval(w, d, l)
    assert mean == pytest.approx(pts.mean())                     # the score itself is not padded
    assert half == pytest.approx(1.96 * padded.std() / np.sqrt(padded.size))


def _normal_half(w, d, l):
    """The plain normal interval's half-width, which a clean sweep shrinks to 0."""
    n = w + d + l
    m = (w + d / 2) / n
    return 1.96 * np.sqrt((w * (1 - m) ** 2 + d * (0.5 - m) ** 2 + l * m ** 2) / n / n)


@pytest.mark.parametrize("n", [5, 10, 20, 60])
@pytest.mark.parametrize("p_win,p_draw", [(0.5, 0.0), (0.9, 0.0), (0.98, 0.0), (0.02, 0.0),
                                          (0.7, 0.2), (0.3, 0.6)])
def test_score_interval_covers_the_true_score(n, p_win, p_draw):
    # A class contest often pits a strong bot against a weak one for a few games: the
    # interval must still hold the true expected score most of the time (the plain
    # normal interval held it in 10% of 5-game runs at p_win 0.98).
    rng = np.random.default_rng(7)
    truth = p_win + p_draw / 2
    runs = rng.multinomial(n, [p_win, p_draw, 1 - p_win - p_draw], size=4000)
    intervals = [score_interval(*r) for r in runs.tolist()]
    hits = sum(abs(score - truth) <= half + 1e-12 for score, half in intervals)
    assert hits / len(runs) >= 0.85


def test_a_sweep_is_not_plus_minus_zero():
    assert _normal_half(5, 0, 0) == 0.0                 # what the plain interval says
    for w in (1, 2, 5, 10):
        mean, half = score_interval(w, 0, 0)
        assert mean == 1.0 and half > 0.1
        mean, half = score_interval(0, 0, w)
        assert mean == 0.0 and half > 0.1


def test_pairs_in_a_four_player_game_compare_places():
    row = {"names": ["a", "b", "c", "d"], "ranks": [2, 0, 2, 1], "depths": None,
           "map_set": "s"}
    assert pair_row([row], "a", "b")[3:6] == (0, 0, 1)
    assert pair_row([row], "a", "c")[3:6] == (0, 1, 0)
    assert pair_row([row], "b", "d")[3:6] == (1, 0, 0)


def _game(names, ranks, depths=None, map_set="s"):
    return {"names": names, "ranks": ranks, "depths": depths, "map_set": map_set}


def test_a_pair_row_counts_only_the_games_of_that_pair():
    rows = [_game(["a", "b"], [0, 1], [4.0, 2.0]), _game(["b", "a"], [0, 0], [3.0, 6.0]),
            _game(["a", "c"], [1, 0], [10.0, 1.0]), _game(["a", "b", "b"], [1, 0, 2], [5, 7, 9])]
    line = pair_row(rows, "a", "b")
    assert line[3:6] == (2, 1, 1)             # 1-0, a draw, and 1-0 + 0-1 in the 3-seat game
    assert line.depth_a == pytest.approx((4 + 6 + 5) / 3)   # not the 10 of the a v c game
    assert line.depth_b == pytest.approx((2 + 3 + 7 + 9) / 4)
    from tronlab.arena.stats import points
    assert points(rows) == {"a": (2.5, 5), "b": (1.5, 4), "c": (1.0, 1)}   # b v b: no result


def test_the_pairs_table_splits_by_map_set_only_when_there_are_several():
    from tronlab.arena.stats import pair_table
    one = [_game(["a", "b"], [0, 1]), _game(["b", "a"], [0, 1])]
    assert [(x.maps, x.games) for x in pair_table(one, [("a", "b")])] == [("all", 2)]
    two = one + [_game(["a", "b"], [1, 0], map_set="t")]
    assert [(x.maps, x.games) for x in pair_table(two, [("a", "b")])] == [
        ("s", 2), ("t", 1), ("all", 3)]


def test_the_pairs_table_and_head_to_head_equal_each_pair_read_over_every_game():
    # pair_table and head_to_head read only the games a pair met in; the oracle: pair_row
    # over all rows, per map set, on seeded random 2-4 seat games (repeated names, depths,
    # three map sets)
    import random

    from tronlab.arena.stats import pair_table
    rng = random.Random(7)
    names = ["a", "b", "c", "d", "e"]
    rows = []
    for _ in range(300):
        seats = rng.choice([2, 2, 3, 4])
        depths = None if rng.random() < 0.3 else [rng.choice([None, rng.random() * 9])
                                                  for _ in range(seats)]
        rows.append(_game([rng.choice(names) for _ in range(seats)],
                          [rng.randrange(seats) for _ in range(seats)], depths,
                          rng.choice(["s", "t", "u"])))
    pairs = [(x, y) for x in names for y in names if x != y] + [("a", "zed")]
    want = []
    for a, b in pairs:
        for label in ("s", "t", "u", "all"):
            subset = rows if label == "all" else [r for r in rows if r["map_set"] == label]
            line = pair_row(subset, a, b, label)
            if line is not None:
                want.append(line)
    assert len(want) == 4 * 20
    assert pair_table(rows, pairs) == want
    from tronlab.arena.stats import head_to_head
    order = names + ["zed"]
    lines = {(a, b): pair_row(rows, a, b) for a in order for b in order if a != b}
    assert head_to_head(rows, order) == [
        [None if a == b or lines[a, b] is None else lines[a, b].score for b in order]
        for a in order]


def test_the_tables_show_long_names_whole():
    # the pairs table cut names at 27 characters: three pairs of a cmd: program (named by
    # its whole line) showed as the same "cmd:/usr/bin/python3 -m te"
    from tronlab.arena.report import pairs_text, ratings_text
    prog = "cmd:/usr/bin/python3 -m tronlab bot filler --protocol google2010"
    rows = [_game([prog, b], [0, 1]) for b in ("ann", "bea", "cy")] * 2
    pairs = pairs_text(rows).splitlines()[1:4]
    assert [x.split(" v ")[1].split()[0] for x in pairs] == ["ann", "bea", "cy"]
    assert all(x.startswith(prog + " v ") for x in pairs)
    ranking = ratings_text(rows + [_game(["ann_the_first_version", "ann_the_first_version2"],
                                         [0, 1])])
    assert prog in ranking and " ann_the_first_version2 " in ranking
    assert len({len(x) for x in pairs}) == 1           # the columns still line up

def test_the_report_puts_the_better_rated_bot_of_a_pair_first():
    from tronlab.arena.report import default_pairs, pairs_text
    rows = [_game(["abe", "zed"], [1, 0])] * 5 + [_game(["zed", "abe"], [0, 1])] * 5
    assert default_pairs(rows) == [("zed", "abe")]
    rows += [_game(["abe", "kim"], [0, 1], map_set="t")] * 3
    # a line per map set and one for all; a pair's name only on its first line
    assert [x.split()[0] for x in pairs_text(rows).splitlines()[1:5]] == ["zed", "all", "abe",
                                                                          "all"]


# ---- ratings against a brute-force fit ------------------------------------------------------

def _random_rows(rng, names, games):
    strength = rng.normal(0, 1, len(names))
    rows = []
    for _ in range(games):
        i, j = rng.choice(len(names), 2, replace=False)
        p = 1 / (1 + np.exp(strength[j] - strength[i]))
        u = rng.random()
        ranks = [0, 0] if abs(u - p) < 0.1 else [0, 1] if u < p else [1, 0]
        rows.append({"names": [names[i], names[j]], "ranks": ranks})
    return rows


@pytest.mark.parametrize("seed", range(4))
def test_ratings_are_the_maximum_likelihood_found_by_scipy(seed):
    rng = np.random.default_rng(seed)
    names = [f"bot{k}" for k in range(5)]
    rows = _random_rows(rng, names, 120)
    S, N = tallies(rows, names)
    theta, cov = fit(S, N)
    res = scipy_optimize.minimize(lambda t: -log_likelihood(t, S, N), np.zeros(5), method="BFGS",
                                  options={"gtol": 1e-9})
    assert theta == pytest.approx(res.x, abs=1e-4)
    # the covariance is the inverse of the numerical Hessian of the objective
    h, n = 1e-4, len(names)
    hess = np.zeros((n, n))
    for a in range(n):
        for b in range(n):
            e_a, e_b = np.eye(n)[a] * h, np.eye(n)[b] * h
            hess[a, b] = -(log_likelihood(theta + e_a + e_b, S, N)
                           - log_likelihood(theta + e_a - e_b, S, N)
                           - log_likelihood(theta - e_a + e_b, S, N)
                           + log_likelihood(theta - e_a - e_b, S, N)) / (4 * h * h)
    assert cov == pytest.approx(np.linalg.inv(hess), rel=1e-3, abs=1e-6)
    table = {r.name: r for r in ratings(rows, names)}
    P = np.eye(n) - 1 / n
    se = np.sqrt(np.diag(P @ np.linalg.inv(hess) @ P))
    for k, name in enumerate(names):
        assert table[name].elo == pytest.approx(ELO * (theta - theta.mean())[k], abs=1e-6)
        assert table[name].half == pytest.approx(1.96 * ELO * se[k], rel=1e-3)


def test_ratings_count_results_and_points_between_different_bots_only():
    # gauntlet-style 3 and 4 player games hold copies of a bot: a copy against itself is
    # no result; brute force: every pair of seats held by different bots
    rng = np.random.default_rng(11)
    rows = []
    for _ in range(40):
        seats = list(rng.choice(["a", "b", "c"], size=int(rng.integers(2, 5))))
        if len(set(seats)) == 1:
            seats[0] = "c" if seats[1] != "c" else "a"
        rows.append({"names": seats, "ranks": rng.integers(0, 3, len(seats)).tolist()})
    games, points = {n: 0 for n in "abc"}, {n: 0.0 for n in "abc"}
    for row in rows:
        for i, x in enumerate(row["names"]):
            for j, y in enumerate(row["names"]):
                if x != y:
                    games[x] += 1
                    ri, rj = row["ranks"][i], row["ranks"][j]
                    points[x] += 1.0 if ri < rj else 0.5 if ri == rj else 0.0
    for r in ratings(rows):
        assert (r.games, r.points) == (games[r.name], pytest.approx(points[r.name]))


def test_a_split_exactly_at_the_threshold_is_unclear():
    # "clear" needs p < alpha: 2-0 has p = 0.5 exactly, 3-0 has p = 0.25
    assert sign_test(2, 0) == 0.5 and sign_test(3, 0) == 0.25
    assert verdict(2, 0, 0, alpha=0.5) == "unclear" and verdict(0, 4, 2, alpha=0.5) == "unclear"
    assert verdict(3, 0, 0, alpha=0.5) == "clear" and verdict(0, 1, 3, alpha=0.5) == "lost"


def test_bots_with_the_same_results_share_their_place_in_the_tables():
    from tronlab.arena.html import _rating_rows
    from tronlab.arena.report import ratings_text
    rows = ([{"names": ["a", "b"], "ranks": [0, 1]}, {"names": ["c", "a"], "ranks": [1, 0]},
             {"names": ["b", "c"], "ranks": [0, 0]}] * 2)
    text = ratings_text(rows).splitlines()
    lines = text[1:4]
    assert [(line.split()[0], line.split()[1]) for line in lines] == [
        ("1", "a"), ("2", "b"), ("2", "c")]          # b and c tie: one place, names in order
    assert text[4].startswith("(0 is the mean of b, c; a won every game against "
                              "them, so its rating and interval rest on the prior")
    assert [line.split()[2:] for line in lines[1:]] == [lines[1].split()[2:]] * 2
    cells = [row[:2] for row in _rating_rows(ratings(rows))]            # the page's table
    assert cells == [["1", "a"], ["2", "b"], ["2", "c"]]


def test_a_rating_near_zero_is_never_printed_as_minus_zero():
    # a's rating is -0.04 here, which printed as '-0' in the text table and on the page
    from tronlab.arena.html import _rating_rows
    from tronlab.arena.report import ratings_text
    rows = [{"names": ["b", "a"], "ranks": [1, 0]}, {"names": ["b", "a"], "ranks": [0, 1]},
            {"names": ["a", "d"], "ranks": [0, 0]}, {"names": ["b", "c"], "ranks": [0, 1]}]
    table = ratings(rows)
    assert [r.name for r in table][1] == "a" and -0.5 < table[1].elo < 0
    assert ratings_text(rows).splitlines()[2].split()[1:3] == ["a", "0"]
    assert _rating_rows(table)[1][1:3] == ["a", "0"]


def test_two_bots_rating_gap_is_the_log_odds_of_the_score():
    rows = ([{"names": ["a", "b"], "ranks": [0, 1]}] * 30 + [{"names": ["b", "a"], "ranks": [0, 1]}]
            * 10 + [{"names": ["a", "b"], "ranks": [0, 0]}] * 20)
    a, b = ratings(rows, prior_sd=1e6)
    score = (30 + 10) / 60
    assert a.elo - b.elo == pytest.approx(ELO * np.log(score / (1 - score)), abs=1e-6)



def _class_rows(seed=1):
    """Four working bots (a beats b beats c beats d, 10 games a pair, with upsets) and two
    broken ones, x and y, that lose every game to them and draw each other."""
    rng = np.random.default_rng(seed)
    good, bad, rows = ["a", "b", "c", "d"], ["x", "y"], []
    names = good + bad
    for i, p in enumerate(names):
        for q in names[i + 1:]:
            for _ in range(10):
                if p in bad and q in bad:
                    ranks = [0, 0]
                elif p in bad or q in bad:
                    ranks = [1, 0] if p in bad else [0, 1]
                else:
                    win = 0.5 + 0.1 * (good.index(q) - good.index(p))
                    ranks = [0, 1] if rng.random() < win else [1, 0]
                rows.append({"names": [p, q], "ranks": ranks})
    return rows


def test_broken_entries_do_not_widen_everyone_elses_intervals():
    # a class contest with two broken files: their ratings rest on the prior only, and
    # with them in the mean every working bot's interval was some +-330 instead of +-100
    from tronlab.arena.report import ratings_text
    rows = _class_rows()
    alone = {r.name: r for r in ratings([r for r in rows if not {"x", "y"} & set(r["names"])])}
    table = {r.name: r for r in ratings(rows)}
    for name, r in alone.items():
        assert table[name].elo == pytest.approx(r.elo, abs=3), name
        assert table[name].half == pytest.approx(r.half, abs=5), name
        assert r.half < 120
    assert [r.name for r in table.values() if not r.in_reference] == ["x", "y"]
    assert all(r.in_reference for r in alone.values())
    # before: "x, y won every game against them or lost every one, so their ratings ..."
    # and "0 is the mean of the other bots: x, y lost..." read as if x and y made the mean
    assert ("(0 is the mean of a, b, c, d; x, y lost every game against them, so their "
            "ratings and intervals rest on the prior" in ratings_text(rows))
    from tronlab.arena.html import _reference_note
    assert _reference_note(ratings(rows)).startswith("<p>0 is the mean of a, b, c, d; x, y")
    seven = [{"names": [p, q], "ranks": [k % 2, 1 - k % 2]} for k in range(2)
             for i, p in enumerate("abcdefg") for q in "abcdefg"[i + 1:]]
    seven += [{"names": [p, "x"], "ranks": [0, 1]} for p in "abcdefg"]
    assert "(0 is the mean of the 7 bots not named here; x lost every" in ratings_text(seven)
    assert _reference_note(ratings(rows[:10])) == ""     # a and b only: nothing left out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2), min_size=6, max_size=6), min_size=6, max_size=6))
def test_the_reference_is_the_largest_group_linked_both_ways(points):
    # oracle: networkx's strongly connected components of "i scored against j"
    nx = pytest.importorskip("networkx")
    from tronlab.arena.ratings import reference
    S = np.array(points, float)
    np.fill_diagonal(S, 0)
    g = nx.DiGraph()
    g.add_nodes_from(range(6))
    g.add_edges_from((i, j) for i in range(6) for j in range(6) if S[i, j] > 0)
    groups = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) >= 2]
    got = reference(S)
    if not groups:
        assert got.all()
        return
    size = max(len(c) for c in groups)
    biggest = [c for c in groups if len(c) == size]
    traded = [S[np.ix_(c, c)].sum() for c in biggest]
    assert sorted(np.flatnonzero(got).tolist()) in [c for c, t in zip(biggest, traded)
                                                   if t == max(traded)]


# ---- the command ---------------------------------------------------------------------------

def test_arena_command_run_table_replay(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    code = tronlab_main(["arena", "run", "--bots", "random", "hugger", "--maps", "arena,random:2",
                         "--db", db, "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert "6 games planned, 0 already in" in out
    assert "hugger v random" in out or "random v hugger" in out
    assert tronlab_main(["arena", "table", db]) == 0
    assert "rating" in capsys.readouterr().out
    assert tronlab_main(["arena", "replay", db, "1"]) == 0
    assert "after" in capsys.readouterr().out
    assert tronlab_main(["arena", "replay", db, "1", "--json"]) == 0
    GameRecord.from_json(capsys.readouterr().out).verify()
    again = tronlab_main(["arena", "run", "--bots", "random", "hugger", "--maps", "arena,random:2",
                          "--db", db, "--no-progress"])
    assert again == 0 and "6 already in" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["run", "--bots", "random"], "at least two bots"),
    (["run", "--bots", "random", "zorro"], "unknown bot 'zorro'"),
    (["run", "--bots", "random", "hugger", "--maps", "atlantis"], "unknown map 'atlantis'"),
    (["run", "--bots", "random", "hugger", "--time", "inf"], "positive number of seconds"),
    (["table", "/no/such.sqlite"], "no results database"),
    (["replay", "DB", "99"], "no game 99"),
    # before: the Python API's words ("seeds is ...", "depth is ..."), not the options
    (["run", "--bots", "random", "hugger", "--seeds", "0"], "--seeds is the number of games"),
    (["run", "--bots", "random", "hugger", "--depth", "99"], "--depth is a whole number"),
    (["run", "--schedule", "gauntlet", "--bots", "random", "hugger", "--depth", "0"],
     "--depth is a whole number"),
])
def test_arena_errors_are_one_line(tmp_path, capsys, args, message):
    db = tmp_path / "e.sqlite"
    Store(db).close()
    args = [str(db) if a == "DB" else a for a in args]
    assert tronlab_main(["arena", *args, "--db", str(db)] if args[0] == "run"
                        else ["arena", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_a_file_that_is_not_a_database_is_refused(tmp_path, capsys):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("hello " * 1000)
    assert tronlab_main(["arena", "table", str(bad)]) == 2
    assert "not a tronlab results database" in capsys.readouterr().err


def test_strength_benchmark_is_the_arena(tmp_path):
    script = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "strength.py")
    out = subprocess.run([sys.executable, script, "--bots", "filler,random", "--maps", "arena",
                          "--random", "2", "--results", str(tmp_path / "s.sqlite"), "--tag", "t"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "0 games already played, 6 to play" in out.stdout
    assert "filler v random" in out.stdout
    with Store(tmp_path / "s.sqlite") as store:
        assert len(store.rows(tag="t|t=0.1|d=None")) == 6
    json.dumps(out.stdout)


def test_back_to_the_code_programs_play_in_the_arena(tmp_path):
    import shlex
    program = "cmd:" + shlex.join([sys.executable, "-m", "tronlab.capture.program", "nearest",
                                   "--width", "12", "--height", "8"])
    plan = round_robin(["random", program], "random:1:12x8", game="backtothecode", time=0.1)
    with Store(tmp_path / "c.sqlite") as store:
        assert run(plan, store, progress=False).played == 2
        rows = store.rows()
    for row in rows:
        assert row["faults"] == [None, None]
        seat = row["names"].index(program)
        assert row["ranks"][seat] == 0           # nearest beats random on a small grid


def test_the_first_move_floor_of_programs_can_be_set(monkeypatch):
    from tronlab.arena.play import PROGRAM_START, _limits
    spec = types.SimpleNamespace(bots=("py:me.py", "hugger"), time=0.05, depth=None)
    monkeypatch.delenv("TRONLAB_PROGRAM_START", raising=False)
    assert _limits(spec) == (0.1, PROGRAM_START)
    monkeypatch.setenv("TRONLAB_PROGRAM_START", "2")
    assert _limits(spec) == (0.1, 2.0)
    assert _limits(types.SimpleNamespace(bots=("hugger", "random"), time=0.05,
                                         depth=None)) == (0.1, pytest.approx(0.3))
    for bad in ("soon", "0", "-1"):
        monkeypatch.setenv("TRONLAB_PROGRAM_START", bad)
        with pytest.raises(ValueError, match="TRONLAB_PROGRAM_START"):
            _limits(spec)


def test_dask_giving_up_on_a_game_stops_the_run_naming_the_game(tmp_path):
    import concurrent.futures as cf

    from tronlab.arena import tournament

    class KilledWorker(Exception):      # distributed's name for it
        pass

    class GivesUp(cf.Executor):
        def submit(self, fn, *args):
            future = cf.Future()
            future.set_exception(KilledWorker("gave up"))
            return future

    plan = round_robin(["random", "hugger"], "arena")
    with Store(tmp_path / "r.sqlite") as store:
        result = tournament.run(plan, store, executor=GivesUp(), progress=False)
        assert result.played == 0 and store.rows() == []
    assert result.failed.startswith("Dask gave up on the game ")
    assert "on arena (key " in result.failed and not result.interrupted



def test_a_dask_scheduler_that_went_away_stops_the_run_with_a_sentence(tmp_path):
    # a lost scheduler cancels every game in progress: the cancelled future's bare
    # CancelledError used to escape run() as a traceback
    import concurrent.futures as cf

    from tronlab.arena import tournament

    class SchedulerGone(cf.Executor):
        def submit(self, fn, *args):
            future = cf.Future()
            future.cancel()
            future.set_running_or_notify_cancel()   # what distributed's executor does
            return future

    plan = round_robin(["random", "hugger"], "arena")
    with Store(tmp_path / "r.sqlite") as store:
        result = tournament.run(plan, store, executor=SchedulerGone(), progress=False)
        assert result.played == 0 and store.rows() == []
    assert result.failed.startswith("the executor cancelled the game ")
    assert "the scheduler went away" in result.failed and not result.interrupted

# ---- one game's row ----------------------------------------------------------------------

def test_a_capture_game_ending_level_has_no_winner(monkeypatch):
    # both bots stand still: 25 idle rounds end the game at one square each, a tie
    from tronlab.arena import play as arena_play
    from tronlab.arena.schedule import GameSpec

    def still(view, player):
        return view.positions[player]
    monkeypatch.setattr(arena_play, "make_bot", lambda *args, **kwargs: still)
    spec = GameSpec("backtothecode", ("nearest", "random"), "capture:8x5:1", "8x5", "s", 1,
                    time=None)
    row = arena_play.play_spec(spec)
    assert row["ranks"] == [0, 0] and row["winner"] is None and row["faults"] == [None, None]


def test_a_tron_row_names_each_bots_first_fault():
    from tronlab.arena.play import tron_faults
    events = [{"turn": 2, "player": 0, "kind": "timeout"}, {"turn": 3, "player": 0,
                                                          "kind": "illegal"},
              {"turn": 3, "player": 1, "kind": "reverse"}]
    assert tron_faults(["wall", "trail"], events) == ["timeout", "trail"]
    assert tron_faults(["error", None], events[1:]) == ["error", None]


def test_the_report_explains_a_lost_verdict_where_the_better_rated_bot_lost_clearly():
    from tronlab.arena.report import pairs_text
    from tronlab.arena.stats import verdict
    # zed wins 20 games on map set s and loses all 8 on set t: rated first, 'lost' on t
    rows = [_game(["zed", "abe"], [0, 1])] * 20 + [_game(["zed", "abe"], [1, 0], map_set="t")] * 8
    assert verdict(0, 0, 8) == "lost"
    text = pairs_text(rows)
    assert any(line.split()[:2] == ["t", "0"] and "lost" in line for line in text.splitlines())
    note = " ".join(text[text.index("(W-D-L"):].split())
    assert "'lost' when p < 0.01 and it lost more" in note


def test_the_report_says_what_its_mean_depth_column_holds():
    # before: the pairs table had a 'mean depth' column ('- / 2.0') its note never explained
    from tronlab.arena.report import pairs_text
    text = pairs_text([_game(["zed", "abe"], [0, 1], [None, 2.0])] * 3)
    assert text.splitlines()[0].endswith("mean depth")
    assert text.splitlines()[1].endswith(" - / 2.0")
    note = " ".join(text[text.index("(W-D-L"):].split())
    assert "mean depth: how deep each bot's search went on average, '-' for a bot that" in note


def test_the_report_has_no_mean_depth_column_when_no_bot_searched():
    # before: a class of py: bots read '- / -' on every line, under a note on search depths
    from tronlab.arena.report import pairs_text
    for depths in (None, [None, None]):
        text = pairs_text([_game(["zed", "abe"], [0, 1], depths)] * 3
                          + [_game(["abe", "zed"], [0, 0], depths)])
        head, line = text.splitlines()[:2]
        assert head.endswith("  verdict") and line.endswith("  unclear"), text
        assert "depth" not in text and "- / -" not in text, text
        assert text.endswith("and it lost more)")


def test_the_report_says_what_a_result_is_when_games_had_more_players(tmp_path):
    # before: a 3-player game gave each bot 2 "results" with no word why, and "1 maps"
    from tronlab.arena.html import leaderboard_html
    from tronlab.arena.report import RESULTS_NOTE, table_text
    with Store(tmp_path / "g.sqlite") as store:
        run(round_robin(["random", "hugger", "filler"], "random:1", game="codingame",
                        players=3), store, progress=False)
        rows = store.rows()
        text, page = table_text(rows), leaderboard_html(store, rows)
    assert len(rows) == 6 and "6 games (codingame), 1 map\n" in text
    results = {line.split()[1]: int(line.split()[-1]) for line in text.splitlines()
               if line[:1].isdigit() and len(line.split()) == 6}
    assert results == {"random": 12, "hugger": 12, "filler": 12}, text
    assert RESULTS_NOTE in text and "n - 1 results" in page and "on 1 map," in page
    with Store(tmp_path / "two.sqlite") as store:
        run(round_robin(["random", "hugger"], "random:2:9x9"), store, progress=False)
        text = table_text(store.rows())
    assert "2 maps" in text and RESULTS_NOTE not in text


class _FakeDaskClient:
    """What check_dask_workers asks of a distributed.Client: each worker imports
    ``tronlab`` as ``module`` (None: the import fails), or as its entry of a list of
    modules, one a worker; the worker at address ``w`` does not see the files
    ``hidden[w]``.  ``retired`` lists the workers retired."""

    def __init__(self, module, workers=1, hidden=None):
        import types
        self.modules = module if isinstance(module, list) else [module] * workers
        self.hidden, self.retired = hidden or {}, []
        self.scheduler = types.SimpleNamespace(address="tcp://10.0.0.1:8786")

    def wait_for_workers(self, n, timeout):
        if len(self.modules) < n:
            raise TimeoutError("no workers")

    def run(self, fn, *args, workers=None):
        import sys
        from unittest import mock
        saved, out = sys.modules["tronlab"], {}
        for k, module in enumerate(self.modules):
            address = f"tcp://10.0.0.{k + 2}:4000"
            if workers is not None and address not in workers:
                continue
            hidden = self.hidden.get(address, ())
            isfile = os.path.isfile
            sys.modules["tronlab"] = module
            try:
                with mock.patch("os.path.isfile", lambda p: p not in hidden and isfile(p)):
                    out[address] = fn(*args)
            finally:
                sys.modules["tronlab"] = saved
        return out

    def retire_workers(self, workers):
        self.retired += workers


def test_dask_workers_without_this_tronlab_are_refused_in_a_sentence(tmp_path,
                                                                     monkeypatch):
    # a worker without tronlab used to stop the run with a Dask traceback, and one of
    # another version or commit, or one still running the code it loaded before its files
    # changed, played its own games silently (or failed with a TypeError)
    import types

    import tronlab
    from tronlab.arena.cluster import check_dask_workers

    check_dask_workers(_FakeDaskClient(tronlab, workers=2))
    with pytest.raises(ValueError, match=r"^every Dask worker needs this tronlab \(\S+, in "
                                         r".*\), but tcp://10.0.0.2:4000 cannot import "
                                         r"tronlab \("):
        check_dask_workers(_FakeDaskClient(None))
    old = types.SimpleNamespace(__version__="0.0.1", __file__=tronlab.__file__)
    with pytest.raises(ValueError, match="tcp://10.0.0.2:4000 has tronlab 0.0.1; tcp://10.0.0.3"):
        check_dask_workers(_FakeDaskClient(old, workers=2))
    (tmp_path / "tronlab").mkdir()
    (tmp_path / "tronlab" / "__init__.py").write_text("__version__ = 'same'\n")
    other = types.SimpleNamespace(__version__=tronlab.__version__,
                                  __file__=str(tmp_path / "tronlab" / "__init__.py"))
    with pytest.raises(ValueError, match=r"tcp://10.0.0.2:4000 has other code of tronlab \S+ "
                                         r"\(in .*tronlab\)$"):
        check_dask_workers(_FakeDaskClient(other))
    with monkeypatch.context() as m:     # the worker started before its files changed
        m.setattr(os.path, "getmtime", lambda path: 4e9)
        m.delattr(tronlab, "_loaded_files", raising=False)   # and before a run noted them
        with pytest.raises(ValueError, match=r"but tcp://10.0.0.2:4000 loaded tronlab before "
                                             r"its files changed \(restart it; it imported "
                                             r"tronlab before a run noted their content, so "
                                             r"files a checkout only touched count too\)$"):
            check_dask_workers(_FakeDaskClient(tronlab))
    with monkeypatch.context() as m:     # changed just before the worker imported tronlab:
        # fine (psutil's process start time, used before, is good to a second only)
        m.setattr(os.path, "getmtime", lambda path: tronlab._IMPORTED_AT - 0.001)
        check_dask_workers(_FakeDaskClient(tronlab))
    with pytest.raises(ValueError, match="no Dask worker joined the scheduler at "
                                         "tcp://10.0.0.1:8786 within 5 s: start some with "
                                         "'dask worker tcp://10.0.0.1:8786'"):
        check_dask_workers(_FakeDaskClient(tronlab, workers=0), wait=5)


def test_relative_bot_paths_are_read_from_the_runs_folder_where_the_game_is_played(
        tmp_path, monkeypatch):
    # a Dask worker plays in a folder of its own: py:alice.py and cmd:python prog.py used
    # to be looked for there, and both bots lost every game as 'exited'
    import concurrent.futures as cf

    class Elsewhere(cf.Executor):             # plays each game in another folder
        def submit(self, fn, *args):
            future, here = cf.Future(), os.getcwd()
            os.chdir(tmp_path / "worker")
            try:
                future.set_result(fn(*args))
            finally:
                os.chdir(here)
            return future

    (tmp_path / "worker").mkdir()
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text(
        "def move(board, player):\n    return (board.legal_moves(player) or [0])[0]\n")
    (tmp_path / "class" / "prog.py").write_text(textwrap.dedent("""\
        import sys
        for line in sys.stdin:
            for _ in range(int(line.split()[1])):
                sys.stdin.readline()
            print(1, flush=True)
        """))
    monkeypatch.chdir(tmp_path / "class")
    plan = round_robin(["py:alice.py", f"cmd:{sys.executable} prog.py"], "arena", time=0.5)
    with Store(tmp_path / "r.sqlite") as store:
        result = run(plan, store, executor=Elsewhere(), progress=False)
        faults = [f for row in store.rows() for f in row["faults"]]
    assert result.played == 2 and "exited" not in faults and "crash" not in faults, faults


def test_a_ctrl_c_after_a_games_commit_still_counts_that_game(tmp_path):
    # the run said "5 games finished in this run are stored" with 6 in the database
    class LateCtrlC(Store):
        def add(self, row):
            super().add(row)
            raise KeyboardInterrupt

    plan = round_robin(["random", "hugger"], "arena")
    with LateCtrlC(tmp_path / "r.sqlite") as store:
        result = run(plan, store, progress=False)
        assert result.interrupted and len(store.rows()) == 1
    assert result.played == 1 and [r["key"] for r in result.rows] == [plan[0].key]


def test_dask_workers_that_cannot_see_the_plans_files_are_refused(tmp_path, monkeypatch):
    # a worker elsewhere that lacked a py: file lost every game of that bot as 'exited'
    import tronlab
    from tronlab.arena.cluster import check_dask_workers, plan_files

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ann.py").write_text("def move(board, player):\n    return 0\n")
    (tmp_path / "prog.py").write_text("print(1)\n")
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "box.txt").write_text("5 3\n#####\n#1 2#\n#####\n")
    plan = round_robin(["py:ann.py", f"cmd:{sys.executable} prog.py", "hugger"],
                       "arena,maps/box.txt")
    files = [str(tmp_path / f) for f in ("ann.py", "maps/box.txt", "prog.py")]
    assert plan_files(plan) == files
    check_dask_workers(_FakeDaskClient(tronlab, workers=2), files=files)
    gone = [str(tmp_path / f"gone{k}.py") for k in range(5)]
    with pytest.raises(ValueError, match=r"^every Dask worker must see the files of the bots and "
                                         r"maps at the same paths as here \(a shared folder\), "
                                         r"but tcp://10.0.0.2:4000 lacks .*gone0.py, .*gone1.py, "
                                         r".*gone2.py and 2 more$"):
        check_dask_workers(_FakeDaskClient(tronlab), files=files + gone)


def test_dask_workers_that_fail_the_first_check_are_left_out_when_one_passes(
        tmp_path, monkeypatch, capsys):
    # before: one bad worker among the ones connected at the start refused the whole run,
    # while one that joined a minute later was only left out; now both are left out the
    # same way, and the run is refused only when no worker passes (naming each one)
    import tronlab
    from tronlab.arena.cluster import check_dask_workers
    from tronlab.arena.daskgames import LEFT_OUT

    (tmp_path / "ann.py").write_text("def move(board, player):\n    return 0\n")
    files = [str(tmp_path / "ann.py")]
    old = types.SimpleNamespace(__version__="0.0.1", __file__=tronlab.__file__)
    root = os.path.dirname(os.path.abspath(tronlab.__file__))
    client = _FakeDaskClient([tronlab, old, tronlab],
                             hidden={"tcp://10.0.0.4:4000": set(files)})
    expected, good = check_dask_workers(client, files=files)
    assert expected[0] == tronlab.__version__ and expected[2] == root
    assert good == ["tcp://10.0.0.2:4000"]
    assert client.retired == ["tcp://10.0.0.3:4000", "tcp://10.0.0.4:4000"]
    said = [LEFT_OUT.format(address="tcp://10.0.0.3:4000", why="has tronlab 0.0.1",
                            version=tronlab.__version__, root=root),
            LEFT_OUT.format(address="tcp://10.0.0.4:4000", why=f"lacks {files[0]}",
                            version=tronlab.__version__, root=root)]
    assert capsys.readouterr().err.splitlines() == said
    # no worker passes: refused, each one named with its reason, and none retired
    client = _FakeDaskClient([old, tronlab], hidden={"tcp://10.0.0.3:4000": set(files)})
    with pytest.raises(ValueError) as refused:
        check_dask_workers(client, files=files)
    assert str(refused.value) == (
        f"every Dask worker needs this tronlab ({tronlab.__version__}, in {root}) and must "
        f"see the files of the bots and maps at the same paths as here (a shared folder), "
        f"but tcp://10.0.0.2:4000 has tronlab 0.0.1; tcp://10.0.0.3:4000 lacks {files[0]}")
    assert client.retired == [] and capsys.readouterr().err == ""


def test_a_game_played_elsewhere_keeps_the_runs_program_start(tmp_path, monkeypatch):
    # TRONLAB_PROGRAM_START was read where the game was played: a Dask worker started
    # without it gave programs the 5 s default that the teacher had shortened
    import concurrent.futures as cf

    class WithoutTheVariable(cf.Executor):      # a worker's environment lacks it
        def submit(self, fn, *args):
            future = cf.Future()
            with monkeypatch.context() as m:
                m.delenv("TRONLAB_PROGRAM_START")
                future.set_result(fn(*args))
            return future

    (tmp_path / "ann.py").write_text("def move(board, player):\n    return 0\n")
    monkeypatch.setenv("TRONLAB_PROGRAM_START", "2")
    plan = round_robin([f"py:{tmp_path / 'ann.py'}", "hugger"], "arena", time=0.05)
    with Store(tmp_path / "r.sqlite") as store:
        run(plan, store, executor=WithoutTheVariable(), progress=False)
        limits = {record_of(store.record_json(r["id"])).metadata["first_time_limit"]
                  for r in store.rows()}
    assert limits == {2.0}


def test_of_two_groups_of_the_same_size_the_reference_is_the_one_that_traded_more():
    # a-b played once (a draw), c-d four games; c beat a once: two groups of two linked
    # one way only, so only one of them can be the reference; by hand: c and d's
    from tronlab.arena.ratings import reference
    rows = ([_game(["a", "b"], [0, 0]), _game(["c", "a"], [0, 1])]
            + [_game(["c", "d"], [0, 1]), _game(["d", "c"], [0, 1])] * 2)
    assert [r.in_reference for r in sorted(ratings(rows))] == [False, False, True, True]
    S, _ = tallies(rows, ["c", "d", "a", "b"])                  # the same, in another order
    assert reference(S).tolist() == [True, True, False, False]


def test_places_skip_the_places_a_tie_took_and_need_the_same_points_too():
    from tronlab.arena.ratings import Rating, places
    table = [Rating("a", 50.2, 9, 4, 3.0), Rating("b", 0.4, 9, 4, 2.0),
             Rating("c", -0.3, 9, 4, 2.0), Rating("d", -0.4, 9, 6, 2.5),
             Rating("e", -70, 9, 4, 1.0)]
    # b and c: 0 to the point, 2 points each; d: 0 too, but 2.5 points
    assert places(table) == [1, 2, 2, 4, 5]


def test_ratings_break_a_tie_by_name_whatever_order_the_names_come_in():
    rows = [_game(["a", "b"], [0, 0])] * 2
    assert [r.name for r in ratings(rows, names=["b", "a"])] == ["a", "b"]


def test_the_fit_backs_off_a_newton_step_that_would_overshoot():
    # a tally (quarter points keep it small) on which plain Newton steps from 0 run away
    # to thetas in the hundreds; the backtracking fit still finds scipy's maximum
    S = np.zeros((6, 6))
    S[0, 2], S[2, 3], S[3, 5], S[4, 0], S[4, 1], S[5, 1] = 16, 10, 3, 34.25, 52, 0.75
    N = S + S.T
    theta, _ = fit(S, N)
    res = scipy_optimize.minimize(lambda t: -log_likelihood(t, S, N), np.zeros(6), method="BFGS",
                                  options={"gtol": 1e-9})
    assert theta == pytest.approx(res.x, abs=1e-3)
    assert np.abs(theta).max() < 20


def test_a_py_bots_program_loads_none_of_the_arenas_own_modules():
    """Each py: bot of a tournament is ``python -m tronlab.arena.pyprogram FILE``, two
    processes a game, 800 games for a class of 29: importing the package
    ``tronlab.arena`` must not load the tournament, its Dask cluster and the capture
    game with it (a quarter of a second a process on a 2-core machine)."""
    code = ("import sys, tronlab.arena.pyprogram\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('tronlab.'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "tronlab.arena.pyprogram" in loaded
    heavy = [m for m in loaded if m.startswith(("tronlab.arena.", "tronlab.capture"))
             and m != "tronlab.arena.pyprogram"]
    assert heavy == []
    from tronlab import arena                      # the package's names still load on use
    assert arena.Store is Store and arena.run.__module__ == "tronlab.arena.tournament"
    assert {"GameSpec", "dask_executor", "gauntlet", "process_pool", "record_of",
            "round_robin"} <= set(dir(arena))


def test_a_whole_number_of_seconds_is_the_same_clock_as_its_float():
    # round_robin(time=1) hashed the int 1 into the keys, 'arena run --time 1' the float
    # 1.0: the same clock made other keys, and a plan made in a notebook was played again
    # from the command line; a numpy integer could not be hashed at all
    def keys(**clock):
        return [g.key for g in round_robin(["random", "hugger"], "arena", **clock)]

    assert keys(time=1) == keys(time=1.0) == keys(time=np.int64(1))
    assert [g.key for g in gauntlet("random", ["hugger"], "arena", time=2)] == \
        [g.key for g in gauntlet("random", ["hugger"], "arena", time=2.0)]
    assert keys(time=0.5) != keys(time=1.0)
    with pytest.raises((TypeError, ValueError), match="time is a positive number of seconds"):
        keys(time="1")
