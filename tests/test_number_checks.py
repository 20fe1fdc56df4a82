"""One test for "a whole number, not a bool" and "a real number, not a bool":
``tronlab.tron.values.is_whole`` / ``is_real``, and the entry points that use them.

Numpy integer and floating scalars (``np.int64(3)`` from an array, ``np.float32(0.5)``)
are accepted wherever a Python int or float is; ``np.bool_`` is refused wherever ``bool``
is, with the message a Python bool gets.  Decided for the predicates: a
:class:`~fractions.Fraction` is a real number (``numbers.Real``, as the registry's time
check always took it), a :class:`~decimal.Decimal` is not; NaN and the infinities are
real numbers, and each caller's own range check refuses them where it did before.
"""

import json
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from tronlab.tron.values import is_real, is_whole

INTS = [0, 7, -3, 2**70] + [t(5) for t in (np.int8, np.int16, np.int32, np.int64,
                                         np.uint8, np.uint16, np.uint32, np.uint64)]
FLOATS = [0.5, -2.0, float("nan"), float("inf"), np.float16(1.5), np.float32(0.25),
          np.float64(3.0), np.longdouble(1.0), Fraction(1, 3)]
NEITHER = [True, False, np.bool_(True), np.bool_(False), "3", b"3", None, 1j,
           np.complex128(1), Decimal("1"), np.array(3), np.array([3]), [3], (3,)]


@pytest.mark.parametrize("x", INTS, ids=repr)
def test_whole_numbers_are_whole_and_real(x):
    assert is_whole(x) is True and is_real(x) is True


@pytest.mark.parametrize("x", FLOATS, ids=repr)
def test_floats_are_real_not_whole(x):
    assert is_real(x) is True and is_whole(x) is False


@pytest.mark.parametrize("x", NEITHER, ids=repr)
def test_bools_strings_and_the_rest_are_neither(x):
    assert is_whole(x) is False and is_real(x) is False


# ---- entry points that refused numpy scalars before ----------------------------------------

def _script(move):
    return lambda board, player: move


def test_play_takes_a_numpy_max_turns_and_refuses_np_bool():
    from tronlab import Board, play
    board = Board.from_ascii("#######\n#1...2#\n#.....#\n#######")
    rec = play(board, [_script("down"), _script("down")], max_turns=np.int64(1),
               time_limit=np.float32(5), rng=np.uint8(3))
    assert rec.outcome.turns == 1 and rec.metadata["seed"] == 3
    assert type(rec.metadata["max_turns"]) is int
    json.dumps(rec.metadata)                           # the record stays JSON
    for bad in (True, np.bool_(True)):
        with pytest.raises(ValueError, match="max_turns is a whole number >= 0 or None"):
            play(board, [_script("down")] * 2, max_turns=bad)


def test_tournament_jobs_and_schedule_depth_take_numpy_ints():
    from tronlab.arena.schedule import gauntlet, round_robin
    from tronlab.arena.pool import process_pool
    pool = process_pool(np.int64(1), warm=())
    pool.shutdown()
    plan = round_robin(["random", "hugger"], "arena", depth=np.int64(2), seeds=np.int32(1))
    assert plan and all(type(g.depth) is int and g.depth == 2 for g in plan)
    assert gauntlet("random", ["hugger"], "arena", depth=np.uint8(3))[0].depth == 3
    for bad in (True, np.bool_(True)):
        with pytest.raises(ValueError, match="jobs is a whole number >= 1"):
            process_pool(bad)
        with pytest.raises(ValueError, match="depth is a whole number of turns"):
            round_robin(["random", "hugger"], "arena", depth=bad)


def test_bots_take_numpy_options():
    from tronlab.tron.bots.nash import NashBot
    from tronlab.tron.bots.search import ChamberBot
    bot = NashBot(focus=np.int64(8), urgent=np.float32(1.5))
    assert bot.focus == 8 and type(bot.focus) is int and bot.urgent == 1.5
    assert ChamberBot(contempt=np.float32(0.5)).contempt == 0.5
    for bad in (True, np.bool_(True)):                  # the wrong type: a TypeError
        with pytest.raises(TypeError, match="focus must be an int >= 0"):
            NashBot(focus=bad)
        with pytest.raises(TypeError, match="urgent must be a number >= 1"):
            NashBot(urgent=bad)
        with pytest.raises(TypeError, match="contempt must be a number from 0 to 1"):
            ChamberBot(contempt=bad)
    with pytest.raises(ValueError, match="contempt must be a number from 0 to 1"):
        ChamberBot(contempt=np.float32("nan"))        # NaN: refused by the range, as before
    for bad in (float("nan"), np.float32("nan"), float("inf")):     # accepted before
        with pytest.raises(ValueError, match="urgent must be a number >= 1"):
            NashBot(urgent=bad)


def test_clock_and_program_seconds_take_numpy_numbers():
    from tronlab.jit.clock import NO_DEADLINE, deadline_after, now_ns
    from tronlab.runner.external import ExternalBot
    from tronlab.runner.program import check_seconds
    for seconds in (np.float32(0.5), np.int64(1), np.float16(2)):
        assert now_ns() < deadline_after(seconds) < NO_DEADLINE
        assert check_seconds("time_limit", seconds) == seconds
    for bad in (True, np.bool_(True)):
        with pytest.raises(TypeError, match="a time budget is a number of seconds, got bool"):
            deadline_after(bad)
        with pytest.raises(ValueError, match="time_limit must be a positive number of seconds"):
            check_seconds("time_limit", bad)
    bot = ExternalBot([sys.executable, "-c", "pass"], time_limit=np.float32(0.5),
                      first_time_limit=np.int64(2))
    assert (bot.time_limit, bot.first_time_limit) == (0.5, 2.0)
    assert type(bot.time_limit) is float and type(bot.first_time_limit) is float
    with pytest.raises(ValueError, match="first_time_limit must be a positive number of sec"):
        ExternalBot([sys.executable, "-c", "pass"], first_time_limit=np.bool_(True))
    with pytest.raises(ValueError, match="a time budget must be >= 0 seconds"):
        deadline_after(np.float32("nan"))
    with pytest.raises(ValueError, match="time_limit must be a positive number of seconds"):
        check_seconds("time_limit", np.float32("nan"))


