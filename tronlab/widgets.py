"""An interactive board for the notebooks: play a bot, replay a game, show overlays (X1).

One canvas widget, :class:`BoardWidget`, does three jobs:

* ``BoardWidget(board)`` shows a board;
* ``BoardWidget.play(bot="hugger", rules="google2010")`` lets a person play
  player 1 (index 0) against registered bots with the arrow keys or WASD
  (click the board first) or the on-screen buttons.  Each key press travels
  to Python, which asks the bots, applies :mod:`tronlab.tron.rules` and sends the
  new frame back; ``widget.turn``, ``widget.game_over`` and
  ``widget.outcome`` can be read from the kernel at any time;
* ``BoardWidget.replay(record)`` sends every frame of a recorded game once
  and animates it in the browser, with play/pause, a slider and a speed
  choice.

``widget.set_overlay(name, array)`` lays analysis results on the board
(territory owner map, distances, articulation mask, chamber ids, or any
heatmap); a checkbox per overlay shows or hides it.

Wire format (what :func:`encode_board` and :func:`encode_frames` produce):
a frame is ``{"cells": <base64 of the height*width playing-area cell codes,
row-major>, "heads": [[x, y], ...], "alive": [bool, ...]}``.  A replay is
``{"width", "height", "start": <frame>, "steps": [{"d": [i, code, i, code,
...], "heads", "alive"}, ...]}`` where ``d`` lists only the squares that
changed (playing-area index ``y * width + x``) since the previous frame, so
a game of a few hundred turns stays a few kilobytes.  The JavaScript is
``tronlab/static/board.js``, shipped inside the package: nothing is fetched
from the network.
"""

from __future__ import annotations

import base64
import pathlib

import anywidget
import numpy as np
import traitlets

from .tron.board import MAX_PLAYERS, WALL, Board, parse_move
from .render import FREE_COLOR, PLAYER_COLORS, TRAIL_COLORS, WALL_COLOR, grid_of

_STATIC = pathlib.Path(__file__).parent / "static"

# overlay name -> kind; any other name needs kind=...
OVERLAY_KINDS = {"territory": "owner", "owner": "owner", "distances": "dist", "dist": "dist",
                 "articulation": "mask", "mask": "mask", "chambers": "chambers", "heat": "heat"}
KINDS = ("owner", "dist", "mask", "chambers", "heat")

__all__ = ["BoardWidget", "encode_board", "decode_board", "encode_frames", "decode_frames",
           "OVERLAY_KINDS"]


# ---- wire format -------------------------------------------------------------------------------

