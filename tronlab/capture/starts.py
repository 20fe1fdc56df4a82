"""Start squares: point-symmetric (tronlab's default) or random distinct squares.

Point-symmetric starts turn player 0's square about the centre of the grid:
player ``k`` stands on player 0's square rotated by ``k * 360 / n`` degrees.

The exact rule, in grid coordinates (``x`` right, ``y`` down, so a positive
angle turns clockwise on screen):

* the centre is ``((width - 1) / 2, (height - 1) / 2)``; with offsets
  ``dx, dy`` from it, the rotated point is
  ``(dx cos a - dy sin a, dx sin a + dy cos a)`` plus the centre;
* each rotated coordinate goes to the nearest whole number; an exact half
  (possible at 90 and 180 degrees on grids with an even side) goes to the
  side nearer the centre;
* player 0's square is drawn uniformly among the squares for which all ``n``
  rounded squares are on the grid and distinct.

With two players on the 35x20 grid this is exactly ``(34 - x, 19 - y)``.
"""

from __future__ import annotations

import math

import numpy as np

from ..runner.reprs import safe_repr
from .state import Config

# cos and sin of k * 360 / n degrees, exact where they are rational
_TURNS = {
    2: ((1.0, 0.0), (-1.0, 0.0)),
    3: ((1.0, 0.0), (-0.5, math.sqrt(3) / 2), (-0.5, -math.sqrt(3) / 2)),
    4: ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)),
}


def as_rng(rng) -> np.random.Generator:
    """``rng`` if it is a Generator, else ``numpy.random.default_rng(rng)``; a seed numpy
    refuses (``-1``, ``"seven"``) is an error naming ``rng``."""
    if isinstance(rng, np.random.Generator):
        return rng
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as err:
        kind = ValueError if isinstance(err, ValueError) else TypeError
        raise kind(f"rng must be None, a non-negative int seed or a numpy Generator, "
                   f"got {safe_repr(rng, 117)}") from None


def _round_toward(v: float, centre: float) -> int:
    lo = math.floor(v)
    frac = v - lo
    if frac == 0.5:
        return lo if v > centre else lo + 1
    return lo if frac < 0.5 else lo + 1


def rotate(x: int, y: int, k: int, n: int, width: int, height: int) -> tuple:
    """Square ``(x, y)`` turned by ``k * 360 / n`` degrees about the grid's
    centre and rounded as the module docstring says (possibly off the grid).

    >>> rotate(0, 0, 1, 2, 35, 20)
    (34, 19)
    >>> rotate(10, 3, 1, 4, 35, 20)     # (23.5, 2.5) rounds toward (17, 9.5)
    (23, 3)
    """
    cos, sin = _TURNS[n][k % n]
    cx, cy = (width - 1) / 2, (height - 1) / 2
    dx, dy = x - cx, y - cy
    rx = cx + dx * cos - dy * sin
    ry = cy + dx * sin + dy * cos
    return _round_toward(rx, cx), _round_toward(ry, cy)


def symmetric_orbit(x: int, y: int, n: int, width: int, height: int):
    """The ``n`` starts generated from player 0's square, or ``None`` when one is
    off the grid or two coincide."""
    squares = tuple(rotate(x, y, k, n, width, height) for k in range(n))
    if len(set(squares)) < n:
        return None
    if all(0 <= sx < width and 0 <= sy < height for sx, sy in squares):
        return squares
    return None


def symmetric_starts(config: Config, rng=None) -> tuple:
    """Point-symmetric starts, player 0's square drawn with ``rng``.

    >>> from tronlab.capture.state import make_config
    >>> symmetric_starts(make_config(2), rng=1)
    ((16, 9), (18, 10))
    """
    rng = as_rng(rng)
    w, h, n = config.width, config.height, config.n_players
    orbits = [o for y in range(h) for x in range(w)
              if (o := symmetric_orbit(x, y, n, w, h)) is not None]
    if not orbits:
        raise ValueError(f"no point-symmetric starts for {n} players on a {w}x{h} grid")
    return orbits[int(rng.integers(len(orbits)))]


def random_starts(config: Config, rng=None) -> tuple:
    """Distinct squares drawn uniformly with ``rng`` (the referee's default)."""
    rng = as_rng(rng)
    w = config.width
    squares = rng.choice(w * config.height, size=config.n_players, replace=False)
    return tuple((int(s) % w, int(s) // w) for s in squares)
