"""The strength table of issue 17 through tronlab.arena: games stored in SQLite, so a run resumes.

    nice python benchmarks/capture_strength.py run [--db FILE] [--minutes M]
    python benchmarks/capture_strength.py table [--db FILE]

The plan, most important games first (a run stopped by ``--minutes`` or
Ctrl-C keeps every finished game; the next run plays only the missing ones):

1. the 2-player ladder, each bot against the one before it:
   nearest v random, rectangles v nearest, paths v rectangles;
2. each BACK variant against the same bot without BACK (the winner's rule
   ``-back``, this project's ``-block``), and the opponent model's other turn
   order (``paths-same``) against the write-up's, with 4 players: random,
   nearest, rectangles, paths and 3 players: nearest, rectangles, paths
   played after ``paths-back`` (seats rotated through every position);
3. 4 players: rectangles, rectangles-back, paths, paths-back.

Maps: drawn point-symmetric starts on the 35x20 grid (``capture:35x20:i``,
the arena's ``random:N``), both seatings of every pair on every map.  The
games are untimed: every bot does a fixed amount of work a turn (the path bot
30,000 nodes), so the results do not depend on the load of the machine.

The ladder's last step, ``paths`` v ``rectangles`` on the 50 maps
``random:50`` (100 games, both seatings), untimed, 30,000 nodes:

    write-up's constant 20 (before)   39-4-57   p 0.082   rectangles slightly ahead
    constant 40 (the default now)     51-4-45   p 0.61    level; 355 v 340 squares,
                                                          seat 0 26-2-22, seat 1 25-2-23

(the second line played with benchmarks/capture_paths_options.py on the same
maps; the options tried and the tuning maps are in its docstring).  Not the
p < 0.01 issue 17 asks for.  With constant 40, more players (maps
``random:2``, every seat order with 3 players, seats rotated with 4; too few
games for a test):

    3 players, 12 games: rectangles mean rank 1.42 (7 firsts, 280 squares),
                         paths 1.58 (5, 266), nearest 3.00 (0, 154)
    4 players, 8 games:  paths 1.25 (6 firsts, 254 squares), rectangles 1.75 (2, 224),
                         nearest 3.00 (0, 150), random 4.00 (0, 71)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tronlab.arena.schedule import gauntlet, round_robin  # noqa: E402
from tronlab.arena.stats import pair_row  # noqa: E402
from tronlab.arena.store import Store  # noqa: E402
from tronlab.arena.tournament import run  # noqa: E402

GAME = "backtothecode"
LADDER = [("nearest", "random"), ("rectangles", "nearest"), ("paths", "rectangles")]
BACK = [("rectangles-back", "rectangles"), ("rectangles-block", "rectangles"),
        ("paths-back", "paths"), ("paths-block", "paths"), ("paths-same", "paths")]
MULTI = [("4p", ["random", "nearest", "rectangles", "paths"], 2),
         ("3p", ["nearest", "rectangles", "paths"], 2),
         ("4p-back", ["rectangles", "rectangles-back", "paths", "paths-back"], 2)]


def plan(maps2: int = 8, maps_back: int = 5):
    """``(tag, specs)`` in the order they are played."""
    out = [("ladder", gauntlet(a, [b], f"random:{maps2}", game=GAME, time=None, tag="ladder"))
           for a, b in LADDER]
    back = {pair: ("back", gauntlet(*pair[:1], pair[1:], f"random:{maps_back}", game=GAME,
                                    time=None, tag="back")) for pair in BACK}
    multi = {tag: (tag, round_robin(bots, f"random:{maps}", game=GAME, players=len(bots),
                                    time=None, tag=tag)) for tag, bots, maps in MULTI}
    return out + [back[p] for p in BACK[:3]] + [multi["4p"], multi["3p"], back[BACK[3]],
                                               back[BACK[4]], multi["4p-back"]]


def pairs_table(rows, pairs) -> str:
    lines = ["| bot | against | games | W-D-L | p (sign test) | verdict | mean squares (against) "
             "| s/game | ms/round |", "|---|---|---|---|---|---|---|---|---|"]
    for a, b in pairs:
        games = [r for r in rows if set(r["names"]) == {a, b}]
        line = pair_row(games, a, b)
        if line is None:
            continue
        mine = [_squares(r, a) for r in games]
        theirs = [_squares(r, b) for r in games]
        secs = sum(r["seconds"] for r in games) / len(games)
        rounds = sum(_rounds(r) for r in games) / len(games)
        lines.append(f"| {a} | {b} | {line.games} | {line.wins}-{line.draws}-{line.losses} | "
                     f"{line.p:.2g} | {line.verdict} | {sum(mine) / len(mine):.0f} "
                     f"({sum(theirs) / len(theirs):.0f}) | {secs:.1f} | "
                     f"{1000 * secs / max(rounds, 1):.0f} |")
    return "\n".join(lines)


_STORE = []


def _outcome(row):
    return json.loads(_STORE[0].record_json(row["id"]))["outcome"]


def _squares(row, name):
    return _outcome(row)["scores"][row["names"].index(name)]


def _rounds(row):
    return _outcome(row)["turns"]


def ranking_table(rows) -> str:
    stats = {}
    for r in rows:
        scores = _outcome(r)["scores"]
        for i, name in enumerate(r["names"]):
            s = stats.setdefault(name, [0, 0, 0.0, 0.0])
            s[0] += 1
            s[1] += r["ranks"][i] == 0
            s[2] += r["ranks"][i] + 1
            s[3] += scores[i]
    lines = ["| bot | games | first (shared too) | mean rank | mean squares "
             "| placed above the next bot: W-D-L, p |", "|---|---|---|---|---|---|"]
    order = sorted(stats.items(), key=lambda kv: kv[1][2] / kv[1][0])
    for k, (name, (n, first, rank, sq)) in enumerate(order):
        vs = ""
        if k + 1 < len(order):
            line = pair_row(rows, name, order[k + 1][0])
            vs = (f"{line.wins}-{line.draws}-{line.losses} v {order[k + 1][0]}, p {line.p:.2g}"
                  if line else "")
        lines.append(f"| {name} | {n} | {first} | {rank / n:.2f} | {sq / n:.0f} | {vs} |")
    return "\n".join(lines)


def tables(store) -> str:
    out = ["2 players, ladder", pairs_table(store.rows(tag="ladder"), LADDER), "",
           "2 players, BACK variants and the model's turn order",
           pairs_table(store.rows(tag="back"), BACK), ""]
    for tag, bots, _ in MULTI:
        rows = store.rows(tag=tag)
        if rows:
            secs = sum(r["seconds"] for r in rows) / len(rows)
            out += [f"{len(bots)} players ({tag}), {len(rows)} games, seats rotated, "
                    f"{secs:.0f} s a game", ranking_table(rows), ""]
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["run", "table"])
    ap.add_argument("--db", default="benchmarks/out/capture_strength.sqlite")
    ap.add_argument("--minutes", type=float, default=40.0)
    args = ap.parse_args(argv)
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    store = Store(args.db)
    _STORE.append(store)
    if args.what == "run":
        stop = time.time() + 60 * args.minutes
        for tag, specs in plan():
            if time.time() > stop:
                print(f"out of time before {tag}", flush=True)
                break
            todo = [s for s in specs if s.key not in store.done_keys()]
            for spec in todo:
                if time.time() > stop:
                    break
                r = run([spec], store, progress=False)
                row = r.rows[0] if r.rows else None
                if row is not None:
                    print(tag, row["names"], row["ranks"], f"{row['seconds']:.0f} s", flush=True)
    print(tables(store))
    return 0


if __name__ == "__main__":
    sys.exit(main())
