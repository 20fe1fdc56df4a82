"""Exercise B3 of notebook 11: ``score_rectangle(view, player, rect) -> float``.

The learner scores one rectangle the way the ``rectangles`` bot does
(:mod:`tronlab.capture.rects_terms` states the rule): the neutral squares of
the rectangle over the turns needed to close it, then the write-up's
multipliers.  The two terms that need the bot's memory (the aimed divisor and
the stability bonus) are left out; everything else is in.

:func:`check_score_rectangle` tries tiny grids, each made so that one term
decides the score, then rectangles on positions from seeded games of 2-4
players, in some of which one player has been eliminated (the best rectangle of
the scan and a few drawn at random).  The
expected score is the kernel's (:func:`~tronlab.capture.rects.rectangle_scores`);
the first rectangle where the learner's score differs is named with the
expected score taken apart term by term, and the hint says which term is off:
the score is recomputed with each term switched off and with each typical
mistake (:func:`variant`; the list and its hints are in
:mod:`~tronlab.course.ex_rects_mistakes`), and the one that gives the learner's
number is named.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..capture.rects import border_cycle, rectangle_scores
from ..capture.rects_bot import scan_inputs
from ..capture.rects_terms import RectTerms, needed_to_win
from ..tron.values import is_real, is_whole
from .checker import WrongType, is_stub, run_check
from .ex_capture_view import CaptureExercise, eliminated_hint, view_attribute_hint
from .ex_rects_best import BestRectangle, best_rectangle  # noqa: F401 (re-export)
from .ex_rects_games import _random_cases  # noqa: F401 (re-export)
from .ex_rects_grids import TINY_GRIDS, RectGrid, _tiny_cases  # noqa: F401
from .ex_rects_mistakes import MISTAKES, SWAPPED, TERMS  # noqa: F401 (TERMS re-export)
from .ex_rects_mistakes import (ROUNDED_DOWN, ZERO_EVERYWHERE, decimals_hint, empty_walk_hint,
                                rounded_hint)
from .learner import short_repr
from .progress import recorded

__all__ = ["check_score_rectangle", "best_rectangle", "variant", "explain", "reference",
           "TINY_GRIDS", "MISTAKES", "TERMS"]


def reference(view, player, rect) -> float:
    """The package's score of ``rect`` (the scan kernel, as the bot calls it)."""
    opponents, needed = scan_inputs(view, player)
    x0, y0, x1, y1 = rect
    scores = rectangle_scores(np.asarray(view.owner), player, view.positions[player],
                              n_players=view.n_players, opponents=opponents, needed=needed)
    return float(scores[y0, x0, y1 - y0, x1 - x0])


# ---- a plain-Python twin with switchable mistakes -----------------------------------------------

class Mistakes(NamedTuple):
    """One typical mistake each (all defaults: the rule)."""
    off: tuple = ()             # terms left out (RectTerms names)
    enemy: bool = True          # an opponent square zeroes the score
    empty: bool = True          # False: no neutral square scored as any other rectangle
    points: str = "all"         # "inside": only the squares inside the border
    walk: str = "fewest"        # "all": every border square walked; "clockwise": one way only;
    #                             "nearest": start at the nearest border square; "corner": at
    #                             (x0, y0); "to corner": the approach measured to (x0, y0)
    #                             whatever the start; "squares": the start square a step too
    closing: bool = True        # the closing turn
    size: str = ">"             # ">=": a side of exactly the limit is penalised
    border: str = "two"         # "all": the border bonus with 3-4 players too
    border_free: str = ">"      # ">=": 10 free squares are enough
    edge: str = "more"          # "all": the edge bonus with 2 players too; "far": the far
    #                             edges tested as x1 == width, y1 == height (never true);
    #                             "near": one square short of an edge taken for touching it
    win: str = ">="             # ">": the win bonus only for more neutral squares than needed
    prox: str = "manhattan"     # "chebyshev"; "border": to the nearest border square (not 0
    #                             inside); "once": one division at most; "<=": gap 2 counts;
    #                             "times": / (2 * near), not / 2 ** near; "self": the scorer too
    thin: str = "corner"        # "turns": 1 / (1 + d) without dividing by the turns
    thin_side: str = "<2"       # "<3": x1 - x0 < 3, a side of 3 squares taken for thin
    column: str = "width"       # "height": the middle column as view.height // 2
    divide: str = "true"        # "floor": points // turns
    box: str = "yx"             # "xy": the rectangle's squares read as owner[x0:x1 + 1,
    #                             y0:y1 + 1]; "end": as owner[y0:y1, x0:x1] (the ends left out)
    column_end: bool = True     # False: the middle column read as owner[y0:y1, col]
    me: str = "player"          # "0": player 0's position, whoever scores
    needed: str = "active"      # "all": needed_to_win counting eliminated players' squares
    constant: str = "players"   # "active": CONSTANT by the players still in the game
    limit: str = "players"      # "active": SIZE_LIMIT by the players still in the game


