"""How a Tron game ended: deaths, rankings and the :class:`Outcome` (technique E2).

Players rank by how long they lived: survivors first, then later deaths; under
codingame a later sub-move in the same turn ranks better.

>>> rank_players([None, 3, 3])
[[0], [1, 2]]
>>> Outcome.from_deaths([None, "wall"], [None, 4], 4).winner
0
"""

from __future__ import annotations

from dataclasses import dataclass, field


def rank_players(death_turns, death_order=None) -> list[list[int]]:
    """Ranking groups, best first: survivors (death turn None), then later deaths first.

    ``death_order`` breaks ties inside a turn (a larger number died later, e.g.
    the sub-move index under codingame); equal keys share a group.
    """
    n = len(death_turns)
    order = death_order or [0] * n

    def key(p):
        return (float("inf"), 0) if death_turns[p] is None else (death_turns[p], order[p])

    groups: list[list[int]] = []
    last = None
    for p in sorted(range(n), key=key, reverse=True):
        if groups and key(p) == last:
            groups[-1].append(p)
        else:
            groups.append([p])
        last = key(p)
    for g in groups:
        g.sort()
    return groups


@dataclass
class Outcome:
    """How a game ended.

    ``winner`` is a player or None (a draw, or several survivors when a turn
    limit stopped the game); ``ranking`` lists groups of players, best first,
    tied players sharing a group; ``deaths[p]`` is a code from :data:`REASONS`
    or None for a survivor; ``death_turns[p]`` the turn it died in;
    ``details[p]`` a sentence for people.
    """

    winner: int | None
    ranking: list[list[int]]
    turns: int
    deaths: list[str | None]
    death_turns: list[int | None]
    details: list[str | None] = field(default_factory=list)

    @classmethod
    def from_deaths(cls, deaths, death_turns, turns, *, death_order=None, details=None):
        ranking = rank_players(death_turns, death_order)
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        return cls(winner, ranking, turns, list(deaths), list(death_turns),
                   list(details) if details is not None else [None] * len(deaths))

    @property
    def draw(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict:
        return {"winner": self.winner, "ranking": [list(g) for g in self.ranking],
                "turns": self.turns, "deaths": list(self.deaths),
                "death_turns": list(self.death_turns), "details": list(self.details)}

    @classmethod
    def from_dict(cls, data: dict) -> "Outcome":
        try:
            return cls(data["winner"], [list(g) for g in data["ranking"]], int(data["turns"]),
                       list(data["deaths"]), list(data["death_turns"]),
                       list(data.get("details") or [None] * len(data["deaths"])))
        except (KeyError, TypeError) as err:
            raise ValueError(f"not an outcome dict: {err!r}") from None


class DeathLog:
    """Collects the deaths of a game, turn by turn, and turns them into an :class:`Outcome`."""

    def __init__(self, n_players: int, *, simultaneous: bool):
        self.simultaneous = simultaneous
        self.deaths = [None] * n_players
        self.death_turns = [None] * n_players
        self.order = [0] * n_players
        self.details = [None] * n_players

    def add(self, turn: int, deaths) -> None:
        """Record a turn's ``[(player, reason, detail), ...]`` (as from ``Rules.play_turn``)."""
        for i, (p, reason, detail) in enumerate(deaths):
            self.deaths[p], self.death_turns[p], self.details[p] = reason, turn, detail
            self.order[p] = 0 if self.simultaneous else i

    def outcome(self, turns: int) -> Outcome:
        return Outcome.from_deaths(self.deaths, self.death_turns, turns,
                                   death_order=self.order, details=self.details)
