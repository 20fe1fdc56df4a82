"""Play a whole game between bots and record it (technique E4).

A *bot* is any callable ``bot(board, player) -> move``: a move is 0-3 (up,
right, down, left) or a name such as ``"up"``.  It receives a copy of the
board, so it may scribble on it.  A bot object may also have

* ``start_game(board, player, *, rules, time_limit, rng)`` - called once
  before its first move (``rules`` is the rules' name, ``rng`` a Generator
  for this seat), under the first-move time limit; a hook that takes a
  ``max_turns`` keyword is also told the game's turn limit (None: none), and
  one that takes ``first_time_limit`` the first move's limit (seconds, None: none);
* ``end_game(record)`` and ``close()`` - called after the game, always, even
  when the game stopped with an error or the bot's last move still hangs
  (under the first-move time limit; a failure becomes a "hook-error" event);
* ``stderr_text()`` - for external programs: the text is kept in the record.

A bot that raises, answers something that is not a move, or runs over its
time limit has a *fault* (codes in :data:`tronlab.tron.rules.FAULTS`): under
google2010 and codingame it dies for it, under lightriders it keeps going
straight.  A bot may raise :class:`BotFault` (or any exception whose
``reason`` attribute is a fault code, like
:class:`tronlab.runner.external.BotFailure`) to report a specific fault such as
"bad-output" or "exited".  A game never crashes because of a bot.

How games end (our reading of the contests' rules)
-------------------------------------------------
* google2010 (2 players): after the first turn in which anybody dies.  One
  death: the other player wins; both: a draw.  No turn limit.
* lightriders (2 players): the same - the game goes on only while both ride.
  A bot that times out is shut down: it is never asked again and goes
  straight for the rest of the game (each later turn notes a "timeout").
* codingame (2-4 players): as soon as one player is left, even in the middle
  of a turn (later players of that turn do not move); the survivor wins,
  the others rank by when they died (a later sub-move ranks better).
* ``max_turns`` (default: none) stops a game early; the players still alive
  then share the top of the ranking (a draw if more than one).

Time limits
-----------
``time_limit`` is in seconds per move (None: no limit); the first move (and
``start_game``) get ``first_time_limit``, by default three times as long.  A
bot's timed calls run in its own daemon worker thread, waited for with the
timeout, so a bot stuck in an endless Python loop cannot hang the game; the
thread is abandoned.  A bot whose earlier call is still running is not asked
again: it times out at once.  A bot that answers, but late, has timed out too.

Light Riders' own clock is a time bank: ``time_bank=(bank, per_move)`` (or
``True``: the contest's 10 s and 0.2 s) instead of ``time_limit``.  Each bot's
bank starts full, ``per_move`` is added before each move (capped at ``bank``),
a bot with ``set_clock(time_left, time_per_move)`` hears its bank before it
thinks, and an answer after the bank ran out is a timeout
(:mod:`tronlab.runner.timebank`).  ``start_game`` and the after-game hooks get
the bank's size as their limit, off the bank; a hook that takes a
``time_bank`` keyword is told ``(bank, per_move)`` (None: no bank).
"""

from __future__ import annotations

import datetime
import inspect

import numpy as np

from ..tron.board import Board, parse_move
from ..tron.mapgen import as_rng
from ..tron.match import Match
from ..tron.rules import FAULTS, get_rules
from ..tron.values import is_real, is_whole
from .records import GameRecord
from .reprs import safe_repr
from .threadcall import Worker, call_in_thread
from .timebank import GRACE, TimeBank, check_time_bank, overdrawn

SHOWN = 197     # characters of a value shown in a message (at most 200 with the "...")
#: what a bot's start_game is told besides rules, time_limit and rng, when it takes them
START_KEYWORDS = ("max_turns", "first_time_limit", "time_bank")


class BotFault(Exception):
    """Raised by a bot to report a fault with a specific code ("bad-output", "exited", ...)."""

    def __init__(self, reason: str, detail: str = ""):
        if reason not in FAULTS:
            raise ValueError(f"BotFault reason {reason!r} is not one of {', '.join(FAULTS)}")
        super().__init__(detail or reason)
        self.reason = reason
        self.detail = detail


def _describe_error(err: BaseException) -> str:
    text = str(err)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


