"""Step through a recorded alpha-beta search in the notebook (techniques X1 and X3).

``SearchStepper(board, depth=4)`` records the search with
:func:`tronlab.course.search_trace.trace_alphabeta` and shows, side by side, the board
at the node the search is visiting and the tree so far: visited nodes, their values once
known, moves cut off greyed with a cross, the current node ringed.  *prev* / *next* (or
the left and right arrow keys, or the slider) move through the search's steps; Python
can do the same with ``stepper.next()``, ``stepper.prev()`` or ``stepper.step = k``.  A
line under the pictures says what happens at that step: which window a node is searched
with, the value it returns, which moves a cut-off skipped.

A saved notebook shows the finished tree as a picture (``image/png`` beside the widget),
so a reader without a kernel still sees it.  The JavaScript is
``tronlab/static/stepper.js``, shipped with the package.
"""

from __future__ import annotations

import pathlib

import anywidget
import traitlets

from ..render import PLAYER_COLORS, TRAIL_COLORS, WALL_COLOR, player_label
from ..tron.board import MOVE_NAMES, Board, check_two_player_board
from ..widget_views import figure_png, with_picture
from .search_trace import Trace, trace_alphabeta, tree_layout

_STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"

__all__ = ["SearchStepper", "step_texts"]


def _window(v: int) -> str:
    return "-inf" if v <= -10**5 else "inf" if v >= 10**5 else str(v)


def step_texts(trace: Trace) -> list:
    """One sentence per step of ``trace`` saying what the search does there."""
    out = []
    for k, (i, kind) in enumerate(trace.steps):
        n = trace.nodes[i]
        where = trace.label(i)
        if kind == "enter":     # "player 0 (blue, 1 on the board)": the index and what shows
            out.append(f"step {k}: enter {where}, {player_label(n.player)} to move, window "
                       f"({_window(n.alpha)}, {_window(n.beta)})")
        else:
            text = f"step {k}: leave {where} with value {n.value}"
            if n.pruned:
                skipped = ", ".join(MOVE_NAMES[m] for m in n.pruned)
                text += f" - cut-off: {n.value} >= beta {_window(n.beta)}, {skipped} never tried"
            out.append(text)
    return out


def _board_data(board: Board) -> dict:
    inner = board.cells[1:-1, 1:-1]
    return {"cells": inner.astype(int).tolist(), "heads": [list(board.xy(h)) for h in board.heads]}


def stepper_data(trace: Trace) -> dict:
    """Everything the browser needs, as plain JSON."""
    pos = tree_layout(trace)
    nodes = [{"id": n.id, "parent": n.parent, "x": pos[n.id][0], "y": pos[n.id][1],
              "value": n.value, "player": n.player,
              "move": MOVE_NAMES[n.move][0].upper() if n.move >= 0 else "",
              "pruned": [MOVE_NAMES[m][0].upper() for m in n.pruned]} for n in trace.nodes]
    return {"nodes": nodes, "steps": [[i, k] for i, k in trace.steps], "pv": list(trace.pv),
            "boards": [_board_data(n.board) for n in trace.nodes], "texts": step_texts(trace),
            "colors": {"players": list(PLAYER_COLORS), "trails": list(TRAIL_COLORS),
                       "wall": WALL_COLOR}}


class SearchStepper(anywidget.AnyWidget):
    """See the module docstring."""

    _esm = _STATIC / "stepper.js"
    _css = _STATIC / "stepper.css"
    data = traitlets.Dict().tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)

    def __init__(self, board: Board, depth: int = 4, *, player: int = 0, **kwargs):
        super().__init__(**kwargs)
        # named here: the search's own checks named TurnGame, a class the learner never met
        check_two_player_board(board, "SearchStepper")
        self.trace = trace_alphabeta(board, depth, player=player)
        self.data = stepper_data(self.trace)

    @traitlets.validate("step")
    def _clamp(self, proposal):
        return max(0, min(int(proposal["value"]), len(self.trace.steps) - 1)) \
            if hasattr(self, "trace") else int(proposal["value"])

    @property
    def text(self) -> str:
        """The sentence for the current step."""
        return self.data["texts"][self.step]

    @property
    def node(self):
        """The :class:`~tronlab.course.search_trace.Node` of the current step."""
        return self.trace.nodes[self.trace.steps[self.step][0]]

    def next(self) -> None:
        self.step = self.step + 1

    def prev(self) -> None:
        self.step = self.step - 1

    def picture_png(self) -> bytes:
        """The board and the whole tree as one PNG (the saved notebook's picture)."""
        import matplotlib.pyplot as plt

        from ..render import draw_board
        from .search_trace import draw_search_tree

        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6),
                                          gridspec_kw={"width_ratios": [1, 2.6]})
        draw_board(self.trace.nodes[0].board, ax=left, title="the root position")
        draw_search_tree(self.trace, ax=right)
        return figure_png(fig)

    def _repr_mimebundle_(self, **kwargs):
        return with_picture(super()._repr_mimebundle_(**kwargs), self.picture_png(),
                            f"SearchStepper: alpha-beta, {self.trace.depth} plies, "
                            f"{len(self.trace.nodes)} nodes, value {self.trace.value}")
