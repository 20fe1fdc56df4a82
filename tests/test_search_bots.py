"""The territory and search bots (tronlab.tron.bots.search) in games, on the clock,
and as contest programs driven through stdin/stdout."""

import sys
import time
from pathlib import Path

import pytest

import tronlab.tron.bots.filler  # noqa: F401  (registers "filler")
import tronlab.tron.bots.search  # noqa: F401  (registers the bots)
from tronlab import Board
from tronlab.runner.registry import bot_names, get_bot
from tronlab.runner.engine import play
from tronlab.runner.external import ExternalBot
from tronlab.tron.endgame import Endgame
from tronlab.tron.maps import load_map
from tronlab.tron.rules import get_rules
from tronlab.tron.mapgen import codingame_board, lightriders_board

ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT.parent / "shared" / "maps" / "google2010"
SEARCH_BOTS = ["voronoi", "multivoronoi", "minimax", "chamber"]
SMALL = """
    ###########
    #1........#
    #.........#
    #...###...#
    #.........#
    #........2#
    ###########
"""


def _map(name):
    path = MAPS / f"{name}.txt"
    if not path.exists():
        pytest.skip("shared maps not available")
    return load_map(str(path))


def test_all_registered():
    assert set(SEARCH_BOTS) <= set(bot_names())


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_plays_a_whole_google2010_game_without_faults(name):
    bot = get_bot(name, time=0.02)
    rec = play(Board.from_ascii(SMALL), [bot, get_bot("random", rng=1)], rules="google2010",
               rng=3, time_limit=0.5)
    faults = {"timeout", "error", "illegal"}
    assert rec.outcome.deaths[0] not in faults
    assert rec.outcome.turns > 3
    assert {"time", "move", "mode"} <= set(bot.last_stats)


@pytest.mark.parametrize("name", ["minimax", "chamber"])
def test_search_bots_beat_random(name):
    wins = 0
    for seat in (0, 1):
        bots = [get_bot("random", rng=seat), get_bot("random", rng=seat)]
        bots[seat] = get_bot(name, time=0.02)
        rec = play(Board.from_ascii(SMALL), bots, rules="google2010", rng=seat, time_limit=0.5)
        wins += rec.outcome.winner == seat
    assert wins == 2


def test_multivoronoi_plays_four_player_codingame():
    board = codingame_board(4, rng=5)
    bots = [get_bot("multivoronoi", time=0.05)] + [get_bot("random", rng=i) for i in range(3)]
    rec = play(board, bots, rules="codingame", rng=5, time_limit=0.5)
    assert rec.outcome.deaths[0] not in {"timeout", "error", "illegal"}
    # kootenpv's bot outlives random players
    assert rec.outcome.ranking[0] == [0]


@pytest.mark.parametrize("name", ["chamber", "minimax"])
def test_two_player_search_bots_also_play_three_player_codingame(name):
    board = codingame_board(3, rng=2)
    bots = [get_bot(name, time=0.02)] + [get_bot("random", rng=i) for i in range(2)]
    rec = play(board, bots, rules="codingame", rng=2, time_limit=0.5, max_turns=60)
    assert rec.outcome.deaths[0] not in {"timeout", "error", "illegal"}


def test_lightriders_game():
    board = lightriders_board(rng=4)
    rec = play(board, [get_bot("chamber", time=0.02), get_bot("voronoi")], rules="lightriders",
               rng=4, time_limit=0.5)
    assert not any(e.get("kind") == "timeout" for e in rec.events)


@pytest.mark.parametrize("budget", [0.05, 0.2])
def test_a_move_keeps_to_the_time_budget(budget):
    board = _map("big-room")
    bot = get_bot("chamber", time=budget)
    bot(board, 0)
    t0 = time.perf_counter()
    move = bot(board, 0)
    took = time.perf_counter() - t0
    assert move in board.legal_moves(0)
    assert took < budget, f"{took:.3f} s for a {budget} s move"
    stats = bot.last_stats
    assert stats["mode"] == "search" and stats["depth"] >= 1 and stats["nodes"] > 0
    assert stats["evals_per_s"] > 0


def test_separated_chamber_bot_uses_the_endgame_solver():
    b = Board.from_ascii("""
        ...#.#2
        .1...##
        #...###
    """)
    bot = get_bot("chamber", time=0.05)
    move = bot(b, 0)
    assert bot.last_stats["mode"] == "endgame" and bot.last_stats["exact"]
    assert move in b.legal_moves(0)


def test_the_chamber_fill_evaluation_sees_a_dead_end_the_parity_bound_counts():
    # separated: the longer fill wins.  After blue's move right, the parity bound counts
    # both the top room and the bottom row, but blue can fill only one of them (3 more
    # moves); down, it goes along the bottom and up the middle column into the top
    # room (5 more).  Red has 4 moves.  chamber's one-turn search takes the draw
    board = Board.from_ascii("""
        ####...
        2..##.#
        #.#.1.#
        ...#...
    """)
    solver, rules = Endgame(), get_rules("google2010")
    red = solver.solve(board, 1, max_depth=40)[0]
    fills = {}
    for name in ("chamber", "chamber-fill"):      # chamber+evaluation=chamber-fill in the arena
        _, move = get_bot("chamber", evaluation=name).searcher.search(board, 0, max_depth=1)
        after = board.copy()
        rules.apply(after, [move, board.legal_moves(1)[0]], turn=0)
        fills[name] = 1 + solver.solve(after, 0, max_depth=40)[0]
    assert red == 4 and fills == {"chamber": 4, "chamber-fill": 6}    # a draw, and a win


