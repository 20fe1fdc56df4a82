"""A fixed search depth (``depth=D``, the arena's ``--depth``) searches exactly D turns
when no engine limit can time the bot out, and keeps to the engine's limit or the
contest's clock when one can (tronlab.tron.bots.base._Bot.depth_deadline)."""

import time

import pytest

from tronlab.jit.clock import now_ns
from tronlab.runner.engine import play
from tronlab.runner.registry import get_bot
from tronlab.tron.board import Board
from tronlab.tron.mapgen import random_map

import tronlab.tron.bots.nash  # noqa: F401  (registers "nash")
import tronlab.tron.bots.search  # noqa: F401  (registers the bots)


def _board():
    return random_map(20, 20, density=0.1, rng=3)


@pytest.mark.parametrize("name, depth", [("chamber", 4), ("minimax", 5), ("nash", 3)])
def test_no_engine_limit_searches_exactly_the_fixed_depth_even_on_the_first_move(name, depth):
    # 1 ms a move plans the 5 ms floor: far too little for these depths on an open
    # 20x20 board, so before the fix the search stopped a turn or more short
    bot = get_bot(name, time=0.001, depth=depth)
    board = _board()
    bot.start_game(board, 0, rules="google2010", time_limit=None)
    for _ in range(2):
        bot(board, 0)
        assert bot.last_stats["mode"] in ("search", "nash")
        assert bot.last_stats["depth"] == depth


def test_an_engine_limit_still_caps_a_fixed_depth_search():
    limit = 0.05
    bot = get_bot("chamber", time=0.01, depth=30)
    board = _board()
    bot.start_game(board, 0, rules="google2010", time_limit=limit, first_time_limit=limit)
    t0 = time.perf_counter()
    bot(board, 0)
    took = time.perf_counter() - t0
    assert bot.last_stats["depth"] < 30
    # it stops at half the limit (FIXED_DEPTH_SHARE), well inside it: an answer past the
    # limit is a timeout (the old bound, limit + 30 ms, let a share above 1 pass)
    assert took < limit


def test_a_contest_program_keeps_its_clock_at_a_fixed_depth():
    bot = get_bot("chamber", time=0.05, depth=30)
    board = _board()
    bot.start_game(board, 0, rules="google2010", time_limit=None)
    bot.set_turn_start(now_ns())
    t0 = time.perf_counter()
    bot(board, 0)
    assert bot.last_stats["depth"] < 30
    assert time.perf_counter() - t0 < 0.05 + 0.03


def test_a_fixed_depth_game_under_an_engine_limit_has_no_timeouts():
    board = random_map(12, 12, density=0.1, rng=5)
    bots = [get_bot("chamber", time=0.02, depth=30), get_bot("minimax", time=0.02, depth=30)]
    # the searches stop at half the 0.3 s limit: room for a busy machine's pauses
    rec = play(board, bots, rules="google2010", rng=1, time_limit=0.3, first_time_limit=0.9)
    assert not [e for e in rec.events if e["kind"] == "timeout"], rec.events


def test_fixed_depth_games_replay_move_for_move():
    def game():
        bots = [get_bot("chamber", time=0.001, depth=3, endgame_depth=2),
                get_bot("minimax", time=0.001, depth=3, endgame_depth=2)]
        rec = play(random_map(14, 14, density=0.1, rng=8), bots, rules="google2010", rng=4)
        return rec.moves

    assert game() == game()


def test_a_bot_never_told_of_its_game_keeps_its_clock_at_a_fixed_depth():
    # a bot called without start_game (inside a student's py: file, say) cannot know
    # whether a clock runs: it stops at its budget, as before the fixed depth was exact
    bot = get_bot("chamber", time=0.001, depth=8)     # depth 8 here takes 0.1 s or more
    t0 = time.perf_counter()
    bot(_board(), 0)
    assert bot.last_stats["depth"] < 8
    assert time.perf_counter() - t0 < 0.05


def test_a_time_taken_from_one_games_limit_is_not_kept_for_the_next_game():
    bot = get_bot("chamber")                       # no time of its own
    board = _board()
    bot.start_game(board, 0, rules="google2010", time_limit=0.05)
    assert bot.time == 0.05
    bot.start_game(board, 0, rules="google2010", time_limit=None)
    assert bot.time is None                        # the rules' usual time again
    bot.start_game(board, 0, rules="google2010", time_limit=0.2)
    assert bot.time == 0.2
    own = get_bot("chamber", time=0.3)
    own.start_game(board, 0, rules="google2010", time_limit=0.05)
    assert own.time == 0.3                         # a bot's own time is never replaced


