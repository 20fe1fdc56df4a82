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

The match runs in a child process under a time limit, like a checker's call
(:mod:`tronlab.course.timelimit`), and every call of the learner's function is
watched: a stub, a crash, ``sys.exit``, an answer the bot cannot use or an
endless loop ends the match with one sentence naming it (the game loop alone
would count a crash as a lost game and play on, and a loop would hang the notebook).
"""

from __future__ import annotations

import html
import numbers
import time

import numpy as np

from ..tron.board import TRAIL, Board
from ..tron.values import check_whole, is_real, is_whole
from ..grid.flood import flood_fill as package_flood_fill
from .answers import as_move
from .checker import WrongType
from .learner import crash_phrase, is_stub, short_repr, where
from .slowcalls import SlowCalls
from .timelimit import call_with_time_limit, check_time_limit

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
            cuts = {tuple(int(v) for v in c) for c in function(board)}
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
        game = check_whole(game, "game", 0, len(self.records) - 1)
        return BoardWidget.replay(self.records[game], fps=12)


class _Stop(BaseException):
    """Ends a game at the learner's first problem (a BaseException, so that no
    ``except Exception`` of the learner's swallows it; the game records it as a fault)."""


def _is_number(v) -> bool:
    return is_real(v)


def _answer_problem(name, value, args) -> str | None:
    """Why the bot cannot use ``value``, an answer of the learner's ``name``; None if it can."""
    if name == "greedy_move":
        try:                # the checker's words: the exercise asks for an int 0-3
            as_move(value)
        except WrongType as err:
            return str(err)
    elif name in ("flood_fill", "fill_bound"):
        if not is_whole(value):
            return "the bot compares these: return the number of squares, an int"
    elif name in ("territory", "turn_order_territory"):
        if (isinstance(value, (dict, set, frozenset, str, bytes)) or not hasattr(value, "__len__")
                or len(value) < 2 or not all(_is_number(v) for v in value)):
            return "return the counts by player, a tuple such as (n0, n1)"
    elif name == "bfs_distances":
        shape = args[0].cells.shape
        if not isinstance(value, np.ndarray) or value.shape != shape:
            return f"return a numpy array shaped like board.cells, {shape}"
    elif name == "articulation_points":
        try:
            squares = [tuple(c) for c in value]
        except TypeError:
            squares = None
        if (squares is None or isinstance(value, (str, bytes, dict))
                or not all(len(c) == 2 and all(isinstance(v, numbers.Integral) for v in c)
                           for c in squares)):
            return "return the cut squares as (x, y) pairs of ints"
    elif name == "negamax":
        if (not isinstance(value, (tuple, list)) or len(value) != 2 or not _is_number(value[0])
                or not (value[1] is None or isinstance(value[1], numbers.Integral))):
            return "return a pair (value, move), the move None when there is none"
    return None


#: what makes each function slow in the usual right-but-naive answer, and the quick way
_SLOW = {
    "flood_fill": "a list of seen squares searched with `in` makes every fill slow: keep them "
                  "in a set or a boolean array, and fill once from the head",
    "bfs_distances": "one breadth-first search from the head, seen squares in a set or an "
                     "array (not a list searched with `in`), gives every distance at once",
    "articulation_points": "taking each square out and flood-filling the rest is one fill "
                           "per square; the depth-first search with disc and low numbers "
                           "finds every cut square in one pass",
    "negamax": "copying the board or the game at every node costs more than the search: "
               "play a move, search, undo it",
}
for _name in ("territory", "turn_order_territory"):
    _SLOW[_name] = ("one breadth-first search from each head, seen squares in a set or an "
                    "array, gives every square's distances at once; a search per square (or "
                    "a list searched with `in`) repeats that work hundreds of times a call")
_SLOW["fill_bound"] = _SLOW["flood_fill"]
_SLOW["greedy_move"] = ("one flood fill per side of each move, seen squares in a set or an "
                        "array, is enough; copying the board or filling per square is not "
                        "needed")


