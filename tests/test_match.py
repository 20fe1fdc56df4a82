"""tronlab.tron.match.Match, the step API: its argument checks (the rules it applies are
tested through play, the environment and record replay)."""

import pytest

from tronlab import Board, Match

BOARD = """
    #######
    #1...2#
    #######
"""


def test_view_needs_a_player_of_the_board():
    m = Match(Board.from_ascii(BOARD))
    assert m.view(1) == m.board and m.view(1) is not m.board
    with pytest.raises(ValueError, match="player 5 does not exist: the board has players 0..1"):
        m.view(5)                       # used to hand back a board for a player that is not there


@pytest.mark.parametrize("answers,stranger", [({0: 1, 1: 3, 2: 1}, "2"), ([1, 3, 1], "2"),
                                              ({0: 1, 1: 3, "1": 3}, "'1'"),
                                              ({0: 1, 1: 3, -1: 0}, "-1")])
def test_an_answer_for_no_player_of_the_board_is_refused(answers, stranger):
    m = Match(Board.from_ascii(BOARD))
    with pytest.raises(ValueError, match=f"turn 1: an answer for {stranger}, which is no player"):
        m.step(answers)                 # used to be ignored without a word
    assert m.turns == 0
    assert m.step({0: 1, 1: 3}).turn == 1
