"""Pictures of Back to the Code grids with matplotlib (for notebooks and saved pages).

Owned squares take their owner's light colour (the Tron trail colours of
:mod:`tronlab.render`), neutral squares are white, each active player is a
dark square with its id (players sharing a square split it into quarters), and
the squares of an enclosure just captured can be outlined (``flash``) so a
reader sees what the last loop took.

>>> from tronlab.capture.ascii import parse_grid
>>> owner = parse_grid('''
...     00.
...     01.
... ''').owner
>>> grid_rgb(owner)[0, 2].tolist(), just_captured(owner * 0 - 1, owner, [(1, 1)])
([1.0, 1.0, 1.0], [(0, 0), (1, 0), (0, 1)])
"""

from __future__ import annotations

import numpy as np

from ..render import FREE_COLOR, GRID_COLOR, PLAYER_COLORS, TRAIL_COLORS
from .state import NEUTRAL

FLASH_COLOR = "#ffb000"     # the outline of the squares the last enclosure took (capture.js's)
FLASH_EDGE = "#222222"      # under it, so that it shows on every owner's colour


def _rgb(hex_color: str) -> np.ndarray:
    return np.array([int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def grid_rgb(owner) -> np.ndarray:
    """An RGB image (height x width x 3) of the owners."""
    owner = np.asarray(owner)
    colours = np.array([_rgb(FREE_COLOR)] + [_rgb(c) for c in TRAIL_COLORS])
    return colours[owner.astype(np.intp) + 1]


def just_captured(before, after, positions=()) -> list:
    """Squares neutral in ``before`` and owned in ``after`` that no player
    stands on: what enclosures took in one round, as ``(x, y)`` pairs."""
    before, after = np.asarray(before), np.asarray(after)
    taken = (before == NEUTRAL) & (after != NEUTRAL)
    for pos in positions:
        if pos is not None:
            taken[pos[1], pos[0]] = False
    ys, xs = np.nonzero(taken)
    return [(int(x), int(y)) for x, y in zip(xs, ys)]


def head_boxes(positions) -> dict:
    """Where each active player's marker goes: ``{player: (x, y, size)}``, the
    centre and side of a square.  Players may share a square (the rules allow
    it, and the last neutral square often gathers several); a shared square is
    split into quarters, one per player in id order, so that every id stays
    visible instead of the last one hiding the others."""
    shared: dict = {}
    for p, pos in enumerate(positions):
        if pos is not None:
            shared.setdefault(tuple(pos), []).append(p)
    boxes = {}
    for (x, y), players in shared.items():
        if len(players) == 1:
            boxes[players[0]] = (x, y, 0.8)
            continue
        rows = (len(players) + 1) // 2
        for k, p in enumerate(players):
            boxes[p] = (x + (k % 2 - 0.5) * 0.48, y + (k // 2 - (rows - 1) / 2) * 0.48, 0.44)
    return dict(sorted(boxes.items()))


def draw_grid(owner, positions=(), *, ax=None, flash=(), title=None, labels=True):
    """Draw a grid of owners, the players' positions (``None`` for eliminated
    ones) and an outline around the ``flash`` squares; returns the axes (Tron's
    :func:`tronlab.render.draw_board` returns ``(fig, ax)``).  Players are
    labelled by their index, 0-3 (Tron's pictures write index + 1, as its ASCII
    heads do)."""
    import matplotlib.pyplot as plt
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    owner = np.asarray(owner)
    h, w = owner.shape
    if ax is None:
        _, ax = plt.subplots(figsize=(min(12, 0.3 * w + 1), min(8, 0.3 * h + 0.6)))
    ax.imshow(grid_rgb(owner), interpolation="nearest", extent=(-0.5, w - 0.5, h - 0.5, -0.5))
    ax.set_xticks(np.arange(-0.5, w, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, h, 1), minor=True)
    ax.grid(which="minor", color=GRID_COLOR, linewidth=0.5)
    ax.tick_params(which="both", length=0, labelbottom=False, labelleft=False)
    outlines = [Rectangle((x - side / 2, y - side / 2), side, side, fill=False,
                          edgecolor=colour, linewidth=width)
                for x, y in flash        # amber lined inside in black: amber alone faded
                for colour, side, width in ((FLASH_COLOR, 1.0, 2.5), (FLASH_EDGE, 0.66, 1.2))]
    if outlines:            # one collection: a patch each drew 1 s slower for 200 squares
        ax.add_collection(PatchCollection(outlines, match_original=True))
    for p, (x, y, size) in head_boxes(positions).items():
        ax.add_patch(Rectangle((x - size / 2, y - size / 2), size, size, color=PLAYER_COLORS[p]))
        if labels:
            ax.text(x, y, str(p), ha="center", va="center", color="white",
                    fontsize=8 if size > 0.5 else 6, fontweight="bold")
    if title:
        ax.set_title(title)
    return ax


def draw_state(state, *, ax=None, before=None, title=None):
    """Draw a :class:`~tronlab.capture.state.State` (or a View); with ``before``
    (the state one round earlier) the squares enclosures took are outlined."""
    from .state import State, View
    for name, value in (("state", state), ("before", before)):
        if not isinstance(value, (State, View)) and (name == "state" or value is not None):
            raise TypeError(f"draw_state: {name} must be a capture State or View (from reset "
                            f"or step), got {type(value).__name__}")
    flash = () if before is None else just_captured(before.owner, state.owner, state.positions)
    if title is None:
        scores = np.bincount(state.owner[state.owner >= 0].astype(np.intp),
                             minlength=state.n_players)[:state.n_players]
        title = f"round {state.round - 1}: " + ", ".join(
            f"player {p} {int(s)}" for p, s in enumerate(scores))
    return draw_grid(state.owner, state.positions, ax=ax, flash=flash, title=title)