class _Seat:
    """One player's bot with its limits and bookkeeping."""

    def __init__(self, bot, player, rng):
        self.bot, self.player, self.rng = bot, player, rng
        self.worker: Worker | None = None           # runs its timed calls, started at the first
        self.pending: tuple[str, str] | None = None  # a fault from start_game
        self.calls = 0
        self.seconds = 0.0
        self.last: float | None = None              # seconds the latest call took
        self.shut = False                            # Light Riders: shut down by a timeout
        self.bank: TimeBank | None = None            # its time bank, when the game has one

    def call(self, fn, args, kwargs, limit, *, force=False, grace=0.0, late=None):
        """Run ``fn``; returns ``(value, fault, note)`` - fault None when all went well.

        An earlier call that is still running makes this one time out at once,
        unless ``force`` (the after-game hooks: ``close`` must always run).  A call
        still running ``grace`` seconds after ``limit`` is abandoned; ``late(limit,
        seconds, answered)``, if given, says what a timeout's note says.
        """
        busy = self.worker is not None and self.worker.busy
        if busy and not force:
            return None, "timeout", "still busy with an earlier call that ran over its time"
        wait, name = None if limit is None else limit + grace, f"tronlab-bot-{self.player}"
        if wait is None or busy:        # untimed, or a hook while an overrun call still runs
            called = call_in_thread(fn, args, kwargs, wait, name=name)
        else:
            self.worker = self.worker or Worker(name)
            called = self.worker.call(fn, args, kwargs, wait)
        self.seconds += called.seconds
        self.last = elapsed = called.seconds
        if called.overran:
            return None, "timeout", (late(limit, elapsed, False) if late else
                                     f"no answer within {limit:g} s")
        err = called.error
        if isinstance(err, KeyboardInterrupt):
            raise err
        if getattr(err, "reason", None) in FAULTS:   # BotFault or any exception that names a fault
            return None, err.reason, getattr(err, "detail", None) or _describe_error(err)
        if err is not None:
            return None, "error", _describe_error(err)
        if limit is not None and elapsed > limit:
            return None, "timeout", (late(limit, elapsed, True) if late else
                                     f"answered after {elapsed:.3f} s, over the {limit:g} s limit")
        return called.value, None, None


def _check_limit(name, value):
    if value is None:
        return None
    if not is_real(value) or not 0 < value < 1e6:
        raise ValueError(f"{name} is a positive number of seconds (under 1e6) or None, "
                         f"got {value!r}")
    return float(value)


def _bot_name(bot, player):
    for attr in ("name", "__name__"):
        value = getattr(bot, attr, None)
        if isinstance(value, str) and value:
            return value
    return f"{type(bot).__name__}-{player}"


