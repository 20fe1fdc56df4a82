"""An interactive board for the notebooks: play a bot, replay a game, show overlays (X1).

One canvas widget, :class:`BoardWidget`, does three jobs:

* ``BoardWidget(board)`` shows a board;
* ``BoardWidget.play(bot="hugger", rules="google2010")`` lets a person play
  player 1 (index 0) against registered bots with the arrow keys or WASD
  (click the board first) or the on-screen buttons.  Each key press travels
  to Python, which asks the bots (on a clock: a stuck bot times out), applies
  :mod:`tronlab.tron.rules` and sends the new frame back; while the bots think the
  board says so, and a key pressed meanwhile is kept as the next move (the newest
  key wins), sent once they answer.
  With several bots (``play(["hugger", "filler", "random"], rules="codingame")``
  builds a four-player board) the game goes on after the person is out, one
  turn per tick at the widget's speed, and a finished game can be replayed.
  ``widget.turn``, ``widget.game_over`` and ``widget.outcome`` can be read from
  the kernel at any time;
* ``BoardWidget.replay(record)`` sends every frame of a recorded game once and
  animates it in the browser when play is pressed, with a slider and a speed
  choice; the result is shown when the last turn is reached.

``widget.set_overlay(name, array)`` lays analysis results on the board
(territory owner map, distances, articulation mask, chamber ids, or any
heatmap); a checkbox per overlay shows or hides it.

Every widget also leaves a PNG of its board (a replay: the final board) with the overlays
shown at the time in the notebook's output, so a saved notebook shows a picture where no
widget can run.
The wire format is in :mod:`tronlab.widget_wire`, the game driver in
:mod:`tronlab.widget_game`, the picture and status lines in :mod:`tronlab.widget_views`,
and the JavaScript is ``tronlab/static/board.js``, shipped inside the package:
nothing is fetched from the network.
"""

from __future__ import annotations

import pathlib
from time import monotonic as _clock

import anywidget
import traitlets

from .render import FREE_COLOR, PLAYER_COLORS, TRAIL_COLORS, WALL_COLOR
from .tron.board import Board, parse_move
from .tron.values import check_flag, check_number, check_whole
from .widget_game import TIME_LIMIT, Game, game_setup, seed_or_rng, widget_clock
from .widget_views import board_png, color_name, play_status, replay_status, with_picture
from .widget_wire import (KINDS, OVERLAY_KINDS, decode_board, decode_frames, encode_board,
                          encode_frames, overlay_payload)

_STATIC = pathlib.Path(__file__).parent / "static"
_KEEP = object()    # new_game's "keep the previous value" for arguments where None means something

