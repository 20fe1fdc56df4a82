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

import functools
import math
from typing import NamedTuple

import numpy as np

from ..capture.ascii import state_from_ascii
from ..capture.rects import border_cycle, rectangle_scores, scan_rectangles
from ..capture.rects_bot import scan_inputs
from ..capture.rects_terms import RectTerms, needed_to_win
from ..tron.values import is_real
from .checker import Case, Exercise, WrongType, run_check
from .ex_capture import READ_ONLY_VIEW, CaptureGrid
from .ex_rects_best import BestRectangle, best_rectangle  # noqa: F401 (re-export)
from .ex_rects_grids import TINY_GRIDS
from .ex_rects_mistakes import MISTAKES, SWAPPED, TERMS  # noqa: F401 (TERMS re-export)
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
    points: str = "all"         # "inside": only the squares inside the border
    walk: str = "fewest"        # "all": every border square walked; "clockwise": one way only;
    #                             "nearest": start at the nearest border square; "squares":
    #                             the start square counted as a step too (one more)
    closing: bool = True        # the closing turn
    size: str = ">"             # ">=": a side of exactly the limit is penalised
    border: str = "two"         # "all": the border bonus with 3-4 players too
    border_free: str = ">"      # ">=": 10 free squares are enough
    edge: str = "more"          # "all": the edge bonus with 2 players too
    prox: str = "manhattan"     # "chebyshev", "once" (one division at most), "<=" (gap 2 counts)
    thin: str = "corner"        # "turns": 1 / (1 + d) without dividing by the turns
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
    for i in starts:
        d = abs(position[0] - cycle[i][0]) + abs(position[1] - cycle[i][1])
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
    position = view.positions[player]
    opponents, needed = scan_inputs(view, player)
    needed = needed_to_win(owner, player) if m.needed == "all" else needed
    x0, y0, x1, y1 = rect
    box = owner[y0:y1 + 1, x0:x1 + 1]
    neutral = int(np.count_nonzero(box == -1))
    enemy = int(np.count_nonzero((box >= 0) & (box != player)))
    lines = []
    if (enemy and m.enemy) or neutral == 0:
        why = f"{enemy} opponent square(s) inside" if enemy and m.enemy else "no neutral square"
        return 0.0, [f"score 0: {why}"]
    points = neutral
    if m.points == "inside":
        points = int(np.count_nonzero(owner[y0 + 1:y1, x0 + 1:x1] == -1))
    line = f"points: {points} neutral squares"
    if terms.cap_to_win and points > needed:
        line += f", capped at the {needed} still needed to win"
        points = needed
    lines.append(line)
    cycle = border_cycle(x0, y0, x1, y1)
    cost, i, step, d, walk = _walk(owner, player, position, cycle, terms.approach, m)
    constant, limit = _by_player_count(view, terms, m)
    closing = 1 if m.closing else 0
    turns = cost + closing + constant
    lines.append(f"turns: {terms.approach:g} x {d} to {cycle[i]} + {walk} along the border "
                 f"({'clockwise' if step == 1 else 'anticlockwise'}) + {closing} to close + "
                 f"{constant:g} ({n_players} players) = {turns:g}")
    score = points / turns
    lines.append(f"{points} / {turns:g} = {score:.6g}")
    if terms.thin_corner and (x1 - x0 < 2 or y1 - y0 < 2):
        corner = 1 + abs(position[0] - x0) + abs(position[1] - y0)
        score = 1 / corner if m.thin == "turns" else 1 / corner / turns
        lines.append(f"thin (a side under 3): 1 / {corner} (the path to the corner "
                     f"({x0}, {y0})) / {turns:g} turns = {score:.6g}")
    return _factors(score, lines, owner, rect, (n_players, limit), needed, neutral, opponents,
                    terms, m)


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

    if neutral >= needed and terms.win_bonus != 1:
        factor("win bonus", terms.win_bonus, f"{neutral} neutral squares >= {needed} needed")
    long_side = max(x1 - x0 + 1, y1 - y0 + 1)
    if (long_side > limit or (m.size == ">=" and long_side == limit)) and terms.size_divisor != 1:
        factor("size", 1 / terms.size_divisor, f"a side of {long_side} > {limit}")
    col = w // 2
    if (n_players == 2 or m.border == "all") and col in (x0, x1) and terms.border_bonus != 1:
        free = int(np.count_nonzero(owner[y0:y1 + 1, col] == -1))
        if free > terms.border_free or (m.border_free == ">=" and free == terms.border_free):
            factor("border bonus", terms.border_bonus,
                   f"a side on column {col} with {free} > {terms.border_free} neutral squares")
    if ((n_players > 2 or m.edge == "all") and (x0 == 0 or y0 == 0 or x1 == w - 1 or y1 == h - 1)
            and terms.edge_bonus != 1):
        factor("edge bonus", terms.edge_bonus, "touches the edge")
    if terms.proximity_divisor != 1:
        near = 0
        for ox, oy in opponents:
            gx, gy = max(0, x0 - ox, ox - x1), max(0, y0 - oy, oy - y1)
            gap = max(gx, gy) if m.prox == "chebyshev" else gx + gy
            if gap < terms.proximity or (m.prox == "<=" and gap == terms.proximity):
                near += 1
        if m.prox == "once":
            near = min(near, 1)
        if near:
            factor("opponents near", terms.proximity_divisor ** -near,
                   f"{near} opponent(s) less than {terms.proximity} squares away")
    return float(score), lines


