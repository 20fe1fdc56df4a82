"""Olaf69's opponent model (tronlab.capture.opponent) on hand-worked grids, one per rule,
and against the rules played square by square on random grids."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

from tronlab.capture import parse_grid
from tronlab.capture.opponent import NEVER, ORDERS, last_turn, predict

from .test_enclosure import owner_grids

EAST, SOUTH, WEST, NORTH = (1, 0), (0, 1), (-1, 0), (0, -1)


@pytest.mark.parametrize("jit", [True, False])
def test_straight_on_into_neutral(jit):
    g = parse_grid("""
        b....
        .....
    """)
    p = predict(g.owner, [((0, 0), EAST, 0)], rounds=4, jit=jit)
    assert p.paths[0] == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert p.arrival[0].tolist() == [NEVER, 1, 2, 3, 4]


@pytest.mark.parametrize("jit", [True, False])
def test_turn_order_after_a_left_and_a_right_turn(jit):
    # facing east with an owned square ahead; both sides neutral
    g = parse_grid("""
        ...
        .b1
        ...
    """)
    after_left = predict(g.owner, [((1, 1), EAST, -1)], rounds=1, jit=jit).paths[0]
    after_right = predict(g.owner, [((1, 1), EAST, 1)], rounds=1, jit=jit).paths[0]
    assert after_left == [(1, 2)]       # the write-up: after a left turn, right (south) first
    assert after_right == [(1, 0)]      # after a right turn, left (north) first
    same_left = predict(g.owner, [((1, 1), EAST, -1)], rounds=1, order="same", jit=jit)
    assert same_left.paths[0] == [(1, 0)]   # the variant keeps turning the same way
    assert predict(g.owner, [((1, 1), EAST, 0)], rounds=1, jit=jit).paths[0] == [(1, 2)]


@pytest.mark.parametrize("jit", [True, False])
def test_the_other_side_when_the_preferred_one_is_taken(jit):
    g = parse_grid("""
        ...
        .b1
        .1.
    """)
    assert predict(g.owner, [((1, 1), EAST, -1)], rounds=1, jit=jit).paths[0] == [(1, 0)]


@pytest.mark.parametrize("jit", [True, False])
def test_nearest_neutral_when_boxed_in(jit):
    g = parse_grid("""
        1111.
        1B11.
        1111.
    """)
    # nearest neutral: (4, 0), (4, 1), (4, 2) at 4, 3, 4 -> (4, 1); x first: east
    p = predict(g.owner, [((1, 1), EAST, 0)], rounds=3, jit=jit)
    assert p.paths[0] == [(2, 1), (3, 1), (4, 1)]
    assert p.arrival[1, 4] == 3 and p.arrival[1, 2] == NEVER    # (2, 1) was already owned


@pytest.mark.parametrize("jit", [True, False])
def test_no_heading_goes_for_the_nearest_neutral(jit):
    g = parse_grid("""
        B1..
        11..
    """)
    # (2, 0) and (2, 1)... distance 2 and 3: (2, 0) first in reading order and nearer
    assert predict(g.owner, [((0, 0), None, 0)], rounds=2, jit=jit).paths[0] == [(1, 0), (2, 0)]


@pytest.mark.parametrize("jit", [True, False])
def test_later_opponents_see_the_squares_earlier_ones_took(jit):
    g = parse_grid("""
        b...
        ....
        ...c
    """)
    # c goes north along column 3 and takes (3, 0) in round 2; b, going east along row 0,
    # finds it taken in round 3 and turns right (south)
    p = predict(g.owner, [((0, 0), EAST, 0), ((3, 2), NORTH, 0)], rounds=3, jit=jit)
    assert p.paths[1][:2] == [(3, 1), (3, 0)]
    assert p.paths[0] == [(1, 0), (2, 0), (2, 1)]
    assert p.arrival[0, 3] == 2 and p.arrival[1, 2] == 3


@pytest.mark.parametrize("jit", [True, False])
def test_a_rule_3_step_that_turns_is_its_last_turn(jit):
    g = parse_grid("""
        111
        1B1
        111
        ...
        111
    """)
    # boxed in after a left turn: rule 3 steps south to (1, 2), a right turn; straight on
    # to (1, 3); blocked there, so after that right turn it tries left (east) first
    p = predict(g.owner, [((1, 1), EAST, -1)], rounds=3, jit=jit)
    assert p.paths[0] == [(1, 2), (1, 3), (2, 3)]
    assert last_turn([(0, 1), (1, 1), (1, 2), (1, 3)]) == 1


def test_eliminated_opponents_and_bad_order():
    g = parse_grid("""
        ...
    """)
    assert predict(g.owner, [(None, None, 0)], rounds=2).paths == [[]]
    with pytest.raises(ValueError, match="order must be one of"):
        predict(g.owner, [], order="left")


def test_last_turn_reads_the_trail():
    assert last_turn([(0, 0), (1, 0), (1, 1)]) == 1        # east then south: right
    assert last_turn([(0, 0), (1, 0), (1, -1)]) == -1      # east then north: left
    assert last_turn([(0, 0), (1, 0), (2, 0)]) == 0
    assert last_turn([(0, 0), (1, 0), (1, 1), (1, 2), (1, 2)]) == 1


# ---- the three rules against a model written from the module docstring, on random grids ----
HEADINGS = (EAST, SOUTH, WEST, NORTH)       # a right turn is the next one in this list


def model_paths(owner, opponents, rounds, order):
    """Olaf69's rules played square by square (coordinates, sets, no flat
    indices): ``(paths, arrival)`` with arrival a dict square -> first round."""
    board = owner.copy()
    h, w = board.shape
    arrival, paths = {}, [[] for _ in opponents]
    state = [list(o) for o in opponents]

    def neutral(x, y):
        return 0 <= x < w and 0 <= y < h and board[y, x] == -1

    for t in range(1, rounds + 1):
        for q, (pos, heading, last) in enumerate(state):
            if pos is None:
                continue
            (x, y), nxt = pos, None
            if heading is not None:
                if neutral(x + heading[0], y + heading[1]):            # rule 1
                    nxt = (x + heading[0], y + heading[1])
                else:                                                  # rule 2
                    k = HEADINGS.index(heading)
                    right, left = (1, HEADINGS[(k + 1) % 4]), (-1, HEADINGS[(k - 1) % 4])
                    sides = [right, left] if last <= 0 else [left, right]
                    for _, (dx, dy) in (sides if order == "writeup" else sides[::-1]):
                        if neutral(x + dx, y + dy):
                            nxt = (x + dx, y + dy)
                            break
            if nxt is None:                                            # rule 3
                goals = [(abs(gx - x) + abs(gy - y), gy, gx) for gy in range(h) for gx in range(w)
                         if board[gy, gx] == -1 and (gx, gy) != (x, y)]
                nxt = (x, y)
                if goals:
                    _, gy, gx = min(goals)
                    nxt = (x + (gx > x) - (gx < x), y) if gx != x else (x, y + (gy > y) - (gy < y))
            if nxt != (x, y):                              # any rule's change of direction
                move = (nxt[0] - x, nxt[1] - y)               # is its last turn
                if heading is not None and move != heading:
                    k = HEADINGS.index(heading)
                    last = {HEADINGS[(k + 1) % 4]: 1, HEADINGS[(k - 1) % 4]: -1}.get(move, last)
                heading = move
            if board[nxt[1], nxt[0]] == -1:
                board[nxt[1], nxt[0]] = 99
                arrival.setdefault(nxt, t)
            state[q] = [nxt, heading, last]
            paths[q].append(nxt)
    return paths, arrival


@st.composite
def opponent_sets(draw, shape):
    h, w = shape
    return [(draw(st.none() | st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))),
             draw(st.none() | st.sampled_from(HEADINGS)), draw(st.integers(-1, 1)))
            for _ in range(draw(st.integers(1, 3)))]


@settings(max_examples=EXAMPLES, deadline=None)
@given(owner_grids(max_side=9), st.data(), st.integers(0, 10), st.sampled_from(sorted(ORDERS)))
def test_kernel_matches_the_rules_played_square_by_square(owner, data, rounds, order):
    opponents = data.draw(opponent_sets(owner.shape))
    want_paths, arrival = model_paths(owner, opponents, rounds, order)
    got = predict(owner, opponents, rounds=rounds, order=order)
    assert got.paths == [[] if o[0] is None else p for o, p in zip(opponents, want_paths)]
    want = np.full(owner.shape, NEVER, np.int64)
    for (x, y), t in arrival.items():
        want[y, x] = t
    np.testing.assert_array_equal(got.arrival, want)


def _seed_from_trail(start, heading, turn, path):
    """What a bot that watched ``path`` would give the model: the last move as the
    heading and :func:`last_turn` of the trail (the given turn if it never turned)."""
    trail = ([(start[0] - heading[0], start[1] - heading[1])] if heading else []) + [start] + path
    moves = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(trail, trail[1:]) if a != b]
    return (trail[-1], moves[-1] if moves else heading, last_turn(trail) or turn)


@settings(max_examples=EXAMPLES, deadline=None)
@given(owner_grids(max_side=9), st.data(), st.integers(1, 10), st.sampled_from(sorted(ORDERS)))
def test_a_prediction_restarted_from_its_own_trail_goes_on_the_same_way(owner, data, rounds,
                                                                          order):
    """Predicting ``rounds`` rounds, or ``k`` rounds and then the rest from the board
    and trails they made, gives the same moves: the model's own turns are the turns
    last_turn reads from a trail."""
    opponents = data.draw(opponent_sets(owner.shape))
    k = data.draw(st.integers(0, rounds))
    full = predict(owner, opponents, rounds=rounds, order=order)
    board = owner.copy()
    board[full.arrival <= k] = 3
    again = [(None, None, t) if pos is None else _seed_from_trail(pos, d, t, path[:k])
             for (pos, d, t), path in zip(opponents, full.paths)]
    rest = predict(board, again, rounds=rounds - k, order=order)
    assert rest.paths == [p[k:] for p in full.paths]
