"""Exercise B3's checker (tronlab.course.ex_rects): the solution notebook's function passes,
planted mistakes in it are named on the grid made for them with the term that is off, wrong
kinds of answer are explained, and the checker's plain-Python twin agrees with the kernel."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

from tronlab.capture import state_from_ascii
from tronlab.course.checker import NOT_IMPLEMENTED, PASSED, WRONG, WRONG_TYPE, run_check
from tronlab.course.ex_rects import (MISTAKES, TERMS, ScoreRectangle, _random_cases, _tiny_cases,
                                     best_rectangle, check_score_rectangle, explain, reference,
                                     variant)

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "solutions" / "11_rectangles_solution.ipynb"
EXERCISE = ROOT / "exercises" / "11_rectangles_exercise.ipynb"


def cells(path, tag):
    nb = json.loads(path.read_text())
    return ["".join(c["source"]) for c in nb["cells"]
            if c["cell_type"] == "code" and tag in c["metadata"].get("tags", [])]


def learner(source: str):
    """The notebook's set-up cells and ``source`` run together: the learner's function."""
    ns: dict = {}
    for cell in cells(SOLUTION, "setup") + [source]:
        exec(compile(cell, str(SOLUTION), "exec"), ns)
    return ns["score_rectangle"]


@pytest.fixture(scope="module")
def solution_source():
    (answer,) = cells(SOLUTION, "answer")
    return answer


def test_the_solution_passes_and_the_stub_is_not_implemented(solution_source):
    result = check_score_rectangle(learner(solution_source))
    assert result.passed and result.status == PASSED
    assert result.checked == len(ScoreRectangle().cases()) >= 60
    (stub,) = cells(EXERCISE, "answer")
    result = check_score_rectangle(learner(stub))
    assert result.status == NOT_IMPLEMENTED and "not implemented yet" in result.message


def test_the_twin_agrees_with_the_kernel_on_every_case():
    cases = _tiny_cases() + list(_random_cases()) + list(_random_cases(seed=5, games=6))
    for case in cases:
        want = reference(case.board.view, *case.args)
        assert variant(case.board.view, *case.args) == pytest.approx(want, rel=1e-12), case.label


@st.composite
def positions(draw):
    """A random position of 2-4 players (owners and squares) and a rectangle on it."""
    w, h = draw(st.integers(3, 16)), draw(st.integers(3, 14))
    n = draw(st.integers(2, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    owner = rng.choice(np.arange(-1, n), size=(h, w),
                       p=[0.6, 0.25] + [0.15 / (n - 1)] * (n - 1)).astype(np.int8)
    text = "\n".join("".join("." if v < 0 else str(v) for v in row) for row in owner)
    squares = rng.choice(w * h, size=n, replace=False)
    pos = {p: (int(s % w), int(s // w)) for p, s in enumerate(squares)}
    state = state_from_ascii(text, n_players=n, positions=pos)
    rw, rh = draw(st.integers(2, min(w, 16))), draw(st.integers(2, min(h, 16)))
    x0, y0 = draw(st.integers(0, w - rw)), draw(st.integers(0, h - rh))
    return state.view(), (x0, y0, x0 + rw - 1, y0 + rh - 1)


@settings(max_examples=EXAMPLES, deadline=None)
@given(positions())
def test_the_twin_agrees_with_the_kernel_on_random_positions(game):
    view, rect = game
    assert variant(view, 0, rect) == pytest.approx(reference(view, 0, rect), rel=1e-12)
    score, lines = explain(view, 0, rect)
    assert lines and (score == 0 or f"{score:.6g}" in lines[-1])


#: (edit of the solution's source, the tiny grid that catches it, words of the hint)
PLANTED = [
    ("2 * (abs(px - x) + abs(py - y))", "(abs(px - x) + abs(py - y))",
     "the approach counts twice", "doubled approach"),
    ("+ 1 + CONSTANT[n]", "+ CONSTANT[n]", "points over turns", "closing turn"),
    ("+ 1 + CONSTANT[n]", "+ 1", "points over turns", "player-count constant"),
    ("points = min(neutral, needed)", "points = neutral", "enough to win", "enough-to-win cap"),
    ("if neutral >= needed:", "if False:", "enough to win", "win bonus"),
    ("for step in (1, -1):", "for step in (1,):", "the other way round", "both directions"),
    ("if owner[y, x] != player]", "]", "own border squares need no walk", "already own"),
    ("if neutral == 0 or enemy:", "if neutral == 0:", "an opponent's square inside",
     "score 0"),
    ("box = owner[y0:y1 + 1, x0:x1 + 1]", "box = owner[y0 + 1:y1, x0 + 1:x1]",
     "points over turns", "border included"),
    ("/ (1 + abs(px - x0) + abs(py - y0)) / turns", "/ (1 + abs(px - x0) + abs(py - y0))",
     "a thin area", "divide it by the turns"),
    ("if x1 - x0 < 2 or y1 - y0 < 2:", "if False:", "a thin area", "thin areas"),
    ("+ 1 > SIZE_LIMIT[n]", "+ 1 >= SIZE_LIMIT[n]", "exactly as long as the limit", "*longer*"),
    ("+ 1 > SIZE_LIMIT[n]", "+ 1 > 99", "a long side", "size penalty"),
    ("== -1).sum() > 10", "== -1).sum() >= 10", "10 neutral squares is not enough",
     "*more than* 10"),
    ("if n == 2 and col in (x0, x1)", "if col in (x0, x1)", "the middle column, 3 players",
     "2-player games only"),
    ("if n == 2 and col in (x0, x1)", "if False", "the middle column, 2 players",
     "border bonus"),
    ("if n > 2 and (x0 == 0", "if (x0 == 0", "the edge, 2 players", "3-4 player games only"),
    ("if n > 2 and (x0 == 0", "if False and (x0 == 0", "the edge, 4 players", "edge bonus"),
    ("if gap < 2:", "if gap <= 2:", "two squares away does not count", "*less than* 2"),
    ("if gap < 2:", "if False:", "an opponent next to the rectangle", "opponents near"),
    ("gap = max(0, x0 - ox, ox - x1) + max(0, y0 - oy, oy - y1)",
     "gap = max(max(0, x0 - ox, ox - x1), max(0, y0 - oy, oy - y1))",
     "diagonally off a corner", "not the larger of dx and dy"),
    ("2 ** near", "2 ** min(near, 1)", "two opponents near", "*for each*"),
    ("for k in todo], default=0)", "for k in todo], default=0) + 1", "points over turns",
     "not the squares"),
    # before: both got 19 turns on the first grid (A two squares from (x0, y0)), as the
    # start square counted as a step does, and so that mistake's hint
    ("for i, (x, y) in enumerate(border):", "for i, (x, y) in enumerate(border[:1]):",
     "points over turns", "need not start at the corner (x0, y0)"),
    ("t = 2 * (abs(px - x) + abs(py - y)) + walk", "t = 2 * (abs(px - x0) + abs(py - y0)) + walk",
     "points over turns", "not to the corner (x0, y0)"),
    # an eliminated player (before: no case had one, and all four passed every grid)
    ("needed_to_win(owner, player, active)", "needed_to_win(owner, player)",
     "a score to beat that no longer grows", "players not eliminated (active)"),
    ("+ 1 + CONSTANT[n]", "+ 1 + CONSTANT[len(active)]", "a score to beat that no longer grows",
     "CONSTANT[view.n_players]"),
    ("owner, n = view.owner, view.n_players",
     "owner, n = view.owner, view.n_players - sum(view.eliminated)",
     "a score to beat that no longer grows",
     "CONSTANT[view.n_players]"),
    ("+ 1 > SIZE_LIMIT[n]", "+ 1 > SIZE_LIMIT[len(active)]", "still counts in the size limit",
     "SIZE_LIMIT[view.n_players]"),
    # before: the first two passed every grid (the middle-column grid was square, no grid had
    # three opponents near); the rest got the general hint or another mistake's
    ("col = view.width // 2", "col = view.height // 2", "the middle column is width // 2",
     "not view.height // 2"),
    ("return score / 2 ** near", "return score / (2 * near if near else 1)",
     "three opponents near", "not by 2 * near"),
    ("score = points / turns", "score = points // turns", "points over turns", "divide with /"),
    ("box = owner[y0:y1 + 1, x0:x1 + 1]", "box = owner[x0:x1 + 1, y0:y1 + 1]",
     "exactly enough to win", "rows (y) first"),
    ("if x1 - x0 < 2 or y1 - y0 < 2:", "if x1 - x0 < 3 or y1 - y0 < 3:", "points over turns",
     "3 squares wide is not thin"),
    ("if q != player and pos is not None:", "if pos is not None:", "points over turns",
     "count the other players only"),
    # before: these passed every tiny grid and failed on a game grid with "a term is missing"
    # (x1 == view.width alone passed everything); now a grid on the boundary names it
    ("if neutral >= needed:", "if neutral > needed:", "exactly enough to win",
     "neutral >= needed, so exactly as many"),
    ("x1 == view.width - 1 or y1 == view.height - 1", "x1 == view.width or y1 == view.height",
     "the right edge, 3 players", "the last column is x = view.width - 1"),
    ("x1 == view.width - 1", "x1 == view.width", "the right edge, 3 players",
     "the last column is x = view.width - 1"),
    ("y1 == view.height - 1", "y1 == view.height", "the bottom edge, 3 players",
     "the last row y = view.height - 1"),
    ("x1 == view.width - 1 or y1 == view.height - 1",
     "x1 >= view.width - 2 or y1 >= view.height - 2", "one square short of the right",
     "one square short of it is not enough"),
    # before: the slice's end left out got the hint of counting yourself as an opponent near
    # (both halve the first grid's score); the learner's scores of other rectangles now tell
    # the two apart.  The middle column read so passed every grid
    ("box = owner[y0:y1 + 1, x0:x1 + 1]", "box = owner[y0:y1, x0:x1]", "points over turns",
     "misses the last row and the last column"),
    ("(owner[y0:y1 + 1, col] == -1)", "(owner[y0:y1, col] == -1)",
     "11 neutral squares is enough", "leaves out the one on row y1"),
    # before: the gap to the nearest border square passed every grid (no opponent stood
    # inside a rectangle two squares from its border)
    ("gap = max(0, x0 - ox, ox - x1) + max(0, y0 - oy, oy - y1)",
     "gap = min(abs(ox - x) + abs(oy - y) for x, y in border)", "an opponent inside",
     "not the distance to the nearest border square"),
]


@pytest.mark.parametrize("old, new, grid, words", PLANTED, ids=[p[3] for p in PLANTED])
def test_planted_mistakes_are_named_on_their_grid(solution_source, old, new, grid, words):
    assert solution_source.count(old) >= 1, old
    wrong = learner(solution_source.replace(old, new, 1))
    result = check_score_rectangle(wrong)
    assert not result.passed and result.status == WRONG, result.message
    assert grid in result.case and words in result.hint, (result.case, result.hint)
    # the failure names the rectangle and takes the expected score apart term by term
    assert "the " in result.message and "rectangle from" in result.message
    assert len(result.expected.splitlines()) >= 2 and "Got:" in result.message


def test_a_rectangle_read_as_y_x_is_named(solution_source):
    # before: the general hint; the learner's score was the transposed rectangle's
    wrong = learner(solution_source.replace("x0, y0, x1, y1 = rect", "y0, x0, y1, x1 = rect"))
    result = check_score_rectangle(wrong)
    assert not result.passed and result.status == WRONG, result.message
    assert "x and y swapped" in result.hint, result.message


def test_player_0s_position_for_another_player_is_named(solution_source):
    # before: the general hint, on a game position where player 1 scores
    wrong = learner(solution_source.replace("px, py = view.positions[player]",
                                            "px, py = view.positions[0]"))
    result = check_score_rectangle(wrong)
    assert not result.passed and result.status == WRONG, result.message
    assert "player 1" in result.case and "player 0's position" in result.hint, result.message


def test_the_random_cases_have_eliminated_players_and_check_their_rule():
    """Before, no random game eliminated anyone: only two tiny grids checked that an
    eliminated player still counts in the player-count constant and not as a rival. Now
    seeded games where one player stops answering do, and on their positions alone each
    of those mistakes fails, with its own hint."""
    cases = list(_random_cases())
    gone = [c for c in cases if any(c.board.view.eliminated)]
    assert len(gone) >= 24 and {c.board.view.n_players for c in gone} == {3, 4}
    assert all("eliminated" in c.label for c in gone)
    assert not any(c.board.view.eliminated[c.args[0]] for c in gone)     # the scorer plays on
    for options, text in MISTAKES:
        if set(options) & {"needed", "constant"}:
            result = run_check(ScoreRectangle(), lambda view, player, rect: variant(
                view, player, rect, **options), cases=gone)
            assert not result.passed and result.hint == text, (options, result.message)


def test_the_start_square_mistake_is_named():
    """Starting at the nearest border square: a learner-style function for that one."""
    def nearest_start(view, player, rect):
        return variant(view, player, rect, walk="nearest")
    result = check_score_rectangle(nearest_start)
    assert "the best start is not the nearest" in result.case
    assert "every start square" in result.hint


def test_every_mistake_is_caught_first_on_a_tiny_grid_with_its_own_hint():
    """Each (term, mistake) of the checker's list makes the learner fail on a tiny grid, and
    the hint given there is that mistake's own (no two mistakes give the same number)."""
    for options, text in MISTAKES:
        result = check_score_rectangle(lambda view, player, rect: variant(view, player, rect,
                                                                           **options))
        assert not result.passed and result.case.startswith("tiny:"), options
        assert result.hint == text, (options, result.case, result.hint)
    assert {m["off"][0] for m, _ in MISTAKES if "off" in m} == set(TERMS)


