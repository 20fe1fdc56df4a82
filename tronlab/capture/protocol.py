"""The contest program's protocol for Back to the Code, both ways, as pure functions.

Referee side: :func:`format_start` and :func:`format_turn` write what a
contest program reads; :func:`parse_answer` reads its answer line.  Program
side: :func:`parse_turn` rebuilds a :class:`~tronlab.capture.state.View` from a
turn's lines, :func:`format_answer` writes an action, and
:class:`CaptureClient` does both over a pair of text streams.

Input, as the contest sent it: first one line ``opponentCount``; then every turn
``gameRound``, the reader's own ``x y backInTimeLeft``, one such line per
opponent (``-1 -1 0`` once eliminated) and the grid rows, ``.`` neutral,
``0`` the reader's squares, ``1``-``3`` the opponents'.  Renumbering: the
reader is 0 and the opponents keep their order, so the real ids other than
the reader's become 1, 2, ... in increasing order (player 2 of 4 sees
players 0, 1, 3 as 1, 2, 3).

Answers: ``x y`` (whole numbers, one or more spaces between them), optionally
followed by a single space and a message (cut to 100 characters), or
``BACK n`` (any case, spaces around and between allowed).  Coordinates off
the grid and ``n`` out of range are read as they are; the rules eliminate
for them.  Anything else is "bad-output" with the reason in
:attr:`Answer.reason`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from .state import NEUTRAL, ROUND_LIMITS, Config, State, View

MESSAGE_LIMIT = 100
#: advertised time per answer: the first turn, then every later turn (the
#: referee allowed 150 ms of grace on the later turns)
FIRST_TURN_SECONDS = 1.0
TURN_SECONDS = 0.1
_XY = re.compile(r"\s*([+-]?\d+) +([+-]?\d+)(?: (.*))?")
_BACK = re.compile(r"\s*back\s+([+-]?\d+)\s*", re.IGNORECASE)


class Answer(NamedTuple):
    """A parsed answer: ``action`` for :func:`tronlab.capture.rules.step`,
    the player's message (or ``None``) and, for "bad-output", why."""
    action: object
    message: str | None
    reason: str | None


def seen_ids(n_players: int, player: int) -> list[int]:
    """``seen[q]`` = the id under which ``player`` sees player ``q``.

    >>> seen_ids(4, 2)
    [1, 2, 0, 3]
    """
    order = [player] + [q for q in range(n_players) if q != player]
    seen = [0] * n_players
    for k, q in enumerate(order):
        seen[q] = k
    return seen


def format_start(n_players: int) -> str:
    """The first line: how many opponents there are."""
    return f"{n_players - 1}\n"


def format_turn(state: State, player: int) -> str:
    """The lines player ``player`` reads at the start of a turn.

    >>> from tronlab.capture.ascii import state_from_ascii
    >>> print(format_turn(state_from_ascii('''
    ...     A.1
    ...     .0B
    ... ''', backs_left=(0, 1)), 1), end="")
    1
    2 1 1
    0 0 0
    1.0
    .10
    """
    if state.eliminated[player]:
        raise ValueError(f"player {player} is eliminated and reads nothing")
    seen = seen_ids(state.n_players, player)
    order = sorted(range(state.n_players), key=seen.__getitem__)
    lines = [str(state.round)]
    for q in order:
        pos = state.positions[q]
        lines.append("-1 -1 0" if pos is None else f"{pos[0]} {pos[1]} {state.backs_left[q]}")
    chars = np.array(["."] + [str(seen[q]) for q in range(state.n_players)])
    rows = chars[state.owner.astype(np.intp) + 1]
    lines += ["".join(row) for row in rows]
    return "\n".join(lines) + "\n"


def parse_answer(line: str | None) -> Answer:
    """Read one answer line (see the module docstring).

    >>> parse_answer("12 7 on my way")
    Answer(action=(12, 7), message='on my way', reason=None)
    >>> parse_answer("back 5\\n").action
    ('BACK', 5)
    >>> parse_answer("12,7").reason
    "cannot read '12,7': expected 'x y [message]' or 'BACK n'"
    """
    if line is None:
        return Answer("exited", None, "no answer: the program's output ended")
    line = line.rstrip("\r\n")
    if not line.strip():
        return Answer("bad-output", None, "empty answer")
    m = _BACK.fullmatch(line)
    if m:
        return Answer(("BACK", int(m.group(1))), None, None)
    m = _XY.fullmatch(line)
    if m:
        message = m.group(3)
        if message is not None:
            message = message[:MESSAGE_LIMIT]
        return Answer((int(m.group(1)), int(m.group(2))), message, None)
    shown = line if len(line) <= 40 else line[:37] + "..."
    return Answer("bad-output", None,
                  f"cannot read {shown!r}: expected 'x y [message]' or 'BACK n'")


