"""Which position features tell the Light Riders winner early?  A study for a learned evaluation.

    python benchmarks/eval_features.py [--games 1600] [--first-seed 1000] [--jobs 2]

``nash`` and ``chamber`` are level under the Light Riders rules at a fixed time a
move (``nash_strength.py``), and session 26 found those games won in the middle
game, by a lead the chamber evaluation sees building some turns before the players
separate.  An evaluation that saw it sooner would be worth turns of search, so
before building one in a kernel this script asks whether any cheap feature, or a
fitted mix, predicts the winner better than a1k0n's chamber form does.

1. Plays ``--games`` Light Riders games (``lightriders_board(rng=seed)``, 16x16)
   between bots drawn from a pool of fixed-depth searchers (``nash`` at depth 2 and 3,
   ``nash`` sampling its equilibrium, ``chamber`` at depth 2 and 3, ``minimax`` at
   depth 3; the pool and the sampling make the games differ).  The fixed depth makes
   the play before the separation the same on any machine; after it the endgame
   solver thinks against the clock (0.2 s a move), so a few results may differ.
2. Takes every position from the third board on while the heads can still meet,
   with the game's result for player 0 as its label (+1, 0, -1).
3. Features from player 0's side, each a difference mine - theirs: ``dNc``/``dEc``
   the chamber-tree squares and edges (A12), ``dNv`` the Voronoi squares (A4),
   ``dPar`` the checkerboard-parity bound of a walk through my Voronoi squares
   (A10's count, ignoring their shape), ``dSafe`` the squares I reach 3 or more
   moves before the other head (or it never does), ``dMob`` the free squares next
   to the head.
4. Least-squares mixes fitted on the even-numbered games; every score judged on the
   odd ones by how often its sign names the winner of a decided game (a tie scores
   half), overall and by how many turns before the separation the position is (before
   the end, when the heads never separate).

Measured (session 29, ``--games 1600 --jobs 2``, 3 minutes; 1144 games decided,
130,493 positions, 41,911 of them in the decided test games)::

    score                           all    0-5   6-15  16-30  31-60    61+   turns before
    a1k0n chamber 0.055/0.194     0.749  0.959  0.859  0.777  0.728  0.641   separation
    dNc                           0.746  0.960  0.859  0.769  0.734  0.629
    dEc                           0.747  0.955  0.849  0.778  0.726  0.641
    dNv                           0.690  0.892  0.766  0.707  0.674  0.605
    dPar                          0.689  0.892  0.763  0.706  0.673  0.605
    dSafe                         0.687  0.843  0.773  0.724  0.683  0.575
    dMob                          0.509  0.626  0.591  0.501  0.474  0.491
    fit dNc+dEc                   0.748  0.960  0.852  0.774  0.731  0.640
    fit dNc+dEc+dPar              0.754  0.959  0.872  0.785  0.734  0.639
    fit dNc+dEc+dSafe             0.746  0.960  0.852  0.775  0.730  0.633
    fit dNc+dEc+dMob              0.743  0.946  0.859  0.763  0.724  0.640
    fit (all six)                 0.745  0.937  0.890  0.773  0.724  0.622
    dNc + 0.05 dEc                0.747  0.961  0.856  0.774  0.734  0.628
    dNc + 0.2 dEc                 0.746  0.954  0.855  0.772  0.733  0.630
    dNc + 0.5 dEc                 0.748  0.962  0.854  0.774  0.733  0.635

(A first version of this study, on other seeds and 1 s a move for the endgame,
gave the same picture: the chamber form 0.761, every mix 0.758-0.764.)  Nothing
beats the chamber form by more than half a point: the chamber squares alone, the
edges alone and every fitted mix land within 0.005 of it, while the Voronoi count
is six points worse (the reason ``chamber`` beats ``minimax``).  The features a
tree of chambers does not see - parity, safe margins, mobility - add nothing a
linear mix can use.  So a learned *linear* evaluation over these features is no
route to a stronger bot; what the chamber form misses needs depth or a richer
model of the board.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from tronlab import get_bot, lightriders_board, play  # noqa: E402
from tronlab.grid.voronoi import bfs_distances, owner_map  # noqa: E402
from tronlab.tron.chambers import chamber_score  # noqa: E402
from tronlab.tron.evaluate import is_separated  # noqa: E402

POOL = (("nash", {"depth": 2}), ("nash", {"depth": 3}), ("nash", {"depth": 3, "sample": True}),
        ("chamber", {"depth": 2}), ("chamber", {"depth": 3}), ("minimax", {"depth": 3}))
NAMES = ("dNc", "dEc", "dNv", "dPar", "dSafe", "dMob")
BUCKETS = ((0, 5), (6, 15), (16, 30), (31, 60), (61, 10**6))
SAFE = 3          # moves ahead of the other head for a square to count as safe


def walk_bound(mask, colour, head_colour) -> int:
    """Longest alternating walk the squares of ``mask`` allow by colour alone: it
    starts on the colour that is not the head's and alternates."""
    a = int((mask & (colour != head_colour)).sum())
    b = int((mask & (colour == head_colour)).sum())
    return 2 * min(a, b) + (1 if a > b else 0)