def test_owner_read_x_first_gets_the_row_first_hint():
    """Before: owner[x, y] running off the grid got only "read the line above", where
    nearest_target's checker (notebook 10) names owner[y, x]."""
    def x_first(view, player, rect):
        x0, y0, x1, y1 = rect
        return 0.0 * view.owner[x1, y1] + reference(view, player, rect)

    result = check_score_rectangle(x_first)
    assert result.status == "crash" and "out of bounds" in result.message, result.message
    assert "indexed row first, owner[y, x]" in result.hint, result.hint


def test_a_neutral_square_taken_for_an_enemy_is_named():
    """(box != player).any() counts neutral squares as another player's and scores every
    rectangle 0.  Before, the hint told the learner to work the score out from rect, which
    it did; now it names the enemy test."""
    def neutral_is_enemy(view, player, rect):
        x0, y0, x1, y1 = rect
        box = np.asarray(view.owner)[y0:y1 + 1, x0:x1 + 1]
        return 0.0 if (box != player).any() else reference(view, player, rect)

    result = check_score_rectangle(neutral_is_enemy)
    assert result.status == WRONG and "gives 0 here and 0 again" in result.hint, result.hint
    assert "a neutral square (-1) taken for another player's?" in result.hint, result.hint
    assert "Work it out from rect" not in result.hint


