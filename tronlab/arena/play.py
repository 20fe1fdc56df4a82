"""One game of a plan, played where it lands (this process, a pool worker, a Dask worker).

:func:`play_spec` builds the board and the bots of a :class:`~tronlab.arena.schedule.GameSpec`,
plays it with the game's engine and returns a *row*: a plain dict (it crosses
process boundaries) with the result by seat and the full record as JSON, which
:mod:`tronlab.arena.store` writes in one transaction.

Limits: a bot gets ``spec.time`` seconds a move to think with; the engine calls
a timeout after twice that (six times for the first move), so machine noise
rarely decides a game.  At a fixed ``depth``, when every bot is a registered one
the engine sets no clock and the search bots search exactly that deep however long it
takes (:meth:`~tronlab.tron.bots.base._Bot.depth_deadline`), and so does the endgame
solver once the players are apart when the bot caps it (``endgame_depth``); an uncapped
one still stops at ``spec.time``.  So the games are the same on any machine when every
bot caps its endgame (or its uncapped solves finish in time).  When a
program (py:, cmd:) plays, every bot keeps the engine's clock, so it can never hang a
game, and a search bot stops its fixed-depth search at half the engine's limit
(``spec.time``; on the first move half the first move's, at least
:data:`PROGRAM_START` / 2).  When a program plays, the
first move may take at least :data:`PROGRAM_START` seconds (for every seat),
because starting a Python program takes a good part of a second, and more than two
on a busy machine (1.2-1.3 s measured at load 10 on two cores, and a crashing bot
then timed out before it could crash).  ``TRONLAB_PROGRAM_START`` (seconds) sets
another floor, for a fast machine or a class whose programs hang often: every
hanging program costs that long a game.

So a program may take longer than its contest would allow (CodinGame: 100 ms a
turn, 150 ms with Back to the Code's referee grace), when ``spec.time`` is large
enough, and still play on: each row's ``slow`` says, for every program seat, how
many of its answers the contest's own clock would have timed out and the slowest
(:func:`slow_answers`, :mod:`tronlab.runner.contestclock`), and the report says
it (:mod:`tronlab.arena.slow`).

A Light Riders game with ``spec.bank`` is played under the contest's time bank
instead (``play(..., time_bank=(spec.bank, spec.time))``), for registered bots
and programs alike, at a fixed depth too: the bank is each bot's whole clock.  A
program's bank starts once it has read its settings
(:meth:`tronlab.runner.external.ExternalBot.start_game`), so both seats' start-up is
off the bank; no first-move floor applies (the bank holds the first move's time).

Search kernels compile (or load from numba's cache) on first use; :func:`warm_up`
does that once per process with a short unrecorded game, so no real game pays
for it.
"""

from __future__ import annotations

import json
import os
import time as _time

from ..capture.rules import ELIMINATIONS
from .bots import bot_files, bot_files_hash, bot_name, is_program, make_bot

_warm: set = set()
#: the registered bots every worker of a pool or a cluster loads before its first game
DEFAULT_WARM = ("random", "hugger", "filler", "voronoi", "minimax", "chamber")
#: ``last_stats["mode"]`` of a move that searched (its depth is counted)
SEARCH_MODES = ("search", "nash", "hybrid")


def plan_warm(plan) -> list:
    """The bots of :data:`DEFAULT_WARM` that the Tron games of ``plan`` play: what a
    pool or a cluster loads in each worker before its first game (a capture game's
    bots are other bots, loaded by their first game)."""
    from ..runner.games import get_game

    return sorted({b for spec in plan if get_game(spec.game).family == "tron"
                   for b in spec.bots if b in DEFAULT_WARM})


def warm_up(specs=DEFAULT_WARM, family="tron") -> list:
    """Load the kernels of every named registered bot of a game family in this
    process (once each), with a short unrecorded game."""
    from ..capture.game import play_capture
    from ..runner.engine import play
    from ..tron.mapgen import load_builtin

    done = []
    for spec in specs:
        if (family, spec) in _warm or is_program(spec):
            continue
        _warm.add((family, spec))
        if family == "capture":
            play_capture([make_bot(spec, "backtothecode", rng=0), "random"], rng=0, width=8,
                         height=5, round_limit=20)
        else:
            bot = make_bot(spec, "google2010", time=0.05)
            play(load_builtin("arena"), [bot, make_bot("random", "google2010")], rng=0,
                 max_turns=20)
        done.append(spec)
    return done