def play(board: Board, bots, *, rules="google2010", rng=None, time_limit=None,
         first_time_limit=None, max_turns=None, names=None, metadata=None,
         on_step=None, time_bank=None) -> GameRecord:
    """Play ``bots`` (one per player, in player order) against each other from ``board``.

    ``board`` is not changed.  ``rng`` (Generator or int seed) seeds each
    bot's own Generator, handed over in ``start_game``.  ``on_step(turn, seconds)``,
    if given, is called after every step with the seconds each bot's latest move
    took (None before its first; the ``tronlab`` command's progress line).
    ``time_bank=(bank, per_move)`` plays Light Riders under its time bank instead of
    ``time_limit`` (``True``: the contest's 10 s bank and 0.2 s a move).  Returns the
    :class:`~tronlab.runner.records.GameRecord`; see the module docstring for the
    rules of play.  Under ``lightriders`` a 2-player board without facings (a map
    file, a builtin map) gets the contest's, as ``tronlab match`` gives them: player 0
    faces right, player 1 left (:func:`tronlab.tron.lightriders.give_contest_facings`).
    """
    rules = get_rules(rules)
    board = _with_facings(board, rules)
    bots, names, time_limit, first_time_limit, max_turns = _check_play(
        board, rules, bots, names, time_limit, first_time_limit, max_turns, metadata, on_step)
    bank = check_time_bank(time_bank, rules, time_limit, first_time_limit)
    seed = int(rng) if is_whole(rng) else None
    gen = as_rng(rng)
    seats = [_Seat(bot, p, np.random.default_rng(int(s)))
             for p, (bot, s) in enumerate(zip(bots, gen.integers(2**63, size=len(bots))))]
    for seat in seats:
        seat.bank = None if bank is None else TimeBank(*bank)
    match = Match(board, rules)
    events: list[dict] = []
    limits = (first_time_limit, time_limit)
    hook_limit = first_time_limit if bank is None else bank[0]
    try:
        _start_seats(seats, board, rules, (time_limit, first_time_limit, bank), max_turns,
                     hook_limit)
        while not match.over and (max_turns is None or match.next_turn <= max_turns):
            step = match.step({p: _choose(seats[p], match, rules, limits, events)
                               for p in match.to_move()})
            if on_step is not None:
                on_step(step.turn, [seat.last for seat in seats])
    finally:
        meta = {
            "names": list(names), "seed": seed, "time_limit": time_limit,
            "first_time_limit": first_time_limit, "max_turns": max_turns,
            "tronlab": _version(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "think_seconds": [round(seat.seconds, 6) for seat in seats],
            "time_bank": None if bank is None else list(bank),
        }
        if bank is not None:        # the least each bot's bank held after a move
            meta["least_bank"] = [round(seat.bank.least, 6) for seat in seats]
        meta.update(metadata or {})
        try:
            record = match.record(metadata=meta, events=events)
            _finish(seats, record, hook_limit)
        finally:
            for seat in seats:
                if seat.worker is not None:
                    seat.worker.stop()
    return record


def _with_facings(board, rules):
    """``board``, or under lightriders a copy with the contest's facings where it has none."""
    if (rules.name == "lightriders" and isinstance(board, Board) and board.n_players == 2
            and (board.facing < 0).any()):
        from ..tron.lightriders import give_contest_facings
        board = give_contest_facings(board.copy())
    return board


def _check_play(board, rules, bots, names, time_limit, first_time_limit, max_turns,
                metadata=None, on_step=None):
    """:func:`play`'s preconditions: ``(bots, names, time_limit, first_time_limit)``."""
    rules.check(board)
    if on_step is not None and not callable(on_step):
        raise TypeError(f"on_step must be a function on_step(turn, seconds) or None, "
                        f"got {safe_repr(on_step, SHOWN)}")
    if metadata is not None and not isinstance(metadata, dict):
        raise TypeError(f"metadata must be a dict or None, got {safe_repr(metadata, SHOWN)}")
    if isinstance(bots, (str, bytes)) or not hasattr(bots, "__iter__"):
        raise TypeError(f"bots must be a list of bots, one per player, "
                        f"got {safe_repr(bots, SHOWN)}")
    bots = list(bots)
    n = board.n_players
    if len(bots) != n:
        raise ValueError(f"the board has {n} players but {len(bots)} "
                         f"{'bot was' if len(bots) == 1 else 'bots were'} given")
    for p, bot in enumerate(bots):
        if isinstance(bot, str):
            raise TypeError(f"bot {p} is the name {safe_repr(bot, SHOWN)}: play takes bots, "
                            f"not names; get_bot({safe_repr(bot, SHOWN)}) makes one")
        if not callable(bot):
            raise TypeError(f"bot {p} is not callable: a bot is a function bot(board, player) "
                            f"-> move (got {type(bot).__name__})")
    time_limit = _check_limit("time_limit", time_limit)
    first_time_limit = _check_limit("first_time_limit", first_time_limit)
    if first_time_limit is None and time_limit is not None:
        first_time_limit = 3 * time_limit
    if max_turns is not None and (not is_whole(max_turns) or max_turns < 0):
        raise ValueError(f"max_turns is a whole number >= 0 or None, got {max_turns!r}")
    if names is None:
        names = [_bot_name(bot, p) for p, bot in enumerate(bots)]
    elif (isinstance(names, str) or not hasattr(names, "__len__") or len(names) != n
          or not all(isinstance(s, str) for s in names)):
        raise ValueError(f"names must be a list of {n} strings, one per player, "
                         f"got {safe_repr(names, SHOWN)}")
    max_turns = None if max_turns is None else int(max_turns)
    return bots, names, time_limit, first_time_limit, max_turns


def _start_seats(seats, board, rules, clock, max_turns, limit):
    """Call each bot's ``start_game`` hook under ``limit``; a fault there is charged at its
    first move.  ``clock`` is ``(time_limit, first_time_limit, time_bank)``."""
    time_limit, first_time_limit, bank = clock
    for seat in seats:
        hook = getattr(seat.bot, "start_game", None)
        if callable(hook):
            options = {"rules": rules.name, "time_limit": time_limit, "rng": seat.rng}
            options.update(start_keywords(hook, max_turns=max_turns,
                                          first_time_limit=first_time_limit, time_bank=bank))
            _, fault, text = seat.call(hook, (board.copy(), seat.player), options, limit)
            if fault is not None:
                seat.pending = (fault, f"in start_game: {text}")


def start_keywords(hook, **told) -> dict:
    """Of the :data:`START_KEYWORDS` values ``told`` (each of them given), those that
    ``hook`` takes: what a ``start_game`` hears besides ``rules``, ``time_limit``, ``rng``."""
    return {k: told[k] for k in START_KEYWORDS if takes_keyword(hook, k)}


def takes_keyword(function, name: str) -> bool:
    """Whether ``function`` accepts the keyword argument ``name``."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):     # a builtin without a signature
        return False
    return any(p.name == name and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
               or p.kind == p.VAR_KEYWORD for p in parameters)


def _choose(seat, match, rules, limits, events):
    """Ask ``seat``'s bot for its move in ``match``: ``(move, fault, text)``, the
    events (faults, passes, reversals) appended to ``events``."""
    p = seat.player

    def note(kind, detail):
        events.append({"turn": match.next_turn, "player": p, "kind": kind, "detail": detail})

    if seat.pending is not None:
        (fault, text), seat.pending = seat.pending, None
        seat.shut = fault == "timeout" and rules.name == "lightriders"
        note(fault, text)
        return None, fault, text
    if seat.shut:
        note("timeout", "shut down after a timeout: keeps going straight")
        return None, "timeout", "shut down after a timeout"
    limit = limits[0] if seat.calls == 0 else limits[1]
    seat.calls += 1
    if seat.bank is None:
        value, fault, text = seat.call(seat.bot, (match.view(p), p), {}, limit)
    else:
        value, fault, text = _call_banked(seat, match.view(p))
    if fault == "timeout" and rules.name == "lightriders":
        seat.shut = True        # Light Riders' rule: a timeout shuts the bot down
    if fault is None:
        try:
            move = parse_move(value)
        except Exception as err:        # whatever a bot returns, the game goes on
            if (rules.name == "lightriders" and isinstance(value, str)
                    and value.strip().lower() == "pass"):
                note("pass", "pass: keeps going straight")
                return None, None, "pass"
            fault, text = "illegal", f"returned {safe_repr(value, SHOWN)}: {err}"
        else:
            if match.effective_move(p, move) != move:
                note("reverse", f"reversing ({value!r}) after round 1: keeps going straight")
            return move, None, None
    note(fault, text)
    return None, fault, text


def _call_banked(seat, view):
    """Ask a bot under its time bank: refill, tell it (``set_clock``), spend."""
    bank = seat.bank
    left = bank.refill()
    set_clock = getattr(seat.bot, "set_clock", None)

    def ask(board, player):
        if callable(set_clock):
            set_clock(left, bank.per_move)
        return seat.bot(board, player)
    result = seat.call(ask, (view, seat.player), {}, left, grace=GRACE, late=overdrawn)
    bank.spend(seat.last)
    return result


def _finish(seats, record, limit):
    """end_game, stderr_text and close on every bot, each under ``limit``; failures are events."""
    turn = record.outcome.turns
    for seat in seats:
        for hook_name in ("end_game", "stderr_text", "close"):
            hook = getattr(seat.bot, hook_name, None)
            if not callable(hook):
                continue
            args = (record,) if hook_name == "end_game" else ()
            value, fault, text = seat.call(hook, args, {}, limit, force=True)
            if fault is not None:
                record.events.append({"turn": turn, "player": seat.player, "kind": "hook-error",
                                      "detail": f"{hook_name}: {text}"})
            elif hook_name == "stderr_text" and value:
                record.stderr[seat.player] = str(value)


def _version():
    import tronlab
    return getattr(tronlab, "__version__", None)
