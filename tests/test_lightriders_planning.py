"""Planning under the Light Riders time bank (games.md section 3: the bank in
``action move`` is the answer's deadline): move_time never overdraws it, the search
bots plan from it, important moves get more, and the bank is shared over the rounds
the game can still last (settings max_rounds included)."""

import io
import subprocess
import sys
import types

import pytest
from hypothesis import given, settings, strategies as st

from tronlab.runner.engine import play
from tronlab.tron.board import Board
from tronlab.runner.registry import get_bot
from tronlab.runner.stdio import run_stdio
from tronlab.tron.lightriders import lightriders_state, move_time, rounds_left
from tronlab.tron.mapgen import lightriders_board

from test_lightriders_protocol import GAMES_MD_SETTINGS

PY = sys.executable


@settings(max_examples=200)
@given(st.integers(0, 10000), st.integers(20, 500), st.integers(1, 200),
       st.lists(st.floats(0, 3), max_size=300), st.lists(st.booleans(), max_size=300))
def test_move_time_never_overdraws_the_bank(bank_ms, per_ms, rounds, overruns, urgent):
    """Spending move_time plus up to 3 ms a move over it never empties the bank within
    ``rounds`` rounds (the time is within the bank at every move), whenever at least
    20 ms come a move, also when any moves are important (twice the time, L6)."""
    cap, per = 10.0, per_ms / 1000
    bank = bank_ms / 1000 + per
    for r in range(rounds):
        factor = 2.0 if r < len(urgent) and urgent[r] else 1.0
        think = move_time(bank, per, rounds - r, urgent=factor)
        assert think >= move_time(bank, per, rounds - r)
        used = think + (overruns[r] if r < len(overruns) else 0.0) / 1000
        assert used < bank
        bank = min(max(bank - used, 0.0) + per, cap)


@settings(max_examples=200)
@given(st.integers(1, 10000), st.integers(20, 500), st.integers(1, 200), st.floats(1, 8))
def test_an_urgent_move_takes_at_most_a_third_of_the_bank(bank_ms, per_ms, rounds, urgent):
    """move_time's promise, from its docstring: an important move gets more than the usual
    time, but never more than a third of the bank, unless the usual time is already more."""
    bank, per, margin = bank_ms / 1000, per_ms / 1000, 0.02
    usual = move_time(bank, per, rounds, margin=margin)
    think = move_time(bank, per, rounds, margin=margin, urgent=urgent)
    assert usual <= think <= max(usual, bank / 3 - margin) + 1e-12


def test_an_urgent_move_stops_at_a_third_of_the_bank():
    # 1 s in the bank, 0.2 s a move, 10 rounds: usually 0.2 + 0.8 / 10 - 0.02 = 0.26 s;
    # four times 0.28 s would be 1.12 s, so the third of the bank caps it
    assert move_time(1.0, 0.2, 10) == pytest.approx(0.26)
    assert move_time(1.0, 0.2, 10, urgent=4) == pytest.approx(1 / 3 - 0.02)


@pytest.mark.parametrize("bank_ms", [1.0, 1.8, 5.0, 30.0, 100.0, 180.0])
@pytest.mark.parametrize("urgent", [1.0, 3.0])
def test_a_bank_that_cannot_grow_plans_within_it_however_small(bank_ms, urgent):
    """A bank no bigger than the time added a move (the arena tells a program its limit
    a move so) is spent afresh every move: 80% of it less the 20 ms margin, and a bank
    too small for the margin (--time 0.001 gives 1.8 ms) still plans a small part of it,
    not a whole millisecond of 1 ms; rounds left and urgency change nothing."""
    bank = bank_ms / 1000
    think = move_time(bank, bank, 50, full=bank, urgent=urgent)
    assert think == move_time(bank, bank, 3, full=bank)
    if 0.8 * bank > 0.02:
        assert think == pytest.approx(0.8 * bank - 0.02)
    else:
        assert 0 < think <= bank / 2


