"""The quick bot (plain Python) against the compiled bots it copies.

* its filler move is the greedy filler kernel's move (tronlab.tron.spacefill), on
  random boards, from every living head;
* with two players whose heads can meet, its move is the ``voronoi`` bot's;
* with 3-4 players its score is "squares I reach strictly first minus squares
  another reaches strictly first", checked against BFS distances;
* it always answers a legal move when there is one, and never imports numba.
"""

import subprocess
import sys

from aot_support import child_env
from hypothesis import given, settings
from strategies import EXAMPLES, boards

from tronlab import Board, get_bot
from tronlab.grid.reference import bfs_distances
from tronlab.jit.clock import deadline_after
from tronlab.tron.bots.quick import QuickBot, _multi_territory, filler_move
from tronlab.tron.bots.search import VoronoiBot
from tronlab.tron.evaluate import is_separated
from tronlab.tron.spacefill import greedy_move


@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards())
def test_filler_move_is_the_greedy_filler_kernels(board):
    for p in range(board.n_players):
        if board.alive[p]:
            grid = board.flat.tolist()
            assert filler_move(grid, int(board.heads[p]), board.stride) == greedy_move(board, p)
            assert grid == board.flat.tolist()


@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(max_players=2))
def test_two_player_move_is_the_voronoi_bots(board):
    if is_separated(board):
        return
    voronoi = VoronoiBot()
    for p in (0, 1):
        if len(board.legal_moves(p)) > 1:
            want = voronoi.choose(board, p, deadline_after(10))
            assert QuickBot()(board, p) == want


def _oracle(flat, me, others, stride):
    mine = bfs_distances(flat, me, stride)
    theirs = [bfs_distances(flat, h, stride) for h in others]
    score = 0
    for sq in range(len(mine)):
        if flat[sq]:
            continue
        d = mine[sq] if mine[sq] >= 0 else 10**9
        e = min((t[sq] for t in theirs if t[sq] >= 0), default=10**9)
        score += (d < e) - (e < d)
    return score


@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(min_players=3, max_players=4))
def test_many_player_score_counts_squares_reached_first(board):
    grid = board.flat.tolist()
    me = int(board.heads[0])
    others = [int(h) for h in board.heads[1:]]
    assert _multi_territory(grid, me, others, board.stride) == _oracle(grid, me, others,
                                                                       board.stride)


@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(dead=True))
def test_always_a_legal_move(board):
    bot = get_bot("quick")
    for p in range(board.n_players):
        move = bot(board, p)
        legal = board.legal_moves(p)
        assert move in (legal or [0, 1, 2, 3])


def test_it_fights_then_fills():
    board = Board.from_ascii("""
        1....
        .....
        ....2
    """)
    bot = QuickBot()
    bot(board, 0)
    assert bot.last_stats["mode"] == "territory"
    apart = Board.from_ascii("""
        1..#.
        ...#.
        ...#2
    """)
    assert bot(apart, 0) in (1, 2) and bot.last_stats["mode"] == "filler"


def test_no_numba():
    code = ("import sys; from tronlab import get_bot, load_builtin, play; "
            "play(load_builtin('arena'), [get_bot('quick'), get_bot('quick')], rng=0); "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=child_env(TRONLAB_AOT="0"))
    assert out.stdout.strip() == "False", out.stderr


def test_quick_beats_random():
    from tronlab import load_builtin, play
    wins = 0
    for seed in range(6):
        rec = play(load_builtin("arena"), [get_bot("quick"), get_bot("random", rng=seed)],
                   rng=seed)
        wins += rec.outcome.winner == 0
    assert wins >= 5
