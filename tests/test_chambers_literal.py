"""The write-up's literal readings of A12 (``literal=`` of tronlab.tron.chambers):
kernel == plain-Python oracle for every combination, one ASCII board per reading
where the literal value and the package's differ, and the option's errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chamber_oracle as oracle
from strategies import EXAMPLES, boards
from test_chambers import FRONT, assert_same_as_oracle
from tronlab.tron.board import Board
from tronlab.tron.bots.search import ChamberBot
from tronlab.tron.chambers import (LITERAL_FRONT, LITERAL_N_ONLY, LITERAL_NO_STAY, LITERAL_TIES,
                                   chamber_flags, chamber_score, chamber_tree, literal_bits)
from tronlab.tron.evaluate import CHAMBER, CHAMBER_A13, eval_code, evaluate, is_separated


@pytest.mark.parametrize("literal", range(16))
@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(board=boards(min_players=2, max_players=2, max_width=16, max_height=16,
                    max_density=0.5))
def test_every_combination_matches_the_oracle(literal, board):
    for penalize in (False, True):
        for player in (0, 1):
            assert_same_as_oracle(board, player, penalize, literal)
        got = chamber_score(board, 0, penalize_battlefront=penalize, literal=literal)
        want = oracle.chamber_counts(board.flat, [int(h) for h in board.heads], board.stride,
                                     penalize=penalize, literal=literal)
        assert tuple(got[:4]) == want


def test_ties_literal_lets_the_neutral_column_in():
    # FRONT (see test_chambers): the column x = 7 is equidistant.  As a wall
    # (the package) it cuts red's line to the front after one square: red
    # stays in its room, 10.  Literally only blue's squares are walls, so the
    # neutral column is red's too: its room opens on the column and is worth 11.
    b = Board.from_ascii(FRONT)
    plain, literal = chamber_tree(b, 0), chamber_tree(b, 0, literal=LITERAL_TIES)
    assert (plain.n, plain.e) == (10, 23)
    assert (literal.n, literal.e) == (11, 31)
    neutral = [b.xy(i) for i in np.flatnonzero(literal.chamber_of.reshape(-1) >= 0)
               if plain.chamber_of.reshape(-1)[i] < 0 and plain.owner.reshape(-1)[i] == 2]
    assert neutral and all(x == 7 for x, _ in neutral)


def test_front_literal_fills_the_room_before_a_quiet_looking_door():
    # FRONT: blue's room (13) has one child, a gate whose chain leads to the
    # front.  The package sees the front up the line and offers only "go now"
    # (3 steps + 4 = 7) against staying (13).  Literally the gate itself is not
    # a battlefront, so blue counts room + line: 13 + 4 = 17.
    b = Board.from_ascii(FRONT)
    assert chamber_score(b, 1).n_me == 13
    assert chamber_score(b, 1, literal=LITERAL_FRONT).n_me == 17


def test_no_stay_literal_must_take_a_child():
    # FRONT again: staying (13) is no option literally, so blue's room is
    # worth its only child, the battlefront line: 3 steps + 4 = 7.
    b = Board.from_ascii(FRONT)
    assert chamber_score(b, 1).n_me == 13
    assert chamber_score(b, 1, literal=LITERAL_NO_STAY).n_me == 7


def test_n_only_literal_ignores_edges_between_equal_lines():
    # Red (1) goes up to (3,1) and on through the gate (2,1); beyond it two
    # one-square rooms: (2,2) below, a dead end, and (1,1) on the left, next
    # to blue's space.  Both lines are 2 squares.  (1,1) has two free
    # neighbours, (2,2) one, so K1*N + K2*E picks (1,1) (E 9 in all); by N
    # alone it is a tie, which goes to the first child found, (2,2) (E 8).
    b = Board.from_ascii("""
        ....2
        #....
        .#.1.
    """)
    plain, literal = chamber_tree(b, 0), chamber_tree(b, 0, literal=LITERAL_N_ONLY)
    assert (plain.n, plain.e) == (3, 9)
    assert (literal.n, literal.e) == (3, 8)
    assert b.xy(int(plain.entrance[plain.path[-1]])) == (1, 1)
    assert b.xy(int(literal.entrance[literal.path[-1]])) == (2, 2)


def test_literal_option_reaches_the_bot_and_the_evaluation_code():
    assert chamber_flags() == 0 and chamber_flags(True) == 1
    assert chamber_flags(True, "ties,n_only") == 1 | (LITERAL_TIES << 1) | (LITERAL_N_ONLY << 1)
    assert ChamberBot(depth=1).searcher.code == CHAMBER
    assert ChamberBot(depth=1, penalize_battlefront=True).searcher.code == CHAMBER_A13
    assert ChamberBot(depth=1, literal=LITERAL_FRONT).searcher.code == CHAMBER + 4
    assert eval_code(CHAMBER + 31) == CHAMBER + 31
    with pytest.raises(ValueError, match="evaluation"):
        eval_code(CHAMBER + 32)


@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(min_players=2, max_players=2), me=st.integers(0, 1), pen=st.booleans(),
       literal=st.integers(0, 15))
def test_evaluation_code_chamber_plus_flags_is_the_chamber_score(board, me, pen, literal):
    if is_separated(board):
        return
    want = chamber_score(board, me, penalize_battlefront=pen, literal=literal).score
    got = evaluate(board, me, kind=CHAMBER + chamber_flags(pen, literal))
    assert got == int(np.round(1000 * want))


def test_literal_option_errors_are_clear():
    b = Board.from_ascii(FRONT)
    with pytest.raises(ValueError, match="0-15"):
        chamber_score(b, 0, literal=16)
    with pytest.raises(ValueError, match="unknown literal reading 'tie'"):
        chamber_tree(b, 0, literal="tie")
    with pytest.raises(TypeError, match="literal must be"):
        ChamberBot(depth=1, literal=1.5)
    assert literal_bits("none") == 0 and literal_bits(" Front , no_stay ") == 6