def encode_board(board: Board) -> dict:
    """One frame for the browser (see the module docstring)."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a tronlab Board, got {type(board).__name__}")
    inner = np.ascontiguousarray(board.cells[1:-1, 1:-1], dtype=np.uint8)
    return {"cells": base64.b64encode(inner.tobytes()).decode("ascii"),
            "heads": [list(board.xy(h)) for h in board.heads],
            "alive": [bool(a) for a in board.alive]}


def _frame_cells(frame: dict, width: int, height: int) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(frame["cells"]), dtype=np.uint8)
    if raw.size != width * height:
        raise ValueError(f"frame holds {raw.size} squares, expected {width}x{height}")
    return raw.reshape(height, width)


def decode_board(frame: dict, width: int, height: int) -> Board:
    """Inverse of :func:`encode_board` (facing and start squares are not sent)."""
    cells = np.full((height + 2, width + 2), WALL, dtype=np.uint8)
    cells[1:-1, 1:-1] = _frame_cells(frame, width, height)
    heads = [(y + 1) * (width + 2) + x + 1 for x, y in frame["heads"]]
    return Board(cells, heads, frame["alive"])


def encode_frames(boards) -> dict:
    """All frames of a game, delta-encoded (see the module docstring)."""
    boards = list(boards)
    if not boards:
        raise ValueError("no boards to encode: a replay needs at least the start board")
    for i, b in enumerate(boards):
        if not isinstance(b, Board):
            raise TypeError(f"boards[{i}] is a {type(b).__name__}, not a Board")
        if b.cells.shape != boards[0].cells.shape or b.n_players != boards[0].n_players:
            raise ValueError(f"boards[{i}] has a different size or player count than boards[0]")
    b0 = boards[0]
    steps = []
    prev = b0.cells[1:-1, 1:-1].reshape(-1)
    for b in boards[1:]:
        cur = b.cells[1:-1, 1:-1].reshape(-1)
        changed = np.flatnonzero(cur != prev)
        delta = np.empty(2 * changed.size, dtype=np.int64)
        delta[0::2] = changed
        delta[1::2] = cur[changed]
        steps.append({"d": delta.tolist(), "heads": [list(b.xy(h)) for h in b.heads],
                      "alive": [bool(a) for a in b.alive]})
        prev = cur
    return {"width": b0.width, "height": b0.height, "start": encode_board(b0), "steps": steps}


def decode_frames(payload: dict) -> list[Board]:
    """Inverse of :func:`encode_frames`: the list of boards."""
    w, h = int(payload["width"]), int(payload["height"])
    board = decode_board(payload["start"], w, h)
    out = [board]
    flat = board.cells[1:-1, 1:-1].copy().reshape(-1)
    for step in payload["steps"]:
        d = step["d"]
        flat[np.asarray(d[0::2], dtype=np.int64)] = np.asarray(d[1::2], dtype=np.uint8)
        cells = np.full((h + 2, w + 2), WALL, dtype=np.uint8)
        cells[1:-1, 1:-1] = flat.reshape(h, w)
        heads = [(y + 1) * (w + 2) + x + 1 for x, y in step["heads"]]
        out.append(Board(cells, heads, step["alive"]))
    return out


def _overlay_payload(board: Board, name: str, array, kind: str) -> dict:
    """Validate one overlay against ``board`` and turn it into JSON-safe numbers."""
    grid = grid_of(board, array, name=f"overlay {name!r}")
    h, w = grid.shape
    if kind == "mask":
        if grid.dtype != np.bool_ and not np.isin(grid, (0, 1)).all():
            raise ValueError(f"overlay {name!r} (a mask) must hold booleans or 0/1")
        data = grid.astype(bool).reshape(-1).astype(int).tolist()
    elif kind in ("owner", "chambers"):
        if not np.issubdtype(grid.dtype, np.integer):
            g = grid.astype(np.float64)
            if not (np.isfinite(g).all() and (g == np.round(g)).all()):
                raise ValueError(f"overlay {name!r} ({kind}) must hold whole numbers")
        data = grid.astype(np.int64).reshape(-1).tolist()
        if kind == "owner":  # a player index, or -1 for "nobody's"
            data = [v if 0 <= v < board.n_players else -1 for v in data]
    elif kind == "dist":
        g = grid.astype(np.float64)
        bad = ~np.isfinite(g) | (g < 0) | (g > h * w)
        g = np.where(bad, -1.0, np.round(g, 2))
        data = [int(v) if v == int(v) else float(v) for v in g.reshape(-1)]
    else:  # heat
        g = grid.astype(np.float64).reshape(-1)
        data = [float(v) if np.isfinite(v) else None for v in g]
    return {"kind": kind, "data": data}


# ---- players -----------------------------------------------------------------------------------

def _default_board(rules, rng) -> Board:
    """A fresh start board for ``rules`` when the caller gives none."""
    if rules.name == "lightriders":
        from .tron.mapgen import lightriders_board
        return lightriders_board(rng=rng)
    if rules.name == "codingame":
        from .tron.mapgen import codingame_board
        return codingame_board(2, rng=rng)
    from .tron.mapgen import load_builtin
    return load_builtin("arena")


def _bot_label(bot) -> str:
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "name", None) or getattr(bot, "__name__", None) or type(bot).__name__)


def _make_bot(bot, rng):
    if callable(bot):
        return bot
    if isinstance(bot, str):
        from .runner.registry import get_bot
        return get_bot(bot, rng=rng)
    raise TypeError(f"a bot is a registered name (str) or a callable bot(board, player), "
                    f"got {type(bot).__name__}")


class _Game:
    """A person-vs-bots game on the shared step API (:class:`tronlab.tron.match.Match`),
    stepped one human move at a time; the person is player 0."""

    def __init__(self, board: Board, bots, rules, rng):
        from .tron.match import Match

        self.match = Match(board, rules)
        self.rules = self.match.rules
        self.names = ["you"] + [_bot_label(b) for b in bots]
        rngs = rng.spawn(len(bots))
        self.bots = [None] + [_make_bot(b, r) for b, r in zip(bots, rngs)]
        self.events: list[dict] = []
        self.pending: dict[int, tuple[str, str]] = {}   # faults raised before the first move
        for p in range(1, board.n_players):
            hook = getattr(self.bots[p], "start_game", None)
            if hook is None:
                continue
            try:
                hook(board.copy(), p, rules=self.rules.name, time_limit=None, rng=rngs[p - 1])
            except Exception as err:  # noqa: BLE001 - the bot loses, the widget carries on
                self.pending[p] = ("error", f"in start_game: {type(err).__name__}: {err}")

    @property
    def board(self) -> Board:
        return self.match.board

    @property
    def moves(self) -> list:
        return self.match.moves

    @property
    def turn(self) -> int:
        return self.match.turns

    def _ask_bot(self, player: int, board: Board):
        """``(move, fault, note)`` for the step API; a bot never breaks the game.

        Bots run in the kernel without a clock: a bot that never returns blocks
        the widget (use :func:`tronlab.runner.engine.play` with ``time_limit`` to race
        untrusted bots).
        """
        turn = self.match.next_turn
        if player in self.pending:
            fault, note = self.pending.pop(player)
            self.events.append({"turn": turn, "player": player, "kind": fault, "detail": note})
            return None, fault, note
        try:
            raw = self.bots[player](board, player)
        except Exception as err:  # noqa: BLE001
            fault, note = "error", f"{type(err).__name__}: {err}"
        else:
            try:
                return parse_move(raw), None, None
            except (TypeError, ValueError) as err:
                fault, note = "illegal", f"returned {raw!r}: {err}"
        self.events.append({"turn": turn, "player": player, "kind": fault, "detail": note})
        return None, fault, note

    def step(self, human_move) -> dict:
        """One turn with the person's move (None once the person is out); returns the deaths."""
        deaths = {}
        turn = self.match.next_turn
        while not self.match.over and self.match.next_turn == turn:
            answers = {p: (human_move, None, None) if p == 0 else
                       self._ask_bot(p, self.match.view(p)) for p in self.match.to_move()}
            deaths.update(self.match.step(answers).deaths)
        return deaths

    @property
    def over(self) -> bool:
        return self.match.over

    def outcome(self):
        return self.match.outcome()

    def record(self):
        return self.match.record(metadata={"names": list(self.names)}, events=self.events)


