"""The exercise checkers (X4): solutions pass, stubs say "not implemented yet", typical mistakes
are caught with the right hint, and the checkers' expected answers agree with independent
oracles (networkx, brute force) and with the package's kernels."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from strategies import EXAMPLES, boards, grid_graph, small_boards

import wrong_solutions as wrong
from tronlab import Board
from tronlab.grid import reference
from tronlab.tron import c_reference, spacefill
from tronlab.course import TurnGame, checker, exercises, timelimit, variants
from tronlab.course import boards as course_boards
from tronlab.course.checker import (BAD_ARGUMENT, CHANGED_INPUT, CRASH, NOT_IMPLEMENTED, PASSED,
                                    TIMEOUT, WRONG, WRONG_TYPE, Case, is_stub, run_check)
from tronlab.course.ex_flood_fill import TINY_FLAT_ROWS
from tronlab.course.ex_flood_fill import _same_partition as same_partition
from tronlab.course.ex_search import alphabeta, minimax
from tronlab.course.progress import EXERCISE_NOTEBOOKS

ROOT = Path(__file__).resolve().parent.parent
#: every exercise pair, from the folders: NN_topic for exercises/NN_topic_exercise.ipynb
NOTEBOOKS = sorted(p.name.removesuffix("_exercise.ipynb")
                   for p in (ROOT / "exercises").glob("*_exercise.ipynb"))
#: notebook -> its checked functions, in the order the notebook asks for them
CHECKS: dict = {}
for _function, _home in EXERCISE_NOTEBOOKS.items():
    CHECKS.setdefault(_home.removesuffix("_exercise.ipynb"), []).append(_function)
#: functions of the learner's namespace a check also takes, by keyword
CHECK_HELPERS = {"fit_weights": ("separation_sample",)}
#: fewest cases a check runs: 40 boards, grids or games, less where one case is a game record
#: (separation_sample) or a whole fit (fit_weights: the hand-made games, then the seeded ones)
MIN_CASES = {"separation_sample": 30, "fit_weights": 2}


# ---------------------------------------------------------------------------
# notebooks
# ---------------------------------------------------------------------------
def notebook_path(folder, name):
    """``exercises/NN_topic_exercise.ipynb`` or ``solutions/NN_topic_solution.ipynb``."""
    return ROOT / folder / f"{name}_{folder[:-1]}.ipynb"


def cells(folder, name):
    return json.loads(notebook_path(folder, name).read_text())["cells"]


def tagged(cell, tag):
    return tag in cell.get("metadata", {}).get("tags", [])


def src_of(cell):
    return "".join(cell["source"])


def learner_namespace(folder, name):
    """Run a notebook's set-up and answer cells; return the namespace with the functions."""
    ns: dict = {}
    for cell in cells(folder, name):
        if cell["cell_type"] == "code" and (tagged(cell, "setup") or tagged(cell, "answer")):
            exec(compile("".join(cell["source"]), str(notebook_path(folder, name)), "exec"), ns)
    return ns


def check(name, fn, **kw):
    return getattr(exercises, f"check_{name}")(fn, **kw)


def check_in(ns, name):
    """check_<name> on the function of that name in a notebook's namespace."""
    return check(name, ns[name], **{h: ns[h] for h in CHECK_HELPERS.get(name, ())})


def test_every_exercise_notebook_has_its_twin_and_its_checks():
    """Each exercises/NN_topic_exercise.ipynb has solutions/NN_topic_solution.ipynb and the
    reverse, and progress() knows every pair's checks (the pair tests below take their list
    from the folders, so a new pair cannot be left out of them)."""
    solutions = sorted(p.name.removesuffix("_solution.ipynb")
                       for p in (ROOT / "solutions").glob("*_solution.ipynb"))
    assert NOTEBOOKS == solutions
    assert len(NOTEBOOKS) >= 8
    assert sorted(CHECKS) == NOTEBOOKS


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_solution_notebooks_pass_every_check(name):
    ns = learner_namespace("solutions", name)
    for fn in CHECKS[name]:
        result = check_in(ns, fn)
        assert result.passed, result.message
        assert result.status == PASSED
        assert re.search(rf"all {result.checked} \w+s passed", result.message), result.message
        assert result.checked >= MIN_CASES.get(fn, 40)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_exercise_notebooks_say_not_implemented(name):
    ns = learner_namespace("exercises", name)
    for fn in CHECKS[name]:
        result = check_in(ns, fn)
        assert not result.passed
        assert result.status == NOT_IMPLEMENTED
        assert "not implemented yet" in result.message
        assert "Traceback" not in result.message


