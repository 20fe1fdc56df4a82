"""A quick strength check of the ``nash`` bot under the Light Riders rules.

    python benchmarks/nash_strength.py [--opponents minimax,chamber] [--boards 5]
        [--time 0.05] [--nash-options '{"sample": true}']

Each opponent plays ``nash`` on ``--boards`` seeded Light Riders starts
(``lightriders_board(rng=seed)``), once from each seat, every bot thinking
``--time`` seconds a move (the engine allows twice that).  Prints wins, draws
and losses of ``nash`` per opponent.  Small and noisy: a sanity check, not a
rating (see ``benchmarks/strength.py`` for the real round robin).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tronlab import get_bot, lightriders_board, play  # noqa: E402


def one_game(seed, seat, opponent, think, options):
    bots = [None, None]
    bots[seat] = get_bot("nash", time=think, **options)
    bots[1 - seat] = get_bot(opponent, time=think)
    rec = play(lightriders_board(rng=seed), bots, rules="lightriders", rng=seed,
               time_limit=2 * think, first_time_limit=10 * think)
    w = rec.outcome.winner
    return ("D" if w is None else "W" if w == seat else "L"), rec.outcome.turns


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opponents", default="minimax,chamber")
    ap.add_argument("--boards", type=int, default=5)
    ap.add_argument("--time", type=float, default=0.05)
    ap.add_argument("--nash-options", default="{}")
    args = ap.parse_args(argv)
    options = json.loads(args.nash_options)
    for opponent in args.opponents.split(","):
        tally = {"W": 0, "D": 0, "L": 0}
        t0 = time.perf_counter()
        for seed in range(args.boards):
            for seat in (0, 1):
                result, turns = one_game(seed, seat, opponent, args.time, options)
                tally[result] += 1
                print(f"  {opponent} seed {seed} seat {seat}: {result} in {turns} turns",
                      flush=True)
        print(f"nash vs {opponent}: {tally['W']}-{tally['D']}-{tally['L']} (W-D-L), "
              f"{time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
