r"""A9 at full size: fit K1, K2 from a few thousand seeded games and test the fit in play.

    .venv/bin/python benchmarks/learn_weights.py [--games 3000] [--maps 60] [--depth 3]

1. Plays ``--games`` seeded games between fast tronlab bots (voronoi, filler and a
   depth-1 minimax) on random point-symmetric maps of 12x12 to 21x21.
2. Finds each game's separation turn and fits ``moves0 - moves1 ~ K1*dN + K2*dE``
   on three quarters of the games (:mod:`tronlab.tron.learn`); reports the
   held-out error of the fit and of a1k0n's published 0.055 / 0.194.
3. Plays a depth-``--depth`` alpha-beta bot with the linear evaluation and the
   fitted weights against the same bot with the published weights on ``--maps``
   random 20x20 maps, both seats: W-D-L from the fitted side, the exact sign
   test of the decided games, and a verdict (clear at p < 0.01).

Notebook 06 runs a small version of steps 1-2 and quotes this script's output with
``--maps 100`` (reproduced in session 24; the games are seeded and the duel searches a fixed
depth, so only the seconds change with the machine):

    3000 games in 53 s, 2477 separated
    correlation of dN and dE: 0.9971
    fit on 1857: K1 = -0.0992, K2 = 0.2912, training rms 8.52
    held-out rms error (620 games): fitted 8.30, published 15.32 moves
    fitted v published, depth 3, 100 random 20x20 maps x 2 seats: W-D-L 81-51-68, sign p 0.326 (not clear); 14 s

Step 3 through the project's arena, with the weights this script fitted (2 shared cores, 4
min at load 5; measured again on 2026-11-30, once the arena's fixed depth stopped being a cap
under the clock, so every run now gives these numbers):

    tronlab arena run --bots minimax+evaluation=linear+k1=-0.0992+k2=0.2912+endgame_depth=2 \
        minimax+evaluation=linear+k1=0.055+k2=0.194+endgame_depth=2 --maps random:100 \
        --depth 3 --db learn.sqlite
    fitted v published: 200 games, W-D-L 75-49-76, score 50% +- 6, sign p 1.0, unclear
"""  # noqa: E501 - the output lines are quoted as printed

from __future__ import annotations

import argparse
import time

import numpy as np

from chambers_a13 import both_seats
from tronlab import get_bot, play, random_map
from tronlab.arena.stats import sign_test
from tronlab.tron.bots.search import SearchBot
from tronlab.tron.learn import fit_weights, prediction_error, samples_from_records

PUBLISHED = (0.055, 0.194)
POOL = ("voronoi", "filler", "minimax1")


def pool_bot(name):
    if name == "minimax1":
        return get_bot("minimax", depth=1)
    return get_bot(name)


def make_games(n, seed):
    rng = np.random.default_rng(seed)
    records = []
    for g in range(n):
        w, h = (int(v) for v in rng.integers(12, 22, size=2))
        board = random_map(w, h, rng=rng, density=float(rng.uniform(0.02, 0.2)))
        a, b = rng.choice(len(POOL), 2)
        records.append(play(board, [pool_bot(POOL[a]), pool_bot(POOL[b])], rng=g))
    return records


def duel(weights_a, weights_b, maps, depth, seed):
    """W-D-L of a linear alpha-beta bot with ``weights_a`` against ``weights_b``."""
    rng = np.random.default_rng(seed)
    w = d = lost = 0
    for m in range(maps):
        a, b = ([lambda k1=k1, k2=k2: SearchBot(evaluation="linear", k1=k1, k2=k2, depth=depth,
                                                  endgame_depth=2)
                 for k1, k2 in (weights_a, weights_b)])
        won, drawn, lost_here = both_seats(random_map(20, 20, rng=rng), a, b, m)
        w, d, lost = w + won, d + drawn, lost + lost_here
    return w, d, lost


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--maps", type=int, default=60)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2010)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    records = make_games(args.games, args.seed)
    samples = samples_from_records(records)
    cut = len(samples) * 3 // 4
    fit = fit_weights(samples[:cut])
    held = samples[cut:]
    x = np.array([[s.dn, s.de] for s in samples], float)
    print(f"{args.games} games in {time.perf_counter() - t0:.0f} s, {len(samples)} separated")
    print(f"correlation of dN and dE: {np.corrcoef(x.T)[0, 1]:.4f}")
    print(f"fit on {fit.n}: K1 = {fit.k1:.4f}, K2 = {fit.k2:.4f}, training rms {fit.rmse:.2f}")
    fitted = prediction_error(held, fit.k1, fit.k2)
    print(f"held-out rms error ({len(held)} games): fitted {fitted:.2f}"
          f", published {prediction_error(held, *PUBLISHED):.2f} moves")

    t0 = time.perf_counter()
    w, d, lost = duel((fit.k1, fit.k2), PUBLISHED, args.maps, args.depth, args.seed + 1)
    p = sign_test(w, lost)
    verdict = "clear" if p < 0.01 else "not clear"
    print(f"fitted v published, depth {args.depth}, {args.maps} random 20x20 maps x 2 seats: "
          f"W-D-L {w}-{d}-{lost}, sign p {p:.3g} ({verdict}); {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