def test_an_unknown_mistake_gets_the_general_hint():
    result = check_score_rectangle(lambda view, player, rect: 1.37 * reference(view, player,
                                                                              rect))
    assert not result.passed and result.hint == ScoreRectangle.hint


@pytest.mark.parametrize("constant", [0.0, 1.0, 0.123])
def test_a_constant_score_is_named_as_one(constant):
    """Before: 1.0 was told the player-count constant was missing (8 / 8 on the first grid)
    and 0 or 0.123 got the general hint; the checker now asks the learner's function for two
    more rectangles of the failing grid and names a score that does not change."""
    result = check_score_rectangle(lambda view, player, rect: constant)
    assert not result.passed and result.status == WRONG, result.message
    assert "the score does not depend on the rectangle" in result.hint, result.hint
    assert f"gives {constant:.6g} here and {constant:.6g} again" in result.hint
    # a score that depends on the rectangle is not called constant, even where it is wrong
    wrong = check_score_rectangle(lambda view, player, rect: variant(view, player, rect,
                                                                     off=("player_constant",)))
    assert "player-count constant" in wrong.hint


@pytest.mark.parametrize("answer, text", [
    ((0.5,), "one number"), ("0.5", "one number"), (True, "not True"),
    (float("nan"), "finite"), (np.array([0.5, 0.2]), "one number"),
])
def test_wrong_kinds_of_answer_are_explained(answer, text):
    result = check_score_rectangle(lambda view, player, rect: answer)
    assert not result.passed and result.status == WRONG_TYPE and text in result.hint
    assert "Traceback" not in result.message


