"""Run a built-in Back to the Code bot as a contest program on stdin/stdout.

    python -m tronlab.capture.program nearest
    python -m tronlab.capture.program random --seed 7

The program reads the referee's lines (:mod:`tronlab.capture.protocol`) and
answers one line a turn until its input ends.
"""

from __future__ import annotations

import argparse
import sys

from .bots import BOTS, get_bot
from .protocol import CaptureClient


def main(argv=None, stdin=None, stdout=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tronlab.capture.program",
                                     description="a Back to the Code bot as a contest program")
    parser.add_argument("bot", choices=sorted(BOTS))
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    parser.add_argument("--width", type=int, default=35)
    parser.add_argument("--height", type=int, default=20)
    args = parser.parse_args(argv)
    client = CaptureClient(stdin or sys.stdin, stdout or sys.stdout,
                           width=args.width, height=args.height)
    client.run(get_bot(args.bot, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
