"""``tronlab arena``'s options: the parser of its commands (run, table, replay and
export, whose options :mod:`tronlab.arena.export` adds), their checks and the
examples in ``--help``.  The commands themselves are in :mod:`tronlab.arena.cli`."""

from __future__ import annotations

import argparse

from ..cli.parser import seconds, whole_count
from ..runner.games import game_names
from .common import ArenaError
from .export import add_parser as add_export_parser
from .giveup import GIVE_UP_AFTER
from .helptext import RUN_EXAMPLES, bank_help, give_up_help, maps_default, time_help


#: games with a replay in the leaderboard page, unless --replays says
REPLAYS = 500

#: games played at once by local processes: more than a big machine has cores is a typo
MAX_JOBS = 256


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ArenaError(message)

    def parse_args(self, args=None, namespace=None):
        args = super().parse_args(args, namespace)
        if "replays" in args:                   # run and table: the page's replays
            if args.replays is not None and not args.html:
                self.error("--replays chooses how many games of the leaderboard page get a "
                           "replay: give the page too, --html FILE")
            args.replays = REPLAYS if args.replays is None else args.replays
        return args


def _game_id(text):
    """A stored game's id: a whole number SQLite can hold (below 2**63)."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 19 \
            or int(text) >= 2**63:
        raise argparse.ArgumentTypeError(f"expected a game's id (the --html page lists "
                                         f"them), a whole number below 2**63, got {text!r}")
    return int(text)


def _add_run_parser(sub) -> None:
    """``tronlab arena run``'s options, on the subcommands ``sub`` of ``tronlab arena``."""
    r = sub.add_parser("run", help="play a tournament into a results database",
                       description="Play every game of the plan that the database lacks, "
                                   "then print the table.",
                       epilog=RUN_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("--game", choices=game_names(), default="google2010",
                   help="the contest's rules and protocol (default: google2010)")
    r.add_argument("--bots", nargs="*", default=[], metavar="BOT",
                   help="registered names (options as NAME+key=value, JSON values: "
                        "chamber+depth=3+tt=false), py:FILE or cmd:COMMAND")
    r.add_argument("--bots-dir", metavar="DIR",
                   help="a folder of student bots: a .py file with def move( is a py: bot; "
                        "one without it that reads its input or starts with #!, or any other "
                        "file with a #! line or compiled, is a contest program (cmd:); other "
                        "files, and names starting with . or _, are skipped")
    r.add_argument("--maps", help="map files, folders, built-in names, random:N (N up to 10000; "
                        f"comma-separated; default: {maps_default()})")
    r.add_argument("--players", type=int, default=2,
                   help="players a game (codingame and backtothecode: 2-4; default 2)")
    r.add_argument("--schedule", choices=("round-robin", "gauntlet"), default="round-robin",
                   help="every pair of bots, or the first bot against each other one "
                        "(default: round-robin)")
    r.add_argument("--seeds", type=int, default=1,
                   help="games per group, map and seating (1 to 1000, default 1; a plan holds "
                        "at most 100000 games, weeks of play)")
    r.add_argument("--time", type=seconds, metavar="S", help=time_help())
    r.add_argument("--bank", type=seconds, metavar="S", help=bank_help())
    r.add_argument("--depth", type=int,
                   help="fixed search depth (turns, 1 to 48: the Nash bot's deepest), searched "
                        "in full whatever --time, which then times only an uncapped endgame once "
                        "the players are apart (a bot's endgame_depth caps it: then it is "
                        "searched in full too; when a program plays, the engine's limit "
                        "still holds)")
    r.add_argument("--jobs", type=int, default=1,
                   help=f"games played at once (processes, 1 to {MAX_JOBS}, default 1)")
    r.add_argument("--dask", metavar="ADDRESS",
                   help="play on the Dask scheduler at ADDRESS (tcp://HOST:PORT) instead of "
                        "--jobs; workers need this tronlab and the bot and map files at the same "
                        "paths (relative ones: from here): one that fails is named and retired (if "
                        "none passes at the start, the run is refused); with no worker left the "
                        "run says so and waits (Ctrl-C stops it, keeping the games played)")
    r.add_argument("--give-up-after", type=whole_count, default=GIVE_UP_AFTER, metavar="K",
                   help=give_up_help())
    r.add_argument("--db", default="arena.sqlite", help="results database (default arena.sqlite)")
    r.add_argument("--tag", default="", help="label of this run's games (default: none)")
    r.add_argument("--html", metavar="FILE", help="also write the leaderboard page")
    r.add_argument("--replays", type=whole_count, metavar="N",
                   help="games with a replay in the page (default 500, the first ones)")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    r.add_argument("--verbose", action="store_true",
                   help="one line per stored game, with its number for 'arena replay'")


def build_parser():
    p = _Parser(prog="tronlab arena", description="tournaments, ratings, replays and CSV "
                                                "exports")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_run_parser(sub)
    t = sub.add_parser("table", help="print the tables of a results database (one report "
                                     "for each of the games it holds: google2010, ...)")
    t.add_argument("db", help="the results database (arena run --db)")
    t.add_argument("--tag", help="only games of this tag")
    t.add_argument("--game", help="only games of this game (google2010, codingame, "
                                  "lightriders, backtothecode)")
    t.add_argument("--html", metavar="FILE", help="also write the leaderboard page")
    t.add_argument("--replays", type=whole_count, metavar="N",
                   help="games with a replay in the page (default 500, the first ones)")
    v = sub.add_parser("replay", help="show one stored game")
    v.add_argument("db", help="the results database (arena run --db)")
    v.add_argument("id", type=_game_id, help="the game's number: the page's games list, the "
                                             "faults lines, arena run --verbose")
    v.add_argument("--json", action="store_true", help="print the full record as JSON")
    add_export_parser(sub)
    return p
