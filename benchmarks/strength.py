"""Playing strength: a round robin of the Tron bots on the Google AI Challenge 2010 maps
and on seeded random maps.

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
    that takes; S then only caps the endgame solver and the clock is not
    enforced by the engine.  With the same code the games are the same on
    any machine, so this is the mode for comparing versions.

A bot may carry options after its name: ``chamber+draw=-500+tt=false``
(values in JSON), to compare variants of one bot.

Maps: ``--maps all`` (default) is every map in ``../shared/maps/google2010/``
(27); names of built-in maps (:func:`tronlab.tron.mapgen.builtin_maps`) work too,
and ``--random N`` (default 120) adds N point-symmetric random maps
(``rand0``, ``rand1``..., 20x20, ``random_map(rng=seed)``; ``--random-size
30x30`` makes them ``rand30x30-0``...; ``--maps none`` plays only those,
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

Results go to a JSON-lines file as each game ends (default
``benchmarks/strength_results.jsonl``), tagged with ``--tag`` (default: the
git commit), the mode and the bots; running again with the same settings skips
the games already there (resumable), ``--fresh`` forgets them, and a run
stopped with Ctrl-C keeps every game it finished.  ``--jobs 2`` plays two
games at once; timed, do that only on two otherwise idle cores (a busy machine
makes timed games noisier).  A full default run (6 pairs, 147 maps, 1764
games) takes about an hour on this 2-core machine with one job, half that with
``--jobs 2``; chamber v minimax is more than half of it.

At the end, for every pair, from the first bot's side and per map set (2010,
20x20 random, all): W/D/L, points (W + D/2) and the score (points a game, with a
normal 95% interval), the two-sided sign-test p of the decided games (the
chance that coin tosses split them at least this unevenly), a verdict -
``clear`` when p < 0.01 and the first bot won more, ``lost`` when it won
fewer, else ``unclear`` - and each bot's mean search depth; then points per
bot and the number of timeouts.

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
crash only comes later; m = 1 move: 16-33-5; 3 moves: 16-28-10).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import time
import zlib
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
MAPS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "maps", "google2010"))
DEFAULT_BOTS = "chamber,minimax,voronoi,filler,random"
SEARCH_BOTS = {"minimax", "chamber"}


def google_maps():
    return sorted(f[:-4] for f in os.listdir(MAPS) if f.endswith(".txt"))


_RANDOM = re.compile(r"rand(?:(\d+)x(\d+)-)?(\d+)")


def random_name(seed, width=20, height=20):
    """``rand<seed>`` for a 20x20 random map, ``rand<W>x<H>-<seed>`` for other sizes."""
    return f"rand{seed}" if (width, height) == (20, 20) else f"rand{width}x{height}-{seed}"


def parse_random(name):
    """``(width, height, seed)`` of a random map's name, None for any other name."""
    m = _RANDOM.fullmatch(name)
    if m is None:
        return None
    width, height, seed = m.groups()
    return (20, 20, int(seed)) if width is None else (int(width), int(height), int(seed))


def make_board(name):
    """A map by name: a 2010 map, a built-in map, or a random map (:func:`random_name`)."""
    from tronlab.tron.maps import load_map
    from tronlab.tron.mapgen import builtin_maps, load_builtin, random_map
    path = os.path.join(MAPS, f"{name}.txt")
    if os.path.exists(path):
        return load_map(path)
    if name in builtin_maps():
        return load_builtin(name)
    spec = parse_random(name)
    if spec is not None:
        width, height, seed = spec
        return random_map(width, height, density=0.1, rng=seed)
    raise SystemExit(f"unknown map {name!r}")


def pairs_of(bots, how):
    if how == "all":
        return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]
    ladder = [(bots[i], bots[i + 1]) for i in range(len(bots) - 1)]
    if len(bots) >= 3:
        ladder.append((bots[0], bots[2]))
    if len(bots) >= 5:
        ladder.append((bots[2], bots[4]))
    return ladder


def game_seed(a, b, map_name):
    return zlib.crc32(f"{a}|{b}|{map_name}".encode())


def bot_options(spec, seconds, depth):
    """``spec`` is a bot name, optionally with options: ``chamber+draw=-500+tt=0``."""
    name, *extra = spec.split("+")
    opts = {"time": seconds}
    if depth is not None and name in SEARCH_BOTS:
        opts["depth"] = depth
    for item in extra:
        k, _, v = item.partition("=")
        opts[k] = json.loads(v) if v[:1] in "-0123456789tfn[" else v
    return name, opts


def new_bot(spec, seconds, depth):
    from tronlab.runner.registry import get_bot
    name, opts = bot_options(spec, seconds, depth)
    return get_bot(name, **opts)


_warm = set()