def without_solution_mark(src):
    """A solution notebook's set-up cell as its exercise twin has it: without the
    ``solution_notebook()`` call (and its import) that keeps its checks out of progress()."""
    src = src.replace(", solution_notebook\n", "\n")
    src = src.replace("from tronlab.course import solution_notebook\n", "")
    return re.sub(r"\n\nsolution_notebook\(\)[^\n]*$", "", src)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_exercise_and_solution_notebooks_are_twins(name):
    """Cell for cell the same, tags included, apart from the title cell, the answers, the check
    cells (the solution asserts its pass) and the solution's own cells tagged solution-only
    (worked examples and asserts on its answers, which a stub exercise could not run).
    With nbval running both folders, this is the learner's path: an exercise whose answer
    cells are filled in is its solution, whose check cells assert a pass, and the untouched
    exercise says "not implemented" (the test above)."""
    ex, sol = cells("exercises", name), cells("solutions", name)
    assert not [c for c in ex if tagged(c, "solution-only")]
    extra = [c for c in sol if tagged(c, "solution-only")]
    assert all("assert " in "".join(c["source"]) for c in extra if c["cell_type"] == "code")
    sol = [c for c in sol if not tagged(c, "solution-only")]
    assert len(ex) == len(sol)
    assert sum(tagged(c, "setup") for c in ex) == 1, "one set-up cell, tagged setup"
    answers = checks = 0
    for a, b in zip(ex, sol):
        for cell in (a, b):
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [], "saved with outputs"
                assert cell["execution_count"] is None
        assert a["cell_type"] == b["cell_type"]
        assert a.get("metadata", {}).get("tags") == b.get("metadata", {}).get("tags"), \
            f"tags differ: {src_of(a)[:60]!r}"
        src_a, src_b = "".join(a["source"]), "".join(b["source"])
        if tagged(a, "answer"):
            answers += 1
            assert tagged(b, "answer")
            assert "raise NotImplementedError" in src_a and "NotImplementedError" not in src_b
            fn = src_a.split("def ", 1)[1].split("(", 1)[0]
            assert f"def {fn}(" in src_b
        elif tagged(a, "check"):
            checks += 1
            assert src_a.startswith("check_") and "assert result.passed" in src_b
            assert f"result = {src_a}\n" in src_b, "the solution checks the same call"
        elif a is not ex[0]:
            assert src_a == without_solution_mark(src_b), \
                "cells other than answers and checks must be identical"
    assert answers == checks == len(CHECKS[name])


