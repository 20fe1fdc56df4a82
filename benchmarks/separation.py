"""Where Tron games are decided: by the split at the separation, or in the endgame fill?

    python benchmarks/separation.py [--bots chamber,chamber] [--time 0.1 | --depth D]
        [--game google2010|lightriders] [--random 30] [--random-first 1160] [--solve 4]
        [--jobs 2] [--out FILE] [--table FILE]

Every seeded random 20x20 map (the arena's ``random:N@K``; with ``--game lightriders``
its seeded Light Riders starts) is played from both seats, and
:func:`tronlab.tron.decided.where_decided` says where each game was decided,
solving each player's longest fill at the separation with ``--solve`` seconds
(far more than a move gets):

* **crash**: the game ended before the players were separated;
* **split**: the result is the one the solved fills give (the longer fill wins,
  equal fills draw): the regions each player got decided it, that is the play
  before the separation;
* **fill**: the result differs: a player fell short of its fill (or, when a fill
  is not proved exact, the solve missed a longer one).

The report counts the decided games of each kind, the draws, the players that
crashed after a separation having made fewer moves than their solved fill, and
lists the games the fill decided.  ``--out FILE`` keeps one JSON line per game,
``--table FILE`` prints the report of such a file again, for each pair of bots in it,
named as the file names them (``--bots`` plays no part then).  With ``--depth D`` the
search bots search D turns whatever the time, so the games are the same on every machine.

Measured (2 cores, both in use, 0.1 s a move, ``--solve 4``; maps ``rand1160``-``rand1189``,
then ``rand1190``-``rand1219``; the games are in ``results/separation_chamber_*.jsonl``)::

    chamber v chamber: 60 games, 27 decided (13-14): crash 0, split 26, fill 1;
      33 drawn, 26 of them before a separation
      of 41 players that crashed after a separation, 3 made fewer moves than their
      solved fill (by 1-2)
    chamber v chamber+time=0.03: 60 games, 36 decided (23-13): crash 0, split 29, fill 7;
      24 drawn, 21 of them before a separation
      of 42 players that crashed after a separation, 6 made fewer moves than their
      solved fill (by 2-8)

Between equals the split decided 26 of the 27 decided games.  The other one
(``rand1174``) separated on turn 13 with 119 and 120 squares, neither proved.
Against a bot with a third of the time the deeper bot won the split games 20-9, and
the fill decided 7 games, 3 to the deeper bot and 4 to the other: noise, not
strength.  All 7 separated within the first 15 turns, with 113 to 129 squares
each, where a fill found in one move's time can be a few squares short.  On
``rand1215`` both players could fill 129 squares (proved), and the 0.1 s bot
crashed after 125 moves in one seat.  So a bot stronger than ``chamber`` has to be
stronger before the separation.  A better endgame could change only the few games
that separate early into big regions.

Each row also keeps what a search leaf would say of the separation board: the
difference of fills by the parity bound (the ``"chamber"`` evaluation's separated
value) and by the chamber route (``"chamber-fill"``), and the report says how far
each is from the solved difference.  ``chamber v chamber+time=0.03`` on maps
``rand1220``-``rand1259`` (``results/separation_chamber_estimates_80.jsonl``)::

    chamber v chamber+time=0.03: 80 games, 47 decided (28-19 from chamber's side):
      crash 0, split 45, fill 2; 33 drawn, 31 of them before a separation
      at the 49 separations, the difference of fills as a search leaf estimates it:
        parity bound (chamber): off by 176 in all (largest 17), the wrong result 10 times
        chamber route (chamber-fill): off by 121 in all (largest 23), the wrong result 5 times

The route halves the wrong calls, yet ``chamber`` with it is level with ``chamber``
over 854 games (``benchmarks/hybrid_strength.py``).

Light Riders, ``--game lightriders --bots nash,chamber --random-first 12000`` (starts
``lr12000``-``lr12029``, 0.1 s a move; ``results/separation_nash_chamber_lr_60.jsonl``)::

    nash v chamber: 60 games, 35 decided (15-20): crash 0, split 35, fill 0;
      25 drawn, 0 of them before a separation
      of 85 players that crashed after a separation, 0 made fewer moves than their
      solved fill

On the open 16x16 field every game separated, every fill was played in full, and
the split decided every game.  The 25 draws were equal fills, not crashes: the heads
start at an odd distance, so they can never meet head-on (notebook 09).
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from tronlab.arena.bots import make_bot
from tronlab.arena.maps import expand_maps, make_board
from tronlab.runner.engine import play
from tronlab.tron.decided import solved_result, where_decided
from tronlab.tron.evaluate import SEP_WEIGHT_DEFAULT, evaluate

#: the evaluations whose separated values are compared with the solved fills
ESTIMATES = {"chamber": "parity bound (chamber)", "chamber-fill": "chamber route (chamber-fill)"}


def one_game(task):
    """Play one game and say where it was decided; a dict for the JSON line."""
    game, label, spec, seat, bots, time, depth, solve, seed = task
    board = make_board(game, spec, 2)
    names = list(bots) if seat == 0 else list(bots[::-1])
    players = [make_bot(n, game, time=time, depth=depth) for n in names]
    record = play(board, players, rng=seed, rules=game)
    boards = record.boards()
    d = where_decided(record, time=solve, boards=boards)
    # what a search leaf would say of the separation board: the difference of fills by the
    # parity bound ("chamber") and by the chamber route ("chamber-fill"), seat 0's view
    est = None if d.turn is None else {
        kind: evaluate(boards[d.turn], 0, kind=kind) // SEP_WEIGHT_DEFAULT
        for kind in ESTIMATES}
    return {"map": label, "seat": seat, "names": names, "winner": record.outcome.winner,
            "turns": record.outcome.turns, "kind": d.kind, "separated": d.turn,
            "fills": d.fills, "exact": d.exact, "made": d.made, "est": est}


def estimate_lines(rows):
    """How far each leaf estimate of the difference of fills is from the solved one, and
    how often it gives another result than the solved fills (:func:`solved_result`)."""
    rows = [r for r in rows if r.get("est")]
    if not rows:
        return []
    solved = [r["fills"][0] - r["fills"][1] for r in rows]
    out = [f"  at the {len(rows)} separations, the difference of fills as a search leaf "
           f"estimates it:"]
    for kind in ESTIMATES:
        errors = [abs(r["est"][kind] - d) for r, d in zip(rows, solved)]
        wrong = sum(1 for r in rows
                    if solved_result((r["est"][kind], 0)) != solved_result(r["fills"]))
        out.append(f"    {ESTIMATES[kind]}: off by {sum(errors)} in all "
                   f"(largest {max(errors)}), the wrong result {wrong} times")
    return out


def summary(rows, bots):
    """The report's lines for the rows of one run."""
    decided = [r for r in rows if r["winner"] is not None]
    first = sum(1 for r in decided if r["winner"] == r["seat"])     # bots[0] sits in seat
    kinds = {k: sum(1 for r in decided if r["kind"] == k) for k in ("crash", "split", "fill")}
    # players that crashed after a separation: their move counts are exact (a survivor's
    # are topped up by the greedy filler's estimate)
    crashed = [(r, p) for r in rows if r["fills"] for p in (0, 1) if r["winner"] != p]
    short = [r["fills"][p] - r["made"][p] for r, p in crashed if r["made"][p] < r["fills"][p]]
    drawn_crash = sum(1 for r in rows if r["winner"] is None and r["kind"] == "crash")
    pair = f"{bots[0]} v {bots[1]}"
    lines = [f"{pair}: {len(rows)} games, {len(decided)} decided "
             f"({first}-{len(decided) - first} from {bots[0]}'s side): "
             f"crash {kinds['crash']}, split {kinds['split']}, fill {kinds['fill']}; "
             f"{len(rows) - len(decided)} drawn, {drawn_crash} of them before a separation",
             f"  of {len(crashed)} players that crashed after a separation, {len(short)} made "
             f"fewer moves than their solved fill" + (f" (by {min(short)}-{max(short)})"
                                                         if short else "")]
    for r in rows:
        if r["kind"] == "fill":
            lines.append(f"  fill: {r['map']} ({' v '.join(r['names'])}): separated on turn "
                         f"{r['separated']}, fills {r['fills']} (exact {r['exact']}), "
                         f"made {r['made']}, " + ("drawn" if r["winner"] is None
                                                    else f"won by {r['names'][r['winner']]}"))
    return lines + estimate_lines(rows)


