"""What the A9 checkers (:mod:`tronlab.course.ex_learning`) say about a wrong answer.

``separation_sample``: the expected sample worked out line by line (the board the players
separate on, its territory counts, each player's moves), and a hint recognising the usual
mistakes: a separation found once a player is out, one player's counts for the differences,
features from another board or in another order, a fatal move counted, a
survivor's moves counted from ``len(record.boards())`` or with the wrong board's or player's
``fill_length``, moves counted from the start of the game.

``fit_weights``: a hint recognising fits made the wrong way: an intercept, k1 and k2 fitted
one at a time, ``numpy.polyfit`` on one feature, the wrong target, only some of the games
(a loop one short, a training split), weights rounded.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import numpy as np

from ..tron import learn
from .ex_learning_games import package_samples

__all__ = ["sample_steps", "sample_hint", "fit_hint", "fit_timeout_hint", "none_unpacked_hint",
           "SAMPLE_TIMEOUT_HINT", "falls_off_end", "forgotten_return_hint"]

#: separation_sample ran out of time (not the flood fill's "a square visited again and again")
SAMPLE_TIMEOUT_HINT = ("walking one game's boards takes milliseconds: is there a loop that never "
                       "ends? (a while loop over the boards whose index never moves on, say a "
                       "`continue` that skips the `i += 1`)")


def falls_off_end(fn) -> str | None:
    """The last line of ``fn``'s ``def`` when a call can run past it and so return None
    without a ``return`` (``sample = ...`` as the last line, say); None when every way
    through ends in a ``return`` or ``raise``, or the source cannot be read."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    func = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
    if func is None or _always_ends(func.body):
        return None
    return ast.unparse(func.body[-1]).splitlines()[0]


def _always_ends(body) -> bool:
    last = body[-1] if body else None
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_ends(last.body) and _always_ends(last.orelse)
    if isinstance(last, ast.With):
        return _always_ends(last.body)
    if isinstance(last, ast.Try):
        return _always_ends(last.finalbody) or (
            _always_ends(last.orelse or last.body)
            and all(_always_ends(h.body) for h in last.handlers))
    # `while True:` ends only through a return or a raise inside it
    return isinstance(last, ast.While) and isinstance(last.test, ast.Constant) \
        and bool(last.test.value)


def forgotten_return_hint(last_line: str) -> str:
    """separation_sample gave None for a game that separates and can end without a return."""
    return (f"these players do separate, and your function can end without a `return`: "
            f"after its last line, `{last_line}`, Python returns None. Is `return dn, de, "
            f"moves0, moves1` missing at the end? (If not, look at every board, the start "
            f"included: the players separate on one of them)")


def fit_timeout_hint(records) -> str:
    """fit_weights ran out of time on ``records``."""
    return (f"a fit of {len(records)} games takes well under a second: is there a loop that "
            f"never ends, in fit_weights or in the separation_sample it calls? "
            f"check_separation_sample(separation_sample) finds one there on its own")


def none_unpacked_hint(records, err) -> str | None:
    """fit_weights raised ``err`` on ``records``, some of which never separate: a TypeError
    about None is the sample of such a game unpacked or indexed."""
    if not (isinstance(err, TypeError) and "NoneType" in str(err)):
        return None
    never = len(records) - len(package_samples(records))
    return (f"{never} of these {len(records)} games never separate, and separation_sample "
            f"gives None for them: skip those games before you unpack or index a sample "
            f"(if sample is None: continue)")


def sample_steps(record) -> list[str]:
    """The expected sample of ``record`` worked out, one line per step ([] if none)."""
    from ..grid.voronoi import territory
    from ..tron.spacefill import fill_length

    boards = record.boards()
    turn = learn.separation_turn(boards)
    if turn is None:
        return []
    t = territory(boards[turn])
    out = record.outcome
    lines = [f"the players are first apart on board {turn} (record.boards()[{turn}]): "
             f"n0 = {t.n0}, n1 = {t.n1}, e0 = {t.e0}, e1 = {t.e1}"]
    for p in (0, 1):
        died = out.death_turns[p]
        if died is not None:
            lines.append(f"player {p} died on turn {died}: {died} - 1 - {turn} = "
                         f"{max(died - 1 - turn, 0)} moves")
        else:
            fill = fill_length(boards[-1], p)
            lines.append(f"player {p} survived: turns - {turn} + fill_length(final board, {p}) "
                         f"= {out.turns} - {turn} + {fill} = {out.turns - turn + fill} moves")
    return lines