def play_one(job):
    """One game (run in a worker process when --jobs > 1)."""
    a, b, map_name, seconds, depth, key = job
    import tronlab.tron.bots.search  # noqa: F401  (registers the search bots)
    from tronlab.runner.engine import play

    if (a, b) not in _warm:     # a first unrecorded game: no kernel compiles or loads in a real one
        _warm.add((a, b))
        play(make_board("box"), [new_bot(a, 0.05, None), new_bot(b, 0.05, None)],
             rules="google2010", rng=0, max_turns=30)
    board = make_board(map_name)
    bots = [new_bot(a, seconds, depth), new_bot(b, seconds, depth)]
    depths = {0: [], 1: []}
    wrapped = [_Recorder(bot, depths[p]) for p, bot in enumerate(bots)]
    limit = None if depth is not None else 2 * seconds
    t0 = time.perf_counter()
    rec = play(board, wrapped, rules="google2010", rng=game_seed(a, b, map_name),
               time_limit=limit, first_time_limit=None if limit is None else 6 * seconds,
               names=[a, b])
    out = rec.outcome
    return {"key": key, "p1": a, "p2": b, "map": map_name, "time": seconds, "depth": depth,
            "winner": None if out.winner is None else [a, b][out.winner],
            "turns": out.turns, "deaths": list(out.deaths),
            "mean_depth": [round(sum(d) / len(d), 2) if d else None for d in depths.values()],
            "seconds": round(time.perf_counter() - t0, 2)}


class _Recorder:
    """Passes moves through and notes the search depth each move reached."""

    def __init__(self, bot, depths):
        self.bot, self.depths = bot, depths
        self.name = getattr(bot, "name", "bot")

    def start_game(self, *args, **kwargs):
        if hasattr(self.bot, "start_game"):
            self.bot.start_game(*args, **kwargs)

    def __call__(self, board, player):
        move = self.bot(board, player)
        stats = getattr(self.bot, "last_stats", None) or {}
        if stats.get("mode") == "search":
            self.depths.append(stats.get("depth", 0))
        return move


def load_results(path):
    done = []
    if os.path.exists(path):
        with open(path) as f:
            done = [json.loads(line) for line in f if line.strip()]
    return done


def sign_test(wins, losses):
    """Two-sided exact sign test on the decided games: the chance of a split at
    least this uneven if each decided game were a coin toss (draws say nothing
    about which bot is better, so they are left out)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def score_interval(wins, draws, losses, z=1.96):
    """Mean points a game (win 1, draw 1/2) and the half-width of its normal
    95% interval, from the spread of the games' own points."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, 0.0
    mean = (wins + draws / 2) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    return mean, z * math.sqrt(var / n)


def verdict(wins, draws, losses, alpha=0.01):
    """``clear`` when the first bot wins more decided games than it loses and a
    coin could not plausibly have done it (sign test p < ``alpha``); ``unclear``
    otherwise (``lost`` when it loses more than it wins, just as clearly)."""
    p = sign_test(wins, losses)
    if p >= alpha:
        return "unclear"
    return "clear" if wins > losses else "lost"


def map_set(name):
    """Which set a map belongs to in the table: ``2010``, ``built-in`` or the
    size of a random map (``20x20``)."""
    if os.path.exists(os.path.join(MAPS, f"{name}.txt")):
        return "2010"
    spec = parse_random(name)
    return "built-in" if spec is None else f"{spec[0]}x{spec[1]}"


def pair_row(results, a, b):
    """W, D, L of ``a`` against ``b`` and each one's mean search depth."""
    w = d = l = 0
    da, db = [], []
    for r in results:
        if {r["p1"], r["p2"]} != {a, b}:
            continue
        if r["winner"] is None:
            d += 1
        elif r["winner"] == a:
            w += 1
        else:
            l += 1
        md = r.get("mean_depth") or [None, None]
        ia = 0 if r["p1"] == a else 1
        if md[ia] is not None:
            da.append(md[ia])
        if md[1 - ia] is not None:
            db.append(md[1 - ia])
    depth_text = " / ".join(f"{sum(x) / len(x):.1f}" if x else "-" for x in (da, db))
    return w, d, l, depth_text


