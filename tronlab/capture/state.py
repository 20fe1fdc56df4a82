"""What a game of Back to the Code remembers between rounds (technique B1).

A :class:`State` is immutable: :func:`tronlab.capture.rules.step` returns a new
one.  Its arrays are read-only, so states and the snapshots of earlier rounds
share them: a round makes one new owner array, and a rewind makes none.

Conventions
-----------
* ``owner`` is an ``int8`` array shaped ``(height, width)``: ``-1``
  (:data:`NEUTRAL`) or the id ``0..3`` of the player owning the square.
  Index it as ``owner[y, x]``; ``x`` grows to the right, ``y`` downwards.
* ``positions[p]`` is ``(x, y)``, or ``None`` once player ``p`` is eliminated
  (an eliminated player keeps its squares but stands nowhere).
* ``round`` is the *next* in-game round to play, as the contest's
  ``gameRound`` shows it: 1 before the first move.
* ``history[k]`` is the :class:`Snapshot` (owners and positions) at the end of
  in-game round ``k`` of the current timeline; ``history[0]`` is the start and
  ``history[-1]`` the present, so ``len(history) == round``.  ``BACK`` cuts
  the history; the squares a player stood on "two or more rounds ago" are its
  positions in ``history[:-1]`` when it has just moved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .checks import check_square, check_view

NEUTRAL = -1    # an unowned square (tronlab.grid.voronoi.NEUTRAL, a Voronoi tie, is 2)
WIDTH, HEIGHT = 35, 20
#: in-game rounds before the game ends, by number of players
ROUND_LIMITS = {2: 350, 3: 300, 4: 250}
MAX_BACK = 25       # BACK n takes n in 1..MAX_BACK
#: larger grids are refused: the contest's is 35x20, and at 1000x1000 no program could keep to
#: its 100 ms a turn (reading a turn's text alone took 0.18 s; benchmarks/capture_loop.py)
MAX_SIDE = 100
IDLE_ROUNDS = 25    # rounds without a move or a BACK that end the game
#: codes of actions that eliminate the player who gave them
FAULTS = ("timeout", "bad-output", "error", "exited")


class Config(NamedTuple):
    """The fixed parameters of one game."""
    width: int
    height: int
    n_players: int
    round_limit: int


def make_config(n_players: int, *, width: int = WIDTH, height: int = HEIGHT,
                round_limit: int | None = None) -> Config:
    """A checked :class:`Config`; the round limit defaults to :data:`ROUND_LIMITS`.

    >>> make_config(3)
    Config(width=35, height=20, n_players=3, round_limit=300)
    """
    from ..tron.values import is_whole

    for name, value in (("n_players", n_players), ("width", width), ("height", height),
                        ("round_limit", round_limit)):
        if not (is_whole(value) or (value is None and name == "round_limit")):
            raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r:.40}")
    if n_players not in ROUND_LIMITS:
        raise ValueError(f"Back to the Code takes 2 to 4 players, got {n_players!r}")
    if width < 1 or height < 1 or width * height < n_players:
        raise ValueError(f"a {width}x{height} grid cannot hold {n_players} players")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ValueError(f"a {width}x{height} grid is larger than this package plays "
                         f"({MAX_SIDE}x{MAX_SIDE} at most; the contest's is {WIDTH}x{HEIGHT})")
    limit = ROUND_LIMITS[n_players] if round_limit is None else int(round_limit)
    if limit < 1:
        raise ValueError(f"round_limit must be at least 1, got {round_limit!r}")
    return Config(int(width), int(height), int(n_players), limit)


class Snapshot(NamedTuple):
    """Owners and positions at the end of one in-game round."""
    owner: np.ndarray
    positions: tuple


def _from_config(name: str) -> property:
    """A read-only property that is ``self.config.<name>``."""
    return property(lambda self: getattr(self.config, name), doc=f"``config.{name}``")


def frozen(owner) -> np.ndarray:
    """A read-only ``int8`` copy of ``owner``."""
    out = np.array(owner, dtype=np.int8, copy=True)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class State:
    """One moment of a game; see the module docstring for the conventions.

    ``idle`` counts the rounds just played in a row in which no player changed
    square and nobody used ``BACK``; ``turns`` counts every call of ``step``
    (rounds thrown away by ``BACK`` included).  ``last_round`` is set when the ranking
    can no longer change: the coming round is the game's last.
    """
    config: Config
    owner: np.ndarray
    positions: tuple
    eliminated: tuple
    backs_left: tuple
    round: int
    history: tuple = field(repr=False)
    idle: int = 0
    turns: int = 0
    last_round: bool = False
    over: bool = False

    width = _from_config("width")
    height = _from_config("height")
    n_players = _from_config("n_players")

    @property
    def active(self) -> list[int]:
        """Ids of the players not eliminated."""
        return [p for p in range(self.n_players) if not self.eliminated[p]]

    def scores(self) -> tuple:
        """Squares owned by each player (eliminated players too)."""
        counts = np.bincount(self.owner[self.owner >= 0].astype(np.intp),
                             minlength=self.n_players)
        return tuple(int(c) for c in counts[:self.n_players])

    def view(self) -> View:
        """What a bot may look at (:class:`View`)."""
        return View(self.round, self.owner, self.positions, self.backs_left,
                    self.eliminated, self.config)

    @classmethod
    def from_ascii(cls, text: str, **options) -> State:
        """:func:`tronlab.capture.ascii.state_from_ascii` (its keyword ``options`` too),
        under the name a Tron :class:`~tronlab.tron.board.Board` has.  The notation is
        not the Tron board's: see :mod:`tronlab.capture.ascii`.

        >>> State.from_ascii("A.1\\n..b").to_ascii()
        'A.1\\n..b'
        """
        from .ascii import state_from_ascii      # ascii imports this module
        return state_from_ascii(text, **options)

    def to_ascii(self) -> str:
        """The owners and positions as :func:`tronlab.capture.ascii.format_grid` draws
        them (a position the notation cannot draw is left out)."""
        from .ascii import format_grid
        return format_grid(self.owner, self.positions)

    def trail(self, player: int) -> list:
        """Where ``player`` stood at the end of rounds 0, 1, ..., ``round - 1``."""
        player = check_view(self, player, "state")
        return [snap.positions[player] for snap in self.history]


class View(NamedTuple):
    """A bot's picture of the game: the same names as :class:`State` has.

    In the engine player ids are the real ones; a contest program's view
    (:mod:`tronlab.capture.protocol`) has the reader as player 0.
    """
    round: int
    owner: np.ndarray
    positions: tuple
    backs_left: tuple
    eliminated: tuple
    config: Config

    width = _from_config("width")
    height = _from_config("height")
    n_players = _from_config("n_players")


def initial_state(config: Config, starts) -> State:
    """The state before round 1: each player on its start square, owning it."""
    starts = check_starts(config, starts)
    owner = np.full((config.height, config.width), NEUTRAL, np.int8)
    for p, (x, y) in enumerate(starts):
        owner[y, x] = p
    owner = frozen(owner)
    n = config.n_players
    return State(config, owner, starts, (False,) * n, (1,) * n, 1,
                 (Snapshot(owner, starts),))


def check_starts(config: Config, starts) -> tuple:
    """``starts`` as a tuple of ``(x, y)`` int pairs, checked: one per player,
    distinct, on the grid (a TypeError for what is not a pair of ints, else a
    ValueError)."""
    try:
        pairs = [(x, y) for x, y in starts]
    except (TypeError, ValueError):
        raise TypeError(f"starts must be (x, y) pairs, got {starts!r}") from None
    if len(pairs) != config.n_players:
        raise ValueError(f"need {config.n_players} starts, got {len(pairs)}")
    out = tuple(check_square(xy, (config.height, config.width), "start") for xy in pairs)
    if len(set(out)) != len(out):
        raise ValueError(f"starts must be distinct squares, got {out}")
    return out
