"""Exercises of notebook 01, space filling (A1, A10): the greedy filler's move and the
checkerboard parity bound on the longest fill."""

from __future__ import annotations

from ..grid import reference
from ..tron.board import FREE, MOVE_NAMES, Board
from ..tron.values import is_whole
from . import variants
from .answers import (CELLS_INDEX, as_count, as_move, edge_mistake, player_cases, square_name,
                      trail_start_hint)
from .boards import TINY, TINY_TRAIL_FIRST, random_cases, tiny_cases
from .checker import Case, Exercise, WrongType


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
    "parity beats size": """
        #.#..
        ..#..
        #.2..
        ...1#
    """,
    "keep it in one piece": """
        2..#.
        #..1#
        .....
    """,
    "corridor with a pocket": """
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
    "every move cuts": """
        ...
        .1.
        .2.
    """,
    "count from the target": """
        .#2.
        ..1.
    """,
    "against a trail": """
        aaaa.
        ...1.
        .....
        2....
    """,
    # the bound's edges (next board: more of the other colour, 2 * same + 1, no more): down's
    # side behind (3, 1) has as many of each colour (2 * other)
    "as many of each colour": """
        ...1#
        #.#..
        .2..#
    """,
    "more of the other colour": """
        #....
        ..1#2
        ....#
    """,
}


#: boards where the player in the key has no legal move: every move loses, any of 0-3 is right
TINY_STUCK = {
    ("boxed in", 0): """
        #1#..
        #a...
        ....2
    """,
    ("the other head is in the way", 0): """
        .#1#.
        ..2..
    """,
    ("boxed in", 1): """
        1....
        ...a.
        ..a2#
        ...##
    """,
}


class GreedyMove(Exercise):
    function = "greedy_move"
    index_hint = CELLS_INDEX
    parameters = ("board", "player")
    returns = "a move, an int 0-3"
    hint = ("rank each move by (space, keeps the region in one piece, fewest free neighbours), "
            "where space is 1 + the parity bound of the best side behind the target square")

    def cases(self):
        def has_move(b, p=0):
            return bool(b.legal_moves(p))
        tiny = tiny_cases(TINY_FILL) + tiny_cases(TINY)
        # player 1 after player 0: a function that passes for player 0 but ignores `player`
        # fails there; the boxed-in boards last, once the ranking itself is right
        return [Case(c.label, c.board, (0,)) for c in tiny if has_move(c.board)] + [
            Case(c.label, c.board, (0,)) for c in random_cases(
                102, 40, sizes=((3, 3), (10, 8)), density=(0.1, 0.4), trail=(2, 10),
                keep=has_move)] + [
            Case(f"{c.label}, player 1", c.board, (1,)) for c in tiny if has_move(c.board, 1)] + [
            Case(f"tiny: {name}, player {p}", Board.from_ascii(text), (p,))
            for (name, p), text in TINY_STUCK.items()]

    @staticmethod
    def stuck(case) -> bool:
        """Whether the player has no legal move on ``case`` (then any move 0-3 is right)."""
        return not case.board.legal_moves(case.args[0])

    def stuck_hint(self, case) -> str:
        p = case.args[0]
        return (f"player {p} is boxed in here: board.legal_moves({p}) is empty. Every move "
                f"loses, but a bot must still answer with a move, so return one anyway "
                f"(0, up, will do); None or -1 is not a move, and the game counts it as an "
                f"illegal answer")

    def none_hint(self, case):
        return self.stuck_hint(case) if self.stuck(case) else None

    def crash_hint(self, case, err):
        return self.stuck_hint(case) if self.stuck(case) else None

    def convert(self, value, case):
        try:
            return as_move(value)
        except WrongType:
            if self.stuck(case) and is_whole(value):
                raise WrongType(self.stuck_hint(case)) from None
            raise

    def expected(self, case):
        if self.stuck(case):
            return [0, 1, 2, 3]
        return variants.greedy_choices(case.board, case.args[0])

    def show(self, value, case):
        if isinstance(value, list):
            if self.stuck(case):
                return "any move 0-3: none is legal, every move loses"
            return " or ".join(f"{m} ({MOVE_NAMES[m]})" for m in value)
        return f"{value} ({MOVE_NAMES[value]})"

    def same(self, want, got, case):
        return got in want

    def diagnose(self, case, got, want):
        b, p = case.board, case.args[0]
        if p != 0 and b.legal_moves(0) and got in variants.greedy_choices(b, 0):
            return (f"{MOVE_NAMES[got]} is player 0's greedy move: work from "
                    f"board.heads[player], the head of the player you were given ({p})")
        target = int(b.heads[p] + b.offsets[got])
        if b.flat[target] != FREE:
            return (f"{MOVE_NAMES[got]} runs into {square_name(b, target)}, which is not free "
                    f"({_blocked_by(b, target)}): only squares holding 0 can be entered "
                    f"(board.legal_moves(player) lists the moves that stay on them)")
        best = want[0]
        space_g, whole_g, _ = variants.move_key(b, p, got)
        space_b, whole_b, _ = variants.move_key(b, p, best)
        name_g, name_b = MOVE_NAMES[got], MOVE_NAMES[best]
        slip = _bound_slip(b, p, got, best)
        measure = space_g < space_b and _measure_hint(b, p, got, best, slip)
        if measure:
            return measure
        if slip:
            return (f"by the parity bound {name_g} allows at most {space_g} moves and {name_b} "
                    f"{space_b}, but your numbers put {name_g} first: {slip}")
        if space_g < space_b:
            if not whole_g:
                return (f"{name_g} enters {square_name(b, target)}, which cuts your region in "
                        f"pieces, and from there you can go into one of them only: its room is "
                        f"the best piece's, {space_g} moves, while {name_b} allows {space_b}. "
                        f"Measure a cutting move by its best side alone (not all sides together, "
                        f"not the smallest)")
            return (f"{name_b} allows up to {space_b} moves, {name_g} only {space_g}: most "
                    f"space first")
        t = int(b.heads[p] + b.offsets[best])
        if whole_b and not whole_g:
            return (f"{name_g} and {name_b} allow the same number of moves, but "
                    f"{square_name(b, target)} is a cut vertex: entering it splits your region. "
                    f"Prefer the move that keeps the region in one piece: {square_name(b, t)} "
                    f"is no cut vertex, its free neighbours still reach each other without it "
                    f"(they are one side, not one side each)")
        return (f"{name_g} and {name_b} are equally good on space, but {name_b} goes to a square "
                f"with {_free(variants.free_neighbours(b, t))} and {name_g} to one with "
                f"{_free(variants.free_neighbours(b, target))}: hug the walls (fewest free "
                f"neighbours)")


def _measure_hint(b, p, got, best, slip) -> str | None:
    """The hint when ``got`` allows fewer moves than ``best`` because each side was measured
    the wrong way (and a slip in the bound's formula, if one also plays ``got``)."""
    (space_g, _, _), (space_b, _, _) = (variants.move_key(b, p, m) for m in (got, best))
    name_g, name_b = MOVE_NAMES[got], MOVE_NAMES[best]
    also = f" Or, if you do so already, check the bound's formula: {slip}" if slip else ""
    relative = ("count each side's colours relative to the target square t, where "
                "the path into the side starts (its first square there is of the "
                "other colour than t), not relative to your head")
    if got in variants.greedy_choices(b, p, diagonal=True):
        return (f"by the parity bound {name_g} allows at most {space_g} moves and "
                f"{name_b} {space_b}: squares that touch only at a corner are not "
                f"neighbours, so flood each side up, right, down and left only (through "
                f"corners, two sides run together and a cut goes unseen)" + also)
    if got in variants.greedy_choices(b, p, count_target=True):
        return (f"by the parity bound {name_g} allows at most {space_g} moves and "
                f"{name_b} {space_b}: measure each side as fill_bound does from a head, "
                f"with the target square t as the start and t itself not counted" + also)
    by_head = got in variants.greedy_choices(b, p, head_colour=True)
    if got in variants.greedy_choices(b, p, parity=False):
        return (f"counted in squares {name_g} looks at least as good, but a path "
                f"alternates colours: by the parity bound {name_g} allows at most "
                f"{space_g} moves and {name_b} {space_b}. Measure each side with the "
                f"bound, as fill_bound does" + (f" ({relative})" if by_head else "")
                + also)
    if by_head:
        return (f"by the parity bound {name_g} allows at most {space_g} moves and "
                f"{name_b} {space_b}: {relative}")
    return None


def _bound_slip(board, player, got, best) -> str | None:
    """What the first of variants.BOUND_SLIPS that plays ``got`` gets wrong, on a side."""
    slip = next((f for f in variants.BOUND_SLIPS
                 if got in variants.greedy_choices(board, player, bound=f)), None)
    move, t, o, same = next(((m, t, o, s) for m in (got, best) if slip
                             for t in [int(board.heads[player] + board.offsets[m])]
                             for o, s in variants.side_counts(board, t)
                             if slip(o, s) != variants.path_bound(o, s)), (None,) * 4)
    if move is None:
        return None
    right, name = variants.path_bound(o, same), square_name(board, t)
    side = (f"the side behind t = {name} ({MOVE_NAMES[move]}) has {o} square"
            f"{'' if o == 1 else 's'} of the other colour than t and {same} of t's colour")
    rule = (f"as many of each, so the path ends on t's colour after 2 * other = {right} moves: "
            "the extra square needs strictly more of the other colour (other > same, not >=)"
            if o == same else f"more of the other colour, so all {same} of t's colour and one "
            f"more: 2 * same + 1 = {right}" if o > same else
            f"fewer of the other colour, which runs out first: 2 * other = {right}")
    return f"{side}, {rule}"


def _blocked_by(board: Board, index: int) -> str:
    """What stands on a square that is not free, in words."""
    code = int(board.flat[index])
    if code < 2:
        return "a wall" if board.inside(*board.xy(index)) else "the wall round the board"
    p = code - 2
    return f"player {p}'s head" if int(board.heads[p]) == index else f"player {p}'s trail"


def _free(n: int) -> str:
    return f"{n} free neighbour" + ("" if n == 1 else "s")


#: fill_bound's first board: player 0 reaches more squares of its head's colour than of the
#: other, where each mistake in the formula (and walking over trails) gives a number of its own;
#: player 1 is boxed in (bound 0), so an answer with player 0's bound is named as one there.
#: Each head comes before its trail in reading order: a search for the first square holding
#: 2 + player finds the head here, and a trail instead on the next board
TINY_BOUND = {
    "more of the head's colour": """
        ##.##
        #..12
        .#.a#
    """,
}


class FillBound(Exercise):
    function = "fill_bound"
    index_hint = CELLS_INDEX
    parameters = ("board", "player")
    returns = "an int: the most moves the parity argument allows"
    hint = ("colour squares like a chessboard by (x + y) % 2; a path alternates colours, first "
            "a square of the other colour than the head; count both colours among the squares the "
            "head can reach (head not included)")

    def cases(self):
        tiny = tiny_cases(TINY_BOUND) + tiny_cases(TINY) + tiny_cases(TINY_TRAIL_FIRST)
        return player_cases(tiny) + player_cases(
            random_cases(101, 40, sizes=((2, 2), (12, 9)), players=(2, 3), density=(0.0, 0.4)),
            every=False)

    def convert(self, value, case):
        return as_count(value, "the bound", many="leave out the colour counts it is "
                        "worked out from", whole="the bound is a whole number of "
                        "moves, so use // rather than /")

    def expected(self, case):
        b = case.board
        return _bound_from(b, int(b.heads[case.args[0]]))

    def diagnose(self, case, got, want):
        b, p = case.board, case.args[0]
        other, same = variants.colour_counts(b, p)
        counts = (f"player {p}'s head reaches {other + same} free square"
                  f"{'' if other + same == 1 else 's'}: {other} of the other colour than its own "
                  f"square and {same} of its colour") if other + same else (
                  f"player {p} is boxed in: its head reaches no free square")
        # a region cut short at the board's edge can give a formula mistake's number: then
        # both are named, the formula's first
        edge = edge_mistake(b, got, lambda short: _bound_from(short, int(short.heads[p])))
        formula = _bound_formula(b, p, got, other, same)
        if formula and edge:
            formula += f". If your formula is right, look at the squares you counted: {edge}"
        why = (_bound_player_0(b, p, got) or _bound_trail_start(b, p, got)
               or _bound_counting(b, p, got, _COLOURING) or formula or edge
               or _bound_counting(b, p, got))
        return f"{counts}. {why or self.hint}"


#: mistakes in counting the squares before the bound: (options of variants.colour_counts, hint)
_COUNTING = [
    ({"diagonal": True}, "squares that touch only at a corner are not neighbours: a player "
                         "moves up, right, down or left"),
    ({"walls_only": True}, "trails and heads are not free: only squares holding 0 can be on "
                           "the path, so the flood fill must stop at trails too"),
    ({"everywhere": True}, "that counts every free square of the board: count only the ones "
                           "the head can reach (a flood fill from the head)"),
]
#: mistakes in colouring the squares, tried before the formula's (their numbers are not the
#: formula's own, so a coincidence would be one of a colouring gone wrong)
_COLOURING = [
    ({"colour_of": "flat"}, "the parity of a flat index is not the square's colour: when "
                            "board.stride is even, index % 2 ignores the row. Use (x + y) % 2, "
                            "or sum(divmod(index, board.stride)) % 2"),
    ({"colour_of": "width"}, "a flat index is row * board.stride + column: divmod(index, "
                             "board.stride) gives (row, column), divmod by board.width does "
                             "not (the stride is the width plus the two border columns)"),
]


def _bound_formula(board, player, got, other, same) -> str | None:
    """The hint when ``got`` is the bound worked out wrong from the right colour counts."""
    want = variants.path_bound(other, same)
    if got == other + same:
        return ("that is the whole region; a path must alternate colours, so it uses at most "
                "one more square of the head's other colour than of its own")
    if got == variants.path_bound(other, same + 1):
        return "you counted the head square: it is already used, count only the squares after it"
    if got == max(2 * same + 1, 2 * other):       # with other == same: >= for >
        return ("the bound is 2 * same + 1 when other > same, else 2 * other: " + (
            f"with {same} of each colour the path ends on the head's, after 2 * other = {want} "
            f"moves; the extra square needs other > same, not >=" if other == same else
            "the colour that runs out first ends the path, so it is never the larger of the two"))
    odd = variants.colour(board, int(board.heads[player]))
    relative = (" (and count the colours relative to the head's square, which is odd here, not "
                "as even or odd)" if odd else "")
    if other > same and got == 2 * same:
        return (f"with more squares of the other colour, a path can use all {same} of the "
                f"head's colour and one more of the other: 2 * {same} + 1 = {want}{relative}")
    if got == 2 * other + 1 and same >= other:
        return ("the extra square exists only if there are more squares of the *other* colour "
                "than the head's: the first move always goes to the other colour")
    if got == variants.path_bound(same, other):
        return ("the first step goes to a square of the other colour than the head (x + y "
                "changes by one each move)" + relative)
    return None


def _bound_player_0(board, player, got) -> str | None:
    if player != 0 and got == variants.path_bound(*variants.colour_counts(board, 0)):
        return (f"that is player 0's bound: start from board.heads[player], the head of the "
                f"player you were given ({player})")
    return None


def _bound_from(board, start) -> int:
    return reference.fill_bound(board.flat, start, board.stride)[0]


def _bound_trail_start(board, player, got) -> str | None:
    start = variants.first_of_trail(board, player)
    if start != int(board.heads[player]) and got == _bound_from(board, start):
        return trail_start_hint(board, player)
    return None


def _bound_counting(board, player, got, mistakes=None) -> str | None:
    """The hint when ``got`` is the bound from colour counts made the wrong way."""
    for options, text in _COUNTING if mistakes is None else mistakes:
        if got == variants.path_bound(*variants.colour_counts(board, player, **options)):
            return text
    return None
