"""Counts of one in the arena's words: '1 game', not '1 games' (a run stopped early by
Ctrl-C, a one-game table or page, the plan of a run of two bots)."""

from __future__ import annotations

from tronlab.arena import schedule, tournament
from tronlab.arena.html import _faults, _replays_note
from tronlab.arena.report import faults_text, table_text
from tronlab.cli import main as tronlab_main


def test_a_run_stopped_after_one_game_says_1_game(tmp_path, capsys, monkeypatch):
    real = tournament.run

    def one_then_ctrl_c(plan, store, **kw):
        result = real(plan[:1], store, **kw)
        result.interrupted = True
        return result
    monkeypatch.setattr(tournament, "run", one_then_ctrl_c)
    monkeypatch.setattr(schedule, "LARGE_PLAN", 1)
    db = str(tmp_path / "one.sqlite")
    assert tronlab_main(["arena", "run", "--no-progress", "--bots", "random", "hugger",
                         "--maps", "arena", "--db", db]) == 130      # as after Ctrl-C
    out = capsys.readouterr().out
    assert "  the plan: 1 pair of the 2 bots x 2 seatings x 1 map x 1 seed" in out, out
    assert f"stopped: 1 game finished in this run is stored in {db}; " in out, out
    assert out.count("1 games") == 0 and "\n1 game (google2010), 1 map\n" in out, out


def test_a_gauntlet_of_two_bots_has_1_opponent():
    plan = schedule.gauntlet("random", ["hugger"], "random:60", game="codingame")
    assert "the plan: 1 opponent of the first bot x 2 seatings" in schedule.plan_note(
        plan, "gauntlet")


def test_one_games_table_and_page_say_1_game():
    row = {"id": 1, "game": "google2010", "names": ["a", "b"], "ranks": [0, 1], "map": "m",
           "map_set": "m", "faults": [None, None], "time": 0.1, "bank": None, "depth": None}
    assert faults_text([row]) == "faults (timeouts, crashes, bad output): none in 1 game"
    assert table_text([row]).startswith("1 game (google2010), 1 map\n")
    assert "broke a rule in this game.</p>" in _faults(None, [row], {})
    assert "the first 0 of the 1 game carry" in _replays_note(1, 0, "x.sqlite")


def test_a_single_group_of_three_bots_is_1_group():
    plan = schedule.round_robin(["random", "hugger", "filler"], "random:40", game="codingame",
                                players=3)
    assert "the plan: 1 group of 3 of the 3 bots x 6 seatings x 40 maps" in schedule.plan_note(
        plan), schedule.plan_note(plan)
    assert len(plan) == 6 * 40                   # the rotations of the seats and of their reverse
    four = schedule.round_robin(["random", "hugger", "filler", "chamber"], "random:40",
                                game="codingame", players=3)
    assert "the plan: 4 groups of 3 of the 4 bots x 6 seatings" in schedule.plan_note(four)
