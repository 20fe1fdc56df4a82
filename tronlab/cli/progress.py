"""The progress line of ``tronlab match`` on a terminal's stderr: the turn and each
player's time for its last move, rewritten in place after every turn and wiped at
the end.  Nothing is written when stderr is a file or a pipe."""

from __future__ import annotations

import sys


def is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """The one-line progress report on a terminal's stderr, rewritten after every turn."""

    def __init__(self, names):
        self.names = [n if len(n) <= 20 else n[:19] + "~" for n in names]
        self.width = 0

    def __call__(self, turn: int, seconds) -> None:
        moves = ", ".join(f"{name} {1000 * s:.0f} ms" for name, s in zip(self.names, seconds)
                          if s is not None)
        self._write(f"turn {turn}: last move {moves}" if moves else f"turn {turn}")

    def _write(self, text: str) -> None:
        pad = max(self.width - len(text), 0)
        self.width = len(text)
        try:
            sys.stderr.write("\r" + text + " " * pad)
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def clear(self) -> None:
        if self.width:
            self._write("")
            try:
                sys.stderr.write("\r")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