def test_verbose_prints_the_stats(capsys):
    bot = get_bot("minimax", time=0.02, verbose=True)
    bot(Board.from_ascii(SMALL), 0)
    err = capsys.readouterr().err
    assert "minimax:" in err and "nodes" in err and "depth" in err


def test_bad_options():
    with pytest.raises(ValueError, match="time"):
        get_bot("chamber", time=-1)
    with pytest.raises(ValueError, match="depth"):
        get_bot("minimax", depth=0)
    with pytest.raises(ValueError, match="evaluation"):
        get_bot("chamber", evaluation="vibes")


def test_voronoi_bot_takes_the_bigger_side():
    # going up keeps the open room; going down enters a dead-end pocket
    b = Board.from_ascii("""
        .......
        ...1...
        ##.#.##
        ##.####
        #####.2
    """)
    assert get_bot("voronoi")(b, 0) != 2


# ---------------------------------------------------------------------------
# as a contest program: a real process on stdin/stdout (B's ExternalBot)
# ---------------------------------------------------------------------------
def _program(name, protocol, seconds):
    code = ("import sys, tronlab.tron.bots.search; from tronlab.cli import main; "
            f"sys.exit(main(['bot', '{name}', '--protocol', '{protocol}', '--time', '{seconds}']))")
    return [sys.executable, "-c", code]


def _external(name, seconds=1.0, first=3.0):
    return ExternalBot(_program(name, "google2010", seconds), protocol="google2010",
                       time_limit=seconds, first_time_limit=first)


def test_chamber_as_a_google2010_program_short_game():
    # a generous first move here: a busy test machine can take seconds to start Python
    # and numba; the slow test below holds the contest's 3 s
    board = _map("keyhole")
    bot = _external("chamber", 0.3, 10.0)
    rec = play(board, [bot, get_bot("minimax", time=0.1)], rules="google2010", rng=0,
               time_limit=0.3, first_time_limit=10.0, max_turns=6)
    assert rec.outcome.deaths[0] not in {"timeout", "exited", "bad-output"}, rec.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", ["apocalyptic", "joust", "big-room"])
def test_chamber_never_loses_on_time_at_one_second_on_the_largest_maps(name):
    board = _map(name)
    bot = _external("chamber", 1.0, 3.0)
    rec = play(board, [bot, get_bot("filler")], rules="google2010", rng=1,
               time_limit=1.0, first_time_limit=3.0, max_turns=8)
    assert rec.outcome.deaths[0] not in {"timeout", "exited", "bad-output"}, rec.stderr
    assert len(rec.moves) == 8 or rec.outcome.deaths[0] is None


def test_voronoi_bot_keeps_clear_of_a_head_on_crash_when_ahead():
    # right (between the heads) claims the most squares, but the opponent can
    # enter the same square this turn: a draw, bad for the side that is ahead
    b = Board.from_ascii("""
        .........
        .........
        .....1.2.
        .........
        .........
    """)
    assert get_bot("voronoi", draw=10**6)(b, 0) == 1      # the guard switched off
    move = get_bot("voronoi")(b, 0)
    assert move != 1 and move in b.legal_moves(0)


def test_voronoi_bot_fills_greedily_once_separated():
    b = Board.from_ascii("""
        ......#..
        .1....#..
        .....##..
        .....#..2
    """)
    bot = get_bot("voronoi")
    move = bot(b, 0)
    assert bot.last_stats["mode"] == "endgame"
    # the greedy line from the chosen move fills all 21 free squares of the room
    assert move in b.legal_moves(0) and bot.last_stats["moves"] == 21


def test_voronoi_bot_rejects_a_bad_draw_value():
    with pytest.raises(TypeError, match="draw must be an int"):
        get_bot("voronoi", draw=0.5)


def test_contempt_makes_a_draw_cost_the_side_ahead():
    from tronlab.tron.evaluate import evaluate
    b = Board.from_ascii("""
        .........
        .........
        .....1.2.
        .........
        .........
    """)
    ahead = evaluate(b, 0, kind="chamber")
    assert ahead > 0
    bot = get_bot("chamber", contempt=0.5, time=0.05)
    assert bot.draw_value(b, 0) == -1 - round(0.5 * ahead)     # a draw throws the lead away
    assert bot.draw_value(b, 1) == -1 + round(0.5 * ahead)     # and rescues the side behind
    assert get_bot("chamber", contempt=0.0).draw_value(b, 0) == -1
    with pytest.raises(ValueError, match="contempt"):
        get_bot("chamber", contempt=2)
