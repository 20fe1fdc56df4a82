"""Exercise of notebook 01: articulation points (A11).

``articulation_points(board) -> set of (x, y)``: the free squares whose removal splits the
region of free squares they belong to (the graph: free squares, joined up/right/down/left;
walls, trails and heads are not in it).  The expected answer is the package's plain-Python
Hopcroft-Tarjan (:func:`tronlab.grid.reference.articulation_points`; the tests check it
against networkx and the numba kernel).  A wrong answer names the first square missed or
invented; hints come from recomputing the answer with a typical mistake and seeing
whether it matches.
"""

from __future__ import annotations

import numpy as np

from ..grid import reference
from ..tron.board import FREE, WALL, Board
from ..tron.values import is_whole
from . import variants
from .answers import CELLS_INDEX, edge_mistake, reject_text
from .boards import TINY, random_cases, tiny_cases
from .progress import recorded
from .checker import Case, Exercise, Failure, WrongType, draw_grid, run_check

__all__ = ["check_articulation_points", "ArticulationPoints", "tarjan_variant", "open_room"]

#: boards chosen for the mistakes the hints name
TINY_CUTS = {
    "a corridor": """
        1.....2
    """,
    "a root with one child": """
        1...
        ....
        ...2
    """,
    "two regions, a root with one child in each": """
        1..#...
        ...#...
        ...#..2
    """,
    "two rooms and a door": """
        1..#...
        ...#...
        .......
        ...#..2
    """,
    "a cycle hanging off a square": """
        1.....
        .##.#.
        ......
        ...#.2
    """,
    "diagonal touch": """
        1.#..
        ..#..
        ##...
        ...#2
    """,
}


#: the side of the open room the checker ends with: from any start square, in any order of
#: neighbours, a depth-first search of it goes over 1,200 squares deep (about 820 on 40x40)
DEEP = 50


def open_room(side: int) -> Board:
    """An open ``side`` x ``side`` board with the two heads in opposite corners."""
    rows = ["." * side] * side
    rows[0] = "1" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "2"
    return Board.from_ascii("\n".join(rows))


def tarjan_variant(board, *, strict=False, root_rule=True, diagonal=False, back_low=False,
                   nodes="free", pass_up=True, shared_children=False, root_cut=True) -> set:
    """Cut vertices as ``(x, y)`` computed with a switchable mistake: ``strict`` uses
    ``low > disc`` (the bridge test) instead of ``>=``; ``root_rule=False`` treats the DFS
    root like any other square; ``diagonal`` also joins squares that touch at a corner;
    ``back_low`` lowers ``low`` by a back edge's ``low[w]`` instead of ``disc[w]``;
    ``pass_up=False`` never passes a finished child's ``low`` up to its parent;
    ``shared_children`` keeps one count of the root's children for every search, not one
    per root (region); ``root_cut=False`` never counts a root as a cut vertex;
    ``nodes="heads"`` puts the heads in the graph too, ``"not walls"`` heads and trails."""
    free = board.cells != WALL if nodes == "not walls" else board.cells == FREE
    if nodes == "heads":
        free = free.copy()
        free.flat[board.heads] = True
    h, w = free.shape
    steps = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    if diagonal:
        steps += [(1, -1), (1, 1), (-1, 1), (-1, -1)]
    disc, low, cuts, children = {}, {}, set(), 0
    for root in zip(*np.nonzero(free)):
        if root in disc:
            continue
        disc[root] = low[root] = len(disc)
        children, stack = children if shared_children else 0, [(root, None, iter(steps))]
        while stack:
            sq, parent, nbs = stack[-1]
            for dx, dy in nbs:
                nb = (sq[0] + dy, sq[1] + dx)
                if not (0 <= nb[0] < h and 0 <= nb[1] < w) or not free[nb]:
                    continue
                if nb not in disc:
                    disc[nb] = low[nb] = len(disc)
                    stack.append((nb, sq, iter(steps)))
                    children += sq == root
                    break
                if nb != parent:
                    low[sq] = min(low[sq], low[nb] if back_low else disc[nb])
            else:
                stack.pop()
                if stack:
                    up = stack[-1][0]
                    if pass_up:
                        low[up] = min(low[up], low[sq])
                    beyond = low[sq] > disc[up] if strict else low[sq] >= disc[up]
                    if beyond and (up != root or not root_rule):
                        cuts.add(up)
        if root_rule and root_cut and children > 1:
            cuts.add(root)
    return {(int(x) - 1, int(y) - 1) for y, x in cuts}


#: the hint for squares given as (y, x)
SWAPPED = ("a square is (x, y), column first, while board.cells is indexed [y, x], row first: "
           "did you return (y, x)? (board.xy(i) gives a flat index's (x, y))")


#: the hint for squares given as board.cells indices (x + 1, y + 1)
PADDED = ("did you return the index into board.cells, (x + 1, y + 1)? The padded array has "
          "square (x, y) at [y + 1, x + 1]: return (x, y) itself")


