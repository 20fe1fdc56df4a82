"""What the board widget shows besides the canvas: a still picture and the status lines (X1).

:func:`board_png` draws a board and the widget's visible overlays as a PNG with nothing but
numpy and zlib (no matplotlib, so it costs a few milliseconds): the board widget puts it
beside its live view, so that a saved notebook shows the board to GitHub, nbviewer and
``jupyter nbconvert`` even where no kernel or widget state is available.  The status helpers
turn a game's events into the sentences under the board.
"""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np

from .render import CHAMBER_COLORS, PLAYER_COLOR_NAMES, PLAYER_COLORS, _rgb, board_rgb
from .tron.board import FREE, TRAIL, Board

__all__ = ["board_png", "png_size", "play_status", "replay_status", "color_name", "HEAT_STOPS"]

#: the widget's heat scale (``HEAT_STOPS`` in board.js): five viridis colours, linear between
HEAT_STOPS = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))
#: how strongly the canvas lays each tint over a free square (board.js, ``drawOverlays``)
OWNER_ALPHA, CHAMBER_ALPHA, HEAT_ALPHA = 0.28, 0.6, 0.55
_ORDER = {"chambers": 0, "owner": 1, "heat": 2, "dist": 3, "mask": 4}   # board.js draws so
_PLAYERS = np.array([_rgb(c) for c in PLAYER_COLORS]) * 255
_CHAMBERS = np.array([_rgb(c) for c in CHAMBER_COLORS]) * 255
_TEXT = 0x22                                                # the canvas writes "#222222"
_FONT = {d: g.split("/") for d, g in zip("0123456789.", (
    "###/#.#/#.#/#.#/###", ".#./##./.#./.#./###", "###/..#/###/#../###", "###/..#/###/..#/###",
    "#.#/#.#/###/..#/..#", "###/#../###/..#/###", "###/#../###/#.#/###", "###/..#/..#/..#/..#",
    "###/#.#/###/#.#/###", "###/#.#/###/..#/###", "././././#"))}


def color_name(player: int) -> str:
    return PLAYER_COLOR_NAMES[player % 4]


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def board_png(board: Board, cell_px: int = 12, overlays: dict | None = None) -> bytes:
    """The board as an RGB PNG, ``cell_px`` pixels a square, thin grid lines, each head
    framed with its number (crossed out once dead), as the widget's canvas draws it.

    ``overlays`` (name -> ``{"kind", "data"}``, as :func:`tronlab.widget_wire.overlay_payload`
    makes them) are drawn as the widget's canvas draws them (``tronlab/static/board.js``):
    chambers and territory tint free squares, a heatmap shades them, distances are written
    on them (squares of 10 pixels or more) and a mask puts a black dot on its squares.
    """
    if not isinstance(board, Board):
        raise TypeError(f"board_png needs a tronlab Board, got {type(board).__name__}")
    px = int(cell_px)
    shown = sorted((overlays or {}).values(), key=lambda ov: _ORDER.get(ov.get("kind"), 9))
    shown = [ov for ov in shown if len(ov.get("data") or ()) == board.width * board.height]
    rgb = board_rgb(board) * 255
    free = board.cells[1:-1, 1:-1] == FREE
    for ov in shown:
        _tint(rgb, free, ov)
    img = np.repeat(np.repeat(np.round(rgb).astype(np.uint8), px, axis=0), px, axis=1)
    if px >= 6:                                     # grid lines, a shade darker
        img[::px, :, :] = (img[::px, :, :] * 0.85).astype(np.uint8)
        img[:, ::px, :] = (img[:, ::px, :] * 0.85).astype(np.uint8)
    for ov in shown:
        _mark(img, board, free, px, ov)
    _heads(img, board, px)
    h, w, _ = img.shape
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(h))
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(raw, 6)) + _chunk(b"IEND", b""))