# ---------------------------------------------------------------------------
# deliberate mistakes
# ---------------------------------------------------------------------------
MISTAKES = [
    ("flood_fill", wrong.stub_raises, NOT_IMPLEMENTED, "not implemented yet"),
    ("flood_fill", wrong.stub_pass, NOT_IMPLEMENTED, "not implemented yet"),
    ("flood_fill", wrong.stub_ellipsis, NOT_IMPLEMENTED, "not implemented yet"),
    ("flood_fill", wrong.flood_counts_head, WRONG, "counted the head"),
    ("flood_fill", wrong.flood_diagonal, WRONG, "diagonally"),
    ("flood_fill", wrong.flood_flat_rows_of_width, WRONG, "board.stride"),
    ("flood_fill", wrong.flood_over_trails, WRONG, "walked over trails"),
    ("flood_fill", wrong.flood_every_free_square, WRONG, "every free square"),
    ("flood_fill", wrong.flood_returns_list, WRONG_TYPE, "not a list"),
    ("flood_fill", wrong.flood_returns_float, WRONG_TYPE, "not a float"),
    ("flood_fill", wrong.flood_divides_by_zero, CRASH, "read the line above"),
    ("flood_fill", wrong.flood_recurses_forever, CRASH, "calls itself without end"),
    ("flood_fill", wrong.flood_marks_board, CHANGED_INPUT, "separate array"),
    ("flood_fill", wrong.flood_missing_return, WRONG_TYPE, "`return` missing"),
    ("components", wrong.components_playing_area, WRONG_TYPE, "the playing area"),
    ("components", wrong.components_flat, WRONG_TYPE, "reshape(board.cells.shape)"),
    ("components", wrong.components_bool, WRONG_TYPE, "whole numbers"),
    ("components", wrong.components_diagonal, WRONG, "only touch at a corner"),
    ("components", wrong.components_one_label, WRONG, "different regions but share a label"),
    ("components", wrong.components_labels_walls, WRONG, "must be 0"),
    ("bfs_distances", wrong.distances_off_by_one, WRONG, "off by one in distance"),
    ("bfs_distances", wrong.distances_with_stack, WRONG, "a queue"),
    ("bfs_distances", wrong.distances_diagonal, WRONG, "diagonally"),
    ("bfs_distances", wrong.distances_playing_area, WRONG_TYPE, "padded shape"),
    ("territory", wrong.territory_ties_to_player_0, WRONG, "ties must be neutral"),
    ("territory", wrong.territory_counts_heads, WRONG, "counted the head"),
    ("territory", wrong.territory_swapped, WRONG, "swapped the players"),
    ("territory", wrong.territory_returns_int, WRONG_TYPE, "two numbers"),
    ("territory", wrong.territory_three_values, WRONG_TYPE, "exactly two counts"),
    ("turn_order_territory", wrong.turn_order_ignores_first, WRONG, "starts with player `first`"),
    ("turn_order_territory", wrong.turn_order_dead_expand, WRONG, "dead player"),
    ("turn_order_territory", wrong.turn_order_counts_heads, WRONG, "counted the heads"),
    ("fill_bound", wrong.bound_region_size, WRONG, "whole region"),
    ("fill_bound", wrong.bound_counts_head, WRONG, "counted the head"),
    ("fill_bound", wrong.bound_wrong_colour, WRONG, "other colour"),
    ("greedy_move", wrong.greedy_always_up, WRONG, "not free"),
    ("greedy_move", wrong.greedy_first_legal, WRONG, "hug the walls"),
    ("greedy_move", wrong.greedy_most_open, WRONG, "hug the walls"),
    ("greedy_move", wrong.greedy_hug_only, WRONG, "cuts your region in pieces"),
    ("greedy_move", wrong.greedy_counts_squares, WRONG, "Measure each side with the bound"),
    ("greedy_move", wrong.greedy_ignores_cuts, WRONG, "keeps the region in one piece"),
    ("greedy_move", wrong.greedy_move_name, WRONG_TYPE, "not the string"),
    ("negamax", wrong.negamax_no_pruning, WRONG, "break out of the loop when alpha >= beta"),
    ("negamax", wrong.negamax_no_negation, WRONG, "negate it"),
    ("negamax", wrong.negamax_depth_never_shrinks, WRONG, "Pass depth - 1 to each child"),
    ("negamax", wrong.negamax_forgets_undo_on_cut, WRONG, "needs a game.undo()"),
    ("negamax", wrong.negamax_value_only, WRONG_TYPE, "a pair (value, move)"),
    ("negamax", wrong.negamax_stuck_first, WRONG, "the horizon comes first"),
    ("negamax", wrong.negamax_last_move, WRONG, "remember the move"),
    ("negamax", wrong.negamax_window_not_swapped, WRONG, "both negated and swapped"),
    ("negamax", wrong.negamax_peeks_first, WRONG, "more positions than minimax"),
    # before: "Got: 0 move(s) not taken back", with no move left on the stack
    ("negamax", wrong.negamax_leaves_a_mark, WRONG, "never by writing into game.board"),
    ("components", wrong.components_negative_labels, WRONG, "is free but has label -"),
    # before: "counted some squares more than once", "... which is not free" or a generic
    # hint, an "off by one in depth" that was not the mistake, or a pass (player ignored)
    ("flood_fill", wrong.flood_from_player_0, WRONG, "player 0's head reaches"),
    ("greedy_move", wrong.greedy_player_0, WRONG, "is player 0's greedy move"),
    ("negamax", wrong.negamax_move_value, WRONG, "looks like (move, value)"),
    ("negamax", wrong.negamax_too_deep, WRONG, "at depth 0 return game.score() without"),
    ("negamax", wrong.negamax_stuck_is_zero, WRONG, "return game.LOSS for it, not 0"),
    ("negamax", wrong.negamax_negates_leaf, WRONG, "return game.score() as it is"),
    # before: "negate the child's value" (board 4, 1...2), which the code already does
    ("negamax", wrong.negamax_stuck_is_a_win, WRONG, "not -game.LOSS"),
    # before: passed (None), "is a `return` missing", or the generic crash hint
    ("greedy_move", wrong.greedy_none_when_boxed_in, WRONG_TYPE, "player 0 is boxed in here"),
    ("greedy_move", wrong.greedy_max_of_no_moves, CRASH, "player 0 is boxed in here"),
    ("greedy_move", wrong.greedy_minus_one_when_boxed_in, WRONG_TYPE, "return one anyway"),
    # before: "read the line above" (x and y swapped), "must have the shape of board.cells"
    # (an answer transposed), a generic hint, or "that is how many squares player 0's head
    # reaches" said of a function that never looked at player 0
    ("flood_fill", wrong.flood_cells_x_y, CRASH, "board.cells[x, y] runs off"),
    ("flood_fill", wrong.flood_one_path, WRONG, "if you started from player 0's head"),
    ("components", wrong.components_transposed, WRONG_TYPE, "rows and columns swapped"),
    ("bfs_distances", wrong.distances_transposed, WRONG_TYPE, "rows and columns swapped"),
    ("bfs_distances", wrong.distances_through_heads, WRONG, "(1, 0) is player 1's head"),
    ("territory", wrong.territory_skips_one_sided, WRONG, "only one player can reach"),
    ("territory", wrong.territory_rest_to_player_1, WRONG, "belong to nobody"),
    ("negamax", wrong.negamax_negates_the_pair, CRASH, "-negamax(game, depth - 1, -beta, "
                                                       "-alpha)[0]"),
    ("negamax", wrong.negamax_best_from_loss, WRONG, "start the best value from None"),
    # exercise 01, a second round. Before: the first three passed; the rest got the general
    # hint or another mistake's ("you counted the head", "Measure each side with the bound",
    # "compare with >=", "a back edge from below it", "is not a square of this board")
    ("greedy_move", wrong.greedy_all_sides, WRONG, "best side alone"),
    ("greedy_move", wrong.greedy_smallest_side, WRONG, "best side alone"),
    ("articulation_points", wrong.cuts_back_edge_low, WRONG, "by disc[w], not low[w]"),
    ("greedy_move", wrong.greedy_head_colour, WRONG, "relative to the target square t"),
    ("greedy_move", wrong.greedy_into_trails, WRONG, "(player 1's head)"),
    ("fill_bound", wrong.bound_flat_parity, WRONG, "index % 2 ignores the row"),
    ("fill_bound", wrong.bound_absolute_colour, WRONG, "not as even or odd"),
    ("fill_bound", wrong.bound_diagonal, WRONG, "touch only at a corner"),
    ("fill_bound", wrong.bound_over_trails, WRONG, "stop at trails too"),
    ("fill_bound", wrong.bound_every_free_square, WRONG, "every free square of the board"),
    ("fill_bound", wrong.bound_player_0, WRONG, "that is player 0's bound"),
    ("fill_bound", wrong.bound_larger_formula, WRONG, "never the larger of the two"),
    ("fill_bound", wrong.bound_no_extra_square, WRONG, "2 * 1 + 1 = 3"),
    ("articulation_points", wrong.cuts_with_heads, WRONG, "heads and trails are not in the graph"),
    ("articulation_points", wrong.cuts_flat_indices, WRONG_TYPE, "board.xy(12) gives its (x, y)"),
    ("articulation_points", wrong.cuts_padded, WRONG_TYPE, "the index into board.cells"),
    ("articulation_points", wrong.cuts_how_many, WRONG_TYPE, "not how many there are"),
    ("articulation_points", wrong.cuts_one_region, WRONG, "Start a new search from every free"),
    ("articulation_points", wrong.cuts_and_dead_ends, WRONG, "it is a dead end of its region"),
    ("fill_bound", wrong.bound_width_divmod, WRONG, "divmod by board.width does not"),
    ("articulation_points", wrong.cuts_low_not_passed_up, WRONG, "pass its low up"),
    # before: the general hint ("(3, 0) is not a cut vertex ... another way up") on the
    # diagonal-touch board, the first with two regions whose roots have one child each
    ("articulation_points", wrong.cuts_root_children_shared, WRONG, "count the root's DFS "
                                                                    "children afresh"),
    # before: the first passed every board, the second got the hint for a cut
    ("greedy_move", wrong.greedy_counts_the_target, WRONG, "t itself not counted"),
    ("greedy_move", wrong.greedy_sides_through_corners, WRONG, "flood each side up, right, "
                                                                "down and left only"),
    # before: caught on random boards only, with "player 1's head reaches" (a trail above
    # the head), or "you stepped up and down board.flat by board.width" and a formula hint
    # (a bounds check one short of the bottom row)
    ("flood_fill", wrong.flood_from_first_two, WRONG, "the first square holding 2"),
    ("fill_bound", wrong.bound_from_first_two, WRONG, "the first square holding 2"),
    ("flood_fill", wrong.flood_stops_short, WRONG, "the bottom row (y = 2) left out"),
    ("fill_bound", wrong.bound_stops_short, WRONG, "the bottom row (y = 2) left out"),
    # exercise 03. Before: "the padding border ... holds 0", "at (2, 2) expected 3, got -1",
    # "the head (1, 0) is 0 moves from itself", the general hint (territory), and for the
    # turn order the general hint or "ties are not neutral here" (a coincidence of counts)
    ("bfs_distances", wrong.distances_from_zeros, WRONG, "np.full(board.cells.shape, -1)"),
    ("bfs_distances", wrong.distances_stop_short, WRONG, "the bottom row (y = 2) left out"),
    ("bfs_distances", wrong.distances_from_player_0, WRONG, "distances from player 0's head"),
    ("territory", wrong.territory_one_head_twice, WRONG, "from the same head"),
    ("territory", wrong.territory_stops_short, WRONG, "the last column (x = 5) left out"),
    ("turn_order_territory", wrong.turn_order_turns_go_down, WRONG, "yours seem to go down"),
    ("turn_order_territory", wrong.turn_order_one_square_a_turn, WRONG, "not one square per"),
    ("turn_order_territory", wrong.turn_order_stops_with_the_first_stuck, WRONG,
     "until a whole round adds nothing"),
    # before: "the head (2, 0) is 0 moves from itself; yours says -1", true but not the cause
    ("bfs_distances", wrong.distances_from_first_two, WRONG, "the first square holding 2"),
    # before: the general hint only
    ("turn_order_territory", wrong.turn_order_frees_dead_heads, WRONG,
     "its head square stays blocked"),
    # before: "(3, 1) is not a cut vertex ... A back edge from below it", and a hint that
    # named the cut but not the other square, which the function took for one too
    ("articulation_points", wrong.cuts_stop_short, WRONG, "the last column (x = 5) left out"),
    ("greedy_move", wrong.greedy_sides_never_merged, WRONG, "not one side each"),
]


