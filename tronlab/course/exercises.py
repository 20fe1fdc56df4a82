"""One checker per exercise (X4): call ``check_<function>(your_function)`` in a notebook.

====================  ===========================================  =========================
checker               the function you write                       notebook
====================  ===========================================  =========================
check_greedy_move     ``greedy_move(board, player) -> int``         01 space filling (A1)
check_fill_bound      ``fill_bound(board, player) -> int``          01 space filling (A10)
check_flood_fill      ``flood_fill(board, player) -> int``          02 flood fill (A3)
check_components      ``components(board) -> array``                02 flood fill (A3)
check_bfs_distances   ``bfs_distances(board, player) -> array``     03 Voronoi (A4)
check_territory       ``territory(board) -> (n0, n1)``              03 Voronoi (A4)
check_turn_order_territory ``turn_order_territory(board, first)``   03 Voronoi (K1)
check_negamax         ``negamax(game, depth, alpha, beta)``         04 search (A5)
====================  ===========================================  =========================

The expected answers come from the package's plain-Python twins
(:mod:`tronlab.reference`) and Voronoi kernel; the hints come from recomputing the
answer with a typical mistake (:mod:`tronlab.course.variants`) and seeing whether it
matches.  Every checker returns a :class:`~tronlab.course.checker.CheckResult`.
"""

from __future__ import annotations

import numpy as np

from .. import reference
from ..board import FREE, MOVE_NAMES, Board
from . import variants
from .boards import TINY, TINY_MULTI, TINY_SEARCH, random_cases, tiny_cases
from .checker import Case, Exercise, Failure, WrongType, draw_grid, run_check
from .game import INF, TurnGame

__all__ = ["check_greedy_move", "check_fill_bound", "check_flood_fill", "check_components",
           "check_bfs_distances", "check_territory", "check_turn_order_territory", "check_negamax"]


# ---------------------------------------------------------------------------
# answer shapes
# ---------------------------------------------------------------------------
def as_count(value, what: str = "a count") -> int:
    """A whole number from an int or numpy integer, else :class:`WrongType`."""
    if isinstance(value, (bool, np.bool_)):
        raise WrongType(f"return {what} as an int, not True/False")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        raise WrongType(f"return {what} as an int, not a float ({value!r}); counts are whole "
                        f"numbers, so avoid / and use // or len(...)")
    if isinstance(value, np.ndarray):
        raise WrongType(f"return {what} (one int), not a numpy array of shape {value.shape}; "
                        f"np.count_nonzero(...) or int(array.sum()) turns an array into a count")
    if isinstance(value, (list, set, tuple, dict)):
        raise WrongType(f"return {what} (one int), not a {type(value).__name__}; if you collected "
                        f"squares, return len(...) of it")
    raise WrongType(f"return {what} as an int, not a {type(value).__name__}")