def test_nash_plans_from_the_bank():
    nash = get_bot("nash", time=0.2)
    board = lightriders_board(x=3, y=7)
    nash.start_game(board, 0, rules="lightriders", time_limit=0.2)
    nash.set_clock(10.0, 0.2)
    nash(board, 0)
    rounds = (16 * 16 - 2) // 2 + 1
    planned = 0.95 * move_time(10.0, 0.2, rounds)
    assert nash.last_stats["time"] < planned + 0.1
    nash.set_clock(0.06, 0.2)          # nearly empty bank: half of it less the margin
    nash(board, 0)
    assert nash.last_stats["time"] < 0.06


@pytest.mark.parametrize("name", ["chamber", "minimax"])
def test_every_search_bot_plans_from_the_bank(name):
    """A bank is not wasted: a search bot plans 80% of move_time (the time added a
    move plus the surplus shared over the rounds left), a quarter of its per-move
    rule on the first move; the clock is heard for one move only."""
    board = lightriders_board(x=3, y=7)
    bot = get_bot(name, time=0.2)
    bot.start_game(board, 0, rules="lightriders", time_limit=0.2)
    bot.set_clock(10.0, 0.2)
    assert bot.budget() == pytest.approx((0.8 * 0.2 - 0.005) / 4)
    bot(board, 0)
    rounds = (16 * 16 - 2) // 2 + 1
    bot.set_clock(10.0, 0.2)
    bot._rounds_left = rounds
    assert bot.budget() == pytest.approx(0.8 * move_time(10.0, 0.2, rounds))
    assert bot.budget() > 0.8 * 0.2                 # more than the time a move alone
    bot(board, 0)
    assert 0.8 * 0.2 < bot.last_stats["time"] < 0.8 * move_time(10.0, 0.2, rounds) + 0.1
    assert bot.budget() == pytest.approx(0.8 * 0.2 - 0.005)    # heard once: back to time
    bot.set_clock(0.06, 0.2)          # nearly empty bank: half of it less the margin
    bot(board, 0)
    assert bot.last_stats["time"] < 0.06


def test_important_decisions_get_more_of_the_bank():
    """L6: heads within six squares of each other double the plan (a third of the
    bank at most); far heads, a fixed time a move, or urgent=1 leave it alone."""
    near = Board.from_ascii("""
        ........
        .1...2..
        ........
    """)
    far = Board.from_ascii("""
        1.......
        ........
        .......2
    """)
    nash = get_bot("nash", time=0.2)
    assert nash.important(near) and not nash.important(far)
    rounds = (16 * 16 - 2) // 2 + 1
    plans = {}
    for name, bot in (("rule", nash), ("off", get_bot("nash", time=0.2, urgent=1))):
        for board in (near, far):
            bot.set_clock(10.0, 0.2)
            bot._rounds_left, bot._important = rounds, bot.urgent > 1 and bot.important(board)
            plans[name, board is near] = bot.budget()
    base = 0.95 * move_time(10.0, 0.2, rounds)
    assert plans["rule", False] == plans["off", False] == plans["off", True] == base
    assert plans["rule", True] == pytest.approx(0.95 * (2 * (base / 0.95 + 0.02) - 0.02))
    assert get_bot("nash", time=0.2).budget() == pytest.approx(0.95 * 0.2 - 0.002)
    with pytest.raises(ValueError, match="urgent"):
        get_bot("nash", urgent=0.5)