@pytest.mark.parametrize("name, fn, status, hint", MISTAKES,
                         ids=[m[1].__name__ for m in MISTAKES])
def test_mistakes_are_caught_with_the_right_hint(name, fn, status, hint):
    result = check(name, fn)
    assert not result.passed
    assert result.status == status, result.message
    assert hint in result.message, result.message
    assert "Traceback" not in result.message
    # caught on a board small enough to follow by hand, before any random board
    assert result.case is None or result.case.startswith("tiny:"), result.message
    if status in (WRONG, WRONG_TYPE, CRASH, CHANGED_INPUT) and result.board is not None:
        # the failing board is drawn in the message and kept on the result
        assert result.board.to_ascii().split("\n")[0] in result.message
        assert result.case in result.message


def test_width_walk_and_short_bounds_check_get_a_hint_each():
    # before: the two gave the same count on 'a bit of everything', the first board, and
    # both got one joined hint ("by board.width ... If you work with (x, y) instead: ...")
    width = check("flood_fill", wrong.flood_flat_rows_of_width)
    short = check("flood_fill", wrong.flood_stops_short)
    assert "by board.width (5)" in width.message and "left out" not in width.message
    assert "the bottom row (y = 2) left out" in short.message
    assert "board.width" not in short.message


def test_a_greedy_move_off_a_tie_is_still_wrong():
    # where several moves are equally good, any of them passes and every other move fails
    from tronlab.course.ex_space_filling import GreedyMove
    ex = GreedyMove()
    ties = [c for c in ex.cases() if len(ex.expected(c)) > 1]
    assert len(ties) >= 3
    for case in ties[:3]:
        want = ex.expected(case)
        for move in range(4):
            result = checker.run_check(ex, lambda board, player, m=move: m, cases=[case])
            assert result.passed == (move in want), (case.label, move, want)
            if move not in want:
                assert result.status == WRONG


