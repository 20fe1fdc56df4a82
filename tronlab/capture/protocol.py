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

from ..runner.games import get_game
from ..runner.reprs import safe_repr
from ..tron.values import is_whole
from .checks import check_player_of, check_view
from .state import NEUTRAL, ROUND_LIMITS, Config, State, View

MESSAGE_LIMIT = 100
#: advertised time per answer: the first turn, then every later turn (the
#: referee waited up to 150 ms, 50 ms of grace, on the later turns)
FIRST_TURN_SECONDS = get_game("backtothecode").first_move_time
TURN_SECONDS = get_game("backtothecode").move_time
_XY = re.compile(r"\s*([+-]?\d+) +([+-]?\d+)(?: (.*))?")
_BACK = re.compile(r"\s*back\s+([+-]?\d+)\s*", re.IGNORECASE)


def first_turn_default(time_limit) -> float:
    """The first turn's limit when only ``time_limit`` (seconds, None: the contest's)
    is given: three times it, at least the contest's first turn, 1 s - never shorter than
    a later turn (:func:`tronlab.play` takes three times too)."""
    return FIRST_TURN_SECONDS if time_limit is None else max(FIRST_TURN_SECONDS,
                                                             3 * time_limit)


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
    player = check_player_of(player, n_players)
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
    player = check_view(state, player, "state")
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
    """The answer line (no newline) for a target ``(x, y)`` or ``("BACK", n)``
    of whole numbers, as :func:`tronlab.capture.rules.step` takes them (anything
    else is a ValueError); a message (targets only) has its whitespace runs made
    single spaces and is cut to 100 characters.

    >>> format_answer((3, 4), "hi"), format_answer(("back", 2))
    ('3 4 hi', 'BACK 2')
    """
    try:
        a, b = action
    except (TypeError, ValueError):
        a = b = None
    if not is_whole(b) or not (is_whole(a) or (isinstance(a, str) and a.upper() == "BACK")):
        raise ValueError(f"not an action: {safe_repr(action, 60)}: a target (x, y) or "
                         f"(\"BACK\", n) of ints")
    if isinstance(a, str):
        return f"BACK {int(b)}"
    text = f"{int(a)} {int(b)}"
    if message:
        text += " " + " ".join(str(message).split())[:MESSAGE_LIMIT]
    return text


_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")


def _whole(text: str) -> bool:
    return _WHOLE.fullmatch(text) is not None


def parse_turn_line(k: int, line: str, n_players: int, *, width: int = 35, height: int = 20):
    """Line ``k`` of a turn (0 ``gameRound``, 1..n_players the players' ``x y
    backInTimeLeft``, then the grid rows) checked and read: the round, an
    ``(x, y, backs)`` triple or the row's text; a ValueError says what is wrong.
    Only an opponent's line may be ``-1 -1 0`` (eliminated): the referee sends no
    turn to an eliminated player, so the reader's own line always names its square.

    >>> parse_turn_line(1, "50 5 1", 2)
    Traceback (most recent call last):
    ...
    ValueError: your own position (50, 5) is off the 35x20 grid
    """
    text = line.rstrip("\r\n")
    if k == 0:
        if not _whole(text.strip()):
            raise ValueError(f"bad number in the turn's header: gameRound must be a whole "
                             f"number, got {text[:40]!r}")
        if int(text) < 1:
            raise ValueError(f"gameRound starts at 1 (a BACK never goes before it), got "
                             f"{int(text)}")
        return int(text)
    if k <= n_players:
        parts = text.split()
        if len(parts) != 3:
            raise ValueError(f"player lines need three numbers: x y backInTimeLeft, "
                             f"got {text[:40]!r}")
        if not all(_whole(v) for v in parts):
            raise ValueError(f"bad number in the turn's header: {text[:40]!r} is not three "
                             f"whole numbers x y backInTimeLeft")
        x, y, backs = (int(v) for v in parts)
        if backs not in (0, 1):
            raise ValueError(f"backInTimeLeft is 0 or 1 (1 while the BACK is unused, once a "
                             f"game), got {backs} in {text[:40]!r}")
        if (x, y) == (-1, -1) and k == 1:
            raise ValueError(f"your own line is an eliminated player's {text[:40]!r}, but the "
                             f"referee sends no turn to an eliminated player")
        if (x, y) == (-1, -1) and backs:
            raise ValueError(f"an eliminated player's line is '-1 -1 0' (the referee shows "
                             f"no BACK for it), got {text[:40]!r}")
        if (x, y) != (-1, -1) and not (0 <= x < width and 0 <= y < height):
            who = "your own position" if k == 1 else f"the position of opponent {k - 1}"
            raise ValueError(f"{who} ({x}, {y}) is off the {width}x{height} grid")
        return x, y, backs
    y = k - 1 - n_players
    text = text.rstrip(" \t")      # no square is a blank: trailing blanks carry nothing
    if len(text) != width:
        other = (f" (another grid size? the input never gives it: start the program with "
                 f"--width {len(text)} --height H)") if y == 0 and text.strip() else ""
        raise ValueError(f"grid row {y} has {len(text)} characters, not {width}{other}")
    for x, ch in enumerate(text):
        if ch != "." and ch not in "0123"[:n_players]:
            raise ValueError(f"unexpected grid character {ch!r} at ({x}, {y})")
    return text


