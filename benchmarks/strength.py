r"""Playing strength: a ladder of the Tron bots (``--pairs all``: every pair) on the Google AI
Challenge 2010 maps and on seeded random maps.

    python benchmarks/strength.py [--bots chamber,minimax,voronoi,filler,random]
        [--pairs ladder|all] [--maps all|none|NAME,...] [--random N] [--time S] [--depth D]
        [--jobs J] [--tag LABEL] [--results FILE] [--fresh] [--table-only]

Every pair plays every map twice, once from each seat (player 1 and player 2),
under the google2010 rules.  Two ways to limit thinking:

``--time S`` (default 0.1)
    each bot thinks about S seconds a move (the search bots plan to answer
    within ``0.8 S - 5 ms``); the engine allows 2 S before it calls a timeout,
    so machine noise rarely decides a game (timeouts are counted and shown).
    Results depend a little on machine load.
``--depth D``
    the search bots search exactly D turns (whole turns, two plies) however long
    that takes; S then only times an uncapped endgame solver (a bot's
    ``endgame_depth`` caps it, and a capped one searches its whole cap) and the
    clock is not enforced by the engine.  With the same code the games are the
    same on any machine (when the endgames are capped, or finish in time), so
    this is the mode for comparing versions.  Until 2026-11-30 it was not so: the search still
    stopped at the move's budget (0.8 S - 5 ms, a quarter of it on the first
    move), so D was a cap.  The fixed-depth results quoted below predate the fix.
    How much it cut, measured afterwards with the old rule (chamber v chamber at
    0.1 s, maps rand3000-3003, load about 3): of the searched moves 2% stopped
    short of depth 3, 1% of depth 4 and 5% of depth 6.

A bot may carry options after its name: ``chamber+draw=-500+tt=false``
(values in JSON), to compare variants of one bot.

Maps: ``--maps all`` (default) is every map in ``../shared/maps/google2010/``
(27); names of built-in maps (:func:`tronlab.tron.mapgen.builtin_maps`) work too,
and ``--random N`` (default 120) adds N point-symmetric random maps
(``rand0``, ``rand1``..., 20x20, ``random_map(rng=seed)``; ``--random-size
30x30`` makes them ``rand30x30-0``...; ``--random-first K`` starts at seed K,
for a run on maps no earlier run has seen; ``--maps none`` plays only those,
``--random 0`` none of them).  Each game's engine seed is derived from
the pair, the seat and the map, so a game replays identically.

Why random maps too: on the 2010 maps most games between the two search bots
are draws whatever either bot does - maps where the bots never meet, and
point-symmetric maps where both race to the centre and crash.  At such a
crash neither bot can do better: giving way hands the contested square to the
other, so entering it is the equilibrium of that turn's simultaneous choice.
Draws say nothing about which bot is better, so telling two strong bots apart
takes many decided games, more than 27 maps give (22 of chamber v minimax's 54
games on them were draws in every one of the 8 bot variants measured below).

This script is a thin use of :mod:`tronlab.arena` (the same as ``tronlab arena
run`` with a ladder of pairs): results go to the arena's SQLite database
(default ``benchmarks/strength_results.sqlite``), one row per game written in
one transaction when the game ends, tagged with ``--tag`` (default: the git
commit), the time and the depth; running again with the same settings plays
only the games missing (resumable), ``--fresh`` forgets this tag's games (one
transaction: other tags' games are never touched), and a run stopped with
Ctrl-C or killed keeps every game it finished.  ``tronlab arena table DB
--tag TAG`` prints the table again, ``tronlab arena replay DB ID`` shows a
game.  ``--table-only --results FILE.jsonl`` prints the table of each run (tag) of
the games kept as JSON lines in ``benchmarks/results/`` (``--tag`` picks one run).
``--jobs 2`` plays two games at once; timed, do that only on two otherwise idle cores
(a busy machine makes timed games noisier).  A full default run (6 pairs, 147 maps, 1764
games) takes about an hour on this 2-core machine with one job, half that with
``--jobs 2``; chamber v minimax is more than half of it.

At the end, the arena's ratings (Bradley-Terry, 95% intervals) and, for every
pair, from the first bot's side and per map set (google2010, 20x20 random,
all): W/D/L, points (W + D/2) and the score (points a game, with a 95%
interval, two wins and two losses added to its spread), the two-sided
sign-test p of the decided games (the chance that coin tosses split them at
least this unevenly), a verdict - ``clear`` when p < 0.01 and the first bot
won more, ``lost`` when it won fewer, else ``unclear`` - and each bot's mean
search depth; then points per bot and the number of timeouts.

Strength notes (2 shared cores, both seats, no timeouts in any run below).
The default run (0.1 s a move; 2010 maps in one job, the random maps partly two
jobs at a time; chamber v minimax, W-D-L, score, sign p):

    2010 maps     12-36-6     56% +- 8   p = 0.24   (unclear on these maps alone)
    rand0-119     96-102-42   61% +- 5   p = 5e-6
    all           108-138-48  60% +- 4   p = 2e-6   clear

and the other pairs, all maps (2010 maps alone in brackets), every one clear:
minimax v voronoi 178-104-12, 78% (26-28-0); chamber v voronoi 197-88-9, 82%
(26-26-2); voronoi v filler 207-83-4, 85% (43-11-0); filler v random 256-31-7,
92% (46-5-3); voronoi v random 265-29-0, 95% (49-5-0).

In chamber v minimax on the 2010 maps, 8 games of every pair are draws without
contact (``divider``, ``playground``, ``test-board``, ``test-board2``); most
other draws are crashes (head-on or swap) on point-symmetric maps, and some are
separated fills that end on the same turn.  Chamber searches about two turns
less deep (in compiled code its evaluation costs about 7x a Voronoi count: 27
us against 3.5 us on a 25x25 map), but depth is not the whole story: given
twice minimax's time it reaches the same mean depth and is 11-39-4 on the 2010
maps.  At an equal fixed depth (``--depth 3``) it is 16-35-3 there, and
22-31-1 with the A13 battlefront penalty, but timed A13 is 11-36-7.  Other
budgets on the 2010 maps: 0.03 s 13-36-5.  Random 30x30 maps (10 of them,
0.1 s) 11-3-6: few draws, but the seat decides most of them, as on 20 random
maps without symmetry (a scratch run, 18-6-16; on 16 of them each bot won
from the same seat).
Variants tried, none better (2010 maps, timed at 0.1 s unless said): chamber
without the edge term (k2=0, 11-37-6); a draw worth -0.3 moves (12-36-6); at
0.05 s a draw worth -2 moves (15-31-8) or -100 moves (17-18-19, crashes
avoided but lost races); contempt 0.5 (16-33-5); the blind collision model
(13-37-4); blind plus a prediction of the opponent's move (12-29-13); a root
payoff table solved for mixed strategies near the opponent (13-33-8); A13
alone (14-35-5); evaluations rounded to 0.01 move (13-36-5; 1.5 turns
deeper); a front only where a chamber borders the opponent's squares, not
neutral ones (9-38-7, and 19-28-14 on 61 random-map games); an evaluation
halfway between the chamber and the Voronoi linear form (8-38-8); at depth
3, stepping aside when the search of the opponent's seat predicts it enters
my chosen square and another move is within m of it (m = 0: 16-35-3, the
crash only comes later; m = 1 move: 16-33-5; 3 moves: 16-28-10).  Session 46, on
random maps, where most draws are early head-on crashes: a draw worth -2 moves
(``chamber+draw=-2000``) against ``chamber`` at fixed depth 6, fresh maps
``rand3000-3099``, both seats, 200 games fixed in advance, 57-75-68 (sign p 0.37).
It does turn crashes into decided games (75 draws in 200, where ``chamber``
against itself with more time drew 68 and 70 of 120 on such maps,
``benchmarks/hybrid_strength.py``), but giving way hands over the contested
square, and the decided games go the other way: more decisions are no route to a
clear verdict unless the bot that avoids the draw is also the better player.

All ten Tron bots, one round robin through the arena (45 pairs, both seats, 6 maps of the
2010 set - apoc_small, toronto, trix, u, ring, joust - and 2 random 20x20 maps: 720 games,
16 a pair, no faults; 10 min with nice 19 on 2 shared cores, load about 10).  Fixed depth 4
for chamber, minimax and nash; hybrid has no fixed-depth mode and thought 0.1 s a move
(mean depth 12); the others do not search::

    tronlab arena run --bots chamber hybrid nash minimax multivoronoi voronoi quick \
        filler hugger random --maps MAPS --depth 4 --time 0.1 --jobs 1

    rank  bot           rating   95%    points / 144
    1     hybrid          270    ±69    112.5
    2     nash            230    ±67    106.5
    3     chamber         202    ±65    102.0
    4     minimax         153    ±64     94.0
    5     voronoi         106    ±63     86.0
    6     quick            46    ±63     76.0
    7     multivoronoi     25    ±63     72.5
    8     filler         -232    ±75     35.5
    9     hugger         -384    ±91     19.0
    10    random         -417    ±95     16.0

Every searching or Voronoi bot beats filler, hugger and random clearly (p < 0.01); among
the top seven no pair is clear in 16 games (most are draws on the 2010 maps).  The same
five strongest timed at 0.1 s on 4 maps (80 games) were all within each other's intervals,
with 11 timeouts under the load: a loaded machine needs the fixed depth.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tronlab.arena.report import pairs_text, ratings_text, faults_text  # noqa: E402
from tronlab.arena.schedule import round_robin  # noqa: E402
from tronlab.arena.stats import score_interval, sign_test, verdict  # noqa: E402,F401
from tronlab.arena.store import Store  # noqa: E402
from tronlab.arena.tournament import run  # noqa: E402

MAPS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "maps", "google2010"))
DEFAULT_BOTS = "chamber,minimax,voronoi,filler,random"


class _Recorder:
    """Kept for scripts written against the old strength.py (``hybrid_strength.py``
    subclasses it).  The arena notes the search depth of every move itself
    (:data:`tronlab.arena.play.SEARCH_MODES`), so nothing here uses it."""

    def __init__(self, bot, depths):
        self.bot, self.depths = bot, depths
        self.name = getattr(bot, "name", "bot")

    def __call__(self, board, player):
        return self.bot(board, player)


def pairs_of(bots, how):
    if how == "all":
        return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]
    ladder = [(bots[i], bots[i + 1]) for i in range(len(bots) - 1)]
    if len(bots) >= 3:
        ladder.append((bots[0], bots[2]))
    if len(bots) >= 5:
        ladder.append((bots[2], bots[4]))
    return ladder


def map_text(maps, random, size, first=0):
    """The arena's --maps text: the 2010 folder (or names) plus random:N:WxH
    (seeds ``first`` on: random:N:WxH@first)."""
    items = [] if maps == "none" else [MAPS] if maps == "all" else maps.split(",")
    if random:
        items.append(f"random:{random}:{size}" + (f"@{first}" if first else ""))
    return ",".join(items)


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def jsonl_rows(path):
    """The games of a JSON-lines file of stored games (``benchmarks/results/*.jsonl``:
    the arena's rows without records), completed as :func:`pairs_text` reads them."""
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for r in rows:
        w = r["winner"]
        r.setdefault("ranks", [0, 0] if w is None else [int(p != w) for p in (0, 1)])
        r.setdefault("game", "google2010")
        r.setdefault("depth", None)
    return rows


def jsonl_table(path, tag=None):
    """The table of each run (tag) in a JSON-lines results file, or of run ``tag`` alone
    (its full tag or the label before ``|t=``); its pairs from the first bot's side as
    the file's first game of the pair seats them."""
    runs: dict = {}
    for r in jsonl_rows(path):
        if tag is None or tag in (r["tag"], r["tag"].split("|")[0]):
            runs.setdefault(r["tag"], []).append(r)
    if not runs:
        print(f"strength.py: no games{'' if tag is None else ' tagged ' + tag} in {path}",
              file=sys.stderr)
        return 2
    for name, rows in runs.items():
        pairs: dict = {}
        for r in rows:
            pairs.setdefault(frozenset(r["names"]), tuple(r["names"]))
        print(f"[{name}] {len(rows)} games\n\n{pairs_text(rows, list(pairs.values()))}\n\n"
              f"{faults_text(rows)}\n")
    return 0


def parse(argv):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--bots", default=DEFAULT_BOTS)
    ap.add_argument("--pairs", choices=("ladder", "all"), default="ladder")
    ap.add_argument("--maps", default="all",
                    help="'all' (the 27 2010 maps), 'none' (with --random) or NAME,...")
    ap.add_argument("--random", type=int, default=120,
                    help="add N seeded random maps (default 120)")
    ap.add_argument("--random-size", default="20x20", help="WxH of the random maps (default 20x20)")
    ap.add_argument("--random-first", type=int, default=0,
                    help="seed of the first random map (default 0: rand0, rand1, ...)")
    ap.add_argument("--time", type=float, default=0.1, help="seconds per move (default 0.1)")
    ap.add_argument("--depth", type=int, default=None, help="fixed search depth in turns")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once")
    ap.add_argument("--tag", default=None, help="label of this version (default: git commit)")
    ap.add_argument("--results", default=os.path.join(HERE, "strength_results.sqlite"))
    ap.add_argument("--fresh", action="store_true", help="forget earlier results of this tag")
    ap.add_argument("--table-only", action="store_true", help="print the table, play nothing")
    ap.add_argument("--verbose", action="store_true", help="one line per game")
    args = ap.parse_args(argv)
    if args.random_first < 0:
        ap.error(f"--random-first is a seed >= 0, got {args.random_first}")
    if args.random < 0:
        ap.error(f"--random is a number of maps >= 0, got {args.random}")
    if not re.fullmatch(r"\d+x\d+", args.random_size):
        ap.error(f"--random-size is WxH (like 20x20), got {args.random_size!r}")
    if args.maps == "none" and args.random == 0:
        ap.error("no maps to play: --maps none with --random 0")
    return args


def main(argv=None):
    args = parse(argv)
    if args.table_only and args.results.endswith(".jsonl"):
        return jsonl_table(args.results, args.tag)
    bots = args.bots.split(",")
    pairs = pairs_of(bots, args.pairs)
    tag = f"{args.tag or git_commit()}|t={args.time}|d={args.depth}"
    if args.maps == "all" and not os.path.isdir(MAPS):
        print(f"strength.py: the Google 2010 maps are not at {MAPS} (../shared beside the "
              f"checkout): pass --maps DIR, names of built-in maps (--maps arena,ring,...) "
              f"or --maps none (random maps only)", file=sys.stderr)
        return 2
    maps = map_text(args.maps, args.random, args.random_size, args.random_first)
    plan = [g for a, b in pairs for g in round_robin([a, b], maps, time=args.time,
                                                     depth=args.depth, tag=tag)]
    if args.table_only and not os.path.exists(args.results):     # a look, not a new file
        print(f"[{tag}] 0 games already played, {len(plan)} to play: no results file "
              f"{args.results} yet")
        return 0
    store = Store(args.results)
    if args.fresh:
        print(f"[{tag}] forgot {store.delete_tag(tag)} games")
    done = len({g.key for g in plan} & store.done_keys())
    mode = f"depth {args.depth} (endgame {args.time} s)" if args.depth else f"{args.time} s a move"
    print(f"[{tag}] {done} games already played, {len(plan) - done} to play "
          f"({mode}, {len(plan) // (2 * len(pairs))} maps, {len(pairs)} pairs)", flush=True)
    result = None
    if not args.table_only:
        def say(row):
            if args.verbose:
                outcome = ("draw" if row["winner"] is None
                           else row["names"][row["winner"]] + " wins")
                print(f"{row['map']:<12} {' v '.join(row['names'])}: {outcome}"
                      f" in {row['turns']} turns ({row['seconds']:.1f} s) {row['faults']} "
                      f"depth {row['depths']}", flush=True)
        result = run(plan, store, jobs=args.jobs, on_game=say)
    rows = store.rows(keys={g.key for g in plan})
    if result is not None and result.interrupted:
        print(f"\nstopped: the {result.played} games finished this run are saved in "
              f"{args.results}; run the same command again to play the other "
              f"{len(plan) - len(rows)}")
    print()
    print(ratings_text(rows))
    print()
    print(pairs_text(rows, pairs))
    print()
    print(faults_text(rows))
    return 130 if result is not None and result.interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
