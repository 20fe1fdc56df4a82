"""The command line for Back to the Code (called from :mod:`tronlab.cli`).

::

    tronlab match --rules backtothecode BOT BOT [BOT BOT] [--seed N] [--time S]
                  [--max-turns N] [--json] [--save FILE]
    tronlab bot NAME --protocol backtothecode [--seed N] [--verbose]

A BOT is a capture bot's name (``tronlab bots`` lists them) or
``cmd:<command line>``, an outside contest program
(:class:`~tronlab.capture.external.CaptureProgram`).  ``--time`` is the
limit per turn of outside programs (default 0.1 s, 1 s for the first turn;
with ``--time S`` the first turn gets 3 S, and at least 1 s);
``--max-turns`` becomes the game's round limit.  The game is played on the
35x20 grid with point-symmetric starts drawn with ``--seed``.
"""

from __future__ import annotations

import json
import sys
import time
import traceback

from .ascii import format_grid
from .game import CaptureRecord, play_capture
from .protocol import CaptureClient, format_answer
from .state import MAX_SIDE


def _error(message):
    from ..cli import CLIError
    return CLIError(message)


def make_player(spec: str, time_limit=None, rng=None):
    """A capture bot from a CLI spec: a registered name (with options:
    ``paths+max_nodes=5000``) or ``cmd:<command>``."""
    from ..cli.match import program_args, registered_bot
    from .external import CaptureProgram

    if spec.startswith("cmd:"):
        args = program_args(spec)
        return CaptureProgram(args, name=spec, time_limit=time_limit)   # first: 3x, >= 1 s
    if spec.startswith("py:"):
        raise _error(f"py: bots play the Tron games, not backtothecode (got {spec!r}); a "
                     f"Back to the Code program is cmd:<command line>")
    return registered_bot(spec, "backtothecode", rng=rng)


def cmd_match(args) -> int:
    """``tronlab match --rules backtothecode``: one game, its result as text or JSON."""
    import numpy as np

    if not 2 <= len(args.bots) <= 4:
        raise _error(f"backtothecode is for 2 to 4 players, got {len(args.bots)} bots")
    if args.map is not None:
        raise _error("backtothecode is played on the 35x20 grid: --map does not apply")
    if args.max_turns is not None and args.max_turns < 1:
        raise _error(f"--max-turns must be at least 1, got {args.max_turns}")
    if args.save is not None:
        from ..cli.parser import check_save
        check_save(args.save)
    rng = np.random.default_rng(args.seed)
    players = [make_player(spec, args.time, int(rng.integers(2**63))) for spec in args.bots]
    record = play_capture(players, rng=rng, round_limit=args.max_turns,
                          metadata={"names": list(args.bots), "cli_seed": args.seed})
    if args.save is not None:
        try:
            record.save(args.save)
        except OSError as err:
            raise _error(f"cannot save the record to {args.save}: {err.strerror}") from None
    print(json.dumps(match_summary(record)) if args.json else match_text(record))
    return 0


def eliminations(record: CaptureRecord) -> dict:
    """player -> [round, kind, why] of the event that eliminated it; ``why`` is the
    game's note for that turn when there is one (what the program did)."""
    from .rules import ELIMINATIONS
    notes = {(turn, p): text for turn, p, text in record.notes}
    return {e[2]: [e[1], e[3], notes.get((e[0], e[2]), e[4])]
            for e in record.events if e[3] in ELIMINATIONS}


def ranking(ranks) -> list:
    """Players grouped by rank, best first: ``[[1], [0, 2]]``."""
    return [[p for p, r in enumerate(ranks) if r == rank] for rank in sorted(set(ranks))]


def match_summary(record: CaptureRecord) -> dict:
    """The ``--json`` object."""
    out = record.outcome
    return {"rules": "backtothecode", "names": record.metadata.get("names"),
            "seed": record.metadata.get("cli_seed"), "reason": out["reason"],
            "round": out["round"], "turns": out["turns"], "scores": out["scores"],
            "ranks": out["ranks"], "ranking": ranking(out["ranks"]),
            "eliminated": {str(p): v for p, v in eliminations(record).items()},
            "final": record.final}


def match_text(record: CaptureRecord) -> str:
    """Header, the final grid (``.`` neutral, digits the owners), one line a player
    (an eliminated one's says when, the fault and what the program did)."""
    out = record.outcome
    names = record.metadata.get("names") or [f"bot {p}" for p in range(record.n_players)]
    gone = eliminations(record)
    lines = [f"backtothecode {record.width}x{record.height}, {record.n_players} players, "
             f"ended after round {out['round']} ({out['reason']})", *record.final]
    for p in sorted(range(record.n_players), key=lambda q: (out["ranks"][q], q)):
        fate = ""
        if p in gone:
            rnd, kind, why = gone[p]
            fate = f", eliminated in round {rnd} ({kind}" + (f": {why})" if why else ")")
        lines.append(f"  rank {out['ranks'][p]}: player {p} {names[p]} "
                     f"{out['scores'][p]} squares{fate}")
    return "\n".join(lines)


