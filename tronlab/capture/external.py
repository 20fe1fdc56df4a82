"""An outside Back to the Code contest program as a tronlab player.

:class:`CaptureProgram` is a capture bot (``bot(view, player) -> action``)
that starts one subprocess per game, writes every turn in the contest's
protocol (:mod:`tronlab.capture.protocol`: the opponent count once, then
``gameRound``, the players' lines and the grid, renumbered so the program is
player 0) and reads one answer line under a clock.  It shares the pipe
plumbing of :class:`tronlab.runner.external.ExternalBot`
(:class:`tronlab.runner.program.Program`: threads that never
let a stuck program block tronlab, stderr kept to its first 64 KiB and last 4, the whole
process group killed at the end), and the fault rules of the other games:

``"timeout"``     no answer within the turn's limit (saying what the program wrote of a
                  line without its newline, or that stdout got nothing all game);
``"bad-output"``  an answer that is neither ``x y [message]`` nor ``BACK n``, or a
                  line more than one a turn (found unread when the next turn is asked:
                  the contest's referee read it as that turn's answer);
``"exited"``      the program ended or could not start.

A fault is raised as an exception with ``reason`` set to the code, which
:func:`tronlab.capture.game.play_capture` records as the player's action, so
the rules eliminate it; a second ``BACK``, an ``n`` out of 1..25 or a
target off the grid are answers like any other, and the rules eliminate for
them.  An eliminated player keeps its squares.  The game loop calls
:meth:`CaptureProgram.close` as soon as its player is eliminated and at the
end of the game, so nothing is left running.

Time: 1000 ms for the first turn and 100 ms after, as advertised to the
contestants; like CodinGame's referee the clock allows ``grace`` (50 ms by
default) on top of the later turns' limit.  The first turn's clock starts once the
program has read the opponent count (it started up and reads its input), so starting
Python and its imports is not thinking time; that is waited for up to
``TRONLAB_PROGRAM_START`` (5 s) less the first turn's limit, so a program that never
reads its input is given up on after the longer of the two, as before.  ``start_game`` (called by
``play_capture(..., time_limit=...)``) may set other limits for one game.
"""

from __future__ import annotations

import os
import shlex
import time

from ..runner.external import ANSWERS_ONLY, unasked_detail
from ..runner.games import get_game
from ..runner.program import Program, StderrSink, check_seconds, parse_command
from .protocol import (FIRST_TURN_SECONDS, TURN_SECONDS, first_turn_default,  # noqa: F401
                       format_start, format_turn, parse_answer)

#: the seconds past the later turns' limit CodinGame's referee waited (the registry's)
GRACE = get_game("backtothecode").grace


class ProgramFault(Exception):
    """A contest program broke a rule of the protocol; ``reason`` is the fault code."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason, self.detail = reason, detail


class CaptureProgram:
    """A Back to the Code contest program on stdin/stdout, one process per game.

    ``command`` is a string (split with :func:`shlex.split`) or a list of
    arguments.  ``first_time_limit`` and ``time_limit`` are the advertised
    limits in seconds (1.0 and 0.1 by default; a ``time_limit`` without a
    ``first_time_limit``, here or in :meth:`start_game`, sets the first turn's to
    :func:`first_turn_default` of it); ``grace`` is added to the later turns'
    limit.  The last answer's message, if any, is in :attr:`message`.
    """

    def __init__(self, command, *, name: str | None = None, first_time_limit: float | None = None,
                 time_limit: float | None = None, grace: float = GRACE, cwd=None, env=None):
        args = parse_command(command)
        self.args = args
        self.name = name or os.path.basename(args[0])
        self.time_limit = check_seconds("time_limit", time_limit) or TURN_SECONDS
        self._first_given = first_time_limit is not None
        self.first_time_limit = check_seconds("first_time_limit", first_time_limit) \
            or first_turn_default(time_limit)
        self.grace = float(grace)
        self.cwd = cwd
        self.env = None if env is None else {**os.environ, **env}
        self.message = None
        self._program: Program | None = None
        self._sink = StderrSink()
        self._turns = 0
        self.answer_seconds = []    # wall clock of each answer, first turn included

    def __repr__(self) -> str:
        return f"CaptureProgram({shlex.join(self.args)!r})"

    def start_game(self, n_players: int, player: int, *, first_time_limit=None,
                   time_limit=None) -> None:
        """Forget the last game and set this game's limits (the program itself
        starts at the first turn)."""
        self.close()
        if time_limit is not None:
            self.time_limit = check_seconds("time_limit", time_limit)
        if first_time_limit is not None:
            self.first_time_limit = check_seconds("first_time_limit", first_time_limit)
            self._first_given = True
        elif time_limit is not None and not self._first_given:
            self.first_time_limit = first_turn_default(self.time_limit)
        self._turns = 0

    def _start(self, n_players: int) -> None:
        self._sink = StderrSink()
        try:
            self._program = Program(self.args, cwd=self.cwd, env=self.env)
        except OSError as err:
            raise ProgramFault("exited", f"could not start {shlex.join(self.args)}: "
                                         f"{err.strerror or err}") from None
        self._sink = self._program.sink
        self._program.send(format_start(n_players))
        # its start-up is not the first turn's thinking: the clock starts once it has read
        # the opponent count, as a Light Riders program's bank starts once it read its
        # settings (runner.external).  Waited for up to the start-up floor less the first
        # turn's limit, so a program that never reads costs no more than before: the floor
        # or the limit, whichever is longer (the arena's limit is the floor already)
        self._program.wait_started(self.first_time_limit)

    def __call__(self, view, player):
        """Send this turn (``view`` with real ids, as the game loop gives it)
        and return the program's action; raises :class:`ProgramFault`."""
        if self._program is None:
            if self._turns:
                raise ProgramFault("exited", "the program was closed")
            self._start(view.n_players)
        limit = self.first_time_limit if self._turns == 0 else self.time_limit + self.grace
        self._turns += 1
        self._drain()
        self._program.send(format_turn(view, player))
        asked = time.monotonic()
        line = self._next_line(asked + limit, limit)
        self.answer_seconds.append(time.monotonic() - asked)
        answer = parse_answer(line)
        if answer.reason is not None:
            raise ProgramFault("bad-output", f"{answer.reason} ({ANSWERS_ONLY})")
        self.message = answer.message
        return answer.action

    def _drain(self) -> None:
        """Before asking again: a line still unread was printed without being asked
        (a late answer cannot be, a timeout eliminates), bad output."""
        for line in self._program.unread_lines():
            if line.strip():
                raise ProgramFault("bad-output", unasked_detail(line))

    def _next_line(self, deadline: float, limit: float) -> str:
        while True:
            try:
                line = self._program.next_line(deadline)
            except TimeoutError:
                raise ProgramFault("timeout", self._program.timeout_detail(
                    f"{limit * 1000:.0f} ms")) from None
            if line is None:
                raise ProgramFault("exited", "the " + self._program.exit_detail(deadline))
            if line.strip():
                return line

    def stderr_text(self) -> str:
        """What the program wrote on stderr (its first 64 KiB and last 4 KiB)."""
        return self._sink.text()

    @property
    def pid(self) -> int | None:
        return None if self._program is None else self._program.pid

    def close(self) -> None:
        """Kill the program and everything it started; safe to call twice."""
        program, self._program = self._program, None
        if program is not None:
            program.close()

    end_game = close
