"""The A9 exercise checkers: the solution passes, a stub is 'not implemented', planted
mistakes get the hint that names them, wrong kinds of answer are explained."""

from __future__ import annotations

import numpy as np
import pytest

from tronlab.course.checker import (CRASH, NOT_IMPLEMENTED, PASSED, TIMEOUT, WRONG,
                                     WRONG_TYPE)
from tronlab.course.ex_learning import check_fit_weights, check_separation_sample
from tronlab.grid.voronoi import territory
from tronlab.tron.evaluate import is_separated
from tronlab.tron.spacefill import fill_length


def solution_sample(record, *, board_shift=0, fatal_counted=False, no_fill=False, swap=False,
                    final_features=False, order_ed=False, dead_short=False, len_boards=False,
                    fill_board=-1, fill_other=False, from_start=False, alive_unchecked=False,
                    own_counts=False, one_sign=None):
    """The learner's function written out plainly, with switchable mistakes."""
    boards = record.boards()
    turn = None
    for i, b in enumerate(boards):
        if not (b.alive[0] and b.alive[1]) and not alive_unchecked:
            break
        if is_separated(b):
            turn = i
            break
    if turn is None:
        return None
    t = territory(boards[-1 if final_features else
                         min(max(turn + board_shift, 0), len(boards) - 1)])
    dn, de = (t.n0, t.e0) if own_counts else (t.n0 - t.n1, t.e0 - t.e1)
    if swap:
        dn, de = -dn, -de
    if one_sign is not None:            # one difference the other way round
        dn, de = (-dn, de) if one_sign == "dn" else (dn, -de)
    if order_ed:
        dn, de = de, dn
    out = record.outcome
    moves = []
    since = 0 if from_start else turn
    for p in (0, 1):
        died = out.death_turns[p]
        if died is not None:
            moves.append(died - since - (0 if fatal_counted else 2 if dead_short else 1))
        else:
            turns = len(boards) if len_boards else out.turns
            fill = fill_length(boards[turn if fill_board == "separation" else -1],
                               1 - p if fill_other else p)
            moves.append(turns - since + (0 if no_fill else fill))
    return dn, de, moves[0], moves[1]


def solution_fit(records, *, intercept=False, target="difference", one_at_a_time=False,
                 polyfit=False, rounded=False, column=False, some=None, unfiltered=False):
    rows, ys = [], []
    records = {None: records, "one short": records[:-1]}[some]
    for r in records:
        s = solution_sample(r)
        if s is not None or unfiltered:
            rows.append([s[0], s[1], 1.0] if intercept else [s[0], s[1]])
            ys.append({"difference": s[2] - s[3], "moves0": s[2], "sum": s[2] + s[3]}[target])
    if not rows:
        return None
    x, y = np.array(rows, float), np.array(ys, float)
    if one_at_a_time:
        return tuple(float(np.linalg.lstsq(x[:, [c]], y, rcond=None)[0][0]) for c in (0, 1))
    if polyfit:
        return tuple(float(v) for v in np.polyfit(x[:, 0], y, 1))
    if column:
        return tuple(np.linalg.lstsq(x, y.reshape(-1, 1), rcond=None)[0])
    k = np.linalg.lstsq(x, y, rcond=None)[0]
    return (round(float(k[0]), 3), round(float(k[1]), 3)) if rounded else (float(k[0]),
                                                                            float(k[1]))


def test_the_solutions_pass():
    assert check_separation_sample(solution_sample).status == PASSED
    assert check_fit_weights(solution_fit, separation_sample=solution_sample).status == PASSED


def test_stubs_are_not_implemented():
    def separation_sample(record):
        raise NotImplementedError

    def fit_weights(records):
        ...
    assert check_separation_sample(separation_sample).status == NOT_IMPLEMENTED
    assert check_fit_weights(fit_weights).status == NOT_IMPLEMENTED


