"""Play against your own function: an exercise answer turned into a bot (X4).

Each exercise notebook ends here.  :func:`as_bot` makes a Tron bot out of the function the
learner wrote, by what the function is:

* ``greedy_move(board, player)`` is a bot already;
* ``flood_fill`` and ``fill_bound`` (room): go where the most room is left;
* ``bfs_distances``, ``territory``, ``turn_order_territory`` (Voronoi): go where my
  territory minus the opponent's is largest after the move;
* ``articulation_points``: most room, and between equal rooms not onto a cut square;
* ``negamax(game, depth, alpha, beta)``: search the turn-taking game to ``depth``.

:func:`play_against` plays it against a built-in bot in a small match (both seats, a few
built-in maps) and keeps the games: ``duel.replay()`` shows one in the board widget, and
``BoardWidget.play(as_bot(fn))`` lets you play against it yourself.
"""

from __future__ import annotations

import html

from ..tron.board import TRAIL, Board
from ..grid.flood import flood_fill as package_flood_fill

__all__ = ["as_bot", "play_against", "Duel", "DUEL_MAPS"]

#: maps of the small match, smallest first (a pure-Python answer plays them in seconds)
DUEL_MAPS = ("arena", "pillars")


def _after(board: Board, player: int, move: int) -> Board:
    """``board`` with ``player`` moved one square (its head becomes trail)."""
    b = board.copy()
    target = b.target(player, move)
    b.flat[target] = TRAIL + player
    b.heads[player] = target
    return b


def _best(board, player, key):
    """The legal move with the largest ``key(board_after, move)`` (first of ties); 0 if none."""
    moves = board.legal_moves(player)
    if not moves:
        return 0
    return max(moves, key=lambda m: key(_after(board, player, m), m))


def _voronoi_from_distances(bfs_distances):
    def score(b, p):
        mine, theirs = bfs_distances(b, p), bfs_distances(b, 1 - p)
        n_mine = n_theirs = 0
        for a, o in zip(mine.reshape(-1).tolist(), theirs.reshape(-1).tolist()):
            if a > 0 and (o <= 0 or a < o):
                n_mine += 1
            elif o > 0 and (a <= 0 or o < a):
                n_theirs += 1
        return n_mine - n_theirs
    return score


def as_bot(function, *, depth: int = 3):
    """A bot ``bot(board, player) -> move`` playing by the learner's ``function``."""
    name = getattr(function, "__name__", None)
    if not callable(function) or name is None:
        raise TypeError(f"as_bot needs your exercise function, got {type(function).__name__}")
    if name == "greedy_move":
        bot = lambda board, player: function(board, player)             # noqa: E731
    elif name in ("flood_fill", "fill_bound"):
        bot = lambda board, player: _best(board, player,                 # noqa: E731
                                          lambda b, m: function(b, player))
    elif name == "territory":
        bot = lambda board, player: _best(board, player,                 # noqa: E731
                                          lambda b, m: (lambda n: n[player] - n[1 - player])(
                                              function(b)))
    elif name == "turn_order_territory":
        bot = lambda board, player: _best(board, player,                 # noqa: E731
                                          lambda b, m: (lambda n: n[player] - n[1 - player])(
                                              function(b, 1 - player)))
    elif name == "bfs_distances":
        score = _voronoi_from_distances(function)
        bot = lambda board, player: _best(board, player, lambda b, m: score(b, player))  # noqa
    elif name == "articulation_points":
        def bot(board, player):
            cuts = set(function(board))
            return _best(board, player, lambda b, m: (
                package_flood_fill(b, player), b.xy(b.heads[player]) not in cuts))
    elif name == "negamax":
        from .game import INF, TurnGame

        def bot(board, player):
            if not board.legal_moves(player):
                return 0
            _, move = function(TurnGame(board, player), depth, -INF, INF)
            return 0 if move is None else int(move)
    else:
        raise ValueError(f"as_bot knows the exercise functions greedy_move, fill_bound, "
                         f"flood_fill, bfs_distances, territory, turn_order_territory, "
                         f"articulation_points and negamax; got {name!r}")
    bot.name = f"your {name}"
    return bot


class Duel:
    """The games of :func:`play_against` and their tally from the learner's side."""

    def __init__(self, name, against, records, seats, note=""):
        self.name, self.against, self.records, self.seats, self.note = (
            name, against, records, seats, note)
        self.results = []
        for rec, seat in zip(records, seats):
            w = rec.outcome.winner
            self.results.append("draw" if w is None else "win" if w == seat else "loss")

    @property
    def wins(self) -> int:
        return self.results.count("win")

    @property
    def losses(self) -> int:
        return self.results.count("loss")

    @property
    def draws(self) -> int:
        return self.results.count("draw")

    def __repr__(self) -> str:
        if not self.records:
            return self.note
        lines = [f"your {self.name} v {self.against}: {self.wins} won, {self.draws} drawn, "
                 f"{self.losses} lost"]
        for k, (rec, seat, res) in enumerate(zip(self.records, self.seats, self.results)):
            lines.append(f"  game {k}: {rec.metadata.get('map', '?'):<8} you are cycle "
                         f"{seat + 1}: {res} in {rec.outcome.turns} turns")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(repr(self))}</pre>"

    def replay(self, game: int = 0):
        """The board widget replaying one game of the match (press play)."""
        from ..widgets import BoardWidget

        if not self.records:
            return self
        if not 0 <= game < len(self.records):
            raise ValueError(f"game is 0 to {len(self.records) - 1}, got {game!r}")
        return BoardWidget.replay(self.records[game], fps=12)


def play_against(function, against: str = "hugger", *, games: int = 4, seed: int = 0,
                 depth: int = 3) -> Duel:
    """Your ``function`` as a bot (:func:`as_bot`) against the built-in bot ``against``:
    ``games`` games, seats alternating, on :data:`DUEL_MAPS`."""
    from ..runner.engine import play
    from ..runner.registry import get_bot
    from ..tron.mapgen import load_builtin

    bot = as_bot(function, depth=depth)
    name = function.__name__
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 40:
        raise ValueError(f"games is a whole number 1-40, got {games!r}")
    try:
        bot(load_builtin(DUEL_MAPS[0]), 0)
    except NotImplementedError:
        return Duel(name, against, [], [], f"{name} is not implemented yet: write it above, "
                                           f"then play against it here.")
    records, seats = [], []
    for g in range(games):
        seat, map_name = g % 2, DUEL_MAPS[(g // 2) % len(DUEL_MAPS)]
        bots = [bot, get_bot(against)] if seat == 0 else [get_bot(against), bot]
        names = [f"your {name}", against] if seat == 0 else [against, f"your {name}"]
        rec = play(load_builtin(map_name), bots, rng=seed + g, names=names,
                   metadata={"map": map_name})
        records.append(rec)
        seats.append(seat)
    return Duel(name, against, records, seats)
