"""A dead player's head may be a placeholder on the wall border (the CodinGame and Light
Riders clients give flat index 0 to a player never seen alive; Board allows it).  Every
function that starts from a player's head refuses it in one clear line; before, the
kernels searched from the border past the grid's end (a corrupted heap or a segfault,
so the calls run in a child process), or answered from square 0 (bfs_distances)."""

import subprocess
import sys

import pytest

import tronlab
from tronlab.tron.evaluate import evaluate

_DEAD_AT_ZERO = r'''
import tronlab
from tronlab.tron.longest_path import longest_path
calls = {
    "bfs_distances": lambda b: tronlab.bfs_distances(b, 2),
    "bucket_distances": lambda b: tronlab.bucket_distances(b, 2),
    "flood_fill": lambda b: tronlab.flood_fill(b, 2),
    "fill_bound": lambda b: tronlab.fill_bound(b, 2),
    "greedy_move": lambda b: tronlab.greedy_move(b, 2),
    "fill_length": lambda b: tronlab.fill_length(b, 2),
    "fill_path": lambda b: tronlab.fill_path(b, 2),
    "solve_endgame": lambda b: tronlab.solve_endgame(b, 2),
    "longest_path": lambda b: longest_path(b, 2),
    "territory": lambda b: tronlab.territory(b, (0, 2)),
    "owner_map": lambda b: tronlab.owner_map(b, (2, 1)),
    "is_separated": lambda b: tronlab.is_separated(b, (0, 2)),
    "chamber_score": lambda b: tronlab.chamber_score(b, 0, opponent=2),
    "chamber_tree": lambda b: tronlab.chamber_tree(b, 2, opponent=1),
}
for name, call in calls.items():
    b = tronlab.Board.from_ascii("1...\n....\n..3.\n...2")
    b.cells[b.cells == 4] = 0           # player 2's trail removed, its head a placeholder
    b.heads[2], b.alive[2] = 0, False
    for _ in range(50):                 # a heap corrupted once may only show later
        try:
            call(b)
            print(name, "accepted")
            break
        except ValueError as e:
            if "is dead and its head (flat index 0) is not on the playing area" not in str(e):
                print(name, e)
                break
    else:
        print(name, "refused")
'''


def test_a_dead_player_with_a_placeholder_head_is_refused_by_every_function_from_a_head():
    out = subprocess.run([sys.executable, "-c", _DEAD_AT_ZERO], capture_output=True,
                         text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert len(lines) == 14 and all(line.endswith(" refused") for line in lines), out.stdout


def test_a_dead_players_head_on_the_board_is_still_searched_from():
    b = tronlab.Board.from_ascii("1...\n....\n..C.\n...2")     # player 2 died where it stands
    assert tronlab.flood_fill(b, 2) == 13 and tronlab.territory(b, (0, 2)).n1 > 0


@pytest.mark.parametrize("search", [
    lambda b, p: tronlab.negamax(b, p, depth=2),
    lambda b, p: tronlab.Searcher().search(b, p, max_depth=2),
    lambda b, p: evaluate(b, p),
])
@pytest.mark.parametrize("player", [0, 1])
def test_a_two_player_search_refuses_a_finished_game(search, player):
    # before: value 0 (a draw) for a game player 0 has won
    b = tronlab.Board.from_ascii("1...\n....\n...B")
    with pytest.raises(ValueError, match="player 1 is dead: the game is over"):
        search(b, player)


def test_a_head_on_any_side_of_the_wall_border_is_refused_and_any_corner_square_is_not():
    from tronlab.tron.board import check_head
    b = tronlab.Board.from_ascii("1...\n....\n..3.\n...2")
    b.cells[b.cells == 4] = 0
    b.alive[2] = False
    # (x, y) in padded coordinates: the playing area is x 1..4, y 1..4 of this 4x4 grid
    for x, y in ((0, 2), (5, 2), (2, 0), (2, 5), (5, 5)):
        b.heads[2] = y * b.stride + x
        with pytest.raises(ValueError, match=f"flat index {y * b.stride + x}"):
            check_head(b, 2)
    for x, y in ((1, 1), (4, 1), (1, 4), (4, 4)):
        b.heads[2] = y * b.stride + x
        assert check_head(b, 2) == 2
