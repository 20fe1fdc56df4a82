"""The ``tronlab`` command (also ``python -m tronlab``).

::

    tronlab match [--rules R] [--map MAP] BOT BOT [BOT BOT] [--seed N] [--time S]
                  [--max-turns N] [--json] [--save FILE]
    tronlab maps                       list the built-in maps
    tronlab bots [--game G]            list the registered bots (of Tron, or of game G)
    tronlab bot NAME --protocol P [--time S] [--seed N] [--verbose]
    tronlab arena run|table|replay ...  tournaments (see tronlab.arena.cli)

A BOT is a registered bot name or ``cmd:<command line>``, an external contest
program that speaks the protocol of ``--rules``.  ``--map`` is a Google 2010
map file or a built-in map name; without it google2010 plays on the built-in
``arena``, codingame on an empty 30x20 board with one start per BOT, and
lightriders on the 16x16 board with mirrored starts (both drawn with --seed).

Every error prints one line, ``tronlab: error: ...``, on stderr and exits with
code 2 (set ``TRONLAB_DEBUG=1`` to see the traceback instead).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys

from .tron.protocol import PROTOCOLS

EXIT_ERROR = 2
DEFAULT_MAP = "arena"


class CLIError(Exception):
    """A mistake in how the command was used: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise CLIError(message)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tronlab", description="Tron bots: play matches, list maps and bots, "
                                                 "run a bot as a contest program.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    m = sub.add_parser("match", help="play one game and print the result")
    m.add_argument("bots", nargs="+", metavar="BOT",
                   help="registered bot name, or cmd:<command line> for an external program")
    m.add_argument("--rules", choices=PROTOCOLS + ("backtothecode",), default="google2010")
    m.add_argument("--map", help="Google 2010 map file or built-in map name")
    m.add_argument("--seed", type=int, help="seed for the board and the bots")
    m.add_argument("--time", type=_positive, metavar="S", help="time limit per move in seconds")
    m.add_argument("--max-turns", type=int, metavar="N", help="stop the game after N turns")
    m.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    m.add_argument("--save", metavar="FILE", help="save the game record (JSON) to FILE")

    sub.add_parser("maps", help="list the built-in maps")
    sub.add_parser("bots", help="list the registered bots").add_argument(
        "--game", default="tron", help="a game or family: tron (default), backtothecode, ...")

    b = sub.add_parser("bot", help="run a registered bot as a contest program on stdin/stdout")
    b.add_argument("name", metavar="NAME")
    b.add_argument("--protocol", choices=PROTOCOLS + ("backtothecode",), required=True)
    b.add_argument("--time", type=_positive, metavar="S", help="thinking time per move")
    b.add_argument("--seed", type=int)
    b.add_argument("--verbose", action="store_true", help="log every turn on stderr")

    sub.add_parser("arena", help="tournaments: run, table, replay (tronlab arena --help)",
                   add_help=False)
    return parser


# ---- match --------------------------------------------------------------------------

def _make_bot(spec: str, rules: str, time):
    from .runner.registry import get_bot
    from .runner.external import ExternalBot

    if spec.startswith("cmd:"):
        command = spec[4:].strip()
        try:
            args = shlex.split(command)
        except ValueError as err:
            raise CLIError(f"cannot read the command in {spec!r}: {err}") from None
        if not args:
            raise CLIError("cmd: needs a command line, e.g. cmd:'python3 mybot.py'")
        program = args[0]
        if shutil.which(program) is None and not (os.sep in program and os.path.isfile(program)):
            raise CLIError(f"program not found: {program!r} (from {spec!r})")
        return ExternalBot(args, protocol=rules, name=os.path.basename(program)), spec
    return get_bot(spec, time=time), spec


def _board_for(args, n_bots: int, rng):
    from .tron.mapgen import codingame_board, lightriders_board
    from .tron.maps import load_map

    if args.map is not None:
        return load_map(args.map), args.map
    if args.rules == "google2010":
        return load_map(DEFAULT_MAP), DEFAULT_MAP
    if args.rules == "codingame":
        if not 2 <= n_bots <= 4:
            raise CLIError(f"codingame is for 2 to 4 players, got {n_bots} bots")
        return codingame_board(n_bots, rng=rng), "codingame 30x20"
    return lightriders_board(rng=rng), "lightriders 16x16"


