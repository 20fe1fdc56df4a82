"""Boards built from arrays are checked: the kernels trust the layout (a WALL
border, known codes, living heads on the playing area), so a bad array must be a
clear BoardError, never a crash of the process.  Player numbers are checked too."""

import numpy as np
import pytest

from tronlab import Board
from tronlab.tron.board import BoardError, FREE, TRAIL, WALL
from tronlab.tron.evaluate import is_separated


def padded(text="1..2"):
    return Board.from_ascii(text)


def test_a_grid_without_its_wall_border_is_refused():
    cells = np.zeros((5, 7), np.uint8)          # no border: a kernel would read outside it
    cells.flat[8], cells.flat[12] = TRAIL, TRAIL + 1
    with pytest.raises(BoardError, match="WALL .* border"):
        Board(cells, [8, 12])


def test_unknown_cell_codes_are_refused():
    b = padded()
    cells = b.cells.copy()
    cells[1, 2] = 9
    with pytest.raises(BoardError, match="found 9"):
        Board(cells, b.heads)


@pytest.mark.parametrize("head, words", [(999, "outside"), (0, "on the border")])
def test_a_living_head_must_be_on_the_playing_area(head, words):
    b = padded()
    with pytest.raises(BoardError, match=words):
        Board(b.cells, [head, b.heads[1]])


def test_a_dead_player_may_keep_a_placeholder_head():
    b = padded()        # the CodinGame client starts unknown players at index 0, dead
    out = Board(b.cells, [b.heads[0], 0], alive=[True, False])
    assert out.legal_moves(1) == []


@pytest.mark.parametrize("name", ["alive", "facing", "starts"])
def test_per_player_arrays_need_one_entry_per_player(name):
    b = padded()
    with pytest.raises(BoardError, match=f"{name} needs one entry per player \\(2\\), got 3"):
        Board(b.cells, b.heads, **{name: [1, 1, 1]})


@pytest.mark.parametrize("player", [2, -1, "0", 1.0, True])
def test_player_numbers_are_checked(player):
    b = padded()
    for call in (lambda: b.legal_moves(player), lambda: b.head_xy(player),
                 lambda: b.target(player, 0)):
        with pytest.raises((ValueError, TypeError), match="player"):
            call()


@pytest.mark.parametrize("players, error", [(0, TypeError), ((0, 5), ValueError),
                                            ((1, 1), ValueError), ((0, 1, 2), ValueError)])
def test_is_separated_checks_its_pair(players, error):
    with pytest.raises(error, match="player"):
        is_separated(padded("1.#.2"), players)


def test_copy_is_equal_and_independent():
    b = padded("1.#.2")
    c = b.copy()
    assert c == b and c.cells is not b.cells and c.heads is not b.heads
    c.cells[1, 2] = WALL
    assert b.cells[1, 2] == FREE and c != b


class _Odd:
    def __repr__(self):
        raise RuntimeError("no repr")


@pytest.mark.parametrize("answer", [_Odd(), np.array([1, 2]), object()])
def test_a_bot_returning_junk_loses_with_a_readable_reason(answer):
    from tronlab import play
    rec = play(padded("1...2"), [lambda board, p: answer, lambda board, p: 3], rules="google2010",
               rng=0)
    assert rec.outcome.winner == 1 and rec.outcome.deaths[0] == "illegal"
    assert "returned" in rec.outcome.details[0] and "a move is" in rec.outcome.details[0]
    if isinstance(answer, _Odd):
        assert "returned <_Odd object: its __repr__ raised RuntimeError: no repr>" in \
            rec.outcome.details[0]


def test_opposite_reads_moves_like_parse_move():
    from tronlab.tron.board import opposite
    assert [opposite(m) for m in (0, 1, "up", "left")] == [2, 3, 2, 1]
    with pytest.raises(ValueError, match="move"):
        opposite(9)


def test_a_bot_name_must_be_a_string():
    from tronlab import get_bot
    with pytest.raises(TypeError, match="bot name is a str"):
        get_bot(["minimax"])


@pytest.mark.parametrize("kwargs, error, words", [
    ({"time_limit": float("inf")}, ValueError, "time_limit is a positive number"),
    ({"names": "ab"}, ValueError, "names must be a list of 2 strings"),
    ({"metadata": "x"}, TypeError, "metadata must be a dict"),
    ({"on_step": 3}, TypeError, "on_step must be a function"),
])
def test_play_checks_its_arguments_before_the_game(kwargs, error, words):
    from tronlab import play
    with pytest.raises(error, match=words):
        play(padded("1...2"), [lambda b, p: 1, lambda b, p: 3], **kwargs)


