"""The terms of Recar's rectangle score (technique B3), each one switchable.

Recar, first in CodinGame's "Back to the Code" (2015; the write-up "Back to
the Code" with the strategies of Recar and Olaf69), scored a rectangle as the
neutral squares it would bring over the turns needed to close it, then
adjusted that ratio with a handful of hand-tuned rules.  Each rule is one
field of :class:`RectTerms`; a rule is off when its flag is ``False`` or its
factor is 1.  The exact score, term by term (``R`` a rectangle with corners
``(x0, y0)``, ``(x1, y1)``, both sides at least 2 squares):

* **enemy**: an opponent square anywhere in ``R`` (or a square an opponent is
  predicted to reach, see :mod:`tronlab.capture.rects_bot`) makes the score 0.
* **points** = neutral squares of ``R`` (border and inside: walking the border
  takes the border squares too).
* ``cap_to_win``: points are capped at the squares still needed to win
  (:func:`needed_to_win`); ``win_bonus`` multiplies the score when the
  points reach that number.
* **turns** = ``approach * d + walk + 1 + constant``: ``d`` the Manhattan
  distance to the border square where the walk starts, ``walk`` the steps
  along the border, one way round, until every border square not yet ours
  has been stepped on, ``+1`` the closing turn, ``constant`` the
  player-count constant of ``player_constant``.  The start square and the
  direction are those that give the fewest turns.  ``approach`` is 2 in the
  write-up (the doubled approach cost) and 1 when switched off.
* **score** = points / turns, then multiplied by the factors below:
* ``thin_corner``: a rectangle less than 3 squares wide or high counts
  ``1 / (1 + d)`` points instead, ``d`` the distance to its upper-left corner
  (the squares of the path there), so it never beats a real area.
* ``size_divisor``: divided when a side is longer than ``size_limit`` (14 for
  2 players, 13 for 3, 12 for 4).
* ``border_bonus`` (2 players): multiplied when a vertical side of ``R`` runs
  along the middle column and more than ``border_free`` of that side's
  squares are neutral.
* ``edge_bonus`` (3-4 players): multiplied when ``R`` touches the grid's edge.
* ``proximity_divisor``: divided once for each active opponent standing less
  than ``proximity`` squares (Manhattan) from ``R``.
* ``aimed_divisor``: divided when ``R`` holds a square marked as aimed at by an
  opponent (after ``BACK``: squares the opponents took in the future).
* ``stability_bonus``: multiplied for the rectangle chosen on the previous turn.

The write-up gives the factors; it does not give the player-count constants
or say which column "the 17th line" is.  Here the constants are 10, 6 and 4
for 2, 3 and 4 players (larger for fewer players, so that a two-player bot
reaches for larger areas) and the column is the middle one, ``width // 2``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

import numpy as np

from ..tron.values import check_flag, is_whole
from .checks import check_number, check_whole
from .state import MAX_SIDE

#: factors that divide the score: 0 would divide by zero in the scan
DIVISORS = ("size_divisor", "proximity_divisor", "aimed_divisor")

#: the order of the terms in the kernels' parameter vector
PARAM_NAMES = ("cap_to_win", "win_bonus", "thin_corner", "approach", "constant",
               "size_limit", "size_divisor", "border_bonus", "border_column", "border_free",
               "edge_bonus", "proximity", "proximity_divisor", "aimed_divisor",
               "stability_bonus", "max_side")


@dataclass(frozen=True)
class RectTerms:
    """The switchable terms of the rectangle score (see the module docstring).

    >>> RectTerms().params(2)[:5].tolist()
    [1.0, 2.0, 1.0, 2.0, 10.0]
    >>> RectTerms().without("approach", "win_bonus").params(2)[[1, 3]].tolist()
    [1.0, 1.0]
    """
    cap_to_win: bool = True
    win_bonus: float = 2.0
    thin_corner: bool = True
    approach: float = 2.0
    player_constant: tuple = (10.0, 6.0, 4.0)       # for 2, 3, 4 players
    size_limit: tuple = (14, 13, 12)                # for 2, 3, 4 players
    size_divisor: float = 2.0
    border_bonus: float = 2.0
    border_free: int = 10
    edge_bonus: float = 1.1
    proximity: int = 2
    proximity_divisor: float = 2.0
    aimed_divisor: float = 10.0
    stability_bonus: float = 1.1
    max_side: int = 16

    #: the value of each term when it is switched off
    OFF = {"cap_to_win": False, "win_bonus": 1.0, "thin_corner": False, "approach": 1.0,
           "player_constant": (0.0, 0.0, 0.0), "size_divisor": 1.0, "border_bonus": 1.0,
           "edge_bonus": 1.0, "proximity_divisor": 1.0, "aimed_divisor": 1.0,
           "stability_bonus": 1.0}

    def __post_init__(self):
        """Each term checked (a TypeError or a ValueError naming it), so that a wrong
        one is refused here and not met by the scan's kernel."""
        for name in ("cap_to_win", "thin_corner"):
            check_flag(getattr(self, name), name)
        for name in ("win_bonus", "approach", "border_bonus", "edge_bonus",
                     "stability_bonus", *DIVISORS):
            if check_number(getattr(self, name), name) == 0 and name in DIVISORS:
                raise ValueError(f"{name} must be a number > 0 (1: off), got 0")
        for name in ("border_free", "proximity"):
            check_whole(getattr(self, name), name, 0, MAX_SIDE, "squares")
        check_whole(self.max_side, "max_side", 2, MAX_SIDE, "squares")
        for name, check in (("player_constant", lambda v, n: check_number(v, n)),
                            ("size_limit", lambda v, n: check_whole(v, n, 1, MAX_SIDE))):
            values = getattr(self, name)
            if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
                raise TypeError(f"{name} must be 3 numbers (for 2, 3 and 4 players), got "
                                f"{type(values).__name__} {values!r}")
            if len(values) != 3:
                raise ValueError(f"{name} must be 3 numbers (for 2, 3 and 4 players), got "
                                 f"{values!r}")
            object.__setattr__(self, name, tuple(check(v, f"{name}[{i}]")
                                                 for i, v in enumerate(values)))

    def without(self, *names) -> RectTerms:
        """These terms with the named ones switched off."""
        unknown = [n for n in names if n not in self.OFF]
        if unknown:
            raise ValueError(f"no switchable term {unknown[0]!r}; terms: {sorted(self.OFF)}")
        return replace(self, **{n: self.OFF[n] for n in names})

    def only(self, *names) -> RectTerms:
        """All switchable terms off except the named ones."""
        keep = set(names)
        return self.without(*(n for n in self.OFF if n not in keep))

    def params(self, n_players: int, width: int = 35) -> np.ndarray:
        """The float64 parameter vector the kernels read (:data:`PARAM_NAMES`)."""
        if n_players not in (2, 3, 4):
            raise ValueError(f"n_players must be 2, 3 or 4, got {n_players!r}")
        k = n_players - 2
        two = n_players == 2
        values = (float(self.cap_to_win), self.win_bonus, float(self.thin_corner),
                  self.approach, self.player_constant[k], self.size_limit[k], self.size_divisor,
                  self.border_bonus if two else 1.0, width // 2, self.border_free,
                  1.0 if two else self.edge_bonus, self.proximity, self.proximity_divisor,
                  self.aimed_divisor, self.stability_bonus, self.max_side)
        return np.array(values, np.float64)

    def as_dict(self) -> dict:
        return asdict(self)


