"""How late the search bots answer on big maps (issue 11, defect 7).

    python benchmarks/lateness.py [--sizes 30 100 200 300] [--times 0.05 0.1]
                                  [--bots chamber minimax voronoi] [--moves 8] [--seed 1]

For every map size N, a random point-symmetric N x N map (``mapgen.random_map``,
5% walls) is played by two copies of the bot for ``--moves`` turns, each bot
asked in the same process the way the engine asks it (``start_game`` with the
time limit, then ``bot(board, player)``).  Every answer is timed with
``time.perf_counter``; printed per size, bot and time limit: the worst answer
time, the worst *lateness* (answer time minus the time limit: above 0 the
engine would score a loss on time) and the worst overshoot of the bot's own
plan (answer time minus :meth:`budget`).  The first move of a game has the
limit x3 in the engine and a quarter of the plan in the bot; it is counted
against the plain limit here, which is stricter.

This is a measurement, not a test: the machine's load shows in the numbers.
The deadline test in ``tests/test_lateness.py`` checks the property with margin.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from tronlab.runner.registry import get_bot
from tronlab.tron.mapgen import random_map
from tronlab.tron.rules import get_rules


def measure(bot_name: str, size: int, limit: float, moves: int, seed: int):
    """(worst answer s, worst lateness s, worst overshoot of the plan s, moves timed)."""
    rng = np.random.default_rng(seed)
    board = random_map(size, size, density=0.05, rng=rng)
    bots = [get_bot(bot_name, time=limit) for _ in range(2)]
    for p, bot in enumerate(bots):
        bot.start_game(board.copy(), p, rules="google2010", time_limit=limit,
                       rng=np.random.default_rng(seed + p))
    worst = late = over = 0.0
    timed = turn = 0
    for _ in range(moves):
        chosen = []
        for p, bot in enumerate(bots):
            plan = bot.budget() if hasattr(bot, "budget") else limit
            t0 = time.perf_counter()
            chosen.append(bot(board.copy(), p))
            took = time.perf_counter() - t0
            worst, late, over = max(worst, took), max(late, took - limit), max(over, took - plan)
            timed += 1
        board, turn = _step(board, chosen, turn)
        if board is None:
            break
    return worst, late, over, timed


def _step(board, moves, turn):
    nxt = board.copy()
    get_rules("google2010").apply(nxt, list(moves), turn=turn)
    return (nxt if nxt.alive.all() else None), turn + 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[30, 100, 200, 300])
    ap.add_argument("--times", type=float, nargs="+", default=[0.05, 0.1])
    ap.add_argument("--bots", nargs="+", default=["chamber", "minimax", "voronoi"])
    ap.add_argument("--moves", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for name in args.bots:      # compile (or load the cache) before any clock runs
        get_bot(name, time=0.05)
    print(f"{'bot':<8} {'map':>7} {'limit':>6} {'moves':>5} {'worst ms':>9} "
          f"{'late ms':>8} {'over plan ms':>12}")
    for size in args.sizes:
        for name in args.bots:
            for limit in args.times:
                worst, late, over, n = measure(name, size, limit, args.moves, args.seed)
                print(f"{name:<8} {size:>3}x{size:<3} {limit:>6.2f} {n:>5} {1000 * worst:>9.1f} "
                      f"{1000 * late:>8.1f} {1000 * over:>12.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