def features(board) -> list[int]:
    """The six differences, player 0's side."""
    cs = chamber_score(board, 0)
    free, owner = board.cells == 0, owner_map(board)
    mine, theirs = free & (owner == 0), free & (owner == 1)
    d0, d1 = bfs_distances(board, 0), bfs_distances(board, 1)
    ys, xs = np.indices(board.cells.shape)
    colour = (ys + xs) % 2
    (x0, y0), (x1, y1) = (board.head_xy(p) for p in (0, 1))
    safe0 = (mine & ((d1 < 0) | (d1 - d0 >= SAFE))).sum()
    safe1 = (theirs & ((d0 < 0) | (d0 - d1 >= SAFE))).sum()
    mob = [len(board.legal_moves(p)) for p in (0, 1)]
    return [cs.n_me - cs.n_opp, cs.e_me - cs.e_opp, int(mine.sum() - theirs.sum()),
            walk_bound(mine, colour, colour[y0, x0]) - walk_bound(theirs, colour, colour[y1, x1]),
            int(safe0 - safe1), mob[0] - mob[1]]


def one_game(seed):
    """The game's result for player 0 and its rows ``[game, turns before separation,
    result, *features]``."""
    rng = np.random.default_rng(seed)
    i, j = rng.integers(len(POOL), size=2)
    bots = [get_bot(POOL[k][0], time=0.2, rng=seed + s, **POOL[k][1])
            for s, k in enumerate((i, j))]
    rec = play(lightriders_board(rng=seed), bots, rules="lightriders", rng=seed)
    w = rec.outcome.winner
    label = 0 if w is None else (1 if w == 0 else -1)
    boards = []
    for board in rec.boards():
        if not board.alive.all() or is_separated(board):
            break
        boards.append(board)
    return label, [[seed, len(boards) - k, label, *features(b)]
                   for k, b in enumerate(boards) if k >= 2]


def accuracy(score, label) -> float:
    """How often the sign of ``score`` names the winner (a zero scores half; nan
    for no positions)."""
    if score.size == 0:
        return float("nan")
    return float(((np.sign(score) == label) + 0.5 * (score == 0)).mean())


def report(name, score, rows, test):
    before, label = rows[:, 1], rows[:, 2]
    decided = test & (label != 0)
    cells = [accuracy(score[decided], label[decided])]
    for lo, hi in BUCKETS:
        m = decided & (before >= lo) & (before <= hi)
        cells.append(accuracy(score[m], label[m]))
    print(f"{name:<28}" + "".join(f"{c:>7.3f}" for c in cells))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1600)
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if args.games < 2 or args.jobs < 1:
        ap.error("--games must be at least 2 and --jobs at least 1")

    t0 = time.perf_counter()
    seeds = range(args.first_seed, args.first_seed + args.games)
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            games = pool.map(one_game, seeds, chunksize=8)
    else:
        games = [one_game(s) for s in seeds]
    rows = np.array([r for _, g in games for r in g], float)
    label, x = rows[:, 2], rows[:, 3:]
    test = rows[:, 0] % 2 == 1
    decided = sum(result != 0 for result, _ in games)
    print(f"{args.games} games in {time.perf_counter() - t0:.0f} s, {decided} decided, "
          f"{len(rows)} positions ({int((test & (label != 0)).sum())} in decided test games)\n")
    print(f"{'score':<28}{'all':>7}" + "".join(f"{f'{lo}-{hi}' if hi < 10**6 else f'{lo}+':>7}"
                                              for lo, hi in BUCKETS))
    report("a1k0n chamber 0.055/0.194", 0.055 * x[:, 0] + 0.194 * x[:, 1], rows, test)
    for k, name in enumerate(NAMES):
        report(name, x[:, k], rows, test)
    for cols in ((0, 1), (0, 1, 3), (0, 1, 4), (0, 1, 5), tuple(range(6))):
        w, *_ = np.linalg.lstsq(x[~test][:, cols], label[~test], rcond=None)
        name = "(all six)" if len(cols) == 6 else "+".join(NAMES[c] for c in cols)
        report("fit " + name, x[:, cols] @ w, rows, test)
    for r in (0.05, 0.2, 0.5):
        report(f"dNc + {r} dEc", x[:, 0] + r * x[:, 1], rows, test)


if __name__ == "__main__":
    main()
