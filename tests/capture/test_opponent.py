"""Olaf69's opponent model (tronlab.capture.opponent) on hand-worked grids, one per rule."""

import pytest

from tronlab.capture import parse_grid
from tronlab.capture.opponent import NEVER, last_turn, predict

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
