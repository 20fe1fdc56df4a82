"""A recorded alpha-beta search, to step through and to draw (techniques X1 and X3).

:func:`trace_alphabeta` runs the same fail-soft negamax alpha-beta as notebook 04 on a
:class:`~tronlab.course.game.TurnGame` (the players take turns) and writes down every node
it visits: the move that led there, the window ``(alpha, beta)`` it was searched with, the
value it returned, and - where a cut-off ended the loop early - which moves were never
tried.  ``Trace.steps`` lists the search's events in order (entering a node, leaving it
with a value), which is what a stepper walks through; :func:`draw_search_tree` draws the
whole tree (or the part visited up to a step) with matplotlib.

Values are negamax values: each node's value is from the point of view of the side to
move there, so a parent's value is the largest of its children's values negated.

>>> from tronlab import Board
>>> t = trace_alphabeta(Board.from_ascii('''
...     1..
...     ...
...     ..2
... '''), depth=2)
>>> t.value, len(t.nodes), t.nodes[0].children
(0, 6, (1, 4))
"""

from __future__ import annotations

from typing import NamedTuple

from ..render import PLAYER_COLORS
from ..tron.board import MOVE_NAMES, Board
from ..tron.values import check_whole
from .game import INF, TurnGame


class Node(NamedTuple):
    """One visited position.  ``player`` is the side to move there; ``move`` the move that
    led to it (-1 at the root); ``alpha``/``beta`` the window it was searched with (from
    ``player``'s side); ``value`` what it returned; ``pruned`` the moves of ``player``
    never tried because a child's value reached ``beta``."""
    id: int
    parent: int
    ply: int
    move: int
    player: int
    alpha: int
    beta: int
    value: int
    children: tuple
    pruned: tuple
    board: Board


class Trace(NamedTuple):
    """``nodes`` by id (0 is the root), ``steps`` the events in search order as
    ``(node_id, "enter" | "leave")``, ``pv`` the node ids of the principal line."""
    nodes: list
    steps: list
    pv: list
    value: int
    depth: int
    pruning: bool = True

    def label(self, node_id: int) -> str:
        """``"R"`` for the root, else the moves from the root, e.g. ``"right, down"``."""
        names = []
        while node_id > 0:
            n = self.nodes[node_id]
            names.append(MOVE_NAMES[n.move])
            node_id = n.parent
        return ", ".join(reversed(names)) or "R"


def trace_alphabeta(board: Board, depth: int, *, player: int = 0, prune: bool = True) -> Trace:
    """Record a fail-soft alpha-beta search of ``depth`` plies from ``player`` (see the
    module docstring).  Meant for small boards and depths: every node keeps its board.
    ``prune=False`` records plain minimax (negamax form): every move is tried."""
    depth = check_whole(depth, "depth", 1, 8, "a picture, not a search")
    game = TurnGame(board, player)
    rec: dict = {"nodes": [], "steps": []}
    rec["prune"] = bool(prune)
    value = _visit(game, depth, -INF, INF, -1, -1, 0, rec)
    nodes = [Node(**n) for n in rec["nodes"]]
    return Trace(nodes, rec["steps"], _principal_line(nodes), value, depth, bool(prune))


def _visit(game, depth, alpha, beta, parent, move, ply, rec) -> int:
    """One node of the search: as notebook 04's alpha-beta, writing everything down."""
    me = len(rec["nodes"])
    node = {"id": me, "parent": parent, "ply": ply, "move": move, "player": game.player,
            "alpha": alpha, "beta": beta, "value": 0, "children": (), "pruned": (),
            "board": game.board.copy()}
    rec["nodes"].append(node)
    rec["steps"].append((me, "enter"))
    moves = game.moves()
    if depth == 0 or not moves:
        best = game.score() if moves or depth == 0 else game.LOSS
    else:
        best, kids = None, []
        for i, m in enumerate(moves):
            game.play(m)
            kids.append(len(rec["nodes"]))
            value = -_visit(game, depth - 1, -beta, -alpha, me, m, ply + 1, rec)
            game.undo()
            best = value if best is None else max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta and rec["prune"]:
                node["pruned"] = tuple(moves[i + 1:])
                break
        node["children"] = tuple(kids)
    node["value"] = best
    rec["steps"].append((me, "leave"))
    return best


