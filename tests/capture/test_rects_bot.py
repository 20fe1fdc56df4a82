"""The rectangles bot (tronlab.capture.rects_bot), its BACK rules and its memory, on hand-worked
grids."""

import numpy as np
import pytest

from tronlab.capture import parse_grid, play_capture, state_from_ascii, step
from tronlab.capture.back import BlockBack, WinnerBack, spoil_target
from tronlab.capture.memory import Memory
from tronlab.capture.rects import Rectangle, border_cycle, scan_rectangles
from tronlab.capture.rects_terms import RectTerms
from tronlab.capture.rects_bot import (RectangleBot, approach_target, border_target,
                                       interference, safe_nearest, straight_projection)
from tronlab.runner.registry import bot_names, get_bot


def test_approach_goes_the_way_with_more_neutral_squares():
    g = parse_grid("""
        a000.
        .....
        .....
    """)
    # x first crosses three own squares; y first crosses only neutral ones
    assert approach_target(g.owner, (0, 0), (4, 2)) == (0, 2)
    assert approach_target(g.owner, (0, 0), (0, 2)) == (0, 2)


def test_border_target_walks_to_the_corner_then_stands_to_close():
    g = parse_grid("""
        A00.
        0..0
        0000
    """)
    rect = scan_rectangles(g.owner, 0, (0, 0), needed=99)
    assert (rect.x0, rect.y0, rect.x1, rect.y1) == (0, 0, 3, 2)
    # only (3, 0) is missing: from (0, 0) the walk goes east along the top
    assert border_target(g.owner, 0, (0, 0), rect) == (3, 0)
    closed = g.owner.copy()
    closed[0, 3] = 0
    done = rect._replace(entry=3)                    # standing on (3, 0), nothing left
    assert border_target(closed, 0, (3, 0), done) == (3, 0)


def test_safe_nearest_skips_squares_next_to_an_opponent():
    g = parse_grid("""
        A0.b.
        00...
        .....
    """)
    # (2, 0) and (0, 2) are both 2 away; (2, 0) touches b at (3, 0)
    assert safe_nearest(g.owner, 0, (0, 0), [(0, 0), (3, 0)]) == (0, 2)


def test_interference_heads_for_a_better_opponent_area():
    g = state_from_ascii("""
        ..........
        .1111111..
        .1......B.
        .1......1.
        .1111111..
        ..........
        a.........
    """)
    view = g.view()
    poor = Rectangle(0.01, 0, 6, 1, 6, 0, 1, 100, 1)     # our plan: 1 point in 100 turns
    spoil = interference(view, 0, poor)
    theirs = scan_rectangles(g.owner, 1, (8, 2), opponents=[(0, 6)])
    border = border_cycle(theirs.x0, theirs.y0, theirs.x1, theirs.y1)
    free = [sq for sq in border if g.owner[sq[1], sq[0]] == -1]
    nearest = min(abs(x) + abs(y - 6) for x, y in free)
    assert spoil in free and abs(spoil[0]) + abs(spoil[1] - 6) == nearest
    # a plan as good as theirs: leave them alone
    assert interference(view, 0, poor._replace(points=theirs.points)) is None
    # no plan at all (every rectangle of ours blocked: the scan reports score 0 and 0 turns)
    nothing = Rectangle(0.0, 0, 0, 1, 1, 0, 1, 0, 0)
    assert interference(view, 0, nothing) == spoil


def test_the_bot_plays_whole_games_and_beats_nearest():
    rec = play_capture([RectangleBot(), "nearest"], rng=3)
    assert not rec.notes
    assert rec.outcome["ranks"][0] == 1
    rec = play_capture(["nearest", RectangleBot(), "nearest", RectangleBot()], rng=4)
    assert not rec.notes and rec.outcome["reason"] in ("idle", "decided", "round-limit")


def test_memory_sees_a_rewind_and_keeps_the_future():
    state = state_from_ascii("""
        a.....
        ......
        .....b
    """)
    mem = Memory()
    states = [state]
    for _ in range(4):
        mem.update(states[-1].view())
        states.append(step(states[-1], [(5, 0), (0, 2)]).state)
    mem.update(states[-1].view())
    assert mem.heading(0) == (1, 0) and mem.heading(1) == (-1, 0)
    back = step(states[-1], [("BACK", 3), (0, 2)]).state        # round 5 -> round 2
    assert mem.update(back.view())
    assert sorted(mem.future) == [2, 3, 4]
    assert mem.future_positions(1) == {2: (3, 2), 3: (2, 2), 4: (1, 2)}
    assert mem.future_squares(0, back.owner).sum() == 3      # b's squares (3..1, 2)
    assert mem.gains(0, 1) == [1]                            # round 1: one square


class _Bot:
    def __init__(self, gains):
        self.memory = Memory()
        owner = np.full((2, 30), -1, np.int8)
        total = 0
        for k, g in enumerate(gains):
            total += g
            owner.reshape(-1)[:total] = 0
            self.memory.rounds[k] = (owner.copy(), ((0, 0), (1, 1)))
            self.memory.last_round = k


class _View:
    def __init__(self, rnd, backs=1):
        self.round, self.backs_left = rnd, (backs, backs)


def test_winner_back_every_twenty_rounds_without_a_closed_area():
    rule = WinnerBack()
    flat = _Bot([1] + [1] * 20)          # rounds 0..20, one square a round
    assert rule.decide(flat, _View(21), 0) == 0          # not a multiple of 20
    flat = _Bot([1] * 40)
    assert rule.decide(flat, _View(40), 0) == 20
    assert rule.decide(flat, _View(40, backs=0), 0) == 0
    closed = _Bot([1] * 30 + [6] + [1] * 9)
    assert rule.decide(closed, _View(40), 0) == 0
    with pytest.raises(ValueError, match="every must be an int from 1 to 25"):
        WinnerBack(30)