def cmd_match(args) -> int:
    import numpy as np

    if args.rules == "backtothecode":
        from .capture.cli import cmd_match as capture_match
        return capture_match(args)
    from .runner.engine import play

    if args.max_turns is not None and args.max_turns < 0:
        raise CLIError(f"--max-turns must be 0 or more, got {args.max_turns}")
    rng = np.random.default_rng(args.seed)
    board, map_name = _board_for(args, len(args.bots), rng)
    if board.n_players != len(args.bots):
        raise CLIError(f"the map has {board.n_players} players but {len(args.bots)} bots "
                       f"were given")
    bots, specs = zip(*(_make_bot(spec, args.rules, args.time) for spec in args.bots))
    names = [getattr(bot, "name", None) or spec for bot, spec in zip(bots, specs)]
    names = [spec if spec.startswith("cmd:") else name for name, spec in zip(names, specs)]
    game_seed = int(rng.integers(2**63))
    record = play(board, list(bots), rules=args.rules, rng=game_seed, time_limit=args.time,
                  max_turns=args.max_turns, names=names,
                  metadata={"map": map_name, "cli_seed": args.seed})
    if args.save:
        try:
            record.save(args.save)
        except OSError as err:
            raise CLIError(f"cannot save the record to {args.save}: {err.strerror}") from None
    if args.json:
        print(json.dumps(match_summary(record, map_name)))
    else:
        print(match_text(record, map_name))
    return 0


def match_summary(record, map_name: str) -> dict:
    """The ``--json`` object: the outcome plus who played where."""
    out = record.outcome
    final = record.final if getattr(record, "final", None) is not None else record.replay()
    return {"rules": record.rules, "map": map_name, "names": record.metadata.get("names"),
            "seed": record.metadata.get("cli_seed"),
            "winner": out.winner, "ranking": out.ranking, "turns": out.turns,
            "deaths": out.deaths, "death_turns": out.death_turns, "details": out.details,
            "final": final.to_ascii().split("\n")}


def match_text(record, map_name: str) -> str:
    """Human-readable result: header, final board, one line per player.

    Players are numbered from 0 as everywhere in tronlab; ``[1/a]`` recalls that
    player 0 is drawn as head ``1`` (``A`` once dead) with trail ``a``.
    """
    out = record.outcome
    n = record.start.n_players
    names = record.metadata.get("names") or [f"bot {p}" for p in range(n)]
    final = record.final if getattr(record, "final", None) is not None else record.replay()
    lines = [f"{record.rules} on {map_name} ({final.width}x{final.height}), {n} players",
             final.to_ascii()]
    if out.winner is not None:
        verdict = f"player {out.winner} ({names[out.winner]}) wins"
    elif len(out.ranking[0]) > 1:
        verdict = "draw between players " + ", ".join(map(str, out.ranking[0]))
    else:
        verdict = "no winner"
    lines.append(f"after {out.turns} turns: {verdict}")
    for p, name in enumerate(names):
        if out.deaths[p] is None:
            fate = "still riding"
        else:
            detail = out.details[p] or f"turn {out.death_turns[p]}"
            fate = f"died ({out.deaths[p]}) {detail}"
        lines.append(f"  player {p} [{p + 1}/{'abcd'[p]}] {name}: {fate}")
    return "\n".join(lines)


# ---- maps, bots, bot ----------------------------------------------------------------

def cmd_maps(args) -> int:
    from .tron.mapgen import builtin_maps, load_builtin

    for name in builtin_maps():
        board = load_builtin(name)
        print(f"{name:<16} {board.width}x{board.height}")
    return 0


def cmd_bots(args) -> int:
    from .runner.registry import bot_names, describe

    for name in bot_names(args.game):
        print(f"{name:<16} {describe(name, game=args.game)}")
    return 0


def cmd_bot(args) -> int:
    import numpy as np

    if args.protocol == "backtothecode":
        from .capture.cli import cmd_bot as capture_bot
        return capture_bot(args)
    from .runner.registry import get_bot
    from .runner.stdio import run_stdio

    rng = np.random.default_rng(args.seed)
    bot = get_bot(args.name, rng=rng, time=args.time)
    run_stdio(bot, args.protocol, time_limit=args.time, rng=rng, verbose=args.verbose)
    return 0


COMMANDS = {"match": cmd_match, "maps": cmd_maps, "bots": cmd_bots, "bot": cmd_bot}


def main(argv=None) -> int:
    """Entry point of the ``tronlab`` console script; returns the exit code."""
    debug = bool(os.environ.get("TRONLAB_DEBUG"))
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["arena"]:
        from .arena.cli import main as arena_main
        return arena_main(argv[1:])
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise CLIError(f"choose a command: {', '.join(COMMANDS)} (see tronlab --help)")
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
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


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
