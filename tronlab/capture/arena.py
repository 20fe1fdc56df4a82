"""A quick measurement: one bot against copies of another, seats rotated, and the
sign test that says whether its wins are more than luck.

>>> table = one_against_many("nearest", "random", n_players=2, games=2, seed=0,
...                         width=10, height=6)
>>> table.games, table.firsts + table.shared + table.lost
(2, 2)
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

from .checks import check_whole
from .game import play_capture
from .starts import as_rng

#: the most games :func:`one_against_many` plays: more is a typo, not a measurement
MAX_GAMES = 100_000


class Tally(NamedTuple):
    """How the single bot did: games it ranked first alone, first with others,
    or lower; its mean score and the others' mean score."""
    games: int
    firsts: int
    shared: int
    lost: int
    mean_score: float
    others_mean_score: float
    ms_per_turn: float = 0.0

    @property
    def p(self) -> float:
        """Two-sided sign test on the decided games (:func:`sign_test`)."""
        return sign_test(self.firsts, self.lost)

    @property
    def verdict(self) -> str:
        """"clear" (p < 0.01 and more wins than losses), "lost" or "unclear"."""
        if self.p >= 0.01:
            return "unclear"
        return "clear" if self.firsts > self.lost else "lost"


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance that a fair coin splits ``wins +
    losses`` games at least this unevenly (shared firsts are left out).

    >>> round(sign_test(9, 1), 4), sign_test(0, 0)
    (0.0215, 1.0)
    """
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def one_against_many(hero: str, other: str, *, n_players: int, games: int, seed=None,
                     **game_options) -> Tally:
    """Play ``games`` games of ``hero`` against ``n_players - 1`` copies of
    ``other``; in game ``k`` the hero sits in seat ``k % n_players``.  Each game
    gets its own seed drawn from ``seed``.  ``n_players`` is 2-4 and ``games``
    1 to :data:`MAX_GAMES`, or a TypeError (not an int) or a ValueError says which
    is wrong."""
    n_players = check_whole(n_players, "n_players", 2, 4)
    games = check_whole(games, "games", 1, MAX_GAMES)
    rng = as_rng(seed)
    firsts = shared = lost = 0
    mine, theirs = 0, 0
    turns, t0 = 0, time.perf_counter()
    for k in range(games):
        seat = k % n_players
        names = [hero if p == seat else other for p in range(n_players)]
        outcome = play_capture(names, rng=int(rng.integers(2**63)), **game_options).outcome
        turns += outcome["turns"]
        ranks, scores = outcome["ranks"], outcome["scores"]
        if ranks[seat] == 1:
            if ranks.count(1) == 1:
                firsts += 1
            else:
                shared += 1
        else:
            lost += 1
        mine += scores[seat]
        theirs += sum(scores) - scores[seat]
    return Tally(games, firsts, shared, lost, mine / games,
                 theirs / (games * (n_players - 1)),
                 1000 * (time.perf_counter() - t0) / max(turns, 1))


def table_text(rows) -> str:
    """A sign-test table from ``{n_players: Tally}``."""
    lines = ["players  games  first  shared  lower        p  verdict  mean score (others)  ms/turn"]
    for n, t in rows.items():
        lines.append(f"{n:>7}  {t.games:>5}  {t.firsts:>5}  {t.shared:>6}  {t.lost:>5}  "
                     f"{t.p:>7.2g}  {t.verdict:<7}  {t.mean_score:>10.1f} "
                     f"({t.others_mean_score:.1f})"
                     f"  {t.ms_per_turn:>7.2f}")
    return "\n".join(lines)