def _walk(owner, player, position, cycle, approach, m: Mistakes):
    """(approach * distance + walk, start index, direction) of the cheapest walk."""
    n = len(cycle)
    todo = [k for k, (x, y) in enumerate(cycle) if owner[y, x] != player]
    if m.walk == "all":
        todo = list(range(n))
    best = None
    dirs = (1,) if m.walk == "clockwise" else (1, -1)
    starts = range(n)
    if m.walk == "nearest":
        near = min(abs(position[0] - x) + abs(position[1] - y) for x, y in cycle)
        starts = [i for i, (x, y) in enumerate(cycle)
                  if abs(position[0] - x) + abs(position[1] - y) == near]
    elif m.walk == "corner":
        starts = [0]                        # border_cycle starts at (x0, y0)
    for i in starts:
        x, y = cycle[0 if m.walk == "to corner" else i]
        d = abs(position[0] - x) + abs(position[1] - y)
        for step in dirs:
            walk = max(((j - i) * step % n for j in todo), default=0)
            walk += 1 if m.walk == "squares" else 0
            cost = approach * d + walk
            if best is None or cost < best[0]:
                best = (cost, i, step, d, walk)
    return best


def explain(view, player, rect, **mistakes) -> tuple[float, list[str]]:
    """The score of ``rect`` and the steps that give it, one line per term.

    >>> from tronlab.capture import state_from_ascii
    >>> view = state_from_ascii('''
    ...     ........
    ...     .A00....
    ...     .0.0....
    ...     .0......
    ...     ........
    ...     .......b
    ... ''').view()
    >>> score, lines = explain(view, 0, (1, 1, 4, 3))
    >>> print("\\n".join(lines))
    points: 6 neutral squares
    turns: 2 x 0 to (1, 1) + 7 along the border (clockwise) + 1 to close + 10 (2 players) = 18
    6 / 18 = 0.333333
    """
    m = Mistakes(**mistakes)
    terms = RectTerms().without(*m.off) if m.off else RectTerms()
    n_players = view.n_players
    owner = np.asarray(view.owner)
    position = view.positions[0 if m.me == "0" else player]
    opponents, needed = scan_inputs(view, player)
    needed = needed_to_win(owner, player) if m.needed == "all" else needed
    x0, y0, x1, y1 = rect
    box = {"xy": owner[x0:x1 + 1, y0:y1 + 1],
           "end": owner[y0:y1, x0:x1]}.get(m.box, owner[y0:y1 + 1, x0:x1 + 1])
    neutral = int(np.count_nonzero(box == -1))
    enemy = int(np.count_nonzero((box >= 0) & (box != player)))
    lines = []
    if (enemy and m.enemy) or (neutral == 0 and m.empty):
        why = f"{enemy} opponent square(s) inside" if enemy and m.enemy else "no neutral square"
        return 0.0, [f"score 0: {why}"]
    points = _points(owner, rect, neutral, needed, lines, terms, m)
    cycle = border_cycle(x0, y0, x1, y1)
    cost, i, step, d, walk = _walk(owner, player, position, cycle, terms.approach, m)
    constant, limit = _by_player_count(view, terms, m)
    closing = 1 if m.closing else 0
    turns = cost + closing + constant
    lines.append(f"turns: {terms.approach:g} x {d} to {cycle[i]} + {walk} along the border "
                 f"({'clockwise' if step == 1 else 'anticlockwise'}) + {closing} to close + "
                 f"{constant:g} ({n_players} players) = {turns:g}")
    score = points // turns if m.divide == "floor" else points / turns
    lines.append(f"{points} / {turns:g} = {score:.6g}")
    thin = 3 if m.thin_side == "<3" else 2
    if terms.thin_corner and (x1 - x0 < thin or y1 - y0 < thin):
        corner = 1 + abs(position[0] - x0) + abs(position[1] - y0)
        score = 1 / corner if m.thin == "turns" else 1 / corner / turns
        lines.append(f"thin (a side under 3): 1 / {corner} (the path to the corner "
                     f"({x0}, {y0})) / {turns:g} turns = {score:.6g}")
    if m.prox == "self":
        opponents = [*opponents, position]
    return _factors(score, lines, owner, rect, (n_players, limit), needed, neutral, opponents,
                    terms, m)


