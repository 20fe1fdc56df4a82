"""Argument checks shared by the capture game's functions: views, player ids,
squares, owner grids and the bots' options, each an error naming the argument and
what was given: a TypeError for a value of the wrong type (a float or a bool where
an int goes, a str where a number goes), a ValueError for one out of range.

>>> check_square((2, 1), (2, 3))
(2, 1)
"""

from __future__ import annotations

import math

import numpy as np

from ..tron.values import check_flag, is_real, is_whole

#: the largest node budget of a path search: its node arrays take 40 bytes a node
#: (400 MB here; the paths bot's default is 30,000)
MAX_NODES = 10_000_000


def check_player(player, name: str = "player") -> int:
    """``player`` as an int 0..3; else a TypeError (not an int: a str, a float, a
    bool) or a ValueError (out of range), naming ``name``."""
    if not is_whole(player):
        raise TypeError(f"{name} must be an int 0 to 3, got {type(player).__name__} "
                        f"{player!r}")
    if not 0 <= player <= 3:
        raise ValueError(f"{name} must be an int 0 to 3, got {player!r}")
    return int(player)


def check_view(view, player, name: str = "view") -> int:
    """``player`` as an int if ``view`` is a game's :class:`~tronlab.capture.state.View`
    or :class:`~tronlab.capture.state.State` and the game has that player; else a
    TypeError (wrong types) or a ValueError naming the argument."""
    from .state import State, View        # state imports this module
    if not isinstance(view, (View, State)):
        raise TypeError(f"{name} must be a capture View or State (a bot gets state.view()), "
                        f"got {type(view).__name__}")
    player = check_player(player)
    if player >= view.n_players:
        raise ValueError(f"player {player} is not on this grid (players 0 to "
                         f"{view.n_players - 1})")
    return player


def check_square(square, shape, name: str = "position") -> tuple:
    """``square`` as an ``(x, y)`` pair of ints on a grid shaped ``shape``
    (``(height, width)``); else a TypeError (not a pair of ints: ``(0, 0.5)``,
    ``(True, 0)``, ``"3"``) or a ValueError (off the grid) naming ``name``.

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
    if not (is_whole(x) and is_whole(y)):
        raise TypeError(f"{name} must be an (x, y) pair of ints, got {square!r}")
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError(f"{name} ({x}, {y}) is off the {w}x{h} grid")
    return int(x), int(y)


def check_whole(value, name: str, low: int, high: int, unit: str = "") -> int:
    """``value`` as an int if it is a whole number (a numpy integer too) from ``low``
    to ``high``; else a TypeError (a float, a bool, a str) or a ValueError naming
    ``name`` (``unit`` says what it counts).

    >>> check_whole(2.0, "max_nodes", 1, 10)
    Traceback (most recent call last):
    ...
    TypeError: max_nodes must be an int from 1 to 10, got float 2.0
    """
    what = f"an int from {low} to {high}" + (f" ({unit})" if unit else "")
    if not is_whole(value):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return int(value)


def check_number(value, name: str, low: float = 0.0, unit: str = "", *,
                 high: float | None = None) -> float:
    """``value`` as a float if it is a finite real number (a numpy scalar too) of at
    least ``low`` (``None``: any) and at most ``high`` (``None``: any); else a
    TypeError or a ValueError (NaN, an infinity, out of range) naming ``name``.

    >>> check_number(2, "late", high=1)
    Traceback (most recent call last):
    ...
    ValueError: late must be a number from 0 to 1, got 2
    """
    if high is None:
        what = "a finite number" if low is None else f"a number >= {low:g}"
    else:
        what = f"a number from {low:g} to {high:g}"
    what += f" ({unit})" if unit else ""
    if not is_real(value):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    if (not math.isfinite(value) or (low is not None and value < low)
            or (high is not None and value > high)):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return float(value)


def check_choice(value, name: str, choices) -> str:
    """``value`` if it is one of the strings ``choices``; else a TypeError (not a str)
    or a ValueError naming ``name`` and the choices."""
    what = f"one of {', '.join(repr(c) for c in choices)}"
    if not isinstance(value, str):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    if value not in choices:
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return value


def check_steps(steps) -> tuple:
    """``steps`` (the search's step lengths, e.g. ``(3, 2, 1)``) as a tuple of ints
    from 1 to the largest grid side, or a TypeError / ValueError."""
    from .state import MAX_SIDE         # state imports this module
    if isinstance(steps, (str, bytes)) or not hasattr(steps, "__iter__"):
        raise TypeError(f"steps must be a sequence of ints (squares a step, e.g. (3, 2, 1)), "
                        f"got {type(steps).__name__} {steps!r}")
    steps = tuple(check_whole(k, f"steps[{i}]", 1, MAX_SIDE, "squares a step")
                  for i, k in enumerate(steps))
    if not steps:
        raise ValueError("steps must hold at least one step length, e.g. (3, 2, 1)")
    return steps


def check_search(max_nodes, steps, max_steps, constant, escape=True) -> tuple:
    """A path search's ``max_nodes``, ``steps``, ``max_steps``, ``constant`` and
    ``escape``, checked (:func:`~tronlab.capture.paths.search_paths`, the ``paths``
    bot): a node budget of 0 would have the compiled search write past its arrays."""
    from .state import MAX_SIDE
    return (check_whole(max_nodes, "max_nodes", 1, MAX_NODES, "nodes a search"),
            check_steps(steps),
            check_whole(max_steps, "max_steps", 1, MAX_SIDE * MAX_SIDE, "rounds a path"),
            check_number(constant, "constant", 0.0), check_flag(escape, "escape"))


def kernel_array(a: np.ndarray) -> np.ndarray:
    """``a`` as the kernels are compiled for it: C-contiguous and writeable.  A
    game's grid is frozen, and numba types a read-only array apart: passed as it
    is, it would make numba compile every kernel a second time, in the middle of
    a game, after the bot's warm-up (a copy of a grid costs a microsecond)."""
    if a.flags.c_contiguous and a.flags.writeable:
        return a
    return np.array(a, order="C")


def check_owner(owner) -> np.ndarray:
    """``owner`` as a 2-D ``int8`` grid ready for the kernels (:func:`kernel_array`),
    or a ValueError."""
    owner = np.asarray(owner)
    if owner.ndim != 2 or owner.dtype != np.int8:
        raise ValueError(f"owner must be a 2-D int8 array, got {owner.dtype} {owner.shape}")
    return kernel_array(owner)
