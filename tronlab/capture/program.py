"""Run a Back to the Code bot as a contest program on stdin/stdout.

    python -m tronlab.capture.program nearest
    python -m tronlab.capture.program random --seed 7
    python -m tronlab.capture.program paths+max_nodes=5000

The bots are those of ``tronlab bot NAME --protocol backtothecode``: every capture
bot of the registry (:mod:`tronlab.runner.registry`; ``tronlab bots --game
backtothecode`` lists them), with options as ``NAME+key=value``.

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

from ..runner.registry import bot_names, no_warm_up

_DESCRIPTION = ("a Back to the Code bot as a contest program: the same bots as 'tronlab bot "
                "NAME --protocol backtothecode', every capture bot that 'tronlab bots --game "
                "backtothecode' lists")


class _Parser(argparse.ArgumentParser):
    def format_help(self) -> str:
        """The help, ending with the registry's capture bots (looked up only here: loading
        every bot module costs a run that plays one bot)."""
        return super().format_help() + f"\nbots: {', '.join(bot_names('capture'))}\n"


def _make_bot(spec: str, seed):
    """The bot ``tronlab bot SPEC --protocol backtothecode`` plays, else a ValueError
    naming the problem (an unknown name, a wrong option, a program): checked as
    ``tronlab bot`` checks it (:func:`tronlab.arena.bots.check_spec`)."""
    if "+" in spec or spec.startswith(("py:", "cmd:")):
        from ..arena.bots import check_spec, is_program
        if is_program(spec):
            raise ValueError(f"this runs a registered bot, got {spec!r}: py: files and cmd: "
                             f"programs play in tronlab match and arena run")
        with no_warm_up():
            check_spec(spec, "backtothecode")
    from .cli import contest_bot
    return contest_bot(spec, seed=seed)


def main(argv=None, stdin=None, stdout=None) -> int:
    parser = _Parser(prog="python -m tronlab.capture.program", description=_DESCRIPTION)
    parser.add_argument("bot", metavar="BOT",
                        help="a capture bot's name, with options as NAME+key=value "
                             "(paths+max_nodes=5000)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    parser.add_argument("--width", type=int, default=35)
    parser.add_argument("--height", type=int, default=20)
    args = parser.parse_args(argv)
    from .cli import run_program

    problems = []
    try:
        bot = _make_bot(args.bot, args.seed)
        run_program(bot, stdin=stdin, stdout=stdout,
                    width=args.width, height=args.height, problems=problems)
    except ValueError as err:
        problems = [" ".join(str(err).split())]
    if problems:
        sys.stderr.write(f"{parser.prog}: error: {problems[0]}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