def test_numpy_numbers_and_ints_are_accepted(solution_source):
    fn = learner(solution_source)
    result = check_score_rectangle(lambda view, player, rect: np.float32(fn(view, player, rect)))
    assert result.passed


def test_wrong_signature_and_writing_into_the_grid():
    assert check_score_rectangle(lambda view, player: 0.0).status == "bad argument"

    def scribble(view, player, rect):
        view.owner[0, 0] = 0
        return 0.0
    result = check_score_rectangle(scribble)
    assert result.status == "crash" and "read-only" in result.message
    assert "`view.owner` is read-only" in result.hint and "np.array(view.owner)" in result.hint


def test_a_score_a_little_off_is_wrong(solution_source):
    # the score is exact up to rounding: 1e-4 off is a wrong answer, float32 rounding is not
    fn = learner(solution_source)
    result = check_score_rectangle(lambda view, player, rect: fn(view, player, rect) + 1e-4)
    assert not result.passed and result.status == WRONG


def test_best_rectangle_compares_with_the_scan(solution_source):
    view = state_from_ascii("""
        ........
        .A00....
        .0.0....
        .0......
        ........
        .......b
    """).view()
    best = best_rectangle(learner(solution_source), view, 0)
    assert best.same and best.your_score == pytest.approx(best.package_score)
    (stub,) = cells(EXERCISE, "answer")
    assert "not implemented yet" in repr(best_rectangle(learner(stub), view, 0))
    wrong = best_rectangle(lambda v, p, r: float(r == (0, 0, 1, 1)), view, 0)
    assert not wrong.same and "they differ" in repr(wrong)
    # before: the grid given for the view raised "'numpy.ndarray' object has no attribute
    # 'owner'" from the package's own line
    with pytest.raises(TypeError, match="view must be a capture View or State"):
        best_rectangle(learner(solution_source), view.owner, 0)