def parse_turn(lines, n_players: int, *, width: int = 35, height: int = 20) -> View:
    """A :class:`View` from one turn's lines (``3 + n_players - 1 + height``
    of them, newlines optional); the reader is player 0."""
    lines = [ln.rstrip("\r\n") for ln in lines]
    want = 1 + n_players + height
    if len(lines) != want:
        raise ValueError(f"a turn has {want} lines, got {len(lines)}")
    read = [parse_turn_line(k, ln, n_players, width=width, height=height)
            for k, ln in enumerate(lines)]
    rnd, rows = read[0], read[1:1 + n_players]
    positions = tuple(None if (x, y) == (-1, -1) else (x, y) for x, y, _ in rows)
    owner = np.full((height, width), NEUTRAL, np.int8)
    for y, row in enumerate(read[1 + n_players:]):
        for x, ch in enumerate(row):
            if ch != ".":
                owner[y, x] = int(ch)
    owner.setflags(write=False)
    config = Config(width, height, n_players, ROUND_LIMITS.get(n_players, 0))
    return View(rnd, owner, positions, tuple(b for _, _, b in rows),
                tuple(p is None for p in positions), config)


class TurnError(ValueError):
    """A turn line that breaks the protocol, found as it was read.  ``remaining``
    lines of the turn are still to come; ``fallback`` is a legal answer for it
    (the reader's own square, brought onto the grid, or the last one known)."""

    def __init__(self, message: str, remaining: int, fallback: tuple):
        super().__init__(message)
        self.remaining, self.fallback = remaining, fallback


class CaptureClient:
    """A contest program's side: read turns from ``stream_in``, write answers to
    ``stream_out``.  ``run(bot)`` plays until the input ends, calling
    ``bot(view, 0)`` each turn."""

    def __init__(self, stream_in, stream_out, *, width: int = 35, height: int = 20):
        self.stream_in, self.stream_out = stream_in, stream_out
        self.width, self.height = width, height
        self.n_players = None
        self.position = None        # the reader's square in the last turn read
        self.answers = 0            # answer lines written, fallbacks for broken turns included
        self.broken = None          # why the last turn read was broken, None if it was good

    def _line(self) -> str | None:
        """The next line that is not blank (blank lines carry nothing), or None at the end."""
        while True:
            line = self.stream_in.readline()
            if not line:
                return None
            if line.strip():
                return line

    def read_turn(self) -> View | None:
        """The next turn's view, or ``None`` when the input has ended.  A line that
        breaks the protocol raises :class:`TurnError` as soon as it is read."""
        if self.n_players is None:
            first = self._line()
            if first is None:
                return None
            count = first.strip()
            if not (_whole(count) and 1 <= int(count) <= 3):     # int: 9 digits at most
                raise ValueError(f"the first line must be the number of opponents, 1 to 3, "
                                 f"got {first.strip()[:40]!r}")
            self.n_players = int(count) + 1
        want = 1 + self.n_players + self.height
        lines = []
        for k in range(want):
            line = self._line()
            if line is None:
                if lines:
                    raise ValueError(f"the input ended in the middle of a turn ({len(lines)} "
                                     f"of its {want} lines read)")
                return None
            try:
                value = parse_turn_line(k, line, self.n_players, width=self.width,
                                        height=self.height)
            except ValueError as err:
                if not line.endswith("\n"):        # the input stopped inside this line
                    raise ValueError(f"the input ended in the middle of a turn (line {k + 1} "
                                     f"of {want} cut short: {err})") from None
                raise TurnError(f"turn line {k + 1} of {want}: {err}", want - k - 1,
                                self._fallback(k, line)) from None
            if k == 1:
                self.position = value[:2]           # never (-1, -1): refused above
            lines.append(line)
        return parse_turn(lines, self.n_players, width=self.width, height=self.height)

    def _fallback(self, k: int, line: str) -> tuple:
        """A legal answer for a broken turn: its own square (line ``k == 1``) brought
        onto the grid, else the last own square read, else the centre."""
        parts = line.split()
        if k == 1 and len(parts) == 3 and all(_whole(v) for v in parts[:2]):
            x, y = int(parts[0]), int(parts[1])
            if (x, y) != (-1, -1):      # an eliminated player's line names no square
                return min(max(x, 0), self.width - 1), min(max(y, 0), self.height - 1)
        return self.position or (self.width // 2, self.height // 2)

    def skip(self, count: int) -> bool:
        """Read past ``count`` lines (the rest of a broken turn); False if the input ends."""
        return all(self._line() is not None for _ in range(count))

    def turns(self, log=None):
        """The turns' views until the input ends.  A broken turn is reported in one
        line to ``log`` (default: stderr), its remaining lines are skipped and it is
        answered with :attr:`TurnError.fallback`, so the game goes on in step;
        :attr:`broken` says why when the input ends on such a turn."""
        log = log or _stderr_line
        while True:
            try:
                view = self.read_turn()
            except TurnError as err:
                self.broken = f"bad input: {err}"
                log(f"tronlab bot: {self.broken}; skipping the rest of the turn, then "
                    f"answering {format_answer(err.fallback)}")
                if not self.skip(err.remaining):
                    return
                self.answer(err.fallback)
                continue
            if view is None:
                return
            self.broken = None
            yield view

    def answer(self, action, message: str | None = None) -> None:
        self.stream_out.write(format_answer(action, message) + "\n")
        self.stream_out.flush()
        self.answers += 1

    def run(self, bot) -> int:
        """Play turns until the input ends; return how many were answered."""
        for view in self.turns():
            self.answer(bot(view, 0))
        return self.answers


def _stderr_line(message: str) -> None:
    import sys
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
