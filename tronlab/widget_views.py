"""What the board widget shows besides the canvas: a still picture and the status lines (X1).

:func:`board_png` draws a board as a PNG with nothing but numpy and zlib (no matplotlib, so
it costs a millisecond or two): the board widget puts it beside its live view, so that a
saved notebook shows the board to GitHub, nbviewer and ``jupyter nbconvert`` even where no
kernel or widget state is available.  The status helpers turn a game's events into the
sentences under the board.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from .render import board_rgb
from .tron.board import Board

__all__ = ["board_png", "png_size", "play_status", "replay_status", "color_name"]


def color_name(player: int) -> str:
    return ("blue", "red", "green", "purple")[player % 4]


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def board_png(board: Board, cell_px: int = 12) -> bytes:
    """The board as an RGB PNG, ``cell_px`` pixels a square, thin grid lines, dead heads
    crossed out."""
    if not isinstance(board, Board):
        raise TypeError(f"board_png needs a tronlab Board, got {type(board).__name__}")
    px = int(cell_px)
    rgb = np.round(board_rgb(board) * 255).astype(np.uint8)
    img = np.repeat(np.repeat(rgb, px, axis=0), px, axis=1)
    if px >= 6:                                     # grid lines, a shade darker
        img[::px, :, :] = (img[::px, :, :] * 0.85).astype(np.uint8)
        img[:, ::px, :] = (img[:, ::px, :] * 0.85).astype(np.uint8)
    for p, h in enumerate(board.heads):
        if board.alive[p]:
            continue
        x, y = board.xy(h)
        if not board.inside(x, y):
            continue
        k = np.arange(px // 5, px - px // 5)
        img[y * px + k, x * px + k] = 0
        img[y * px + k, x * px + px - 1 - k] = 0
    h, w, _ = img.shape
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(h))
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(raw, 6)) + _chunk(b"IEND", b""))


def png_size(data: bytes) -> tuple[int, int]:
    """``(width, height)`` in pixels read back from a PNG's header."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])


def replay_status(record, turns: int) -> tuple[str, str]:
    """``(status, result)`` of a replay: the result is shown only at the last turn."""
    out = getattr(record, "outcome", None)
    if out is None:
        return f"{turns} turns. Press play.", ""
    if out.winner is None:
        return f"{turns} turns. Press play.", "A draw."
    return f"{turns} turns. Press play.", f"Cycle {out.winner + 1} wins."


def play_status(game, deaths: dict) -> str:
    """The sentence under the board after a turn of a person-vs-bots game."""
    from .tron.rules import REASONS

    parts = [f"Turn {game.turn}."]
    for p, why in sorted(deaths.items()):
        who = "You" if p == 0 else f"{game.names[p]} (cycle {p + 1})"
        parts.append(f"{who} {REASONS.get(why, why)}.")
    if game.over:
        out = game.outcome()
        if out.winner is None:
            parts.append("Draw.")
        elif out.winner == 0:
            parts.append("You win!")
        else:
            parts.append(f"{game.names[out.winner]} (cycle {out.winner + 1}) wins.")
        parts.append("Press Replay to watch it again, or New game.")
    elif not game.board.alive[0]:
        parts.append("You are out; the bots play on.")
    else:
        parts.append("Your move.")
    return " ".join(parts)
