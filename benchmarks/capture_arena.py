"""Strength of the Back to the Code bots (issue 17): 2-player sign tests and 3-4 player rankings.

    python benchmarks/capture_arena.py ladder [--games N] [--seed S] [--out FILE]
    python benchmarks/capture_arena.py back [--games N] ...
    python benchmarks/capture_arena.py multi [--games N] ...
    python benchmarks/capture_arena.py table FILE...

``ladder``  each bot against the one before it (random, nearest, rectangles,
            paths) and paths against nearest, 2 players, seats alternating;
``back``    each BACK variant against the same bot without BACK, and the
            opponent model's other turn order against the write-up's;
``multi``   all four bots in one 4-player game, and nearest, rectangles,
            paths in 3-player games, seats rotated through every order
            in turn; mean rank and firsts per bot.

Games are played in-process on the 35x20 grid with point-symmetric starts,
untimed (the bots do a fixed amount of work a turn: the path bot 30,000
nodes); each game's seed is drawn from ``--seed``.  Every game is appended
to ``--out`` as a JSON line, so an interrupted run keeps what it played;
``table`` prints the tables from such files.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tronlab.capture.arena import sign_test  # noqa: E402
from tronlab.capture.game import play_capture  # noqa: E402
from tronlab.capture.starts import as_rng  # noqa: E402

LADDER = [("nearest", "random"), ("rectangles", "nearest"), ("paths", "rectangles"),
          ("paths", "nearest")]
BACK = [("rectangles-back", "rectangles"), ("rectangles-block", "rectangles"),
        ("paths-back", "paths"), ("paths-block", "paths"), ("paths-same", "paths")]
MULTI = [("random", "nearest", "rectangles", "paths"), ("nearest", "rectangles", "paths")]


def play(names, seed):
    t0 = time.perf_counter()
    rec = play_capture(list(names), rng=seed)
    o = rec.outcome
    return {"bots": list(names), "seed": seed, "scores": o["scores"], "ranks": o["ranks"],
            "reason": o["reason"], "rounds": o["round"], "turns": o["turns"],
            "seconds": round(time.perf_counter() - t0, 2), "notes": rec.notes[:3],
            "backs": [e for e in rec.events if e[3] == "back"]}


def run_pairs(pairs, games, seed, out):
    rng = as_rng(seed)
    for a, b in pairs:
        for k in range(games):
            names = (a, b) if k % 2 == 0 else (b, a)
            row = play(names, int(rng.integers(2**31)))
            row["kind"] = "pair"
            _write(out, row)


def run_multi(groups, games, seed, out):
    rng = as_rng(seed)
    for group in groups:
        orders = list(itertools.permutations(group)) if len(group) == 3 else \
            [group[k:] + group[:k] for k in range(len(group))]
        for k in range(games):
            row = play(orders[k % len(orders)], int(rng.integers(2**31)))
            row["kind"] = "multi"
            _write(out, row)


def _write(out, row):
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    print(row["bots"], row["scores"], row["reason"], row["seconds"], "s", flush=True)


def pair_table(rows) -> str:
    tally = defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0])
    for r in rows:
        if r["kind"] != "pair":
            continue
        a, b = r["bots"]
        hero = next(x for x, y in LADDER + BACK if {x, y} == {a, b})
        i = r["bots"].index(hero)
        t = tally[(hero, (set(r["bots"]) - {hero}).pop())]
        t[0] += 1
        t[1] += r["ranks"][i] == 1 and r["ranks"][1 - i] != 1
        t[2] += r["ranks"][0] == r["ranks"][1]
        t[3] += r["ranks"][i] == 2
        t[4] += r["scores"][i]
        t[5] += r["scores"][1 - i]
        t[6] += r["seconds"] / max(r["turns"], 1)
    lines = ["| bot | against | games | won | drawn | lost | p (sign test) | verdict "
             "| mean squares (against) | ms/turn (game) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (a, b), (n, w, d, l, s1, s2, ms) in tally.items():
        p = sign_test(w, l)
        verdict = "clear" if p < 0.01 and w > l else ("lost" if p < 0.01 else "unclear")
        lines.append(f"| {a} | {b} | {n} | {w} | {d} | {l} | {p:.2g} | {verdict} | "
                     f"{s1 / n:.0f} ({s2 / n:.0f}) | {1000 * ms / n:.1f} |")
    return "\n".join(lines)


def multi_table(rows) -> str:
    out = []
    for size in (4, 3):
        stats = defaultdict(lambda: [0, 0, 0.0, 0.0])
        games = [r for r in rows if r["kind"] == "multi" and len(r["bots"]) == size]
        if not games:
            continue
        for r in games:
            for i, name in enumerate(r["bots"]):
                s = stats[name]
                s[0] += 1
                s[1] += r["ranks"][i] == 1
                s[2] += r["ranks"][i]
                s[3] += r["scores"][i]
        out.append(f"{size} players, {len(games)} games (seats rotated)\n")
        out.append("| bot | games | first | mean rank | mean squares |\n|---|---|---|---|---|")
        by_mean_rank = sorted(stats.items(), key=lambda kv: kv[1][2] / kv[1][0])
        for name, (n, first, rank, score) in by_mean_rank:
            out.append(f"| {name} | {n} | {first} | {rank / n:.2f} | {score / n:.0f} |")
        out.append("")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["ladder", "back", "multi", "table"])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--out", default="benchmarks/results/capture_arena.jsonl")
    args = ap.parse_args(argv)
    if args.what == "table":
        rows = [json.loads(line) for f in args.files for line in open(f, encoding="utf-8")]
        print(pair_table(rows))
        print()
        print(multi_table(rows))
        return 0
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    if args.what == "ladder":
        run_pairs(LADDER, args.games, args.seed, args.out)
    elif args.what == "back":
        run_pairs(BACK, args.games, args.seed, args.out)
    else:
        run_multi(MULTI, args.games, args.seed, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
