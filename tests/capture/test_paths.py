"""The path search (tronlab.capture.paths) against an exhaustive search under the real rules."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

from tronlab.capture import parse_grid, state_from_ascii, step
from tronlab.capture.paths import search_paths

DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def exhaustive_best(state, player, k, max_steps, constant=20, needed=None):
    """Best (extra + 20) / (steps + 20) over every walk of straight k-square
    steps onto squares neutral when reached, played with the game's own rules
    (the other players stay put); a walk ends at its first enclosure.
    ``constant`` replaces the 20; with ``needed``, a walk bringing at least
    that many squares counts ``needed`` of them, twice."""
    def value(extra, steps):
        if needed is not None and extra >= needed:
            return 2 * (needed + constant) / (steps + constant)
        return (extra + constant) / (steps + constant)

    w, h = state.width, state.height
    start = state.scores()[player]
    best = -1.0
    stack = [(state, 0, frozenset([state.positions[player]]))]
    while stack:
        s, t, path = stack.pop()
        for dx, dy in DIRS:
            if t + k > max_steps:
                break
            cur, ok = s, True
            for m in range(1, k + 1):
                x, y = cur.positions[player]
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h) or cur.owner[ny, nx] != -1:
                    ok = False
                    break
                before = cur.scores()[player]
                acts = [p if q != player else (nx, ny) for q, p in enumerate(cur.positions)]
                cur = step(cur, acts).state
                extra = cur.scores()[player] - start
                if cur.scores()[player] - before > 1:     # an enclosure: the walk ends
                    best = max(best, value(extra, t + m))
                    ok = False
                    break
            if ok:
                best = max(best, value(cur.scores()[player] - start, t + k))
                stack.append((cur, t + k, path | {cur.positions[player]}))
    return best


@st.composite
def small_boards(draw):
    w = draw(st.integers(3, 6))
    h = draw(st.integers(3, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    owner = np.where(rng.random((h, w)) < draw(st.floats(0.1, 0.6)), 0, -1)
    owner[rng.random((h, w)) < 0.1] = 1
    cells = [(x, y) for y in range(h) for x in range(w)]
    a, b = rng.choice(len(cells), 2, replace=False)
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            if (x, y) == cells[a]:
                row += "A"
            elif (x, y) == cells[b]:
                row += "B"
            else:
                row += ".01"[owner[y, x] + 1]
        rows.append(row)
    return "\n".join(rows)


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(), st.sampled_from([1, 2, 3]), st.integers(1, 7))
def test_best_score_matches_exhaustive_search(grid, k, depth):
    state = state_from_ascii(grid)
    want = exhaustive_best(state, 0, k, depth)
    got = search_paths(state.owner, 0, state.positions[0], steps=(k,), max_steps=depth,
                       escape=False, max_nodes=10**6)
    assert got.score == pytest.approx(want)
    if want > 0:
        # the reported path, played, gives the reported extra
        s = state
        for sq in got.path:
            s = step(s, [sq if q == 0 else p for q, p in enumerate(s.positions)]).state
        assert s.scores()[0] - state.scores()[0] == got.extra


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(), st.sampled_from([1, 2, 3]), st.integers(1, 6), st.sampled_from([3, 20]),
       st.integers(1, 12))
def test_constant_and_needed_cap_match_exhaustive_search(grid, k, depth, constant, needed):
    state = state_from_ascii(grid)
    want = exhaustive_best(state, 0, k, depth, constant, needed)
    got = search_paths(state.owner, 0, state.positions[0], steps=(k,), max_steps=depth,
                       escape=False, max_nodes=10**6, constant=constant, needed=needed)
    assert got.score == pytest.approx(want)


@settings(max_examples=10, deadline=None)
@given(small_boards(), st.sampled_from([1, 3]))
def test_plain_python_twin_agrees(grid, k):
    state = state_from_ascii(grid)
    a = search_paths(state.owner, 0, state.positions[0], steps=(k,), max_steps=5)
    b = search_paths(state.owner, 0, state.positions[0], steps=(k,), max_steps=5, jit=False)
    assert (a.score, a.path, a.extra, a.nodes) == (b.score, b.path, b.extra, b.nodes)


def test_three_square_steps_reach_further_for_the_same_nodes():
    owner = np.full((20, 35), -1, np.int8)
    owner[10, 17] = 0
    one = search_paths(owner, 0, (17, 10), steps=(1,), max_nodes=20000)
    three = search_paths(owner, 0, (17, 10), steps=(3,), max_nodes=20000)
    assert one.nodes == three.nodes == 20000
    # 20,000 nodes: 9 rounds deep with single squares, 30 with steps of 3 - and the
    # loop it closes around the start square is much larger (69 squares against 11)
    assert (one.depth, three.depth) == (9, 30)
    assert (one.extra, three.extra) == (11, 69) and three.score > one.score


def test_a_square_an_opponent_takes_first_spoils_the_closure():
    g = parse_grid("""
        ......
        .0000.
        .0..0.
        .0..0.
        .00A0.
        ......
    """)
    trail = [(4, 1), (4, 2), (4, 3)]
    # one step north onto (3, 3), next to (4, 3) stood on a round ago: closes the other three
    free = search_paths(g.owner, 0, (3, 4), trail=trail, steps=(1,), max_steps=3)
    assert free.path == [(3, 3)] and free.extra == 4 and free.score == pytest.approx(24 / 21)
    # an opponent on (2, 2) in round 1: the region touches its square, nothing closes
    arrival = np.full(g.owner.shape, 1 << 30)
    arrival[2, 2] = 1
    blocked = search_paths(g.owner, 0, (3, 4), trail=trail, steps=(1,), max_steps=3,
                           arrival=arrival)
    assert blocked.score == pytest.approx(1.0)
    # from round 2 on it is too late: the closure in round 1 stands
    arrival[2, 2] = 2
    late = search_paths(g.owner, 0, (3, 4), trail=trail, steps=(1,), max_steps=3,
                        arrival=arrival)
    assert late.extra == 4


def test_escape_leaves_an_owned_area_once_per_square():
    g = parse_grid("""
        000..
        0A0..
        000..
    """)
    none = search_paths(g.owner, 0, (1, 1), steps=(1,), max_steps=6, escape=False)
    out = search_paths(g.owner, 0, (1, 1), steps=(1,), max_steps=6)
    assert none.score == -1 and none.path == []
    assert out.score > 0 and out.path[-1][0] >= 3     # it reached the neutral squares
    # escape squares are shared by all paths: the 9 squares of the block at most once each
    assert out.nodes < 200


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="owner must be a 2-D int8 array"):
        search_paths(np.zeros((3, 3)), 0, (0, 0))
    with pytest.raises(ValueError, match="off the 3x3 grid"):
        search_paths(np.full((3, 3), -1, np.int8), 0, (5, 0))


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(), st.integers(1, 6))
def test_steps_of_three_then_two_then_one_give_the_best_of_the_three_exhaustive_searches(grid,
                                                                                       depth):
    # on a small board every tree is exhausted, so all three step sizes run and the best
    # path is the best of three exhaustive searches
    state = state_from_ascii(grid)
    want = max(exhaustive_best(state, 0, k, depth) for k in (3, 2, 1))
    got = search_paths(state.owner, 0, state.positions[0], max_steps=depth, escape=False,
                       max_nodes=10**6)
    assert got.steps_run == (3, 2, 1)
    assert got.score == pytest.approx(want)


def test_smaller_steps_run_only_when_the_tree_is_exhausted():
    pocket = parse_grid("""
        ..........
        .00000000.
        .0......0.
        .0......0.
        .0000A000.
        ..........
    """)
    # a pocket two squares high: steps of 3 find nothing, of 2 a plain walk, single steps
    # close it (5 squares walked, 7 closed)
    three = search_paths(pocket.owner, 0, (5, 4), steps=(3,))
    two = search_paths(pocket.owner, 0, (5, 4), steps=(2,))
    all_ = search_paths(pocket.owner, 0, (5, 4))
    assert (three.path, two.score, two.extra) == ([], 1.0, 2)
    assert all_.steps_run == (3, 2, 1) and (all_.extra, len(all_.path)) == (12, 5)
    assert all_.nodes == three.nodes + two.nodes + search_paths(
        pocket.owner, 0, (5, 4), steps=(1,)).nodes
    # an empty 35x20 grid is not exhausted in 5,000 nodes: steps of 3 only
    owner = np.full((20, 35), -1, np.int8)
    big = search_paths(owner, 0, (17, 10), max_nodes=5000)
    assert big.steps_run == (3,) and big.nodes == 5000


def test_a_deadline_stops_the_search_like_a_full_node_budget():
    from tronlab.capture.paths import CLOCK_EVERY
    from tronlab.jit.clock import deadline_after, now_ns
    owner = np.full((20, 35), -1, np.int8)
    free = search_paths(owner, 0, (17, 10), max_nodes=20000)
    # a deadline already passed: the clock is read before the first expansion
    past = search_paths(owner, 0, (17, 10), max_nodes=20000, deadline=now_ns() - 1)
    assert past.nodes == 1 and past.steps_run == (3,) and past.path == []
    # a generous deadline changes nothing
    late = search_paths(owner, 0, (17, 10), max_nodes=20000, deadline=deadline_after(600))
    assert (late.nodes, late.path, late.score) == (free.nodes, free.path, free.score)
    assert CLOCK_EVERY & (CLOCK_EVERY - 1) == 0
    with pytest.raises(ValueError, match="needs the compiled kernel"):
        search_paths(owner, 0, (17, 10), deadline=now_ns(), jit=False)
    # 10 ms cannot hold a million nodes (about 150,000 per 100 ms here): the clock stops it
    from tronlab.capture.paths import new_scratch
    short = search_paths(owner, 0, (17, 10), max_nodes=10**6, deadline=deadline_after(0.01),
                         scratch=new_scratch(35, 20, 10**6))
    assert 1 < short.nodes < 10**6


def test_a_square_an_opponent_enters_in_the_same_round_is_not_neutral():
    g = parse_grid("A...")
    arrival = np.full(g.owner.shape, 1 << 30)
    # a 2-square step east ends on (2, 0) in round 2: too late if an opponent enters
    # it in round 2 (a shared square stays neutral), in time if it comes in round 3
    arrival[0, 2] = 2
    same = search_paths(g.owner, 0, (0, 0), steps=(2,), max_steps=2, escape=False,
                        arrival=arrival)
    assert same.score == -1 and same.path == []
    arrival[0, 2] = 3
    later = search_paths(g.owner, 0, (0, 0), steps=(2,), max_steps=2, escape=False,
                         arrival=arrival)
    assert later.path == [(1, 0), (2, 0)] and later.extra == 2 and later.score == pytest.approx(1.0)


def test_a_node_whose_only_neutral_neighbour_is_entered_by_then_escapes():
    g = parse_grid("A..")
    arrival = np.full(g.owner.shape, 1 << 30)
    arrival[0, 1] = 1       # (1, 0) is an opponent's in round 1: no neutral square around
    out = search_paths(g.owner, 0, (0, 0), steps=(1,), max_steps=2, arrival=arrival)
    # so the start escapes onto (1, 0) (no gain), then walks onto neutral (2, 0)
    assert out.path == [(1, 0), (2, 0)] and out.extra == 1
    assert out.score == pytest.approx(21 / 22)


def test_the_deadline_is_checked_as_the_tron_searches_check_it():
    # before: deadline=None (no deadline, as Searcher.search reads it) was refused by the
    # plain twin ("needs the compiled kernel") and crashed np.int64 in the compiled one,
    # and deadline="1" became 1 ns, a deadline long past, without a word
    owner = parse_grid("A...\n....").owner
    free = search_paths(owner, 0, (0, 0), jit=False)
    none = search_paths(owner, 0, (0, 0), deadline=None, jit=False)
    assert (none.nodes, none.path, none.score) == (free.nodes, free.path, free.score)
    with pytest.raises(TypeError, match="deadline is an absolute time in nanoseconds"):
        search_paths(owner, 0, (0, 0), deadline="1", jit=False)
