"""Exercise B2 of notebook 10, the capture game: ``nearest_target(view, player) -> (x, y)``.

The learner writes the target of the nearest-neutral bot
(:func:`tronlab.capture.bots.nearest_target`, whose docstring states the rule).
:func:`check_nearest_target` tries tiny grids that each isolate one part of the rule
(distance, clusters, which neighbours count, ties, the own square, the late-game filter,
an eliminated player, nothing neutral), then positions from seeded games of 2-4
players.  The first grid where the learner's target differs is named and drawn; the hint
comes from recomputing the target with one typical mistake at a time (:func:`variant`)
and saying which one gives the learner's answer.  :mod:`tronlab.course.ex_capture_game`
puts the learner's function in a game and a match, guarded the same way.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from ..capture.ascii import state_from_ascii
from ..capture.bots import nearest_target
from ..capture.state import NEUTRAL
from ..tron.values import is_whole
from .checker import Case, WrongType, is_stub, run_check
from .ex_capture_grids import TINY_GRIDS
from .ex_capture_view import (OWNER_INDEX, READ_ONLY_VIEW, CaptureExercise,  # noqa: F401
                              CaptureGrid, eliminated_hint, view_attribute_hint)
from .learner import short_repr
from .progress import recorded

__all__ = ["check_nearest_target", "as_target", "variant", "eliminated_hint",
           "view_attribute_hint", "CaptureExercise", "CaptureGrid", "TINY_GRIDS"]

def _tiny_cases():
    out = []
    for label, text, player, options in TINY_GRIDS:
        view = state_from_ascii(text, **options).view()
        out.append(Case(f"tiny: {label}", CaptureGrid(view), (player,)))
    return out


@functools.lru_cache(maxsize=4)
def _game_cases(seed=1010, games=10):
    """Positions from seeded games of random bots, early and late in each game (played once
    a process: the checker calls each case with a copy of its grid)."""
    from ..capture.game import play_capture

    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        n = 2 + g % 3
        w, h = int(rng.integers(8, 20)), int(rng.integers(6, 12))
        rec = play_capture(["random"] * n, rng=int(rng.integers(2**32)), width=w, height=h,
                           symmetric=bool(g % 2))
        states = rec.replay()
        for k in sorted({len(states) // 5, len(states) // 2, len(states) - 1}):
            s = states[k]
            for p in s.active[:2]:
                out.append(Case(f"game {g} ({n} players, {w}x{h}), round {s.round - 1}",
                                CaptureGrid(s.view()), (p,)))
    return tuple(out)


# ---- a plain-Python twin with switchable mistakes -----------------------------------------------

def _distance(metric, a, b):
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if metric == "chebyshev":
        return max(dx, dy)
    if metric == "euclid":
        return (dx * dx + dy * dy) ** 0.5
    return dx + dy


def variant(view, player, *, metric="manhattan", cluster=True, late=True, own=False,
            tie="reading", strict=True, around_own=True, neighbours=4, occupied=False):
    """The B2 target computed square by square, with one part of the rule switchable
    to a typical mistake; all defaults give :func:`~tronlab.capture.bots.nearest_target`.

    ``metric`` "chebyshev" or "euclid"; ``cluster=False`` no lone-square penalty;
    ``late=False`` no late-game rule, ``late="always"`` the late rule from the
    first round; ``own=True`` the player's own square is a candidate; ``tie``
    "reading" (the rule), "last" (last in reading order), "column" (smaller x
    first), "no-distance" or "no-neighbours" (skip that tie-break);
    ``strict=False`` drops squares as near to an opponent too; ``around_own=False``
    the player's own square never counts as a neutral neighbour; ``neighbours=8`` the
    diagonal squares count as neighbours too; ``occupied=True`` a neutral square another
    player stands on is no candidate.
    """
    w, h = view.width, view.height
    owner = np.asarray(view.owner)
    me = tuple(view.positions[player])
    free = {(x, y) for y in range(h) for x in range(w) if owner[y, x] == NEUTRAL}
    cand = free if own else free - {me}
    if occupied:
        cand = cand - {tuple(p) for q, p in enumerate(view.positions) if p is not None}
    if not cand:
        return me
    if late == "always" or (late and len(free) <= 0.5 * w * h):
        cand = _late_kept(view, player, cand, metric=metric, strict=strict) or cand

    near = free if around_own else free - {me}
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)] if neighbours == 8 else []

    def around(sq):
        x, y = sq
        return sum((x + dx, y + dy) in near for dx, dy in steps)

    def key(sq):
        d = _distance(metric, sq, me)
        cost = d + (3 if cluster and around(sq) == 0 else 0)
        nb = 0 if tie == "no-neighbours" else -around(sq)
        order = {"reading": (sq[1], sq[0]), "last": (-sq[1], -sq[0]),
                 "column": (sq[0], sq[1])}.get(tie, (sq[1], sq[0]))
        return (cost, 0 if tie == "no-distance" else d, nb, *order)
    return min(cand, key=key)


def _late_kept(view, player, cand, *, metric="manhattan", strict=True) -> set:
    """The late-game filter of B2: the candidates no live opponent is strictly nearer to
    (``strict=False``: nearer or as near)."""
    me = tuple(view.positions[player])
    others = [pos for q, pos in enumerate(view.positions)
              if q != player and pos is not None and not view.eliminated[q]]

    def nearer(sq):
        d = _distance(metric, sq, me)
        return any((_distance(metric, sq, o) < d) if strict else
                   (_distance(metric, sq, o) <= d) for o in others)
    return {sq for sq in cand if not nearer(sq)}


MISTAKES = [
    ({"own": True}, "you aimed at the square you stand on: a square you share stays neutral, "
                    "so walking to it takes nothing - leave your own square out"),
    ({"metric": "chebyshev"}, "distance: a move is one step along x or y, so count "
                              "|dx| + |dy| (Manhattan), not max(|dx|, |dy|)"),
    ({"metric": "euclid"}, "distance: count moves, |dx| + |dy| (Manhattan), not the "
                           "straight-line distance"),
    ({"neighbours": 8}, "neighbours: only the four squares beside a square count - up, down, "
                        "left, right; a neutral square touching it only at a corner "
                        "(diagonally) leaves it lone (+3)"),
    ({"cluster": False}, "clusters: a neutral square with no neutral neighbour costs 3 more "
                         "steps - a cluster a little further away is worth more"),
    ({"tie": "last"}, "ties: among equally good squares take the first in reading order "
                      "(smallest y, then smallest x), not the last"),
    ({"tie": "column"}, "ties: reading order is row by row - smallest y first, then "
                        "smallest x"),
    ({"tie": "no-distance"}, "ties: at equal cost the shorter walk wins (a lone square near "
                             "by over a cluster as costly but further)"),
    ({"tie": "no-neighbours"}, "ties: at equal cost and distance prefer the square with more "
                               "neutral neighbours, before reading order"),
    ({"late": False}, "late in the game (at most half the grid neutral, exactly half "
                      "included: <=, not <) leave out the squares an opponent is strictly "
                      "nearer to"),
    ({"late": "always"}, "the opponents only matter late in the game: while more than half "
                         "the grid is neutral, ignore them"),
    ({"around_own": False}, "neighbours: the square you stand on counts as a neutral "
                            "neighbour when it is neutral (a square you share), so the square "
                            "next to it is not alone"),
    ({"strict": False}, "late game: only squares *strictly* nearer an opponent are left out; "
                        "a square as near to you as to them stays"),
    ({"occupied": True}, "a neutral square another player stands on is still a candidate: "
                         "only owners count (walking there is no crash in this game), and "
                         "early in the game the opponents do not matter at all"),
]


def _check_whole(value) -> None:
    """A :class:`WrongType` unless both items of the pair ``value`` are ints (numpy integers
    too), as the game asks (:func:`tronlab.tron.values.is_whole`): it refuses floats, even
    4.0, and True/False."""
    if any(isinstance(v, (str, bytes)) for v in value):
        raise WrongType(f"x and y must be whole numbers, not strings: got {short_repr(value)}")
    if any(isinstance(v, (bool, np.bool_)) for v in value):
        raise WrongType(f"x and y must be whole numbers, not True or False: got "
                        f"{short_repr(value)}")
    odd = next((v for v in value if not is_whole(v)), None)
    if odd is None:
        return
    if isinstance(odd, (float, np.floating)) and float(odd).is_integer():
        raise WrongType(f"x and y must be whole numbers (int), got {short_repr(value)}: the "
                        f"game refuses a float, even {float(odd)!r}; int(...) makes it an int "
                        f"(or compute it with //, not /)")
    raise WrongType(f"x and y must be whole numbers, got {short_repr(value)}")


def as_target(value, view) -> tuple[int, int]:
    """``value`` as a target ``(x, y)`` on ``view``'s grid, else :class:`WrongType` with a
    sentence saying what it is instead (shown whole, or cut at a comma, with its type)."""
    pair = "return the target as a pair (x, y)"
    if value is None:
        raise WrongType(f"{pair}, not None (is a `return` missing?)")
    if isinstance(value, (str, bytes)):
        raise WrongType(f"{pair} of whole numbers, not the string {short_repr(value)}")
    if isinstance(value, dict):
        raise WrongType(f"{pair}, a tuple such as (4, 1), not a dict: got {short_repr(value)}")
    if isinstance(value, (set, frozenset)):
        raise WrongType(f"{pair}, a tuple: a {type(value).__name__} has no order, so x and y "
                        f"cannot be told apart; got {short_repr(value)}")
    if isinstance(value, np.ndarray) and value.shape != (2,):
        out = (": take the two numbers out, tuple(int(v) for v in target.ravel())"
               if value.size == 2 else "")
        raise WrongType(f"{pair}, not a numpy array of shape {value.shape} "
                        f"({short_repr(value)}){out}")
    if inspect.isgenerator(value):
        raise WrongType(f"{pair}, not a generator ({short_repr(value)}): a generator "
                        f"expression in parentheses makes one; build the tuple with "
                        f"tuple(...) or write (x, y)")
    if not hasattr(value, "__len__"):
        raise WrongType(f"{pair}, not a {type(value).__name__} {short_repr(value)}")
    if len(value) != 2:
        raise WrongType(f"{pair}: two numbers, got a {type(value).__name__} of {len(value)} "
                        f"items: {short_repr(value)}")
    if not isinstance(value, (tuple, list, np.ndarray)):
        raise WrongType(f"{pair}, a tuple such as (4, 1), not a {type(value).__name__}: got "
                        f"{short_repr(value)}")
    _check_whole(value)
    x, y = (int(v) for v in value)
    if not (0 <= x < view.width and 0 <= y < view.height):
        swapped = (0 <= y < view.width and 0 <= x < view.height)
        raise WrongType(f"({x}, {y}) is off the {view.width}x{view.height} grid"
                        + (f"; ({y}, {x}) is on it: {SWAPPED}" if swapped else ""))
    return (x, y)


#: the hint for a target given as (y, x)
SWAPPED = ("a target is (x, y), column first, while the grid is indexed owner[y, x], row "
           "first: did you return (y, x)?")


class NearestTarget(CaptureExercise):
    function = "nearest_target"
    parameters = ("view", "player")
    returns = "a target (x, y): two whole numbers on the grid"
    time_limit = 5.0
    hint = ("follow the rule step by step on this grid: candidates, the late-game filter, "
            "cost = distance (+3 for a lone square), then the tie-breaks")

    def cases(self):
        return _tiny_cases() + list(_game_cases())

    def call(self, student, case, context):
        return student(context["board"].view, *case.args)

    def none_hint(self, case):
        return _stay_hint(case)

    def crash_hint(self, case, err):
        gone = (eliminated_hint(case.board.view, err, "the late-game rule")
                or view_attribute_hint(err))
        if gone:
            return gone
        stuck = isinstance(err, (ValueError, IndexError)) and "read-only" not in str(err)
        return (_stay_hint(case) or _all_dropped_hint(case)) if stuck else None

    def describe_case(self, case):
        v = case.board.view
        late = int(np.count_nonzero(v.owner == NEUTRAL)) <= 0.5 * v.owner.size
        where = ", ".join(f"{q}: {p}" for q, p in enumerate(v.positions))
        return (f"nearest_target(view, {case.args[0]}) ({'late' if late else 'early'} in the game; "
                f"positions {where})")

    def convert(self, value, case):
        return as_target(value, case.board.view)

    def expected(self, case):
        return tuple(int(v) for v in nearest_target(case.board.view, case.args[0]))

    def show(self, value, case):
        me = case.board.view.positions[case.args[0]]
        d = abs(value[0] - me[0]) + abs(value[1] - me[1])
        return f"{value}, {d} step{'' if d == 1 else 's'} from {me}"

    def diagnose(self, case, got, want):
        """The hints of every typical mistake that gives the learner's target here
        (on a tiny grid usually one; two mistakes can agree on a grid).  A mistake that
        would have failed an earlier tiny grid, which the learner passed, is left out
        unless nothing else fits."""
        owned = _owned_hint(case, got)
        if tuple(got) == tuple(want)[::-1]:
            return SWAPPED if owned is None else f"{owned} - or - {SWAPPED}"
        if owned is not None:       # no mistake of the list aims at an owned square
            return owned
        fits = [(options, text) for options, text in MISTAKES
                if variant(case.board.view, case.args[0], **options) == got]
        texts = [text for options, text in fits if not _ruled_out(options, case)] or \
            [text for _, text in fits]
        if not texts:
            return _seat_hint(case, got)
        return texts[0] if len(texts) == 1 else " - or - ".join(texts)


def _seat_hint(case, got) -> str | None:
    """The hint for player 0's target given where another player plays (``player`` left
    out, or view.positions[0] written for view.positions[player]); None elsewhere."""
    view, player = case.board.view, case.args[0]
    if player == 0 or view.positions[0] is None:
        return None
    zero = {tuple(nearest_target(view, 0)), variant(view, 0, late=False)}
    if tuple(got) not in zero:
        return None
    return (f"that is player 0's target: here player {player} plays, so measure from "
            f"view.positions[player] = {view.positions[player]}, not view.positions[0]")


def _ruled_out(options, case) -> bool:
    """Whether the mistake ``options`` gives a wrong target on a tiny grid before ``case``
    (the learner's function got those right, so it does not make that mistake)."""
    for earlier in _tiny_cases():
        if earlier.label == case.label:
            return False
        view, player = earlier.board.view, earlier.args[0]
        if variant(view, player, **options) != tuple(int(v) for v in nearest_target(view,
                                                                                   player)):
            return True
    return False


def _owned_hint(case, got) -> str | None:
    """The hint for a target someone owns (the learner took "not mine" for neutral, say),
    other than the player's own square; None for a neutral one."""
    view, player = case.board.view, case.args[0]
    x, y = (int(v) for v in got)
    who = int(view.owner[y, x])
    if who == NEUTRAL or (x, y) == tuple(view.positions[player]):
        return None
    whose = "you own it already" if who == player else f"player {who} owns it"
    return (f"({x}, {y}) is not neutral: {whose}, and an owned square never changes owner, "
            f"so walking there takes nothing. The candidates are the neutral squares "
            f"(view.owner[y, x] == -1)")


def _all_dropped_hint(case) -> str | None:
    """The hint for a crash (min() of nothing, say) where the late-game filter drops every
    candidate, so the rule keeps them all; None elsewhere."""
    view, player = case.board.view, case.args[0]
    me = tuple(view.positions[player])
    free = {(int(x), int(y)) for y, x in np.argwhere(np.asarray(view.owner) == NEUTRAL)}
    cand = free - {me}
    if not cand or len(free) > 0.5 * view.owner.size or _late_kept(view, player, cand):
        return None
    return ("late in the game every candidate here is strictly nearer an opponent: when the "
            "filter would leave nothing, keep all the candidates (min() of an empty list "
            "raises)")


def _stay_hint(case) -> str | None:
    """The hint for None or a crash where no square but the player's own is neutral."""
    view, player = case.board.view, case.args[0]
    me = view.positions[player]
    neutral = {(int(x), int(y)) for y, x in np.argwhere(np.asarray(view.owner) == NEUTRAL)}
    if neutral - {tuple(me)}:
        return None
    return (f"no square to aim at here: nothing is neutral apart from, at most, the square "
            f"you stand on. Then the bot stays: return your own square, "
            f"view.positions[player], here {tuple(me)}")


@recorded
def check_nearest_target(nearest_target, *, time_limit=None):
    """Check ``nearest_target(view, player) -> (x, y)`` (B2) on tiny grids and game positions."""
    cases = _tiny_cases()[:1] if is_stub(nearest_target) else None     # no games for a stub
    return run_check(NearestTarget(), nearest_target, cases=cases, time_limit=time_limit)

