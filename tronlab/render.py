"""Static pictures of boards and games with matplotlib (technique X3).

:func:`draw_board` paints one board: walls dark, each player's trail in a
light shade of its colour, the head as a full-colour square (a dead head is
crossed out).  Analysis results can be laid over it; each is a plain array,
so any module (or a reader's own code) can produce one:

``owner``     territory: which player reaches each square first
              (0..n-1 a player; anything else - e.g. -1 - nobody's),
``dist``      a distance map, written as numbers (negative, non-finite or
              larger than the board means "unreachable" and is left blank),
``mask``      booleans, e.g. articulation points, marked with a black dot,
``chambers``  integer chamber ids (negative = none), tinted with borders
              drawn between different chambers,
``overlay``   any number per square, shown as a translucent heatmap.

Each array may have the playing-area shape ``(height, width)``, the padded
shape ``(height + 2, width + 2)`` or be the flat padded vector kernels use.

:func:`draw_record` shows chosen turns of a game side by side.  Both return
matplotlib objects and touch no global state, so the same input always gives
the same picture.
"""

from __future__ import annotations

import numpy as np

from .tron.board import FREE, MAX_PLAYERS, TRAIL, WALL, Board
from .tron.values import is_whole

# One palette for pictures and the widget: (head, trail) per player.  Players 3 and 4 are
# teal and violet, not green and purple: under red-green colour blindness green met red
# and purple met blue (trails nearly the same colour); see tests/test_render.py.
PLAYER_COLORS = ("#1f6fd1", "#e4572e", "#008080", "#7900f2")
PLAYER_COLOR_NAMES = ("blue", "red", "teal", "violet")
TRAIL_COLORS = ("#a9c8f0", "#f5b8a6", "#9ecfcf", "#cc9efa")
WALL_COLOR = "#3b3b3b"
FREE_COLOR = "#ffffff"
GRID_COLOR = "#d0d0d0"
# Chamber tints: yellows, greens and an amber, hues no player's trail or head has (a peach, a
# lavender and a cyan read as red's, blue's and teal's trails), and far from them under
# red-green colour blindness too (a pink read as blue's trail); see tests/test_render.py.
CHAMBER_COLORS = ("#f5fa05", "#64ff23", "#faff5a", "#00f500", "#afff14", "#ffb400")

__all__ = ["draw_board", "draw_record", "grid_of", "board_rgb", "player_label",
           "PLAYER_COLORS", "TRAIL_COLORS", "WALL_COLOR", "FREE_COLOR"]


def player_label(player: int) -> str:
    """A Tron player as the course names one: by index, with the colour and the digit its
    head shows (the digit counts from 1).

    >>> player_label(1)
    'player 1 (red, 2 on the board)'
    """
    return f"player {player} ({PLAYER_COLOR_NAMES[player % 4]}, {player + 1} on the board)"


def grid_of(board: Board, array, *, name: str = "overlay") -> np.ndarray:
    """``array`` as a ``(height, width)`` grid over ``board``'s playing area.

    Accepts the playing-area shape, the padded shape or the flat padded
    vector; anything else raises a ``ValueError`` naming ``name`` and the
    shapes that would fit.
    """
    if not isinstance(board, Board):
        raise TypeError(f"expected a tronlab Board, got {type(board).__name__}")
    try:
        a = np.asarray(array)
    except Exception as err:  # noqa: BLE001 - any conversion failure is a bad argument
        raise TypeError(f"{name}: cannot be read as an array ({err})") from None
    if a.dtype == object or not (np.issubdtype(a.dtype, np.number) or a.dtype == np.bool_):
        raise TypeError(f"{name}: expected numbers or booleans, got dtype {a.dtype}")
    h, w = board.height, board.width
    if a.shape == (h, w):
        return a
    if a.shape == (h + 2, w + 2):
        return a[1:-1, 1:-1]
    if a.shape == ((h + 2) * (w + 2),):
        return a.reshape(h + 2, w + 2)[1:-1, 1:-1]
    raise ValueError(f"{name}: shape {a.shape} does not fit a {w}x{h} board; use ({h}, {w}), "
                     f"the padded ({h + 2}, {w + 2}) or flat ({(h + 2) * (w + 2)},)")


