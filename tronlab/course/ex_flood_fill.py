"""Exercises of notebook 02, flood fill (A3): the size of the space a head can reach, and
the connected regions of the free squares (any numbering of the regions is accepted)."""

from __future__ import annotations

import numpy as np

from ..grid import reference
from ..tron.board import FREE
from . import variants
from .answers import (CELLS_INDEX, as_count, as_grid, border_note, edge_mistake, player_cases,
                      trail_start_hint)
from .boards import TINY, TINY_MULTI, TINY_TRAIL_FIRST, random_cases, tiny_cases
from .checker import Exercise, Failure, draw_grid


#: on most small boards, stepping up and down board.flat by board.width (not board.stride)
#: and a bounds check one short of the bottom row happen to give the same count; here they
#: do not (player 0 reaches 8 squares, the board.width walk 10, the short bounds check 5), so
#: each mistake gets its own hint
TINY_FLAT_ROWS = {
    "width or edge": """
        .2..1
        .#...
        .#...
    """,
}


class FloodFill(Exercise):
    function = "flood_fill"
    index_hint = CELLS_INDEX
    parameters = ("board", "player")
    returns = "an int: how many free squares the player's head can reach"
    hint = ("start from the head, visit each free square at most once, step only up, right, "
            "down and left, and do not count the head itself")

    def cases(self):
        tiny = tiny_cases(TINY_FLAT_ROWS) + tiny_cases(TINY) + tiny_cases(TINY_TRAIL_FIRST)
        return player_cases(tiny) + player_cases(
            random_cases(301, 40, sizes=((2, 2), (14, 10)), players=(2, 4)), every=False)

    def convert(self, value, case):
        return as_count(value, "the number of squares")

    def expected(self, case):
        b = case.board
        return reference.flood_fill(b.flat, int(b.heads[case.args[0]]), b.stride)

    def diagnose(self, case, got, want):
        b, p = case.board, case.args[0]
        if got == want + 1:
            return ("you counted the head square: it is the start, and part of the trail, "
                    "so count only the free squares reached from it")
        if got == variants.flood_size(b, p, diagonal=True):
            return ("you stepped diagonally (through a gap between walls that only touch at a "
                    "corner): a move is up, right, down or left")
        if got == variants.flood_size(b, p, walls_only=True):
            return ("you walked over trails: every nonzero square is blocked (walls are 1, "
                    "trails and heads 2 and up), not only walls")
        if got == b.free_count() and got != want:
            return ("you counted every free square of the board, not only the ones the head "
                    "can reach")
        if got == len(b.legal_moves(p)) and got != want:
            return ("you counted only the head's free neighbours; keep going from each square "
                    "you reach")
        start = variants.first_of_trail(b, p)
        if start != int(b.heads[p]) and got == reference.flood_fill(b.flat, start, b.stride):
            return trail_start_hint(b, p)
        for q in range(b.n_players):
            if q != p and got == reference.flood_fill(b.flat, int(b.heads[q]), b.stride):
                return (f"{got} is how many squares player {q}'s head reaches: if you started "
                        f"from player {q}'s head, start from board.heads[player], the head of "
                        f"the player you were given ({p})")
        # on a small board the two can give the same count: then both are named
        edge = edge_mistake(b, got, lambda short: variants.flood_size(short, p))
        if got == variants.flat_flood_size(b, p, b.width):
            return (f"you stepped up and down board.flat by board.width ({b.width}): a row of "
                    f"board.flat is board.stride ({b.stride}) squares long, border included, "
                    f"so up is - board.stride and down + board.stride"
                    + (f". If you work with (x, y) instead: {edge}" if edge else ""))
        if edge:
            return edge
        if got > want:
            return ("you counted some squares more than once: mark a square as seen when you "
                    "first reach it")
        return None


class Components(Exercise):
    function = "components"
    index_hint = CELLS_INDEX
    returns = "an int array shaped like board.cells: 0 on blocked squares, 1, 2, ... per region"
    hint = "give every free square the label of the region it belongs to; blocked squares get 0"

    def cases(self):
        return tiny_cases(TINY) + tiny_cases(TINY_MULTI) + random_cases(
            302, 40, sizes=((2, 2), (14, 10)), players=(2, 4), density=(0.1, 0.5))

    def describe_case(self, case):
        return "components(board)"

    def convert(self, value, case):
        return as_grid(value, case.board, "the label array")

    def expected(self, case):
        b = case.board
        labels, _ = reference.components(b.flat, b.stride)
        return np.array(labels, dtype=np.int64).reshape(b.cells.shape)

    def judge(self, case, got, context):
        b = case.board
        want = self.expected(case)
        if _same_partition(want, got):
            return None
        return Failure(draw_grid(b, want, blank=0), draw_grid(b, got, blank=0)
                       + border_note(got, 0), self._why(b, want, got))

    def _why(self, b, want, got):
        free = b.cells == FREE
        bad = np.argwhere(free & (got <= 0))
        if len(bad):
            y, x = bad[0]
            return (f"square ({x - 1}, {y - 1}) is free but has label {got[y, x]}: free squares "
                    f"get 1, 2, ...")
        bad = np.argwhere(~free & (got != 0))
        if len(bad):
            y, x = bad[0]
            if not (1 <= y <= b.height and 1 <= x <= b.width):
                return (f"the padding border (board.cells[{y}, {x}]) has label {got[y, x]}: the "
                        f"border is wall, and blocked squares must be 0")
            return (f"square ({x - 1}, {y - 1}) is blocked (a wall, trail or head) but has label "
                    f"{got[y, x]}: blocked squares must be 0")
        if _same_partition(variants.labels(b, diagonal=True), got):
            return ("you joined squares that only touch at a corner: regions join only up, right, "
                    "down, left")
        for (y, x) in np.argwhere(free):
            for dx, dy in variants.steps():
                ny, nx = y + dy, x + dx
                if free[ny, nx] and got[y, x] != got[ny, nx]:
                    return (f"({x - 1}, {y - 1}) and ({nx - 1}, {ny - 1}) are free neighbours but "
                            f"have different labels ({got[y, x]} and {got[ny, nx]}): every "
                            f"square a region reaches must get its label")
        a, c = _merged_pair(want, got)
        return (f"squares {a} and {c} are in different regions but share a label: start a new "
                f"label for each region you have not labelled yet")


def _same_partition(want: np.ndarray, got: np.ndarray) -> bool:
    """Same blocked squares and the same grouping of free squares, whatever the numbers."""
    if not np.array_equal(want == 0, got == 0) or np.any(got < 0):
        return False
    pairs = set(zip(want[want > 0].tolist(), got[want > 0].tolist()))
    return len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})


def _merged_pair(want, got):
    seen = {}
    for (y, x) in np.argwhere(want > 0):
        g = got[y, x]
        if g in seen and want[seen[g]] != want[y, x]:
            (y0, x0) = seen[g]
            return f"({x0 - 1}, {y0 - 1})", f"({x - 1}, {y - 1})"
        seen.setdefault(g, (y, x))
    return "?", "?"
