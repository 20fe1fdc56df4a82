"""``tronlab match``: one game between registered bots and external programs."""

from __future__ import annotations

import json
import os
import sys

from .parser import DEFAULT_MAP, CLIError, check_save
from .progress import Progress, is_terminal


def _make_bot(spec: str, rules: str, time):
    from ..runner.external import ExternalBot

    if spec.startswith("cmd:"):
        args = program_args(spec)
        return ExternalBot(args, protocol=rules, name=os.path.basename(args[0])), spec
    return registered_bot(spec, rules, time=time), spec


def program_args(spec: str) -> list[str]:
    """The arguments of a ``cmd:`` bot whose program can start; a CLIError says
    what is wrong (:func:`tronlab.arena.bots.check_program`)."""
    from ..arena.bots import check_program

    try:
        return check_program(spec)
    except ValueError as err:
        raise CLIError(" ".join(str(err).split())) from None


def registered_bot(spec: str, rules: str, *, time=None, rng=None):
    """A registered bot of any game, with options as the arena takes them
    (``chamber+depth=3``, ``paths+max_nodes=5000``), or a student's ``py:`` file run
    as the arena runs it (a process of its own, on the game's clock; ``time`` does not
    apply); a wrong spec (a file that cannot load) is one CLIError."""
    from ..arena.bots import make_bot

    check_bot_spec(spec, rules)
    return make_bot(spec, rules, time=time, rng=rng)


def check_bot_spec(spec: str, rules: str) -> None:
    """:func:`tronlab.arena.bots.check_spec` as one CLIError: an unknown bot, a wrong
    option (the bot is made once with its options), a ``py:`` file that cannot load."""
    from ..arena.bots import check_spec

    try:
        check_spec(spec, rules)
    except ValueError as err:
        raise CLIError(" ".join(str(err).split())) from None


def _first_limit(time, specs):
    """The engine's first-move limit: 3x ``time``, and at least the arena's start-up
    floor when a program plays (starting Python and tronlab takes a good part of a
    second, more on a busy machine), as ``tronlab arena run`` allows."""
    from ..arena.bots import is_program
    from ..arena.play import program_start

    if time is None:
        return None
    programs = any(is_program(spec) for spec in specs)
    return max(round(3 * time, 9), program_start() if programs else 0)    # 0.3, not 0.300..04


def _board_for(args, n_bots: int, rng):
    from ..tron.mapgen import codingame_board, lightriders_board
    from ..tron.maps import load_map

    if args.map is not None:
        board = load_map(args.map)
        if args.rules == "lightriders":
            _two_players(board, args.map)     # play() gives a map the contest's facings
        return board, args.map
    if args.rules == "google2010":
        return load_map(DEFAULT_MAP), DEFAULT_MAP
    if args.rules == "codingame":
        if not 2 <= n_bots <= 4:
            raise CLIError(f"codingame is for 2 to 4 players, got {n_bots} bots")
        return codingame_board(n_bots, rng=rng), "codingame 30x20"
    return lightriders_board(rng=rng), "lightriders 16x16"


def _two_players(board, name) -> None:
    """Light Riders is for two: a map of another number of players is refused here, in
    the CLI's words."""
    if board.n_players != 2:
        raise CLIError(f"lightriders is a 2-player game but map {name} has "
                       f"{board.n_players} players")


def _programs_see(board, name, specs) -> None:
    """A CodinGame program is told no grid: a map it cannot see is refused before the game
    when a program plays (each would lose on a wall it was never shown)."""
    from ..arena.bots import is_program
    from ..tron.protocol import codingame_board_problem

    problem = codingame_board_problem(board)
    if problem is not None and any(is_program(spec) for spec in specs):
        raise CLIError(f"--map {name}: {problem}; a program plays codingame on the "
                       f"contest's board (leave out --map)")


def _bank(args):
    """The engine's ``time_bank`` for ``--bank`` (None without it): the bank, and
    ``--time`` (default: the contest's 0.2 s) added before each move."""
    if args.bank is None:
        return None
    if args.rules != "lightriders":
        raise CLIError(f"--bank is for --rules lightriders (the only game played with a "
                       f"time bank); {args.rules} takes --time, a limit per move")
    from ..runner.games import get_game
    return args.bank, get_game("lightriders").move_time if args.time is None else args.time


