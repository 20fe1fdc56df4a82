"""A capture action in its recorded form and back (the ``actions`` of a
:class:`~tronlab.capture.game.CaptureRecord`'s JSON): a target ``[x, y]``,
``["BACK", n]``, a fault code, or null for a player no longer asked."""

from __future__ import annotations

import numpy as np

from ..runner.reprs import safe_repr
from .rules import SHOWN, read_action
from .state import FAULTS
from ..tron.values import is_whole


def plain_action(action):
    """A numpy array of two ints as the target ``(x, y)`` the rules read (they
    take a tuple or list of two ints); any other action as it is.

    >>> plain_action(np.array([3, 4])), plain_action(np.array([3.0, 4.0]))
    ((3, 4), array([3., 4.]))
    """
    if isinstance(action, np.ndarray) and action.shape == (2,) and action.dtype.kind in "iu":
        return (int(action[0]), int(action[1]))
    return action


def action_to_json(action, state, player):
    """The recorded form of a bot's action (see the module docstring)."""
    action = plain_action(action)
    kind, _ = read_action(action, state, player)
    return _recorded(action, kind)


def _recorded(action, kind):
    if kind in FAULTS:
        return kind
    if kind in ("back", "second-back", "back-range"):
        return ["BACK", int(action[1])]
    return [int(action[0]), int(action[1])]


def action_from_json(item, where: str = ""):
    """Inverse of :func:`action_to_json` (lists become tuples); a ValueError for anything
    else, ``where`` before its text (``["BACK", 2.5]`` was replayed as BACK 2)."""
    if item is None or isinstance(item, str):
        return item
    if isinstance(item, (list, tuple)) and len(item) == 2 and is_whole(item[1]):
        if isinstance(item[0], str) and item[0].upper() == "BACK":
            return (str(item[0]), int(item[1]))
        if is_whole(item[0]):
            return (int(item[0]), int(item[1]))
    raise ValueError(f'{where}not a recorded action: {safe_repr(item, SHOWN)} ([x, y] or ["BACK", '
                     f"n] of ints, a fault code or null)")
