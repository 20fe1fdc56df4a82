"""A tiny two-player Tron game for the search exercise (A5), with a node counter.

To keep the first search simple the players take turns: the side to move moves one
square, leaving its trail, then the other side moves, and so on.  (Real Tron moves are
simultaneous; :mod:`tronlab.tron.search` models that.)  This is the game of the C reference
search in ``bench/ref.c``:

* ``moves()`` lists the side to move's legal moves in the order up, right, down, left;
* ``play(move)`` makes one, ``undo()`` takes the last one back;
* ``score()`` values the position for the side to move: its Voronoi territory minus the
  other's (:func:`tronlab.grid.voronoi.territory`, ties neutral, heads left out);
* a side with no legal move has lost: the search scores that :data:`LOSS`.

The game counts what a search does: ``nodes`` is one for the root plus one per
``play``, ``evaluations`` one per ``score()``; the checker compares them with plain
minimax to see that alpha-beta really prunes.

>>> from tronlab import Board
>>> game = TurnGame(Board.from_ascii("1..2"))
>>> game.moves(), game.player
([1], 0)
>>> game.play(1); game.player, game.moves()
(1, [3])
>>> game.undo(); game.nodes
2
"""

from __future__ import annotations

from ..tron.board import FREE, MOVE_NAMES, TRAIL, Board
from ..grid.voronoi import territory
from ..tron.values import is_whole

#: value of a position whose side to move has no legal move
LOSS = -10000
#: bigger than any value: the starting window is (-INF, INF)
INF = 1_000_000


class TurnGame:
    """Two players taking turns on a copy of ``board``; ``player`` moves first."""

    LOSS = LOSS
    INF = INF

    def __init__(self, board: Board, player: int = 0):
        if not isinstance(board, Board):
            raise TypeError(f"TurnGame needs a tronlab Board, got {type(board).__name__}")
        if board.n_players != 2:
            raise ValueError(f"TurnGame is a two-player game; this board has "
                             f"{board.n_players} players")
        if not is_whole(player):
            raise TypeError(f"player must be 0 or 1, got {type(player).__name__} {player!r}")
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        self.board = board.copy()
        self.player = int(player)
        self.nodes = 1
        self.evaluations = 0
        self._history: list[tuple[int, int]] = []

    def moves(self) -> list[int]:
        """Legal moves of the side to move, in the order up (0), right (1), down (2), left (3)."""
        head = int(self.board.heads[self.player])
        flat = self.board.flat
        return [m for m, off in enumerate(self.board.offsets) if flat[head + off] == FREE]

    def play(self, move: int) -> None:
        """The side to move makes ``move``; then it is the other side's turn."""
        if move not in self.moves():
            name = MOVE_NAMES[move] if isinstance(move, int) and 0 <= move < 4 else repr(move)
            raise ValueError(f"{name} is not a legal move for player {self.player} here; "
                             f"legal moves: {self.moves()}")
        p = self.player
        head = int(self.board.heads[p])
        target = head + int(self.board.offsets[move])
        self.board.flat[target] = TRAIL + p
        self.board.heads[p] = target
        self._history.append((p, head))
        self.player = 1 - p
        self.nodes += 1

    def undo(self) -> None:
        """Take back the last move."""
        if not self._history:
            raise ValueError("undo() with no move to take back: every play() needs one undo()")
        p, head = self._history.pop()
        self.board.flat[self.board.heads[p]] = FREE
        self.board.heads[p] = head
        self.player = p

    def score(self) -> int:
        """Territory of the side to move minus the other's (ties neutral, heads left out)."""
        self.evaluations += 1
        p = self.player
        t = territory(self.board, (p, 1 - p))
        return t.n0 - t.n1

    @property
    def depth_played(self) -> int:
        """How many moves are on the stack (0 when every play() has been undone)."""
        return len(self._history)

    def __repr__(self) -> str:
        return (f"TurnGame(player {self.player} to move, nodes={self.nodes})\n"
                f"{self.board.to_ascii()}")