def _principal_line(nodes) -> list:
    """From the root, follow the child whose negated value equals its parent's value."""
    line = [0]
    while nodes[line[-1]].children:
        here = nodes[line[-1]]
        line.append(next(c for c in here.children if -nodes[c].value == here.value))
    return line


def tree_layout(trace: Trace) -> dict:
    """``{node_id: (x, y)}``: leaves spread left to right in search order, each parent
    centred over its children, ``y`` the ply (0 at the top)."""
    pos, next_x = {}, [0.0]

    def place(i):
        n = trace.nodes[i]
        for c in n.children:
            place(c)
        if n.children:
            xs = [pos[c][0] for c in n.children]
            pos[i] = ((min(xs) + max(xs)) / 2, n.ply)
        else:
            pos[i] = (next_x[0], n.ply)
            next_x[0] += 1.0 + 0.6 * len(n.pruned)
    place(0)
    return pos


def draw_search_tree(trace: Trace, *, upto: int | None = None, ax=None, size=(9, 4)):
    """Draw the tree of ``trace``: nodes labelled with their value (from the side to move),
    edges with the move, cut-off moves as grey stubs marked with a cross, the principal
    line thick.  With ``upto`` (a step index) only what the search had done by then is
    drawn, and the node of that step is ringed.  Returns ``(fig, ax)``."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=size)
    else:
        fig = ax.figure
    pos = tree_layout(trace)
    steps = trace.steps if upto is None else trace.steps[:upto + 1]
    seen = {i for i, _ in steps}
    done = {i for i, kind in steps if kind == "leave"}
    pv = set(trace.pv) if upto is None else set()
    for n in trace.nodes:
        if n.id not in seen:
            continue
        x, y = pos[n.id]
        if n.parent >= 0:
            px, py = pos[n.parent]
            on_pv = n.id in pv and n.parent in pv
            ax.plot([px, x], [py, y], color="black" if on_pv else "#777777",
                    lw=2.5 if on_pv else 1.0, zorder=1)
            ax.text((px + x) / 2, (py + y) / 2, MOVE_NAMES[n.move][0].upper(), fontsize=8,
                    color="#555555", ha="center", va="center",
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})
        if n.id in done:
            for k, m in enumerate(n.pruned):
                sx = x + 0.5 + 0.45 * k
                ax.plot([x, sx], [y, y + 0.6], color="#bbbbbb", lw=1.0, ls="--", zorder=1)
                ax.text(sx, y + 0.68, "x " + MOVE_NAMES[m][0].upper(), color="#999999",
                        fontsize=7, ha="center", va="top")
        colour = PLAYER_COLORS[n.player]    # as the stepper's page: the root was always blue
        ax.scatter([x], [y], s=420, color=colour if n.id in done else "white",
                   edgecolors=colour, linewidths=1.5, zorder=2)
        if n.id in done:
            ax.text(x, y, str(n.value) if abs(n.value) < 1000 else "L", color="white",
                    fontsize=8, ha="center", va="center", fontweight="bold", zorder=3)
    if upto is not None and steps:
        x, y = pos[steps[-1][0]]
        ax.scatter([x], [y], s=800, facecolors="none", edgecolors="black", linewidths=2,
                   zorder=4)
    ax.set_ylim(trace.depth + 0.9, -0.5)
    ax.set_axis_off()
    kind = "alpha-beta" if trace.pruning else "minimax"
    ax.set_title(f"{kind}, {trace.depth} plies: {len(trace.nodes)} nodes, value "
                 f"{trace.value} (blue: player 0 to move, red: player 1)", fontsize=10)
    return fig, ax