def _points(owner, rect, neutral, needed, lines, terms, m) -> int:
    """The rectangle's points (its neutral squares, capped at ``needed``), with their line."""
    x0, y0, x1, y1 = rect
    points = neutral
    if m.points == "inside":
        points = int(np.count_nonzero(owner[y0 + 1:y1, x0 + 1:x1] == -1))
    line = f"points: {points} neutral squares"
    if terms.cap_to_win and points > needed:
        line += f", capped at the {needed} still needed to win"
        points = needed
    lines.append(line)
    return points


def _by_player_count(view, terms, m):
    """The player-count constant and the size limit: by ``view.n_players`` (the rule) or,
    as the mistakes in ``m`` say, by the players still in the game."""
    n, active = view.n_players, view.n_players - int(sum(view.eliminated))
    return (terms.player_constant[(active if m.constant == "active" else n) - 2],
            terms.size_limit[(active if m.limit == "active" else n) - 2])


def _factors(score, lines, owner, rect, players, needed, neutral, opponents, terms, m):
    """The score multiplied by each bonus and divisor that applies, a line each
    (``players``: the player count and the size limit that goes with it)."""
    h, w = owner.shape
    x0, y0, x1, y1 = rect
    n_players, limit = players

    def factor(name, f, why):
        nonlocal score
        score *= f
        lines.append(f"{name}: x {f:g} ({why}) -> {score:.6g}")

    if (neutral > needed if m.win == ">" else neutral >= needed) and terms.win_bonus != 1:
        factor("win bonus", terms.win_bonus, f"{neutral} neutral squares >= {needed} needed")
    long_side = max(x1 - x0 + 1, y1 - y0 + 1)
    if (long_side > limit or (m.size == ">=" and long_side == limit)) and terms.size_divisor != 1:
        factor("size", 1 / terms.size_divisor, f"a side of {long_side} > {limit}")
    col = h // 2 if m.column == "height" else w // 2
    if (n_players == 2 or m.border == "all") and col in (x0, x1) and terms.border_bonus != 1:
        free = int(np.count_nonzero(owner[y0:y1 + int(m.column_end), col] == -1))
        if free > terms.border_free or (m.border_free == ">=" and free == terms.border_free):
            factor("border bonus", terms.border_bonus,
                   f"a side on column {col} with {free} > {terms.border_free} neutral squares")
    if ((n_players > 2 or m.edge == "all") and _touches_edge(rect, w, h, m.edge)
            and terms.edge_bonus != 1):
        factor("edge bonus", terms.edge_bonus, "touches the edge")
    if terms.proximity_divisor != 1:
        near = 0
        for ox, oy in opponents:
            gx, gy = max(0, x0 - ox, ox - x1), max(0, y0 - oy, oy - y1)
            gap = {"chebyshev": max(gx, gy), "border": min(
                abs(ox - x) + abs(oy - y) for x, y in border_cycle(*rect))}.get(m.prox, gx + gy)
            if gap < terms.proximity or (m.prox == "<=" and gap == terms.proximity):
                near += 1
        if m.prox == "once":
            near = min(near, 1)
        if near:
            f = 1 / (terms.proximity_divisor * near) if m.prox == "times" else \
                terms.proximity_divisor ** -near
            factor("opponents near", f,
                   f"{near} opponent(s) less than {terms.proximity} squares away")
    return float(score), lines