def sample_hint(record, got, want) -> str | None:
    """The likely mistake behind the sample ``got`` (``want`` is right), or None."""
    if want is None:
        return _apart_once_out_hint(record) or (
            "these players never separate (the game ends first): return None for such games")
    if got is None:
        return "the players do separate in this game: look at every board, the start included"
    return _features_hint(record, got, want) or _moves_hint(record, got, want)


def _apart_once_out_hint(record) -> str | None:
    """For a game that never separates while both players live: the sentence for a sample
    taken on the first board where the heads cannot meet because one player is out."""
    from ..tron.evaluate import is_separated

    for k, board in enumerate(record.boards()):
        if is_separated(board):
            if board.alive.all():
                return None
            p = int(np.flatnonzero(~board.alive)[0])
            return (f"on board {k} the heads cannot meet, but only because player {p} is out "
                    f"(it died on turn {record.outcome.death_turns[p]}): a separation counts "
                    f"only on a board where both are alive (board.alive); here they are never "
                    f"apart while both live, so return None")
    return None


def _features_hint(record, got, want) -> str | None:
    from ..grid.voronoi import territory

    if got[:2] == want[:2]:
        return None
    if got[:2] == (-want[0], -want[1]):
        return "the differences are player 0's count minus player 1's, not the other way round"
    if got[:2] == (want[1], want[0]):
        return "the sample is (dn, de, ...): the difference of n first, then of e"
    boards = record.boards()
    turn = learn.separation_turn(boards)
    t = territory(boards[turn])
    for k, (name, mine, theirs) in enumerate((("n", t.n0, t.n1), ("e", t.e0, t.e1))):
        if got[k] == -want[k] != want[k] and got[1 - k] == want[1 - k]:
            return (f"d{name} has the wrong sign (d{'ne'[1 - k]} is right): d{name} = "
                    f"{name}0 - {name}1 = {mine} - {theirs} = {want[k]}, player 0's count "
                    f"minus player 1's")
    for p in (0, 1):
        if got[:2] == ((t.n0, t.e0), (t.n1, t.e1))[p]:
            return (f"({got[0]}, {got[1]}) are player {p}'s own counts n{p}, e{p}; the features "
                    f"are differences: dn = n0 - n1 = {t.n0 - t.n1}, de = e0 - e1 = "
                    f"{t.e0 - t.e1}")
    last = len(boards) - 1
    for other in sorted(range(len(boards)), key=lambda k: (abs(k - turn), k)):
        t = territory(boards[other])
        if other != turn and got[:2] == (t.n0 - t.n1, t.e0 - t.e1):
            which = " (the final board)" if other == last else " (the start)" if not other else ""
            return (f"your features come from board {other}{which}, but the players separate "
                    f"on board {turn}: use the first board on which they cannot meet")
    return None


def _moves_hint(record, got, want) -> str | None:
    if got[2:] == (want[3], want[2]) and want[2] != want[3]:
        return ("moves0 is player 0's number of moves and moves1 player 1's: yours are the "
                "other way round")
    for p in (0, 1):
        if got[2 + p] != want[2 + p]:
            return _player_moves_hint(record, p, got[2 + p], want[2 + p])
    return None