def runs_in(rows):
    """The rows of a results file by the pair that played them, ``bots[0]`` the bot of seat 0
    in its seat-0 games: the report of a file names the bots its games name, not ``--bots``."""
    runs: dict = {}
    for r in rows:
        pair = tuple(r["names"] if r["seat"] == 0 else r["names"][::-1])
        runs.setdefault(pair, []).append(r)
    return runs


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default="chamber,chamber")
    ap.add_argument("--game", choices=("google2010", "lightriders"), default="google2010")
    ap.add_argument("--time", type=float, default=0.1)
    ap.add_argument("--depth", type=int, default=None)
    ap.add_argument("--random", type=int, default=30)
    ap.add_argument("--random-first", type=int, default=1160)
    ap.add_argument("--solve", type=float, default=4.0, help="seconds per endgame solve")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None)
    ap.add_argument("--table", metavar="FILE", default=None,
                    help="print the report of a results file (--out) without playing")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    if len(bots) != 2:
        ap.error(f"--bots takes two bots, got {args.bots!r}")
    for name, v in (("--time", args.time), ("--solve", args.solve)):
        if not v > 0:
            ap.error(f"{name} must be a positive number of seconds, got {v}")
    if args.random < 1 or args.random_first < 0 or args.jobs < 1:
        ap.error("--random and --jobs are at least 1, --random-first at least 0")
    return args, bots


def main(argv=None):
    args, bots = parse(argv)
    if args.table:
        with open(args.table) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        if not rows:
            print(f"separation.py: no games in {args.table}", file=sys.stderr)
            return 2
        print("\n".join(line for pair, run in runs_in(rows).items()
                        for line in summary(run, pair)))
        return 0
    maps = expand_maps(args.game, f"random:{args.random}@{args.random_first}")
    tasks = [(args.game, m.label, m.spec, seat, bots, args.time, args.depth, args.solve,
              2 * i + seat) for i, m in enumerate(maps) for seat in (0, 1)]
    rows = []
    out = open(args.out, "a") if args.out else None
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(one_game, tasks):
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
    if out:
        out.close()
    print("\n".join(summary(rows, bots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