@pytest.mark.parametrize("mistake, words", [
    ({"board_shift": 1}, "separate on board"),
    ({"board_shift": -1}, "separate on board"),
    ({"fatal_counted": True}, "fatal move"),
    ({"no_fill": True}, "fill_length"),
    ({"swap": True}, "player 0's count minus player 1's"),
    # before: the general hint for each of these
    ({"final_features": True}, "(the final board), but the players separate on board 0"),
    ({"order_ed": True}, "the difference of n first, then of e"),
    ({"dead_short": True}, "10 - 1 - 5 = 4 moves"),
    ({"from_start": True}, "10 - 1 - 5, not 10 - 1 from the start"),
    ({"len_boards": True}, "len(record.boards()) is one more"),
    ({"fill_board": "separation"}, "from the final board, record.boards()[-1]"),
    ({"fill_other": True}, "player 0's own estimate, not the other player's"),
    # before: the general hint
    ({"own_counts": True}, "(4, 6) are player 0's own counts n0, e0; the features are "
                           "differences: dn = n0 - n1 = 0"),
    # before: the general hint (the first game whose features are not 0 is a seeded one)
    ({"one_sign": "de"}, "de has the wrong sign (dn is right): de = e0 - e1 = 22 - 4 = 18"),
    ({"one_sign": "dn"}, "dn has the wrong sign (de is right): dn = n0 - n1 = 11 - 3 = 8"),
])
def test_planted_mistakes_get_their_hint(mistake, words):
    r = check_separation_sample(lambda record: solution_sample(record, **mistake))
    assert r.status == WRONG and words in r.hint, r.message
    # the expected sample is worked out under it, line by line
    assert "the players are first apart on board" in r.expected, r.message


@pytest.mark.parametrize("mistake, words", [
    ({"one_at_a_time": True}, "one at a time"),
    ({"polyfit": True}, "numpy.polyfit(..., 1) fits one feature (dn) and an intercept"),
    ({"target": "moves0"}, "your target is moves0;"),
    ({"target": "sum"}, "your target is moves0 + moves1;"),
    ({"rounded": True}, "without rounding"),
    # before: 'within rounding of the right ones' for the first, the general hint for the
    # second, 'read the line above' for the third
    ({"some": "one short"}, "the fit of the first 44 of the 45 games that separate"),
    ({"unfiltered": True}, "10 of these 30 games never separate, and separation_sample gives "
                           "None for them: skip those games"),
])
def test_fits_made_the_wrong_way_are_named(mistake, words):
    """Before: the general hint for each."""
    r = check_fit_weights(lambda records: solution_fit(records, **mistake))
    assert r.status == (CRASH if "unfiltered" in mistake else WRONG), r.message
    assert words in r.hint, r.message


def test_weights_a_little_off_are_not_called_rounded():
    """Before: anything within 0.005 of the right weights was 'within rounding'."""
    def off(records):
        k1, k2 = solution_fit(records)
        return k1 * 1.002, k2 * 1.002
    r = check_fit_weights(off)
    assert r.status == WRONG and "rounding" not in r.hint, r.message
    for digits in (2, 4):
        r = check_fit_weights(lambda records: tuple(round(k, digits)
                                                    for k in solution_fit(records)))
        assert r.status == WRONG and "without rounding" in r.hint, r.message


def test_weights_in_a_column_or_three_of_them_are_explained():
    """Before: 'return the weights, a sequence of 2 floats' for both, which they looked like."""
    r = check_fit_weights(lambda records: solution_fit(records, column=True))
    assert r.status == WRONG_TYPE and "y.ravel()" in r.hint and "shape (1,)" in r.hint, r.message
    r = check_fit_weights(lambda records: np.linalg.lstsq(
        np.eye(2), np.ones((2, 1)), rcond=None)[0])
    assert r.status == WRONG_TYPE and "an array of shape (2, 1)" in r.hint, r.message
    r = check_fit_weights(lambda records: [0.05, 0.2, 0.0])
    assert r.status == WRONG_TYPE and "not 3 values" in r.hint, r.message


