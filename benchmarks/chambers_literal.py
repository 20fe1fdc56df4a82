r"""A12 as written v A12 as tronlab builds it: each literal reading alone in play.

    .venv/bin/python benchmarks/chambers_literal.py [--flags 1 2 4 8] [--maps 100] [--depth 3]

``chambers.py`` departs from a1k0n's write-up in four choices; ``literal=F``
(a ``LITERAL_*`` flag of :mod:`tronlab.tron.chambers`) switches one back.  For
each flag: chamber+literal=F v chamber, both at a fixed depth with an endgame of
at most 2 plies (no clock, so the machine's load does not matter), on random
point-symmetric maps from both seats - the protocol of ``chambers_a13.py``.
Prints W-D-L from the literal side every ``--every`` maps and at the end, with
the exact sign test of the decided games and a verdict (clear at p < 0.01).
Run one process per flag to use several cores.  Notebook 05 quotes the output.

Measured on 2 shared cores (one process per flag, nice 10; about 2 min per
100 maps with four running), W-D-L from the literal side:

    --maps 100 (seed 13):
    literal=1 (ties)    W-D-L 78-58-64,    sign p 0.275   (not clear; ahead: literal)
    literal=2 (front)   W-D-L 60-52-88,    sign p 0.0261  (not clear; ahead: package)
    literal=4 (no_stay) W-D-L 72-54-74,    sign p 0.934   (not clear; ahead: package)
    literal=8 (n_only)  W-D-L 66-62-72,    sign p 0.671   (not clear; ahead: package)
    --maps 400 --seed 2026:
    literal=1 (ties)    W-D-L 289-231-280, sign p 0.737   (not clear; ahead: literal)
    literal=2 (front)   W-D-L 242-207-351, sign p 8.72e-06 (clear; ahead: package)
    literal=4 (no_stay) W-D-L 268-234-298, sign p 0.223   (not clear; ahead: package)
    literal=8 (n_only)  W-D-L 280-232-288, sign p 0.769   (not clear; ahead: package)
    --maps 200 --seed 7 --density 0.1 (the arena's wall density):
    literal=1 (ties)    W-D-L 143-122-135, sign p 0.675   (not clear; ahead: literal)
    literal=2 (front)   W-D-L 107-113-180, sign p 1.94e-05 (clear; ahead: package)
    literal=4 (no_stay) W-D-L 134-112-154, sign p 0.263   (not clear; ahead: package)
    literal=8 (n_only)  W-D-L 159-99-142,  sign p 0.356   (not clear; ahead: literal)

The same through the arena (its own 100 random maps, density 0.1; measured again on
2026-11-30, once its fixed depth stopped being a cap under the clock: the same every run):

    tronlab arena run --bots chamber+literal=F+endgame_depth=2 chamber+endgame_depth=2 \
        --maps random:100 --depth 3 --db literalF.sqlite
    F=1: 81-57-62 p 0.13 unclear;  F=2: 47-50-103 p 5.6e-06 clear (package ahead);
    F=4: 44-63-93 p 3.4e-05 clear (package ahead);  F=8: 64-70-66 p 0.93 unclear
    (no timeouts, crashes or bad output in the 800 games)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from chambers_a13 import both_seats
from tronlab import random_map
from tronlab.arena.stats import sign_test
from tronlab.tron.bots.search import ChamberBot
from tronlab.tron.chambers import LITERAL_NAMES

NAMES = {bit: name for name, bit in LITERAL_NAMES.items()}


def line(flag, depth, maps, size, won, drawn, lost, seconds):
    p = sign_test(won, lost)
    verdict = "clear" if p < 0.01 else "not clear"
    better = "literal" if won > lost else "package" if lost > won else "neither"
    return (f"literal={flag} ({NAMES.get(flag, flag)}) v chamber: depth {depth}, {maps} random "
            f"{size}x{size} maps x 2 seats: W-D-L {won}-{drawn}-{lost}, sign p {p:.3g} "
            f"({verdict}; ahead: {better}); {seconds:.0f} s")


def run(flag, maps, depth, size, seed, every, density=0.15):
    rng = np.random.default_rng(seed)
    won = drawn = lost = 0
    t0 = time.perf_counter()
    for m in range(maps):
        board = random_map(size, size, density=density, rng=rng)
        w, d, l = both_seats(board, lambda: ChamberBot(depth=depth, endgame_depth=2, literal=flag),
                             lambda: ChamberBot(depth=depth, endgame_depth=2), m)
        won, drawn, lost = won + w, drawn + d, lost + l
        if (m + 1) % every == 0 or m + 1 == maps:
            print(line(flag, depth, m + 1, size, won, drawn, lost, time.perf_counter() - t0),
                  flush=True)
    return won, drawn, lost


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flags", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--maps", type=int, default=100)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--size", type=int, default=20)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--density", type=float, default=0.15,
                    help="wall density of the maps (the arena's random maps use 0.1)")
    ap.add_argument("--every", type=int, default=10, help="print the running count every N maps")
    args = ap.parse_args(argv)
    for flag in args.flags:
        run(flag, args.maps, args.depth, args.size, args.seed, args.every, args.density)


if __name__ == "__main__":
    main()
