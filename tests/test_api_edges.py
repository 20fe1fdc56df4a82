"""Edges of the public API a contest programmer hits first: boards changed in place,
time budgets and deadlines at their extremes, the searches' ``max_depth``."""

import subprocess
import sys

import numpy as np
import pytest

import tronlab
from tronlab.jit.clock import NO_DEADLINE, deadline_after
from tronlab.tron.endgame import Endgame
from tronlab.tron.longest_path import longest_path
from tronlab.tron.nash_searcher import NashSearcher

ROOM = """
#######
#1....#
#..#..#
#....2#
#######
"""

# Every entry point that hands a board to a kernel, on a board whose wall border was
# opened in place.  Before: the kernels walked off the grid (a segfault or a corrupted
# heap, so the calls run in a child process).
_OPENED_BORDER = r'''
import tronlab
from tronlab.tron.evaluate import evaluate
from tronlab.tron.longest_path import longest_path
from tronlab.tron.nash_searcher import NashSearcher
calls = {
    "negamax": lambda b: tronlab.negamax(b, 0, depth=2),
    "Searcher.search": lambda b: tronlab.Searcher().search(b, 0, max_depth=2),
    "NashSearcher.search": lambda b: NashSearcher().search(b, 0, max_depth=2),
    "solve_endgame": lambda b: tronlab.solve_endgame(b, 0),
    "longest_path": lambda b: longest_path(b, 0),
    "articulation_points": tronlab.articulation_points,
    "turn_order_territory": tronlab.turn_order_territory,
    "is_separated": tronlab.is_separated,
    "evaluate": lambda b: evaluate(b, 0),
}
for name, call in calls.items():
    b = tronlab.Board.from_ascii("1...\n...2")
    b.cells[0, :] = 0
    b.cells[:, 0] = 0
    try:
        call(b)
        print(name, "accepted")
    except tronlab.BoardError as e:
        print(name, "border" if "border" in str(e) else e)
'''


