"""What a teacher does after a class contest: grade from a spreadsheet, and understand
the size of a plan before it is played.

``tronlab arena export`` writes the standings and the games of a results database
as CSV; the tests read the files back with :mod:`csv` and check them against the
tables computed from the same database, and against wins counted from the games'
rows by hand.
"""

from __future__ import annotations

from tronlab.arena import round_robin
from tronlab.arena import schedule
from tronlab.arena.schedule import gauntlet, plan_note
from tronlab.cli import main as tronlab_main

EIGHT = ["random", "hugger", "filler", "chamber", "minimax", "voronoi", "nash", "quick"]


# ---- the plan's size ------------------------------------------------------------------------

def test_a_large_plan_says_how_it_is_made_and_how_to_make_it_smaller():
    # before: 8 bots of a 4-player CodinGame run planned 280 games with no word why
    plan = round_robin(EIGHT, "random:1", game="codingame", players=4)
    note = plan_note(plan)
    assert len(plan) == 280 and note.count("\n") == 2, note
    assert "70 groups of 4 of the 8 bots x 4 seatings x 1 map x 1 seed" in note
    # the counts it offers are those of the plans the options make
    two = len(round_robin(EIGHT, "random:1", game="codingame", players=2))
    short = len(gauntlet(EIGHT[0], EIGHT[1:], "random:1", game="codingame", players=4))
    assert (two, short) == (56, 28)
    assert f"--players 2 ({two} games)" in note and f"--schedule gauntlet ({short} games" in note
    pairs = round_robin(EIGHT, "random:4", game="codingame", seeds=2)
    note = plan_note(pairs)
    assert len(pairs) == 28 * 2 * 4 * 2 and "28 pairs of the 8 bots x 2 seatings x 4 maps x 2 " \
        "seeds" in note and "fewer --maps or --seeds" in note and "--players" not in note
    assert plan_note(pairs, to_play=schedule.LARGE_PLAN) == ""       # nearly finished
    assert plan_note(round_robin(EIGHT, "arena")) == ""              # 56 games: nothing to say


def test_arena_run_prints_the_plans_making_under_its_size(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(schedule, "LARGE_PLAN", 5)
    db = str(tmp_path / "p.sqlite")
    args = ["arena", "run", "--no-progress", "--bots", "random", "hugger", "filler",
            "--maps", "arena", "--db", db]
    assert tronlab_main(args) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[:3]
    assert head[0] == f"6 games planned, 0 already in {db}, 6 to play", out
    assert head[1] == "  the plan: 3 pairs of the 3 bots x 2 seatings x 1 map x 1 seed"
    assert head[2].startswith("  smaller plans: --schedule gauntlet (4 games")
    assert tronlab_main(args) == 0                              # nothing left to play
    assert "the plan:" not in capsys.readouterr().out
