r"""B2 strength: a hero bot (``nearest`` unless ``--hero``) against copies of another
(``random`` unless ``--other``) on the 35x20 grid, 2, 3 and 4 players, seats rotated
(the hero sits in every seat equally often), point-symmetric starts drawn per game.  A
win is ranking first alone, a loss ranking lower than first; a shared first is a draw
and is left out of the sign test.

    python benchmarks/capture_nearest.py [--games N] [--seed S] [--hero nearest] [--other random]

The same question through the project's arena (pairwise comparisons, stored games):

    for n in 2 3 4; do tronlab arena run --game backtothecode --bots nearest random \
        --schedule gauntlet --players $n --maps random:25 --seeds 2 --db capture.sqlite \
        --tag p$n; done

ms/turn is the wall time of a whole game divided by its turns (all players' moves
and the rules), on whatever machine runs it.

Measured (notebook 10 quotes both; the bots are untimed, so only ms/turn
depends on the machine: here 2 cores shared with a test run)::

    python benchmarks/capture_nearest.py --games 200

    nearest v random, 35x20, 200 games a row, seed 2015
    players  games  first  shared  lower        p  verdict  mean score (others)  ms/turn
          2    200    183       2     15  6.8e-38  clear         346.7 (255.7)     0.28
          3    200    199       0      1  2.5e-58  clear         284.9 (156.7)     0.32
          4    200    198       0      2  2.5e-56  clear         230.4 (122.5)     0.56

and the arena's gauntlet above (41 s for the three runs), W-D-L of the
pairwise comparisons from ``nearest``'s side (one a copy of ``random`` a game)::

    players  games  comparisons    W  D  L   sign p    verdict
          2    100          100   93  1  6   3.8e-21   clear
          3    150          300  300  0  0   9.8e-91   clear
          4    200          600  599  1  0   9.6e-181  clear

Notebook 11's table, ``rectangles`` against copies of ``nearest`` (session 44, the
machine otherwise idle, 23 s)::

    python benchmarks/capture_nearest.py --hero rectangles --other nearest --games 20 --seed 1100

    rectangles v nearest, 35x20, 20 games a row, seed 1100
    players  games  first  shared  lower        p  verdict  mean score (others)  ms/turn
          2     20     20       0      0  1.9e-06  clear         398.6 (184.2)     2.94
          3     20     20       0      0  1.9e-06  clear         341.4 (164.8)     1.52
          4     20     19       0      1    4e-05  clear         288.6 (135.3)     1.43
"""

import argparse

from tronlab.capture.arena import one_against_many, table_text


def main(argv=None):
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--hero", default="nearest")
    parser.add_argument("--other", default="random")
    args = parser.parse_args(argv)
    rows = {n: one_against_many(args.hero, args.other, n_players=n, games=args.games,
                                seed=args.seed + n) for n in (2, 3, 4)}
    print(f"{args.hero} v {args.other}, 35x20, {args.games} games a row, seed {args.seed}")
    print(table_text(rows))


if __name__ == "__main__":
    main()