def test_a_separation_found_once_a_player_is_out_is_wrong():
    """The exercise asks for a board where both players are alive and apart. Before, no game
    had a board where the heads could not meet only because one player had just died, so a
    function without the alive check passed every game (and fed fit_weights a sample with
    -1 moves)."""
    r = check_separation_sample(lambda record: solution_sample(record, alive_unchecked=True))
    assert r.status == WRONG and r.expected == "None", r.message
    assert r.got.endswith(", -1)") and "takes the door" in r.case, r.message
    assert ("on board 1 the heads cannot meet, but only because player 1 is out (it died on "
            "turn 1)") in r.hint and "return None" in r.hint, r.message


def test_a_forgotten_return_at_the_end_is_named():
    """A function with `return None` for games that never separate, whose last line builds
    the sample but does not return it. Before: 'the players do separate in this game: look
    at every board', which sent the learner to a search that was right."""
    def separation_sample(record):
        s = solution_sample(record)
        if s is None:
            return None
        dn, de, moves0, moves1 = s
        sample = (dn, de, moves0, moves1)     # noqa: F841 - the mistake
    r = check_separation_sample(separation_sample)
    assert r.status == WRONG and r.got == "None", r.message
    assert ("can end without a `return`: after its last line, `sample = (dn, de, moves0, "
            "moves1)`, Python returns None") in r.hint, r.message

    def ends_in_if_else(record):                # every way through returns: no such hint
        s = solution_sample(record)
        if s is not None and s[0] > 100:
            return s
        else:
            return None
    r = check_separation_sample(ends_in_if_else)
    assert r.status == WRONG and "look at every board" in r.hint, r.message
    assert "without a `return`" not in r.hint, r.message


def test_never_separating_and_always_none():
    def separation_sample(record):
        record.boards()
        return None
    r = check_separation_sample(separation_sample)
    assert r.status == WRONG and "do separate" in r.hint
    r = check_separation_sample(lambda record: solution_sample(record) or (0, 0, 0, 0))
    assert r.status == WRONG and "return None" in r.hint


def test_a_fit_without_samples_is_none():
    """The last test's games never separate: nothing to fit, the answer is None. Before, no
    such test: lstsq's crash there, or its (0, 0) on an empty (0, 2) matrix, passed."""
    r = check_fit_weights(solution_fit)
    assert r.passed and r.checked == 3, r.message

    def crashes(records):           # lstsq on no rows: a 1-d array, LinAlgError
        return solution_fit(records) or np.linalg.lstsq(np.array([], float), np.array([]))

    def zeros(records):
        return solution_fit(records) or (0.0, 0.0)

    for fn, status in [(crashes, "crash"), (zeros, WRONG)]:
        r = check_fit_weights(fn)
        assert r.status == status and r.case.endswith("that never separate"), r.message
        assert "none of these 15 games separates" in r.hint and "return None" in r.hint
    # a None where games do separate is still a forgotten answer
    def forgets(records):
        solution_fit(records)
    r = check_fit_weights(forgets)
    assert r.status == WRONG_TYPE and "`return` missing" in r.hint, r.message


def test_wrong_kinds_of_answer():
    r = check_separation_sample(lambda record: [1, 2, 3])
    assert r.status == WRONG_TYPE and "4 ints" in r.hint
    r = check_separation_sample(lambda record: (1.5, 2, 3, 4))
    assert r.status == WRONG_TYPE and "dn must be an int" in r.hint
    r = check_fit_weights(lambda records: "k1")
    assert r.status == WRONG_TYPE and "two numbers" in r.hint
    # before: 'gave a wrong answer', k1 = nan, and the general hint
    r = check_fit_weights(lambda records: (float("nan"), 0.2))
    assert r.status == WRONG_TYPE and "the weights must be finite numbers" in r.hint, r.message


def test_a_wrong_fit_is_explained():
    r = check_fit_weights(lambda records: solution_fit(records, intercept=True))
    assert r.status == WRONG and "intercept" in r.hint
    # with the learner's own features, the first record where they differ is named
    bad = lambda record: solution_sample(record, no_fill=True)  # noqa: E731
    r = check_fit_weights(lambda records: (0.1, 0.2), separation_sample=bad)
    assert r.status == WRONG and "features differ first on game" in r.hint, r.message