def _heads(img: np.ndarray, board: Board, px: int) -> None:
    """Each head as the canvas draws it (board.js ``drawHeads``): a black frame one pixel in,
    the player's number in white while alive (squares of 10 pixels or more), a cross once
    dead; nothing where a CodinGame trail was removed at death."""
    cells = board.cells[1:-1, 1:-1]
    for p, h in enumerate(board.heads):
        x, y = board.xy(h)
        if not board.inside(x, y) or cells[y, x] != TRAIL + p:
            continue
        sq = img[y * px:(y + 1) * px, x * px:(x + 1) * px]
        if px >= 6:
            sq[1, 1:-1] = sq[-2, 1:-1] = sq[1:-1, 1] = sq[1:-1, -2] = 0
        if not board.alive[p]:
            k = np.arange(px // 5, px - px // 5)
            sq[k, k] = 0
            sq[k, px - 1 - k] = 0
        elif px >= 10:
            label = str(p + 1)
            _write(img, label, x * px, y * px, px, _text_scale([label], px), colour=255)


def _tint(rgb: np.ndarray, free: np.ndarray, ov: dict) -> None:
    """Blend a territory, chamber or heat overlay into the free squares of ``rgb`` (0-255)."""
    kind = ov["kind"]
    if kind not in ("owner", "chambers", "heat"):
        return
    if kind == "heat":
        v = _grid_of(rgb, ov)
        sel = free & np.isfinite(v)
        seen = v[np.isfinite(v)]
        lo, hi = (seen.min(), seen.max()) if seen.size else (0.0, 0.0)
        t = (v[sel] - lo) / (hi - lo) if hi > lo else np.full(int(sel.sum()), 0.5)
        colour, alpha = _heat(t), HEAT_ALPHA
    else:
        v = _grid_of(rgb, ov).astype(np.int64)
        sel = free & (v >= 0)
        table, alpha = ((_PLAYERS, OWNER_ALPHA) if kind == "owner"
                        else (_CHAMBERS, CHAMBER_ALPHA))
        colour = table[v[sel] % len(table)]
    rgb[sel] = (1 - alpha) * rgb[sel] + alpha * colour


def _grid_of(rgb: np.ndarray, ov: dict) -> np.ndarray:
    data = [np.nan if v is None else v for v in ov["data"]]
    return np.asarray(data, dtype=np.float64).reshape(rgb.shape[:2])


def _heat(t: np.ndarray) -> np.ndarray:
    """Colours of the widget's heat scale at ``t`` in 0-1 (``HEAT_STOPS``, linear between)."""
    x = np.clip(t, 0.0, 1.0) * (len(HEAT_STOPS) - 1)
    i = np.minimum(len(HEAT_STOPS) - 2, np.floor(x).astype(np.int64))
    f = (x - i)[:, None]
    stops = np.asarray(HEAT_STOPS, dtype=np.float64)
    return np.round(stops[i] + f * (stops[i + 1] - stops[i]))


def _mark(img: np.ndarray, board: Board, free: np.ndarray, px: int, ov: dict) -> None:
    """Draw a chamber overlay's borders, a distance overlay's numbers or a mask's dots."""
    kind, shape = ov["kind"], (board.height, board.width)
    if kind == "chambers":
        _borders(img, np.asarray(ov["data"], dtype=np.int64).reshape(shape), px)
    elif kind == "mask":
        dots = np.asarray(ov["data"], dtype=bool).reshape(shape).copy()
        for h in board.heads:                      # the canvas draws heads over the dots
            x, y = board.xy(h)
            if board.inside(x, y):
                dots[y, x] = False
        c = np.arange(px) + 0.5 - px / 2
        disk = (c[:, None] ** 2 + c[None, :] ** 2) <= max(2.0, px * 0.2) ** 2
        img[np.kron(dots, disk).astype(bool)] = 0
    elif kind == "dist" and px >= 10:              # the canvas writes no numbers below 10 px
        grid = np.asarray(ov["data"], dtype=object).reshape(shape)
        labels = {(y, x): str(v) for (y, x), v in np.ndenumerate(grid) if v >= 0 and free[y, x]}
        scale = _text_scale(labels.values(), px)
        for (y, x), text in labels.items():
            if scale:
                _write(img, text, x * px, y * px, px, scale)


def _borders(img: np.ndarray, ch: np.ndarray, px: int) -> None:
    """A black line between squares of different chambers (either of them a chamber)."""
    width = 2 if px >= 8 else 1
    ys, xs = np.nonzero((ch[:, 1:] != ch[:, :-1]) & ((ch[:, 1:] >= 0) | (ch[:, :-1] >= 0)))
    for y, x in zip(ys, xs):
        col = (x + 1) * px
        img[y * px:(y + 1) * px, col - width + 1:col + 1] = 0
    ys, xs = np.nonzero((ch[1:, :] != ch[:-1, :]) & ((ch[1:, :] >= 0) | (ch[:-1, :] >= 0)))
    for y, x in zip(ys, xs):
        row = (y + 1) * px
        img[row - width + 1:row + 1, x * px:(x + 1) * px] = 0


def _text_width(text: str) -> int:
    return sum(len(_FONT[ch][0]) + 1 for ch in text if ch in _FONT) - 1


def _text_scale(labels, px: int) -> int:
    """The size of the 3x5 pixel font for numbers in ``px``-pixel squares: doubled when the
    longest number fits so with a margin, else single, 0 (not written) when even that does not
    fit.  One size for the whole overlay, as on the canvas."""
    widest = max((_text_width(t) for t in labels), default=0)
    for s in (2, 1):
        if s * widest <= px - 4 and s * 5 <= px - 4:
            return s
    return 0


def _write(img: np.ndarray, text: str, x0: int, y0: int, px: int, s: int,
           colour: int = _TEXT) -> None:
    """``text`` (digits and a point) ``s`` times the 3x5 font, centred in the square at
    (x0, y0), in grey level ``colour``."""
    x = x0 + (px - s * _text_width(text) + 1) // 2
    y = y0 + (px - s * 5 + 1) // 2
    for ch in text:
        if ch not in _FONT:
            continue
        glyph = np.array([[c == "#" for c in row] for row in _FONT[ch]])
        on = np.kron(glyph, np.ones((s, s), bool))
        img[y:y + on.shape[0], x:x + on.shape[1]][on] = colour
        x += on.shape[1] + s


#: the resolution of the widgets' matplotlib pictures for saved notebooks (the stepper's and
#: the capture game's; the capture game's was 72, blurrier than the stepper's beside it)
PICTURE_DPI = 80


def figure_png(fig, dpi: int = PICTURE_DPI) -> bytes:
    """A matplotlib figure as PNG bytes (cut to what it draws); the figure is closed."""
    import io

    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def with_picture(bundle, png: bytes, text: str):
    """A widget's mime ``bundle`` (``data`` or ``(data, metadata)``, as anywidget gives
    it) with ``png`` as its ``image/png`` and ``text`` as its ``text/plain``: what a
    saved notebook shows where no widget can run."""
    data, meta = bundle if isinstance(bundle, tuple) else (bundle, {})
    data = dict(data or {})
    data["image/png"] = base64.b64encode(png).decode("ascii")
    data["text/plain"] = text
    return (data, meta) if isinstance(bundle, tuple) else data


def png_size(data: bytes) -> tuple[int, int]:
    """``(width, height)`` in pixels read back from a PNG's header."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])


def replay_status(record, turns: int) -> tuple[str, str]:
    """``(status, result)`` of a replay: the result, shown only at the last turn, says who
    won (by name when the record keeps names) and how the others went out.  The page adds
    "Press play." to the status while the replay is paused before its end, "playing"
    while it plays."""
    from .tron.rules import REASONS

    out = getattr(record, "outcome", None)
    if out is None:
        return f"{turns} turns.", ""
    names = list((getattr(record, "metadata", None) or {}).get("names") or [])

    def who(p: int, first: bool = False) -> str:      # names as written, "Cycle" capitalised
        if p < len(names) and names[p]:
            return f"{names[p]} (cycle {p + 1})"
        return f"{'C' if first else 'c'}ycle {p + 1}"

    head = "A draw." if out.winner is None else f"{who(out.winner, True)} wins."
    died = sorted((t, p, d) for p, (d, t) in enumerate(zip(out.deaths, out.death_turns)) if d)
    why = "; ".join(f"{who(p, k == 0)} {REASONS.get(d, d)} on turn {t}"
                    for k, (t, p, d) in enumerate(died))
    return f"{turns} turns.", head + (f" {why}." if why else "")


def play_status(game, deaths: dict) -> str:
    """The sentence under the board after a turn of a person-vs-bots game."""
    from .tron.rules import FAULTS, REASONS

    parts = [f"Turn {game.turn}."]
    for p, why in sorted(deaths.items()):
        who = "You" if p == 0 else f"{game.names[p]} (cycle {p + 1})"
        if why in FAULTS:       # the bot's own fault: what it raised or returned, to debug it
            said = [e["detail"] for e in game.events if e["player"] == p and e["kind"] == why]
            note = f" ({_shorten(said[-1])})" if said else ""
            parts.append(f"{who} is out: {REASONS.get(why, why)}{note}.")
            if why == "timeout" and _still_running(game, p):
                parts.append("Its call still runs in a thread: told to stop, it ends when "
                             "it next runs Python code (a long wait or compiled code runs on "
                             "until it returns).")
        else:
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
    elif 0 in deaths:
        parts.append("You are out; the bots play on.")
    elif not game.board.alive[0]:
        # the bots play on a turn per tick: the turn's sentence lives a fraction of a second,
        # so the person's own way out is said again on every turn after it
        log = game.match.log
        why = REASONS.get(log.deaths[0], log.deaths[0])
        parts.append(f"You {why} on turn {log.death_turns[0]} and are out; the bots play on.")
    else:
        parts.append("Your move.")
    return " ".join(parts)


def _still_running(game, p: int) -> bool:
    """Whether bot ``p``'s call that overran still runs on its worker thread, a moment
    after it was told to stop (a Python loop ends at once)."""
    seats = getattr(game, "seats", None)
    worker = seats[p].worker if seats and 0 < p < len(seats) else None
    return worker is not None and not worker.settle(0.1)


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
