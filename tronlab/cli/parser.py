"""The ``tronlab`` command's options: their checks, defaults and examples in ``--help``."""

from __future__ import annotations

import argparse
import os

from ..tron.protocol import PROTOCOLS

EXIT_ERROR = 2
DEFAULT_MAP = "arena"
MAX_SECONDS = 86400.0   # --time above a day is a mistake (and overflows the clocks at 1e300)

EXAMPLES = """examples:
  tronlab match chamber minimax --map ring            two search bots, 1 s a move each
  tronlab match random hugger --time 0.1 --seed 3     a quick seeded game
  tronlab match hugger "cmd:python3 mybot.py"         your contest program against a bot
  tronlab match --rules codingame random hugger filler --json
  tronlab match --rules lightriders nash chamber --bank 10    the contest's clock
  tronlab bot chamber --protocol google2010           run a bot as a contest program
"""


class CLIError(Exception):
    """A mistake in how the command was used: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise CLIError(message)


def seconds(text: str) -> float:
    """A time limit in seconds: a number above 0 and at most :data:`MAX_SECONDS` (a day),
    for ``tronlab match``, ``tronlab bot`` and ``tronlab arena run`` alike."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= MAX_SECONDS:   # also inf and nan
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds up to "
                                         f"{MAX_SECONDS:g} (a day), got {text!r}")
    return value


def whole_count(text: str) -> int:
    """A whole number >= 0 (seeds, turn limits), in ASCII digits."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a whole number, 0 or more, got {text!r}")
    return int(text)


def turn_count(text: str) -> int:
    """A number of turns, 1 or more, in ASCII digits (``--max-turns 0`` would play no turn
    and call the game a draw)."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of turns, 1 or more, "
                                         f"got {text!r}")
    return int(text)


#: the first 16 bytes of every SQLite database file
SQLITE_HEADER = b"SQLite format 3\x00"