def test_right_answer_with_other_labels_passes():
    assert check("components", wrong.components_right_but_renamed).passed


def test_cut_vertices_found_another_way_pass():
    # a tenth of the 10 s limit, so that the right answer is tested, not the machine's
    # load: 0.16 s on the 50x50 room here (its depth-first twin took 3.7 s under load)
    result = check("articulation_points", wrong.cuts_right_by_neighbours, time_limit=1.5)
    assert result.passed, result.message


def test_a_right_but_slow_search_is_told_it_is_slow_not_endless():
    # one flood fill per square: right on every small board, but some 6 million steps on
    # the closing 50x50 room (7 s on an idle machine here, more under load)
    result = check("articulation_points", wrong.cuts_right_by_removal, time_limit=1.0)
    assert result.status == TIMEOUT and result.case.startswith("deep:"), result.message
    assert "right but too slow for 2,498 free squares" in result.message
    assert "loop that never ends" not in result.message


def test_reference_negamax_from_the_tests_passes():
    assert check("negamax", wrong.negamax_right).passed


def test_wrong_answer_shows_expected_got_and_board():
    result = check("flood_fill", wrong.flood_counts_head)
    assert result.expected == "8" and result.got == "9"
    assert result.case == "tiny: width or edge, player 0"
    assert "Expected:\n    8\nGot:\n    9" in result.message
    assert ".2..1" in result.message and ".#..." in result.message
    assert result.board == Board.from_ascii(TINY_FLAT_ROWS["width or edge"])


def test_crash_names_exception_line_and_board():
    result = check("flood_fill", wrong.flood_divides_by_zero)
    assert result.status == CRASH
    assert "ZeroDivisionError: division by zero" in result.message
    assert "average = size / (size - size)" in result.message
    assert "of flood_divides_by_zero" in result.message
    assert result.details["exception"] == "ZeroDivisionError"
    assert ".2..1" in result.message


def test_writing_into_a_read_only_array_is_named_in_the_hint():
    """numpy's "assignment destination is read-only" gets a hint about copying, not the
    generic "read the line above"; other ValueErrors keep the generic one."""
    def writes_into_a_broadcast(board, player):
        size = np.broadcast_to(np.int64(0), board.cells.shape)   # read-only
        size[0, 0] = 1
        return 1

    result = check("flood_fill", writes_into_a_broadcast)
    assert result.status == CRASH and "assignment destination is read-only" in result.message
    assert "copy it first" in result.hint and "read the line above" not in result.hint

    def other_value_error(board, player):
        raise ValueError("something else")

    assert "read the line above" in check("flood_fill", other_value_error).hint


def test_the_index_hint_is_for_an_array_index_only():
    """x and y swapped runs off board.cells with numpy's "out of bounds" message, and the
    hint says so; before, a list's IndexError (popping an empty stack, say) got the same
    hint about board.cells being indexed row first, which sent the learner the wrong way."""
    def cells_x_first(board, player):
        x, y = board.head_xy(player)
        return int(board.cells[x + 20, y])                      # runs off the array

    def pops_an_empty_stack(board, player):
        stack = []
        return stack.pop()

    hint = check("flood_fill", cells_x_first).hint
    assert "indexed row first" in hint, hint
    hint = check("flood_fill", pops_an_empty_stack).hint
    assert "indexed row first" not in hint and "read the line above" in hint, hint


def test_endless_loop_times_out():
    result = check("flood_fill", wrong.flood_loops_forever, time_limit=0.3)
    assert result.status == TIMEOUT
    assert "did not finish within 0.3 s" in result.message


def test_learner_cannot_swallow_the_timeout():
    def stubborn(board, player):
        while True:
            try:
                while True:
                    pass
            except Exception:          # noqa: BLE001 - what a learner might write
                continue
    assert check("flood_fill", stubborn, time_limit=0.2).status == TIMEOUT


