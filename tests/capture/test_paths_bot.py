"""The paths bot (tronlab.capture.paths_bot) on hand-worked grids and whole games."""

import numpy as np

from tronlab.capture import parse_grid, play_capture, state_from_ascii, step
from tronlab.capture.memory import Memory
from tronlab.capture.opponent import NEVER
from tronlab.capture.paths_bot import (PathBot, first_stretch, future_arrival, opponents_of,
                                       stay_closes)
from tronlab.runner.registry import bot_names, get_bot


def test_first_stretch_is_the_straight_start():
    assert first_stretch((0, 0), [(1, 0), (2, 0), (2, 1)]) == (2, 0)
    assert first_stretch((0, 0), [(0, 1)]) == (0, 1)


def test_standing_still_closes_when_next_to_an_old_square():
    g = parse_grid("""
        .....
        .000.
        .0.0.
        .000.
        .....
    """)
    # on (3, 3) having come from (3, 2): staying, (3, 2) is two rounds before the coming
    # round, next to (3, 3): the rule fires and (2, 2) is closed
    assert stay_closes(g.owner, 0, (3, 3), [(3, 1), (3, 2)])
    assert stay_closes(g.owner, 0, (3, 3), [(3, 2)])
    assert not stay_closes(g.owner, 0, (3, 3), [])
    assert not stay_closes(g.owner, 0, (3, 3), [(1, 1), (2, 1)])     # not next to (3, 3)
    open_ = g.owner.copy()
    open_[1, 1] = -1                                                 # a diagonal gap leaks
    assert not stay_closes(open_, 0, (3, 3), [(3, 2)])


def test_opponents_and_their_future_arrivals():
    state = state_from_ascii("""
        a.....
        ......
        .....b
    """)
    mem = Memory()
    states = [state]
    for _ in range(3):
        mem.update(states[-1].view())
        states.append(step(states[-1], [(5, 0), (0, 2)]).state)
    mem.update(states[-1].view())
    back = step(states[-1], [("BACK", 2), (0, 2)]).state        # to round 2
    mem.update(back.view())
    ids, opps = opponents_of(mem, back.view(), 0)
    assert ids == [1] and opps[0][0] == (4, 2) and opps[0][1] == (-1, 0)
    arr = future_arrival(mem, back.view(), ids)
    assert arr[2, 3] == 1 and arr[2, 2] == 2 and (arr == NEVER).sum() == 18 - 2


def test_the_bot_reports_nodes_and_beats_nearest():
    bot = PathBot(max_nodes=5000)
    rec = play_capture([bot, "nearest"], rng=2, width=20, height=12)
    assert not rec.notes and rec.outcome["ranks"][0] == 1
    assert bot.stats and max(n for n, _ in bot.stats) <= 5000


def test_registered_paths_bots():
    assert {"paths", "paths-same", "paths-back", "paths-block"} <= set(bot_names("capture"))
    assert get_bot("paths-same", game="capture").order == "same"


def test_protocol_mode_warms_up_in_the_background_and_sizes_the_search():
    from tronlab.capture.bots import nearest_target
    bot = PathBot()
    bot.prepare_for_protocol(budget=0.02)
    view = state_from_ascii("""
        A.....
        ......
        .....b
    """).view()
    first = bot(view, 0)
    assert bot.warmup.ready.wait(120) and bot.warmup.error is None
    assert first == nearest_target(view, 0) or bot.stats     # B2 until the kernels are in
    assert bot.nodes_now() == 5000                            # no speed seen yet
    bot.rate = 1e6
    assert bot.nodes_now() == 20000                           # 0.02 s at 1e6 nodes a second
    bot.rate = 10
    assert bot.nodes_now() == 1000
