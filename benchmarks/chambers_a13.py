r"""A13 in play: the chamber bot with and without counting the space given up at a battlefront.

    .venv/bin/python benchmarks/chambers_a13.py [--maps 100] [--depth 3] [--size 20]

Both bots search to a fixed depth (no clock, so the result does not depend on the machine's
load) with an endgame of at most 2 plies; each random point-symmetric map is played from both
seats.  Prints W-D-L from the A13 side, the exact sign test of the decided games and a verdict
(clear at p < 0.01), and the same for the chamber bot against the Voronoi minimax bot as a
yardstick.  Notebook 05 quotes the output (the same again in session 24; fixed depth, so
only the seconds change with the machine):

    chamber+A13 v chamber: depth 3, 100 random 20x20 maps x 2 seats: W-D-L 74-54-72, sign p 0.934 (not clear); 25 s
    chamber v minimax: depth 3, 100 random 20x20 maps x 2 seats: W-D-L 132-37-31, sign p 4.84e-16 (clear); 19 s

The same question through the project's arena (stored games, ratings, the per-pair table);
at a fixed depth its games are the same on every run (measured twice on 2 shared cores after
the arena's fixed depth stopped being a cap under the clock, 2026-11-30; 4 min at load 5):

    tronlab arena run --bots chamber+penalize_battlefront=true+endgame_depth=2 \
        chamber+endgame_depth=2 --maps random:100 --depth 3 --db a13.sqlite
    chamber+A13 v chamber: 200 games, W-D-L 63-63-74, score 47% +- 6, sign p 0.39, unclear
"""  # noqa: E501 - the output lines are quoted as printed

from __future__ import annotations

import argparse
import time

import numpy as np

from tronlab import play, random_map
from tronlab.arena.stats import sign_test
from tronlab.tron.bots.search import ChamberBot, MinimaxBot


def duel(make_a, make_b, maps, size, seed):
    rng = np.random.default_rng(seed)
    won = drawn = lost = 0
    for m in range(maps):
        w, d, l = both_seats(random_map(size, size, rng=rng), make_a, make_b, m)
        won, drawn, lost = won + w, drawn + d, lost + l
    return won, drawn, lost


def both_seats(board, make_a, make_b, seed):
    """``(won, drawn, lost)`` of the bot ``make_a()`` makes over both seatings of ``board``."""
    won = drawn = lost = 0
    for seat in (0, 1):
        bots = [make_a(), make_b()]
        if seat:
            bots.reverse()
        winner = play(board, bots, rng=seed).outcome.winner
        if winner is None:
            drawn += 1
        elif winner == seat:
            won += 1
        else:
            lost += 1
    return won, drawn, lost


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", type=int, default=100)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--size", type=int, default=20)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args(argv)
    d = args.depth
    pairs = {
        "chamber+A13 v chamber": (
            lambda: ChamberBot(depth=d, endgame_depth=2, penalize_battlefront=True),
            lambda: ChamberBot(depth=d, endgame_depth=2)),
        "chamber v minimax": (lambda: ChamberBot(depth=d, endgame_depth=2),
                              lambda: MinimaxBot(depth=d)),
    }
    for name, (a, b) in pairs.items():
        t0 = time.perf_counter()
        w, dr, lo = duel(a, b, args.maps, args.size, args.seed)
        p = sign_test(w, lo)
        print(f"{name}: depth {d}, {args.maps} random {args.size}x{args.size} maps x 2 seats: "
              f"W-D-L {w}-{dr}-{lo}, sign p {p:.3g} ({'clear' if p < 0.01 else 'not clear'}); "
              f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
