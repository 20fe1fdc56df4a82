"""One rule for both halves of the package and the course helpers: a value of the wrong type
(a list where a Board goes, a float or a str where an int goes) is a TypeError, a value of the
right type that is out of range a ValueError, each one line naming the argument.

Before, the same slip raised either: ``get_bot("paths", game="capture", max_nodes=1.5)`` a
TypeError but ``get_bot("minimax", depth=2.5)`` a ValueError; ``Searcher().search_depth(b, 0,
2.5)`` a TypeError but ``Searcher().search(b, 0, max_depth=2.5)`` a ValueError; a list given
to ``separation_turn`` or ``reference_search`` a ValueError; ``capture.draw_state`` of a list
an AttributeError; ``TurnGame(board, 1.0)`` was taken, ``TurnGame(board, "0")`` a ValueError."""

from __future__ import annotations

import pytest

import tronlab
import tronlab.capture as capture
from tronlab.course import hint, show_source
from tronlab.course.game import TurnGame
from tronlab.render import draw_record
from tronlab.runner.engine import play
from tronlab.tron.c_reference import reference_search
from tronlab.tron.env import TronParallelEnv
from tronlab.tron.learn import separation_turn
from tronlab.tron.longest_path import longest_path
from tronlab.tron.nash_searcher import NashSearcher
from tronlab.tron.root_matrix import RootMatrixSearcher

BOARD = tronlab.Board.from_ascii("#####\n#1..#\n#..2#\n#####")
CELLS = BOARD.cells.tolist()


def _record():
    return play(BOARD, [lambda b, p: 1, lambda b, p: 3], max_turns=2)


def _state():
    return capture.reset(2, rng=1)


#: (label, call): a wrong type in each half and in the course helpers
WRONG_TYPE = [
    ("capture bot option", lambda: tronlab.get_bot("paths", game="capture", max_nodes=1.5)),
    ("capture player", lambda: capture.nearest_target(_state(), 0.0)),
    ("capture draw_state", lambda: capture.draw_state([[0, 1]])),
    ("minimax depth", lambda: tronlab.get_bot("minimax", depth=2.5)),
    ("chamber endgame_depth", lambda: tronlab.get_bot("chamber", endgame_depth="2")),
    ("nash depth", lambda: tronlab.get_bot("nash", depth=2.5)),
    ("voronoi draw", lambda: tronlab.get_bot("voronoi", draw=0.5)),
    ("search max_depth", lambda: tronlab.Searcher().search(BOARD, 0, max_depth=2.5)),
    ("search sep_weight", lambda: tronlab.Searcher(sep_weight=1.5)),
    ("longest_path max_depth", lambda: longest_path(BOARD, 0, max_depth=2.5)),
    ("hybrid near", lambda: RootMatrixSearcher(near=2.5)),
    ("territory players", lambda: tronlab.territory(BOARD, 1.0)),
    ("separation_turn boards", lambda: separation_turn([CELLS])),
    ("reference_search board", lambda: reference_search(CELLS)),
    ("TurnGame player float", lambda: TurnGame(BOARD, 1.0)),
    ("TurnGame player str", lambda: TurnGame(BOARD, "0")),
    ("hint level", lambda: hint("territory", 1.5)),
    ("show_source fold", lambda: show_source(hint, fold=2.5)),
    ("env max_cycles", lambda: TronParallelEnv(board=BOARD, max_cycles=2.5)),
    ("random_map density", lambda: tronlab.random_map(9, 9, density="0.2")),
    ("draw_record ncols", lambda: draw_record(_record(), ncols=2.5)),
    ("nash draw", lambda: NashSearcher(draw="0")),
]

#: the same arguments with the right type and a bad value
BAD_VALUE = [
    ("capture bot option", lambda: tronlab.get_bot("paths", game="capture", max_nodes=0)),
    ("minimax depth", lambda: tronlab.get_bot("minimax", depth=0)),
    ("nash depth", lambda: tronlab.get_bot("nash", depth=0)),
    ("search max_depth", lambda: tronlab.Searcher().search(BOARD, 0, max_depth=0)),
    ("hybrid near", lambda: RootMatrixSearcher(near=0)),
    ("territory players", lambda: tronlab.territory(BOARD, (0, 1, 0))),
    ("reference_search board", lambda: reference_search(tronlab.Board.from_ascii("1.2.3"))),
    ("TurnGame player", lambda: TurnGame(BOARD, 2)),
    ("hint level", lambda: hint("territory", 9)),
    ("show_source fold", lambda: show_source(hint, fold=0)),
    ("env max_cycles", lambda: TronParallelEnv(board=BOARD, max_cycles=0)),
    ("random_map density", lambda: tronlab.random_map(9, 9, density=1.0)),
    ("draw_record ncols", lambda: draw_record(_record(), ncols=0)),
    ("nash draw", lambda: NashSearcher(draw=2e9)),
]


def _one_line(err: BaseException) -> str:
    text = str(err)
    assert text and "\n" not in text and "numba" not in text.lower(), text
    return text


@pytest.mark.parametrize("label, call", WRONG_TYPE, ids=[c[0] for c in WRONG_TYPE])
def test_a_wrong_type_is_a_type_error(label, call):
    with pytest.raises(TypeError) as info:
        call()
    _one_line(info.value)


@pytest.mark.parametrize("label, call", BAD_VALUE, ids=[c[0] for c in BAD_VALUE])
def test_a_bad_value_of_the_right_type_is_a_value_error(label, call):
    with pytest.raises(ValueError) as info:
        call()
    _one_line(info.value)


def test_a_duel_replay_names_a_game_that_is_not_an_int():
    """``duel.replay(1.5)`` raised 'list indices must be integers or slices' from inside."""
    from tronlab.course.duel import Duel
    record = play(BOARD, [lambda b, p: 1, lambda b, p: 3], max_turns=2)
    duel = Duel("territory", "hugger", [record], [0])
    for bad, error in ((1.5, TypeError), ("0", TypeError), (1, ValueError)):
        with pytest.raises(error, match=r"game must be an int from 0 to 0, got"):
            duel.replay(bad)
