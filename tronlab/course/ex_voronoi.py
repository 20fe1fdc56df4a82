"""Exercises of notebook 03, Voronoi (A4, K1): BFS distances from a head, two-player
territory (ties neutral, heads left out) and multi-player turn-order territory."""

from __future__ import annotations

import numpy as np

from ..grid import reference
from ..tron.board import FREE
from . import variants
from .answers import (CELLS_INDEX, as_count, as_grid, border_note, edge_mistake,
                      first_difference, off_border, player_cases, reject_text, reject_unordered,
                      trail_start_hint)
from .boards import TINY, TINY_MULTI, random_cases, tiny_cases
from .checker import Case, Exercise, WrongType, draw_grid


class BfsDistances(Exercise):
    function = "bfs_distances"
    index_hint = CELLS_INDEX
    parameters = ("board", "player")
    returns = "an int array shaped like board.cells: moves from the head, -1 where it cannot reach"
    hint = ("a breadth-first search: the head is 0, its free neighbours 1, their unvisited free "
            "neighbours 2, ...; squares never reached (and blocked squares) stay -1")

    def cases(self):
        return player_cases(tiny_cases(TINY)) + player_cases(
            random_cases(401, 40, sizes=((2, 2), (14, 10)), players=(2, 3)), every=False)

    def convert(self, value, case):
        return as_grid(value, case.board, "the distance array", distances=True)

    def expected(self, case):
        b = case.board
        return _distances_from(b, int(b.heads[case.args[0]]))

    def same(self, want, got, case):
        return np.array_equal(want, got)

    def show(self, value, case):
        return draw_grid(case.board, value, blank=-1) + border_note(value, -1)

    def diagnose(self, case, got, want):
        b, p = case.board, case.args[0]
        hy, hx = divmod(int(b.heads[p]), b.stride)
        for q in range(b.n_players):
            if q != p and np.array_equal(got, variants.distances(b, q)):
                return (f"these are the distances from player {q}'s head: start from "
                        f"board.heads[player], the head of the player you were given ({p})")
        start = variants.first_of_trail(b, p)
        if start != int(b.heads[p]) and np.array_equal(got, _distances_from(b, start)):
            return trail_start_hint(b, p)
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
        border = off_border(got, -1)
        if border is not None and not np.any(got == -1):
            y, x = border
            return (f"no square holds -1, and the padding border (board.cells[{y}, {x}]) holds "
                    f"{got[y, x]}: blocked squares, the border among them, and squares the head "
                    f"never reaches must be -1, so start from np.full(board.cells.shape, -1), "
                    f"not from zeros")
        if border is not None:
            y, x = border
            return (f"the padding border (board.cells[{y}, {x}]) holds {got[y, x]}: the border "
                    f"is wall, and blocked squares must stay -1")
        blocked = (b.cells != FREE)
        blocked[hy, hx] = False
        if np.any(got[blocked] != -1):
            y, x = np.argwhere(blocked & (got != -1))[0]
            heads = [q for q in range(b.n_players) if int(b.heads[q]) == y * b.stride + x]
            what = f"player {heads[0]}'s head" if heads else "a wall or trail"
            return f"({x - 1}, {y - 1}) is {what}: blocked squares stay -1"
        unreached = (want == -1) & ~blocked
        if np.any(got[unreached] != -1):
            y, x = np.argwhere(unreached & (got != -1))[0]
            return f"the head cannot reach ({x - 1}, {y - 1}): squares it never reaches stay -1"
        edge = edge_mistake(b, got, lambda short: variants.distances(short, p), np.array_equal)
        if edge:
            return edge
        where = first_difference(b, want, got)
        wy, wx = where[1] + 1, where[0] + 1
        if np.all(got[reach] >= want[reach]):
            return (f"at {where} the shortest way takes {want[wy, wx]} moves, you found "
                    f"{got[wy, wx]}: take squares in the order they were found (a queue, "
                    f"collections.deque with popleft), not the newest first (a stack)")
        return f"at {where} expected {want[wy, wx]}, got {got[wy, wx]}"


def _distances_from(board, start) -> np.ndarray:
    d = reference.bfs_distances(board.flat, start, board.stride)
    return np.array(d, dtype=np.int64).reshape(board.cells.shape)