def test_a_fit_a_little_off_is_wrong():
    # the weights are a least-squares solution: 1e-4 off is a wrong answer, 1e-9 is not
    def off(by):
        def fit_weights(records):
            fit = solution_fit(records)
            return None if fit is None else (fit[0] * (1 + by), fit[1])
        return fit_weights
    assert check_fit_weights(off(1e-9)).status == PASSED
    assert check_fit_weights(off(1e-4)).status == WRONG


def endless_sample(record):
    while True:
        pass


def exiting_sample(record):
    import sys
    sys.exit(3)


@pytest.mark.parametrize("sample, words", [
    (endless_sample, "did not finish within 1 s on game 0"),
    (exiting_sample, "called sys.exit() (SystemExit: 3) on game 0"),
    (lambda record: 1 / 0, "crashed with ZeroDivisionError"),
])
def test_the_learners_features_run_under_the_time_limit_and_their_crashes_are_reported(
        sample, words):
    """A wrong fit calls the learner's separation_sample to find the first record whose
    features differ: like every checked call it runs in a child under the time limit, so
    an endless loop or sys.exit() there ends in a message, not a hung or ended notebook."""
    r = check_fit_weights(lambda records: (0.1, 0.2), separation_sample=sample, time_limit=1)
    assert r.status == WRONG and words in r.hint, r.message


def test_fit_weights_failures_show_the_call_without_a_board():
    r = check_fit_weights(lambda records: (0.1, 0.2))
    assert "fit_weights(records)   # 30 games" in r.message, r.message
    assert "board" not in r.message and r.board is not None


def _features(records, sample):
    """A learner's least-squares rows: ``(rows, ys)`` of the games ``sample`` separates."""
    rows, ys = [], []
    for record in records:
        s = sample(record)
        if s is not None:
            rows.append(s[:2])
            ys.append(s[2] - s[3])
    return rows, ys


def test_the_whole_lstsq_result_is_explained():
    def fit_weights(records):
        rows, ys = _features(records, solution_sample)
        return np.linalg.lstsq(np.array(rows, float), np.array(ys, float), rcond=None)
    r = check_fit_weights(fit_weights)
    assert r.status == WRONG_TYPE, r.message
    assert "a sequence of 2 floats" in r.hint and "first item is the solution" in r.hint
    assert r.got.startswith("tuple of 4 items: (array([0.")


def _records():
    from tronlab.course.ex_learning import sample_games
    return [rec for _, rec in sample_games(6, seed=3)]


def test_your_weights_gives_the_learners_fit_or_one_sentence_and_none(capsys):
    from tronlab.course.ex_learning import your_weights

    def good(records):
        return 0.5, np.float64(0.25)

    def stub(records):
        raise NotImplementedError

    def loop(records):
        while True:
            pass

    def crash(records):
        return 1 / 0

    def whole_lstsq(records):
        return np.linalg.lstsq(np.eye(2), np.ones(2), rcond=None)

    records = _records()
    assert your_weights(good, records) == (0.5, 0.25)
    assert capsys.readouterr().out == ""
    # its answer instead of the function: before, 'crashed with TypeError: 'tuple' object is
    # not callable', as if fit_weights had crashed
    assert your_weights(good(records), records) is None
    out = capsys.readouterr().out
    assert "itself, not tuple (0.5, " in out and "no parentheses after fit_weights" in out, out
    for fn, said in [(stub, "write fit_weights first"),
                     (loop, "did not finish within 1 s"),
                     (crash, "crashed with ZeroDivisionError: division by zero, at line"),
                     (whole_lstsq, "first item is the solution")]:
        assert your_weights(fn, records, time_limit=1) is None
        out = capsys.readouterr().out
        assert said in out and out.count("\n") == 1 and "?." not in out, out


