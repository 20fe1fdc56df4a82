"""An outside contest program as a tronlab player (technique E3).

:class:`ExternalBot` starts one subprocess per game, writes each turn in the
contest's protocol (:mod:`tronlab.tron.protocol`) and reads the answer, all under
a clock.  Three small threads (:class:`tronlab.runner.program.Program`) keep
it from ever blocking: one writes stdin, one reads stdout lines into a queue,
one collects stderr (kept, capped, and returned by
:meth:`ExternalBot.stderr_text` for the game record).

Memory stays bounded whatever the program prints (the caps are
:mod:`tronlab.runner.program`'s).  Each turn expects
exactly one answer line: a late answer to an earlier turn (after a timeout) is
thrown away, but a line nobody asked for - a program that prints without
being asked, like ``yes 2`` - is bad output.  Throwing old lines away happens
on the move's clock.

A program that misbehaves loses with a reason code, raised as
:class:`tronlab.runner.engine.BotFault` so the game engine records it:

``"timeout"``     no answer within the move's time limit (saying what the program wrote of
                  a line without its newline, or that stdout got nothing all game);
``"bad-output"``  the answer is not a move (the text is quoted, cut short, with a word
                  that stdout is for answers only: a debug print is the usual cause; a
                  line after one that was taken for an answer says so);
``"exited"``      the program ended (exit code or signal given) or could not start.

Under Light Riders rules the engine turns these into "keep going straight",
as the contest did; a ``pass`` answer is handed on as the string ``"pass"``.
A student's ``py:`` file (:mod:`tronlab.arena.pyfilebot`) tells its mistakes as an
in-process bot would instead of as bad output: "error" and "illegal".

The program runs in its own session (process group) with a token in its
environment (:mod:`tronlab.runner.reaper`): at the end of the game, at
:meth:`close`, at interpreter exit and on SIGTERM/SIGHUP (once
:func:`~tronlab.runner.reaper.install_signal_handlers` ran, as the ``tronlab``
command does) the group and every process carrying the token are killed, so no
helper process a contest program spawned outlives the game, not even one that
left the group with ``setsid``.

Time limits (seconds) follow the contests' rules unless given:

===========  =============  ============================================
protocol     first move     later moves
===========  =============  ============================================
google2010   3              1
codingame    1              0.1
lightriders  time bank 10   +0.2 a move, bank capped at 10 s
===========  =============  ============================================

When the engine keeps no clock, the first move's limit counts from the moment the
program has read the turn (it started up and reads its input; waited for up to
``TRONLAB_PROGRAM_START``, 5 s, less that limit), so starting Python is not thinking
and the seat asked first does not pay a start-up the others make while it thinks.

For Light Riders ``first_time_limit`` is the starting (and maximum) time bank
and ``time_limit`` the time added each move, when the engine sets no clock.  When
the engine runs the game with its own ``time_limit`` and none was given here, that
limit is used per move (and the engine's first-move limit for the first move, three
times the limit unless the engine was given another), cut to nine tenths so this
bot's own clock always answers first (its timeout names the game's limit and says
so).  Under the engine's ``time_limit`` a Light Riders program keeps no bank (the
engine would time out a move that spent one): its ``time_limit`` is a move's limit
and ``first_time_limit`` the first move's, and it is told the move's limit as its
bank (``settings timebank`` and ``time_per_move``, and every ``action move``, the
first too: the first move's longer limit is for starting up), so a program that
plans from its bank keeps to the game's limit.
When the engine keeps a time bank itself (``play(..., time_bank=(bank, per_move))``)
the program's settings say that bank, and each move's deadline is the bank the engine
tells (``set_clock``).

Under a time bank :meth:`ExternalBot.start_game` returns once the program has read
its settings (it started up and reads its input; at most nine tenths of the bank, or of
the engine's ``first_time_limit``, this hook's limit), or once it wrote on stdout
without reading them (it is up: waiting on would only hold the game up):
the bank pays for its thinking, not for starting Python and its imports, as an
in-process bot's ``start_game`` is off the bank.  Without this the seats, asked in
turn, paid unequally: the second seat's program started up while the first seat's
was asked (and timed) for its first move.
"""

from __future__ import annotations

import math
import os
import shlex
import time

from . import reaper
from .engine import BotFault
from .games import games
from .program import (STDERR_CAP, CutLine, Program, StderrSink, check_seconds,  # noqa: F401
                      parse_command)
from ..tron.protocol import (ProtocolError, check_protocol, codingame_board_problem, encode_state,
                             lightriders_settings, parse_answer, quote)

_MARGIN = 0.9  # fraction of an engine-imposed limit this bot waits
#: what a bad-output fault of a program adds: the commonest cause is a debug print
ANSWERS_ONLY = "stdout carries the answers only, one line a turn: write anything else to stderr"


def unasked_detail(line: str, why: str = "") -> str:
    """The bad-output detail of a non-blank ``line`` a program printed beyond the
    turns it was asked (Tron and Back to the Code alike); ``why`` (": ...") says
    what came before it."""
    return f"{quote(_stripped(line))} printed without being asked{why} ({ANSWERS_ONLY})"


