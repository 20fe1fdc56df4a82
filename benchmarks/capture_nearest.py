r"""B2 strength: ``nearest`` against copies of ``random`` on the 35x20 grid, 2, 3 and 4
players, seats rotated (the hero sits in every seat equally often), point-symmetric
starts drawn per game.  A win is ranking first alone, a loss ranking lower than
first; a shared first is a draw and is left out of the sign test.

    python benchmarks/capture_nearest.py [--games N] [--seed S] [--other random]

The same question through the project's arena (pairwise comparisons, stored games):

    for n in 2 3 4; do tronlab arena run --game backtothecode --bots nearest random \
        --schedule gauntlet --players $n --maps random:25 --seeds 2 --db capture.sqlite \
        --tag p$n; done

ms/turn is the wall time of a whole game divided by its turns (all players' moves
and the rules), on whatever machine runs it.
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