def _player_moves_hint(record, p, mine, right) -> str | None:
    from ..tron.spacefill import fill_length

    boards = record.boards()
    turn = learn.separation_turn(boards)
    out = record.outcome
    died = out.death_turns[p]
    if died is not None:
        if mine == right + 1:
            return (f"player {p} died on turn {died}: its fatal move is not a move it made, so "
                    f"count only the turns before it")
        if mine == died - 1:
            return (f"count player {p}'s moves after board {turn}, where the players separate: "
                    f"{died} - 1 - {turn}, not {died} - 1 from the start")
        if mine == out.turns - turn + fill_length(boards[-1], p):
            return (f"player {p} died on turn {died}: it made {died} - 1 - {turn} moves after "
                    f"board {turn}; turns and fill_length are for a player that survived")
        if mine == right - 1:
            return (f"player {p} died on turn {died}: after board {turn} it moved on turns "
                    f"{turn + 1} to {died - 1} (board k is the board after turn k), "
                    f"{died} - 1 - {turn} = {right} moves")
        return None
    fill = {"final": fill_length(boards[-1], p), "separation": fill_length(boards[turn], p),
            "other": fill_length(boards[-1], 1 - p)}
    found = []
    if mine == out.turns - turn + fill["separation"] != right:
        found.append(f"take player {p}'s fill_length from the final board, record.boards()[-1], "
                     f"where the game stopped, not from board {turn}")
    if mine == out.turns - turn + fill["other"] != right:
        found.append(f"add fill_length(final_board, {p}), player {p}'s own estimate, not the "
                     f"other player's")
    if mine == right + 1:
        found.append(f"player {p} made turns - {turn} moves after board {turn}, and turns is "
                     f"record.outcome.turns ({out.turns}); len(record.boards()) is one more: it "
                     f"counts the start board too")
    if mine == out.turns + fill["final"]:
        found.append(f"count player {p}'s moves after board {turn}, where the players separate: "
                     f"turns - {turn} + fill_length, not turns + fill_length from the start")
    if not found and mine < right:
        found.append("the record stops with the game, so add the greedy filler's length from "
                     "the final board (fill_length) to the moves it made")
    if not found:
        return None
    return (f"player {p} survived the {out.turns} turns: " + found[0] if len(found) == 1 else
            f"player {p} survived the {out.turns} turns, and your count fits more than one "
            f"mistake: " + "; or ".join(found))


def fit_hint(records, got, want) -> str | None:
    """The likely mistake behind the weights ``got`` (``want`` are right), or None."""
    samples = package_samples(records)
    x, y = learn.design_matrix(samples)

    def close(a, b=got):
        return np.allclose(b, a, rtol=1e-6, atol=1e-9)
    with_icept = np.linalg.lstsq(np.column_stack([x, np.ones(len(y))]), y, rcond=None)[0]
    if close(with_icept[:2]):
        return ("you fitted an intercept too: swapping the players negates features and "
                "target, so the line goes through the origin - fit k1, k2 alone")
    if close(want[::-1]):
        return "you returned (k2, k1): k1 is the weight of dn, k2 the weight of de"
    if close([-want[0], -want[1]]):
        return ("your weights have the wrong sign: the target is moves0 - moves1 (player 0's "
                "moves minus player 1's), the features n0 - n1 and e0 - e1")
    alone = [float(np.linalg.lstsq(x[:, [k]], y, rcond=None)[0][0]) for k in (0, 1)]
    if close(alone):
        return ("you fitted k1 and k2 one at a time, each feature on its own; dn and de move "
                "together, so fit them in one least-squares problem: lstsq on the (n, 2) "
                "matrix of rows [dn, de]")
    for k in (0, 1):
        if close(np.polyfit(x[:, k], y, 1)):
            return (f"numpy.polyfit(..., 1) fits one feature ({('dn', 'de')[k]}) and an "
                    f"intercept; fit both features, no intercept: numpy.linalg.lstsq on the "
                    f"rows [dn, de]")
    m0 = np.array([s.moves0 for s in samples], float)
    m1 = np.array([s.moves1 for s in samples], float)
    for name, target in (("moves0", m0), ("moves1", m1), ("moves0 + moves1", m0 + m1)):
        if close(np.linalg.lstsq(x, target, rcond=None)[0]):
            return f"your target is {name}; it is moves0 - moves1, one number per game"
    first = _first_fitted(x, y, close)
    if first is not None:
        return (f"your weights are the fit of the first {first} of the {len(y)} games that "
                f"separate, not of all of them: does a loop over the records stop early "
                f"(range(len(records) - 1), say, or a split into training and held-out games "
                f"as in notebook 06)? Fit every game that separates")
    if any(close(np.round(want, d)) or close([float(f"{w:.{d + 1}g}") for w in want])
           for d in range(6)):
        return ("your weights are the right ones rounded: return them as lstsq gives them, "
                "without rounding")
    return None


def _first_fitted(x, y, close) -> int | None:
    """The smallest k for which the fit of the first k rows only is ``close``, or None."""
    for k in range(2, len(y)):
        if close(np.linalg.lstsq(x[:k], y[:k], rcond=None)[0]):
            return k
    return None
