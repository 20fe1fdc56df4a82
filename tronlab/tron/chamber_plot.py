"""A chamber tree drawn over its board (techniques A12 and X3).

:func:`draw_chamber_tree` paints the chambers of one player's tree
(:func:`tronlab.tron.chambers.chamber_tree`) in tints, marks the gates (cut
vertices), joins each chamber to its parent by a line between their centres,
outlines in red the chambers that touch the front, and draws the chosen line
- the path the value follows from the head - thick.  The lines pass under the
heads (a head square is repainted over them), so the players' numbers stay
readable where a line starts or ends on a head.

>>> from tronlab import Board
>>> from tronlab.tron.chambers import chamber_tree
>>> b = Board.from_ascii('''
...     ##################
...     #......#...#..#..#
...     #...1......2.....#
...     #......#...#..#..#
...     ##################
... ''')
>>> fig, ax = draw_chamber_tree(b, chamber_tree(b, 1))
>>> ax.get_title()
'player 1 (red, 2 on the board): N=13, E=32'
"""

from __future__ import annotations

import numpy as np

from .board import TRAIL, Board
from .chambers import ChamberTree

FRONT_COLOR = "#d62828"
LINK_COLOR = "#444444"
PATH_COLOR = "#111111"
#: drawing order: the board's gate dots (4) < front outlines < tree lines < head squares
#: < the heads' frames (5) and numbers (6), which :func:`tronlab.render.draw_board` draws
FRONT_ZORDER, LINK_ZORDER, HEAD_ZORDER = 4.2, 4.5, 4.8


def chamber_centres(board: Board, tree: ChamberTree) -> np.ndarray:
    """``(x, y)`` of each chamber's centre on the playing area: the mean of its
    squares, or the entrance square for the head and for chambers of no square."""
    ids = tree.chamber_of[1:-1, 1:-1]
    out = np.zeros((len(tree), 2))
    for c in range(len(tree)):
        ys, xs = np.nonzero(ids == c)
        if len(xs):
            out[c] = xs.mean(), ys.mean()
        else:
            out[c] = board.xy(int(tree.entrance[c]) if c else int(board.heads[tree.player]))
    return out


def draw_chamber_tree(board: Board, tree: ChamberTree, *, ax=None, title=None):
    """Draw ``tree`` over ``board`` (see the module docstring); returns ``(fig, ax)``."""
    from ..render import draw_board, player_label

    if not isinstance(tree, ChamberTree):
        raise TypeError(f"expected a ChamberTree (from chamber_tree), got {type(tree).__name__}")
    if tree.chamber_of.shape != board.cells.shape:
        raise ValueError("the tree was built on a board of another size")
    if title is None:
        title = f"{player_label(tree.player)}: N={tree.n}, E={tree.e}"
    fig, ax = draw_board(board, ax=ax, chambers=tree.chamber_of, mask=tree.cut_mask, title=title)
    centre = chamber_centres(board, tree)
    on_path = set(tree.path)
    for parent, child, _ in tree.links:
        (x0, y0), (x1, y1) = centre[parent], centre[child]
        chosen = parent in on_path and child in on_path
        ax.plot([x0, x1], [y0, y1], color=PATH_COLOR if chosen else LINK_COLOR,
                lw=3.0 if chosen else 1.0, ls="-" if chosen else "--", zorder=LINK_ZORDER)
    _cover_heads(ax, board)
    ids = tree.chamber_of[1:-1, 1:-1]
    for c in range(len(tree)):
        if not tree.touches_front[c]:
            continue
        ys, xs = np.nonzero(ids == c)
        for x, y in zip(xs, ys):
            ax.add_patch(_square(x, y))
    return fig, ax


def _square(x, y):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, lw=1.2, edgecolor=FRONT_COLOR,
                     zorder=FRONT_ZORDER)


def _cover_heads(ax, board):
    """Repaint each head's square over the tree lines (under its frame and number)."""
    from matplotlib.patches import Rectangle

    from ..render import PLAYER_COLORS

    cells = board.cells[1:-1, 1:-1]
    for p in range(board.n_players):
        x, y = board.xy(board.heads[p])
        if board.inside(x, y) and cells[y, x] == TRAIL + p:    # as draw_board marks heads
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=PLAYER_COLORS[p],
                                   edgecolor="none", zorder=HEAD_ZORDER))