TERM_NAMES = tuple(f.name for f in fields(RectTerms))


def needed_to_win(owner, player: int, active=None) -> int:
    """Squares ``player`` still has to take to be sure of finishing first:
    the smallest ``k`` with ``mine + k > best + (free - k)``, ``best`` the
    highest opponent score (of ``active`` players, default all) and ``free``
    the neutral squares, and ``mine + k > out``, ``out`` the highest score of a
    player not in ``active``: an eliminated player keeps its squares, and they
    rank (its score can no longer grow).  At least 1.  ``player`` is not checked
    (the grid has no player count): one with no squares has 0 of them.

    >>> import numpy as np
    >>> owner = np.array([[0, 0, -1, -1], [1, -1, -1, -1]], np.int8)
    >>> needed_to_win(owner, 0)      # 2 + k > 1 + (5 - k)  ->  k = 3
    3

    ``active`` holds player ids: flags such as ``view.eliminated`` (True/False, which
    Python would take for ids 1 and 0) are a TypeError.
    """
    owner = np.asarray(owner)
    mine = int(np.count_nonzero(owner == player))
    free = int(np.count_nonzero(owner < 0))
    everyone = [q for q in range(int(owner.max(initial=0)) + 1) if q != player]
    others = everyone if active is None else [q for q in _player_ids(active) if q != player]
    best = max((int(np.count_nonzero(owner == q)) for q in others), default=0)
    out = max((int(np.count_nonzero(owner == q)) for q in everyone if q not in others),
              default=0)
    return max(1, (best + free - mine) // 2 + 1, out - mine + 1)


def _player_ids(active) -> list:
    """``active`` as a list of player ids, or a TypeError saying what it is instead."""
    iterable = hasattr(active, "__iter__") and not isinstance(active, (str, bytes))
    ids = list(active) if iterable else []
    if iterable and all(is_whole(q) for q in ids):
        return [int(q) for q in ids]
    flags = ids and all(isinstance(q, (bool, np.bool_)) for q in ids)
    raise TypeError(f"active must be a list of player ids (ints), got {active!r}"
                    + (": view.eliminated holds True/False flags; the active ids are "
                       "[q for q in range(view.n_players) if not view.eliminated[q]]"
                       if flags else ""))