def test_play_wants_a_list_of_bots():
    from tronlab import play
    with pytest.raises(TypeError, match="bots must be a list"):
        play(padded("1...2"), 5)


def test_random_map_takes_numpy_fractions():
    from tronlab import random_map
    a = random_map(10, 10, density=np.float32(0.25), rng=3)
    b = random_map(10, 10, density=0.25, rng=3)
    assert a == b
    with pytest.raises(TypeError, match="density"):      # a bool is not a fraction
        random_map(10, 10, density=True, rng=3)


LINE = np.array([[1, 1, 1, 1, 1],
                 [1, 2, 0, 3, 1],
                 [1, 1, 1, 1, 1]])      # '1.2' padded: heads at flat 6 and 8


def test_a_living_head_must_stand_on_its_own_trail():
    cells = LINE.copy()
    cells[1, 1] = FREE                  # the kernels would count (0, 0, 0, 0) territory here
    with pytest.raises(BoardError, match=r"living player 0 at \(0, 0\) .* free .* trail \(2\)"):
        Board(cells, [6, 8])
    with pytest.raises(BoardError, match="player 0's trail"):
        Board(LINE, [6, 6], alive=[False, True])    # p1's head on p0's square


def test_two_living_heads_cannot_share_a_square():
    with pytest.raises(BoardError, match=r"players 0 and 1 .* same square \(0, 0\)"):
        Board(LINE, [6, 6])


def test_a_dead_head_on_a_freed_square_is_still_legal():
    cells = LINE.copy()
    cells[1, 1] = FREE                  # codingame: a dead player's trail is removed
    b = Board(cells, [6, 8], alive=[False, True])
    assert b.legal_moves(1) == [3]


@pytest.mark.parametrize("value, words", [(258, "found 258"), (-1, "found -1"),
                                          (0.9, "whole numbers, found 0.9"),
                                          (float("nan"), "whole numbers")])
def test_cells_must_be_whole_codes_in_range(value, words):
    cells = LINE.astype(float) if isinstance(value, float) else LINE.copy()
    cells[1, 2] = value                 # numpy would wrap 258 to 2 and cut 0.9 to 0
    with pytest.raises(BoardError, match=words):
        Board(cells, [6, 8])
    with pytest.raises(BoardError, match="cells must hold numbers"):
        Board(np.array([["1"] * 5] * 3), [6, 8])


def test_heads_must_be_whole_numbers():
    with pytest.raises(BoardError, match="heads must hold whole numbers, found 6.7"):
        Board(LINE, [6.7, 8])


def test_whole_floats_and_other_int_types_still_make_boards():
    b = Board(LINE.astype(float), np.array([6.0, 8.0]))
    assert b.cells.dtype == np.uint8 and b.heads.dtype == np.int64
    assert b == Board(LINE.astype(np.int16), [6, 8]) == Board.from_ascii("1.2")


def test_components_and_board_at_name_coordinates_that_are_not_squares():
    from tronlab.grid.flood import Components
    board = Board.from_ascii("1....\n##.##\n2....")
    comps = Components(board)
    with pytest.raises(TypeError, match="x must be an int, got float 2.0"):
        comps.fill(2.0, 1)
    with pytest.raises(ValueError, match=r"\(99, 0\) is off the board \(5 wide, 3 high\)"):
        comps.size_at(99, 0)
    with pytest.raises(TypeError, match="x must be an int, got float 0.5"):
        board.at(0.5, 0)
    assert comps.size_at(np.int64(4), 0) == 9 and board.at(-1, 0) == WALL


# ---------------------------------------------------------------------------
# a board changed after construction (the public functions must not crash)
# ---------------------------------------------------------------------------
def _arena():
    from tronlab import load_builtin
    return load_builtin("arena")


def test_reassigned_cells_are_checked_and_converted_like_the_constructor_s():
    import tronlab
    for dtype in (float, np.int64):
        b = _arena()
        b.cells = b.cells.astype(dtype)
        assert b.cells.dtype == np.uint8 and tronlab.flood_fill(b) == 167
    b = _arena()
    with pytest.raises(BoardError, match="WALL"):
        b.cells = np.zeros_like(b.cells)
    with pytest.raises(BoardError, match="whole numbers"):
        b.cells = b.cells + 0.5
    assert tronlab.flood_fill(b) == 167          # a refused assignment leaves the board


@pytest.mark.parametrize("heads, words", [([10**9, 5], "outside"), ([-1, 5], "outside"),
                                          ([1.5, 5], "whole numbers"), ([20], "one entry")])
