"""The ``nash`` bot (tronlab.tron.bots.nash) in whole games, on the clock."""

import pytest

from tronlab import Board
from tronlab.runner.registry import bot_names, describe, get_bot
from tronlab.runner.engine import play
from tronlab.tron.mapgen import codingame_board, lightriders_board

SMALL = """
    ###########
    #1........#
    #.........#
    #...###...#
    #.........#
    #........2#
    ###########
"""
FAULTS = {"timeout", "error", "illegal"}


def test_registered_by_name():
    assert "nash" in bot_names()
    assert "Nash" in describe("nash")


def test_never_loses_to_random_under_google2010():
    # an equilibrium player may accept a head-on crash (a draw) when the rest
    # looks worse, and a random opponent sometimes walks into it: count wins
    results = []
    for seed in (1, 2):
        for seat in (0, 1):
            bots = [get_bot("random", rng=seed), get_bot("random", rng=seed)]
            bots[seat] = nash = get_bot("nash", time=0.02)
            rec = play(Board.from_ascii(SMALL), bots, rules="google2010", rng=seed,
                       time_limit=0.5)
            results.append(rec.outcome.winner)
            assert rec.outcome.winner in (seat, None)
            assert {"time", "move", "mode"} <= set(nash.last_stats)
    assert results.count(None) <= 1


