"""Exercise B2's checker (tronlab.course.ex_capture): the package's bot passes, each
typical mistake fails on the tiny grid made for it with the hint about it, wrong kinds
of answer are explained, and the checker's plain-Python twin agrees with the bot."""

import numpy as np
import pytest

from tronlab.capture.bots import nearest_target
from tronlab.capture.state import NEUTRAL
from tronlab.course.ex_capture import (MISTAKES, NearestTarget, _game_cases, _tiny_cases,
                                       check_nearest_target, variant)
from tronlab.course.ex_capture_game import match_your_bot, play_your_bot


def test_the_package_bot_passes():
    result = check_nearest_target(nearest_target)
    assert result.passed and result.checked == len(NearestTarget().cases()) > 60


def test_the_twin_agrees_with_the_bot_on_every_grid():
    for case in _tiny_cases() + list(_game_cases(seed=7, games=12)):
        assert variant(case.board.view, *case.args) == nearest_target(case.board.view,
                                                                        *case.args), case.label


#: mistake -> the tiny grid that first catches it and a word of its hint
WRONG = [
    ({"metric": "chebyshev"}, "not the larger of |dx| and |dy|", "max(|dx|, |dy|)"),
    ({"metric": "euclid"}, "Manhattan distance", "straight-line"),
    ({"cluster": False}, "a cluster is worth", "clusters"),
    ({"neighbours": 8}, "not the diagonal ones", "only the four squares beside"),
    ({"tie": "no-distance"}, "equal cost: the shorter", "shorter walk"),
    ({"tie": "no-neighbours"}, "more neutral neighbours", "more neutral neighbours"),
    ({"tie": "last"}, "reading order", "not the last"),
    ({"tie": "column"}, "reading order", "smallest y first"),
    ({"own": True}, "never the square you stand on", "own square"),
    ({"late": False}, "leave squares nearer the opponent", "strictly nearer to"),
    ({"around_own": False}, "never the square you stand on", "counts as a neutral neighbour"),
    ({"strict": False}, "as near to both is kept", "*strictly*"),
    ({"late": "always"}, "early in the game", "only matter late"),
    # before: no such mistake; the grid's only fitting one was max(|dx|, |dy|), which the
    # learner had passed a grid for, and that hint was given for lack of another
    ({"occupied": True}, "early in the game", "another player stands on is still a candidate"),
]


@pytest.mark.parametrize("options, grid, hint", WRONG)
def test_each_mistake_is_named_on_its_grid(options, grid, hint):
    result = check_nearest_target(lambda view, player: variant(view, player, **options))
    assert not result.passed and result.status == "wrong answer"
    assert grid in result.case and hint in result.hint
    assert "Expected:" in result.message and "0123" in result.message   # the grid is drawn


#: each mistake's own hint, as the checker words it
OWN_HINT = {str(options): text for options, text in MISTAKES}


@pytest.mark.parametrize("options", [m for m, _, _ in WRONG])
def test_each_mistake_gets_its_own_hint_first(options):
    """Before: skipping the shorter-distance tie-break failed on a grid where two distance
    mistakes gave the same target, so its hint came third after two about Manhattan
    distance; applying the late rule from the first round got the neighbour tie-break's
    hint first; and the straight-line distance got the max(|dx|, |dy|) hint first, joined
    with its own (the two gave the same target on every grid up to the one that failed)."""
    result = check_nearest_target(lambda view, player: variant(view, player, **options))
    assert result.hint.startswith(OWN_HINT[str(options)]), result.hint


@pytest.mark.parametrize("metric", ["chebyshev", "euclid"])
def test_each_distance_mistake_gets_its_hint_alone(metric):
    """The straight line passes the grid made for max(|dx|, |dy|), so when it fails on the
    next grid, where the two agree, the max(|dx|, |dy|) hint is left out."""
    result = check_nearest_target(lambda view, player: variant(view, player, metric=metric))
    assert result.hint == OWN_HINT[str({"metric": metric})], result.hint