class _Depths:
    """Passes moves through and notes the search depth of every searched move and the
    wall time of every answer (``seconds``, one a call: None for a call that raised)."""

    def __init__(self, bot):
        self.bot, self.depths, self.seconds = bot, [], []
        self.name = getattr(bot, "name", "bot")
        for hook in ("start_game", "set_clock", "end_game", "close", "stderr_text"):
            if hasattr(bot, hook):
                setattr(self, hook, getattr(bot, hook))

    def __call__(self, board, player):
        k = len(self.seconds)
        self.seconds.append(None)
        t0 = _time.perf_counter()
        move = self.bot(board, player)
        self.seconds[k] = _time.perf_counter() - t0
        stats = getattr(self.bot, "last_stats", None) or {}
        if isinstance(stats, dict) and stats.get("mode") in SEARCH_MODES and "depth" in stats:
            self.depths.append(stats["depth"])
        return move


#: the least first-move time when a program plays: starting Python takes a while
PROGRAM_START = 5.0


def program_start() -> float:
    """The first-move floor for programs: ``$TRONLAB_PROGRAM_START`` or :data:`PROGRAM_START`."""
    text = os.environ.get("TRONLAB_PROGRAM_START")
    if not text:
        return PROGRAM_START
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 3600:
        raise ValueError(f"TRONLAB_PROGRAM_START must be seconds between 0 and 3600, got {text!r}")
    return value


def _limits(spec, start=None):
    programs = any(is_program(b) for b in spec.bots)
    if spec.time is None or (spec.depth is not None and not programs):
        return None, None
    floor = (program_start() if start is None else start) if programs else 0
    return 2 * spec.time, max(6 * spec.time, floor)


def _play_tron(spec, cwd=None, start=None) -> dict:
    import numpy as np

    from ..runner.engine import play
    from .maps import make_board

    board = make_board(spec.game, spec.map, len(spec.bots))
    seeds = np.random.default_rng(spec.seed).integers(2**63, size=len(spec.bots))
    bank = getattr(spec, "bank", None)
    # under a time bank a program's clock is the bank the engine keeps and tells it
    limit, first = _limits(spec, start) if bank is None else (None, None)
    clock = ({"time_limit": limit, "first_time_limit": first} if bank is None else
             {"time_bank": (bank, spec.time)})
    bots = [_Depths(make_bot(b, spec.game, time=spec.time, depth=spec.depth, rng=int(s),
                             limits=(limit, first), cwd=cwd))
            for b, s in zip(spec.bots, seeds)]
    rec = play(board, bots, rules=spec.game, rng=spec.seed, names=list(spec.names),
               metadata={"map": spec.map_label, "arena_key": spec.key}, **clock)
    out = rec.outcome
    ranks = [0] * len(spec.bots)
    for r, group in enumerate(out.ranking):
        for p in group:
            ranks[p] = r
    depths = [round(sum(b.depths) / len(b.depths), 2) if b.depths else None for b in bots]
    return {"winner": out.winner, "ranks": ranks, "turns": out.turns,
            "faults": tron_faults(out.deaths, rec.events), "depths": depths,
            "slow": slow_answers(spec, bots), "record": rec.to_json()}


def slow_answers(spec, bots) -> list:
    """By seat: for a program (py:, cmd:), ``[late, worst, turn]`` of its answers against
    the contest's own clock (:func:`tronlab.runner.contestclock.clock_summary`), else
    None.  The arena usually allows more time than the contest (module docstring): the
    report says what the contest would have timed out.  Registered bots are told their thinking
    time (``--time``) and are not held against the contest's.  Nor is a game played under
    a bank (``--bank``) no looser than the contest's: there the arena's own clock timed out
    every answer the contest would have (None for every seat)."""
    from ..runner.contestclock import clock_summary
    from ..runner.games import get_game

    info = get_game(spec.game)
    if spec.bank is not None and spec.bank <= info.first_move_time and (
            spec.time is None or spec.time <= info.move_time):
        return [None] * len(spec.bots)
    return [clock_summary(spec.game, list(bot.seconds)) if is_program(b) else None
            for b, bot in zip(spec.bots, bots)]


