r"""The ``hybrid`` bot against ``chamber`` (or any pairs) on the 2010 maps and random maps.

    python benchmarks/hybrid_strength.py [--maps-dir DIR] [strength.py options...]

A thin wrapper around ``benchmarks/strength.py`` (same games, both seats,
results file, sign test and verdict) that defaults to ``--bots hybrid,chamber
--pairs all --random 60 --time 0.1``, finds the 2010 maps also when the
repository is a git worktree (``--maps-dir``, or ``$TRONLAB_2010_MAPS``).  The
games are the arena's, as strength.py plays them: the engine allows twice the move
time before it calls a timeout, and the table shows the mean search depth of every
bot that searches (``hybrid`` and ``nash`` included).  On a shared machine under a
load of 6-8 that limit lets load spikes decide games (the first run below lost ten
games on time): run on otherwise idle cores, and read the timeouts line.

Measured with the arena (2 shared cores under a load of 8-12, 0.1 s a move,
the arena's limit 0.2 s; the 27 maps of /work/shared/maps/google2010 and 10
random 20x20 maps, both seats), W-D-L from chamber's side::

    tronlab arena run --game google2010 --bots hybrid chamber \
        --maps /work/shared/maps/google2010,random:10 --time 0.1 --jobs 2 --db g2010.sqlite

    pair               maps         W   D   L   score     sign p  verdict  mean depth
    chamber v hybrid   20x20        5  12   3   55% +-14   0.73   unclear  5.3 / 5.4
                       google2010  13  30  11   52% +-9    0.84   unclear  7.5 / 8.3
                       all         18  42  14   53% +-7    0.6    unclear  6.8 / 7.4

(Games not kept: this run's ``g2010.sqlite``, like every run in this docstring that
names no file in ``benchmarks/results/``, was a scratch database; the counts were
taken when the games were played and the games were not stored.)

``hybrid`` does not beat ``chamber``: 14-42-18 from its side.  Ten games ended
on time (hybrid 7, chamber 3, answers of 0.20-0.28 s under the load): hybrid,
planning 93 ms of the 100 against chamber's 75, has less headroom under the
2x limit; without those games it is 11-42-11.  Its extra time buys 0.8 turns of
depth on the 2010 maps and no measurable strength.  26 of the 42 draws are
head-on crashes.  Replaying hybrid's last move of each (90 ms): in 18 the root
matrix's equilibrium is the crash itself, pure, worth the draw (-1): every
other move lets the opponent take the contested square, which the evaluation
values at a square or more, so there the matrix agrees with chamber's
pessimistic root, exactly where the two models were expected to differ; in 6
hybrid had one legal move left; in 2 it mixed or preferred another move.

Later (nash2 branch, a quick look, not a confirming run): ``nash`` itself
(the matrix game at every node, now with its table of bounds and killers) v
``chamber`` on the 27 maps of /work/shared/maps/google2010, both seats, 0.1 s,
limit 0.5 s, one process per half of the maps: 8-41-5 from nash's side (sign
p 0.58), 0 timeouts; 23 of the 41 draws head-on crashes within 25 turns.

With the table of bounds (session 21, machine otherwise idle, 0.1 s a move,
both seats, n fixed before the run: the 27 2010 maps and 100 random 20x20
maps, seeds ``random:100``), W-D-L from hybrid's side::

    tronlab arena run --game google2010 --bots hybrid chamber \
        --maps /work/shared/maps/google2010,random:100 --time 0.1 --jobs 2 --db g2010b.sqlite

    pair               maps         W    D   L   score     sign p  verdict  mean depth
    hybrid v chamber   20x20       51  101  48   51% +-5   0.84    unclear  9.2 / 9.1
                       google2010   8   40   6   52% +-7   0.79    unclear  13.9 / 12.2
                       all         59  141  54   51% +-4   0.71    unclear  10.1 / 9.7
    no timeouts, crashes or bad output in 254 games

(games not kept: ``g2010b.sqlite`` was not stored.)  Still level: the deeper
search (1.7 turns more on the 2010 maps) buys no measurable strength against
chamber.

``nash`` itself (the matrix game at every node, with its table and killers),
the same 27 + 100 maps, both seats, 0.1 s, n fixed (session 26, machine
otherwise idle, ``--jobs 2``), W-D-L from nash's side::

    python benchmarks/hybrid_strength.py --bots nash,chamber --random 100 --jobs 2

    pair               maps         W    D   L   score     sign p  verdict  mean depth
    nash v chamber     20x20       37  119  44   48% +-4   0.51    unclear  9.2 / 8.8
                       google2010   8   42   4   54% +-6   0.39    unclear  12.9 / 12.4
                       all         45  161  48   49% +-4   0.84    unclear  9.9 / 9.4
    no timeouts, crashes or bad output in 254 games

(games not kept.)  Level too, as it is under the Light Riders rules (1040 games there, 52%, sign p
0.18; a run of 640 of them fixed in advance 206-229-205, ``benchmarks/nash_strength.py``).

What more search is worth here (session 24, machine otherwise idle): ``chamber``
with twice its own time against ``chamber``, the same 27 + 60 maps as the
default run, both seats, the first bot thinking 0.2 s a move, the second 0.1 s::

    python benchmarks/strength.py --bots chamber,chamber+time=0.1 --pairs all \
        --time 0.2 --random 60 --jobs 2

    pair                          maps    W    D    L   score    sign p  verdict  mean depth
    chamber v chamber+time=0.1   20x20   27   63   30   49% +-6    0.79  unclear  10.9 / 9.5
                            google2010    6   43    5   51% +-6    1     unclear  15.8 / 12.8
                                   all   33  106   35   49% +-5    0.9   unclear  12.2 / 10.4
    no timeouts, crashes or bad output in 174 games

(games not kept.)

Doubling the time buys 1.8 turns of depth (3 on the 2010 maps) and no
strength at all: the same depth gain ``hybrid`` has over ``chamber``, and the
same level result.  Most games are draws (106 of 174): 79 head-on crashes or
swaps, the rest both players out on the same turn, mostly separated fills of
equal length.  Nor is the endgame where wins are left: in 5 of the 147 games
above (hybrid's 254) that separated, the player that ran out first made fewer
moves after the separation than a 0.5 s endgame solve of that board finds, by
1-2 moves (2 of them hybrid's: a draw and a loss).  A clear win over
``chamber`` needs a better judgement of positions (the evaluation), not a
deeper search.

Late move reductions (session 28, :mod:`tronlab.tron.search`) confirm it:
``chamber+reduce=1`` searches three turns deeper than ``chamber`` in the same
time and is level with it over 554 games fixed in advance on the 2010 maps
and ``rand200-449`` (112-344-98, sign p 0.37); ``hybrid+reduce=1`` went 31-60-29
in a first look at ``rand0-59``.

Nor does a search four times as fast (session 33, machine otherwise idle, a
run of a size fixed before it started, on maps no earlier run used,
``rand1000-1059``, both seats): ``chamber`` thinking 0.4 s a move against
``chamber`` at 0.1 s, 120 games in 1758 s of play (games in
``benchmarks/results/chamber_time4x_random_120.jsonl``)::

    python benchmarks/hybrid_strength.py --bots chamber,chamber+time=0.1 --time 0.4 \
        --maps none --random 60 --random-first 1000 --jobs 2

    pair                          maps    W   D   L   score    sign p  verdict  mean depth
    chamber v chamber+time=0.1    20x20  27  68  25   51% +-6   0.89   unclear  13.0 / 10.1
    no timeouts, crashes or bad output in 120 games

Three turns of real depth, and level.  58 of the 68 draws are head-on crashes,
48 of them within the first 21 turns: on a point-symmetric map both heads race
for the middle and meet there, whatever the depth.  Every decided game lasted
70 turns or more.  So the deeper search did not win the long games either
(27-25): a search four times faster is not enough to beat ``chamber`` here.

How much faster it would have to be (session 34, the same way, 60 more fresh
maps, ``rand1100-1159``): ``chamber`` thinking 1.6 s a move, sixteen times
the time, against ``chamber`` at 0.1 s, 120 games in 5039 s of play (games in
``benchmarks/results/chamber_time16x_random_120.jsonl``)::

    python benchmarks/hybrid_strength.py --bots chamber,chamber+time=0.1 --time 1.6 \
        --maps none --random 60 --random-first 1100 --jobs 2

    pair                          maps    W   D   L   score    sign p  verdict  mean depth
    chamber v chamber+time=0.1    20x20  33  70  17   57% +-6   0.033  unclear  14.9 / 9.6
    no timeouts, crashes or bad output in 120 games

Five turns of depth win two of every three decided games (33-17), and even
that is not clear in a run of this size.  Per map: 24 drawn from both seats,
22 with one draw and one decided game (13 of those won by the bot with 16x
the time, 9 by the other), 6 won by the bot with 16x the time from both seats,
none by the other, 8 split.  64 of the 70 draws are head-on crashes, 57 of
them within 21 turns; every decided game lasted 66 turns or more.  A 66% share
of the decided games would be clear over the usual 254 games (some 110 of them
decided).  So to beat ``chamber`` clearly at equal time a bot must be worth
about what sixteen times the time is worth to ``chamber``: a search some
sixteen times faster, or an evaluation worth five turns of depth.

A better judgement of separated leaves is not it either (sessions 36-37,
machine otherwise idle).  At the 49 separation boards of 80 games of
``chamber`` against itself with a third of the time, the parity bound a search
leaf uses called the wrong result 10 times (off by 176 moves in all), the
chamber route of ``"chamber-fill"`` 5 times (121; ``benchmarks/separation.py``).
``chamber+evaluation=chamber-fill`` against ``chamber``, 0.1 s, both seats,
the 27 2010 maps and fresh random maps, W-D-L from chamber-fill's side: a
first run (``rand1300-1399``, 254 games) 69-145-40, sign p 0.007; a
confirming run of the same size (``rand1400-1499``) 59-149-46, p 0.24 (the games
of these two runs not kept); then
the deciding run, its size fixed before it started (``rand1500-1899``, 854
games in 46 minutes, two at a time; the games in
``benchmarks/results/chamber_fill_v_chamber_854.jsonl``)::

    python benchmarks/hybrid_strength.py --bots chamber+evaluation=chamber-fill,chamber \
        --random 400 --random-first 1500 --jobs 2

    pair                               maps    W    D    L   score    sign p  verdict  mean depth
    chamber+evaluation=chamber-fill   20x20  214  390  196  51% +-2    0.4   unclear  9.5 / 10.0
                                 google2010    8   40    6  52% +-7    0.79  unclear  11.8 / 13.6
                                        all  222  430  202  51% +-2    0.36  unclear  9.6 / 10.2
    no timeouts, crashes or bad output in 854 games

Level: the first run's p of 0.007 was luck, which is why a verdict waits for a
run fixed in advance.  The route costs half a turn of depth (the chamber tree
is built at every separated leaf) and wins back about as much as that loses.

The tables of the runs whose games are kept in ``benchmarks/results/`` print again
(each run of a file, by its tag) with::

    python benchmarks/strength.py --table-only --results benchmarks/results/FILE.jsonl
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

import strength  # noqa: E402

DEFAULTS = ["--bots", "hybrid,chamber", "--pairs", "all", "--random", "60", "--time", "0.1"]


def own_options(argv):
    """This wrapper's options and the rest of ``argv`` (strength.py's); ``--help``
    shows both."""
    ap = argparse.ArgumentParser(
        prog="hybrid_strength.py", add_help=False, allow_abbrev=False,
        description=" ".join(__doc__.split("\n\n")[0].split()) + "  Defaults: "
        + " ".join(DEFAULTS) + "; every other option is strength.py's (below).")
    ap.add_argument("--maps-dir", default=os.environ.get("TRONLAB_2010_MAPS"),
                    help="folder of the 2010 maps (default $TRONLAB_2010_MAPS, else "
                         "../shared/maps/google2010 beside the checkout)")
    args, rest = ap.parse_known_args(argv)
    if "-h" in rest or "--help" in rest:
        ap.print_help()
        print("\nstrength.py's options:")
        strength.parse(["--help"])
    return args, rest


def main(argv=None):
    args, argv = own_options(list(sys.argv[1:] if argv is None else argv))
    if args.maps_dir:
        strength.MAPS = os.path.abspath(args.maps_dir)
    given = {a for a in argv if a.startswith("--")}
    for k in range(0, len(DEFAULTS), 2):
        if DEFAULTS[k] not in given:
            argv = [DEFAULTS[k], DEFAULTS[k + 1]] + argv
    return strength.main(argv)


if __name__ == "__main__":
    sys.exit(main())