def test_late_starts_at_exactly_half_the_grid_neutral():
    """"At most half the grid neutral" is late: a learner testing < instead of <= passed
    every grid before (none had exactly half neutral); now the grid made for it fails it,
    and the hint says that exactly half is included."""
    def strict_half(view, player):
        owner = np.asarray(view.owner)
        if np.count_nonzero(owner == -1) == owner.size / 2:
            return variant(view, player, late=False)
        return variant(view, player)

    result = check_nearest_target(strict_half)
    assert not result.passed and "exactly half the grid neutral" in result.case, result.case
    assert "exactly half included: <=, not <" in result.hint, result.hint


def test_every_mistake_has_a_test():
    assert sorted(str(m) for m, _ in MISTAKES) == sorted(str(m) for m, _, _ in WRONG)


def test_an_unknown_mistake_gets_the_general_hint():
    def far(view, player):      # the farthest neutral square
        owner = np.asarray(view.owner)
        ys, xs = np.nonzero(owner == -1)
        x, y = view.positions[player]
        k = int(np.argmax(np.abs(xs - x) + np.abs(ys - y)))
        return (int(xs[k]), int(ys[k]))

    result = check_nearest_target(far)
    assert not result.passed and result.hint == NearestTarget.hint


@pytest.mark.parametrize("answer, text", [
    ([1], "pair (x, y)"), ("3 4", "pair (x, y)"), ((1.5, 2), "whole numbers"),
    ((99, 0), "off the"),
])
def test_wrong_kinds_of_answer_are_explained(answer, text):
    result = check_nearest_target(lambda view, player: answer)
    assert not result.passed and text in result.hint


def test_the_cases_are_called_grids_as_the_exercise_calls_them():
    # before: "FAILED on board 1" and "all N boards passed" in a lesson about grids
    wrong = check_nearest_target(lambda view, player: (0, 0))
    assert "FAILED on grid 1 " in wrong.message, wrong.message
    right = check_nearest_target(nearest_target)
    assert right.passed and " grids" in right.message and "board" not in right.message


def test_a_target_given_as_y_x_is_named():
    # before: "(1, 4) is off the 7x4 grid" alone, and the general hint where (y, x) fits
    result = check_nearest_target(lambda view, player: nearest_target(view, player)[::-1])
    assert not result.passed and "did you return (y, x)?" in result.hint, result.message
    case = next(c for c in _tiny_cases() if c.label.endswith("reading order"))
    want = nearest_target(case.board.view, *case.args)
    assert want[0] != want[1] and max(want) < min(case.board.height, case.board.width)
    assert "did you return (y, x)?" in NearestTarget().diagnose(case, want[::-1], want)


def test_a_learner_writing_into_the_grid_is_told_by_the_crash():
    def scribble(view, player):
        view.owner[0, 0] = 0
        return (0, 0)

    result = check_nearest_target(scribble)
    assert result.status == "crash" and "read-only" in result.message
    # the hint says what is read-only and how to get scratch space, not "read the line above"
    assert "`view.owner` is read-only" in result.hint, result.hint
    assert "np.array(view.owner)" in result.hint and "read the line above" not in result.hint

    def scribble_asarray(view, player):
        owner = np.asarray(view.owner)          # no copy: still read-only
        owner[0, 0] = 0
        return (0, 0)

    assert "`np.asarray` does not copy" in check_nearest_target(scribble_asarray).hint

    def scratch(view, player):                  # what the hint says: a copy may be written
        owner = np.array(view.owner)
        owner[0, 0] = 0
        return (0, 0)

    assert check_nearest_target(scratch).status == "wrong answer"