def variant(view, player, rect, **mistakes) -> float:
    """The score of ``rect`` computed in plain Python, with the typical mistakes of
    :class:`Mistakes` switchable; no mistakes gives :func:`reference`."""
    return explain(view, player, rect, **mistakes)[0]


class RectGrid(CaptureGrid):
    """A capture position plus the rectangle the learner scores."""


def _tiny_cases():
    out = []
    for label, text, player, rect, options in TINY_GRIDS:
        view = state_from_ascii(text, **options).view()
        out.append(Case(f"tiny: {label}", RectGrid(view), (player, rect)))
    return out


@functools.lru_cache(maxsize=4)
def _random_cases(seed=1111, games=8, quits=6):
    """Positions from seeded games of random bots: ``games`` games of 2-4 players, then
    ``quits`` games of 3-4 players in which one player stops answering at a random
    round (it is eliminated and keeps its squares; the position comes after that).
    On each, each of two active players' best rectangle and two drawn at random
    (sides 2 to 16)."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games + quits):
        n = 2 + g % 3 if g < games else 3 + g % 2
        out += _game_cases(rng, g, n, quits=g >= games)
    return tuple(out)


def _game_cases(rng, g, n, *, quits):
    """The cases of one seeded game of ``n`` random bots (see :func:`_random_cases`)."""
    from ..capture.bots import NearestBot
    from ..capture.game import play_capture

    w, h = int(rng.integers(10, 25)), int(rng.integers(7, 15))
    bots, gone = ["random"] * n, ""
    if quits:
        q, at = int(rng.integers(n)), int(rng.integers(30, 70))
        bots[q] = _quitter(NearestBot(), at)
        gone = f", player {q} eliminated"
    rec = play_capture(bots, rng=int(rng.integers(2**32)), width=w, height=h)
    states = rec.replay()
    if quits:
        first = next(i for i, st in enumerate(states) if st.eliminated[q])
        s = states[int(rng.integers(first, min(first + 40, len(states))))]
    else:
        s = states[int(rng.integers(len(states) // 4, len(states)))]
    view = s.view()
    out = []
    for p in s.active[:2]:
        opponents, needed = scan_inputs(view, p)
        best = scan_rectangles(np.asarray(view.owner), p, view.positions[p], n_players=n,
                               opponents=opponents, needed=needed)
        rects = [(best.x0, best.y0, best.x1, best.y1)] if best.score > 0 else []
        while len(rects) < 3:
            rw, rh = int(rng.integers(2, min(w, 16) + 1)), int(rng.integers(2, min(h, 16) + 1))
            x0, y0 = int(rng.integers(w - rw + 1)), int(rng.integers(h - rh + 1))
            rects.append((x0, y0, x0 + rw - 1, y0 + rh - 1))
        for rect in rects:
            out.append(Case(f"random: game {g} ({n} players{gone}, {w}x{h}), round "
                            f"{s.round - 1}, player {p}, rectangle {rect}", RectGrid(view),
                            (p, rect)))
    return out


def _quitter(bot, at):
    """``bot`` until round ``at``, then an exception every turn: the game eliminates it."""
    def quitter(view, player):
        if view.round >= at:
            raise RuntimeError(f"stops answering at round {at}")
        return bot(view, player)
    return quitter


class ScoreRectangle(Exercise):
    function = "score_rectangle"
    parameters = ("view", "player", "rect")
    noun = "grid"
    returns = "the rectangle's score: one number (a float, 0 or more)"
    time_limit = 5.0
    hint = ("take the expected score apart as shown above and recompute each line by hand: "
            "points, turns, then the factors one at a time")
    read_only_hint = READ_ONLY_VIEW

    def cases(self):
        return _tiny_cases() + list(_random_cases())

    def call(self, student, case, context):
        return student(context["board"].view, *case.args)

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
        return failure._replace(expected=f"{failure.expected}\n{steps}")

    def diagnose(self, case, got, want):
        """The hint of the first term or typical mistake that gives the learner's score,
        else of x and y swapped when the transposed rectangle's score is the learner's."""
        for options, text in MISTAKES:
            if self.same(variant(case.board.view, *case.args, **options), got, case):
                return text
        view, (player, (x0, y0, x1, y1)) = case.board.view, case.args
        if ((x0, x1) != (y0, y1) and y1 < view.width and x1 < view.height
                and self.same(reference(view, player, (y0, x0, y1, x1)), got, case)):
            return SWAPPED
        return None


@recorded
def check_score_rectangle(score_rectangle, *, time_limit=None):
    """Check ``score_rectangle(view, player, rect) -> float`` (B3) on tiny grids and game
    positions."""
    return run_check(ScoreRectangle(), score_rectangle, time_limit=time_limit)