def tron_faults(deaths, events) -> list:
    """By seat: the first fault a bot made (a timeout, a crash, bad output, an illegal
    move), else how it died (or None).  Under Light Riders rules a faulty bot does not
    die of its fault: it keeps going straight until it hits something, so its death
    code alone would hide the fault."""
    from ..tron.rules import FAULTS

    faults = list(deaths)
    for event in events:
        p = event.get("player")
        if event.get("kind") in FAULTS and faults[p] not in FAULTS:
            faults[p] = event["kind"]
    return faults


def _play_capture(spec, cwd=None, start=None) -> dict:
    import numpy as np

    from ..capture.game import play_capture
    from .maps import capture_setup

    limit, first = _limits(spec, start)
    seeds = np.random.default_rng(spec.seed).integers(2**63, size=len(spec.bots))
    bots = [_Depths(make_bot(b, spec.game, rng=int(s), limits=(limit, first), cwd=cwd))
            for b, s in zip(spec.bots, seeds)]
    rec = play_capture(bots, rng=spec.seed, time_limit=limit, first_time_limit=first,
                       metadata={"names": list(spec.names), "map": spec.map_label,
                                 "arena_key": spec.key},
                       **capture_setup(spec.map, len(spec.bots)))
    ranks = [r - 1 for r in rec.outcome["ranks"]]
    firsts = [p for p, r in enumerate(ranks) if r == 0]
    faults = [None] * len(spec.bots)
    for _turn, _round, player, kind, _detail in rec.events:
        if kind in ELIMINATIONS and faults[player] is None:
            faults[player] = kind
    return {"winner": firsts[0] if len(firsts) == 1 else None, "ranks": ranks,
            "turns": rec.outcome["turns"], "faults": faults, "depths": [None] * len(ranks),
            "slow": slow_answers(spec, bots), "record": json.dumps(rec.to_dict())}


def changed_bots(spec, cwd=None, python=None) -> list:
    """The names of the ``py:`` and ``cmd:`` bots of ``spec`` whose files no longer
    hold what they held when the run made its plan (a student handed in a new file
    while the run played): the game's key names the old file.  A file gone is no new
    version: its game is played, and says the bot could not start.  ``cwd`` and
    ``python`` (the run's folder and interpreter: :func:`play_spec`) make a Dask
    worker read the files the run hashed."""
    if cwd is not None and not os.path.isdir(cwd):
        cwd = None

    def changed(bot, digest):
        files = bot_files(bot, cwd, python)
        return bool(digest and files and all(map(os.path.isfile, files))
                    and bot_files_hash(bot, cwd, python) != digest)

    return list(dict.fromkeys(bot_name(b) for b, digest in zip(spec.bots, spec.files)
                              if changed(b, digest)))


def _changed_row(spec, cwd, python) -> dict | None:
    """The row of a game not stored because a bot's file changed (:func:`changed_bots`),
    or None when every file is the plan's."""
    changed = changed_bots(spec, cwd, python)
    return {"key": spec.key, "names": list(spec.names), "changed": changed} if changed else None


def play_spec(spec, cwd=None, start=None, python=None) -> dict:
    """Play ``spec`` and return its row (see the module docstring).  When the game is
    played elsewhere (a Dask worker, with a folder and an environment of its own), the
    run sends ``cwd``, its folder, for the relative paths of ``py:`` and ``cmd:`` bots
    and as the programs' working folder, ``start``, its :func:`program_start`
    (``TRONLAB_PROGRAM_START``), and ``python``, its interpreter (not one of a
    ``cmd:`` bot's files).  None: this process's.

    A bot's file that differs from the one the plan hashed, before the game or after
    it, would store under the old file's key a game its new file played: the game is
    then not played, or its result dropped, and the row is only ``key``, ``names``
    and ``changed`` (the names of those bots), for the run to say so."""
    from ..runner.games import get_game

    family = get_game(spec.game).family
    unplayed = _changed_row(spec, cwd, python)
    if unplayed:
        return unplayed
    warm_up([b for b in spec.bots if not is_program(b)], family)
    t0 = _time.perf_counter()
    result = (_play_capture if family == "capture" else _play_tron)(spec, cwd, start)
    unplayed = _changed_row(spec, cwd, python)  # handed in while the game was played
    if unplayed:
        return unplayed
    return {"key": spec.key, "tag": spec.tag, "game": spec.game, "bots": list(spec.bots),
            "names": list(spec.names), "map": spec.map_label, "map_set": spec.map_set,
            "seed": spec.seed, "time": spec.time, "depth": spec.depth,
            "bank": getattr(spec, "bank", None),
            "seconds": round(_time.perf_counter() - t0, 4), **result}