def _in_a_thread(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "the check never came back"
    return out[0]


def test_a_check_run_from_another_thread_has_a_time_limit_too():
    # no SIGALRM outside the main thread (nor on Windows): the watchdog stops the loop
    result = _in_a_thread(lambda: check("flood_fill", wrong.flood_loops_forever,
                                        time_limit=0.3))
    assert result.status == TIMEOUT
    assert "did not finish within 0.3 s" in result.message
    solved = learner_namespace("solutions", "02_flood_fill")["flood_fill"]
    assert _in_a_thread(lambda: check("flood_fill", solved)).status == PASSED


def test_the_watchdog_stops_loops_reports_values_and_errors_and_leaves_nothing_behind():
    def endless():
        while True:
            pass

    started = time.monotonic()
    assert timelimit.call_in_process(endless, 0.2, use_alarm=False).kind == "timeout"
    assert time.monotonic() - started < 5
    assert timelimit.call_in_process(lambda: 41 + 1, 5, use_alarm=False).value == 42
    raised = timelimit.call_in_process(lambda: 1 / 0, 5, use_alarm=False)
    assert raised.kind == "raised" and isinstance(raised.error, ZeroDivisionError)
    # once a call is over no late _TimeUp reaches the caller
    quick = timelimit.call_in_process(lambda: sum(range(1000)), 0.05, use_alarm=False)
    assert quick.kind in ("value", "timeout")
    until = time.monotonic() + 0.3
    while time.monotonic() < until:
        pass


def test_an_outer_alarm_is_put_back():
    """pytest-timeout and the like use SIGALRM too: the checker must re-arm their alarm."""
    import signal
    fired = []
    old = signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        check("flood_fill", wrong.flood_counts_head)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 25 < left <= 30
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert not fired


def test_not_implemented_in_a_helper_names_the_helper():
    def helper(board):
        raise NotImplementedError

    def flood_fill(board, player):
        return helper(board)
    result = check("flood_fill", flood_fill)
    assert result.status == NOT_IMPLEMENTED
    assert "raised in helper" in result.message
    # before: 'Write the body of flood_fill', the function already written
    assert "Write the body of helper, which flood_fill calls, then" in result.message
    assert "in helper with your code" in result.hint


@pytest.mark.parametrize("bad, words", [
    (3, "got int 3"),
    (None, "got None"),
    ("flood_fill", "got str"),
    (Board, "class Board"),
    ([1, 2], "got list"),
])
def test_wrong_argument_to_a_checker_is_explained(bad, words):
    for name in ("flood_fill", "territory", "negamax"):
        result = check(name, bad)
        assert result.status == BAD_ARGUMENT
        assert not result.passed
        assert words in result.message
        assert f"check_{name}({name})" in result.message


def test_function_with_the_wrong_parameters_is_explained():
    def flood_fill(board):
        return 0
    result = check("flood_fill", flood_fill)
    assert result.status == BAD_ARGUMENT
    assert "calls flood_fill(board, player), but your function takes (board)" in result.message
    result = check("negamax", lambda game, depth: (0, None))
    assert "def negamax(game, depth, alpha, beta):" in result.message


def test_parameters_in_another_order_are_named():
    # the names the exercise uses, swapped: without this the board arrives as `player`
    # and the function crashes somewhere inside with a message about something else
    def flood_fill(player, board):
        return 0
    result = check("flood_fill", flood_fill)
    assert result.status == BAD_ARGUMENT
    assert ("calls flood_fill(board, player) in that order, but your function takes "
            "(player, board)") in result.message
    assert "def flood_fill(board, player):" in result.message
    assert check("flood_fill", lambda b, p: 0).status != BAD_ARGUMENT   # own names: fine


def test_result_renders_as_text_and_html():
    good = check("flood_fill", wrong.flood_counts_head)
    assert str(good) == good.message == repr(good)
    html = good._repr_html_()
    assert html.startswith("<div") and "FAILED" in html and "&lt;" not in good.message
    assert "<pre" in html
    passed = check("components", wrong.components_right_but_renamed)
    assert "all" in passed._repr_html_() and "#1a7f37" in passed._repr_html_()


def test_is_stub_reads_the_body():
    def a(board):
        """Only a docstring and pass."""
        pass

    def b(board):
        ...

    def c(board):
        raise NotImplementedError("write me")

    def d(board):
        return None

    def e(board):
        return 1
    assert [is_stub(f) for f in (a, b, c, d, e)] == [True, True, True, True, False]
    assert is_stub(len) is None          # no Python source to read


# ---------------------------------------------------------------------------
# the machinery on a toy exercise
# ---------------------------------------------------------------------------
class Double(checker.Exercise):
    function = "double"
    parameters = ("board", "n")
    returns = "an int"

    def cases(self):
        b = Board.from_ascii("1.2")
        return [Case(f"n={n}", b, (n,)) for n in range(5)]

    def expected(self, case):
        return 2 * case.args[0]

    def diagnose(self, case, got, want):
        return "you added one" if got == want + 1 else None


def test_machinery_stops_at_the_first_failure_and_counts_passes():
    result = run_check(Double(), lambda board, n: 2 * n if n < 3 else 2 * n + 1)
    assert result.status == WRONG and result.checked == 3 and result.case == "n=3"
    assert "after 3 passed" in result.message and "Hint: you added one" in result.message
    result = run_check(Double(), lambda board, n: 2 * n if n < 4 else 0)
    assert "Hint: compare your answer" in result.message        # the generic hint
    assert run_check(Double(), lambda board, n: n + n).passed


# ---------------------------------------------------------------------------
# board sets
# ---------------------------------------------------------------------------
def test_random_boards_are_deterministic_and_valid():
    a = course_boards.random_cases(7, 30, players=(2, 4), trail=(0, 8))
    b = course_boards.random_cases(7, 30, players=(2, 4), trail=(0, 8))
    assert [c.label for c in a] == [c.label for c in b]
    assert all(x.board == y.board for x, y in zip(a, b))
    for case in a:
        board = case.board
        assert 2 <= board.n_players <= 4
        for p, h in enumerate(board.heads):
            assert board.flat[h] == 2 + p
        assert np.all(board.cells[0] == 1) and np.all(board.cells[:, -1] == 1)
    with pytest.raises(TypeError, match="Generator"):
        course_boards.random_board(7, 3, 3)


#: the A9 exercises judge game records, not boards: hand-made games first, then seeded ones
RECORD_EXERCISES = {"separation_sample", "fit_weights"}
#: the L1 exercise judges payoff matrices: named games first (no board to call tiny)
MATRIX_EXERCISES = {"solve_game"}


def test_every_checker_starts_with_tiny_boards_and_is_repeatable():
    for name, cls in exercises.EXERCISES.items():
        if name in RECORD_EXERCISES:
            continue
        first, second = cls().cases(), cls().cases()
        assert first[0].label.startswith("tiny:") or name in MATRIX_EXERCISES, name
        # then random boards (or positions from seeded random games: the capture game)
        assert any(c.label.startswith(("random", "game ")) for c in first), name
        assert [c.label for c in first] == [c.label for c in second]


def test_record_checkers_start_with_hand_made_games_and_are_repeatable():
    sample = exercises.EXERCISES["separation_sample"]
    first, second = sample().cases(), sample().cases()
    assert first[0].label.startswith("hand:") and first[-1].label.startswith("game ")
    assert [c.label for c in first] == [c.label for c in second]
    fit = exercises.EXERCISES["fit_weights"]
    assert [c.label for c in fit(None).cases()] == [c.label for c in fit(None).cases()]


def test_a_failure_report_introduces_its_drawing_by_what_is_drawn():
    # the capture exercises draw a grid, separation_sample the first board of a game
    cases = {"score_rectangle": "with this grid:", "nearest_target": "with this grid:",
             "separation_sample": "; the game starts from this board:",
             "flood_fill": "with this board:"}
    for name, words in cases.items():
        exercise = exercises.EXERCISES[name]()
        case = exercise.cases()[0]
        call = exercise.show_input(case)[0]
        assert call.startswith(f"The call: {exercise.describe_case(case)}"), call
        assert call.endswith(words) and call.count("this") == 1, call


# ---------------------------------------------------------------------------
# the checkers' expected answers against independent oracles
# ---------------------------------------------------------------------------
def head_component(board, player):
    g = grid_graph(board, include=[board.heads[player]])
    return nx.node_connected_component(g, int(board.heads[player]))


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=12, max_height=10))
def test_flood_and_distances_match_networkx(board):
    for p in range(board.n_players):
        h = int(board.heads[p])
        want = len(head_component(board, p)) - 1
        assert variants.flood_size(board, p) == want
        assert reference.flood_fill(board.flat, h, board.stride) == want
        lengths = nx.single_source_shortest_path_length(grid_graph(board, include=[h]), h)
        for dist in (variants.distances(board, p).reshape(-1),
                     reference.bfs_distances(board.flat, h, board.stride)):
            got = {i: int(d) for i, d in enumerate(dist) if d >= 0}
            assert got == lengths


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=12, max_height=10))
def test_component_labels_match_networkx(board):
    g = grid_graph(board)
    want = sorted(sorted(c) for c in nx.connected_components(g))
    for labels in (variants.labels(board).reshape(-1),
                   np.array(reference.components(board.flat, board.stride)[0])):
        groups: dict = {}
        for i, lab in enumerate(labels):
            if lab:
                groups.setdefault(int(lab), []).append(i)
        assert sorted(groups.values()) == want


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=12, max_height=10, max_players=2))
def test_territory_matches_distance_comparison(board):
    """Strictly nearer by networkx path length, ties and heads for nobody."""
    d = []
    for p in (0, 1):
        h = int(board.heads[p])
        d.append(nx.single_source_shortest_path_length(grid_graph(board, include=[h]), h))
    counts = [0, 0]
    for sq in np.flatnonzero(board.flat == 0):
        a, b = d[0].get(int(sq), 1 << 30), d[1].get(int(sq), 1 << 30)
        if a < b:
            counts[0] += 1
        elif b < a:
            counts[1] += 1
    assert variants.territory(board) == tuple(counts)
    assert exercises.Territory().expected(Case("x", board)) == tuple(counts)