__all__ = ["BoardWidget", "encode_board", "decode_board", "encode_frames", "decode_frames",
           "OVERLAY_KINDS"]


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
    result = traitlets.Unicode("").tag(sync=True)        # a replay's result, shown at its end
    watching = traitlets.Bool(False).tag(sync=True)      # the person is out, the bots play on
    thinking = traitlets.Bool(False).tag(sync=True)      # the bots are choosing their moves
    can_restart = traitlets.Bool(False).tag(sync=True)   # a New game button makes sense

    def __init__(self, board: Board | None = None, *, cell_px: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.palette = {"players": list(PLAYER_COLORS), "trails": list(TRAIL_COLORS),
                        "wall": WALL_COLOR, "free": FREE_COLOR}
        self._game: Game | None = None
        self._boards: list[Board] | None = None
        self._board: Board | None = None
        self.record = None
        self._last_tick = float("-inf")
        self.on_msg(self._on_browser_msg)
        if board is not None:
            self.show(board, cell_px=cell_px)

    # ---- showing ------------------------------------------------------------------------------
    def _set_size(self, board: Board, cell_px):
        if cell_px is None:
            cell_px = max(8, min(28, 540 // max(board.width, board.height)))
        cell_px = check_whole(cell_px, "cell_px", 4, 64, "pixels")
        self.width, self.height, self.cell_px = board.width, board.height, cell_px

    def show(self, board: Board, *, cell_px: int | None = None) -> "BoardWidget":
        """Show a still board (clears the game or replay)."""
        if not isinstance(board, Board):
            raise TypeError(f"show needs a tronlab Board, got {type(board).__name__}")
        self.close_game()
        self._game, self._boards, self._board = None, None, board.copy()
        self._set_size(board, cell_px)
        self.overlays, self.hidden_overlays = {}, []
        self.frame = encode_board(board)
        self.mode, self.turn, self.game_over, self.status = "view", 0, False, ""
        self.frames, self.result, self.watching, self.can_restart = {}, "", False, False
        self.names = [""] * board.n_players
        return self

    @traitlets.validate("turn")
    def _clamp_turn(self, proposal):
        """A replay's turn within its frames, as the page shows it: w.turn = -1 had made
        w.board the last board (a list index) while the page showed the first."""
        last = len(self._boards) - 1 if getattr(self, "_boards", None) else None
        return proposal["value"] if last is None else max(0, min(proposal["value"], last))

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
             cell_px: int | None = None, rng=None, time_limit: float | None = TIME_LIMIT,
             first_time_limit: float | None = None) -> "BoardWidget":
        """A game against ``bot`` (a registered name or a callable); you are player 1 (index 0).

        ``bot`` may be a list, one per opponent, for boards with more players
        (codingame); ``seed`` (a non-negative int or a numpy Generator) drives the bots and any
        random start board.  ``rng`` is the same argument under the name :func:`tronlab.play`,
        ``play_capture`` and the capture widget give it (give ``seed`` or ``rng``, not both).
        The bots keep a clock (:mod:`tronlab.widget_game`): ``time_limit`` seconds a move (5),
        ``first_time_limit`` for ``start_game`` and the first move (at least a minute);
        ``time_limit=None`` asks them in the kernel's thread without one.
        """
        w = cls()
        seed = seed_or_rng(seed, rng, default=0)
        w.new_game(bot=bot, rules=rules, board=board, seed=seed, cell_px=cell_px,
                   time_limit=time_limit, first_time_limit=first_time_limit)
        return w

    def new_game(self, *, bot=None, rules=None, board: Board | None = None, seed=None,
                 cell_px: int | None = None, rng=None, time_limit=_KEEP,
                 first_time_limit=_KEEP) -> "BoardWidget":
        """Start (or restart) a game; unspecified options keep their previous values
        (``rng``: ``seed``'s other name, as in :meth:`play`)."""
        prev = getattr(self, "_setup", {})
        clock = prev.get("clock", (TIME_LIMIT, None))
        clock = (clock[0] if time_limit is _KEEP else time_limit,
                 clock[1] if first_time_limit is _KEEP else first_time_limit)
        limits = widget_clock(*clock)
        bot, rules, rng, board, bots, fixed = game_setup(
            prev, bot, rules, board, seed_or_rng(seed, rng, default=None))
        game = Game(board, bots, rules, rng, limits)     # a bad bot leaves the old game be
        self._setup = {"bot": bot, "rules": rules.name, "rules_obj": rules, "rng": rng,
                       "board": fixed, "clock": clock}
        self.close_game()
        self._game = game
        self._boards, self._board, self.record = None, None, None
        self.frames, self.result, self.watching, self.thinking = {}, "", False, False
        self.can_restart = True
        self._set_size(board, cell_px if cell_px is not None else (self.cell_px or None))
        self.names = list(self._game.names)
        self.overlays, self.hidden_overlays = {}, []
        self.mode, self.turn, self.game_over, self.playing = "play", 0, False, False
        self.frame = encode_board(self._game.board)
        self.status = (f"{rules.name}: you drive the {color_name(0)} cycle 1. Click the board, "
                       f"then use the arrow keys or WASD.")
        return self

    def close_game(self) -> None:
        """End the running game's bot threads (a new game, a replay, show and close do)."""
        if getattr(self, "_game", None) is not None:
            self._game.close()

    def close(self) -> None:
        self.close_game()
        super().close()

    @property
    def outcome(self):
        """The game's :class:`tronlab.tron.rules.Outcome` once it is over (else None); in a
        replay (the Replay button's too), the recorded game's."""
        if self._game is None:
            return getattr(self.record, "outcome", None) if self.mode == "replay" else None
        return self._game.outcome() if self.game_over else None

    @property
    def moves(self) -> list:
        """Moves made so far in the game, one list per turn (one entry per player); in a
        replay (the Replay button's too: it had emptied them), the recorded game's."""
        if self._game is None:
            return [list(m) for m in getattr(self.record, "moves", None) or []]
        return [list(m) for m in self._game.moves]

    def move(self, move) -> dict:
        """Make the person's move (0-3 or a name like 'up'), as a key press would.

        Returns the deaths of this turn ``{player: reason}``; raises ValueError
        when no game is running, it is over, or the person is out (then the bots
        play on: :meth:`advance` plays one turn, :meth:`finish` the rest).
        """
        if self._game is None:
            raise ValueError("no game: start one with BoardWidget.play(...)")
        if self.game_over:
            raise ValueError("the game is over: start a new one with new_game()")
        if self.watching:
            raise ValueError("you are out and the bots play on: advance() plays one turn, "
                             "finish() the rest")
        return self._after_turn(self._game.step(parse_move(move)))

    def advance(self) -> dict:
        """One turn of the bots after the person is out (what the widget's clock does)."""
        if self._game is None or self.game_over or not self.watching:
            raise ValueError("advance() plays on only after you are out of a running game")
        return self._after_turn(self._game.step(None))

    def finish(self) -> "BoardWidget":
        """Play the bots' remaining turns at once (after the person is out)."""
        while self.watching and not self.game_over:
            self.advance()
        return self

    def _after_turn(self, deaths) -> dict:
        g = self._game
        self.frame = encode_board(g.board)
        self.turn = g.turn
        self.status = play_status(g, deaths)
        if g.over:
            self.watching = False
            self.game_over = True
            self._make_record()
        else:
            self.watching = not g.board.alive[0]
        return deaths

    def _make_record(self):
        """Keep the finished game as a :class:`tronlab.runner.records.GameRecord` in
        ``widget.record``."""
        self.record = self._game.record()

    def _tick_due(self) -> bool:
        """Whether a browser tick may play a turn.  Every view of the widget runs a clock
        (board.js), so two views would send twice the ticks: a tick arriving sooner than 0.8
        of the widget's period (1/fps, fps clamped to 2-30 as the page does) after the last
        played one is ignored, so the game's speed does not depend on the number of views."""
        now = _clock()
        if now - self._last_tick < 0.8 / min(30.0, max(2.0, self.fps)):
            return False
        self._last_tick = now
        return True

    def _on_browser_msg(self, _widget, content, _buffers):
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        self.thinking = True
        try:
            if kind == "move" and self._game is not None and not self.game_over:
                self.move(content.get("move"))      # checked: int() made 1.5 a 1
            elif kind == "tick" and self.watching and self._tick_due():
                self.advance()
            elif kind == "new" and getattr(self, "_setup", None):
                self.new_game()
            elif kind == "replay" and self.record is not None and self._game is not None:
                # the board keeps its size (a game of play(cell_px=10) grew to 28 px)
                self.load_replay(self.record, fps=max(self.fps, 8.0), autoplay=True,
                                 cell_px=self.cell_px)
                self.can_restart = True
        except (TypeError, ValueError) as err:
            self.status = f"Ignored input: {err}"
        finally:
            self.thinking = False

    # ---- replaying ----------------------------------------------------------------------------
    @classmethod
    def replay(cls, record, *, fps: float = 8.0, autoplay: bool = False,
               cell_px: int | None = None) -> "BoardWidget":
        """Animate a recorded game (a GameRecord, or a list of Boards) in the browser.

        Every frame is sent once; play/pause, the slider and the speed menu run
        in the browser.  ``fps`` is frames per second (the menu shows the nearest
        of 1-32).  The replay waits at turn 0 for a press of play unless ``autoplay``;
        its result appears at the last turn.  ``widget.turn`` follows the frame shown.
        """
        w = cls()
        w.load_replay(record, fps=fps, autoplay=autoplay, cell_px=cell_px)
        return w

    def load_replay(self, record, *, fps: float = 8.0, autoplay: bool = False,
                    cell_px: int | None = None) -> "BoardWidget":
        fps = check_number(fps, "fps", 0.1, "frames per second", high=120)
        autoplay = check_flag(autoplay, "autoplay")     # 'no' played: bool('no') is True
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
        self.close_game()
        self._game, self._board, self._boards = None, None, [b.copy() for b in boards]
        self.record = record if hasattr(record, "boards") else None
        self._set_size(b0, cell_px)
        if len(names) != b0.n_players:
            names = [""] * b0.n_players
        self.names = [str(n) for n in names]
        self.overlays, self.hidden_overlays = {}, []
        self.mode, self.turn = "replay", 0
        self.game_over = self.outcome is not None       # a recorded game is a finished one
        self.fps = float(fps)
        self.frame = payload["start"]
        self.frames = payload
        self.status, self.result = replay_status(record, len(boards) - 1)
        self.watching, self.thinking, self.can_restart = False, False, False
        self.playing = autoplay
        return self

    # ---- the saved notebook's picture ----------------------------------------------------------
    def picture_board(self) -> Board:
        """The board of the static picture: a replay's final board, else the one on show."""
        if self._boards is not None:
            return self._boards[-1]
        return self.board

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        try:
            board = self.picture_board()
        except ValueError:                  # nothing on show yet
            return bundle
        px = max(4, min(16, self.cell_px or 12))
        shown = {k: v for k, v in self.overlays.items() if k not in self.hidden_overlays}
        return with_picture(bundle, board_png(board, px, shown),
                            f"BoardWidget ({self.mode}): a {board.width}x{board.height} board, "
                            f"{board.n_players} players"
                            + (f"; {self.result}" if self.result else ""))

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
        payload = overlay_payload(self.board, name, array, kind)
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
            shown = sorted(self.overlays) or "none"
            raise ValueError(f"no overlay called {name!r}; shown: {shown}")
        self.overlays = {k: v for k, v in self.overlays.items() if k != name}
        self.hidden_overlays = [h for h in self.hidden_overlays if h != name]
        return self

