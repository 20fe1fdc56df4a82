"""The arena's speed: games per second at a fixed depth with 1 and 2 worker processes,
and the arena's own cost per game against a bare ``play()`` loop.

    python benchmarks/arena.py [--games 60] [--depth 3] [--size 20] [--repeats 3]

The plan is a round robin of minimax, voronoi and filler on seeded random maps
(SIZExSIZE), both seats, at a fixed depth, so every way of running plays the
very same games (checked: the outcomes are compared).  Four timings:

``bare``      the games in this process with ``engine.play`` and nothing else
              (boards and bots made as the arena makes them);
``arena -j1`` :func:`tronlab.arena.run` in this process, writing each game to a
              fresh SQLite database (one transaction a game);
``pool 1/2``  the same through a process pool of 1 and 2 workers (the workers'
              start and numba cache loading are timed separately and not
              counted in the rate).

Each timing is the best of ``--repeats`` runs (load only ever slows a run
down).  The overhead per game is measured on games so short they hardly count
(random v hugger on 10x10 maps, 200 games): ``(arena - bare) / games`` is
what the arena adds - the record's JSON, the database write (one transaction
a game), the bookkeeping.  On two cores two
workers should be close to twice one worker when nothing else runs; on a
shared machine the ratio shows how much of the second core the run got.

Measured in session 50 (2026-11-30), 2 cores shared with a browser and other
jobs, load average 2.7, by ``python benchmarks/arena.py --repeats 1`` (the
default plan: 60 games)::

    60 games, depth 3, 20x20 random maps, load average 2.7; same outcomes every way: True
    way           seconds  games/s
    bare             4.11     14.6
    arena -j1        4.30     14.0
    pool 1           4.34     13.8
    pool 2           4.66     12.9
    arena overhead on 200 short games (random v hugger, 10x10): bare 3.87 ms a game,
    arena 10.81 ms: 6.93 ms a game
    2 workers / 1 worker: 0.93x (worker start and warm-up: 1.0 s for 1, 1.8 s for 2, not counted)

An audit's run of the same command the same day printed 9.03 ms a game of
overhead, so 7-9 ms here.  (The figure quoted before, 1.67 ms a game from 90
games at load 15.7, is not what the script measures today.)  A profile of the
200 short games (load 1.3: bare 3.98 ms, arena 10.30 ms a game) puts most of
the difference in the engine's clock, not the store: ``bare`` plays without a
time limit, the arena with one, and under a limit each move of an in-process
bot runs in a thread the engine can abandon if it hangs (about 0.2 ms a move,
24 moves a game); the record's JSON and one SQLite transaction with a full sync
are about 1 ms.  The overhead is about a
tenth of a depth-3 game on 20x20 maps (70 ms a game in ``bare``) and small
next to games at real time limits (0.1 s a move and more).  Two workers were
no faster than one on this shared machine: rerun on an idle one for the ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tronlab.arena import Store, process_pool, round_robin, run  # noqa: E402
from tronlab.arena.bots import make_bot  # noqa: E402
from tronlab.arena.maps import make_board  # noqa: E402
from tronlab.arena.play import warm_up  # noqa: E402
from tronlab.runner.engine import play  # noqa: E402

BOTS = ["minimax", "voronoi", "filler"]


def plan_of(games, depth, size):
    maps = max(1, games // 6)
    return round_robin(BOTS, f"random:{maps}:{size}x{size}", depth=depth, time=1.0)


def bare(plan):
    out = {}
    t0 = time.perf_counter()
    for spec in plan:
        board = make_board(spec.game, spec.map, 2)
        bots = [make_bot(b, spec.game, time=spec.time, depth=spec.depth, rng=k)
                for k, b in enumerate(spec.bots)]
        rec = play(board, bots, rules=spec.game, rng=spec.seed)
        out[spec.key] = (rec.outcome.winner, rec.outcome.turns)
    return time.perf_counter() - t0, out


def arena(plan, executor=None):
    with tempfile.TemporaryDirectory() as tmp, Store(os.path.join(tmp, "b.sqlite")) as store:
        t0 = time.perf_counter()
        run(plan, store, executor=executor, progress=False)
        seconds = time.perf_counter() - t0
        return seconds, {r["key"]: (r["winner"], r["turns"]) for r in store.rows()}


def best(fn, repeats):
    """The fastest of ``repeats`` timings (a busy machine only ever slows a run down)."""
    runs = [fn() for _ in range(repeats)]
    return min(t for t, _ in runs), runs[0][1]


def pooled(plan, jobs, repeats):
    t0 = time.perf_counter()
    pool = process_pool(jobs, warm=BOTS)
    list(pool.map(abs, range(jobs * 4)))            # workers started and warmed
    start = time.perf_counter() - t0
    try:
        seconds, out = best(lambda: arena(plan, pool), repeats)
    finally:
        pool.shutdown()
    return start, seconds, out


def overhead(repeats):
    """Milliseconds a game the arena adds, on games so short that they hardly count:
    random v hugger on 10x10 maps (about a millisecond a game)."""
    small = round_robin(["random", "hugger"], "random:100:10x10", time=1.0)
    t_bare, _ = best(lambda: bare(small), repeats)
    t_arena, _ = best(lambda: arena(small), repeats)
    return len(small), t_bare, t_arena


def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--size", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3, help="timings of each; the best counts")
    args = ap.parse_args(argv)
    plan = plan_of(args.games, args.depth, args.size)
    warm_up(BOTS)
    n = len(plan)
    t_bare, ref = best(lambda: bare(plan), args.repeats)
    t_one, got_one = best(lambda: arena(plan), args.repeats)
    s1, t_p1, got_p1 = pooled(plan, 1, args.repeats)
    s2, t_p2, got_p2 = pooled(plan, 2, args.repeats)
    small, o_bare, o_arena = overhead(args.repeats + 2)
    same = ref == got_one == got_p1 == got_p2
    print(f"{n} games, depth {args.depth}, {args.size}x{args.size} random maps, "
          f"load average {os.getloadavg()[0]:.1f}; same outcomes every way: {same}")
    print(f"{'way':<12}{'seconds':>9}{'games/s':>9}")
    for name, t in (("bare", t_bare), ("arena -j1", t_one), ("pool 1", t_p1), ("pool 2", t_p2)):
        print(f"{name:<12}{t:>9.2f}{n / t:>9.1f}")
    print(f"arena overhead on {small} short games (random v hugger, 10x10): bare "
          f"{1000 * o_bare / small:.2f} ms a game, arena {1000 * o_arena / small:.2f} ms: "
          f"{1000 * (o_arena - o_bare) / small:.2f} ms a game")
    print(f"2 workers / 1 worker: {t_p1 / t_p2:.2f}x (worker start and warm-up: "
          f"{s1:.1f} s for 1, {s2:.1f} s for 2, not counted)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
