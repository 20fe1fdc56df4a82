"""Playing strength: a round robin of the Tron bots on the Google AI Challenge 2010 maps.

    python benchmarks/strength.py [--bots chamber,minimax,voronoi,filler,random]
        [--pairs ladder|all] [--maps NAME,...] [--time S] [--results FILE] [--fresh]

Every pair plays every map twice, once from each seat (player 1 and player 2),
under the google2010 rules, each bot thinking ``--time`` seconds a move (the
engine allows twice that before it calls a timeout, so machine noise does not
decide games; timeouts are still counted and shown).  ``--pairs ladder`` plays
only neighbours on the ladder (chamber-minimax, minimax-voronoi, ...) plus the
top bot against the third; ``all`` plays every pair.

Results go to a JSON-lines file as games finish (default
``benchmarks/strength_results.jsonl``); running again skips the games already
there (resumable), ``--fresh`` starts over.  At the end: W/D/L of every pair
(from the first bot's side) and points per bot (win 1, draw 1/2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
MAPS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "maps", "google2010"))
DEFAULT_BOTS = "chamber,minimax,voronoi,filler,random"
DEFAULT_MAPS = "apocalyptic,big-room,center,divider,joust,keyhole,playground,box,quadrant,ring"

import tronlab.bots.search_bots  # noqa: E402,F401  (registers the search bots)
from tronlab.bots import get_bot  # noqa: E402
from tronlab.engine import play  # noqa: E402
from tronlab.maps import load_map  # noqa: E402

try:
    import tronlab.bots.filler  # noqa: E402,F401
except ImportError:
    pass


def pairs_of(bots, how):
    if how == "all":
        return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]
    ladder = [(bots[i], bots[i + 1]) for i in range(len(bots) - 1)]
    if len(bots) >= 3:
        ladder.append((bots[0], bots[2]))
    if len(bots) >= 5:
        ladder.append((bots[2], bots[4]))
    return ladder


def play_one(a, b, map_name, seconds, seed):
    board = load_map(os.path.join(MAPS, f"{map_name}.txt"))
    bots = [get_bot(a, time=seconds), get_bot(b, time=seconds)]
    t0 = time.perf_counter()
    rec = play(board, bots, rules="google2010", rng=seed, time_limit=2 * seconds,
               first_time_limit=6 * seconds, names=[a, b])
    out = rec.outcome
    return {"p1": a, "p2": b, "map": map_name, "time": seconds,
            "winner": None if out.winner is None else [a, b][out.winner],
            "turns": out.turns, "deaths": list(out.deaths),
            "seconds": round(time.perf_counter() - t0, 2)}


def load_results(path):
    done = []
    if os.path.exists(path):
        with open(path) as f:
            done = [json.loads(line) for line in f if line.strip()]
    return done


def table(results, pairs):
    print(f"\n{'pair':<26}{'W':>4}{'D':>4}{'L':>4}   (from the first bot's side; both seats)")
    points = defaultdict(float)
    games = defaultdict(int)
    for a, b in pairs:
        w = d = l = 0
        for r in results:
            if {r["p1"], r["p2"]} != {a, b}:
                continue
            if r["winner"] is None:
                d += 1
            elif r["winner"] == a:
                w += 1
            else:
                l += 1
        print(f"{a + ' v ' + b:<26}{w:>4}{d:>4}{l:>4}")
    for r in results:
        for name in (r["p1"], r["p2"]):
            games[name] += 1
            if r["winner"] is None:
                points[name] += 0.5
            elif r["winner"] == name:
                points[name] += 1
    print(f"\n{'bot':<14}{'points':>8}{'games':>7}")
    for name in sorted(points, key=lambda n: -points[n] / games[n]):
        print(f"{name:<14}{points[name]:>8.1f}{games[name]:>7}")
    timeouts = sum(1 for r in results for d in r["deaths"] if d == "timeout")
    print(f"\ntimeouts: {timeouts} in {len(results)} games")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default=DEFAULT_BOTS)
    ap.add_argument("--pairs", choices=("ladder", "all"), default="ladder")
    ap.add_argument("--maps", default=DEFAULT_MAPS, help="comma-separated names, or 'all'")
    ap.add_argument("--time", type=float, default=0.05, help="seconds per move (default 0.05)")
    ap.add_argument("--results", default=os.path.join(HERE, "strength_results.jsonl"))
    ap.add_argument("--fresh", action="store_true", help="forget earlier results")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    maps = (sorted(f[:-4] for f in os.listdir(MAPS) if f.endswith(".txt"))
            if args.maps == "all" else args.maps.split(","))
    pairs = pairs_of(bots, args.pairs)
    if args.fresh and os.path.exists(args.results):
        os.remove(args.results)
    results = [r for r in load_results(args.results) if r.get("time") == args.time]
    done = {(r["p1"], r["p2"], r["map"]) for r in results}
    todo = [(x, y, m) for a, b in pairs for m in maps for x, y in ((a, b), (b, a))
            if (x, y, m) not in done]
    print(f"{len(results)} games already played, {len(todo)} to play "
          f"({args.time} s a move, {len(maps)} maps, {len(pairs)} pairs)")
    for i, (x, y, m) in enumerate(todo):
        r = play_one(x, y, m, args.time, seed=i)
        results.append(r)
        with open(args.results, "a") as f:
            f.write(json.dumps(r) + "\n")
        print(f"[{i + 1}/{len(todo)}] {m:<12} {x} v {y}: "
              f"{'draw' if r['winner'] is None else r['winner'] + ' wins'} "
              f"in {r['turns']} turns ({r['seconds']} s) {r['deaths']}", flush=True)
    table(results, pairs)


if __name__ == "__main__":
    sys.exit(main())
