"""A fixed search depth (``depth=D``, the arena's ``--depth``) searches exactly D turns
when no engine limit can time the bot out, and keeps to the engine's limit or the
contest's clock when one can (tronlab.tron.bots.base._Bot.depth_deadline)."""

import time

import pytest

from tronlab.jit.clock import now_ns
from tronlab.runner.engine import play
from tronlab.runner.registry import get_bot
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
    rec = play(board, bots, rules="google2010", rng=1, time_limit=0.1, first_time_limit=0.3)
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