def _touches_edge(rect, w, h, how="more") -> bool:
    """Whether ``rect`` touches the edge of a ``w`` x ``h`` grid, or as the mistake ``how``
    (see :class:`Mistakes`) says."""
    x0, y0, x1, y1 = rect
    if how == "far":
        return x0 == 0 or y0 == 0
    if how == "near":
        return x0 <= 1 or y0 <= 1 or x1 >= w - 2 or y1 >= h - 2
    return x0 == 0 or y0 == 0 or x1 == w - 1 or y1 == h - 1


def variant(view, player, rect, **mistakes) -> float:
    """The score of ``rect`` computed in plain Python, with the typical mistakes of
    :class:`Mistakes` switchable; no mistakes gives :func:`reference`."""
    return explain(view, player, rect, **mistakes)[0]


def _probes(student, view, case, value) -> list:
    """When ``value`` is a wrong score: the learner's scores of two more rectangles of the
    grid whose scores differ, as ``(rect, theirs, expected)`` (run in the checker's
    child, so a constant score can be named as one); [] when right or not a number."""
    player, rect = case.args
    if isinstance(value, (bool, np.bool_)) or not is_real(value):
        return []
    want = reference(view, player, rect)
    if ScoreRectangle().same(want, float(value), case):
        return []
    w, h = view.width, view.height
    seen, out = [want], []
    for r in ((0, 0, 1, 1), (0, 0, 2, 2), (w - 2, h - 2, w - 1, h - 1), (w - 3, 0, w - 1, 2),
              (0, h - 3, 2, h - 1), (0, 0, min(w, 16) - 1, min(h, 16) - 1)):
        if min(r) < 0 or r[2] >= w or r[3] >= h or r == rect:     # sides 2-16 on the grid
            continue
        score = reference(view, player, r)
        if any(abs(score - s) <= 1e-9 for s in seen):
            continue
        try:
            theirs = student(view, player, r)
        except Exception:       # noqa: BLE001 - only a probe: the case's own answer counts
            return []
        if isinstance(theirs, (bool, np.bool_)) or not is_real(theirs):
            return []
        seen.append(score)
        out.append((r, float(theirs), score))
        if len(out) == 2:
            break
    return out