def as_grid(value, board: Board, what: str) -> np.ndarray:
    """An integer array shaped like ``board.cells``, else :class:`WrongType`."""
    if isinstance(value, (int, float, np.integer, np.floating)):
        raise WrongType(f"return {what} as an array shaped like board.cells, not a single number")
    try:
        arr = np.asarray(value)
    except Exception:                                  # noqa: BLE001 - ragged lists and such
        raise WrongType(f"return {what} as a numpy array shaped like board.cells") from None
    shape = board.cells.shape
    if arr.shape != shape:
        if arr.shape == (board.height, board.width):
            raise WrongType(f"{what} has shape {arr.shape}, the playing area; use the padded "
                            f"shape board.cells.shape = {shape}, so that square (x, y) is at "
                            f"[y + 1, x + 1] and the border is included")
        if arr.shape == (board.flat.size,):
            raise WrongType(f"{what} is flat (shape {arr.shape}); return it shaped like "
                            f"board.cells: array.reshape(board.cells.shape)")
        raise WrongType(f"{what} must have the shape of board.cells, {shape}; yours has shape "
                        f"{arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) \
                and np.all(arr == np.round(arr)):
            return arr.astype(np.int64)
        raise WrongType(f"{what} must hold whole numbers; yours has dtype {arr.dtype} "
                        f"(make it with np.full(board.cells.shape, -1) or np.zeros(..., dtype=int))")
    return arr.astype(np.int64)


def as_move(value) -> int:
    if isinstance(value, str):
        raise WrongType(f"return the move as a number 0-3 (0 up, 1 right, 2 down, 3 left), "
                        f"not the string {value!r}")
    move = as_count(value, "the move")
    if not 0 <= move <= 3:
        raise WrongType(f"a move is 0, 1, 2 or 3 (up, right, down, left); you returned {move}")
    return move


def square_name(board: Board, index: int) -> str:
    x, y = board.xy(index)
    return f"({x}, {y})"


def first_difference(board: Board, want: np.ndarray, got: np.ndarray):
    """The first square (reading order) where two grids differ, as (x, y), or None."""
    diff = np.argwhere(want != got)
    if len(diff) == 0:
        return None
    y, x = diff[0]
    return int(x) - 1, int(y) - 1


def players_of(board: Board, *, alive_only=True):
    return [p for p in range(board.n_players) if board.alive[p] or not alive_only]


def player_cases(cases, *, every=True):
    """One case per (board, player) for exercises taking a player argument."""
    out = []
    for case in cases:
        for p in (range(case.board.n_players) if every else (0,)):
            out.append(Case(f"{case.label}, player {p}", case.board, (p,)))
    return out


# ---------------------------------------------------------------------------
# A3 flood fill
# ---------------------------------------------------------------------------
class FloodFill(Exercise):
    function = "flood_fill"
    returns = "an int: how many free squares the player's head can reach"
    hint = ("start from the head, visit each free square at most once, step only up, right, "
            "down and left, and do not count the head itself")

    def cases(self):
        return player_cases(tiny_cases(TINY)) + player_cases(
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
            return "you counted every free square of the board, not only the ones the head can reach"
        if got == len(b.legal_moves(p)) and got != want:
            return "you counted only the head's free neighbours; keep going from each square you reach"
        if got > want:
            return "you counted some squares more than once: mark a square as seen when you first reach it"
        return None


class Components(Exercise):
    function = "components"
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
        return Failure(draw_grid(b, want, blank=0), draw_grid(b, got, blank=0),
                       self._why(b, want, got))

    def _why(self, b, want, got):
        free = b.cells == FREE
        bad = np.argwhere(free & (got <= 0))
        if len(bad):
            y, x = bad[0]
            return f"square ({x - 1}, {y - 1}) is free but has label {got[y, x]}: free squares get 1, 2, ..."
        bad = np.argwhere(~free & (got != 0))
        if len(bad):
            y, x = bad[0]
            return (f"square ({x - 1}, {y - 1}) is blocked (a wall, trail or head) but has label "
                    f"{got[y, x]}: blocked squares must be 0")
        # a free square pair split or joined wrongly
        for (y, x) in np.argwhere(free):
            for dx, dy in variants.steps(diagonal=True):
                ny, nx = y + dy, x + dx
                if not free[ny, nx]:
                    continue
                joined = got[y, x] == got[ny, nx]
                should = want[y, x] == want[ny, nx]
                if joined and not should and dx and dy:
                    return (f"({x - 1}, {y - 1}) and ({nx - 1}, {ny - 1}) only touch at a corner, "
                            f"but you gave them one label: regions join only up, right, down, left")
                if not joined and should and not (dx and dy):
                    return (f"({x - 1}, {y - 1}) and ({nx - 1}, {ny - 1}) are free neighbours but "
                            f"have different labels ({got[y, x]} and {got[ny, nx]}): every square a "
                            f"region reaches must get its label")
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


# ---------------------------------------------------------------------------
# A4 distances and territory
# ---------------------------------------------------------------------------
class BfsDistances(Exercise):
    function = "bfs_distances"
    returns = "an int array shaped like board.cells: moves from the head, -1 where it cannot reach"
    hint = ("a breadth-first search: the head is 0, its free neighbours 1, their unvisited free "
            "neighbours 2, ...; squares never reached (and blocked squares) stay -1")

    def cases(self):
        return player_cases(tiny_cases(TINY)) + player_cases(
            random_cases(401, 40, sizes=((2, 2), (14, 10)), players=(2, 3)), every=False)

    def convert(self, value, case):
        return as_grid(value, case.board, "the distance array")

    def expected(self, case):
        b = case.board
        d = reference.bfs_distances(b.flat, int(b.heads[case.args[0]]), b.stride)
        return np.array(d, dtype=np.int64).reshape(b.cells.shape)

    def same(self, want, got, case):
        return np.array_equal(want, got)

    def show(self, value, case):
        return draw_grid(case.board, value, blank=-1)

    def diagnose(self, case, got, want):
        b, p = case.board, case.args[0]
        hy, hx = divmod(int(b.heads[p]), b.stride)
        if got[hy, hx] != 0:
            return f"the head ({hx - 1}, {hy - 1}) is 0 moves from itself; yours says {got[hy, hx]}"
        reach = want > 0
        if np.array_equal(got[reach], want[reach] + 1):
            return "off by one in distance: the head's free neighbours are 1 move away, not 2"
        if np.array_equal(got, variants.distances(b, p, diagonal=True)):
            return "you stepped diagonally: a move is up, right, down or left"
        if np.array_equal(got, variants.manhattan(b, p)):
            return ("that is the straight-line (Manhattan) distance, which walks through walls; "
                    "count the moves around them with a BFS")
        blocked = (b.cells != FREE)
        blocked[hy, hx] = False
        if np.any(got[blocked] != -1):
            y, x = np.argwhere(blocked & (got != -1))[0]
            return f"({x - 1}, {y - 1}) is a wall or trail: blocked squares stay -1"
        unreached = (want == -1) & ~blocked
        if np.any(got[unreached] != -1):
            y, x = np.argwhere(unreached & (got != -1))[0]
            return f"the head cannot reach ({x - 1}, {y - 1}): squares it never reaches stay -1"
        where = first_difference(b, want, got)
        wy, wx = where[1] + 1, where[0] + 1
        if np.all(got[reach] >= want[reach]):
            return (f"at {where} the shortest way takes {want[wy, wx]} moves, you found "
                    f"{got[wy, wx]}: take squares in the order they were found (a queue, "
                    f"collections.deque with popleft), not the newest first (a stack)")
        return f"at {where} expected {want[wy, wx]}, got {got[wy, wx]}"


class Territory(Exercise):
    function = "territory"
    returns = "a pair (n0, n1): squares strictly nearer player 0 and strictly nearer player 1"
    hint = ("compute both distance maps; a free square belongs to the player who reaches it in "
            "strictly fewer moves; equal (or unreachable for both) means nobody")

    def cases(self):
        return tiny_cases(TINY) + random_cases(402, 40, sizes=((2, 2), (14, 10)))

    def describe_case(self, case):
        return "territory(board)"

    def convert(self, value, case):
        if isinstance(value, (int, np.integer, float)):
            raise WrongType("return two numbers, (n0, n1): one count per player")
        if isinstance(value, np.ndarray) and value.shape != (2,):
            raise WrongType(f"return a pair (n0, n1), not an array of shape {value.shape}")
        try:
            items = list(value)
        except TypeError:
            raise WrongType(f"return a pair (n0, n1), not a {type(value).__name__}") from None
        if len(items) != 2:
            raise WrongType(f"return exactly two counts (n0, n1); you returned {len(items)} values")
        return tuple(as_count(v, "each count") for v in items)

    def expected(self, case):
        b = case.board
        n0, n1, _, _ = reference.territory(b.flat, int(b.heads[0]), int(b.heads[1]), b.stride)
        return (n0, n1)

    def diagnose(self, case, got, want):
        b = case.board
        if got == (want[1], want[0]):
            return "you swapped the players: return (player 0's count, player 1's count)"
        if got in (variants.territory(b, ties="first"), variants.territory(b, ties="both")):
            return ("ties must be neutral: a square both heads reach in the same number of moves "
                    "belongs to nobody")
        if got == variants.territory(b, count_heads=True):
            return "you counted the head squares: only free squares count"
        if got == variants.territory(b, diagonal=True):
            return "you stepped diagonally: a move is up, right, down or left"
        if got == variants.territory(b, minus_one_is_near=True):
            return ("-1 means 'cannot reach', not 'very near': a square only one player can reach "
                    "is that player's")
        if got == variants.territory(b, metric="manhattan"):
            return ("you used straight-line distance, which ignores walls; compare BFS distances")
        return None


# ---------------------------------------------------------------------------
# K1 turn-order territory
# ---------------------------------------------------------------------------
class TurnOrderTerritory(Exercise):
    function = "turn_order_territory"
    returns = "a list of counts, one per player"
    hint = ("every round, each living player in turn (starting with `first`) grows its whole "
            "frontier by one step; an empty square goes to whoever reaches it first; stop when "
            "nobody grows")

    def cases(self):
        base = tiny_cases(TINY) + tiny_cases(TINY_MULTI) + random_cases(
            403, 40, sizes=((2, 2), (12, 9)), players=(2, 4), trail=(0, 4))
        out = []
        for case in base:
            firsts = range(case.board.n_players) if case.label.startswith("tiny") else \
                (len(out) % case.board.n_players,)
            out += [Case(f"{case.label}, first {f}", case.board, (f,)) for f in firsts]
        return out

    def convert(self, value, case):
        n = case.board.n_players
        if isinstance(value, (int, np.integer, float)):
            raise WrongType(f"return one count per player (a list of {n} ints), not one number")
        try:
            items = list(value)
        except TypeError:
            raise WrongType(f"return a list of {n} counts, not a {type(value).__name__}") from None
        if len(items) != n:
            raise WrongType(f"this board has {n} players: return {n} counts, not {len(items)}")
        return [as_count(v, "each count") for v in items]

    def expected(self, case):
        b = case.board
        counts, _ = reference.turn_order_territory(b.flat, [int(h) for h in b.heads],
                                                   [bool(a) for a in b.alive], case.args[0], b.stride)
        return list(counts)

    def diagnose(self, case, got, want):
        b, first = case.board, case.args[0]
        alive = [bool(a) for a in b.alive]
        heads = [int(h) for h in b.heads]
        if got == [c + (1 if alive[p] else 0) for p, c in enumerate(want)]:
            return "you counted the heads: only squares gained by expanding count"
        if first != 0:
            zero, _ = reference.turn_order_territory(b.flat, heads, alive, 0, b.stride)
            if got == list(zero):
                return "the expansion starts with player `first`, then first+1, ... (wrapping round)"
        if not all(alive):
            every, _ = reference.turn_order_territory(b.flat, heads, [True] * len(heads), first,
                                                      b.stride)
            if got == list(every):
                return "a dead player (board.alive[p] is False) does not expand"
        if b.n_players == 2 and all(alive) and tuple(got) == variants.territory(b):
            return ("ties are not neutral here: in each round the player who expands earlier "
                    "takes a square both could reach")
        return None


# ---------------------------------------------------------------------------
# A10 parity bound
# ---------------------------------------------------------------------------
class FillBound(Exercise):
    function = "fill_bound"
    returns = "an int: the most moves the parity argument allows"
    hint = ("colour squares like a chessboard by (x + y) % 2; a path alternates colours, first "
            "a square of the other colour than the head; count both colours among the squares the "
            "head can reach (head not included)")

    def cases(self):
        return player_cases(tiny_cases(TINY)) + player_cases(
            random_cases(101, 40, sizes=((2, 2), (12, 9)), players=(2, 3), density=(0.0, 0.4)),
            every=False)

    def convert(self, value, case):
        return as_count(value, "the bound")

    def expected(self, case):
        b = case.board
        bound, _, _ = reference.fill_bound(b.flat, int(b.heads[case.args[0]]), b.stride)
        return bound

    def diagnose(self, case, got, want):
        b, p = case.board, case.args[0]
        _, other, same = reference.fill_bound(b.flat, int(b.heads[p]), b.stride)
        if got == other + same and got != want:
            return ("that is the whole region; a path must alternate colours, so it uses at most "
                    "one more square of the head's other colour than of its own")
        if got == 2 * min(other, same) + (1 if other != same else 0) and got != want:
            return ("the extra square exists only if there are more squares of the *other* colour "
                    "than the head's: the first move always goes to the other colour")
        if got == 2 * min(other, same + 1) + (1 if other > same + 1 else 0):
            return "you counted the head square: it is already used, count only the squares after it"
        if got == 2 * min(other, same) + (1 if same > other else 0):
            return ("the first step goes to a square of the other colour than the head (x + y "
                    "changes by one each move)")
        return None


# ---------------------------------------------------------------------------
# A1 greedy space filling
# ---------------------------------------------------------------------------
TINY_FILL = {
    "hug the wall": """
        1....
        .....
        ###2#
    """,
    "doorway": """
        .....#..
        .....1..
        .....#.2
    """,
    "do not cut": """
        ###.###
        ...1...
        #######
        ..2....
    """,
    "pocket or room": """
        #.####
        #1....
        #.##..
        ##...2
    """,
    "corner": """
        ####.
        #1.#2
        #..#.
        ####.
    """,
    "against a trail": """
        aaaa.
        ...1.
        .....
        2....
    """,
}


class GreedyMove(Exercise):
    function = "greedy_move"
    returns = "a move, an int 0-3"
    hint = ("keep the moves that leave you the most space; among them take the one whose target "
            "square has the fewest free neighbours")

    def cases(self):
        def has_move(b):
            return bool(b.legal_moves(0))
        tiny = [c for c in tiny_cases(TINY_FILL) + tiny_cases(TINY) if has_move(c.board)]
        return [Case(c.label, c.board, (0,)) for c in tiny] + [
            Case(c.label, c.board, (0,)) for c in random_cases(
                102, 40, sizes=((3, 3), (10, 8)), density=(0.1, 0.4), trail=(2, 10),
                keep=has_move)]

    def convert(self, value, case):
        return as_move(value)

    def expected(self, case):
        return variants.greedy_choices(case.board, case.args[0])

    def show(self, value, case):
        if isinstance(value, list):
            return " or ".join(f"{m} ({MOVE_NAMES[m]})" for m in value)
        return f"{value} ({MOVE_NAMES[value]})"

    def same(self, want, got, case):
        return got in want

    def diagnose(self, case, got, want):
        b, p = case.board, case.args[0]
        target = int(b.heads[p] + b.offsets[got])
        if b.flat[target] != FREE:
            return f"{MOVE_NAMES[got]} runs into {square_name(b, target)}, which is not free"
        room = {m: variants.space_after(b, p, m) for m in b.legal_moves(p)}
        best = max(room.values())
        if room[got] < best:
            return (f"{MOVE_NAMES[got]} leaves you {room[got]} squares but "
                    f"{MOVE_NAMES[want[0]]} leaves {best}: do not cut your own space in two, "
                    f"and when every move cuts, go to the bigger side")
        mine = variants.free_neighbours(b, target)
        t = int(b.heads[p] + b.offsets[want[0]])
        return (f"both keep all your space, but {MOVE_NAMES[want[0]]} goes to a square with "
                f"{variants.free_neighbours(b, t)} free neighbours and {MOVE_NAMES[got]} to one "
                f"with {mine}: hug the walls (fewest free neighbours)")


# ---------------------------------------------------------------------------
# A5 negamax with alpha-beta
# ---------------------------------------------------------------------------
def minimax(game: TurnGame, depth: int) -> int:
    """Plain negamax without pruning, the same rules as the exercise (the oracle)."""
    if depth == 0:
        return game.score()
    best = None
    for move in game.moves():
        game.play(move)
        value = -minimax(game, depth - 1)
        game.undo()
        best = value if best is None else max(best, value)
    return game.LOSS if best is None else best


def alphabeta(game: TurnGame, depth: int, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta on the same rules (for the expected node count)."""
    if depth == 0:
        return game.score()
    best = None
    for move in game.moves():
        game.play(move)
        value = -alphabeta(game, depth - 1, -beta, -alpha)
        game.undo()
        if best is None or value > best:
            best = value
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return game.LOSS if best is None else best


def search_counts(board: Board, depth: int, search) -> tuple[int, int]:
    """(value, nodes) of ``search(game, depth, ...)`` from player 0 on ``board``."""
    game = TurnGame(board)
    value = search(game, depth) if search is minimax else search(game, depth, -INF, INF)
    return value, game.nodes


class Negamax(Exercise):
    function = "negamax"
    returns = "a pair (value, move)"
    hint = ("at depth 0 return game.score(); otherwise try each move: play it, value = "
            "-negamax(game, depth - 1, -beta, -alpha), undo it; keep the best; raise alpha; stop "
            "when alpha >= beta; with no move at all return game.LOSS")

    def __init__(self):
        self._pruned = 0
        self._could_prune = 0

    def cases(self):
        self._pruned = self._could_prune = 0
        out = []
        for c in tiny_cases(TINY_SEARCH):
            for depth in (1, 2, 3, 4):
                out.append(Case(f"{c.label}, depth {depth}", c.board, (depth,)))
        rng = np.random.default_rng(104)
        for c in random_cases(104, 24, sizes=((3, 2), (5, 4)), density=(0.0, 0.3), trail=(0, 2),
                              keep=lambda b: bool(b.legal_moves(0))):
            depth = int(rng.integers(1, 6))
            out.append(Case(f"{c.label}, depth {depth}", c.board, (depth,)))
        return out

    def describe_case(self, case):
        return f"negamax(TurnGame(board), {case.args[0]}, -INF, INF)"

    def call(self, student, case, context):
        game = TurnGame(context["board"])
        context["game"] = game
        context["check_board"] = False
        return student(game, case.args[0], -INF, INF)

    def convert(self, value, case):
        if isinstance(value, (int, np.integer, float)):
            raise WrongType("return a pair (value, move): the best value and the move that gets "
                            "it (None when there is no move to make)")
        try:
            items = list(value)
        except TypeError:
            raise WrongType(f"return a pair (value, move), not a {type(value).__name__}") from None
        if len(items) != 2:
            raise WrongType(f"return a pair (value, move), not {len(items)} values")
        val = as_count(items[0], "the value")
        move = items[1]
        if move is not None:
            move = as_move(move)
        return val, move

    def judge(self, case, got, context):
        b, depth = case.board, case.args[0]
        game = context["game"]
        if game.depth_played or not np.array_equal(game.board.cells, b.cells):
            return Failure("the game back where it started", f"{game.depth_played} move(s) not "
                           f"taken back", "every game.play(move) needs a game.undo() after the "
                           "child's value is known, also before a cut-off `break`")
        want, full_nodes = search_counts(b, depth, minimax)
        _, ab_nodes = search_counts(b, depth, alphabeta)
        value, move = got
        if value != want:
            return Failure(f"value {want}", f"value {value}", self._why_value(b, depth, value, want))
        legal = TurnGame(b).moves()
        if legal:
            if move not in legal:
                shown = "None" if move is None else f"{move} ({MOVE_NAMES[move]})"
                return Failure(f"one of the moves {legal}", shown,
                               "return the move whose value is the best (a legal move of the root)")
            child = TurnGame(b)
            child.play(move)
            reached = -minimax(child, depth - 1)
            if reached != value:
                return Failure(f"a move worth {value}", f"{move} ({MOVE_NAMES[move]}), worth "
                               f"{reached}", "remember the move together with the best value, "
                               "updating both only when a child is strictly better")
        if game.nodes > full_nodes:
            return Failure(f"at most {full_nodes} nodes (plain minimax)", f"{game.nodes} nodes",
                           "you visit more positions than minimax: play each move once per node")
        if ab_nodes < full_nodes:
            self._could_prune += 1
            if game.nodes < full_nodes:
                self._pruned += 1
        return None

    def finish(self, checked):
        if self._could_prune and not self._pruned:
            return Failure("some cut-offs", "no cut-off on any board",
                           "the values are right but nothing was pruned: pass (-beta, -alpha) to "
                           "the child, raise alpha to the best value, and break when alpha >= beta")
        return None

    def _why_value(self, b, depth, value, want):
        if value == -want:
            return ("a child's value is seen from the opponent's side: negate it, "
                    "value = -negamax(game, depth - 1, -beta, -alpha)")
        for d in (depth - 1, depth + 1):
            if d >= 0 and value == search_counts(b, d, minimax)[0]:
                return f"off by one in depth: that is the value of a depth-{d} search"
        if value == _stuck_first(TurnGame(b), depth):
            return ("the horizon comes first: at depth 0 return game.score() even if the side to "
                    "move has no move (a stuck side is found one ply deeper)")
        return ("compare with plain minimax (no pruning) on this board; if that is right, check "
                "the window: the child gets (-beta, -alpha)")


def _stuck_first(game, depth):
    moves = game.moves()
    if not moves:
        return game.LOSS
    if depth == 0:
        return game.score()
    best = None
    for move in moves:
        game.play(move)
        v = -_stuck_first(game, depth - 1)
        game.undo()
        best = v if best is None else max(best, v)
    return best


# ---------------------------------------------------------------------------
# the checkers
# ---------------------------------------------------------------------------
def check_flood_fill(flood_fill):
    """Check ``flood_fill(board, player) -> int``: free squares the head can reach."""
    return run_check(FloodFill(), flood_fill)


def check_components(components):
    """Check ``components(board) -> labels`` (any numbering of the regions is fine)."""
    return run_check(Components(), components)


def check_bfs_distances(bfs_distances):
    """Check ``bfs_distances(board, player) -> array`` of moves from the head (-1 unreachable)."""
    return run_check(BfsDistances(), bfs_distances)


def check_territory(territory):
    """Check ``territory(board) -> (n0, n1)``: Voronoi counts, ties neutral, heads excluded."""
    return run_check(Territory(), territory)


def check_turn_order_territory(turn_order_territory):
    """Check ``turn_order_territory(board, first) -> [count per player]`` (K1)."""
    return run_check(TurnOrderTerritory(), turn_order_territory)


def check_fill_bound(fill_bound):
    """Check ``fill_bound(board, player) -> int``, the checkerboard parity bound (A10)."""
    return run_check(FillBound(), fill_bound)


def check_greedy_move(greedy_move):
    """Check ``greedy_move(board, player) -> move`` (A1); any of several equally good moves passes."""
    return run_check(GreedyMove(), greedy_move)


def check_negamax(negamax):
    """Check ``negamax(game, depth, alpha, beta) -> (value, move)`` on a :class:`TurnGame` (A5)."""
    return run_check(Negamax(), negamax)
