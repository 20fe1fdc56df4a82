"""What saddle-point pruning (L2) and move ordering (L6) save in the Nash search.

    python benchmarks/nash_search.py [--depth 4] [--boards 4]

Fixed-depth searches (``depth`` turns, territory at the cutoff) of the opening
position and of a position ten random-ish turns in, on Light Riders boards,
with pruning and ordering switched off and on.  Ordering needs iterative
deepening to have something to order by, so every row deepens from 1 to
``depth`` and counts all iterations.  Prints nodes, matrices, the share settled
by a saddle point, by a window cut-off and by a real solve (the rest are
single moves or decided by the solver's cheap cases), cells never searched,
hint hits and time; the values must agree.

Measured again in session 50 (2026-11-30; 2 cores shared, load about 3; the
node counts are deterministic, only the seconds move), as printed by
``python benchmarks/nash_search.py`` and ``... --depth 6``::

    depth 4              nodes  matrices  saddle    cut  solved   skipped    hints  seconds
    full matrix          54119      8039   95.9%   0.0%    4.1%         0        0     0.35
    saddle pruning       13269      3002   38.5%  59.7%    1.8%      8928        0     0.10
    pruning + ordering    3583      1103   17.6%  80.2%    2.2%      4836      908     0.04
    depth 6
    full matrix        2446987    380598   96.3%   0.0%    3.7%         0        0    25.45
    saddle pruning      303082     69748   36.2%  62.3%    1.5%    197364        0     1.86
    pruning + ordering   23465      8314    8.5%  90.8%    0.7%     36725     6677     0.15

Saddle-point pruning (L2) saves 4.1x the nodes at depth 4 and 8.1x at depth
6; ordering by the previous iteration's probabilities and the hint table (L6)
saves a further 3.7x and 12.9x (104x in all at depth 6, 25 s to 0.15 s).  The
table quoted here before (commit 4113e78, 2026-11-25, load 8-12) had 15501 and
4346 nodes at depth 4, 414686 and 32649 at depth 6 (3.5x, 3.6x; 5.9x, 12.7x): the pruned
searches have visited fewer nodes since; the full matrix is unchanged.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tronlab import lightriders_board  # noqa: E402
from tronlab.tron import nash_search as ts  # noqa: E402
from tronlab.tron.nash_searcher import NashSearcher  # noqa: E402
from tronlab.tron.rules import get_rules  # noqa: E402

MODES = (("full matrix", False, False), ("saddle pruning", True, False),
         ("pruning + ordering", True, True))


def positions(count, rng):
    """Opening positions and the same boards after ten turns of random legal moves."""
    rules = get_rules("lightriders")
    out = []
    for _ in range(count):
        board = lightriders_board(rng=rng)
        out.append(board.copy())
        for turn in range(1, 11):
            moves = []
            for p in (0, 1):
                legal = board.legal_moves(p)
                moves.append(int(rng.choice(legal)) if legal else 0)
            rules.apply(board, moves, turn=turn)
            if not board.alive.all():
                break
        if board.alive.all() and board.legal_moves(0) and board.legal_moves(1):
            out.append(board)
    return out


def run(boards, depth, prune, ordering):
    stats = np.zeros(ts.N_STATS, np.int64)
    values = []
    t0 = time.perf_counter()
    for board in boards:
        s = NashSearcher(prune=prune, ordering=ordering)
        prior = None
        for d in range(1, depth + 1):
            v, prior, _ = s.search_depth(board, 0, d, prior=prior, stats=stats)
        values.append(v)
    return stats, values, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    boards = positions(args.boards, np.random.default_rng(args.seed))
    NashSearcher().search_depth(boards[0], 0, 1)            # compile / load the cache
    print(f"{len(boards)} positions, iterative deepening to depth {args.depth}")
    print(f"{'mode':<20} {'nodes':>10} {'matrices':>9} {'saddle':>7} {'cut':>6} {'solved':>7} "
          f"{'skipped':>9} {'hints':>8} {'seconds':>8} {'nodes/s':>9}")
    reference = None
    for name, prune, ordering in MODES:
        st, values, secs = run(boards, args.depth, prune, ordering)
        if reference is None:
            reference = values
        assert np.allclose(values, reference, rtol=1e-9, atol=1e-9), (name, values, reference)
        mats = max(1, st[ts.S_MATRICES])
        print(f"{name:<20} {st[ts.S_NODES]:>10} {mats:>9} {st[ts.S_SADDLE] / mats:>7.1%} "
              f"{st[ts.S_CUTS] / mats:>6.1%} {st[ts.S_SOLVED] / mats:>7.1%} "
              f"{st[ts.S_SKIPPED]:>9} {st[ts.S_HINTS]:>8} {secs:>8.2f} "
              f"{st[ts.S_NODES] / secs:>9.0f}")


if __name__ == "__main__":
    main()
