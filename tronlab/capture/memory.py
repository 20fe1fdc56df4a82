"""What a capture bot remembers between its turns, and what it learns from BACK (B8).

A bot sees only a :class:`~tronlab.capture.state.View`: the owners and the
positions at the end of the last round.  :class:`Memory` keeps the views of
the current timeline by round, so a bot knows where it stood before (the
enclosure rule fires next to squares stood on two or more rounds ago), which
way each opponent last moved, and - after a ``BACK`` - what the thrown-away
future looked like: :meth:`Memory.future_positions` and
:meth:`Memory.future_squares` are the opponents' positions and new squares in
it, which a bot may assume will happen again (Recar's use of the rewind).

A ``BACK`` shows as a round number that does not grow: the views from that
round on are moved to ``future``.
"""

from __future__ import annotations

import numpy as np


class Memory:
    """Views by round (``rounds[k]`` = owners and positions at the end of round k)."""

    def __init__(self):
        self.rounds: dict = {}
        self.future: dict = {}
        self.last_round = 0
        self.backs_seen = 0

    def update(self, view) -> bool:
        """Record ``view``; returns True when it shows a rewind."""
        k = view.round - 1
        rewound = bool(self.rounds) and k < self.last_round
        if rewound:
            self.future = {r: v for r, v in self.rounds.items() if r > k}
            self.rounds = {r: v for r, v in self.rounds.items() if r < k}
            self.backs_seen += 1
        self.rounds[k] = (np.array(view.owner, copy=True), tuple(view.positions))
        self.last_round = k
        return rewound

    def position(self, player: int, k: int):
        """Where ``player`` stood at the end of round ``k`` (None if unknown)."""
        item = self.rounds.get(k)
        return None if item is None else item[1][player]

    def trail(self, player: int) -> list:
        """``player``'s positions at the end of the remembered rounds, oldest first."""
        return [self.rounds[k][1][player] for k in sorted(self.rounds)]

    def heading(self, player: int):
        """``(dx, dy)`` of ``player``'s last move, or None if it did not move
        or the round before is not remembered."""
        now = self.position(player, self.last_round)
        before = self.position(player, self.last_round - 1)
        if now is None or before is None or now == before:
            return None
        return (int(np.sign(now[0] - before[0])), int(np.sign(now[1] - before[1])))

    def future_positions(self, player: int) -> dict:
        """Round -> ``player``'s position in the thrown-away future."""
        return {k: v[1][player] for k, v in self.future.items()
                if k > self.last_round and v[1][player] is not None}

    def future_squares(self, player: int, owner) -> np.ndarray:
        """Squares neutral now that an opponent of ``player`` owned by the end of
        the thrown-away future (the squares they were aiming at)."""
        if not self.future:
            return np.zeros(np.shape(owner), bool)
        last = self.future[max(self.future)][0]
        return (np.asarray(owner) == -1) & (last >= 0) & (last != player)

    def gains(self, player: int, rounds: int) -> list:
        """Squares ``player`` gained in each of the last ``rounds`` rounds."""
        ks = [k for k in sorted(self.rounds) if k > self.last_round - rounds - 1]
        counts = [int(np.count_nonzero(self.rounds[k][0] == player)) for k in ks]
        return [b - a for a, b in zip(counts, counts[1:])]

    def future_captures(self, player: int, min_gain: int) -> list:
        """``(round, opponent, squares)`` for every round of the thrown-away
        future in which an opponent of ``player`` gained at least ``min_gain``
        squares (``squares`` a boolean grid of what it gained)."""
        out = []
        for k in sorted(self.future):
            before = self.future.get(k - 1, self.rounds.get(k - 1))
            if before is None:
                continue
            old, new = before[0], self.future[k][0]
            for q in range(int(new.max(initial=-1)) + 1):
                if q == player:
                    continue
                got = (new == q) & (old != q)
                if np.count_nonzero(got) >= min_gain:
                    out.append((k, q, got))
        return out

    def big_gains(self, player: int, min_gain: int) -> list:
        """``(round, opponent)`` for remembered rounds of the current timeline in
        which an opponent of ``player`` gained at least ``min_gain`` squares."""
        out = []
        for k in sorted(self.rounds):
            if k - 1 not in self.rounds:
                continue
            old, new = self.rounds[k - 1][0], self.rounds[k][0]
            for q in range(int(new.max(initial=-1)) + 1):
                if q != player and np.count_nonzero((new == q) & (old != q)) >= min_gain:
                    out.append((k, q))
        return out