def _deadline_told(bot, board, **limits):
    """``(before, told, asked)``: now_ns() before the move, the contested search's deadline
    (depth_deadline's answer) and now_ns() when the search asked for it.  The search is
    then stopped at once, so a wrong answer (no deadline at all) fails the test quickly."""
    seen = []
    own = bot.depth_deadline

    def spy(deadline):
        seen.append((own(deadline), now_ns()))
        return seen[-1][1]

    bot.depth_deadline = spy
    bot.start_game(board, 0, rules="google2010", **limits)
    before = now_ns()
    bot(board, 0)
    return before, *seen[0]


@pytest.mark.parametrize("limits", [{"time_limit": 0.4, "first_time_limit": 0.4},
                                    {"time_limit": 0.4}])     # the first move's limit: 0.4 too
def test_an_engine_limit_stops_a_fixed_depth_search_at_half_of_it(limits):
    """Half the engine's 0.4 s from the move's start (the arena's limit is twice --time),
    not the 5 ms the bot's own 1 ms a move plans, nor the whole limit; a first move whose
    own limit is not given is held to the limit a move, not searched without a deadline."""
    bot = get_bot("chamber", time=0.001, depth=30)
    before, told, asked = _deadline_told(bot, _board(), **limits)
    assert before + 0.2e9 <= told <= asked + 0.2e9


def test_a_fixed_depth_bot_under_a_time_bank_keeps_its_deadline():
    """A bank (set_clock) is the contest's clock: depth=D does not search past it."""
    bot = get_bot("chamber", time=0.05, depth=30)
    board = _board()
    bot.start_game(board, 0, rules="lightriders", time_limit=None)
    bot.set_clock(1.0, 0.2)
    assert bot.depth_deadline(12345) == 12345


def test_a_fixed_depth_contest_program_keeps_its_deadline_under_an_engine_limit():
    """A contest program's clock is the contest's, whatever limit the engine holds it to
    (checked without searching: a search with no deadline at depth 30 runs for minutes)."""
    bot = get_bot("chamber", time=0.05, depth=30)
    bot.start_game(_board(), 0, rules="google2010", time_limit=None)
    bot.set_turn_start(now_ns())
    assert bot.depth_deadline(12345) == 12345


def test_a_new_game_empties_the_search_table():
    bot = get_bot("chamber", time=0.001, depth=4)
    board = _board()
    bot.start_game(board, 0, rules="google2010")
    bot(board, 0)
    assert bot.searcher.table.key.any()
    bot.start_game(board, 0, rules="google2010")
    assert not bot.searcher.table.key.any()


def _apart_board():
    # a random 20x20 map cut in two by a wall down column 10: the players are apart, so the
    # endgame solver moves; seed 1's left region takes about 90 ms to search 7 moves deep
    rows = random_map(20, 20, density=0.2, rng=1).to_ascii().splitlines()
    return Board.from_ascii("\n".join(r[:10] + "#" + r[11:] for r in rows))


def test_a_capped_endgame_at_a_fixed_depth_searches_its_whole_cap():
    # endgame_depth caps the solver, so at a fixed depth it is as exact as the search
    # before it: the same move on any machine, not what 1 ms of a slow one allows
    bot = get_bot("chamber", time=0.001, depth=3, endgame_depth=7)
    board = _apart_board()
    bot.start_game(board, 0, rules="google2010", time_limit=None)
    bot(board, 0)
    assert bot.last_stats["mode"] == "endgame"
    assert bot.last_stats["depth"] == 7


def test_an_uncapped_endgame_keeps_the_clock_at_a_fixed_depth():
    # without a cap the solver could search for minutes: the move's time still stops it
    bot = get_bot("chamber", time=0.001, depth=3)
    board = _apart_board()
    bot.start_game(board, 0, rules="google2010", time_limit=None)
    bot(board, 0)
    assert bot.last_stats["mode"] == "endgame"
    assert bot.last_stats["depth"] < 7 and not bot.last_stats["exact"]


def test_a_bot_that_was_a_contest_program_searches_its_fixed_depth_in_a_later_game():
    bot = get_bot("chamber", time=0.001, depth=4)
    board = _board()
    bot.set_turn_start(now_ns())      # as run_stdio does: the turn's start, then start_game
    bot.start_game(board, 0, rules="google2010", time_limit=None)
    bot(board, 0)
    assert bot.last_stats["depth"] < 4                   # the contest's clock: 1 ms
    bot.start_game(board, 0, rules="google2010", time_limit=None)   # now in process
    bot(board, 0)
    assert bot.last_stats["depth"] == 4