def _rgb(hex_color: str) -> np.ndarray:
    return np.array([int(hex_color[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.float64) / 255.0


def board_rgb(board: Board) -> np.ndarray:
    """The board as an ``(height, width, 3)`` float image: walls, free squares, trails, heads."""
    cells = board.cells[1:-1, 1:-1]
    img = np.empty(cells.shape + (3,))
    img[...] = _rgb(FREE_COLOR)
    img[cells == WALL] = _rgb(WALL_COLOR)
    for p in range(MAX_PLAYERS):
        img[cells == TRAIL + p] = _rgb(TRAIL_COLORS[p])
    for p, h in enumerate(board.heads):
        x, y = board.xy(h)
        if board.inside(x, y) and cells[y, x] == TRAIL + p:
            img[y, x] = _rgb(PLAYER_COLORS[p])
    return img


def _unreachable(dist: np.ndarray, n_squares: int) -> np.ndarray:
    d = dist.astype(np.float64)
    return ~np.isfinite(d) | (d < 0) | (d > n_squares)


def draw_board(board: Board, *, ax=None, overlay=None, owner=None, dist=None, mask=None,
               chambers=None, title=None, grid: bool = True):
    """Draw ``board`` (and optional overlays, see the module docstring) on ``ax``.

    Creates a new figure when ``ax`` is None.  Returns ``(fig, ax)`` (the capture
    game's :func:`tronlab.capture.render.draw_grid` returns the axes alone).  A
    living head is labelled as the ASCII notation writes it, its player index plus
    one (player 0's head reads "1"); the capture pictures label players by index.

    >>> b = Board.from_ascii('''
    ...     #####
    ...     #1.2#
    ...     #####''')
    >>> fig, ax = draw_board(b, title="tiny")
    >>> ax.get_title(), [t.get_text() for t in ax.texts]
    ('tiny', ['1', '2'])
    """
    import matplotlib.pyplot as plt

    if not isinstance(board, Board):
        raise TypeError(f"draw_board needs a tronlab Board, got {type(board).__name__}")
    layers = _layers(board, overlay=overlay, owner=owner, dist=dist, mask=mask,
                     chambers=chambers)
    h, w = board.height, board.width
    if ax is None:
        size = min(9.0, max(2.5, 0.32 * max(w, h)))
        fig, ax = plt.subplots(figsize=(size * w / max(w, h) + 0.2, size * h / max(w, h) + 0.4),
                               layout="constrained")
    else:
        fig = ax.figure
    cells = board.cells[1:-1, 1:-1]
    extent = (-0.5, w - 0.5, h - 0.5, -0.5)
    ax.imshow(_tinted(board, layers), interpolation="nearest", extent=extent)
    if "overlay" in layers:
        ov = layers["overlay"].astype(np.float64)
        shown = np.ma.masked_where(~np.isfinite(ov) | (cells != FREE), ov)
        ax.imshow(shown, cmap="viridis", alpha=0.55, interpolation="nearest", extent=extent)
    if grid and max(w, h) <= 40:
        ax.set_xticks(np.arange(-0.5, w, 1.0), minor=True)
        ax.set_yticks(np.arange(-0.5, h, 1.0), minor=True)
        ax.grid(which="minor", color=GRID_COLOR, linewidth=0.5)
        ax.tick_params(which="minor", length=0)
    if "chambers" in layers:
        _draw_chamber_borders(ax, layers["chambers"])
    square = _square_points(ax, w, h)
    _draw_marks(ax, board, layers, square)
    _draw_heads(ax, board, square)
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    if title is not None:
        ax.set_title(str(title), fontsize=10)
    return fig, ax


def _square_points(ax, w: int, h: int) -> float:
    """About how many points a board square gets on ``ax`` once the figure is laid out: the
    share of the figure its grid cell has (constrained and tight layouts leave little margin),
    less a title line, over the board's size.  Text and frames are sized from it, so that a
    30x20 board in a small panel still shows its heads' colours and numbers."""
    fw, fh = ax.figure.get_size_inches()
    spec = ax.get_subplotspec() if hasattr(ax, "get_subplotspec") else None
    if spec is not None and spec.get_topmost_subplotspec() is spec:
        rows, cols = spec.get_gridspec().get_geometry()
        wr = spec.get_gridspec().get_width_ratios() or [1] * cols
        hr = spec.get_gridspec().get_height_ratios() or [1] * rows
        fw *= sum(wr[i] for i in spec.colspan) / sum(wr)
        fh *= sum(hr[i] for i in spec.rowspan) / sum(hr)
    else:
        box = ax.get_position()
        fw, fh = fw * box.width, fh * box.height
    return 72.0 * max(0.05, min(fw / w, (fh - 0.35) / h))


def _layers(board, **given) -> dict:
    """The overlays given to :func:`draw_board`, checked and shaped like the board."""
    layers = {name: grid_of(board, value, name=name)
              for name, value in given.items() if value is not None}
    if "mask" in layers and layers["mask"].dtype != np.bool_:
        m = layers["mask"]
        if not np.isin(m, (0, 1)).all():
            raise ValueError("mask: expected booleans (or 0/1), got other values")
        layers["mask"] = m.astype(bool)
    return layers


def _tinted(board, layers):
    """The board's colours, free squares tinted by owner and by chamber."""
    cells = board.cells[1:-1, 1:-1]
    img = board_rgb(board)
    if "owner" in layers:
        own = layers["owner"]
        for p in range(board.n_players):
            sel = (own == p) & (cells == FREE)
            img[sel] = 0.55 * img[sel] + 0.45 * _rgb(TRAIL_COLORS[p])
    if "chambers" in layers:
        ch = layers["chambers"]
        free = cells == FREE
        for cid in np.unique(ch[(ch >= 0) & free]):
            sel = (ch == cid) & free
            img[sel] = 0.5 * img[sel] + 0.5 * _rgb(CHAMBER_COLORS[int(cid) % len(CHAMBER_COLORS)])
    return img


def _draw_chamber_borders(ax, ch):
    """A black line between squares of different chambers."""
    h, w = ch.shape
    segs = []
    for y in range(h):
        for x in range(w):
            if x + 1 < w and ch[y, x] != ch[y, x + 1] and (ch[y, x] >= 0 or ch[y, x + 1] >= 0):
                segs.append([(x + 0.5, y - 0.5), (x + 0.5, y + 0.5)])
            if y + 1 < h and ch[y, x] != ch[y + 1, x] and (ch[y, x] >= 0 or ch[y + 1, x] >= 0):
                segs.append([(x - 0.5, y + 0.5), (x + 0.5, y + 0.5)])
    if segs:
        from matplotlib.collections import LineCollection
        ax.add_collection(LineCollection(segs, colors="black", linewidths=1.6))


def _draw_marks(ax, board, layers, square):
    """Distances written on free squares, dots on masked ones (``square``: points a square)."""
    cells = board.cells[1:-1, 1:-1]
    font = max(4.0, min(9.0, 0.42 * square))
    if "dist" in layers:
        d = layers["dist"]
        off = _unreachable(d, board.height * board.width)
        for y, x in zip(*np.nonzero(~off & (cells == FREE))):
            v = d[y, x]
            label = f"{int(v)}" if float(v).is_integer() else f"{float(v):.1f}"
            ax.text(x, y, label, ha="center", va="center", fontsize=font, color="#222222")
    if "mask" in layers:
        ys, xs = np.nonzero(layers["mask"])
        ax.scatter(xs, ys, s=(0.42 * square) ** 2, c="black", marker="o", zorder=4)


def _draw_heads(ax, board, square):
    """A frame round each head, its number when alive, a cross when dead; sized to the
    square (``square`` points) so that the head's colour still shows in small pictures."""
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Rectangle

    cells = board.cells[1:-1, 1:-1]
    font = max(4.0, min(10.0, 0.8 * square))
    frame = max(0.5, min(1.5, square / 14.0))
    cross = max(0.8, min(2.0, square / 10.0))
    for p in range(board.n_players):
        x, y = board.xy(board.heads[p])
        if not board.inside(x, y) or cells[y, x] != TRAIL + p:
            continue        # e.g. a CodinGame player whose trail was removed when it died
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, lw=frame,
                               edgecolor=to_rgba("black", 0.8), zorder=5))
        if board.alive[p]:
            ax.text(x, y, str(p + 1), ha="center", va="center", fontsize=font,
                    color="white", fontweight="bold", zorder=6)
        else:
            ax.plot([x - 0.35, x + 0.35], [y - 0.35, y + 0.35], color="black", lw=cross, zorder=6)
            ax.plot([x - 0.35, x + 0.35], [y + 0.35, y - 0.35], color="black", lw=cross, zorder=6)


def draw_record(record, *, turns=None, ncols: int = 5, size: float = 2.6, titles: bool = True):
    """Small multiples of a recorded game: the board after each of ``turns``.

    ``record`` is a :class:`tronlab.runner.records.GameRecord` (anything with a
    ``boards()`` method returning the start board and one board per turn).
    ``turns`` is a list of turn numbers (0 the start board) or one turn; it defaults to
    five evenly spaced turns from the start to the end; negative turns count from the
    end.  The pictures go ``ncols`` to a row (the default five puts the default turns on
    one row; ``size`` is each picture's width in inches).  Returns the Figure.
    """
    import matplotlib.pyplot as plt

    if not hasattr(record, "boards"):
        raise TypeError(f"draw_record needs a GameRecord, got {type(record).__name__}")
    boards = record.boards()
    last = len(boards) - 1
    if turns is None:
        turns = sorted(set(int(round(t)) for t in np.linspace(0, last, min(5, last + 1))))
    elif is_whole(turns):
        turns = [turns]
    elif isinstance(turns, (str, bytes)) or not hasattr(turns, "__iter__"):
        raise TypeError(f"turns is a list of turn numbers (or one turn), got {turns!r}")
    picked = []
    for t in turns:
        if not is_whole(t):
            raise TypeError(f"turns must be whole numbers, got {t!r}")
        t = int(t)
        real = t + last + 1 if t < 0 else t
        if not 0 <= real <= last:
            raise ValueError(f"turn {t} is outside the game (turns 0..{last})")
        picked.append(real)
    if not picked:
        raise ValueError("turns is empty: name at least one turn to draw")
    if not is_whole(ncols):
        raise TypeError(f"ncols must be a whole number of at least 1, got "
                        f"{type(ncols).__name__} {ncols!r}")
    if ncols < 1:
        raise ValueError(f"ncols must be a whole number of at least 1, got {ncols!r}")
    ncols = min(ncols, len(picked))
    nrows = -(-len(picked) // ncols)
    b0 = boards[0]
    aspect = b0.height / b0.width
    fig, axes = plt.subplots(nrows, ncols, figsize=(size * ncols, size * aspect * nrows + 0.4),
                             squeeze=False, layout="constrained")
    for ax, t in zip(axes.flat, picked):
        draw_board(boards[t], ax=ax, title=f"turn {t}" if titles else None)
    for ax in list(axes.flat)[len(picked):]:
        ax.axis("off")
    return fig
