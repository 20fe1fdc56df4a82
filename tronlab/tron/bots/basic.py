"""Two simple bots: ``random`` and ``hugger`` (a first taste of technique A1).

``random`` picks uniformly among the moves into free squares.  ``hugger``
picks the free square with the most blocked neighbours, so it runs along
walls and trails and leaves open space in one piece - the crudest form of
the space-filling idea of a1k0n's Google AI Challenge 2010 winner.

Both work under every rule set: they only ever enter free squares, and a
Light Riders reverse after round 1 would enter the bot's own trail, so it is
never chosen.  When no square is free they still answer a move (and lose).
"""

from __future__ import annotations

from ..board import FREE, Board
from ..mapgen import as_rng
from ..values import check_flag
from ...runner.registry import register


class _SeededBot:
    """A bot with a Generator: its own if given one, else the one the engine hands over."""

    name = "bot"

    def __init__(self, rng=None):
        self._fixed = rng is not None
        self.rng = as_rng(rng) if rng is not None else None

    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None):
        if not self._fixed and rng is not None:
            self.rng = as_rng(rng)

    def _rng(self):
        if self.rng is None:
            self.rng = as_rng(None)
        return self.rng


class RandomBot(_SeededBot):
    """Uniformly random move into a free square; any move when there is none."""

    name = "random"

    def __call__(self, board: Board, player: int) -> int:
        moves = board.legal_moves(player)
        if not moves:
            return int(self._rng().integers(4))
        return int(moves[self._rng().integers(len(moves))])


def wall_count(board: Board, square: int) -> int:
    """How many of the four neighbours of flat ``square`` are not free (walls, trails, heads)."""
    flat = board.flat
    return sum(1 for off in board.offsets if flat[square + off] != FREE)


class HuggerBot(_SeededBot):
    """Enter the free square with the most blocked neighbours.

    Ties go to the first move in the order up, right, down, left, or to a
    random one with ``random_ties=True``.
    """

    name = "hugger"

    def __init__(self, rng=None, *, random_ties: bool = False):
        super().__init__(rng)
        self.random_ties = check_flag(random_ties, "random_ties")

    def __call__(self, board: Board, player: int) -> int:
        moves = board.legal_moves(player)
        if not moves:
            facing = int(board.facing[player])
            return facing if facing >= 0 else 0
        head = board.heads[player]
        scores = [wall_count(board, int(head + board.offsets[m])) for m in moves]
        best = [m for m, s in zip(moves, scores) if s == max(scores)]
        if self.random_ties and len(best) > 1:
            return int(best[self._rng().integers(len(best))])
        return best[0]


@register("random", description="uniformly random move into a free square")
def make_random(*, rng=None, time=None):
    return RandomBot(rng)


@register("hugger", description="follows walls: the free square with the most blocked neighbours")
def make_hugger(*, rng=None, time=None, random_ties=False):
    return HuggerBot(rng, random_ties=random_ties)