def table(results, pairs):
    sets = sorted({map_set(r["map"]) for r in results})
    rows = [("all", results)] if len(sets) < 2 else (
        [(s, [r for r in results if map_set(r["map"]) == s]) for s in sets] + [("all", results)])
    print(f"\n{'pair':<24}{'maps':>7}{'W':>5}{'D':>4}{'L':>4}{'points':>11}{'score':>12}"
          f"{'sign p':>9}  verdict  mean depth")
    for a, b in pairs:
        name = a + " v " + b                      # printed on the pair's first row only
        for label, subset in rows:
            w, d, l, depth_text = pair_row(subset, a, b)
            n = w + d + l
            if n == 0:
                continue
            mean, half = score_interval(w, d, l)
            print(f"{name:<24}{label:>7}{w:>5}{d:>4}{l:>4}"
                  f"{w + d / 2:>7.1f}/{n:<3}{100 * mean:>5.0f}% ±{100 * half:>2.0f}"
                  f"{sign_test(w, l):>9.2g}  {verdict(w, d, l):<8} {depth_text}")
            name = ""
    print("(W-D-L from the first bot's side, both seats; score: points a game with a 95% interval; "
          "sign p: the\n chance of a split of the decided games at least this uneven from coin "
          "tosses; verdict\n 'clear' when p < 0.01)")
    points = defaultdict(float)
    games = defaultdict(int)
    for r in results:
        for name in (r["p1"], r["p2"]):
            games[name] += 1
            if r["winner"] is None:
                points[name] += 0.5
            elif r["winner"] == name:
                points[name] += 1
    print(f"\n{'bot':<14}{'points':>8}{'games':>7}")
    for name in sorted(games, key=lambda n: -points[n] / games[n]):
        print(f"{name:<14}{points[name]:>8.1f}{games[name]:>7}")
    timeouts = sum(1 for r in results for d in r["deaths"] if d == "timeout")
    print(f"\ntimeouts: {timeouts} in {len(results)} games")


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default=DEFAULT_BOTS)
    ap.add_argument("--pairs", choices=("ladder", "all"), default="ladder")
    ap.add_argument("--maps", default="all",
                    help="'all' (the 27 2010 maps), 'none' (with --random) or NAME,...")
    ap.add_argument("--random", type=int, default=120,
                    help="add N seeded random maps (default 120)")
    ap.add_argument("--random-size", default="20x20",
                    help="WxH of the random maps (default 20x20)")
    ap.add_argument("--time", type=float, default=0.1, help="seconds per move (default 0.1)")
    ap.add_argument("--depth", type=int, default=None, help="fixed search depth in turns")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once")
    ap.add_argument("--tag", default=None, help="label of this version (default: git commit)")
    ap.add_argument("--results", default=os.path.join(HERE, "strength_results.jsonl"))
    ap.add_argument("--fresh", action="store_true", help="forget earlier results of this tag")
    ap.add_argument("--table-only", action="store_true", help="print the table, play nothing")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    maps = (google_maps() if args.maps == "all" else [] if args.maps == "none"
            else args.maps.split(","))
    if args.random < 0:
        ap.error(f"--random is a number of maps >= 0, got {args.random}")
    size = re.fullmatch(r"(\d+)x(\d+)", args.random_size)
    if size is None or min(int(size[1]), int(size[2])) < 5:
        ap.error(f"--random-size is WxH, each at least 5 (like 20x20), got {args.random_size!r}")
    maps += [random_name(i, int(size[1]), int(size[2])) for i in range(args.random)]
    if not maps:
        ap.error("no maps to play: --maps none with --random 0")
    pairs = pairs_of(bots, args.pairs)
    tag = args.tag or git_commit()
    key = f"{tag}|t={args.time}|d={args.depth}"
    old = load_results(args.results)
    if args.fresh:
        old = [r for r in old if r.get("key") != key]
        with open(args.results, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in old)
    wanted = {(x, y, m) for a, b in pairs for m in maps for x, y in ((a, b), (b, a))}
    results = [r for r in old if r.get("key") == key and (r["p1"], r["p2"], r["map"]) in wanted]
    done = {(r["p1"], r["p2"], r["map"]) for r in results}
    todo = [(x, y, m, args.time, args.depth, key) for a, b in pairs for m in maps
            for x, y in ((a, b), (b, a)) if (x, y, m) not in done]
    mode = f"depth {args.depth} (time cap {args.time} s)" if args.depth else f"{args.time} s a move"
    print(f"[{key}] {len(results)} games already played, {len(todo)} to play "
          f"({mode}, {len(maps)} maps, {len(pairs)} pairs)")
    if args.table_only:
        todo = []
    if args.jobs > 1 and todo:
        from multiprocessing import get_context
        pool = get_context("spawn").Pool(args.jobs)
        games = pool.imap_unordered(play_one, todo)
    else:
        pool = None
        games = map(play_one, todo)
    played = 0
    try:
        for r in games:
            results.append(r)
            with open(args.results, "a") as f:
                f.write(json.dumps(r) + "\n")
            played += 1
            print(f"[{played}/{len(todo)}] {r['map']:<12} {r['p1']} v {r['p2']}: "
                  f"{'draw' if r['winner'] is None else r['winner'] + ' wins'} in {r['turns']} "
                  f"turns ({r['seconds']} s) {r['deaths']} depth {r['mean_depth']}", flush=True)
    except KeyboardInterrupt:
        if pool is not None:
            pool.terminate()
        print(f"\nstopped: the {played} games finished this run are saved in {args.results}; "
              f"run the same command again to play the other {len(todo) - played}")
        table(results, pairs)
        return 130
    if pool is not None:
        pool.close()
    table(results, pairs)


if __name__ == "__main__":
    sys.exit(main())