def is_database(path) -> bool:
    """True when ``path`` is an SQLite database file (a results database, say)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def file_problem(path, *, database=False) -> str | None:
    """Why a file could not be written at ``path`` (it is a folder, its folder is
    missing or not writable, it is there and not writable), or None: commands check
    their output files before the work, not after it.  An empty path is a problem too:
    ``--save ""`` is a slip, not a request to save nothing.  A page, a CSV file or a
    record is never written over an SQLite database (a results file one tab completion
    away); ``database=True`` is for the database itself."""
    if not path:
        return "the path is empty"
    if not database and os.path.isfile(path) and is_database(path):
        return ("it is an SQLite database (a results file?): writing there would destroy "
                "it, give another file name")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "it is a folder"
    if not os.path.isdir(folder):
        return f"no folder {folder}"
    if not os.access(folder, os.W_OK):
        return f"folder {folder} is not writable"
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "the file is not writable"
    return None


def check_save(path) -> None:
    """Refuse ``--save`` before the game (both rule families' ``match``) when the record
    could not be written there."""
    problem = file_problem(path)
    if problem:
        raise CLIError(f"cannot save the record to {path}: {problem}")


def _add_match(sub, fmt) -> None:
    """The ``match`` command's options."""
    m = sub.add_parser("match", help="play one game and print the result", epilog=EXAMPLES,
                       formatter_class=fmt,
                       description="Play one game and print the final board and who won.")
    m.add_argument("bots", nargs="+", metavar="BOT",
                   help="registered bot name (see 'tronlab bots'), with options as "
                        "NAME+key=value (JSON values: chamber+depth=3+tt=false), "
                        "cmd:<command line> for an external program, or py:FILE for a "
                        "Python file with move(board, player) (Tron games)")
    m.add_argument("--rules", choices=PROTOCOLS + ("backtothecode",), default="google2010",
                   help="the contest's rules and protocol (default: %(default)s)")
    m.add_argument("--map", help=f"Google 2010 map file or built-in map name (default: "
                                 f"{DEFAULT_MAP} for google2010, a drawn board otherwise)")
    m.add_argument("--seed", type=whole_count, metavar="N",
                   help="seed for the board and the bots (default: a fresh random seed)")
    m.add_argument("--time", type=seconds, metavar="S",
                   help="time limit per move in seconds, 3x for the first move, and at "
                        "least 5 s when a py: or cmd: program plays (it has to start up; "
                        "TRONLAB_PROGRAM_START) (default: no "
                        "limit; search bots then think 1 s a move under google2010, 0.2 s "
                        "under lightriders, 0.1 s under codingame); backtothecode programs: "
                        "default 0.1 s, and the first turn gets at least 1 s; with --bank: "
                        "the seconds added to the bank before each move (default 0.2)")
    m.add_argument("--bank", type=seconds, metavar="S",
                   help="lightriders only: play under the contest's time bank instead of a "
                        "limit per move: each bot's bank starts at S seconds, --time is "
                        "added before each move (capped at S), a search bot plans from its "
                        "bank, and an answer after the bank ran out is a timeout that shuts "
                        "the bot down (the contest: --bank 10, 0.2 s a move; a program's "
                        "bank starts once it has read its settings). Default: no bank")
    m.add_argument("--max-turns", type=turn_count, metavar="N",
                   help="stop the game after N turns (backtothecode: after in-game round N, "
                        "so a BACK adds turns; default: play to the end)")
    m.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    m.add_argument("--save", metavar="FILE",
                   help="save the game record (JSON) to FILE; its folder must exist")


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog="tronlab", description="Tron bots: play matches, list maps and bots, "
                                                 "run a bot as a contest program.",
                     epilog=EXAMPLES, formatter_class=fmt)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    _add_match(sub, fmt)

    sub.add_parser("maps", help="list the built-in maps")
    sub.add_parser("bots", help="list the registered bots").add_argument(
        "--game", default="tron", help="a game or family: tron (default), backtothecode, ...")

    b = sub.add_parser("bot", help="run a registered bot as a contest program on stdin/stdout",
                       formatter_class=fmt,
                       epilog="examples:\n  tronlab bot chamber --protocol google2010 --time 0.5"
                              "\n  tronlab bot chamber+depth=3+tt=false --protocol codingame")
    b.add_argument("name", metavar="NAME",
                   help="a registered bot: tronlab bots lists them (--game backtothecode for "
                        "the capture game), with options as in match and arena run: "
                        "NAME+key=value (JSON values: chamber+depth=3+tt=false; a wrong one "
                        "is refused before any input is read; an option time= is the bot's "
                        "thinking time and wins over --time, as in match); a bot your own code "
                        "registers runs from a script that imports it and tronlab.cli "
                        "and calls tronlab.cli.main(['bot', NAME, ...])")
    b.add_argument("--protocol", choices=PROTOCOLS + ("backtothecode",), required=True,
                   help="the contest whose input the program reads on stdin and whose "
                        "answers it writes on stdout")
    b.add_argument("--time", type=seconds, metavar="S",
                   help="thinking time per move, unless NAME has a time= option (default: the "
                        "protocol's: 1 s google2010, 0.1 s codingame; under lightriders the "
                        "search bots plan from the time bank each 'action move' line gives, not "
                        "from --time; the backtothecode bots keep to "
                        "the contest's 100 ms and take no --time)")
    b.add_argument("--seed", type=whole_count, metavar="N",
                   help="seed for the bot (default: a fresh random seed)")
    b.add_argument("--width", type=whole_count, metavar="W",
                   help="backtothecode only: the grid's width (default 35, the contest's; its "
                        "input never says; the Tron protocols' input gives the size)")
    b.add_argument("--height", type=whole_count, metavar="H",
                   help="backtothecode only: the grid's height (default 20)")
    b.add_argument("--verbose", action="store_true", help="log every turn on stderr")

    sub.add_parser("arena", help="tournaments: run, table, replay (tronlab arena --help)",
                   add_help=False)
    w = sub.add_parser("warmup", help="compile every kernel once, so bots start fast "
                                      "(numba's cache, then the ahead-of-time module)")
    w.add_argument("--no-aot", action="store_true", help="fill numba's cache only")
    w.add_argument("--quiet", action="store_true", help="no line per step")
    return parser
