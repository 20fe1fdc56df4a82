"""Exercise 10's last cells: the learner's ``nearest_target`` in a game and in a match.

:func:`play_your_bot` and :func:`match_your_bot` run the game (or the match) in a child
process under a time limit, like a checker runs one call (:mod:`tronlab.course.timelimit`),
and stop it at the learner's first crash or answer that is not a target
(:func:`tronlab.course.ex_capture.as_target`, then the game's own
:func:`~tronlab.capture.rules.read_action`): the game loop alone would record the fault
and play on, and an endless loop would hang the notebook.  Instead they print one sentence
(``write nearest_target first`` for a stub) and return None.
"""

from __future__ import annotations

import time

from ..capture.actions import plain_action
from ..capture.rules import read_action
from .checker import WrongType
from .ex_capture import as_target
from .learner import crash_phrase, describe_value, is_stub, signature_problem, where
from .slowcalls import SlowCalls
from .timelimit import call_with_time_limit, check_time_limit

__all__ = ["play_your_bot", "match_your_bot"]


class _Stop(BaseException):
    """Ends a game at the learner's first faulty answer (a BaseException: the game loop turns
    an ``Exception`` of a bot's into a fault and plays on)."""


#: why a right ``nearest_target`` is usually slow, and the quick way
SLOW = ("keep the neutral squares in a set or a numpy mask (owner == NEUTRAL), not a list "
        "searched with `in`, and count each candidate's neutral neighbours from that")


def _guarded(student, name, limit=None, what="game"):
    """``student`` as a capture bot that stops the game with a sentence at its first crash or
    answer that is not a target (the game alone would record the fault and play on); a
    NotImplementedError stops it with ``_Stop(None)``.  With a time ``limit``, a function
    that returns but would not let the ``what`` end by 90% of it (the time so far plus its
    longest call yet) is stopped as slow: the time limit could only ask about a loop."""
    clock = SlowCalls(limit)

    def bot(view, player):
        began = time.monotonic()
        value = _answer(view, player)
        if clock.too_slow(time.monotonic() - began):
            raise _Stop(
                f"{clock.stopped(what, name)} on this {view.width}x{view.height} grid. "
                f"It is likely right but slow: {SLOW} (or give it longer: time_limit=...).")
        return value

    def _answer(view, player):
        at_turn = f"as player {player} in round {view.round}"
        try:
            value = student(view, player)
        except NotImplementedError:
            raise _Stop(None) from None
        except BaseException as err:  # noqa: BLE001 - sys.exit too: this is the child process
            line = where(err)
            raise _Stop(f"{name} {crash_phrase(err)} {at_turn}" + (f", at {line}." if line else ".")
                        + f" check_{name} above shows such a position drawn.") from None
        try:
            as_target(value, view)
        except WrongType as err:
            raise _Stop(f"{name} gave no target {at_turn}: {err}.") from None
        kind, why = read_action(plain_action(value), view, player)
        if kind != "move":      # the game's own rule has the last word
            raise _Stop(f"{name} gave no target {at_turn}: the game refuses it, {why}.")
        return value
    return bot



def _with_your_bot(student, use, what: str, time_limit):
    """``use(bot)`` with the learner's function as ``bot``, in a child process under
    ``time_limit`` seconds; its result, or None after printing why there is none."""
    name = "nearest_target"
    _check_function(student, what)
    limit = check_time_limit(time_limit, "time_limit")
    not_yet = (f"write {name} first (the check cell above says when it is right); until then "
               f"there is no {what}.")
    if is_stub(student):
        print(not_yet)
        return None

    def run():
        try:
            return "value", use(_guarded(student, name, limit, what))
        except _Stop as stop:
            return "problem", stop.args[0]
    outcome = call_with_time_limit(run, limit)
    if outcome.kind == "raised":          # a mistake of the package's, not the learner's
        raise outcome.error
    if outcome.kind == "value" and outcome.value[0] == "value":
        return outcome.value[1]
    if outcome.kind == "value" and outcome.value[1] is None:
        print(not_yet)
        return None
    if outcome.kind == "value":
        problem = outcome.value[1]
    elif outcome.kind == "timeout":
        problem = (f"the {what} did not finish within {limit:g} s ({name} is called once a "
                   f"round): is there a loop that never ends? check_{name} above tries it one "
                   f"position at a time.")
    else:
        problem = f"{name} ended the program running the {what}: {outcome.detail}."
    print(f"No {what}: {problem}")
    return None


def _check_function(student, what: str) -> None:
    """A TypeError naming the problem unless ``student`` can be called as
    ``nearest_target(view, player)`` (a target given for the function, say)."""
    call = "play_your_bot" if what == "game" else "match_your_bot"
    if not callable(student) or isinstance(student, type):
        raise TypeError(f"{call} takes your function itself, got {describe_value(student)}: "
                        f"write {call}(nearest_target, ...), not "
                        f"{call}(nearest_target(view, player), ...)")
    problem = signature_problem("nearest_target", ("view", "player"), student)
    if problem:
        raise TypeError(problem.replace("the checker calls", f"the {what} calls"))


def play_your_bot(nearest_target, *others, time_limit: float = 30.0, **game_options):
    """One game of the learner's ``nearest_target`` (seat 0) against ``others`` (bot names
    or functions), :func:`~tronlab.capture.game.play_capture` with ``game_options``.

    The game runs in a child process under ``time_limit`` seconds, and stops at the learner's
    first crash or answer that is not a target: then it prints why, in a sentence (or
    "write nearest_target first" for a stub), and returns None; else the record."""
    from ..capture.game import play_capture

    if not others:
        raise ValueError("give at least one opponent, a bot name or function: "
                         "play_your_bot(nearest_target, \"random\")")
    return _with_your_bot(nearest_target,
                          lambda bot: play_capture([bot, *others], **game_options),
                          "game", time_limit)


def match_your_bot(nearest_target, other, *, n_players: int, games: int, seed=None,
                   time_limit: float = 120.0, **game_options):
    """:func:`~tronlab.capture.arena.one_against_many` with the learner's function as the
    hero, guarded like :func:`play_your_bot`: the tally, or None after printing why."""
    from ..capture.arena import one_against_many

    return _with_your_bot(nearest_target,
                          lambda bot: one_against_many(bot, other, n_players=n_players,
                                                       games=games, seed=seed, **game_options),
                          "match", time_limit)