def test_block_back_goes_to_before_an_opponent_capture_and_spoils_it():
    start = parse_grid("""
        ........
        .111....
        .1.1....
        .1.1....
        .1.1....
        .111....
        a.......
    """)
    owner0 = start.owner
    closed = owner0.copy()
    closed[2:5, 2] = 1                   # player 1 takes the three squares inside
    pos = ((0, 6), (4, 4))
    mem = Memory()
    for k in range(12):
        mem.rounds[k] = (closed if k >= 10 else owner0, pos)
    mem.last_round = 11
    bot = type("B", (), {"memory": mem})()
    view = type("V", (), {"round": 12, "backs_left": (1, 1)})()
    assert mem.big_gains(0, 3) == [(10, 1)]
    # back to round 10 - 4 = 6: n = 11 - 10 + 1 + 4
    assert BlockBack(min_gain=3, lead=4).decide(bot, view, 0) == 6
    assert BlockBack(min_gain=4, lead=4).decide(bot, view, 0) == 0
    # after the rewind the bot knows the area and when it closes
    future = Memory()
    future.rounds = {0: (owner0, pos)}
    future.last_round = 0
    for k, when in ((5, 5), (4, 4)):
        future.future = {r: (closed if r >= when else owner0, pos) for r in range(1, when + 1)}
        now = type("V", (), {"round": 1, "positions": pos, "owner": owner0})()
        got = spoil_target(future, now, 0, min_gain=3)
        # (2, 4) is 4 steps away: there at the end of round 4, in time for a round-5 capture
        assert got == ((2, 4) if when == 5 else None)


def test_straight_projection_stops_at_other_players_squares():
    owner = np.full((3, 6), -1, np.int8)
    owner[1, 3] = 2
    out = straight_projection(owner, [None, (0, 1), None], [None, (1, 0), None], 0, turns=4)
    assert out.astype(int).tolist() == [[0] * 6, [0, 1, 1, 0, 0, 0], [0] * 6]


def test_registered_in_the_capture_family():
    names = bot_names("capture")
    assert {"rectangles", "rectangles-back", "rectangles-block"} <= set(names)
    assert isinstance(get_bot("rectangles", game="backtothecode"), RectangleBot)


def test_the_bot_falls_back_to_the_nearest_safe_square_below_one_point():
    """Every rectangle and L scores below 1 on a nearly full grid: the bot walks to the nearest
    neutral square no opponent stands next to; with the fallback off it keeps its plan."""
    g = state_from_ascii("""
        A000000.
        00000000
        00000000
        0000000.
        1111111B
    """)
    view = g.view()
    assert RectangleBot().choose(view, 0) == safe_nearest(g.owner, 0, (0, 0), view.positions)
    assert RectangleBot().choose(view, 0) == (7, 0)        # (7, 3) touches B at (7, 4)
    bot = RectangleBot(fallback_below=-1.0)
    bot.choose(view, 0)
    assert bot.plan != "nearest"


def test_the_bot_takes_an_l_shape_that_beats_every_rectangle():
    """One step west closes the whole irregular pocket (27 squares over 1 + 1 + 10 turns);
    with rectangles of sides up to 4 nothing else comes close."""
    g = state_from_ascii("""
        ..............
        .0000000......
        .0.....0......
        .0.....0000...
        .0........0...
        .0........0...
        .000000000.a..
        ..............
        .............b
    """)
    view = g.view()
    bot = RectangleBot(terms=RectTerms(max_side=4))
    assert bot.choose(view, 0) == (10, 6) and bot.plan == "l"
    plain = RectangleBot(terms=RectTerms(max_side=4), l_shapes=False)
    plain.choose(view, 0)
    assert plain.plan != "l"


INTERFERE = """
    ...........000000000
    .1111111111.00000000
    .1........1.00000000
    .1........1.00000000
    .1........1.00000000
    .1........B.00000000
    .1..........00000000
    .1111111111.00000000
    ............00000000
    0000000000000A000000
    00000000000000000000
    00000000000000000000
"""


def test_the_bot_interferes_only_in_two_player_games_by_default():
    """Player 1 closes 41 squares in 12 turns through the gap at (10, 6); our best plan is
    1 square in 14 turns, and we reach the gap in 6: we go there.  Switched off, or with a
    third player (by default), we do not."""
    g = state_from_ascii(INTERFERE)
    view = g.view()
    bot = RectangleBot()
    assert bot.choose(view, 0) == (10, 6) and bot.plan == "interfere"
    off = RectangleBot(interfere="none")
    off.choose(view, 0)
    assert off.plan != "interfere"
    three = state_from_ascii(INTERFERE, n_players=3, positions={2: (0, 0)}).view()
    many = RectangleBot()
    many.choose(three, 0)
    assert many.plan != "interfere"
    everyone = RectangleBot(interfere="all")
    assert everyone.choose(three, 0) == (10, 6) and everyone.plan == "interfere"


def test_the_bot_plays_the_write_ups_terms_but_no_2_player_size_penalty():
    from dataclasses import asdict

    from tronlab.capture.rects_bot import BOT_TERMS
    assert RectangleBot().terms == BOT_TERMS
    assert RectTerms().size_limit == (14, 13, 12)               # the write-up's numbers
    changed = {k for k, v in asdict(BOT_TERMS).items() if asdict(RectTerms())[k] != v}
    assert changed == {"size_limit"}
    assert BOT_TERMS.size_limit[0] > BOT_TERMS.max_side         # no 2-player side is halved
    assert BOT_TERMS.size_limit[1:] == RectTerms().size_limit[1:]