class Territory(Exercise):
    function = "territory"
    index_hint = CELLS_INDEX
    returns = "a pair (n0, n1): squares strictly nearer player 0 and strictly nearer player 1"
    hint = ("compute both distance maps; a free square belongs to the player who reaches it in "
            "strictly fewer moves; equal (or unreachable for both) means nobody")

    def cases(self):
        tiny = tiny_cases(TINY)     # the board with ties and trails first: it tells mistakes apart
        tiny.sort(key=lambda case: case.label != "tiny: ties and trails")
        return tiny + random_cases(402, 40, sizes=((2, 2), (14, 10)))

    def describe_case(self, case):
        return "territory(board)"

    def convert(self, value, case):
        reject_text(value, "a pair (n0, n1) of counts")
        reject_unordered(value, "the pair (n0, n1)")
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
        if got == variants.territory(b, both_reach=True):
            return ("you left out the squares only one player can reach: such a square is that "
                    "player's (the other's distance there is -1, 'never', not a number to compare)")
        if got == variants.territory(b, metric="manhattan"):
            return ("you used straight-line distance, which ignores walls; compare BFS distances")
        if got == (0, 0) and variants.territory(b, players=(0, 0)) == got:
            return ("(0, 0) means every square came out a tie, as if both distance maps were "
                    "measured from the same head: player 0's starts at board.heads[0], "
                    "player 1's at board.heads[1]")
        edge = edge_mistake(b, got, variants.territory)
        if edge:
            return edge
        if got[0] + got[1] == b.free_count() and want[0] + want[1] < b.free_count():
            return ("your two counts add up to every free square of the board, but some squares "
                    "belong to nobody: the ties, and the squares neither player can reach")
        return None


# ---------------------------------------------------------------------------
# K1 turn-order territory
# ---------------------------------------------------------------------------
class TurnOrderTerritory(Exercise):
    function = "turn_order_territory"
    index_hint = CELLS_INDEX
    parameters = ("board", "first")
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
        reject_text(value, f"a list of {n} counts, one per player")
        reject_unordered(value, f"the {n} counts, one per player in player order,")
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
        heads = [int(h) for h in b.heads]
        alive = [bool(a) for a in b.alive]
        counts, _ = reference.turn_order_territory(b.flat, heads, alive, case.args[0], b.stride)
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
                return ("the expansion starts with player `first`, then first+1, ... "
                        "(wrapping round)")
        if not all(alive):
            every, _ = reference.turn_order_territory(b.flat, heads, [True] * len(heads), first,
                                                      b.stride)
            if got == list(every):
                return "a dead player (board.alive[p] is False) does not expand"
            freed = _dead_heads_freed(b, got, first)
            if freed:
                return freed
        if got == variants.turn_order(b, first, stop_early=True):
            return ("a player with nothing left to grow into just skips its turn: keep going "
                    "until a whole round adds nothing for anybody, not until one player stops")
        if got == variants.turn_order(b, first, down=True):
            return (f"the turns go up from `first` and wrap round: {_turns(b, first)} here "
                    f"(yours seem to go down)")
        if got == variants.turn_order(b, first, one_square=True):
            return ("on its turn a player grows its whole frontier, every square it gained in "
                    "its previous turn, by one step: not one square per turn")
        if b.n_players == 2 and all(alive) and tuple(got) == variants.territory(b):
            return ("ties are not neutral here: in each round the player who expands earlier "
                    "takes a square both could reach")
        return None


def _dead_heads_freed(board, got, first) -> str | None:
    """The hint when ``got`` is the expansion with the dead players' head squares free."""
    flat = board.flat.copy()
    dead = [p for p in range(board.n_players) if not board.alive[p]]
    for p in dead:
        flat[int(board.heads[p])] = FREE
    heads = [int(h) for h in board.heads]
    counts, _ = reference.turn_order_territory(flat, heads, [bool(a) for a in board.alive],
                                               first, board.stride)
    if got != list(counts):
        return None
    x, y = board.xy(heads[dead[0]])
    return (f"({x}, {y}) is the head of player {dead[0]}, who is dead (board.alive[{dead[0]}] "
            f"is False): a dead player does not expand, but its head square stays blocked, "
            f"like its trail, so nobody can take it")


def _turns(board, first) -> str:
    n = board.n_players
    return ", ".join(f"player {(first + i) % n}" for i in range(n))
