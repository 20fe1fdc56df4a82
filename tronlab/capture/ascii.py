"""Back to the Code grids as short ASCII strings, for tests and docs.

One character per square, one line per row (leading and trailing blank
lines and the common indentation are ignored):

====== =====================================================
``.``  neutral square
``0-3`` square owned by player 0-3
``a-d`` player 0-3 stands here, the square is neutral
``A-D`` player 0-3 stands here, on a square it owns
====== =====================================================

Players count from 0 here as everywhere in the package, and so do the
characters.  Not so in Tron's ASCII boards (:mod:`tronlab.tron.board`), whose
heads are written ``1-4`` for players 0-3 and whose ``a-d`` / ``A-D`` are
trails and dead heads: the two notations do not mix.

A player standing on another player's square, or on a square shared with
another player, cannot be drawn: pass such positions with ``positions=``.
:func:`format_grid` draws a letter only where exactly one player stands on
a neutral square or on its own square, and the plain owner character
elsewhere.

>>> grid = parse_grid('''
...     a..
...     .1B
... ''')
>>> grid.owner.tolist(), grid.positions
([[-1, -1, -1], [-1, 1, 1]], {0: (0, 0), 1: (2, 1)})
>>> print(format_grid(grid.owner, grid.positions))
a..
.1B
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple

import numpy as np

from ..runner.reprs import safe_repr
from .checks import check_player, check_square
from ..tron.values import is_whole
from .state import NEUTRAL, Snapshot, State, frozen, make_config

_OWNED = "0123"
_ON_NEUTRAL = "abcd"
_ON_OWN = "ABCD"


class ParsedGrid(NamedTuple):
    owner: np.ndarray       # int8 (height, width), -1 neutral
    positions: dict         # player -> (x, y), from the letters


def _rows(text: str) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str: the grid's rows, one per line, got "
                        f"{type(text).__name__} {safe_repr(text, 60)}")
    rows = [r.rstrip() for r in textwrap.dedent(text).strip("\n").split("\n")]
    if not rows or not rows[0]:
        raise ValueError("grid rows must be non-empty and all equally long: no rows")
    for y, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise ValueError(f"grid rows must be non-empty and all equally long: row {y} has "
                             f"{len(row)} characters, row 0 has {len(rows[0])}")
    return rows


def parse_grid(text: str) -> ParsedGrid:
    """Owners and marked positions of an ASCII grid (see the module docstring)."""
    rows = _rows(text)
    owner = np.full((len(rows), len(rows[0])), NEUTRAL, np.int8)
    positions = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            if ch in _OWNED:
                owner[y, x] = _OWNED.index(ch)
                continue
            if ch in _ON_NEUTRAL:
                p = _ON_NEUTRAL.index(ch)
            elif ch in _ON_OWN:
                p = _ON_OWN.index(ch)
                owner[y, x] = p
            else:
                raise ValueError(f"unknown grid character {ch!r} at ({x}, {y})")
            if p in positions:
                raise ValueError(f"player {p} is drawn twice: at {positions[p]} and at "
                                 f"({x}, {y}) ({ch!r}, row {y}, column {x}); a player stands "
                                 f"on one square")
            positions[p] = (x, y)
    return ParsedGrid(owner, positions)


def _checked_owner(owner) -> np.ndarray:
    """``owner`` as a 2-D int array of owners -1 (neutral) to 3, or a ValueError."""
    grid = np.asarray(owner)
    if grid.ndim != 2 or grid.size == 0:
        raise ValueError(f"owner must be a 2-D grid of owners, got shape {grid.shape}")
    if grid.dtype.kind not in "iu":
        raise ValueError(f"owner must hold whole numbers -1 (neutral) to 3, got dtype "
                         f"{grid.dtype}")
    if grid.min() < NEUTRAL or grid.max() > 3:
        bad = grid[(grid < NEUTRAL) | (grid > 3)].flat[0]
        raise ValueError(f"owner holds {int(bad)}: owners are -1 (neutral) or a player 0 to 3")
    return grid


def format_grid(owner, positions=None) -> str:
    """The ASCII picture of ``owner`` with players' ``positions`` marked where
    the notation allows (``positions``: a dict or a sequence, ``None`` entries
    for players standing nowhere)."""
    owner = _checked_owner(owner)
    if isinstance(positions, dict):
        for p in positions:
            check_player(p, "a key of positions")
        positions = [positions.get(p) for p in range(max(positions, default=-1) + 1)]
    chars = [[_OWNED[v] if v >= 0 else "." for v in row] for row in owner.tolist()]
    stands = {}
    for p, pos in enumerate(positions or ()):
        if pos is not None:
            stands.setdefault(check_square(pos, owner.shape, f"positions[{p}]"), []).append(p)
    for (x, y), players in stands.items():
        p = players[0]
        if len(players) == 1 and owner[y, x] in (NEUTRAL, p):
            chars[y][x] = (_ON_NEUTRAL if owner[y, x] == NEUTRAL else _ON_OWN)[p]
    return "\n".join("".join(row) for row in chars)


def state_from_ascii(text: str, *, n_players: int | None = None, positions=None,
                     eliminated=(), backs_left=None, trails=None,
                     round_limit: int | None = None) -> State:
    """A :class:`State` drawn as ASCII, for tests.

    ``positions`` adds or overrides positions ({player: (x, y)}); every player
    not in ``eliminated`` needs one.  ``trails`` gives players' earlier squares
    ({player: [(x, y), ...]}, oldest first, the present square left out); the
    state's round is one more than the longest trail, shorter trails are padded
    at the front with their oldest square, and every earlier snapshot has the
    present owners.  ``n_players`` defaults to the highest id drawn plus one
    (at least 2).
    """
    grid = parse_grid(text)
    h, w = grid.owner.shape
    eliminated = [check_player(p, "eliminated") for p in eliminated]
    pos = dict(grid.positions)
    for p, square in dict(positions or {}).items():
        if square is None and p in eliminated:
            continue
        pos[check_player(p, "positions")] = check_square(square, (h, w), f"positions[{p!r}]")
    seen = [int(v) for v in np.unique(grid.owner) if v >= 0] + list(pos) + eliminated
    n = n_players if n_players is not None else max(2, max(seen, default=0) + 1)
    config = make_config(n, width=w, height=h, round_limit=round_limit)
    out = set(eliminated)
    if max(seen, default=0) >= n:
        where = _drawn_at(text, n) or f"positions= or eliminated= names player {max(seen)}"
        raise ValueError(f"{where} but there are {n} players (0 to {n - 1})")
    missing = [p for p in range(n) if p not in pos and p not in out]
    if missing:
        hint = "" if grid.positions else (
            " (none is drawn: a player standing is a letter, a-d on a neutral square or A-D "
            "on its own; digits 0-3 are squares owned by players 0-3, not heads as in "
            "Tron's ASCII boards)")
        raise ValueError(f"players {missing} have no position and are not eliminated{hint}")
    now = tuple(None if p in out else pos[p] for p in range(n))
    checked = {}
    for p, trail in dict(trails or {}).items():
        if check_player(p, "trails") >= n:
            raise ValueError(f"trails names player {p} but there are {n} players")
        checked[int(p)] = [check_square(sq, (h, w), f"trails[{p!r}][{i}]")
                           for i, sq in enumerate(trail)]
    owner = frozen(grid.owner)
    history = _history(owner, now, checked)
    if backs_left is None:
        backs = (1,) * n
    else:
        backs = tuple(backs_left)
        if len(backs) != n or not all(is_whole(b) and b in (0, 1) for b in backs):
            raise ValueError(f"backs_left must be {n} values 0 or 1 (one BACK a game), one "
                             f"per player, got {backs_left!r}")
    return State(config, owner, now, tuple(p in out for p in range(n)), backs,
                 len(history), history)


def _drawn_at(text: str, n: int) -> str:
    """Where the grid first draws a player ``n`` or higher, as "'2' at (x, y) (row y,
    column x) names player 2", or "" when only ``positions=`` or ``eliminated=`` name one."""
    for y, row in enumerate(_rows(text)):
        for x, ch in enumerate(row):
            for chars in (_OWNED, _ON_NEUTRAL, _ON_OWN):
                if ch in chars and chars.index(ch) >= n:
                    return (f"{ch!r} at ({x}, {y}) (row {y}, column {x}) names player "
                            f"{chars.index(ch)}")
    return ""


def _history(owner, now, trails) -> tuple:
    """Snapshots for :func:`state_from_ascii`: one per trail square, then the present."""
    trails = {p: [tuple(s) for s in t] for p, t in trails.items()}
    length = max((len(t) for t in trails.values()), default=0)
    padded = {}
    for p, here in enumerate(now):
        t = trails.get(p, [])
        padded[p] = [t[0] if t else here] * (length - len(t)) + t
    history = [Snapshot(owner, tuple(None if now[p] is None else padded[p][k]
                                     for p in range(len(now))))
               for k in range(length)]
    return tuple(history) + (Snapshot(owner, now),)