def _pairs(items):
    """The items that are pairs of whole numbers, as pairs."""
    out = []
    for item in items:
        try:
            a, b = item
        except (TypeError, ValueError):
            continue
        if is_whole(a) and is_whole(b):
            out.append((int(a), int(b)))
    return out


def _as_squares(value, board) -> frozenset:
    if isinstance(value, np.ndarray) and value.dtype == np.bool_:
        raise WrongType("return a set of (x, y) squares, not a mask (hint: "
                        "{board.xy(i) for i in np.flatnonzero(mask)})")
    reject_text(value, "a set of (x, y) squares")
    if is_whole(value):
        raise WrongType(f"return the squares themselves, a set of (x, y), not how many there "
                        f"are ({int(value)})")
    try:
        items = list(value)
    except TypeError:
        raise WrongType("return a set of (x, y) pairs") from None
    out = set()
    for item in items:
        if is_whole(item):
            raise WrongType(f"every element must be an (x, y) pair of ints, got the single "
                            f"number {int(item)}: if it is a flat index, board.xy({int(item)}) "
                            f"gives its (x, y)")
        try:
            x, y = item
            if isinstance(x, (str, bytes)) or isinstance(y, (str, bytes)):
                raise TypeError("text, not numbers")
            x, y = int(x), int(y)
        except (TypeError, ValueError):
            raise WrongType(f"every element must be an (x, y) pair of ints, got {item!r}") from None
        if not board.inside(x, y) and board.inside(x - 1, y - 1) and all(
                board.inside(a - 1, b - 1) for a, b in _pairs(items)):
            raise WrongType(f"({x}, {y}) is not a square of this {board.width}x{board.height} "
                            f"board: {PADDED}")
        if not board.inside(x, y):
            if board.inside(y, x):
                raise WrongType(f"({x}, {y}) is not a square of this {board.width}x"
                                f"{board.height} board, but ({y}, {x}) is: {SWAPPED}")
            raise WrongType(f"({x}, {y}) is not a square of this {board.width}x{board.height} "
                            f"board: squares are (x, y) with 0 <= x < width, 0 <= y < height")
        out.add((x, y))
    return frozenset(out)


#: (tarjan_variant options, hint): mistakes in the search, tried in order
_SEARCH_MISTAKES = [
    ({"root_rule": False}, "the square where a search starts (the DFS root) has no parent, so "
     "the low-number test does not apply to it: it is a cut vertex only when it has two or "
     "more DFS children"),
    ({"root_cut": False}, "the square where a search starts (the DFS root) can be a cut vertex "
     "too: it has no parent, so the low test does not apply, but when it has two or more DFS "
     "children they reach each other only through it (count the root's children, and add the "
     "root when there are two or more)"),
    ({"pass_up": False}, "when a child's search is done, pass its low up: low[parent] = "
     "min(low[parent], low[child]); a back edge from deep below reaches the squares above "
     "only that way"),
    ({"back_low": True}, "a back edge to an earlier square w lowers low by disc[w], not low[w]: "
     "low[w] may come from a way round through w itself, which is gone once w is removed"),
    ({"strict": True}, "compare with >=, not >: a child whose low number equals the parent's "
     "discovery number can only get back up *to* the parent, not past it, so removing the "
     "parent still cuts it off (low > disc finds bridges, not cut vertices)"),
    ({"shared_children": True}, "count the root's DFS children afresh for each search (set "
     "the count to 0 where a new search starts): left over from another region's search, "
     "they make a root with one child look like a cut vertex"),
]
#: mistakes in the graph, tried after a dead end taken for a cut (which they often look like)
_GRAPH_MISTAKES = [
    ({"diagonal": True}, "squares that touch only at a corner are not neighbours: a player "
     "moves up, right, down or left"),
    ({"nodes": "heads"}, "the heads are not in the graph: a head is blocked (a player stands on "
     "it), so only squares holding 0 are nodes"),
    ({"nodes": "not walls"}, "trails and heads are not in the graph: only squares holding 0 are "
     "nodes, not everything that is not a wall"),
]


def _deep_free(case: Case) -> int | None:
    """The free squares of the closing deep room, whose hints name them; None for
    another case."""
    if not (case.options or {}).get("deep"):
        return None
    return int(np.count_nonzero(case.board.cells == FREE))