def run_program(bot, *, stdin=None, stdout=None, stderr=None, verbose=False,
                width=35, height=20, problems=None) -> int:
    """Play one game as a contest program (on the 35x20 grid by default); return
    the answers given.  A bot that raises is logged on stderr in one line (with its traceback
    when ``verbose``) and answered for: it stays where it is, so a bug never loses
    the game by silence.  A turn that breaks the protocol is reported in one line
    and answered with a square on the grid (:meth:`CaptureClient.turns`); when the
    input ends on such a turn, ``problems`` (a list) receives why."""
    from ..runner.stdio import check_stream

    stdin = sys.stdin if stdin is None else check_stream("stdin", stdin, "readline")
    stdout = sys.stdout if stdout is None else check_stream("stdout", stdout)
    stderr = stderr or sys.stderr
    client = CaptureClient(stdin, stdout, width=width, height=height)

    def log(message):
        stderr.write(message + "\n")
        stderr.flush()

    warmup = _prepare(bot, log)

    try:
        for view in client.turns(log):
            t0 = time.perf_counter()
            try:
                text = action = bot(view, 0)
                format_answer(action)       # a ValueError for what is no action
            except Exception as err:
                text = action = view.positions[0]   # a square: never an own '-1 -1 0'
                log(f"tronlab bot: round {view.round}: the bot failed ({type(err).__name__}: "
                    f"{err}), staying at {text[0]} {text[1]}"
                    + ("\n" + traceback.format_exc() if verbose else ""))
            client.answer(action)   # a server gone away (BrokenPipeError) ends the game
            if warmup is not None:
                warmup.begin()      # the first answer is out: the load may take the GIL now
                if warmup.error is not None:
                    log(load_failed(warmup.error))
                    warmup = None
            if verbose:
                stderr.write(f"round {view.round}: {text} "
                             f"({(time.perf_counter() - t0) * 1000:.1f} ms)\n"
                             + format_grid(view.owner) + "\n")
    except BrokenPipeError:
        pass
    if client.broken is not None and problems is not None:
        problems.append(client.broken)
    if hasattr(bot, "close"):
        bot.close()                 # a StartingCapture's worker, say
    if warmup is not None and warmup.done:
        from ..jit.cache import mark_warm
        mark_warm(WARM_NAME)        # numba's cache holds them now: no hint next time
    return client.answers


WARM_NAME = "capture"       # numba's cache marker of the capture bots' kernels
COLD_HINT = ("tronlab bot: numba's cache is cold, so the capture search is not ready; "
             "answering with the nearest-neutral rule (B2) while its kernels compile in the "
             "background (run `tronlab warmup` once to start at full strength)")


def load_failed(err) -> str:
    """The line saying the capture kernels did not load (the bot stays on B2 for the game)."""
    return (f"tronlab bot: the capture search's kernels failed to load "
            f"({type(err).__name__}: {err}); answering with the nearest-neutral rule (B2) "
            f"for the rest of the game")


def _prepare(bot, log):
    """The bot's ``prepare_for_protocol`` hook, if it has one (the rectangle and path bots
    load their kernels in a background :class:`~tronlab.capture.warmup.Warmup`, which
    :func:`run_program` lets begin once the first answer is written); returns that
    Warmup, or None.  On a cold numba cache the compile takes tens of seconds, a
    good part of the game played by the fallback rule: :data:`COLD_HINT` says so."""
    if not hasattr(bot, "prepare_for_protocol"):
        return None
    bot.prepare_for_protocol()
    warmup = getattr(bot, "warmup", None)
    if getattr(warmup, "error", None) is not None:  # the AOT twins, run at once, failed
        log(load_failed(warmup.error))
        return None
    if getattr(warmup, "thread", None) is None:     # no Warmup, or the AOT twins: ready
        return None
    from ..jit.cache import is_warm
    if not is_warm(WARM_NAME):
        log(COLD_HINT)
    return warmup


def contest_bot(spec: str, *, seed=None, stderr=None):
    """The bot ``tronlab bot SPEC --protocol backtothecode`` plays: the registered bot
    itself when it needs no kernels or the ahead-of-time twins are loaded, else a
    started :class:`~tronlab.capture.starting.StartingCapture` (its kernels load in a
    worker process, never beside this one's answers).  The caller checks ``spec`` first."""
    from ..jit import aot
    from ..runner.registry import make_spec_bot

    bot = make_spec_bot(spec, game="backtothecode", rng=seed)
    if not hasattr(bot, "prepare_for_protocol") or aot.loaded_names():
        return bot
    from .starting import StartingCapture

    starting = StartingCapture(spec, seed=seed, stderr=stderr)
    starting.start()
    return starting


def cmd_bot(args) -> int:
    """``tronlab bot NAME --protocol backtothecode``."""

    if args.time is not None:
        raise _error("--time: the backtothecode bots keep to the contest's clock (1000 ms "
                       "for the first turn, 100 ms after) and take no thinking time")
    width = 35 if getattr(args, "width", None) is None else args.width
    height = 20 if getattr(args, "height", None) is None else args.height
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise _error(f"--width/--height: the grid is 1 to {MAX_SIDE} squares a side (the "
                     f"contest's is 35x20), got {width}x{height}")
    problems = []
    answers = run_program(contest_bot(args.name, seed=args.seed),
                          verbose=args.verbose, problems=problems, width=width, height=height)
    if problems:        # garbage in: say so by the exit code, as the Tron protocols do
        raise _error(f"the backtothecode input ended on a broken turn (see the line above); "
                     f"{answers} turn{'s were' if answers != 1 else ' was'} answered")
    return 0
