"""Argument checks shared by the capture game's functions: views, player ids,
squares, owner grids and the bots' options, each an error naming the argument and
what was given: a TypeError for a value of the wrong type (a float or a bool where
an int goes, a str where a number goes), a ValueError for one out of range.

>>> check_square((2, 1), (2, 3))
(2, 1)
"""

from __future__ import annotations

import numpy as np

from ..tron.values import check_flag, is_whole
from ..tron.values import check_choice, check_number, check_whole  # noqa: F401 (re-exported)

#: the largest node budget of a path search: its node arrays take 40 bytes a node
#: (400 MB here; the paths bot's default is 30,000)
MAX_NODES = 10_000_000


def check_player(player, name: str = "player") -> int:
    """``player`` as an int 0..3; else a TypeError (not an int: a str, a float, a
    bool) or a ValueError (out of range), naming ``name``.  The check of a function
    given only an owner grid: the grid does not say how many players there are (a
    player with no squares yet is one of them), so player 2 passes on a 2-player grid;
    where the game is known, :func:`check_player_of` and :func:`check_view`."""
    if not is_whole(player):
        raise TypeError(f"{name} must be an int 0 to 3, got {type(player).__name__} "
                        f"{player!r}")
    if not 0 <= player <= 3:
        raise ValueError(f"{name} must be an int 0 to 3, got {player!r}")
    return int(player)


def check_player_of(player, n_players: int, name: str = "player") -> int:
    """``player`` as an int 0..3 that is one of the ``n_players`` of the game; else a
    TypeError or ValueError naming ``name``.

    >>> check_player_of(2, 2)
    Traceback (most recent call last):
    ...
    ValueError: player 2 is not in a 2-player game (players 0 to 1)
    """
    player = check_player(player, name)
    if player >= n_players:
        raise ValueError(f"{name} {player} is not in a {n_players}-player game (players 0 "
                         f"to {n_players - 1})")
    return player


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
