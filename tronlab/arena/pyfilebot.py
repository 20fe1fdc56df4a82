"""The referee's side of a ``py:`` bot: :class:`PythonFileBot`.

A ``py:FILE`` bot is an :class:`~tronlab.runner.external.ExternalBot` running
:mod:`tronlab.arena.pyprogram` on the student's file.  When ``move`` returns a
value that is not a move, that program answers a line starting with
:data:`~tronlab.arena.pyprogram.NOT_A_MOVE`; the fault then names the value and
what a move is, instead of quoting the line as a protocol answer.
"""

from __future__ import annotations

from ..runner.external import ExternalBot
from .pyprogram import MOVES_ARE, NOT_A_MOVE

_SUFFIX = ": not a move"


class PythonFileBot(ExternalBot):
    """An :class:`~tronlab.runner.external.ExternalBot` for a student's ``move`` file."""

    def _bad_output(self, line, err):
        if line.startswith(NOT_A_MOVE):
            return f"{line.removesuffix(_SUFFIX)}; {MOVES_ARE}"
        return super()._bad_output(line, err)