def _stripped(line: str) -> str:
    """``line`` without its surrounding whitespace; a cut line as it is (stripping
    would make it a plain str, which :func:`quote` could no longer tell was cut)."""
    return line if isinstance(line, CutLine) else line.strip()


#: protocol: (first move, later moves) in seconds, the contests' (the registry's)
DEFAULT_TIMES = {g.protocol: (g.first_move_time, g.move_time) for g in games("tron")}


def whole_ms(seconds: float) -> int:
    """``seconds`` in whole milliseconds, rounded down (a program is never told more time
    than it has), but 0.291 s is 291 ms, not the 290 that ``int(0.291 * 1000)`` gives."""
    return int(round(seconds * 1000, 6))


class ExternalBot:
    """A contest program speaking ``protocol`` on stdin/stdout, one process per game.

    ``command`` is a string (split like a shell would, with :func:`shlex.split`) or
    a list of arguments; ``cwd`` is its working directory and ``env`` extra
    environment variables on top of the current ones.  ``name`` (default: the
    program's file name) is what game records call it.  See the module docstring
    for time limits and failures.
    """

    def __init__(self, command, *, protocol: str = "google2010", name: str | None = None,
                 time_limit: float | None = None, first_time_limit: float | None = None,
                 cwd=None, env=None):
        args = parse_command(command)
        self.protocol = check_protocol(protocol)
        self.args = args
        self.name = name or os.path.basename(args[0])
        self.time_limit = check_seconds("time_limit", time_limit)
        self.first_time_limit = check_seconds("first_time_limit", first_time_limit)
        self.cwd = cwd
        self.env = None if env is None else {**os.environ, **env}
        self._program: Program | None = None
        self._sink = StderrSink()   # this game's stderr (kept after the program closed)
        self._failure: BotFault | None = None
        self._told: float | None = None     # the bank the engine told for the next move
        self._game = (None, None)   # the game's (first, later) limits (see _set_clock)
        reaper.install_signal_handlers()   # main thread only; handlers others set are kept

    def __repr__(self) -> str:
        return f"ExternalBot({shlex.join(self.args)!r}, protocol={self.protocol!r})"

    # ---- game hooks ----------------------------------------------------------------
    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None,
                   max_turns=None, first_time_limit=None, time_bank=None) -> None:
        """Start a fresh process for this game (a previous one is killed first).

        ``rules`` (a name or :class:`~tronlab.tron.rules.Rules`) must match the protocol.
        A Light Riders program is told a turn limit ``max_turns`` as ``settings
        max_rounds``.  ``time_limit`` and ``first_time_limit`` are the engine's limits,
        ``time_bank`` its ``(bank, per_move)`` (see the module docstring).
        """
        self.close()
        msg = self._unplayable(board, getattr(rules, "name", rules))
        if msg is not None:
            self._failure = BotFault("error", msg)  # every later move fails the same way
            raise ValueError(msg)
        self._sink = StderrSink()
        self._failure = None
        self._moves = 0
        self._answers = 0   # answer lines read (or thrown away) so far
        self._stray = None  # (quoted line, turn) of the last answer that was not a move
        self._set_clock(time_limit, first_time_limit, time_bank)
        try:
            self._program = Program(self._command(), cwd=self.cwd, env=self.env)
        except OSError as err:
            self._failure = BotFault("exited", f"could not start {shlex.join(self.args)}: "
                                                 f"{err.strerror or err}")
            return
        self._sink = self._program.sink
        if self.protocol == "lightriders":
            # without a bank the told bank is the limit of a move: planning from it fits
            bank_ms = round(self._first * 1000) if self._banked else whole_ms(self._later)
            self._program.send(lightriders_settings(
                board, player, timebank_ms=bank_ms,
                time_per_move_ms=round(self._later * 1000) if self._banked else bank_ms,
                max_rounds=max_turns))
            if self._banked:    # the bank starts once it is up: start-up is not thinking
                hook = self._first if first_time_limit is None else min(self._first,
                                                                        first_time_limit)
                self._program.wait_read(time.monotonic() + _MARGIN * hook)

    def _unplayable(self, board, game) -> str | None:
        """Why this program cannot play this game on ``board``, or None."""
        if game is not None and game != self.protocol:
            return (f"{self.name} speaks the {self.protocol} protocol but the game is played "
                    f"under {game} rules (pass protocol={game!r})")
        problem = codingame_board_problem(board) if self.protocol == "codingame" else None
        return None if problem is None else f"{self.name} cannot play here: {problem}"

    def _command(self) -> list[str]:
        """The arguments that start this game's program (a subclass may add some)."""
        return self.args

    def _set_clock(self, engine_limit, engine_first=None, engine_bank=None) -> None:
        first_default, later_default = DEFAULT_TIMES[self.protocol]
        later, first = self.time_limit, self.first_time_limit
        # Light Riders' clock is a bank, unless the engine times each move on its own
        self._banked = self.protocol == "lightriders" and (engine_bank is not None
                                                           or engine_limit is None)
        self._told = None
        if engine_bank is not None:
            first, later = engine_bank
        elif later is None and engine_limit is not None:
            later = engine_limit * _MARGIN
            if first is None:
                first = (3 * engine_limit if engine_first is None else engine_first) * _MARGIN
        later = later_default if later is None else later
        first = first_default if first is None else first
        self._first, self._later = first, later
        # the game's own (first, later) limits, whose nine tenths this clock may keep
        self._game = (None, None) if engine_bank is not None or engine_limit is None else (
            3 * engine_limit if engine_first is None else engine_first, engine_limit)
        self._bank = first      # seconds (a float: whole ms would round a move's cost away)

    def set_clock(self, time_left, time_per_move=None) -> None:
        """The bank the engine keeps for the next move (seconds): its deadline, and
        what ``action move`` tells a Light Riders program."""
        self._told = float(time_left)

    def __call__(self, board, player):
        """Send this turn and wait for the answer: 0-3, or ``"pass"`` (Light Riders).

        Raises :class:`~tronlab.runner.engine.BotFault` ("timeout", "bad-output", "exited").
        """
        if self._program is None and self._failure is None:
            self.start_game(board, player)
        if self._failure is not None:
            raise self._failure
        told, self._told = self._told, None
        game = None     # the game's limit of this move, when this clock keeps a share of it
        if told is not None:
            limit = told
        elif self._banked:
            self._bank = min(self._first, self._bank + self._later)
            limit = self._bank
        else:
            limit = self._first if self._moves == 0 else self._later
            game = self._game[0] if self._moves == 0 else self._game[1]
        t0 = time.monotonic()
        self._drain(limit)
        turn = self._moves
        self._moves += 1
        # without a bank each move is told a move's limit (the first one's more is for starting up)
        told_ms = whole_ms(limit if self._banked else self._later)
        self._program.send(encode_state(self.protocol, board, player, turn=turn,
                                       time_ms=told_ms))
        if turn == 0 and told is None and not self._banked and self._game[0] is None:
            t0 = self._started_up(limit)
        line = self._next_line(t0 + limit, limit, game)
        if self._banked:
            self._bank = max(self._bank - (time.monotonic() - t0), 0.0)
        if not isinstance(line, CutLine):      # (a cut line has no newline, and stays cut)
            line = line.rstrip("\r\n")
        try:
            move = parse_answer(self.protocol, line)
        except ProtocolError as err:
            self._stray = (quote(_stripped(line)), turn + 1)
            raise self._answer_fault(line, err) from None
        self._stray = None
        return "pass" if move is None else move  # Light Riders 'pass': keep going straight

    def _started_up(self, limit: float) -> float:
        """When the first move's clock starts, the engine keeping none: once the program
        has read the turn (:meth:`~tronlab.runner.program.Program.wait_started`)."""
        self._program.wait_started(limit)
        return time.monotonic()

    def _answer_fault(self, line: str, err: ProtocolError) -> BotFault:
        """The fault of the answer ``line``, which is not a move: "bad-output" (a subclass
        that knows its program may tell it better, as :mod:`tronlab.arena.pyfilebot`
        tells a student's exception)."""
        return BotFault("bad-output", f"{err} ({ANSWERS_ONLY})")

    def _drain(self, limit: float) -> None:
        """Before asking again, throw away late answers to earlier turns (on the
        move's clock); a line beyond the turns asked so far is bad output."""
        for line in self._program.unread_lines():
            if line.strip():
                self._answers += 1
                if self._answers > self._moves:
                    self._answers = self._moves
                    why = ""
                    if self._stray is not None:     # a debug line was taken for an answer
                        why = (f": {self._stray[0]} was read as turn {self._stray[1]}'s "
                               f"answer, so this line came one too many")
                    self._stray = None
                    raise BotFault("bad-output", unasked_detail(line, why))

    def _next_line(self, deadline: float, limit: float, game: float | None = None) -> str:
        while True:
            try:
                line = self._program.next_line(deadline)
            except TimeoutError:
                within = f"{limit:g} s"
                if game and math.isclose(limit, _MARGIN * game):    # not the user's number
                    within += (f" (nine tenths of the game's {game:g} s limit, so the "
                               f"program's clock runs out first and can say what it wrote)")
                if self._banked:        # said as the engine says it of an in-process bot
                    self._bank = 0.0
                    within = f"its time bank of {limit:.3f} s"
                raise BotFault("timeout", self._program.timeout_detail(within)) from None
            if line is None:
                self._failure = BotFault("exited", self._program.exit_detail(deadline))
                raise self._failure
            if line.strip():
                self._answers += 1
                if self._answers == self._moves:
                    return line
                # else: the late answer to an earlier turn that timed out: not this one

    def end_game(self, record=None) -> None:
        self.close()

    def close(self) -> None:
        """Kill the program and everything it started; safe to call twice."""
        program, self._program = self._program, None
        if program is not None:
            program.close()

    def stderr_text(self) -> str:
        """What the program wrote on stderr this game (its first 64 KiB and last 4 KiB)."""
        return self._sink.text()

    @property
    def pid(self) -> int | None:
        """Process id of the running program, if any."""
        return None if self._program is None else self._program.pid
