"""ASCII grids for Back to the Code (tronlab.capture.ascii)."""

import numpy as np
import pytest

from tronlab.capture import format_grid, parse_grid, state_from_ascii


def test_parse_and_format_round_trip():
    text = "a.1.\n.0C2\nB..3"
    grid = parse_grid(text)
    assert grid.owner.dtype == np.int8
    assert grid.owner.tolist() == [[-1, -1, 1, -1], [-1, 0, 2, 2], [1, -1, -1, 3]]
    assert grid.positions == {0: (0, 0), 2: (2, 1), 1: (0, 2)}
    assert format_grid(grid.owner, grid.positions) == text
    assert format_grid(grid.owner) == "..1.\n.022\n1..3"


def test_positions_that_cannot_be_drawn_fall_back_to_the_owner():
    owner = parse_grid("01.\n...").owner
    # player 0 on 1's square, players 0 and 1 sharing a neutral square
    assert format_grid(owner, [(1, 0), (2, 1)]) == "01.\n..b"
    assert format_grid(owner, [(2, 0), (2, 0)]) == "01.\n..."
    assert format_grid(owner, [None, (0, 0)]) == "01.\n..."


@pytest.mark.parametrize("text, match", [
    ("..\n...", "equally long"),
    ("", "non-empty"),
    (".x.", "unknown grid character 'x'"),
    ("a.A", r"^player 0 is drawn twice: at \(0, 0\) and at \(2, 0\) \('A', row 0, column 2\)"),
])
def test_bad_grids_are_refused(text, match):
    with pytest.raises(ValueError, match=match):
        parse_grid(text)


def test_state_from_ascii_builds_the_history_from_trails():
    s = state_from_ascii("""
        ....
        .A.b
    """, trails={0: [(0, 0), (1, 0)], 1: [(2, 1)]})
    assert s.round == 3 and len(s.history) == 3
    assert s.trail(0) == [(0, 0), (1, 0), (1, 1)]
    assert s.trail(1) == [(2, 1), (2, 1), (3, 1)]       # padded with its oldest square
    assert s.owner.flags.writeable is False


def test_state_from_ascii_checks_its_players():
    with pytest.raises(ValueError, match="no position"):
        state_from_ascii("A.1.")
    with pytest.raises(ValueError, match="off the 4x1 grid"):
        state_from_ascii("A.1.", positions={1: (4, 0)})
    with pytest.raises(ValueError, match="names player 2"):
        state_from_ascii("A.2.", n_players=2, positions={1: (1, 0)})
    # before: 'the grid names player 2', with no square, and so too when only
    # eliminated= named the player
    with pytest.raises(ValueError, match=r"^'c' at \(1, 1\) \(row 1, column 1\) names player 2 "
                                         r"but there are 2 players \(0 to 1\)$"):
        state_from_ascii("a.\n.c", n_players=2)
    with pytest.raises(ValueError, match="^positions= or eliminated= names player 3 but"):
        state_from_ascii("a.\n.b", n_players=2, eliminated=(3,))
    s = state_from_ascii("A.1.", eliminated=(1,))
    assert s.positions == ((0, 0), None) and s.eliminated == (False, True)
    assert state_from_ascii("a..", n_players=3, eliminated=(1, 2)).n_players == 3


def test_errors_name_the_row_and_tell_the_notation_from_trons():
    # before: 'grid rows must be non-empty and all equally long', whichever row it was
    with pytest.raises(ValueError, match="row 2 has 2 characters, row 0 has 3"):
        parse_grid("a..\n...\n.b")
    # a grid drawn with Tron's habits (heads 1 and 2): before, only 'players [0, 1, 2] have
    # no position', with nothing to say that digits are owned squares here
    with pytest.raises(ValueError, match=r"players \[0, 1, 2\] have no position .*a-d on a "
                                         r"neutral square or A-D on its own; digits 0-3"):
        state_from_ascii("1..\n..2")
    with pytest.raises(ValueError, match=r"players \[1\] have no position and are not "
                                         r"eliminated$"):
        state_from_ascii("a..\n..1")        # a player is drawn: no lecture


def test_state_has_from_ascii_and_to_ascii_as_a_tron_board_does():
    # before: State had neither (the module functions only), so Board.from_ascii's
    # twin was an AttributeError
    from tronlab.capture import State
    text = "A.1.\n.0c2\nb..D"
    state = State.from_ascii(text, n_players=4, round_limit=9)
    same = state_from_ascii(text, n_players=4, round_limit=9)
    assert state.owner.tolist() == same.owner.tolist() and state.positions == same.positions
    assert state.config == same.config
    assert state.to_ascii() == text
    # positions= that the notation cannot draw (player 1 on player 0's square) are left out
    drawn = State.from_ascii("A0\n..", positions={1: (1, 0)}).to_ascii()
    assert drawn == "A0\n.."
