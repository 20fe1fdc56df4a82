"""``main``: parse the command line, run the command, and turn every error into one
line on stderr and exit code 2."""

from __future__ import annotations

import os
import sys

from .commands import cmd_bot, cmd_bots, cmd_maps, cmd_warmup
from .match import cmd_match
from .parser import EXIT_ERROR, CLIError, build_parser


COMMANDS = {"match": cmd_match, "maps": cmd_maps, "bots": cmd_bots, "bot": cmd_bot,
            "warmup": cmd_warmup}


def main(argv=None) -> int:
    """Entry point of the ``tronlab`` console script; returns the exit code."""
    debug = bool(os.environ.get("TRONLAB_DEBUG"))
    command_line = argv is None         # the real command, not a call from Python code
    argv = sys.argv[1:] if argv is None else list(argv)
    if command_line:
        reopen_closed_streams()
    if argv[:1] == ["arena"]:
        try:        # a Ctrl-C while the arena's modules load: no traceback
            from ..arena.cli import main as arena_main
        except KeyboardInterrupt:
            return 130
        return arena_main(argv[1:], command_line=command_line)
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise CLIError(f"choose a command: {', '.join(COMMANDS)} (see tronlab --help)")
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 0
    except Exception as err:  # noqa: BLE001 - one line, never a traceback
        if debug:
            raise
        sys.stderr.write(f"tronlab: error: {_one_line(err)}\n")
        return EXIT_ERROR


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split()) if str(err) else type(err).__name__
    if isinstance(err, (CLIError, ValueError)):
        return text
    if isinstance(err, OSError):
        return f"{err.strerror or text}" + (f": {err.filename}" if err.filename else "")
    return f"{type(err).__name__}: {text}"


def silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def reopen_closed_streams() -> None:
    """Put /dev/null where the command was started with stdin, stdout or stderr closed
    (``2>&-``, some service managers): Python leaves ``sys.stderr`` None there, and the
    first progress line or warning killed the command before any game, with nowhere to
    say why; and the file or pipe opened next would take the free descriptor, so that a
    program's output to it would land in that file."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False))  # noqa: SIM115