def test_every_search_and_analysis_refuses_a_board_whose_border_was_opened_in_place():
    out = subprocess.run([sys.executable, "-c", _OPENED_BORDER], capture_output=True,
                         text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert len(lines) == 9 and all(line.endswith(" border") for line in lines), out.stdout


def test_an_endless_time_budget_means_no_deadline():
    assert deadline_after(float("inf")) == NO_DEADLINE
    assert deadline_after(1e12) == NO_DEADLINE          # before: OverflowError
    assert deadline_after(1e9) < NO_DEADLINE
    b = tronlab.Board.from_ascii(ROOM)
    for t in (float("inf"), 1e12):
        assert tronlab.Searcher().search(b, 0, time=t, max_depth=2)[1] in b.legal_moves(0)
        assert NashSearcher().search(b, 0, time=t, max_depth=2)[1] in b.legal_moves(0)
        assert tronlab.solve_endgame(b, 0, time=t) == tronlab.solve_endgame(b, 0)


@pytest.mark.parametrize("search", [
    lambda b, d: tronlab.Searcher().search(b, 0, deadline=d, max_depth=2),
    lambda b, d: NashSearcher().search(b, 0, deadline=d, max_depth=2),
    lambda b, d: Endgame().solve(b, 0, deadline=d),
], ids=["Searcher", "NashSearcher", "Endgame"])
def test_a_deadline_is_checked_and_a_far_one_means_none(search):
    b = tronlab.Board.from_ascii(ROOM)
    assert search(b, 2 ** 70)[1] in b.legal_moves(0)    # before: OverflowError
    assert search(b, np.int64(NO_DEADLINE))[1] in b.legal_moves(0)
    for bad in ("soon", True, [1]):
        with pytest.raises(TypeError, match="deadline is an absolute time in nanoseconds"):
            search(b, bad)                              # before: int('soon') or taken as 1
    with pytest.raises(ValueError, match="deadline is an absolute time in nanoseconds"):
        search(b, float("nan"))


@pytest.mark.parametrize("searcher", [tronlab.Searcher, NashSearcher])
def test_the_searches_check_max_depth(searcher):
    b = tronlab.Board.from_ascii(ROOM)
    for bad in (0, -1, 1.5, None, True, "3"):
        # before: 0 and -1 searched nothing and True one turn; 1.5 and None raised
        # from inside range().  A wrong type is a TypeError, a bad int a ValueError
        error = ValueError if bad in (0, -1) and bad is not True else TypeError
        with pytest.raises(error, match="max_depth must be a positive int"):
            searcher().search(b, 0, max_depth=bad)
    assert searcher().search(b, 0, max_depth=np.int64(2))[1] in b.legal_moves(0)
    assert searcher().search(b, 0, max_depth=1000)[1] in b.legal_moves(0)   # its own limit


def test_longest_path_checks_its_arguments():
    b = tronlab.Board.from_ascii(ROOM)
    with pytest.raises(TypeError, match="expected a tronlab Board"):
        longest_path(b.cells, 0)                        # before: AttributeError
    with pytest.raises(ValueError, match="player 2 does not exist"):
        longest_path(b, 2)                              # before: IndexError
    with pytest.raises(TypeError, match="time must be a number of seconds"):
        longest_path(b, 0, time="1")
    with pytest.raises(ValueError, match="time must be >= 0"):
        longest_path(b, 0, time=float("nan"))
    assert longest_path(b, 0).length == tronlab.solve_endgame(b, 0)[0]


def test_solve_endgame_says_a_player_of_the_wrong_type_is_one():
    b = tronlab.Board.from_ascii(ROOM)
    for bad in ("1", 1.0, None, True):
        with pytest.raises(TypeError, match="player must be an int"):
            tronlab.solve_endgame(b, bad)               # before: a ValueError
    with pytest.raises(ValueError, match="player 2 does not exist: the board has players 0..1"):
        tronlab.solve_endgame(b, 2)


@pytest.mark.parametrize("start", [(0.5, 0), (True, 0), ("3", 0), (np.float64(1.0), 0)])
def test_capture_starts_must_be_int_squares(start):
    from tronlab.capture import reset
    # a TypeError: a wrong type (it was a ValueError; before that int() made it (0, 0))
    with pytest.raises(TypeError, match=r"start must be an \(x, y\) pair of ints"):
        reset(2, starts=[start, (1, 1)], width=5, height=5)
    with pytest.raises(TypeError, match=r"starts must be \(x, y\) pairs, got \[3, \(1, 1\)\]"):
        reset(2, starts=[3, (1, 1)], width=5, height=5)          # a ValueError before
    with pytest.raises(ValueError, match=r"start \(5, 0\) is off the 5x5 grid"):
        reset(2, starts=[(5, 0), (1, 1)], width=5, height=5)    # a wrong value stays one
    assert reset(2, starts=[(np.int64(0), 0), (1, 1)], width=5, height=5).positions == \
        ((0, 0), (1, 1))


def test_the_capture_bots_check_their_options():
    from tronlab.capture import NearestBot, RandomBot, nearest_target, state_from_ascii
    view = state_from_ascii("0....\n.....\n....1", positions={0: (0, 0), 1: (4, 2)}).view()
    for late in (float("nan"), -0.5, 2):
        with pytest.raises(ValueError, match="late must be a number from 0 to 1"):
            NearestBot(late=late)                       # before: taken, and never/always late
        with pytest.raises(ValueError, match="late must be a number from 0 to 1"):
            nearest_target(view, 0, late=late)
    with pytest.raises(TypeError, match="late must be a number"):
        NearestBot(late="0.5")
    for penalty in (-1, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="lone_penalty must be a number of squares >= 0"):
            NearestBot(lone_penalty=penalty)
    for chance in (2, -0.1, float("nan")):
        with pytest.raises(ValueError, match="back_chance must be a number from 0 to 1"):
            RandomBot(1, back_chance=chance)
    assert NearestBot(late=1, lone_penalty=0)(view, 0) == nearest_target(view, 0, late=1.0,
                                                                           lone_penalty=0)
    assert RandomBot(1, back_chance=1)(view, 0)[0] == "BACK"


def test_players_may_be_a_numpy_array_of_two():
    b = tronlab.Board.from_ascii(ROOM)
    pair = np.array([1, 0])                              # before: "must be two player numbers"
    assert tronlab.territory(b, pair) == tronlab.territory(b, (1, 0))
    assert np.array_equal(tronlab.owner_map(b, pair), tronlab.owner_map(b, (1, 0)))
    assert tronlab.is_separated(b, pair) is False
    for bad in (np.array([0, 1, 1]), np.array([[0, 1]]), np.array([0.0, 1.0])):
        with pytest.raises((TypeError, ValueError), match="player"):
            tronlab.territory(b, bad)


def test_a_board_checks_facing_and_starts_like_its_other_arrays():
    b = tronlab.Board.from_ascii(ROOM)
    for facing in ([5, 0], [1.5, 0], [300, 0]):     # before: kept, cut to 1, OverflowError
        with pytest.raises(tronlab.BoardError, match=r"facing \(-1: none, 0-3 a move\) must"):
            tronlab.Board(b.cells.copy(), b.heads, facing=facing)
    with pytest.raises(tronlab.BoardError, match=r"starts \(flat indices\) must hold whole "
                                                  r"numbers from 0 to 62, found 1000"):
        tronlab.Board(b.cells.copy(), b.heads, starts=[1000, 0])   # before: kept
    ok = tronlab.Board(b.cells.copy(), b.heads, facing=[3, -1], starts=[10.0, b.heads[1]])
    assert ok.facing.tolist() == [3, -1] and ok.starts.tolist() == [10, b.heads[1]]


def _bool_options():
    from tronlab.tron.bots.basic import HuggerBot
    from tronlab.tron.bots.nash import NashBot
    from tronlab.tron.bots.search import ChamberBot, SearchBot
    from tronlab.tron.nash_searcher import nash_search
    b = tronlab.Board.from_ascii(ROOM)
    yield "tt", lambda v: tronlab.Searcher(tt=v)
    yield "ordering", lambda v: tronlab.Searcher(ordering=v)
    yield "tt", lambda v: tronlab.negamax(b, 0, depth=1, tt=v)
    yield "ordering", lambda v: tronlab.negamax(b, 0, depth=1, ordering=v)
    for name in ("prune", "ordering", "hybrid", "table", "killers"):
        yield name, lambda v, name=name: NashSearcher(**{name: v})
    yield "prune", lambda v: nash_search(b, 0, depth=1, prune=v)
    yield "tt", lambda v: SearchBot(tt=v)
    yield "verbose", lambda v: SearchBot(verbose=v)
    yield "penalize_battlefront", lambda v: ChamberBot(penalize_battlefront=v)
    yield "sample", lambda v: NashBot(sample=v)
    yield "table", lambda v: NashBot(table=v)
    yield "random_ties", lambda v: HuggerBot(random_ties=v)


@pytest.mark.parametrize("name, make", list(_bool_options()),
                         ids=[f"{n}-{i}" for i, (n, _) in enumerate(_bool_options())])
def test_the_searches_and_bots_take_on_off_options_as_bools(name, make):
    for bad in (None, "yes", "no", 2, 0, 1.0, [True]):
        # before: taken by truthiness, so None and 0 switched the option off, 'no' on
        with pytest.raises(TypeError, match=f"{name} must be True or False, got"):
            make(bad)
    make(np.bool_(False))
    make(True)


def test_the_capture_entry_points_tell_a_wrong_type_from_a_wrong_value():
    from tronlab.capture import NearestBot, RandomBot, nearest_target, reset
    from tronlab.capture.paths_bot import PathBot
    from tronlab.capture.rects import scan_rectangles
    from tronlab.capture.rects_bot import RectangleBot
    state = reset(2, width=8, height=5, rng=3)
    view = state.view()
    calls = {"nearest_target": nearest_target, "NearestBot": NearestBot(),
             "RandomBot": RandomBot(1), "RectangleBot": RectangleBot(), "PathBot": PathBot()}
    for name, call in calls.items():
        for bad in (None, state.owner, {"positions": [(0, 0)]}):
            # before: nearest_target(None, 0) an AttributeError, the others alike
            with pytest.raises(TypeError, match="view must be a capture View or State"):
                call(bad, 0)
        for bad in ("0", 0.0, True, None):
            with pytest.raises(TypeError, match="player must be an int 0 to 3, got"):
                call(view, bad)                          # before: a ValueError or IndexError
        for bad in (-1, 2, 4):
            with pytest.raises(ValueError, match="player|not on this grid"):
                call(view, bad)                          # before: RandomBot an IndexError
    with pytest.raises(TypeError, match="player must be an int 0 to 3, got str '0'"):
        scan_rectangles(state.owner, "0", (0, 0), jit=False)   # before: a ValueError
    with pytest.raises(ValueError, match="player 3 is not on this grid"):
        state.trail(3)                                   # before: IndexError
    assert state.trail(np.int64(1)) == state.trail(1)


def test_nash_search_depth_checks_the_prior():
    b = tronlab.Board.from_ascii(ROOM)
    for bad in ([0.5, 0.5, 0, 0], np.zeros((1, 4)), np.zeros((2, 3)), np.zeros((3, 4)),
                [["a"] * 4] * 2, np.full((2, 4), np.nan), np.zeros((2, 4), bool), "prior"):
        # before: a numba typing error, a read past the array (1x4), or numpy's message
        with pytest.raises(ValueError, match="prior must be None or 2 rows of 4 numbers"):
            NashSearcher().search_depth(b, 0, 1, prior=bad)
    want = NashSearcher().search_depth(b, 0, 2, prior=np.array([[0, 1, 0, 0], [-1] * 4]))
    wide = np.zeros((2, 8))
    wide[:, ::2] = [[0, 1, 0, 0], [-1] * 4]            # not contiguous, ints: copied
    got = NashSearcher().search_depth(b, 0, 2, prior=wide[:, ::2].astype(int))
    assert got[0] == want[0] and np.array_equal(got[1], want[1])
    assert NashSearcher().search_depth(b, 0, 2, prior=wide[:, ::2])[0] == want[0]


def test_a_board_keeps_its_own_copy_of_the_cells_it_is_given():
    cells = tronlab.Board.from_ascii(ROOM).cells.copy()
    heads = tronlab.Board.from_ascii(ROOM).heads
    assert cells[2, 3] == cells[3, 3] == tronlab.FREE
    a, b = tronlab.Board(cells, heads), tronlab.Board(cells, heads)
    a.cells[2, 3] = 2                                    # a's own array changes a only
    assert b.cells[2, 3] == 0 and cells[2, 3] == 0      # before: b and cells changed with a
    cells[3, 3] = 1                                      # nor does the caller's array reach them
    assert a.cells[3, 3] == 0 and b.cells[3, 3] == 0
    view = np.vstack([cells, cells])[:cells.shape[0]]   # a C-contiguous view of another array
    assert not np.shares_memory(tronlab.Board(view, heads).cells, view)
    b.cells = cells                                      # assigning copies too
    assert not np.shares_memory(b.cells, cells)


def _strip(width):
    """Padded cells of a ``width`` x 1 board, the heads on its first two squares."""
    cells = np.ones((3, width + 2), np.uint8)
    cells[1, 1:-1] = 0
    cells[1, 1:3] = (2, 3)
    return cells, [width + 3, width + 4]


def test_a_board_side_is_capped_like_random_maps_before_anything_is_read():
    from tronlab.tron.board import MAX_SIDE
    from tronlab.tron.maps import MAX_SIDE as maps_side
    assert maps_side == MAX_SIDE == 1000                 # one limit for Board and random_map
    with pytest.raises(tronlab.BoardError, match=r"make a 1001x1 board, larger than the "
                                                  r"1000x1000 boards"):
        tronlab.Board(*_strip(MAX_SIDE + 1))             # before: accepted
    with pytest.raises(tronlab.BoardError, match="larger than the 1000x1000"):
        tronlab.Board(_strip(MAX_SIDE + 1)[0].tolist(), _strip(MAX_SIDE + 1)[1])
    assert tronlab.Board(*_strip(MAX_SIDE)).width == MAX_SIDE
    huge = np.broadcast_to(np.uint8(1), (10**5, 10**5))  # 10 GB if it were read or copied
    with pytest.raises(tronlab.BoardError, match="make a 99998x99998 board, larger"):
        tronlab.Board(huge, [10**5 + 1, 10**5 + 2])