def brute_longest_path(board, player):
    """Longest simple path of moves from the head over free squares (exhaustive)."""
    flat = board.flat.copy()
    best = 0
    stack = [(int(board.heads[player]), 0, iter(board.offsets))]
    while stack:
        square, length, moves = stack[-1]
        best = max(best, length)
        for off in moves:
            nxt = square + int(off)
            if flat[nxt] == 0:
                flat[nxt] = 1
                stack.append((nxt, length + 1, iter(board.offsets)))
                break
        else:
            stack.pop()
            if stack:
                flat[square] = 0
    return best


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards())
def test_fill_bound_and_greedy_against_brute_force(board):
    for p in range(board.n_players):
        bound = exercises.FillBound().expected(Case("x", board, (p,)))
        truth = brute_longest_path(board, p)
        assert truth <= bound
        if not board.legal_moves(p):
            continue
        # the accepted greedy moves, recomputed with networkx: room = 1 + the longest path
        # (brute force) into the best side behind the target, cut = the target is a networkx
        # articulation point of the free squares, then fewest free neighbours
        head = int(board.heads[p])
        free_graph = grid_graph(board)
        cuts = set(nx.articulation_points(free_graph))
        keys = {}
        for m in board.legal_moves(p):
            t = head + int(board.offsets[m])
            after = board.copy()
            after.flat[t] = 2 + p
            after.heads[p] = t
            room = 1 + brute_longest_path(after, p)
            degree = sum(1 for o in board.offsets if board.flat[t + int(o)] == 0)
            keys[m] = (room, t not in cuts, -degree)
        top = max(keys.values())
        choices = variants.greedy_choices(board, p)
        # the parity bound can only overestimate the longest path, so the checker's rooms are
        # >= the true ones; where the bound is exact (rooms equal) the choices must agree
        exact = all(variants.move_key(board, p, m)[0] == keys[m][0] for m in keys)
        assert all(variants.move_key(board, p, m)[1:] == keys[m][1:] for m in keys)
        if exact:
            assert set(choices) == {m for m in keys if keys[m] == top}


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(max_players=2, max_width=4, max_height=4))
def test_turn_game_search_matches_the_c_reference_search(board):
    """Plain minimax, the checker's alpha-beta, and tronlab.tron.c_reference's line-for-line port
    of the C reference search agree on the value; alpha-beta's node count equals the port's and
    never exceeds minimax's."""
    size = board.flat.size
    for depth in (1, 2, 3):
        game = TurnGame(board)
        full = minimax(game, depth)
        full_nodes = game.nodes
        game = TurnGame(board)
        value = alphabeta(game, depth, -10**6, 10**6)
        assert value == full and game.nodes <= full_nodes
        assert game.depth_played == 0 and game.board == board
        flat = board.flat.copy()
        v, _, nodes = c_reference.reference_search_kernel(
            flat, board.heads[0], board.heads[1], np.int64(board.stride), np.int64(depth),
            np.empty(size, np.int32), np.empty(size, np.uint8), np.empty(size, np.int32),
            c_reference.new_ref_frames(depth))
        assert v == full
        assert nodes == game.nodes


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(max_width=10, max_height=8))
def test_package_filler_move_is_always_accepted(board):
    """tronlab.tron.spacefill ranks moves the same way: its move must be one the checker accepts."""
    for p in range(board.n_players):
        if board.legal_moves(p):
            assert spacefill.greedy_move(board, p) in variants.greedy_choices(board, p)


