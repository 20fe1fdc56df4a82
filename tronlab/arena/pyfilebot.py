"""The referee's side of a ``py:`` bot: :class:`PythonFileBot`.

A ``py:FILE`` bot is an :class:`~tronlab.runner.external.ExternalBot` running
:mod:`tronlab.arena.pyprogram` on the student's file.  Its faults are told as an
in-process bot's are (:mod:`tronlab.runner.engine`): when ``move`` (or
``start_game``, ``set_clock``) raised, that program answers a line starting with
:data:`~tronlab.arena.pyprogram.RAISED_MARK`, the fault "error" saying the hook,
the exception and the line of the file; when ``move`` returned a value that is
not a move, a line starting with :data:`~tronlab.arena.pyprogram.NOT_A_MOVE`,
the fault "illegal" naming the value and what a move is.  When the program ended
(the fault "exited"), the file is named: its hook called ``exit()`` or ``sys.exit()``
(the program's last stderr line starts with
:data:`~tronlab.arena.pyprogram.EXITED_MARK`), else the program running it ended
as a ``cmd:`` program's end is told.  The program is told
what a file's ``start_game`` hook hears (``--game``): the limits its own clock
holds it to, the turn limit and a seed drawn from the seat's Generator.
"""

from __future__ import annotations

import json
import os

import numpy as np

from ..runner.engine import BotFault
from ..runner.external import ExternalBot
from ..runner.program import SILENT
from .pyprogram import EXITED_MARK, MOVES_ARE, NOT_A_MOVE, RAISED_MARK

_SUFFIX = ": not a move"
#: what that silence means for a py: file, which writes no answers itself
_NOT_STARTED = (": loading the file, its start_game or its first move() did not finish "
                "(code at the top level of the file, a test loop say, runs before the "
                "first move)")


class PythonFileBot(ExternalBot):
    """An :class:`~tronlab.runner.external.ExternalBot` for a student's ``move`` file."""

    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None,
                   max_turns=None, first_time_limit=None, time_bank=None) -> None:
        self._seed = None if rng is None else int(np.random.default_rng(rng).integers(2**63))
        self._max_turns = max_turns
        super().start_game(board, player, rules=rules, time_limit=time_limit, rng=rng,
                           max_turns=max_turns, first_time_limit=first_time_limit,
                           time_bank=time_bank)

    def _command(self):
        """The program, told what the file's ``start_game`` hears: the limits this bot's
        own clock keeps (a bank, or seconds a move), the turn limit and a seed."""
        first, later = (round(t, 6) for t in (self._first, self._later))  # 0.09, not 0.0900..01
        if self._banked:
            clock = {"time_limit": None, "first_time_limit": None, "time_bank": [first, later]}
        else:
            clock = {"time_limit": later, "first_time_limit": first, "time_bank": None}
        game = {**clock, "max_turns": getattr(self, "_max_turns", None),
                "seed": getattr(self, "_seed", None)}
        return [*self.args, "--game", json.dumps(game)]

    def _next_line(self, deadline, limit, game=None):
        """The referee's read, with its timeout told in a py: file's terms: a program
        silent all game is asked whether it printed without flushing, but the arena
        writes this file's answers, so silence means it never got through its first
        move."""
        try:
            return super()._next_line(deadline, limit, game)
        except BotFault as fault:
            if fault.reason == "exited":      # every later move raises it too
                self._failure = BotFault("exited", self._exit_words(fault.detail))
                raise self._failure from None
            if fault.reason != "timeout" or SILENT not in fault.detail:
                raise
            head = fault.detail.split(SILENT)[0]
            raise BotFault("timeout", head + _NOT_STARTED) from None

    def _exit_words(self, detail: str) -> str:
        """How the program ended, said of the student's file: 'bot.py: move() called
        exit() or sys.exit(), which ends the bot (return a move instead)', else ``detail``
        (the program's exit code or signal, and its last stderr line) said of the program
        running the file."""
        name = os.path.basename(self.args[self.args.index("tronlab.arena.pyprogram") + 1])
        last = [ln for ln in self._sink.text().splitlines() if ln.strip()]
        if last and last[-1].startswith(EXITED_MARK):
            said = last[-1].removeprefix(EXITED_MARK)
            return f"{name}: {said}" + (" (return a move instead)" * said.startswith("move()"))
        return f"the program running {name} {detail.removeprefix('program ')}"

    def _answer_fault(self, line, err):
        if line.startswith(RAISED_MARK):
            return BotFault("error", line.removeprefix(RAISED_MARK))
        if line.startswith(NOT_A_MOVE):
            also = " (or 'pass': keep going straight)" if self.protocol == "lightriders" else ""
            return BotFault("illegal", f"{line.removesuffix(_SUFFIX)}; {MOVES_ARE}{also}")
        return super()._answer_fault(line, err)