def test_focus_spends_the_bank_on_important_moves_only():
    """L6 with ``focus=K`` (a trial rule): an important move plans the time a move plus
    the bank's surplus over K moves (a third of the bank at most); any other move the
    time a move alone, so a full bank is not drawn on far from the other head."""
    near = Board.from_ascii("""
        ........
        .1...2..
        ........
    """)
    far = Board.from_ascii("""
        1.......
        ........
        .......2
    """)
    bot = get_bot("nash", time=0.2, focus=8)
    plans = {}
    for bank in (10.0, 0.6):
        for board in (near, far):
            bot.set_clock(bank, 0.2)
            bot._important = bot.important(board)
            plans[bank, board is near] = bot.budget()
    assert plans[10.0, True] == pytest.approx(0.95 * (0.2 + 9.8 / 8 - 0.02))
    assert plans[0.6, True] == pytest.approx(0.95 * (0.6 / 3 - 0.02))     # capped by the bank
    for bank in (10.0, 0.6):
        assert plans[bank, False] == pytest.approx(0.95 * (0.2 - 0.02))
    bot._first = True                    # the first move: still a quarter of the per-move rule
    bot.set_clock(10.0, 0.2)
    bot._important = True
    assert bot.budget() == pytest.approx((0.95 * 0.2 - 0.002) / 4)
    bot._first = False
    assert bot.budget() == pytest.approx(plans[10.0, True])
    bot(near, 0)                         # heard once, and never a plan beyond the bank
    assert bot.last_stats["time"] < 10.0 / 3
    assert bot.budget() == pytest.approx(0.95 * 0.2 - 0.002)
    for wrong, error in ((-1, ValueError), (1.5, TypeError), (True, TypeError), ("8", TypeError)):
        with pytest.raises(error, match="focus"):
            get_bot("nash", focus=wrong)


def test_a_starting_program_passes_the_bank_to_its_worker(monkeypatch):
    """Without the ahead-of-time module ``tronlab bot nash`` plays through a
    StartingBot: the bank must reach the worker's bot, and bound the wait."""
    from tronlab.runner import starting

    sent = []
    monkeypatch.setattr(starting, "send", lambda stream, message: sent.append(message))
    bot = starting.StartingBot("nash", time=0.2)
    bot.ready, bot.worker, bot.switched_after = True, types.SimpleNamespace(stdin=None), 0
    board = lightriders_board(x=3, y=7)
    for clock in ((5.0, 0.2), None):
        if clock:
            bot.set_clock(*clock)
        bot._replies.put(("move", 1, {}))
        assert bot(board, 0) == 1
        assert sent[-1][:3] == ("move", board, 0) and sent[-1][3] == clock