# ---- mistakes that used to get another mistake's hint (or a puzzling one) ---------------


def test_an_endless_loop_is_told_in_the_words_of_records_not_squares():
    """Before: both checkers' timeout hint was the flood fill's 'a square visited again and
    again', and a fit that hangs in the learner's separation_sample was not pointed there."""
    def endless_sample(record):
        boards, i = record.boards(), 0
        while i < len(boards):
            if boards[i].alive.all():
                continue                # the index never moves on
            i += 1

    r = check_separation_sample(endless_sample, time_limit=0.3)
    assert r.status == TIMEOUT and "the boards whose index never moves on" in r.hint, r.message
    r = check_fit_weights(fit_with(endless_sample), time_limit=0.3)
    assert r.status == TIMEOUT and "a square" not in r.hint, r.message
    assert "in fit_weights or in the separation_sample it calls" in r.hint, r.message

def test_swapped_moves_are_named():
    # before: "player 0 survived ... add the greedy filler's length", the wrong fix
    def separation_sample(record):
        s = solution_sample(record)
        return None if s is None else (s[0], s[1], s[3], s[2])
    result = check_separation_sample(separation_sample)
    assert result.status == WRONG, result.message
    assert "yours are the other way round" in result.hint


def test_a_missing_fill_is_told_once_that_the_player_survived():
    # before: "player 0 survived the 4 turns: player 0 survived: the record stops ..."
    r = check_separation_sample(lambda record: solution_sample(record, no_fill=True))
    assert r.status == WRONG, r.message
    assert r.hint.count("survived") == 1 and "add the greedy filler's length" in r.hint, r.hint


def test_a_sample_without_a_return_is_told_so():
    # before: "the players do separate in this game: look at every board, the start
    # included", for a function that worked the sample out and never returned it
    def separation_sample(record):
        sample = solution_sample(record)    # noqa: F841 - the forgotten return

    r = check_separation_sample(separation_sample)
    assert r.status == WRONG_TYPE, r.message
    assert "has no `return` with a value" in r.hint, r.hint


@pytest.mark.parametrize("use", [lambda boards: list(boards), lambda boards: boards[0]])
def test_boards_not_called_is_named(use):
    # before: "'method' object is not iterable" with the general crash hint
    r = check_separation_sample(lambda record: use(record.boards))
    assert r.status == CRASH and "call it, record.boards()" in r.hint, r.message


def test_a_dict_sample_is_told_to_be_a_tuple():
    # before: "dn must be an int, got str" (the dict's keys)
    def separation_sample(record):
        s = solution_sample(record)
        return None if s is None else dict(zip(("dn", "de", "moves0", "moves1"), s))
    result = check_separation_sample(separation_sample)
    assert result.status == WRONG_TYPE, result.message
    assert "as a tuple or list, not a dict" in result.hint


@pytest.mark.parametrize("weights, hint", [
    (lambda k: (k[1], k[0]), "you returned (k2, k1)"),
    (lambda k: (-k[0], -k[1]), "the target is moves0 - moves1"),
    (lambda k: set(k), "not a set"),
])
def test_weights_swapped_negated_or_unordered_are_named(weights, hint):
    # before: the generic hint for the first two, and a set could pass or fail by its order
    def fit_weights(records):
        return weights(solution_fit(records))
    result = check_fit_weights(fit_weights, separation_sample=solution_sample)
    assert not result.passed and hint in result.hint, result.message


def test_separation_sample_messages_count_games_not_boards():
    """Each case is a whole game record; "FAILED on board 1" read like record.boards()[1]."""
    r = check_separation_sample(lambda record: (0, 0, 0, 0))
    assert r.message.startswith("separation_sample: FAILED on game 1 (hand: "), r.message
    r = check_separation_sample(solution_sample)
    assert f"all {r.checked} games passed" in r.message, r.message


