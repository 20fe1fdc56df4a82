"""Argument checks shared by the capture game's functions: ints, player ids and
squares, each a ValueError naming the argument and what was given.

>>> check_square((2, 1), (2, 3))
(2, 1)
>>> is_int(True), is_int(3)
(False, True)
"""

from __future__ import annotations

import numpy as np


def is_int(v) -> bool:
    """Whether ``v`` is a Python or numpy int (bools are not)."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_player(player, name: str = "player") -> int:
    """``player`` as an int 0..3, or a ValueError naming ``name``."""
    if not is_int(player) or not 0 <= player <= 3:
        raise ValueError(f"{name} must be an int 0 to 3, got {player!r}")
    return int(player)


def check_square(square, shape, name: str = "position") -> tuple:
    """``square`` as an ``(x, y)`` pair of ints on a grid shaped ``shape``
    (``(height, width)``), or a ValueError naming ``name``.

    >>> check_square((3, 0), (2, 3))
    Traceback (most recent call last):
    ...
    ValueError: position (3, 0) is off the 3x2 grid
    """
    h, w = shape
    try:
        x, y = square
    except (TypeError, ValueError):
        x = y = None
    if not (is_int(x) and is_int(y)):
        raise ValueError(f"{name} must be an (x, y) pair of ints, got {square!r}")
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError(f"{name} ({x}, {y}) is off the {w}x{h} grid")
    return int(x), int(y)
