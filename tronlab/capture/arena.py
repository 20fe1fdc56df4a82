"""A quick measurement: one bot against copies of another, seats rotated.

>>> table = one_against_many("nearest", "random", n_players=2, games=2, seed=0,
...                         width=10, height=6)
>>> table.games, table.firsts + table.shared + table.lost
(2, 2)
"""

from __future__ import annotations

from typing import NamedTuple

from .game import play_capture
from .starts import as_rng


class Tally(NamedTuple):
    """How the single bot did: games it ranked first alone, first with others,
    or lower; its mean score and the others' mean score."""
    games: int
    firsts: int
    shared: int
    lost: int
    mean_score: float
    others_mean_score: float


def one_against_many(hero: str, other: str, *, n_players: int, games: int, seed=None,
                     **game_options) -> Tally:
    """Play ``games`` games of ``hero`` against ``n_players - 1`` copies of
    ``other``; in game ``k`` the hero sits in seat ``k % n_players``.  Each game
    gets its own seed drawn from ``seed``."""
    rng = as_rng(seed)
    firsts = shared = lost = 0
    mine, theirs = 0, 0
    for k in range(games):
        seat = k % n_players
        names = [hero if p == seat else other for p in range(n_players)]
        outcome = play_capture(names, rng=int(rng.integers(2**63)), **game_options).outcome
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
                 theirs / (games * (n_players - 1)))