def format_answer(action, message: str | None = None) -> str:
    """The answer line (no newline) for a target ``(x, y)`` or ``("BACK", n)``;
    a message (targets only) has its whitespace runs made single spaces and is
    cut to 100 characters.

    >>> format_answer((3, 4), "hi"), format_answer(("back", 2))
    ('3 4 hi', 'BACK 2')
    """
    a, b = action
    if isinstance(a, str):
        if a.upper() != "BACK":
            raise ValueError(f"not an action: {action!r}")
        return f"BACK {int(b)}"
    text = f"{int(a)} {int(b)}"
    if message:
        text += " " + " ".join(str(message).split())[:MESSAGE_LIMIT]
    return text


def parse_turn(lines, n_players: int, *, width: int = 35, height: int = 20) -> View:
    """A :class:`View` from one turn's lines (``3 + n_players - 1 + height``
    of them, newlines optional); the reader is player 0."""
    lines = [ln.rstrip("\r\n") for ln in lines]
    want = 1 + n_players + height
    if len(lines) != want:
        raise ValueError(f"a turn has {want} lines, got {len(lines)}")
    try:
        rnd = int(lines[0])
        rows = [[int(v) for v in ln.split()] for ln in lines[1:1 + n_players]]
    except ValueError as err:
        raise ValueError(f"bad number in the turn's header: {err}") from None
    if any(len(r) != 3 for r in rows):
        raise ValueError("player lines need three numbers: x y backInTimeLeft")
    positions = tuple(None if (x, y) == (-1, -1) else (x, y) for x, y, _ in rows)
    owner = np.full((height, width), NEUTRAL, np.int8)
    for y, row in enumerate(lines[1 + n_players:]):
        if len(row) != width:
            raise ValueError(f"grid row {y} has {len(row)} characters, not {width}")
        for x, ch in enumerate(row):
            if ch != ".":
                if ch not in "0123"[:n_players]:
                    raise ValueError(f"unexpected grid character {ch!r} at ({x}, {y})")
                owner[y, x] = int(ch)
    owner.setflags(write=False)
    config = Config(width, height, n_players, ROUND_LIMITS.get(n_players, 0))
    return View(rnd, owner, positions, tuple(b for _, _, b in rows),
                tuple(p is None for p in positions), config)


class CaptureClient:
    """A contest program's side: read turns from ``stream_in``, write answers to
    ``stream_out``.  ``run(bot)`` plays until the input ends, calling
    ``bot(view, 0)`` each turn."""

    def __init__(self, stream_in, stream_out, *, width: int = 35, height: int = 20):
        self.stream_in, self.stream_out = stream_in, stream_out
        self.width, self.height = width, height
        self.n_players = None

    def _line(self) -> str | None:
        line = self.stream_in.readline()
        return line if line else None

    def read_turn(self) -> View | None:
        """The next turn's view, or ``None`` when the input has ended."""
        if self.n_players is None:
            first = self._line()
            if first is None:
                return None
            count = first.strip()
            if not (count.isascii() and count.isdigit() and 1 <= int(count) <= 3):
                raise ValueError(f"the first line must be the number of opponents, 1 to 3, "
                                 f"got {first.strip()[:40]!r}")
            self.n_players = int(count) + 1
        lines = []
        for _ in range(1 + self.n_players + self.height):
            line = self._line()
            if line is None:
                if lines:
                    raise ValueError("the input ended in the middle of a turn")
                return None
            lines.append(line)
        return parse_turn(lines, self.n_players, width=self.width, height=self.height)

    def answer(self, action, message: str | None = None) -> None:
        self.stream_out.write(format_answer(action, message) + "\n")
        self.stream_out.flush()

    def run(self, bot) -> int:
        """Play turns until the input ends; return how many were answered."""
        turns = 0
        while (view := self.read_turn()) is not None:
            self.answer(bot(view, 0))
            turns += 1
        return turns