# ---- the widget --------------------------------------------------------------------------------

class BoardWidget(anywidget.AnyWidget):
    """A Tron board on a canvas; see the module docstring.

    Build it with ``BoardWidget(board)``, :meth:`play` or :meth:`replay`.
    """

    _esm = _STATIC / "board.js"
    _css = _STATIC / "board.css"

    mode = traitlets.Unicode("view").tag(sync=True)
    width = traitlets.Int(1).tag(sync=True)
    height = traitlets.Int(1).tag(sync=True)
    frame = traitlets.Dict().tag(sync=True)
    frames = traitlets.Dict().tag(sync=True)
    turn = traitlets.Int(0).tag(sync=True)
    game_over = traitlets.Bool(False).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    fps = traitlets.Float(8.0).tag(sync=True)
    playing = traitlets.Bool(False).tag(sync=True)
    overlays = traitlets.Dict().tag(sync=True)
    hidden_overlays = traitlets.List(traitlets.Unicode()).tag(sync=True)
    cell_px = traitlets.Int(0).tag(sync=True)
    palette = traitlets.Dict().tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, board: Board | None = None, *, cell_px: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.palette = {"players": list(PLAYER_COLORS), "trails": list(TRAIL_COLORS),
                        "wall": WALL_COLOR, "free": FREE_COLOR}
        self._game: _Game | None = None
        self._boards: list[Board] | None = None
        self._board: Board | None = None
        self.record = None
        self.on_msg(self._on_browser_msg)
        if board is not None:
            self.show(board, cell_px=cell_px)

    # ---- showing ------------------------------------------------------------------------------
    def _set_size(self, board: Board, cell_px):
        if cell_px is None:
            cell_px = max(8, min(28, 540 // max(board.width, board.height)))
        if not isinstance(cell_px, (int, np.integer)) or not 4 <= cell_px <= 64:
            raise ValueError(f"cell_px is a whole number of pixels 4-64, got {cell_px!r}")
        self.width, self.height, self.cell_px = board.width, board.height, int(cell_px)

    def show(self, board: Board, *, cell_px: int | None = None) -> "BoardWidget":
        """Show a still board (clears the game or replay)."""
        if not isinstance(board, Board):
            raise TypeError(f"show needs a tronlab Board, got {type(board).__name__}")
        self._game, self._boards, self._board = None, None, board.copy()
        self._set_size(board, cell_px)
        self.overlays, self.hidden_overlays = {}, []
        self.frame = encode_board(board)
        self.mode, self.turn, self.game_over, self.status = "view", 0, False, ""
        self.names = [""] * board.n_players
        return self

    @property
    def board(self) -> Board:
        """The board on show (the current game position, or the replay's current frame)."""
        if self._boards is not None:
            return self._boards[min(self.turn, len(self._boards) - 1)].copy()
        if self._game is not None:
            return self._game.board.copy()
        if self._board is None:
            raise ValueError("this widget shows no board yet")
        return self._board.copy()

    # ---- playing ------------------------------------------------------------------------------
    @classmethod
    def play(cls, bot="hugger", *, rules="google2010", board: Board | None = None, seed=0,
             cell_px: int | None = None) -> "BoardWidget":
        """A game against ``bot`` (a registered name or a callable); you are player 1 (index 0).

        ``bot`` may be a list, one per opponent, for boards with more players
        (codingame); ``seed`` (int or numpy Generator) drives the bots and any
        random start board.
        """
        w = cls()
        w.new_game(bot=bot, rules=rules, board=board, seed=seed, cell_px=cell_px)
        return w

    def new_game(self, *, bot=None, rules=None, board: Board | None = None, seed=None,
                 cell_px: int | None = None) -> "BoardWidget":
        """Start (or restart) a game; unspecified options keep their previous values."""
        from .tron.rules import get_rules

        prev = getattr(self, "_setup", {})
        bot = prev.get("bot", "hugger") if bot is None else bot
        rules = get_rules(prev.get("rules", "google2010") if rules is None else rules)
        if seed is None:
            rng = prev.get("rng") or np.random.default_rng(0)
        elif isinstance(seed, np.random.Generator):
            rng = seed
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            rng = np.random.default_rng(int(seed))
        else:
            raise TypeError(f"seed is an int or a numpy Generator, got {type(seed).__name__}")
        if board is None:
            board = prev.get("board") if rules is prev.get("rules_obj") else None
        if board is None:
            board = _default_board(rules, rng)
            fixed = None
        else:
            if not isinstance(board, Board):
                raise TypeError(f"board must be a tronlab Board, got {type(board).__name__}")
            fixed = board
        rules.check(board)
        n = board.n_players
        bots = list(bot) if isinstance(bot, (list, tuple)) else [bot] * (n - 1)
        if len(bots) != n - 1:
            raise ValueError(f"this board has {n} players: give {n - 1} bot(s), got {len(bots)}")
        self._setup = {"bot": bot, "rules": rules.name, "rules_obj": rules, "rng": rng,
                       "board": fixed}
        self._game = _Game(board, bots, rules, rng)
        self._boards, self._board, self.record = None, None, None
        self._set_size(board, cell_px if cell_px is not None else (self.cell_px or None))
        self.names = list(self._game.names)
        self.overlays, self.hidden_overlays = {}, []
        self.mode, self.turn, self.game_over, self.playing = "play", 0, False, False
        self.frame = encode_board(self._game.board)
        self.status = (f"{rules.name}: you drive the {_color_name(0)} cycle 1. Click the board, "
                       f"then use the arrow keys or WASD.")
        return self

    @property
    def outcome(self):
        """The game's :class:`tronlab.tron.rules.Outcome` once it is over (else None)."""
        if self._game is None or not self.game_over:
            return None
        return self._game.outcome()

    @property
    def moves(self) -> list:
        """Moves made so far in the game, one list per turn (one entry per player)."""
        return [] if self._game is None else [list(m) for m in self._game.moves]

    def move(self, move) -> dict:
        """Make the person's move (0-3 or a name like 'up'), as a key press would.

        Returns the deaths of this turn ``{player: reason}``; raises
        ValueError when no game is running or it is over.
        """
        if self._game is None:
            raise ValueError("no game: start one with BoardWidget.play(...)")
        if self.game_over:
            raise ValueError("the game is over: start a new one with new_game()")
        m = parse_move(move)
        deaths = self._game.step(m)
        g = self._game
        while not g.over and not g.board.alive[0]:  # codingame: the bots play on without you
            deaths.update(g.step(None))
        self.frame = encode_board(g.board)
        self.turn = g.turn
        self.status = self._status_text(deaths)
        if g.over:
            self.game_over = True
            self._make_record()
        return deaths

    def _status_text(self, deaths) -> str:
        g = self._game
        parts = [f"Turn {g.turn}."]
        for p, why in sorted(deaths.items()):
            from .tron.rules import REASONS
            who = "You" if p == 0 else f"{g.names[p]} (cycle {p + 1})"
            parts.append(f"{who} {REASONS.get(why, why)}.")
        if g.over:
            out = g.outcome()
            if out.winner is None:
                parts.append("Draw.")
            elif out.winner == 0:
                parts.append("You win!")
            else:
                parts.append(f"{g.names[out.winner]} (cycle {out.winner + 1}) wins.")
            parts.append("Press New game to play again.")
        else:
            parts.append("Your move.")
        return " ".join(parts)

    def _make_record(self):
        """Keep the finished game as a :class:`tronlab.runner.records.GameRecord` in ``widget.record``."""
        self.record = self._game.record()

    def _on_browser_msg(self, _widget, content, _buffers):
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        try:
            if kind == "move" and self._game is not None and not self.game_over:
                self.move(int(content.get("move")))
            elif kind == "new" and self._game is not None:
                self.new_game()
        except (TypeError, ValueError) as err:
            self.status = f"Ignored input: {err}"

    # ---- replaying ----------------------------------------------------------------------------
    @classmethod
    def replay(cls, record, *, fps: float = 8.0, autoplay: bool = True,
               cell_px: int | None = None) -> "BoardWidget":
        """Animate a recorded game (a GameRecord, or a list of Boards) in the browser.

        Every frame is sent once; play/pause, the slider and the speed menu run
        in the browser.  ``fps`` is frames per second.
        """
        w = cls()
        w.load_replay(record, fps=fps, autoplay=autoplay, cell_px=cell_px)
        return w

    def load_replay(self, record, *, fps: float = 8.0, autoplay: bool = True,
                    cell_px: int | None = None) -> "BoardWidget":
        if isinstance(fps, bool) or not isinstance(fps, (int, float)) or not 0.1 <= fps <= 120:
            raise ValueError(f"fps is frames per second between 0.1 and 120, got {fps!r}")
        if hasattr(record, "boards"):
            boards = record.boards()
            names = list((getattr(record, "metadata", None) or {}).get("names") or [])
        elif isinstance(record, (list, tuple)):
            boards, names = list(record), []
        else:
            raise TypeError(f"replay needs a GameRecord or a list of Boards, "
                            f"got {type(record).__name__}")
        payload = encode_frames(boards)
        b0 = boards[0]
        self._game, self._board, self._boards = None, None, [b.copy() for b in boards]
        self.record = record if hasattr(record, "boards") else None
        self._set_size(b0, cell_px)
        if len(names) != b0.n_players:
            names = [""] * b0.n_players
        self.names = [str(n) for n in names]
        self.overlays, self.hidden_overlays = {}, []
        self.mode, self.turn, self.game_over = "replay", 0, False
        self.fps = float(fps)
        self.frame = payload["start"]
        self.frames = payload
        self.status = self._replay_status(record, len(boards) - 1)
        self.playing = bool(autoplay)
        return self

    @staticmethod
    def _replay_status(record, turns) -> str:
        out = getattr(record, "outcome", None)
        if out is None:
            return f"{turns} turns."
        if out.winner is None:
            return f"{turns} turns, a draw."
        return f"{turns} turns, cycle {out.winner + 1} wins."

    # ---- overlays -----------------------------------------------------------------------------
    def set_overlay(self, name: str, array, *, kind: str | None = None,
                    visible: bool = True) -> "BoardWidget":
        """Lay ``array`` (one value per square) over the board under ``name``.

        Known names pick their own kind: "territory" (owner map: a player
        index, anything else nobody's), "distances" (numbers; negative or
        unreachable blank), "articulation" (boolean mask), "chambers"
        (integer ids, negative none) and "heat" (any numbers).  Other names
        need ``kind=`` one of owner, dist, mask, chambers, heat.  Shapes:
        ``(height, width)``, padded ``(height+2, width+2)`` or flat padded.
        """
        if not isinstance(name, str) or not name.strip():
            raise TypeError(f"an overlay name is a non-empty str, got {name!r}")
        if kind is None:
            if name not in OVERLAY_KINDS:
                raise ValueError(f"unknown overlay {name!r}: use one of "
                                 f"{', '.join(sorted(set(OVERLAY_KINDS)))} or pass kind= "
                                 f"({', '.join(KINDS)})")
            kind = OVERLAY_KINDS[name]
        elif kind not in KINDS:
            raise ValueError(f"unknown overlay kind {kind!r}; kinds are {', '.join(KINDS)}")
        payload = _overlay_payload(self.board, name, array, kind)
        self.overlays = {**self.overlays, name: payload}
        hidden = [h for h in self.hidden_overlays if h != name]
        self.hidden_overlays = hidden if visible else hidden + [name]
        return self

    def clear_overlay(self, name: str | None = None) -> "BoardWidget":
        """Remove one overlay, or all of them when ``name`` is None."""
        if name is None:
            self.overlays, self.hidden_overlays = {}, []
            return self
        if name not in self.overlays:
            raise ValueError(f"no overlay called {name!r}; shown: {sorted(self.overlays) or 'none'}")
        self.overlays = {k: v for k, v in self.overlays.items() if k != name}
        self.hidden_overlays = [h for h in self.hidden_overlays if h != name]
        return self


def _color_name(player: int) -> str:
    return ("blue", "red", "green", "purple")[player % MAX_PLAYERS]

