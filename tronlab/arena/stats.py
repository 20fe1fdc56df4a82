"""Head-to-head statistics of stored games (technique X2).

For two bots A and B, every game both played in counts once per pair of seats
they held (one comparison in a two-player game; in a 3-4 player game A beats B
when A placed better).  From A's side: W-D-L, points (W + D/2), the score
(points a game) with a 95% interval from the games' own spread (two wins and
two losses added, so that a sweep of a few games does not read +- 0), the exact
two-sided sign test of the decided games, and a verdict.

>>> sign_test(11, 6) < 0.5 < sign_test(3, 3)
True
>>> verdict(24, 28, 2), verdict(11, 37, 6), verdict(2, 28, 24)
('clear', 'unclear', 'lost')
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import NamedTuple

ALPHA = 0.01


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test on the decided games: the chance of a split at
    least this uneven if each decided game were a coin toss (draws say nothing
    about which bot is better, so they are left out)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def score_interval(wins: int, draws: int, losses: int, z: float = 1.96):
    """Mean points a game (win 1, draw 1/2) and the half-width of its 95%
    interval: the normal interval from the spread of the games' own points
    with two wins and two losses added (the Agresti-Coull correction).

    Without them a clean sweep has no spread, and 5-0-0 would read 100% +- 0;
    with them it reads 100% +- 27.  From about 50 games on, the correction
    changes the width by less than a point unless one bot won nearly every
    game (50-0-0: +- 5 instead of +- 0).

    >>> [round(100 * x) for x in score_interval(5, 0, 0)]
    [100, 27]
    """
    n = wins + draws + losses
    if n == 0:
        return 0.0, 0.0
    mean = (wins + draws / 2) / n
    won, lost, k = wins + 2, losses + 2, n + 4
    centre = (won + draws / 2) / k
    var = (won * (1 - centre) ** 2 + draws * (0.5 - centre) ** 2 + lost * centre ** 2) / k
    return mean, z * math.sqrt(var / k)


def verdict(wins: int, draws: int, losses: int, alpha: float = ALPHA) -> str:
    """``clear`` when the first bot wins more decided games than it loses and a
    coin could not plausibly have done it (sign test p < ``alpha``); ``lost``
    when it loses more just as clearly; ``unclear`` otherwise."""
    if sign_test(wins, losses) >= alpha:
        return "unclear"
    return "clear" if wins > losses else "lost"


def seat_places(ranks) -> list[int]:
    """Each seat's place, 1 for the first, as contests count them: one more than the
    seats placed better, so two players level first are both 1 and the next is 3.
    A stored row's ``ranks`` only order the seats (a Tron game stores 0, 0, 1 where a
    capture game stores 0, 0, 2); a table, a page or an export shows these places.

    >>> seat_places([0, 0, 1]), seat_places([0, 0, 2]), seat_places([1, 0, 2, 1])
    ([1, 1, 3], [1, 1, 3], [2, 1, 4, 2])
    """
    return [1 + sum(other < mine for other in ranks) for mine in ranks]


def comparisons(row):
    """``(name_i, name_j, s)`` for every ordered pair of seats with different bots:
    s = 1 if i placed better, 1/2 if level, 0 if worse."""
    names, ranks = row["names"], row["ranks"]
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a != b and i != j:
                yield a, b, 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0


class PairRow(NamedTuple):
    a: str
    b: str
    maps: str
    wins: int
    draws: int
    losses: int
    score: float
    half: float
    p: float
    verdict: str
    depth_a: float | None
    depth_b: float | None

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def pair_row(rows, a: str, b: str, label: str = "all") -> PairRow | None:
    """A's record against B over ``rows`` (None if they never met)."""
    counts = [0, 0, 0]
    da, db = [], []
    for row in rows:
        found = False
        for x, y, s in comparisons(row):
            if (x, y) == (a, b):
                counts[0 if s == 1 else 1 if s == 0.5 else 2] += 1
                found = True
        if found and row.get("depths"):
            da += [d for n, d in zip(row["names"], row["depths"]) if n == a]
            db += [d for n, d in zip(row["names"], row["depths"]) if n == b]
    w, d, l = counts
    if w + d + l == 0:
        return None
    mean, half = score_interval(w, d, l)
    return PairRow(a, b, label, w, d, l, mean, half, sign_test(w, l), verdict(w, d, l),
                   _mean(da), _mean(db))


def _by_name(rows) -> dict:
    """name -> the rows it played in, in their order: a pair's games are then read
    without reading every game (a class's 406 pairs over 812 games read every game for
    every pair: 1 s a table, 3.5 s the page's head-to-head matrix)."""
    having = defaultdict(list)
    for row in rows:
        for name in dict.fromkeys(row["names"]):
            having[name].append(row)
    return having


def _met(having, a: str, b: str) -> list:
    """The rows of :func:`_by_name` ``having`` in which ``a`` and ``b`` both played."""
    return [r for r in having.get(a, ()) if b in r["names"]]


def pair_table(rows, pairs) -> list[PairRow]:
    """For each pair, one line per map set (when there are several) and one for all."""
    sets = sorted({r["map_set"] for r in rows})
    having = _by_name(rows)
    out = []
    for a, b in pairs:
        met = _met(having, a, b)
        groups = [(s, [r for r in met if r["map_set"] == s]) for s in sets] if len(sets) > 1 else []
        for label, subset in groups + [("all", met)]:
            line = pair_row(subset, a, b, label)
            if line is not None:
                out.append(line)
    return out


def points(rows) -> dict:
    """name -> (points, comparisons) over all seat pairs with another bot."""
    got = defaultdict(float)
    played = defaultdict(int)
    for row in rows:
        for a, _b, s in comparisons(row):
            got[a] += s
            played[a] += 1
    return {n: (got[n], played[n]) for n in played}


def head_to_head(rows, names):
    """``M[i][j]`` = bot i's score against bot j (None if they never met)."""
    having = _by_name(rows)

    def score(a, b):
        line = pair_row(_met(having, a, b), a, b)
        return None if line is None else line.score
    return [[None if a == b else score(a, b) for b in names] for a in names]


def fault_codes() -> tuple:
    """The codes a bot's own mistake leaves in a row's ``faults``: the faults of
    programs and clocks (:data:`tronlab.tron.rules.FAULTS`, the capture game's among
    them) and the capture game's rule breaches that eliminate (a second ``BACK``, a
    ``BACK`` out of range, a target off the grid)."""
    from ..capture.rules import ELIMINATIONS
    from ..tron.rules import FAULTS

    return tuple(dict.fromkeys(FAULTS + ELIMINATIONS))


def by_name(name: str) -> tuple:
    """The order in which lists of bots go, as a class list is read: 'alice', 'Bob',
    'zoë', not the capitals first ('ALICE', 'Paul Smith', ..., 'alice')."""
    return name.casefold(), name


def fault_counts(rows) -> dict:
    """name -> {fault code: count} for the codes of :func:`fault_codes`."""
    codes = fault_codes()
    out = defaultdict(lambda: defaultdict(int))
    for row in rows:
        for name, code in zip(row["names"], row["faults"]):
            if code in codes:
                out[name][code] += 1
    return {n: dict(c) for n, c in out.items()}