def test_reassigned_heads_are_checked(heads, words):
    b = _arena()
    before = b.heads.copy()
    with pytest.raises(BoardError, match=words):
        b.heads = np.array(heads)
    assert np.array_equal(b.heads, before)


@pytest.mark.parametrize("alive", [["no", "yes"], ["", "x"], [2, 1], [0.5, 1.0]])
def test_alive_holds_true_or_false(alive):
    b = _arena()
    with pytest.raises(BoardError, match="True/False"):
        Board(b.cells, b.heads, alive=alive)
    with pytest.raises(BoardError, match="True/False"):
        b.alive = alive
    assert Board(b.cells, b.heads, alive=[1, 0]).alive.tolist() == [True, False]
    b.alive = np.array([True, False])
    assert b.alive.tolist() == [True, False]


@pytest.mark.parametrize("change, words", [
    (lambda b: b.heads.__setitem__(0, 10**9), "head of player 0 is flat index 1000000000"),
    (lambda b: b.heads.__setitem__(0, -3), "head of player 0 is flat index -3"),
    (lambda b: b.heads.__setitem__(1, 0), "not on the playing area"),
    (lambda b: b.cells.__setitem__((0, slice(None)), 0), "border has a free square"),
    (lambda b: b.cells.__setitem__((slice(None), -1), 0), "border has a free square"),
])
def test_public_functions_recheck_a_board_changed_in_place(change, words):
    import tronlab
    from tronlab.grid import voronoi
    b = _arena()
    change(b)
    for f in (tronlab.flood_fill, voronoi.territory, tronlab.chamber_score):
        with pytest.raises(BoardError, match=words):
            f(b)


def test_in_place_moves_and_trails_stay_legal():
    """What bots and the engine do in place (a trail on a playing square, a head
    moved there) passes the re-check."""
    import tronlab
    b = _arena()
    before = tronlab.flood_fill(b)
    square = int(b.heads[0]) + 1
    b.flat[square] = TRAIL
    b.heads[0] = square
    # the open room: every free square is reachable, one fewer than before the move
    assert tronlab.flood_fill(b) == b.free_count() == before - 1 == 166


@pytest.mark.parametrize("heads", [[(0, 0), (2, 0)], [[6], [9]], 6])
def test_heads_must_be_one_flat_index_per_player(heads):
    # before: flattened, so (x, y) pairs were read as four heads at flat indices x0, y0,
    # x1, y1 ("head of player 0 (flat index 0) is on the border"), a column as two heads
    # and a single number as a 1-player board
    b = padded()
    with pytest.raises(BoardError, match=r"heads must be one flat index per player .*"
                                         r"board\.index\(x, y\)"):
        Board(b.cells, heads)
    with pytest.raises(BoardError, match="one flat index per player"):
        b.copy().heads = heads


def test_a_tab_inside_an_ascii_row_is_refused_like_parse_map_refuses_it():
    """A tab in a row is no square (parse_map says so); before, parse_ascii read it as
    four free squares and "1\\t.2" became a 7x1 board.  A tab of indentation still
    indents."""
    from tronlab import parse_ascii, parse_map
    with pytest.raises(BoardError, match=r"unknown character '\\t' at x=1, y=0"):
        parse_ascii("1\t.2")
    with pytest.raises(BoardError, match=r"unknown character '\\t' at x=1, y=0"):
        parse_map("4 1\n1\t.2\n")
    assert parse_ascii("\t1.\n\t.2").cells.shape == (4, 4)


@pytest.mark.parametrize("text, char, x, y, owner, players", [
    ("1a.c2", "c", 3, 0, 3, "players 1, 2"),
    ("1..\n.2d\n...", "d", 2, 1, 4, "players 1, 2"),
    ("1.\n.d\n2.\n3b", "d", 1, 1, 4, "players 1, 2, 3"),
])
def test_a_trail_letter_of_a_player_the_board_lacks_is_refused(text, char, x, y, owner, players):
    """'c' is player 3's trail; on a board whose heads are 1 and 2 it belonged to no one
    and was kept silently as a square of a player that does not exist."""
    with pytest.raises(BoardError) as err:
        Board.from_ascii(text)
    message = str(err.value)
    assert f"{char!r} at x={x}, y={y} (row {y}, column {x})" in message
    assert f"trail of player {owner}" in message and f"has {players} " in message


def test_trail_letters_of_existing_players_and_dead_heads_still_parse():
    assert Board.from_ascii("1a.b2").n_players == 2
    assert Board.from_ascii("1a.c2\n..C..").n_players == 3     # a dead head makes player 3
