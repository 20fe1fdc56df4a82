"""The paths bot (tronlab.capture.paths_bot) on hand-worked grids and whole games."""

import numpy as np

from tronlab.capture import parse_grid, play_capture, state_from_ascii, step
from tronlab.capture.memory import Memory
from tronlab.capture.opponent import NEVER
from tronlab.capture.paths_bot import (PathBot, first_stretch, future_arrival, opponents_of,
                                       plan_left, reach_arrival, stay_closes)
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
    bot.warmup.begin()                  # as run_program does once the answer is written
    assert bot.warmup.ready.wait(120) and bot.warmup.error is None
    if not bot.stats:                   # the kernels were still loading: B2 answered
        assert first == nearest_target(view, 0)
    else:                               # the AOT twins: loaded before the first turn
        assert len(bot.stats) == 1
    assert bot.nodes_now() == 5000                            # no speed seen yet
    bot.rate = 1e6
    assert bot.nodes_now() == 20000                           # 0.02 s at 1e6 nodes a second
    bot.rate = 10
    assert bot.nodes_now() == 1000


def test_while_the_kernels_load_the_bot_answers_with_the_nearest_neutral_rule():
    """The test above sees the B2 answer only when the kernels are not built ahead of
    time (with the twins the warm-up is done before the first turn, and its check
    was 'B2's answer or bot.stats', true whatever was answered): here a warm-up
    that is not done, whatever the machine has built."""
    import types

    from tronlab.capture.bots import nearest_target
    bot = PathBot()
    view = state_from_ascii("""
        A.....
        ......
        .....b
    """).view()
    bot.warmup = types.SimpleNamespace(done=False)
    assert bot(view, 0) == nearest_target(view, 0) and bot.stats == []


def test_reach_arrival_is_the_slowed_manhattan_distance_to_the_nearest_opponent():
    opps = [((0, 0), (1, 0), 0), ((4, 2), None, 0), (None, None, 0)]
    got = reach_arrival((3, 5), opps, 2.0)
    for y in range(3):
        for x in range(5):
            d = min(x + y, abs(x - 4) + abs(y - 2))
            assert got[y, x] == 2 * d
    assert (reach_arrival((2, 2), [(None, None, 0)], 1.0) == NEVER).all()


LOOP = """
    .......
    .0000..
    .0..0..
    .0000..
    .......
"""


def test_plan_left_scores_the_rest_of_a_plan_like_the_search():
    g = parse_grid(LOOP)
    never = np.full(g.owner.shape, NEVER, np.int64)
    # a plan round the east side; standing on its second square, 6 squares are left:
    # 6 new ones, and the last, (4, 0), closes (5, 1)-(5, 3)
    plan = [(5, 4), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0), (5, 0), (4, 0)]
    owner = g.owner.copy()
    for x, y in [(4, 4), (5, 4), (6, 4)]:
        owner[y, x] = 0
    score, rest = plan_left(owner, 0, (6, 4), plan, never)
    assert rest == plan[2:] and score == (6 + 3 + 20) / (6 + 20)
    assert plan_left(owner, 0, (6, 4), plan, never, constant=5.0)[0] == (6 + 3 + 5) / (6 + 5)
    # capped at 4 squares needed: 4 count, twice
    assert plan_left(owner, 0, (6, 4), plan, never, needed=4)[0] == 2 * (4 + 20) / (6 + 20)
    assert plan_left(owner, 0, (0, 0), plan, never) is None           # not on the plan
    assert plan_left(owner, 0, (4, 0), plan, never) is None           # nothing left
    taken = owner.copy()
    taken[1, 6] = 1                                                   # a square taken since
    assert plan_left(taken, 0, (6, 4), plan, never) is None
    early = never.copy()
    early[2, 6] = 2                          # the model's opponent is on (6, 2) in round 2
    assert plan_left(owner, 0, (6, 4), plan, early) is None
    late = never.copy()
    late[2, 6] = 3                           # ... in round 3: the bot is there first
    assert plan_left(owner, 0, (6, 4), plan, late) is not None
    inside = never.copy()
    inside[2, 5] = 4                         # an opponent in the area before it closes
    assert plan_left(owner, 0, (6, 4), plan, inside) is None


def test_options_are_switchable_and_play_whole_games():
    for options in ({"constant": 40.0}, {"keep": 1.2}, {"wary": 1.5}, {"interfere": True},
                    {"enough": True}, {"rival": True}, {"spoil": 12}):
        bot = PathBot(max_nodes=3000, **options)
        rec = play_capture([bot, "rectangles"], rng=3, width=16, height=10, round_limit=60)
        assert not rec.notes, (options, rec.notes)
    view = state_from_ascii("""
        A0..
        ..1b
    """).view()                  # 2 squares each, 4 free: 3 more make the win sure
    assert PathBot().needed(view, 0) == NEVER and PathBot(enough=True).needed(view, 0) == 3


def test_rival_border_is_the_nearest_neutral_square_round_the_opponents_rectangle():
    from tronlab.capture.rival import rival_border
    from tronlab.capture.rects import border_cycle, scan_rectangles
    view = state_from_ascii("""
        ..........
        .11111....
        .1....1...
        .1....1...
        .b........
        ..........
        ........A.
    """).view()
    theirs = scan_rectangles(view.owner, 1, view.positions[1], opponents=[view.positions[0]])
    border = [sq for sq in border_cycle(theirs.x0, theirs.y0, theirs.x1, theirs.y1)
              if view.owner[sq[1], sq[0]] == -1]
    me = view.positions[0]
    near = min(abs(x - me[0]) + abs(y - me[1]) for x, y in border)
    target = rival_border(view, 0, 1)
    assert target in border and abs(target[0] - me[0]) + abs(target[1] - me[1]) == near
    assert rival_border(view, 0, theirs.points + 1) is None          # not worth it
