"""Draw a Tron map with the mouse, save it as a Google 2010 map file, play on it (X1).

    editor = MapEditor(15, 15, symmetric=True)
    editor                      # draw: click or drag to paint walls; pick a tool for the starts
                                # (keyboard: Tab to the grid, arrow keys move, Space paints)
    editor.save("my_map.txt")   # or the save button, which writes to ``editor.path``
    editor.load("my_map.txt")   # or the load button: a map file (or a built-in map's name)
    BoardWidget.play("chamber", board=editor.board())

The map lives in Python as the ``cells`` trait: one string per row in the map
file's own alphabet (the file adds a first line ``W H``) (``#`` wall, space free, ``1``
and ``2`` the starts), so
what the page shows, what :meth:`board` returns and what :meth:`save` writes
are the same text.  The page edits it and sends each change back.  Setting ``width`` or
``height`` grows the map (free squares on the right or at the foot) or crops it.

``symmetric=True`` mirrors every stroke through the centre (point symmetry),
the symmetry the contest's fair maps have: painting ``(x, y)`` also paints
``(w-1-x, h-1-y)``, and placing start 1 places start 2 on its mirror square.  The
centre square of an odd-sized map is its own mirror, so no start goes there.

>>> ed = MapEditor(5, 3, symmetric=True, border=False)
>>> ed.paint(1, 0, "#"); ed.paint(0, 1, "1")
>>> ed.cells
[' #   ', '1   2', '   # ']
>>> ed.board().head_xy(1)
(4, 1)
"""

from __future__ import annotations

import os
from pathlib import Path

import anywidget
import traitlets

from .tron.board import Board, BoardError
from .tron.maps import load_map, parse_map, save_map
from .tron.values import check_flag, check_whole, is_whole

_STATIC = Path(__file__).parent / "static"
TOOLS = ("#", " ", "1", "2")
MAX_SIDE = 100


def _check_side(name, value):
    return check_whole(value, name, 3, MAX_SIDE, "squares")


