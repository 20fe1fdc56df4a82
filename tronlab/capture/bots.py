"""Bots for Back to the Code: a random walker and the nearest-neutral bot (B2).

A bot is a callable ``bot(view, player) -> action`` (:class:`~tronlab.capture.state.View`,
the player's id in that view); the action is a target ``(x, y)`` or
``("BACK", n)``.

:func:`nearest_target` follows the first idea of CodinGame's write-up "Back
to the Code" (2015, with the strategies of Recar and Olaf69): head for the nearest
neutral square by Manhattan distance, and improve it two ways - late in the
game avoid squares an opponent is nearer to, and prefer a square with
neutral neighbours (a cluster) to a lone one.  Exactly:

* candidates: the neutral squares except the one the player stands on (a
  shared square stays neutral; aiming at it would freeze the bot);
* late in the game (at most ``late`` of the grid still neutral) drop the
  squares strictly nearer, by Manhattan distance, to some active opponent
  than to the player, unless that drops every candidate;
* cost = distance, plus ``lone_penalty`` when none of the square's four
  orthogonal neighbours is neutral;
* the lowest cost wins; ties go to the shorter distance, then to more
  neutral neighbours, then to the square first in reading order (smaller
  ``y``, then smaller ``x``);
* no candidate: stay.
"""

from __future__ import annotations

import numpy as np

from .checks import check_number, check_view
from .starts import as_rng
from .state import MAX_BACK, NEUTRAL
from ..tron.values import is_real


def _grid_coords(view):
    ys, xs = np.mgrid[0:view.height, 0:view.width]
    return xs, ys


def check_options(late, lone_penalty) -> tuple:
    """:func:`nearest_target`'s ``late`` (a share of the grid) and ``lone_penalty``
    (squares of distance, at least 0), checked."""
    if not is_real(lone_penalty):
        raise TypeError(f"lone_penalty must be a number of squares, got "
                        f"{type(lone_penalty).__name__}")
    if not 0 <= lone_penalty < float("inf"):
        raise ValueError(f"lone_penalty must be a number of squares >= 0, got {lone_penalty!r}")
    return check_number(late, "late", 0.0, high=1.0), lone_penalty


def neutral_neighbours(owner) -> np.ndarray:
    """How many of each square's four orthogonal neighbours are neutral."""
    free = np.pad(owner == NEUTRAL, 1).astype(np.int8)
    return free[:-2, 1:-1] + free[2:, 1:-1] + free[1:-1, :-2] + free[1:-1, 2:]


def nearest_target(view, player: int, *, late: float = 0.5, lone_penalty: int = 3) -> tuple:
    """The B2 target of ``player`` (see the module docstring for the exact rule).

    >>> from tronlab.capture.ascii import state_from_ascii
    >>> view = state_from_ascii('''
    ...     0.0..
    ...     00A00
    ...     00000
    ... ''', positions={1: (0, 2)}).view()
    >>> nearest_target(view, 0)     # (1, 0) is as near but alone
    (3, 0)
    """
    player = check_view(view, player)
    late, lone_penalty = check_options(late, lone_penalty)
    if view.positions[player] is None:
        raise ValueError(f"player {player} is not on this grid (players 0 to "
                         f"{len(view.positions) - 1}, eliminated ones stand nowhere)")
    x, y = view.positions[player]
    xs, ys = _grid_coords(view)
    dist = np.abs(xs - x) + np.abs(ys - y)
    cand = view.owner == NEUTRAL
    cand[y, x] = False
    if not cand.any():
        return (x, y)
    if np.count_nonzero(view.owner == NEUTRAL) <= late * view.owner.size:
        nearer = np.zeros_like(cand)
        for q, pos in enumerate(view.positions):
            if q != player and pos is not None and not view.eliminated[q]:
                nearer |= np.abs(xs - pos[0]) + np.abs(ys - pos[1]) < dist
        if (cand & ~nearer).any():
            cand &= ~nearer
    around = neutral_neighbours(view.owner)
    cost = dist + lone_penalty * (around == 0)
    sy, sx = np.nonzero(cand)      # reading order
    keys = np.lexsort((sx, sy, -around[sy, sx], dist[sy, sx], cost[sy, sx]))
    best = keys[0]
    return (int(sx[best]), int(sy[best]))


class NearestBot:
    """B2: go to :func:`nearest_target`; never uses BACK."""

    def __init__(self, *, late: float = 0.5, lone_penalty: int = 3):
        self.late, self.lone_penalty = check_options(late, lone_penalty)

    def __call__(self, view, player):
        return nearest_target(view, player, late=self.late, lone_penalty=self.lone_penalty)


class RandomBot:
    """Walks to a random square, drawn with ``rng``, and draws a new one when
    there; with probability ``back_chance`` a turn (while it has one) it uses
    BACK with n drawn from 1..25."""

    def __init__(self, rng=None, *, back_chance: float = 0.0):
        self.rng = as_rng(rng)
        self.back_chance = check_number(back_chance, "back_chance", 0.0, high=1.0)
        self.target = None

    def __call__(self, view, player):
        player = check_view(view, player)
        if view.backs_left[player] > 0 and self.back_chance > 0 \
                and self.rng.random() < self.back_chance:
            return ("BACK", int(self.rng.integers(1, MAX_BACK + 1)))
        if self.target is None or self.target == view.positions[player]:
            self.target = (int(self.rng.integers(view.width)), int(self.rng.integers(view.height)))
        return self.target


#: built-in bots by name: name -> factory taking ``rng`` and the bot's options
#: (:class:`RandomBot`'s ``back_chance``, :class:`NearestBot`'s ``late`` and ``lone_penalty``)
BOTS = {
    "random": lambda rng=None, **options: RandomBot(rng, **options),
    "random-back": lambda rng=None, **options: RandomBot(rng, **{"back_chance": 0.01,
                                                                  **options}),
    "nearest": lambda rng=None, **options: NearestBot(**options),
}


#: one-line descriptions for the bot registry (``tronlab bots``)
DESCRIPTIONS = {
    "random": "walks to random squares, one after another",
    "random-back": "random, and uses BACK once at a random moment (1% a turn)",
    "nearest": "B2: the nearest neutral square, clusters first, away from opponents late",
}


def get_bot(name: str, rng=None, **options):
    """A fresh bot by name: a built-in one of :data:`BOTS`, else any capture bot
    of the main registry (:mod:`tronlab.runner.registry`, family "capture").

    The same call as ``tronlab.get_bot(name, game="capture", rng=rng, **options)``
    (which takes ``rng`` only by keyword): ``options`` are the bot's (``time``, the
    seconds a move, and e.g. ``max_nodes`` for ``paths``); one the bot does not have is
    a TypeError naming it.

    >>> get_bot("nearest", late=0.25).late
    0.25
    """
    if isinstance(name, str) and name in BOTS and not options:
        return BOTS[name](rng)
    from ..runner.registry import get_bot as registry_bot
    return registry_bot(name, game="capture", rng=rng, **options)


def _register_all() -> None:
    """Put :data:`BOTS` into the main bot registry (family "capture")."""
    from ..runner.registry import register

    for name, factory in BOTS.items():
        def make(*, rng=None, time=None, _factory=factory, **options):
            return _factory(rng, **options)     # time: these bots do not search
        register(name, make, description=DESCRIPTIONS[name], game="capture")


_register_all()