class ArticulationPoints(Exercise):
    function = "articulation_points"
    index_hint = CELLS_INDEX
    parameters = ("board",)
    returns = "a set of (x, y) squares"
    hint = ("walk the free squares depth first, numbering each square when you first reach it "
            "(disc) and keeping the lowest number reachable from its subtree through one back "
            "edge (low); a square is a cut vertex when some child's low is >= its own disc")

    def cases(self):
        # last, once the small boards have passed: a region deeper than Python's recursion limit
        deep = Case(f"deep: an open {DEEP}x{DEEP} room", open_room(DEEP), options={"deep": True})
        return (tiny_cases(TINY_CUTS) + tiny_cases(TINY)
                + random_cases(111, 50, sizes=((3, 3), (12, 9)), density=(0.1, 0.4)) + [deep])

    def describe_case(self, case: Case) -> str:
        return "articulation_points(board)"

    def show_input(self, case: Case) -> list[str]:
        if not (case.options or {}).get("deep"):
            return super().show_input(case)
        b = case.board
        return [f"The call: articulation_points(board) on an open {b.width}x{b.height} room: "
                f"every square free but the heads at (0, 0) and ({b.width - 1}, {b.height - 1})."]

    def recursion_hint(self, case: Case) -> str | None:
        free = _deep_free(case)
        if free is None:
            return None
        return (f"this region has {free:,} free squares and a depth-first search goes over "
                f"a thousand of them deep, past Python's recursion limit (1,000 calls by "
                f"default) when each step is a recursive call: keep the path in an explicit "
                f"stack (a list you append to and pop from), as the exercise says")

    def timeout_hint(self, case: Case) -> str | None:
        free = _deep_free(case)
        if free is None:
            return None
        return (f"every smaller board passed, so the answer may be right but too slow for "
                f"{free:,} free squares: taking each square out and flood-filling the rest "
                f"is {free:,} fills of {free:,} squares, millions of steps in Python; the "
                f"depth-first search with disc and low numbers finds every cut vertex in "
                f"one pass over the squares")

    def convert(self, value, case):
        return _as_squares(value, case.board)

    def expected(self, case):
        b = case.board
        return frozenset(b.xy(i) for i in reference.articulation_points(b.flat, b.stride))

    def judge(self, case, got, context):
        want = self.expected(case)
        if got == want:
            return None
        return Failure(self._picture(case.board, want), self._picture(case.board, got),
                       self._why(case.board, want, got))

    def _picture(self, board, squares) -> str:
        marks = np.full(board.cells.shape, "", dtype=object)
        for x, y in squares:
            marks[y + 1, x + 1] = "X"
        listed = ", ".join(f"({x}, {y})" for x, y in sorted(squares)) or "none"
        return f"{listed}   (X on the board)\n" + draw_grid(board, marks, blank="")

    def _why(self, board, want, got) -> str:
        if frozenset((y, x) for x, y in got) == want:
            return f"every square is right with x and y swapped: {SWAPPED}"
        free = board.cells == FREE
        blocked = sorted((x, y) for x, y in got if not free[y + 1, x + 1])
        if blocked:
            x, y = blocked[0]
            return (f"({x}, {y}) is not free (a wall, trail or head): only free squares are in "
                    f"the graph, so only they can be cut vertices")
        if got == frozenset((x + 1, y + 1) for x, y in want):
            return f"every square is one off in x and in y: {PADDED}"
        for kw, text in _SEARCH_MISTAKES:
            if got == frozenset(tarjan_variant(board, **kw)):
                return text
        invented = sorted(got - want)
        if invented and want <= got and all(_dead_end(board, sq) for sq in invented):
            return _dead_end_hint(board, invented[0])
        for kw, text in _GRAPH_MISTAKES:
            if got == frozenset(tarjan_variant(board, **kw)):
                return text
        edge = edge_mistake(board, got, lambda short: frozenset(
            short.xy(i) for i in reference.articulation_points(short.flat, short.stride)))
        return edge or _why_missed_or_invented(board, want, got)


def _dead_end(board, square) -> bool:
    x, y = square
    return variants.free_neighbours(board, (y + 1) * board.stride + x + 1) <= 1


def _dead_end_hint(board, square) -> str:
    x, y = square
    index = (y + 1) * board.stride + x + 1
    beside = [int(board.flat[index + int(step)]) for step in board.offsets]
    players = " (heads and trails are not in the graph)" if any(c >= 2 for c in beside) else ""
    return (f"({x}, {y}) is not a cut vertex: it has at most one free neighbour{players}, so "
            f"it is a dead end of its region, and removing a dead end leaves the rest in one "
            f"piece")


def _why_missed_or_invented(board, want, got) -> str:
    """The hint naming the first square missed or invented, and why when it is plain."""
    missed = sorted(want - got)
    regions = variants.labels(board)
    if missed and got:
        searched = {int(regions[y + 1, x + 1]) for x, y in got}
        if got == {s for s in want if regions[s[1] + 1, s[0] + 1] in searched} and all(
                regions[y + 1, x + 1] not in searched for x, y in missed):
            x, y = missed[0]
            return (f"({x}, {y}) was missed, and every cut vertex you found lies in another "
                    f"region: the free squares fall into regions that do not touch, and a "
                    f"search from one square numbers only its own. Start a new search from "
                    f"every free square not yet numbered")
    if missed:
        x, y = missed[0]
        return (f"({x}, {y}) was missed: removing it splits its region in two. Check the "
                f"low numbers around it: is some child's low >= the square's disc?")
    x, y = sorted(got - want)[0]
    if _dead_end(board, (x, y)):
        return _dead_end_hint(board, (x, y))
    return (f"({x}, {y}) is not a cut vertex: its region stays in one piece without it. A "
            f"back edge from below it (low < disc) means its children have another way up")


@recorded
def check_articulation_points(articulation_points, *, time_limit=None):
    """Check ``articulation_points(board) -> set of (x, y)`` (A11)."""
    return run_check(ArticulationPoints(), articulation_points, time_limit=time_limit)