class _Clock(SlowCalls):
    """The learner's calls in a match (:class:`~tronlab.course.slowcalls.SlowCalls`) and
    the largest board it was asked about, for the sentence that stops a slow match."""

    def __init__(self, name, limit):
        super().__init__(limit)
        self.name, self.free = name, 0

    def slow(self, args, seconds) -> str | None:
        """After a call that returned: the sentence saying the match is too slow, or None."""
        board = getattr(args[0], "board", args[0]) if args else None
        if hasattr(board, "free_count"):
            self.free = max(self.free, int(board.free_count()))
        if not self.too_slow(seconds):
            return None         # time to spare, or the time went elsewhere (the other bot)
        return (f"{self.stopped('match', f'your {self.name}')} on boards of up to {self.free} "
                f"free squares, and a game asks for it about three times a turn. It is likely "
                f"right but slow: "
                f"{_SLOW.get(self.name, 'look for work repeated on every call')} "
                f"(or give the match longer: play_against(..., time_limit=...))")


def _watched(function, name, problems, clock=None):
    """``function`` with every call watched: its first crash, ``sys.exit``, stub or
    unusable answer is written to ``problems`` as a sentence and stops the game; with a
    :class:`_Clock`, so does a function too slow for the match (as ``("slow", sentence)``)."""
    def watched(*args):
        began = time.monotonic()
        try:
            value = function(*args)
        except NotImplementedError:
            problems.append(None)
            raise _Stop from None
        except BaseException as err:  # noqa: BLE001 - sys.exit too: this is the child process
            line = where(err)
            problems.append(f"your {name} {crash_phrase(err)}" + (f", at {line}" if line else ""))
            raise _Stop from None
        why = _answer_problem(name, value, args)
        if why is not None:
            problems.append(f"your {name} returned {short_repr(value)}: {why}")
            raise _Stop
        slow = None if clock is None else clock.slow(args, time.monotonic() - began)
        if slow is not None:
            problems.append(("slow", slow))
            raise _Stop
        return value
    watched.__name__ = name
    return watched



def play_against(function, against: str = "hugger", *, games: int = 4, seed: int = 0,
                 depth: int = 3, time_limit: float = 60.0) -> Duel:
    """Your ``function`` as a bot (:func:`as_bot`) against the built-in bot ``against``:
    ``games`` games, seats alternating, on :data:`DUEL_MAPS`, in a child process that
    gets ``time_limit`` seconds for the whole match.  When your function is a stub, or
    crashes, loops or answers something the bot cannot use, the Duel says so in one
    sentence instead of holding games."""
    from ..runner.engine import play
    from ..runner.registry import get_bot
    from ..tron.mapgen import load_builtin

    as_bot(function, depth=depth)           # a clear TypeError/ValueError for a wrong function
    name = function.__name__
    games = check_whole(games, "games", 1, 40)
    limit = check_time_limit(time_limit, "time_limit")
    get_bot(against)                        # an unknown bot name is the caller's error, here
    not_yet = f"{name} is not implemented yet: write it above, then play against it here."
    if is_stub(function):
        return Duel(name, against, [], [], not_yet)

    def match():
        problems: list = []
        bot = as_bot(_watched(function, name, problems, _Clock(name, limit)), depth=depth)
        records, seats = [], []
        for g in range(games):
            seat, map_name = g % 2, DUEL_MAPS[(g // 2) % len(DUEL_MAPS)]
            bots = [bot, get_bot(against)] if seat == 0 else [get_bot(against), bot]
            names = [f"your {name}", against] if seat == 0 else [against, f"your {name}"]
            rec = play(load_builtin(map_name), bots, rng=seed + g, names=names,
                       metadata={"map": map_name})
            if problems:
                return "problem", (problems[0], g, map_name, seat)
            records.append(rec)
            seats.append(seat)
        return "games", (records, seats)

    outcome = call_with_time_limit(match, limit)
    if outcome.kind == "raised":            # a mistake of the package's, not the learner's
        raise outcome.error
    if outcome.kind == "value" and outcome.value[0] == "games":
        return Duel(name, against, *outcome.value[1])
    if outcome.kind == "value":
        problem, g, map_name, seat = outcome.value[1]
        if problem is None:
            return Duel(name, against, [], [], not_yet)
        if isinstance(problem, tuple):          # ("slow", sentence): it returns, slowly
            return Duel(name, against, [], [], f"No match: {problem[1]}.")
        note = (f"No match: {problem} (game {g}, on {map_name}, as cycle {seat + 1}). "
                f"Fix it above; the check cell tries it one board at a time.")
    elif outcome.kind == "timeout":
        note = (f"No match: the {games} games did not finish within {limit:g} s: is there a "
                f"loop in your {name} that never ends? (play_against(..., time_limit=...) "
                f"gives a slow function longer.)")
    else:
        note = f"No match: your {name} ended the program running the match ({outcome.detail})."
    return Duel(name, against, [], [], note)