def test_best_rectangle_does_not_call_a_constant_score_the_same():
    view = state_from_ascii("""
        ........
        .A00....
        .0.0....
        .0......
        ........
        .......b
    """).view()
    constant = best_rectangle(lambda v, p, r: 1.0, view, 0)
    assert not constant.same and constant.yours is None
    assert "same score, 1, so it cannot choose" in repr(constant)
    package = constant.package
    two_best = best_rectangle(lambda v, p, r: float(r in (package, (0, 0, 1, 1))), view, 0)
    assert two_best.same and "2 rectangles share your best score" in repr(two_best)


def test_notebook_11_teaches_b3_b4_b5_and_the_exercise_is_a_stub():
    from test_course_coverage import findable_ids, load, markdown_cells

    nb = load(ROOT / "notebooks" / "11_rectangles.ipynb")
    assert {"B3", "B4", "B5"} <= findable_ids(nb)
    text = "\n".join(markdown_cells(nb))
    assert "../exercises/11_rectangles_exercise.ipynb" in text and "Recar" in text
    # the exact score is in the module's docstring (the class's only points there)
    from tronlab.capture import rects_terms
    assert "help(tronlab.capture.rects_terms)" in text and "its docstring below" not in text
    assert "The exact score, term by term" in rects_terms.__doc__
    assert "exact score" not in rects_terms.RectTerms.__doc__
    for path in (ROOT / "notebooks" / "11_rectangles.ipynb", EXERCISE, SOLUTION):
        for cell in load(path)["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, path
    (stub,) = cells(EXERCISE, "answer")
    assert stub.rstrip().endswith("raise NotImplementedError")
    assert any("assert result.passed" in c for c in cells(SOLUTION, "check"))


def _endless(view, player, rect):
    while True:
        pass


def _exits(view, player, rect):
    import sys
    sys.exit(2)


@pytest.mark.parametrize("score, words", [
    (lambda v, p, r: None, "no score for rect = (0, 0, 1, 1): return one number, the score, "
                           "not None (is a `return` missing?)."),
    (lambda v, p, r: "x", "no score for rect = (0, 0, 1, 1): return one number, the score, "
                          "not 'x'."),
    (lambda v, p, r: 1 / 0, "crashed with ZeroDivisionError: division by zero on rect = "
                            "(0, 0, 1, 1), at line"),
    (_exits, "called sys.exit() (SystemExit: 2) on rect = (0, 0, 1, 1)"),
    (_endless, "did not score the 420 rectangles of this grid within 1 s"),
])
def test_best_rectangle_explains_a_function_that_gives_no_score(score, words):
    """The last cell of exercise 11 runs the learner's function like a checker does: in a
    child process under a time limit, with a sentence instead of a traceback."""
    view = state_from_ascii("""
        ........
        .A00....
        .0.0....
        .0......
        ........
        .......b
    """).view()
    best = best_rectangle(score, view, 0, time_limit=1)
    assert best.yours is None and not best.same and words in repr(best), repr(best)
    assert "\n" not in repr(best) and "The package's best: (1, 0, 5, 4)" in repr(best)


def test_the_cases_are_called_grids_as_the_exercise_calls_them():
    # before: "FAILED on board 1" and "all N boards passed" in a lesson about grids
    wrong = check_score_rectangle(lambda view, player, rect: 0.0)
    assert "FAILED on grid 1 " in wrong.message, wrong.message
    right = check_score_rectangle(reference)
    assert right.passed and " grids" in right.message and "board" not in right.message



@pytest.mark.parametrize("rounding, named", [
    (int, True), (math.floor, True), (round, True), (np.int64, True),
    (lambda s: float(int(s)), False),       # 0.0: a float 0 could be the enemy test too
    (lambda s: s // 1.0 + 3, False),        # 3.0 for 0.444: no rounding of the score
])
def test_a_score_rounded_to_a_whole_number_is_named(solution_source, rounding, named):
    """Before: int(score), math.floor or round gave 0 on grid 1 and the hint asked whether a
    neutral square was taken for another player's; now it says a whole number came back
    where the score is a fraction."""
    fn = learner(solution_source)
    result = check_score_rectangle(lambda view, player, rect: rounding(fn(view, player, rect)))
    assert result.status == WRONG and "FAILED on grid 1 " in result.message, result.message
    assert ("where the score is a fraction" in result.hint) == named, result.hint
    if named:
        assert "divide with /, not //, and do not round" in result.hint, result.hint
        assert "taken for another player's" not in result.hint or \
            "If nothing is rounded" in result.hint, result.hint


def test_a_float_rounded_down_to_0_keeps_the_enemy_hint_and_mentions_rounding():
    result = check_score_rectangle(lambda view, player, rect: float(np.floor(
        reference(view, player, rect))))
    assert "a neutral square (-1) taken for another player's?" in result.hint, result.hint
    assert "rounded down" in result.hint, result.hint


@pytest.mark.parametrize("places", [2, 3])
def test_a_score_rounded_to_decimal_places_is_named(solution_source, places):
    """Before: round(score, 3), meant for printing, got the general hint."""
    fn = learner(solution_source)
    result = check_score_rectangle(lambda view, player, rect: round(fn(view, player, rect),
                                                                    places))
    assert result.status == WRONG and "FAILED on grid 1 " in result.message, result.message
    assert f"rounded to {places} decimal places" in result.hint, result.hint


def test_an_eliminated_players_position_is_named_when_it_crashes(solution_source):
    """Before: unpacking view.positions[q] of an eliminated player (None) crashed with the
    general "read the line above", where nearest_target's checker names the player."""
    wrong = learner(solution_source.replace("if q != player and pos is not None:",
                                            "if q != player:"))
    result = check_score_rectangle(wrong)
    assert result.status == "crash" and "NoneType" in result.message, result.message
    assert "view.positions[2] is None: player 2 is eliminated" in result.hint, result.hint


def test_eliminated_flags_given_to_needed_to_win_are_named(solution_source):
    """Before: needed_to_win(owner, player, view.eliminated) took the flags False/True for
    the ids 0 and 1, so on a 2-player grid no opponent counted; the learner's cap was wrong
    and the hint was the general one."""
    from tronlab.capture.rects_terms import needed_to_win

    wrong = learner(solution_source.replace("needed_to_win(owner, player, active)",
                                            "needed_to_win(owner, player, view.eliminated)"))
    result = check_score_rectangle(wrong)
    assert result.status == "crash" and "view.eliminated holds True/False flags" in \
        result.message, result.message
    owner = np.array([[0, 0, -1, -1], [1, -1, -1, -1]], np.int8)
    assert needed_to_win(owner, 0, np.array([0, 1])) == needed_to_win(owner, 0, range(2)) == 3
    for active in ([1.0], "01", 3, [None]):
        with pytest.raises(TypeError, match="active must be a list of player ids"):
            needed_to_win(owner, 0, active)


def test_an_attribute_a_view_lacks_is_named(solution_source):
    """Before: view.active (the state has .active, a view does not) got "read the line
    above"; now the hint lists what a view has and how to get the active players."""
    wrong = learner(solution_source.replace(
        "active = [q for q in range(n) if not view.eliminated[q]]", "active = view.active"))
    result = check_score_rectangle(wrong)
    assert result.status == "crash" and "'View' object has no attribute" in result.message
    assert "a view has owner" in result.hint and "not view.eliminated[q]]" in result.hint


def test_a_border_all_yours_and_a_rectangle_with_nothing_neutral_are_checked(solution_source):
    """Before: no grid had a rectangle whose border was all the scorer's, so max() of an
    empty list (the walk) passed every grid and crashed later in best_rectangle; nor a thin
    one with no neutral square, so `if enemy: return 0` (no test for nothing neutral) gave
    such a strip its token points and passed."""
    no_default = learner(solution_source.replace("for k in todo], default=0)", "for k in todo])"))
    result = check_score_rectangle(no_default)
    assert result.case == "tiny: a border already yours: only the closing turn", result.message
    assert result.status == "crash" and "max(..., default=0)" in result.hint, result.message
    only_enemy = learner(solution_source.replace("if neutral == 0 or enemy:", "if enemy:"))
    result = check_score_rectangle(only_enemy)
    assert result.case == "tiny: nothing neutral: 0, thin or not", result.message
    assert result.hint.startswith("a rectangle with no neutral square scores 0"), result.hint


def test_a_stub_is_told_without_playing_the_seeded_games(monkeypatch):
    """Before: the 14 seeded games were played (about 5 s in a fresh kernel) before a stub
    heard 'not implemented yet'; now a stub is tried on the first tiny grid alone."""
    import tronlab.course.ex_capture as ex_capture
    import tronlab.course.ex_rects as ex_rects

    def no_games(*args, **kwargs):
        raise AssertionError("the seeded games were played for a stub")
    monkeypatch.setattr(ex_rects, "_random_cases", no_games)
    monkeypatch.setattr(ex_capture, "_game_cases", no_games)

    def score_rectangle(view, player, rect):
        raise NotImplementedError

    def nearest_target(view, player):
        """B2"""
    assert "not implemented yet" in check_score_rectangle(score_rectangle).message
    assert "not implemented yet" in ex_capture.check_nearest_target(nearest_target).message
