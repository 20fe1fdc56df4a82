"""Run a built-in Back to the Code bot as a contest program on stdin/stdout.

    python -m tronlab.capture.program nearest
    python -m tronlab.capture.program random --seed 7

The program reads the referee's lines (:mod:`tronlab.capture.protocol`) and
answers one line a turn until its input ends, as ``tronlab bot NAME --protocol
backtothecode`` does (:func:`tronlab.capture.cli.run_program`): a broken turn is
named in one line on stderr and answered on the grid, a bot that raises is
answered for, and input it cannot go on from (a wrong opponent count, a turn cut
short) ends it with one line and exit code 2, as does input that ends on a broken turn.
"""

from __future__ import annotations

import argparse
import sys

from .bots import BOTS, get_bot


def main(argv=None, stdin=None, stdout=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tronlab.capture.program",
                                     description="a Back to the Code bot as a contest program")
    parser.add_argument("bot", choices=sorted(BOTS))
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    parser.add_argument("--width", type=int, default=35)
    parser.add_argument("--height", type=int, default=20)
    args = parser.parse_args(argv)
    from .cli import run_program

    problems = []
    try:
        run_program(get_bot(args.bot, args.seed), stdin=stdin, stdout=stdout,
                    width=args.width, height=args.height, problems=problems)
    except ValueError as err:
        problems = [" ".join(str(err).split())]
    if problems:
        sys.stderr.write(f"{parser.prog}: error: {problems[0]}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
