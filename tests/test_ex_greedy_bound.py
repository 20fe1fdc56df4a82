"""check_greedy_move against slips in the parity bound's formula: a reviewer's greedy_move with
``other >= same`` passed every board.  Each one-character slip of the bound must fail, with a
hint that names the bound's formula (not a cut vertex or the walls)."""

import pytest

from tronlab.course import check_fill_bound, check_greedy_move
from tronlab.tron.board import FREE, Board

RIGHT = "2 * same + 1 if other > same else 2 * other"
SLIPS = [
    "2 * same + 1 if other >= same else 2 * other",   # the reviewer's
    "2 * same + 1 if other + 1 > same else 2 * other",
    "2 * same + 1 if other == same else 2 * other",
    "2 * same + 1 if other < same else 2 * other",
    "2 * same + 1 if other <= same else 2 * other",
    "2 * same + 1 if same > other else 2 * other",
    "2 * same if other > same else 2 * other",
    "2 * same + 1 if other > same else 2 * other + 1",
    "2 * same - 1 if other > same else 2 * other",
    "2 * same + 2 if other > same else 2 * other",
    "3 * same + 1 if other > same else 2 * other",
    "2 * same + 1 if other > same else 2 + other",
    "2 * same + 1 if other > same else 3 * other",
]


def _region(board, start, seen):
    """The free squares reached from free square ``start`` avoiding ``seen`` (which grows)."""
    piece, todo = {start}, [start]
    seen.add(start)
    while todo:
        here = todo.pop()
        for step in board.offsets:
            nxt = here + int(step)
            if board.flat[nxt] == FREE and nxt not in seen:
                seen.add(nxt)
                piece.add(nxt)
                todo.append(nxt)
    return piece


def _sides(board, square):
    """The pieces the free squares next to ``square`` fall into when it is blocked."""
    seen, pieces = {square}, []
    for step in board.offsets:
        start = square + int(step)
        if board.flat[start] == FREE and start not in seen:
            pieces.append(_region(board, start, seen))
    return pieces


def greedy_with(formula):
    """A learner's greedy_move, right but for the bound's formula."""
    bound = eval(f"lambda other, same: {formula}")

    def greedy_move(board, player):
        def colour(q):
            return sum(divmod(q, board.stride)) % 2
        head, best = int(board.heads[player]), (None, 0)
        for move in board.legal_moves(player):
            target = head + int(board.offsets[move])
            pieces, room = _sides(board, target), 0
            for piece in pieces:
                same = sum(1 for q in piece if colour(q) == colour(target))
                room = max(room, bound(len(piece) - same, same))
            free = sum(1 for st in board.offsets if board.flat[target + int(st)] == FREE)
            key = (1 + room, len(pieces) < 2, -free)
            if best[0] is None or key > best[0]:
                best = (key, move)
        return best[1]
    return greedy_move


def test_the_right_formula_passes():
    assert check_greedy_move(greedy_with(RIGHT)).status == "passed"


@pytest.mark.parametrize("formula", SLIPS)
def test_a_slip_in_the_bound_fails_with_a_hint_on_the_formula(formula):
    result = check_greedy_move(greedy_with(formula))
    assert result.status == "wrong answer", formula
    assert "check the bound's formula" in result.hint or "your numbers put" in result.hint, (
        formula, result.hint)


def test_equal_counts_are_named():
    result = check_greedy_move(greedy_with(SLIPS[0]))
    assert "as many of each" in result.hint and "not >=" in result.hint, result.hint


def test_the_reviewers_board_plays_down():
    board = Board.from_ascii("""
        #######
        #.##..#
        ##1..##
        ##..2##
        #..##.#
        #######
    """)
    assert greedy_with(RIGHT)(board, 0) == 2
    assert greedy_with(SLIPS[0])(board, 0) == 1


def test_fill_bound_with_greater_or_equal_is_named():
    """fill_bound's hint for the same slip was "never the larger of the two"."""
    def fill_bound(board, player):
        start = int(board.heads[player])
        seen = _region(board, start, set()) - {start}
        same = sum(1 for q in seen if sum(divmod(q, board.stride)) % 2
                   == sum(divmod(start, board.stride)) % 2)
        other = len(seen) - same
        return 2 * same + 1 if other >= same else 2 * other
    result = check_fill_bound(fill_bound)
    assert result.status == "wrong answer" and "not >=" in result.hint, result.hint