def test_checker_answers_agree_with_the_numba_kernels():
    """The checkers take their expected answers from the plain-Python twins; the package's
    numba wrappers must give the same on every board every checker uses."""
    from tronlab.grid import flood as fill, multivoronoi, parity, voronoi
    for case in exercises.FloodFill().cases():
        assert exercises.FloodFill().expected(case) == fill.flood_fill(case.board, case.args[0])
    for case in exercises.BfsDistances().cases():
        want = exercises.BfsDistances().expected(case)
        assert np.array_equal(want, voronoi.bfs_distances(case.board, case.args[0]))
    for case in exercises.Territory().cases():
        t = voronoi.territory(case.board)
        assert exercises.Territory().expected(case) == (t.n0, t.n1)
    for case in exercises.TurnOrderTerritory().cases():
        got = multivoronoi.turn_order_territory(case.board, first=case.args[0]).counts.tolist()
        assert exercises.TurnOrderTerritory().expected(case) == got
    for case in exercises.FillBound().cases():
        bound = parity.fill_bound(case.board, case.args[0]).bound
        assert exercises.FillBound().expected(case) == bound
    from tronlab.tron import spacefill as filler
    stuck = 0
    for case in exercises.GreedyMove().cases():
        move = filler.greedy_move(case.board, case.args[0])
        if move == -1:          # the kernel's "boxed in"; the exercise's bot answers any move
            stuck += 1
            assert exercises.GreedyMove().expected(case) == [0, 1, 2, 3]
        else:
            assert move in exercises.GreedyMove().expected(case)
    assert stuck >= 3
    for case in exercises.Components().cases():
        want = exercises.Components().expected(case)
        got = fill.Components(case.board).labels.astype(np.int64)
        got = np.where(case.board.cells == 0, got, 0)
        assert same_partition(want, got)