@pytest.mark.parametrize("helper, words", [
    ("separation_sample", "separation_sample= takes your separation_sample function"),
    (3, "but got int 3"),
    (lambda: None, "the checker calls separation_sample(record), but your function takes ()"),
])
def test_a_wrong_separation_sample_helper_is_a_bad_argument(helper, words):
    """Before: it was called only once the fit was wrong, and then reported as the learner's
    separation_sample crashing ('str' object is not callable)."""
    r = check_fit_weights(lambda records: (0.1, 0.2), separation_sample=helper)
    assert r.status == "bad argument" and words in r.message, r.message


def test_a_checker_given_a_value_shows_the_call_with_the_functions_own_argument():
    r = check_separation_sample((1, 2, 3, 4))
    assert r.status == "bad argument", r.message
    assert "not check_separation_sample(separation_sample(record))" in r.message, r.message


def fit_with(sample):
    """The solution's fit_weights calling ``sample`` for the features."""
    def fit_weights(records):
        rows, ys = _features(records, sample)
        if not rows:
            return None
        k = np.linalg.lstsq(np.array(rows, float), np.array(ys, float), rcond=None)[0]
        return float(k[0]), float(k[1])
    return fit_weights


def never_apart(record):
    return None


def sample_stub(record):
    raise NotImplementedError


def test_a_fit_of_no_rows_because_the_sample_is_always_none_names_the_sample():
    """fit_weights rightly returns None when the learner's separation_sample finds no
    separation; before, the checker asked whether a `return` was missing."""
    r = check_fit_weights(fit_with(never_apart), separation_sample=never_apart)
    assert r.status != PASSED and "returned None for all 30 games" in r.hint, r.message
    assert "`return` missing" not in r.hint
    # a sample that does find separations: the None is fit_weights' own, the usual hint
    def forgets(records):
        fit_with(solution_sample)(records)
    r = check_fit_weights(forgets, separation_sample=solution_sample)
    assert "`return` missing" in r.hint, r.message


@pytest.mark.parametrize("fit, said", [
    (fit_with(never_apart), "does your separation_sample return None for every game?"),
    (fit_with(sample_stub), "write sample_stub, which fit_weights calls, first"),
    (lambda records: (float("nan"), 0.2), "the weights must be finite numbers"),
    (lambda records: (0.1, -np.inf), "the weights must be finite numbers"),
])
def test_your_weights_says_what_is_really_missing(capsys, fit, said):
    """Before: a None from a fit without rows was "not a sequence of 2 floats", a stub
    separation_sample was "write fit_weights first", and NaN weights were returned, for
    SearchBot to stop the match cell with a traceback."""
    from tronlab.course.ex_learning import your_weights
    assert your_weights(fit, _records(), time_limit=5) is None
    out = capsys.readouterr().out
    assert said in out and out.count("\n") == 1, out


def _match_cell(path):
    """The code of the 'Play with your weights' cell of an exercise 06 notebook."""
    import json
    from pathlib import Path
    cells = json.loads((Path(__file__).parent.parent / path).read_text())["cells"]
    at = next(i for i, c in enumerate(cells) if "## Play with your weights" in c["source"])
    return "".join(cells[at + 1]["source"])


def test_the_match_cell_plays_games_the_weights_decide():
    """The cell's games must be decided by play and change with the weights. Before, of
    its three maps one was a head-on draw on turn 1 and one a draw on turn 45 whatever the
    weights, and the solution's fit gave the same list as the published weights."""
    from tronlab.course.ex_learning import sample_games
    from tronlab.runner.engine import play
    code = _match_cell("exercises/06_learning_exercise.ipynb")
    assert code == _match_cell("solutions/06_learning_solution.ipynb")
    lists = {}
    for weights in [None, (0.238, 0.211), (1.0, 0.0)]:       # None: the published weights
        space = {"sample_games": sample_games, "play": play, "fit_weights": None,
                 "your_weights": lambda fit, records, w=weights: w}
        exec(code, space)
        assert min(space["turns"]) >= 8 and "draw" not in space["results"], space
        lists[weights] = space["results"]
    assert len({tuple(v) for v in lists.values()}) == 3, lists
