"""An iterative-deepening search checks its kernel's arguments once, at its first depth:
the later depths pass the same arrays (the board's copy, the searcher's own scratch and
table), and the type check and guard cost 80 us a depth (1% of a 0.1 s move)."""

import numpy as np
import pytest

from tronlab.tron import alphabeta, nash_search
from tronlab.tron.board import Board
from tronlab.tron.nash_searcher import NashSearcher
from tronlab.tron.search import Searcher

BOARD = """
    ########
    #1.....#
    #......#
    #...#..#
    #......#
    #.....2#
    ########
"""


@pytest.mark.parametrize("searcher, kernel", [(Searcher, alphabeta.negamax_kernel),
                                              (NashSearcher, nash_search.nash_search_kernel)])
def test_a_search_checks_its_arguments_at_the_first_depth_only(monkeypatch, searcher, kernel):
    board = Board.from_ascii(BOARD)
    calls = []
    guard = kernel.guard
    monkeypatch.setattr(kernel, "guard", lambda *a: calls.append(a[4]) or guard(*a))
    monkeypatch.setattr(kernel, "_generation", -1)        # rebuild the checked call
    s = searcher()
    s.search(board, 0, max_depth=4)
    assert s.last_stats["depth"] == 4 and calls == [1]    # depths 2-4 unchecked
    # and the unchecked depths searched what checked ones would have
    value = s.last_stats["value"]
    again = searcher()
    for d in range(1, 5):
        result = again.search_depth(board, 0, d)         # a direct call: checked
    assert result[0] == pytest.approx(value) and calls == [1, 1, 2, 3, 4]
    np.testing.assert_array_equal(board.flat, Board.from_ascii(BOARD).flat)
