"""The contests' own clocks (tronlab.runner.contestclock) and the one place they are kept."""

from __future__ import annotations

import pytest

from tronlab.runner.contestclock import clock_summary, contest_clock_text, late_answers
from tronlab.runner.games import get_game


def test_the_programs_default_clocks_are_the_registrys():
    from tronlab.capture import external as capture_external
    from tronlab.capture import protocol as capture_protocol
    from tronlab.runner.external import DEFAULT_TIMES
    from tronlab.tron import lightriders

    for name in ("google2010", "codingame", "lightriders"):
        game = get_game(name)
        assert DEFAULT_TIMES[name] == (game.first_move_time, game.move_time)
    btc = get_game("backtothecode")
    assert (capture_protocol.FIRST_TURN_SECONDS, capture_protocol.TURN_SECONDS,
            capture_external.GRACE) == (btc.first_move_time, btc.move_time, btc.grace) \
        == (1.0, 0.1, 0.05)
    riders = get_game("lightriders")
    assert (lightriders.LIGHTRIDERS_TIMEBANK_MS, lightriders.LIGHTRIDERS_TIME_PER_MOVE_MS) == (
        riders.first_move_time * 1000, riders.move_time * 1000)


@pytest.mark.parametrize("game, limit", [("google2010", 1.0), ("codingame", 0.1),
                                         ("backtothecode", 0.15)])
def test_an_answer_over_the_contests_limit_a_move_is_late(game, limit):
    seconds = [5 * limit, limit * 0.9, limit * 1.1, None, limit * 2]
    assert late_answers(game, seconds) == [(3, limit * 1.1), (5, limit * 2)]
    assert clock_summary(game, seconds) == [2, round(limit * 2, 4), 5]
    # the first answer (start-up included) is never held against the clock
    assert late_answers(game, [100.0]) == [] and clock_summary(game, [100.0]) is None
    assert clock_summary(game, [100.0, limit / 2, limit / 3]) == [0, round(limit / 2, 4), 2]


def test_light_riders_answers_are_held_against_the_contests_bank():
    # 10 s bank, 0.2 s added a move: 3 s a move drains it by 2.8 s each time
    seconds = [50.0] + [3.0] * 5
    assert late_answers("lightriders", seconds) == [(5, 3.0), (6, 3.0)]
    assert late_answers("lightriders", [0.19] * 200) == []


def test_the_clocks_in_words():
    assert contest_clock_text("codingame") == "100 ms a move"
    assert contest_clock_text("google2010") == "1000 ms a move"
    assert contest_clock_text("backtothecode") == ("150 ms a turn, 100 ms and the referee's "
                                                   "50 ms of grace")
    assert contest_clock_text("lightriders") == "its 10 s time bank, 200 ms added a move"


def test_an_answer_of_exactly_the_limit_is_in_time():
    assert late_answers("codingame", [0.5, 0.1, 0.1000001]) == [(3, 0.1000001)]


def test_light_riders_bank_by_hand():
    # the bank holds 10 s at most, refilled by 0.2 s before every move, the first one and
    # one without an answer included (neither is spent)
    assert late_answers("lightriders", [0.0, 10.0]) == []
    assert late_answers("lightriders", [0.0, 10.1]) == [(2, 10.1)]       # 10 s, not 10.2
    assert late_answers("lightriders", [0.0, 9.9, None, 0.35]) == []    # 0.1 + 0.2 + 0.2 left
    # 10 - 5 = 5; 5.2 - 4.9 = 0.3; 0.5 < 0.6: the late answer is the one shown, though
    # the 5 s one was slower
    seconds = [0.0, 5.0, 4.9, 0.6]
    assert late_answers("lightriders", seconds) == [(4, 0.6)]
    assert clock_summary("lightriders", seconds) == [1, 0.6, 4]


def test_a_late_answer_in_words():
    from tronlab.runner.contestclock import over_words
    assert over_words("backtothecode") == "slower than the contest's 150 ms"
    assert over_words("lightriders") == "over the contest's time bank"