def test_the_worker_plans_from_the_bank():
    from tronlab.runner import starting

    proc = subprocess.Popen([PY, "-m", "tronlab.runner.starting", "nash", "--time", "0.2"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    try:
        assert starting.receive(proc.stdout) == ("ready", "nash", 0.2)   # its bot's time
        board = lightriders_board(x=3, y=7)
        starting.send(proc.stdin, ("start_game", board, 0, {"rules": "lightriders",
                                                            "time_limit": 0.2}))
        for _ in range(2):          # the first move takes a quarter; then 0.2 s a move
            starting.send(proc.stdin, ("move", board, 0))
            _, _, stats = starting.receive(proc.stdout)
        assert stats["time"] > 0.1
        starting.send(proc.stdin, ("move", board, 0, (0.06, 0.2)))    # a nearly empty bank
        _, move, stats = starting.receive(proc.stdout)
        assert move in board.legal_moves(0) and stats["time"] < 0.06
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def test_the_first_move_under_a_bank_thinks_a_quarter_of_the_move_time():
    """The first answer's clock may hold the start-up: a quarter of the per-move rule,
    however full the bank; later moves plan from the bank."""
    board = lightriders_board(x=3, y=7)
    for name in ("nash", "hybrid"):
        bot = get_bot(name, time=0.2)
        bot.start_game(board, 0, rules="lightriders")
        bot.set_clock(10.0, 0.2)
        assert bot.budget() == pytest.approx((0.95 * 0.2 - 0.002) / 4), name
        bot._first = False
        assert bot.budget() > 0.2, name          # the bank's surplus is shared out


# ---- the turn limit (settings max_rounds) bounds the rounds a bank is shared over -----

def _planning(name="chamber"):
    """A search bot whose choice is instant: ``plans`` collects, for each move it is
    asked under a bank, (the bank told, the rounds it shares it over, its budget)."""
    bot, plans = get_bot(name, time=0.2), []
    told = bot.set_clock
    bot.set_clock = lambda left, per=None: (plans.append([left]), told(left, per))[1]
    budget = bot.budget
    bot.budget = lambda: plans[-1].extend((bot._rounds_left, budget())) or plans[-1][-1]
    bot.choose = lambda board, player, deadline: board.legal_moves(player)[0]
    return bot, plans


def test_rounds_left_is_half_the_free_squares_or_the_rounds_to_the_limit():
    for free, played, limit, left in [(254, 0, None, 128), (254, 0, 300, 128),
                                      (254, 0, 100, 100), (200, 27, 30, 3), (200, 29, 30, 1),
                                      (200, 30, 30, 1), (3, 0, 100, 2), (0, 5, None, 1)]:
        assert rounds_left(free, played, limit) == left, (free, played, limit)


def test_an_in_process_bot_spends_its_bank_before_the_turn_limit():
    """Before: start_game took no max_turns, so the bot shared its 10 s bank over the
    128 rounds the free squares allow (0.28 s a move) in a game of 4 turns."""
    bot, plans = _planning()
    play(lightriders_board(x=3, y=3), [bot, get_bot("hugger")], rules="lightriders",
         time_bank=(10.0, 0.2), max_turns=4, rng=1)
    assert [p[1] for p in plans] == [4, 3, 2, 1]
    for bank, rounds, planned in plans[1:]:        # the first move: a quarter of the rule
        assert planned == pytest.approx(0.8 * move_time(bank, 0.2, rounds))
    assert plans[-1][2] > 0.8 * (10 / 2 - 0.02) - 0.01   # the last: half the bank


def test_a_contest_program_counts_the_rounds_to_max_rounds_off_the_field():
    """Before: 'settings max_rounds 3' was read but never reached the bot.  The rounds
    played are read off the field, so a broken round (answered 'pass' without the bot)
    does not make the bot think the game is younger than it is."""
    from tronlab.tron.match import Match

    match, texts = Match(lightriders_board(x=3, y=3), "lightriders"), []
    for r in range(3):
        texts.append(lightriders_state(match.board, 0, round=r, time_ms=10000))
        match.step({0: 2, 1: 2})            # both go down
    texts[1] = texts[1].replace("update game field ", "update game field x,")   # 257 tokens
    bot, plans = _planning("nash")
    run_stdio(bot, "lightriders", stdin=io.StringIO(GAMES_MD_SETTINGS + "settings max_rounds 3\n"
                                                     + "".join(texts)),
              stdout=io.StringIO(), stderr=io.StringIO())
    assert [p[1] for p in plans] == [3, 1]   # rounds 0 and 2 (round 1 was broken)


def test_focus_shares_an_important_moves_surplus_over_no_more_rounds_than_are_left():
    """Before: with focus=8 and two rounds to the limit an important move planned the
    surplus shared over 8 moves (1.4 s of the 10 s bank), not a third of the bank (3.3 s)."""
    bot = get_bot("nash", time=0.2, focus=8)
    board = lightriders_board(x=3, y=3)
    for limit, left, moves in ((3, 2, 2), (300, 100, 8), (None, 2, 8)):
        bot.start_game(board, 0, rules="lightriders", time_bank=(10.0, 0.2), max_turns=limit)
        bot._first, bot._important, bot._rounds_left = False, True, left
        bot.set_clock(10.0, 0.2)
        planned = 0.95 * min(move_time(10.0, 0.2, moves), 10.0 / 3 - 0.02)
        assert bot.budget() == pytest.approx(planned), limit