def test_plays_lightriders_on_the_clock():
    nash = get_bot("nash", time=0.05)
    times = []

    def timed(board, player):
        move = nash(board, player)
        times.append(nash.last_stats["time"])
        return move

    timed.start_game = nash.start_game
    rec = play(lightriders_board(rng=4), [timed, get_bot("minimax", time=0.05)],
               rules="lightriders", rng=4, time_limit=0.5, max_turns=60)
    assert not set(rec.outcome.deaths) & FAULTS
    # the bot plans 0.95 * 0.05 - 0.002 = 45.5 ms a move; the slowest move may meet a busy
    # machine (a bot that ignored its clock would think for seconds on this open board)
    assert rec.outcome.turns > 5 and max(times) < 0.3
    assert sorted(times)[len(times) // 2] < 0.05 * 1.3


def test_nash_mode_reports_search_stats():
    nash = get_bot("nash", time=0.05)
    board = lightriders_board(x=3, y=8)
    nash.start_game(board, 0, rules="lightriders")
    nash(board, 0)
    st = nash.last_stats
    assert st["mode"] == "nash" and st["depth"] >= 1
    assert {"saddle_share", "solve_share", "nodes", "strategy"} <= set(st)


def test_sampling_is_reproducible_with_a_seed():
    board = Board.from_ascii("""
        .......
        .1...2.
        .......
    """)
    moves = []
    for _ in range(2):
        bot = get_bot("nash", time=0.02, sample=True, depth=2, rng=11)
        bot.start_game(board, 0, rules="google2010")
        moves.append([bot(board, 0) for _ in range(6)])
    assert moves[0] == moves[1]


def test_three_player_codingame_falls_back():
    board = codingame_board(3, rng=2)
    bots = [get_bot("nash", time=0.02)] + [get_bot("random", rng=i) for i in range(2)]
    rec = play(board, bots, rules="codingame", rng=2, time_limit=0.5, max_turns=40)
    assert rec.outcome.deaths[0] not in FAULTS


def test_bad_options():
    with pytest.raises(ValueError, match="depth must be an int from 1 to 48"):
        get_bot("nash", depth=0)
    with pytest.raises(ValueError, match="unknown evaluation 'nonsense'"):
        get_bot("nash", evaluation="nonsense")


def test_the_evaluation_weights_reach_the_search():
    from tronlab.tron.evaluate import K1_DEFAULT, K2_DEFAULT
    plain, fitted = get_bot("nash"), get_bot("nash", k1=-0.0992, k2=0.2912)
    assert (plain.searcher.k1, plain.searcher.k2) == (K1_DEFAULT, K2_DEFAULT)
    assert (fitted.searcher.k1, fitted.searcher.k2) == (-0.0992, 0.2912)
    board = Board.from_ascii(SMALL)
    a, b = (bot.searcher.search_depth(board, 0, 3)[0] for bot in (plain, fitted))
    assert a != b                        # the root values differ: the weights are used
    with pytest.raises(ValueError, match="k1 must be a number from -100 to 100, got nan"):
        get_bot("nash", k1=float("nan"))


@pytest.mark.parametrize("name", ["nash", "hybrid", "chamber"])
def test_a_contest_program_plans_at_most_85_percent_less_5_ms(name):
    from tronlab.jit.clock import now_ns
    bot = get_bot(name, time=0.1)
    board = codingame_board(2, rng=1)
    in_process = bot.budget()
    bot.set_turn_start(now_ns())           # what run_stdio says before each move
    assert bot.budget() == pytest.approx(min(in_process, 0.85 * 0.1 - 0.005))
    if name != "chamber":                   # in-process play keeps the whole budget
        assert in_process == pytest.approx(0.95 * 0.1 - 0.002)
    assert bot(board, 0) in board.legal_moves(0)


def test_a_contest_programs_clock_starts_at_the_turns_first_line():
    import time

    from tronlab.jit.clock import now_ns
    bot = get_bot("nash", time=0.1)
    board = Board.from_ascii(SMALL)
    bot(board, 0)                           # the first move of a game thinks less
    bot.set_turn_start(now_ns() - 60_000_000)   # the input began 60 ms ago
    t0 = time.perf_counter()
    bot(board, 0)
    assert time.perf_counter() - t0 < 0.05  # 80 ms from the first line: about 20 ms left


def test_run_stdio_tells_the_bot_when_the_turn_began():
    import io
    import time

    from tronlab.jit.clock import now_ns
    from tronlab.runner.stdio import run_stdio
    seen = []

    class Bot:
        def set_turn_start(self, start_ns):
            seen.append(("start", start_ns))

        def __call__(self, board, player):
            seen.append(("move", now_ns()))
            return board.legal_moves(player)[0]

    def lines():
        for turn in range(2):
            yield "2 0\n"
            time.sleep(0.03)                # the rest of the turn comes later
            yield f"1 1 1 {1 + turn}\n"
            yield f"5 5 5 {5 + turn}\n"

    assert run_stdio(Bot(), "codingame", stdin=lines(), stdout=io.StringIO()) == 2
    assert [k for k, _ in seen] == ["start", "move"] * 2
    for (_, start), (_, asked) in zip(seen[::2], seen[1::2]):
        assert asked - start >= 30_000_000


@pytest.mark.parametrize("name, own", [("nash", 0.95 * 0.05 - 0.002),
                                       ("hybrid", 0.95 * 0.05 - 0.002),
                                       ("chamber", 0.8 * 0.05 - 0.005)])
def test_a_bot_plans_within_the_engines_limit_not_only_its_own_share(name, own):
    # tronlab match holds a bot to --time itself: nash's 95% of it left 2 ms for Python
    # and a loaded machine (it lost on time at 0.05 s); the arena's limit, twice the time,
    # leaves each bot its own rule
    board = codingame_board(2, rng=1)
    bot = get_bot(name, time=0.05)
    bot.start_game(board, 0, rules="codingame", time_limit=0.1, first_time_limit=0.3)
    bot._first = False
    assert bot.budget() == pytest.approx(own)
    bot.start_game(board, 0, rules="codingame", time_limit=0.05, first_time_limit=0.15)
    bot._first = False
    assert bot.budget() == pytest.approx(min(own, 0.8 * 0.05 - 0.005))
    bot.start_game(board, 0, rules="codingame", time_limit=0.05, first_time_limit=0.011)
    first = min(max(bot.floor, own / 4), max(bot.floor, 0.8 * 0.011 - 0.005))
    assert bot.budget() == pytest.approx(first)           # the first move's own limit