def test_an_index_past_the_grid_gets_the_row_first_hint_and_a_tuples_does_not():
    """owner[x, y] runs off a grid wider than high: the hint says owner is indexed row
    first.  Before, the same hint came for any IndexError, a positions tuple's too."""
    def x_first(view, player):
        x, y = view.positions[player]
        return (x, y) if view.owner[view.width - 1, 0] else (x, y)

    def past_the_players(view, player):
        return view.positions[len(view.positions)]

    assert "indexed row first, owner[y, x]" in check_nearest_target(x_first).hint
    hint = check_nearest_target(past_the_players).hint
    assert "tuple index out of range" in check_nearest_target(past_the_players).message
    assert "row first" not in hint and "read the line above" in hint, hint


def test_wrong_signature_and_stub():
    assert check_nearest_target(lambda view: (0, 0)).status == "bad argument"

    def stub(view, player):
        raise NotImplementedError
    assert check_nearest_target(stub).status == "not implemented"


@pytest.mark.parametrize("answer, text", [
    ({"x": 4, "y": 1}, "a tuple such as (4, 1), not a dict: got {'x': 4, 'y': 1}"),
    (np.array([[4], [1]]), "not a numpy array of shape (2, 1) (array([[4], [1]])): take the "
                           "two numbers out"),
    ((v for v in (4, 1)), "not a generator (<generator object"),
    ([1, 2, 3], "two numbers, got a list of 3 items: [1, 2, 3]"),
    (("4", 1), "not strings: got ('4', 1)"),
])
def test_odd_answers_are_named_accurately_and_shown_whole(answer, text):
    """The kind of answer is named (a dict is not "strings"), and what is shown of it is
    whole or cut at a comma with "...", never in the middle of a number."""
    result = check_nearest_target(lambda view, player: answer)
    assert result.status == "wrong type" and text in result.hint, result.hint


def _stub(view, player):
    raise NotImplementedError


def _calls_a_stub(view, player):
    return _stub(view, player)


def _crashes_late(view, player):
    if view.round > 5:
        return 1 / 0
    return nearest_target(view, player)


def _endless(view, player):
    while True:
        pass


@pytest.mark.parametrize("bot, text", [
    (_stub, "write nearest_target first"),
    (_calls_a_stub, "write nearest_target first"),
    (_crashes_late, "No game: nearest_target crashed with ZeroDivisionError: division by zero "
                    "as player 0 in round 6, at line"),
    (lambda view, player: None, "No game: nearest_target gave no target as player 0 in round 1: "
                                "return the target as a pair (x, y), not None"),
    (_endless, "No game: the game did not finish within 1 s"),
])
def test_a_game_with_an_unfinished_or_faulty_function_says_why(bot, text, capsys):
    """Exercise 10's game cell: a stub, a crash or a non-answer does not play a silent game
    (the engine would record "error" and go on), and an endless loop does not hang."""
    assert play_your_bot(bot, "random", rng=3, time_limit=1) is None
    assert text in capsys.readouterr().out


def test_a_right_function_plays_the_game_and_the_match(capsys):
    from tronlab.capture import play_capture
    from tronlab.capture.bots import NearestBot

    rec = play_your_bot(nearest_target, "random", rng=3)
    assert rec.actions == play_capture([NearestBot(), "random"], rng=3).actions
    tally = match_your_bot(nearest_target, "random", n_players=2, games=2, seed=10)
    assert tally.games == 2 and capsys.readouterr().out == ""
    assert match_your_bot(_stub, "random", n_players=2, games=2, seed=10) is None
    assert "until then there is no match." in capsys.readouterr().out