def cmd_match(args) -> int:
    import numpy as np

    bank = _bank(args)
    if args.rules == "backtothecode":
        from ..capture.cli import cmd_match as capture_match
        return capture_match(args)
    from ..runner.engine import play

    if args.save is not None:
        check_save(args.save)
    rng = np.random.default_rng(args.seed)
    board, map_name = _board_for(args, len(args.bots), rng)
    if board.n_players != len(args.bots):
        raise CLIError(f"the map has {board.n_players} players but {len(args.bots)} bots "
                       f"were given")
    if args.rules == "codingame":
        _programs_see(board, map_name, args.bots)
    bots, specs = zip(*(_make_bot(spec, args.rules, args.time) for spec in args.bots))
    names = [getattr(bot, "name", None) or spec for bot, spec in zip(bots, specs)]
    names = [spec if spec.startswith("cmd:") or (not spec.startswith("py:") and "+" in spec)
             else name for name, spec in zip(names, specs)]     # chamber+depth=3 as given
    game_seed = int(rng.integers(2**63))
    progress = Progress(names) if is_terminal(sys.stderr) else None
    clock = ({"time_bank": bank} if bank is not None else
             {"time_limit": args.time, "first_time_limit": _first_limit(args.time, specs)})
    try:
        record = play(board, list(bots), rules=args.rules, rng=game_seed, **clock,
                      max_turns=args.max_turns, names=names, on_step=progress,
                      metadata={"map": map_name, "cli_seed": args.seed})
    finally:
        if progress is not None:
            progress.clear()
    if args.save is not None:
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
    """The ``--json`` object: the outcome plus who played where, and each player's first
    fault (``{"turn", "kind", "detail"}`` or None: under Light Riders a bot that timed out
    is shut down and dies later of something else, which ``deaths`` alone hides)."""
    out = record.outcome
    final = record.final if getattr(record, "final", None) is not None else record.replay()
    return {"rules": record.rules, "map": map_name, "names": record.metadata.get("names"),
            "seed": record.metadata.get("cli_seed"),
            "winner": out.winner, "ranking": out.ranking, "turns": out.turns,
            "deaths": out.deaths, "death_turns": out.death_turns, "details": out.details,
            "faults": [_fault_summary(first_fault(record, p))
                       for p in range(record.start.n_players)],
            "clock": {key: record.metadata.get(key)
                      for key in ("time_limit", "first_time_limit", "time_bank")},
            "final": final.to_ascii().split("\n")}


def match_text(record, map_name: str, *, clock: bool = True) -> str:
    """Human-readable result: header (with the clock unless ``clock=False``), final
    board, one line per player.

    Players are numbered from 0 as everywhere in tronlab; ``[1/a]`` recalls that
    player 0 is drawn as head ``1`` (``A`` once dead) with trail ``a``.
    """
    out = record.outcome
    n = record.start.n_players
    names = record.metadata.get("names") or [f"bot {p}" for p in range(n)]
    final = record.final if getattr(record, "final", None) is not None else record.replay()
    head = f"{record.rules} on {map_name} ({final.width}x{final.height}), {n} players"
    lines = [head + (f"; clock: {clock_of(record)}" if clock else ""), final.to_ascii()]
    if out.winner is not None:
        verdict = f"player {out.winner} ({names[out.winner]}) wins"
    elif len(out.ranking[0]) > 1:
        verdict = "draw between players " + ", ".join(map(str, out.ranking[0]))
    else:
        verdict = "no winner"
    lines.append(f"after {out.turns} turn{'' if out.turns == 1 else 's'}: {verdict}")
    for p, name in enumerate(names):
        if out.deaths[p] is None:
            fate = "still riding"
        else:
            detail = out.details[p] or f"turn {out.death_turns[p]}"
            fate = f"died ({out.deaths[p]}) {detail}"
        lines.append(f"  player {p} [{p + 1}/{'abcd'[p]}] {name}: {fate}")
        fault = first_fault(record, p)
        if fault is not None and out.deaths[p] != fault.get("kind"):
            # Light Riders: a faulty bot keeps going straight and dies of something else
            lines.append(f"    {fault['kind']} on turn {fault['turn']}, then it kept going "
                         f"straight: {fault.get('detail') or ''}".rstrip(": "))
    return "\n".join(lines)


def clock_of(record) -> str:
    """The clock a game was played under, from its record's metadata."""
    meta = record.metadata
    if meta.get("time_bank"):
        bank, per = meta["time_bank"]
        return f"time bank {bank:g} s, {per:g} s added a move"
    limit, first = meta.get("time_limit"), meta.get("first_time_limit")
    if limit is None:
        return "none from the game (each bot keeps its own time)"
    return f"{limit:g} s a move, {first:g} s the first" if first else f"{limit:g} s a move"


def _fault_summary(event):
    return None if event is None else {key: event.get(key) for key in ("turn", "kind", "detail")}


def first_fault(record, player):
    """The first fault event of ``player`` in a Tron ``record`` (None: it made none)."""
    from ..tron.rules import FAULTS
    return next((e for e in getattr(record, "events", ())
                 if e.get("player") == player and e.get("kind") in FAULTS), None)