class ScoreRectangle(CaptureExercise):
    function = "score_rectangle"
    parameters = ("view", "player", "rect")
    returns = "the rectangle's score: one number (a float, 0 or more)"
    time_limit = 5.0
    hint = ("take the expected score apart as shown above and recompute each line by hand: "
            "points, turns, then the factors one at a time")

    def cases(self):
        return _tiny_cases() + list(_random_cases())

    def call(self, student, case, context):
        view = context["board"].view
        value = student(view, *case.args)
        context["probes"] = _probes(student, view, case, value)
        context["int"] = is_whole(value)
        return value

    def describe_case(self, case):
        v = case.board.view
        player, rect = case.args
        x0, y0, x1, y1 = rect
        where = ", ".join(f"{q}: {'eliminated' if p is None else p}"
                          for q, p in enumerate(v.positions))
        return (f"score_rectangle(view, {player}, {rect}): the {x1 - x0 + 1}x{y1 - y0 + 1} "
                f"rectangle from ({x0}, {y0}) to ({x1}, {y1}); {v.n_players} players, "
                f"positions {where}")

    def convert(self, value, case):
        if isinstance(value, (bool, np.bool_)):
            raise WrongType(f"return the score as a number, not {value!r}")
        if not is_real(value):
            raise WrongType(f"return one number, the score, not {short_repr(value)}")
        value = float(value)
        if not math.isfinite(value):
            raise WrongType(f"the score must be a finite number, got {value!r}")
        return value

    def expected(self, case):
        return reference(case.board.view, *case.args)

    def same(self, expected, got, case):
        return abs(got - expected) <= 1e-9 + 1e-6 * abs(expected)

    def show(self, value, case):
        return f"{value:.6g}"

    def judge(self, case, got, context):
        failure = super().judge(case, got, context)
        if failure is None:
            return None
        steps = "\n".join(explain(case.board.view, *case.args)[1])
        failure = failure._replace(expected=f"{failure.expected}\n{steps}")
        probes = context.get("probes") or []
        want = reference(case.board.view, *case.args)
        better = (rounded_hint(got, want, probes, context.get("int", False))
                  or decimals_hint(got, want, probes)
                  or self._mistake_fitting_probes(case, got, probes))
        if better:
            return failure._replace(hint=better)
        if len(probes) == 2 and all(self.same(got, mine, case) for _, mine, _ in probes):
            (r1, _, e1), (r2, _, e2) = probes
            return failure._replace(hint=(
                f"your score_rectangle gives {got:.6g} here and {got:.6g} again for the "
                f"rectangles {r1} and {r2} of this grid, whose scores are {e1:.6g} and "
                f"{e2:.6g}: the score does not depend on the rectangle. "
                + (ZERO_EVERYWHERE + ROUNDED_DOWN if got == 0 else
                   "Work it out from rect: its neutral squares over the turns to close it, "
                   "then the factors")))
        return failure

    def _mistake_fitting_probes(self, case, got, probes) -> str | None:
        """The hint of the first mistake giving the learner's scores here and on the probes'
        rectangles (they tell apart mistakes that agree on one rectangle), else None."""
        view, (player, rect) = case.board.view, case.args
        scored = [(rect, got), *((r, mine) for r, mine, _ in probes)]
        return next((text for options, text in MISTAKES if probes and all(
            self.same(variant(view, player, r, **options), mine, case) for r, mine in scored)),
            None)

    def crash_hint(self, case, err):      # None at an eliminated player's, view.active...
        return (eliminated_hint(case.board.view, err, "the opponents-near divisor")
                or view_attribute_hint(err) or empty_walk_hint(case, err))

    def diagnose(self, case, got, want):
        """The hint of the first term or typical mistake that gives the learner's score,
        else of x and y swapped when the transposed rectangle's score is the learner's."""
        for options, text in MISTAKES:
            if self.same(variant(case.board.view, *case.args, **options), got, case):
                return text
        view, (player, (x0, y0, x1, y1)) = case.board.view, case.args
        if player != 0 and view.positions[0] is not None and any(
                self.same(score, got, case) for score in (
                    reference(view, 0, (x0, y0, x1, y1)),
                    variant(view, player, (x0, y0, x1, y1), me="0"))):
            return (f"that is the score with player 0's position: here player {player} scores, "
                    f"so measure from view.positions[player] = {view.positions[player]} (and "
                    f"count the squares of `player` as yours)")
        if ((x0, x1) != (y0, y1) and y1 < view.width and x1 < view.height
                and self.same(reference(view, player, (y0, x0, y1, x1)), got, case)):
            return SWAPPED
        return None


@recorded
def check_score_rectangle(score_rectangle, *, time_limit=None):
    """Check ``score_rectangle(view, player, rect) -> float`` (B3): tiny grids, then games."""
    cases = _tiny_cases()[:1] if is_stub(score_rectangle) else None     # no games for a stub
    return run_check(ScoreRectangle(), score_rectangle, cases=cases, time_limit=time_limit)