def _right_but_slow(view, player):
    """The rule square by square with the neutral squares in a list (`in` on a list): right,
    but about 8 s for the game cell's game here (load 3), 76 s for its match (limit 120)."""
    me = tuple(view.positions[player])
    free = [(x, y) for y in range(view.height) for x in range(view.width)
            if view.owner[y][x] == NEUTRAL]
    cand = [sq for sq in free if sq != me]
    if not cand:
        return me

    def dist(a, b):
        return abs(a[0] - b[0]) + abs(a[1] - b[1])
    if len(free) <= 0.5 * view.width * view.height:
        others = [p for q, p in enumerate(view.positions)
                  if q != player and p is not None and not view.eliminated[q]]
        cand = [sq for sq in cand if not any(dist(sq, o) < dist(sq, me) for o in others)] or cand

    def around(sq):
        return sum((sq[0] + dx, sq[1] + dy) in free
                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    return min(cand, key=lambda sq: (dist(sq, me) + 3 * (around(sq) == 0), dist(sq, me),
                                     -around(sq), sq[1], sq[0]))


def test_a_right_but_slow_function_is_told_it_is_slow_not_endless(capsys):
    assert check_nearest_target(_right_but_slow).passed
    capsys.readouterr()
    assert play_your_bot(_right_but_slow, "random", rng=3, time_limit=2) is None
    out = capsys.readouterr().out
    assert "No game: the game was stopped after" in out and "nearest_target does return" in out
    assert "likely right but slow" in out and "not a list searched with `in`" in out
    assert "never ends" not in out


def _learner(*, index="yx", empty="stay", active=True, diagonals=False, keep_all=True):
    """A plain-Python B2 written the way a learner might, with switchable slips: the grid
    read as owner[x, y], None or min() of nothing where nothing is neutral, every other
    player taken as an opponent (an eliminated one's position is None), the diagonal
    squares counted as neighbours, the late filter's "unless that drops every candidate"
    forgotten (``keep_all=False``)."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonals else []

    def nearest(view, player):
        at = (lambda x, y: view.owner[y, x]) if index == "yx" else (lambda x, y: view.owner[x, y])
        me = view.positions[player]
        free = {(x, y) for y in range(view.height) for x in range(view.width) if at(x, y) == -1}
        cand = free - {me}
        if not cand and empty == "stay":
            return me
        if not cand and empty == "none":
            return None
        if len(free) <= 0.5 * view.width * view.height:
            others = [p for q, p in enumerate(view.positions)
                      if q != player and (not active or not view.eliminated[q])]

            def d(a, b):
                return abs(a[0] - b[0]) + abs(a[1] - b[1])
            kept = {s for s in cand if not any(d(s, o) < d(s, me) for o in others)}
            cand = kept or cand if keep_all else kept

        def around(s):
            return sum((s[0] + dx, s[1] + dy) in free for dx, dy in steps)

        def key(s):
            dist = abs(s[0] - me[0]) + abs(s[1] - me[1])
            return (dist + 3 * (around(s) == 0), dist, -around(s), s[1], s[0])
        return min(cand, key=key)
    return nearest


def test_a_learner_twin_passes_and_its_slips_get_their_own_hints():
    # before: "read the line above" for owner[x, y] and for min() of nothing, "is a `return`
    # missing" for None where nothing is neutral, and no grid with an eliminated player, so
    # a function that crashes on one passed the check and then crashed in a 3-player game
    assert check_nearest_target(_learner()).passed
    swapped = check_nearest_target(_learner(index="xy"))
    assert swapped.status == "crash" and "owner[x, y] runs off" in swapped.hint, swapped.message
    for empty, status in (("none", "wrong type"), ("min", "crash")):
        result = check_nearest_target(_learner(empty=empty))
        assert result.status == status and result.case == "tiny: nothing neutral: stay"
        assert "return your own square, view.positions[player], here (1, 1)" in result.hint
    result = check_nearest_target(_learner(active=False))
    assert result.status == "crash" and "eliminated" in result.case, result.message
    assert "view.positions[2] is None: player 2 is eliminated" in result.hint
    assert "with this grid:" in result.message and "this board" not in result.message


def test_a_late_filter_that_leaves_nothing_is_named():
    """Before: min() of an empty list on the grid where every square is nearer the opponent
    got only "read the line above"."""
    result = check_nearest_target(_learner(keep_all=False))
    assert result.status == "crash" and "keep them all" in result.case, result.message
    assert "when the filter would leave nothing, keep all the candidates" in result.hint


def test_eight_neighbours_fail_on_a_tiny_grid_with_the_neighbour_rule():
    """Before: a learner counting the 8 squares around (diagonals too) passed every tiny
    grid and failed on a game grid, where the hint was about the tie order."""
    result = check_nearest_target(_learner(diagonals=True))
    assert result.status == "wrong answer", result.message
    assert result.case == "tiny: neighbours are the four squares beside, not the diagonal ones"
    assert result.hint.startswith("neighbours: only the four squares beside a square count - "
                                  "up, down, left, right;"), result.hint
    assert "ties" not in result.hint and "reading order" not in result.hint


def _float_x(view, player):
    x, y = nearest_target(view, player)
    return (float(x), y)


@pytest.mark.parametrize("convert, text", [
    (float, "the game refuses a float, even 4.0"),
    (np.float64, "the game refuses a float, even 4.0"),
    (bool, "not True or False"),
])
def test_a_target_the_game_refuses_fails_the_check_on_grid_1(convert, text):
    # before: (4.0, 1) and (np.float64(4.0), 1) passed all 77 grids, then the game
    # eliminated the bot in round 1 with 'bad-output'
    result = check_nearest_target(lambda view, player: (convert(nearest_target(view, player)[0]),
                                                        nearest_target(view, player)[1]))
    assert result.status == "wrong type" and "FAILED on grid 1 " in result.message
    assert "x and y must be whole numbers" in result.hint and text in result.hint, result.hint


def test_numpy_integers_still_pass():
    assert check_nearest_target(lambda view, player: tuple(
        np.int64(v) for v in nearest_target(view, player))).passed
    assert check_nearest_target(lambda view, player: np.array(nearest_target(view, player),
                                                              dtype=np.int32)).passed


@pytest.mark.parametrize("answer", [
    (4, 1), [4, 1], (np.int64(4), np.uint8(1)), np.array([4, 1]), np.array([4, 1], np.int8),
    (4.0, 1), (np.float64(4), 1), np.array([4.0, 1.0]), (True, 1), (np.bool_(True), 1),
    np.array([True, False]), (4.5, 1), (4, 1.0), range(4, 6), __import__("collections").deque(
        [4, 1]), (4, 9), (-1, 1), ("BACK", 2),
])
def test_the_checker_accepts_exactly_the_targets_the_game_plays(answer):
    """Oracle: the game's own reading of an action (plain_action, then read_action)."""
    from tronlab.capture.actions import plain_action
    from tronlab.capture.rules import read_action
    from tronlab.course.checker import WrongType
    from tronlab.course.ex_capture import as_target

    view = _tiny_cases()[0].board.view
    game_plays = read_action(plain_action(answer), view, 0)[0] == "move"
    try:
        as_target(answer, view)
        accepted = True
    except WrongType:
        accepted = False
    assert accepted == game_plays, (answer, accepted, game_plays)


def test_a_game_and_a_match_with_a_float_target_say_so(capsys):
    # before: a silent game, {'reason': 'decided', 'scores': [1, 28], ...}, the bot
    # eliminated with 'bad-output' in round 1; the match showed 0 firsts
    assert play_your_bot(_float_x, "random", rng=3) is None
    out = capsys.readouterr().out
    assert out.startswith("No game: nearest_target gave no target as player 0 in round 1: "
                          "x and y must be whole numbers"), out
    assert match_your_bot(_float_x, "random", n_players=2, games=2, seed=10) is None
    out = capsys.readouterr().out
    assert out.startswith("No match: nearest_target gave no target as player ") and \
        "in round 1: x and y must be whole numbers" in out, out


def test_a_target_the_game_would_refuse_stops_the_game_even_past_the_checker(monkeypatch,
                                                                            capsys):
    """The game cell's last word is the game's own rule: an answer the checker's
    conversion let through but the game refuses still ends it with a sentence."""
    import tronlab.course.ex_capture_game as game_cell

    monkeypatch.setattr(game_cell, "as_target", lambda value, view: value)
    assert play_your_bot(lambda view, player: "4 1", "random", rng=3) is None
    out = capsys.readouterr().out
    assert out.startswith("No game: nearest_target gave no target as player 0 in round 1: "
                          "the game refuses it, not an action: '4 1'"), out


def test_an_attribute_a_view_lacks_is_named():
    """Before: view.grid or view.active crashed with only "read the line above"."""
    def grid_reader(view, player):
        return view.grid[0, 0]

    result = check_nearest_target(grid_reader)
    assert result.status == "crash" and "has no attribute 'grid'" in result.message
    assert result.hint.startswith("a view has owner (indexed owner[y, x]), positions"), \
        result.hint


def test_writing_into_a_grid_made_writable_is_told_in_the_games_words():
    """Before: a function that made view.owner writable and wrote into it was told not to
    write into 'board.cells (or board.heads)', a Tron board's names."""
    def scribbler(view, player):
        view.owner.setflags(write=True)
        view.owner[0, 0] = 3
        return nearest_target(view, player)

    result = check_nearest_target(scribbler)
    assert result.status == "changed its input", result.message
    assert "changed the grid it was given (view.owner)" in result.message
    assert "board" not in result.hint and "np.array(view.owner)" in result.hint


def test_a_target_someone_owns_is_named_not_taken_for_y_x():
    # before: a learner who took "not mine" for neutral aimed at player 2's (1, 3) where
    # (3, 1) was right, and was asked "did you return (y, x)?" alone
    def not_mine(view, player):
        owner = np.where(np.asarray(view.owner) == player, player, NEUTRAL)
        return variant(_Seen(view, owner), player)     # the rule, on that grid
    result = check_nearest_target(not_mine)
    assert "eliminated" in result.case and result.got.startswith("(1, 3)"), result.message
    assert result.hint.startswith("(1, 3) is not neutral: player 2 owns it"), result.hint
    case = next(c for c in _tiny_cases() if c.label.endswith("stay"))
    assert NearestTarget().diagnose(case, (3, 2), (1, 1)).startswith(
        "(3, 2) is not neutral: player 1 owns it")
    assert "you own it already" in NearestTarget().diagnose(case, (0, 0), (1, 1))


class _Seen:
    """``view`` with another grid in ``owner``."""

    def __init__(self, view, owner):
        self.__dict__.update({k: getattr(view, k) for k in
                              ("positions", "eliminated", "width", "height", "n_players",
                               "backs_left", "round")})
        self.owner = owner


def test_a_game_given_no_function_or_no_opponent_says_so():
    # before: a target passed for the function played and 'crashed with TypeError: 'tuple'
    # object is not callable', sent to check_nearest_target; no opponent named the
    # package's inner wrapper (bots must be a list of 2-4 bots, got 1: [<function ...>])
    with pytest.raises(TypeError, match=r"takes your function itself, got tuple \(3, 0\)"):
        play_your_bot((3, 0), "random", rng=3)
    with pytest.raises(TypeError, match="match_your_bot takes your function itself"):
        match_your_bot(None, "random", n_players=2, games=2)
    with pytest.raises(TypeError, match=r"the game calls nearest_target\(view, player\)"):
        play_your_bot(lambda view: (0, 0), "random", rng=3)
    with pytest.raises(ValueError, match="give at least one opponent"):
        play_your_bot(nearest_target, rng=3)


def test_player_0s_square_used_for_another_player_is_named():
    # before: view.positions[0] written for view.positions[player] passed every tiny grid
    # (player 0 plays there) and got "follow the rule step by step" on the first game grid
    def seat_zero(view, player):
        return nearest_target(view, 0)
    result = check_nearest_target(seat_zero)
    assert result.case.startswith("game") and not result.passed, result.message
    assert result.hint.startswith("that is player 0's target: here player 1 plays"), result.hint
