"""play_against: an exercise answer as a bot in a small match, and every way it can go wrong.

The match cell of exercises 01-04 comes right after the check cell; whatever the
learner's function does there - a stub, a crash, sys.exit, an endless loop, an
answer the bot cannot use - the cell must end in one sentence, never a hung
kernel or a traceback into the package, and ``duel.replay()`` after it must work.
"""

from __future__ import annotations

import sys

import pytest

from tronlab.course import check_greedy_move
from tronlab.course.duel import Duel, play_against


def greedy_move(board, player):
    moves = board.legal_moves(player)
    return moves[0] if moves else 0


def _named(fn, name):
    fn.__name__ = name
    return fn


def test_a_working_function_plays_the_match_from_both_seats():
    duel = play_against(greedy_move, "hugger", games=4)
    assert len(duel.records) == 4 and duel.seats == [0, 1, 0, 1]
    assert duel.wins + duel.draws + duel.losses == 4
    assert "your greedy_move v hugger" in repr(duel)
    for rec, seat in zip(duel.records, duel.seats):
        assert rec.metadata["names"][seat] == "your greedy_move"
        assert not [e for e in rec.events if e["player"] == seat]      # no fault of ours


def _stub(board, player):
    """Write me."""
    raise NotImplementedError


def _loops(board, player):
    while True:
        pass


def _crashes_later(board, player):
    return board.legal_moves(player)[1]


def _exits(board, player):
    sys.exit("done")


def _wrong_answer(board, player):
    return [1]


@pytest.mark.parametrize("fn, name, said", [
    (_stub, "greedy_move", "greedy_move is not implemented yet: write it above"),
    (_loops, "greedy_move", "did not finish within 2 s: is there a loop in your greedy_move"),
    (_crashes_later, "greedy_move",
     "your greedy_move crashed with IndexError: list index out of range, at line"),
    (_exits, "greedy_move", "your greedy_move called sys.exit() (SystemExit: 'done')"),
    (_wrong_answer, "greedy_move", "returned [1]: return one move, an int 0-3"),
    (lambda board, start: None, "flood_fill", "your flood_fill returned None: the bot compares"),
    (lambda board: {0: 3, 1: 2}, "territory",
     "returned {0: 3, 1: 2}: return the counts by player, a tuple such as (n0, n1)"),
    (lambda board, p: [[1, 2]], "bfs_distances", "return a numpy array shaped like board.cells"),
    (lambda board: [(1, 2, 3)], "articulation_points", "(x, y) pairs of ints"),
    (lambda game, depth, alpha, beta: 0, "negamax", "return a pair (value, move)"),
])
def test_a_function_that_cannot_play_gets_one_sentence_and_no_games(fn, name, said):
    duel = play_against(_named(fn, name), "hugger", time_limit=2)
    assert duel.records == [] and said in repr(duel), repr(duel)
    assert "\n" not in repr(duel)
    assert duel.replay() is duel                     # the next cell still runs


def test_a_move_given_by_name_is_refused_in_the_checker_s_words():
    """The exercise asks for an int 0-3: play_against said a name such as 'up' would do,
    while check_greedy_move refused it."""
    def greedy_move(board, player):
        return "up"
    duel = play_against(greedy_move, "hugger", time_limit=2)
    told = check_greedy_move(greedy_move).message
    assert duel.records == [] and "not the string 'up'" in repr(duel), repr(duel)
    said = "return the move as a number 0-3"
    assert said in repr(duel) and said in told, (repr(duel), told)


def test_endless_recursion_in_negamax_is_named():
    def negamax(game, depth, alpha, beta):
        return negamax(game, depth, alpha, beta)
    duel = play_against(negamax, time_limit=20)
    assert "your negamax crashed with RecursionError" in repr(duel)


@pytest.mark.parametrize("call, error, said", [
    (lambda: play_against(print), ValueError, "as_bot knows the exercise functions"),
    (lambda: play_against(3), TypeError, "needs your exercise function"),
    (lambda: play_against(greedy_move, "zorro"), ValueError, "zorro"),
    (lambda: play_against(greedy_move, games=0), ValueError,
     "games must be an int from 1 to 40, got 0"),
    (lambda: play_against(greedy_move, games=2.0), TypeError, "games must be an int from 1"),
    (lambda: play_against(greedy_move, time_limit="soon"), TypeError, "time_limit"),
])
def test_the_callers_mistakes_are_errors(call, error, said):
    with pytest.raises(error, match=said):
        call()


def test_a_note_only_duel_shows_its_note():
    duel = Duel("greedy_move", "hugger", [], [], "a note")
    assert repr(duel) == "a note" and duel.wins == duel.losses == duel.draws == 0


def test_a_right_but_slow_function_is_told_it_is_slow_not_endless():
    # two breadth-first searches per free square, each with a list of seen squares: right
    # (its check passes), but about half a second a call on the 167 free squares of the
    # arena map here, 125 s for the four games on an idle machine, against 60 s
    import wrong_solutions as wrong
    from tronlab.course.exercises import check_territory

    slow = _named(wrong.territory_right_by_search_per_square, "territory")
    assert check_territory(slow).passed
    duel = play_against(slow, "hugger", time_limit=5)
    text = repr(duel)
    assert duel.records == [] and "\n" not in text, text
    assert "loop that never ends" not in text, text
    assert "but your territory does return" in text and "likely right but slow" in text, text
    assert "one breadth-first search from each head" in text, text


def test_a_greedy_move_returning_none_is_asked_for_its_return():
    # before: "... returned None: return the move as an int 0-3 (...), not a NoneType"
    from tronlab.course.duel import play_against

    def greedy_move(board, player):
        moves = board.legal_moves(player)
        moves[0] if moves else 0                     # noqa: B018 - the forgotten return
    text = str(play_against(greedy_move))
    assert "returned None: is a `return` missing" in text and "NoneType" not in text, text