def test_course_helpers_take_numpy_ints():
    from tronlab import Board
    from tronlab.course import hint, show_source
    from tronlab.course.search_trace import trace_alphabeta
    from tronlab.tron.values import is_whole as shown
    assert hint("flood_fill", np.int64(1)).level == 1
    source = show_source(shown, fold=np.int64(3))
    assert source.fold == 3 and type(source.fold) is int and "def is_whole" in source.text
    trace = trace_alphabeta(Board.from_ascii("#####\n#1.2#\n#####"), np.int64(1))
    assert type(trace.depth) is int and trace.depth == 1
    for bad in (True, np.bool_(True)):          # a bool is the wrong type: TypeError
        with pytest.raises(TypeError, match="flood_fill has hints 1 to"):
            hint("flood_fill", bad)
        with pytest.raises(TypeError, match="fold is a number of lines"):
            show_source(shown, fold=bad)
        with pytest.raises(TypeError, match="depth must be an int from 1 to 8"):
            trace_alphabeta(Board.from_ascii("#####\n#1.2#\n#####"), bad)


def test_map_editor_and_widget_take_numpy_numbers():
    pytest.importorskip("anywidget")
    from tronlab import load_builtin, play
    from tronlab.map_editor import MapEditor
    from tronlab.widgets import BoardWidget
    ed = MapEditor(np.int64(6), np.uint8(5))
    assert (ed.width, ed.height) == (6, 5)
    board = load_builtin("arena")
    rec = play(board, [_script("up"), _script("down")], max_turns=2)
    w = BoardWidget.replay(rec, fps=np.float32(12), cell_px=np.int16(10))
    assert w.fps == 12 and w.cell_px == 10
    for bad in (True, np.bool_(True)):
        with pytest.raises(TypeError, match="width must be an int from 3 to"):
            MapEditor(bad, 5)
        with pytest.raises(TypeError, match="fps must be a number from 0.1 to 120 "):
            BoardWidget.replay(rec, fps=bad)


def _depth_entry_points():
    """``(label, call(value), message)``: the searches' depth-like options, whose old checks
    (``isinstance(x, int)``) took True as 1 and refused numpy ints."""
    import tronlab
    from tronlab.tron.bots.nash import NashBot
    from tronlab.tron.bots.search import ChamberBot
    from tronlab.tron.c_reference import reference_search
    from tronlab.tron.endgame import solve_endgame
    from tronlab.tron.longest_path import longest_path
    from tronlab.tron.nash_searcher import NashSearcher
    from tronlab.tron.root_matrix import RootMatrixSearcher
    from tronlab.tron.search import Searcher
    b = tronlab.Board.from_ascii("#######\n#1....#\n#....2#\n#######")
    return [
        ("Searcher tt_bits", lambda v: Searcher(tt_bits=v), "tt_bits must be an int from"),
        ("Searcher depth", lambda v: Searcher().search_depth(b, 0, v),
         "depth must be an int from 1"),
        ("ChamberBot depth", lambda v: ChamberBot(depth=v), "depth must be a positive int"),
        ("ChamberBot endgame_depth", lambda v: ChamberBot(endgame_depth=v),
         "endgame_depth must be a positive int"),
        ("NashBot depth", lambda v: NashBot(depth=v), "depth must be an int from 1"),
        ("NashSearcher hint_bits", lambda v: NashSearcher(hint_bits=v),
         "hint_bits must be an int from"),
        ("NashSearcher depth", lambda v: NashSearcher().search_depth(b, 0, v),
         "depth must be an int from 1"),
        ("RootMatrixSearcher near", lambda v: RootMatrixSearcher(near=v), "near must be"),
        ("longest_path", lambda v: longest_path(b, 0, max_depth=v), "max_depth must be"),
        ("solve_endgame", lambda v: solve_endgame(b, 0, max_depth=v),
         "max_depth must be an int from 1"),
        ("reference_search", lambda v: reference_search(b, depth=v),
         "depth must be an int from 0"),
    ]


@pytest.mark.parametrize("k", range(11))
def test_search_depths_take_numpy_ints_and_refuse_bools(k):
    label, call, message = _depth_entry_points()[k]
    call(np.int64(8 if "bits" in label else 2))            # refused before
    for bad in (True, np.bool_(True), 2.5, "2"):           # True was taken as 1 before
        # the wrong type is a TypeError at every entry point (five raised ValueError)
        with pytest.raises(TypeError, match=message):
            call(bad)
    with pytest.raises(ValueError, match=message):
        call(-1)


def test_check_number_says_each_kind_of_range():
    """``low=None`` with a ``high`` raised a TypeError from the format string itself."""
    from tronlab.tron.values import check_number

    assert check_number(-5, "x", None, high=1) == -5.0
    for low, high, text in [(0, None, "a number >= 0"), (None, None, "a finite number"),
                            (None, 1, "a number <= 1"), (0, 1, "a number from 0 to 1")]:
        with pytest.raises(ValueError, match=f"x must be {text}, got inf"):
            check_number(float("inf"), "x", low, high=high)
