"""What the capture exercises (B2 in :mod:`~tronlab.course.ex_capture`, B3 in
:mod:`~tronlab.course.ex_rects`) share: a capture position in the shape the generic checker
handles, the messages about a view (read-only, indexed ``owner[y, x]``, what it holds) and
an eliminated player's missing position."""

from __future__ import annotations

import numpy as np

from ..capture.ascii import format_grid
from .checker import Exercise

__all__ = ["READ_ONLY_VIEW", "OWNER_INDEX", "CaptureGrid", "CaptureExercise",
           "view_attribute_hint", "eliminated_hint"]

#: the hint for a function that writes into its view (read-only, as in a real game)
READ_ONLY_VIEW = ("`view.owner` is read-only, as in a real game: for scratch space copy it, "
                  "`owner = np.array(view.owner)` or `view.owner.copy()` (`np.asarray` does not "
                  "copy), and write into the copy")

#: the hint for an index past the end of view.owner (x and y swapped, most often)
OWNER_INDEX = ("an index ran past the end of an array: view.owner is indexed row first, "
               "owner[y, x], so owner[x, y] runs off any grid that is not square")


class CaptureGrid:
    """A capture position in the shape the generic checker handles: ``copy``,
    ``cells``, ``heads``, ``to_ascii``, ``width``, ``height``; ``view`` is what
    the learner's function gets (its owner array is read-only)."""

    def __init__(self, view):
        self.view = view

    @property
    def cells(self):
        return self.view.owner

    @property
    def heads(self):
        return np.array([(-1, -1) if p is None else p for p in self.view.positions])

    @property
    def width(self):
        return self.view.width

    @property
    def height(self):
        return self.view.height

    def copy(self):
        owner = np.array(self.view.owner, copy=True)
        owner.setflags(write=False)
        return CaptureGrid(self.view._replace(owner=owner))

    def to_ascii(self):
        return format_grid(self.view.owner, self.view.positions)


class CaptureExercise(Exercise):
    """What the capture exercises (B2, B3) share: a grid, not a board, in every message; a
    read-only ``view.owner`` indexed ``[y, x]``."""
    noun = "grid"
    drawn_as = "with this grid"
    read_only_hint = READ_ONLY_VIEW
    index_hint = OWNER_INDEX

    def changed_input(self, case, context):
        if np.array_equal(case.board.view.owner, context["board"].view.owner):
            return None
        return (f"{self.function} changed the grid it was given (view.owner).",
                "view.owner is the game's grid, read-only for a reason: copy it for scratch "
                "space, owner = np.array(view.owner), and write into the copy")


def view_attribute_hint(err) -> str | None:
    """The hint for an attribute a view does not have (``view.active``, ``view.grid``...):
    what it has, and how to get the active players; None for other crashes."""
    if not (isinstance(err, AttributeError) and "'View' object has no attribute" in str(err)):
        return None
    return ("a view has owner (indexed owner[y, x]), positions, eliminated, n_players, width, "
            "height, round and backs_left; the active players are "
            "[q for q in range(view.n_players) if not view.eliminated[q]]")


def eliminated_hint(view, err, rule: str) -> str | None:
    """The hint for a crash on None, the position of an eliminated player (``rule``: what
    counts only active opponents), or None when ``err`` is another crash."""
    gone = [q for q, p in enumerate(view.positions) if p is None]
    if not (isinstance(err, TypeError) and "NoneType" in str(err) and gone):
        return None
    return (f"view.positions[{gone[0]}] is None: player {gone[0]} is eliminated and stands "
            f"nowhere. Leave eliminated players (view.eliminated) out; {rule} counts only "
            f"active opponents")