class MapEditor(anywidget.AnyWidget):
    """A map you draw; see the module docstring."""

    _esm = _STATIC / "map_editor.js"
    _css = _STATIC / "map_editor.css"

    width = traitlets.Int(15).tag(sync=True)
    height = traitlets.Int(15).tag(sync=True)
    cells = traitlets.List(traitlets.Unicode()).tag(sync=True)
    symmetric = traitlets.Bool(True).tag(sync=True)
    tool = traitlets.Unicode("#").tag(sync=True)
    path = traitlets.Unicode("my_map.txt").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    status_error = traitlets.Bool(False).tag(sync=True)   # the page shows the status in red

    def __init__(self, width: int = 15, height: int = 15, *, symmetric: bool = True,
                 border: bool = True, board: Board | None = None, path: str = "my_map.txt",
                 **kwargs):
        super().__init__(**kwargs)
        # flags checked: symmetric='no' mirrored every stroke, border='no' drew the border
        self.symmetric, self.path = check_flag(symmetric, "symmetric"), str(path)
        border = check_flag(border, "border")
        if board is not None:
            _check_board(board)
            self.width, self.height = board.width, board.height
            self.cells = _board_text(board).splitlines()
        else:
            self.width, self.height = _check_side("width", width), _check_side("height", height)
            rows = [[" "] * width for _ in range(height)]
            if border:
                for x in range(width):
                    rows[0][x] = rows[-1][x] = "#"
                for y in range(height):
                    rows[y][0] = rows[y][-1] = "#"
            self.cells = ["".join(r) for r in rows]
        self.on_msg(self._on_browser_msg)

    @traitlets.validate("width", "height")
    def _valid_side(self, proposal):
        # a loaded map may be one square high (_check_board); a new one starts at 3
        return check_whole(proposal["value"], proposal["trait"].name, 1, MAX_SIDE, "squares")

    @traitlets.validate("cells")
    def _valid_cells(self, proposal):
        """Rows of the map's size in its alphabet (a short row made a click raise IndexError
        in the kernel's log); a map of another size: load_text or width/height."""
        rows, w, h = list(proposal["value"]), self.width, self.height
        bad = [y for y, r in enumerate(rows) if len(r) != w or set(r) - set(TOOLS)]
        if len(rows) != h or bad:
            raise ValueError(f"cells must be {h} rows of {w} characters from '#', ' ', '1', '2' "
                             f"(the map's size; load_text takes a map of another): got "
                             f"{len(rows)} rows" + (f", row {bad[0]} is {rows[bad[0]]!r}"
                                                    if bad else ""))
        return rows

    @traitlets.observe("width", "height")
    def _resize(self, _change):
        """``ed.width = 21`` grows (or crops) the map on its right, ``height`` at its foot,
        with free squares; the rows had kept their length, so the page drew the new columns
        but a click there raised IndexError in the kernel's log and board() said 'ragged'."""
        w, h = self.width, self.height
        if not self.cells or (len(self.cells) == h and all(len(r) == w for r in self.cells)):
            return          # being built, or loading a map: the rows come next
        rows = [r[:w].ljust(w) for r in self.cells[:h]]
        self.cells = rows + [" " * w] * (h - len(rows))

    # ---- editing (the page calls these through messages) -----------------------------------
    def paint(self, x: int, y: int, tool: str) -> None:
        """Put ``tool`` (``#``, space, ``1`` or ``2``) at ``(x, y)``, and its mirror image
        when symmetric (a start's mirror is the other start)."""
        if tool not in TOOLS:
            raise ValueError(f"tool is one of {TOOLS}, got {tool!r}")
        if not (is_whole(x) and is_whole(y)):       # 1.5 reached a list index, True was 1
            raise TypeError(f"a square is two ints x, y, got {x!r}, {y!r}")
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"({x}, {y}) is off the {self.width}x{self.height} map")
        rows = [list(r) for r in self.cells]
        changes = [(x, y, tool)]
        if self.symmetric:
            mx, my = self.width - 1 - x, self.height - 1 - y
            if tool in "12" and (mx, my) == (x, y):
                raise ValueError(f"({x}, {y}) is the centre square, its own mirror image: "
                                 f"start {tool} there would leave no square for the other "
                                 f"start; pick another square or turn point symmetry off")
            changes.append((mx, my, {"1": "2", "2": "1"}.get(tool, tool)))
        for cx, cy, ch in changes:
            if ch in "12":        # one start per player: clear the old one
                rows = [[" " if c == ch else c for c in r] for r in rows]
            rows[cy][cx] = ch
        self.cells = ["".join(r) for r in rows]

    def text(self) -> str:
        """The map in Google 2010 format: ``W H``, then one line per row."""
        return f"{self.width} {self.height}\n" + "".join(row + "\n" for row in self.cells)

    def load_text(self, text: str) -> None:
        """Replace the map by Google 2010 map text (checked by the map parser)."""
        board = parse_map(text, name="map text")
        _check_board(board)
        self.width, self.height = board.width, board.height
        self.cells = _board_text(board).splitlines()

    def board(self) -> Board:
        """The map as a :class:`Board` ready to play; a clear error if a start is missing."""
        missing = [s for s in "12" if not any(s in row for row in self.cells)]
        if missing:
            names, first = " or ".join(f"start {s}" for s in missing), missing[0]
            raise BoardError(f"the drawn map has no {names} yet: pick the 'start {first}' "
                             f"tool and click a free square (in code: paint(x, y, {first!r}))")
        return parse_map(self.text(), name="the drawn map")

    def save(self, path=None) -> Path:
        """Write the map file (to ``path`` or :attr:`path`); returns the path written."""
        target = _file_name(path if path is not None else self.path)
        save_map(self.board(), target)
        return target

    def load(self, path=None) -> Path:
        """Replace the map by the map file ``path`` (or :attr:`path`; a built-in map's name
        works too, see ``builtin_maps()``); a given ``path`` becomes :attr:`path`, so the
        save button writes back to the file just read (after a built-in map, to
        ``NAME.txt`` here: a file called ``NAME`` would hide the built-in map from every
        later ``load_map(NAME)`` in this folder).  Returns the path read."""
        source = _file_name(path if path is not None else self.path)
        board = load_map(source)
        _check_board(board)
        self.width, self.height = board.width, board.height
        self.cells = _board_text(board).splitlines()
        if not source.exists():         # a built-in map: save writes NAME.txt, not NAME
            self.path = f"{source}.txt"
        elif path is not None:
            self.path = str(source)
        return source

    def _repr_mimebundle_(self, **kwargs):
        """The widget, and for a saved notebook (no widget runs there) the map as text."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            sym = "point-symmetric" if self.symmetric else "not symmetric"
            data["text/plain"] = (f"MapEditor: a {self.width}x{self.height} map, {sym}, "
                                  f"file {self.path}\n" + "\n".join(self.cells))
        return bundle

    def _on_browser_msg(self, _widget, content, _buffers):
        kind = content.get("kind") if isinstance(content, dict) else None
        self.status_error = True
        try:
            if kind == "paint":
                self.paint(content["x"], content["y"], str(content["tool"]))
                self.status = ""
            elif kind == "save":
                self.status = f"saved {self.save()}"
            elif kind == "load":
                self.status = f"loaded {self.load()}"
            self.status_error = False
        except (ValueError, KeyError, TypeError) as err:
            self.status = str(err)
        except OSError as err:      # the path in the page's box: no such folder, a folder...
            what = "load the map from" if kind == "load" else "save the map to"
            self.status = f"could not {what} {self.path!r}: {err.strerror or err}"


def _file_name(path) -> Path:
    """``path`` as a Path; an empty name is refused in words (open('') says 'No such file
    or directory' and Path('') is the current folder: 'Is a directory')."""
    name = os.fspath(path)
    if not str(name).strip():
        raise ValueError("no file name: type one in the box before the save and load buttons "
                         "(or give path=...), for example my_map.txt")
    return Path(name)


def _check_board(board) -> None:
    if not isinstance(board, Board):
        raise TypeError(f"board is a tronlab Board, got {type(board).__name__}")
    if board.width > MAX_SIDE or board.height > MAX_SIDE:
        raise ValueError(f"the map editor takes maps of at most {MAX_SIDE} squares a side "
                         f"(MAX_SIDE), got {board.width}x{board.height}")


def _board_text(board: Board) -> str:
    """The rows of ``board``'s map text, without the ``W H`` line."""
    from .tron.maps import format_map
    return format_map(board).split("\n", 1)[1]
