"""Play Back to the Code in the notebook, or watch a recorded game (technique X1).

    w = CaptureWidget(["nearest"])          # you are player 0 against one nearest bot
    w                                       # click a square: your target; one round is played
    w.click(10, 4); w.play(5); w.back(3)    # the same from Python
    w.move("up")                            # one square up, one round: the arrow key's move

The page shows the owners' colours, every player's position (a dark square
with its id), a legend (each player's colour, id and name: "you" or the bot's),
your target (a ring), and the squares an enclosure took in the
round shown (they flash for a moment, and stay outlined).  A click on a square
sets your target and plays one round toward it; *next* plays another round
toward the same target; *BACK* with its round picker (1..25) spends your one
BACK.  The slider replays any earlier round; play always continues from the
present.  The last round's line says why the game ended and who is first.
``CaptureWidget.replay(record)`` shows a finished game
(:class:`~tronlab.capture.game.CaptureRecord`) with the slider only.

The bots keep a clock, as in ``play_capture(time_limit=...)``: each bot's calls run
on its own worker thread (:class:`tronlab.runner.threadcall.Worker`), waited for
``time_limit`` seconds (5 by default; the first turn, which may compile numba's
kernels, three times that but at least a minute), so a bot stuck in a loop cannot
block a click for long.  A bot
that answers late, or not at all, is out of the game ("timeout") and the status line
names it; one still running is told to stop, which ends a loop in Python code at once
(:mod:`tronlab.runner.threadcall`).
``time_limit=None`` asks the bots in the kernel's own thread, without a clock.

Keys, as on the Tron board: click the board (an amber frame says it has the focus),
then the arrow keys or WASD move you one square that way, one round a key (that
square becomes your target; toward the edge you stand on, nothing is played and the
status says why).  In a replay the left and right arrows step a round.  JupyterLab
and Notebook 7 do not see keys typed in the widget (``data-lm-suppress-shortcuts``).

Python keeps the game (:attr:`state`, :attr:`record`); the page gets one frame
at a time (the ``shown`` trait), so a long game costs no more to show than a
short one.  The JavaScript is ``tronlab/static/capture.js``.
"""

from __future__ import annotations

import pathlib
import textwrap

import anywidget
import traitlets

from ..render import PLAYER_COLORS, TRAIL_COLORS
from ..widget_game import TIME_LIMIT, widget_clock
from ..widget_views import figure_png, with_picture
from .checks import check_square, check_whole
from .ascii import format_grid
from .bots import get_bot
from .actions import action_from_json, action_to_json
from .game import CaptureRecord, _ask, _checked_seconds, _log
from .render import just_captured
from .rules import reset, step
from .starts import as_rng
from .state import MAX_BACK
from ..runner.threadcall import Worker
from ..tron.board import MOVE_NAMES, parse_move

_STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"
#: (dx, dy) of the moves 0-3 (up, right, down, left): y grows downward, as the rows go
_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _clock(time_limit, first_time_limit):
    """``(first turn's limit, later turns' limit)`` in seconds, checked, or None (no clock):
    the Tron board's clock (:func:`tronlab.widget_game.widget_clock`)."""
    return widget_clock(time_limit, first_time_limit, _checked_seconds)


def _bot_name(bot) -> str:
    """A bot callable's name for the legend: its ``name``, function's or class's."""
    name = getattr(bot, "name", None) or getattr(bot, "__name__", None)
    return name if isinstance(name, str) else type(bot).__name__


def _check_opponents(opponents) -> list:
    """The opponents as a list: 1 to 3 bot names or callables ``bot(view, player)``."""
    if isinstance(opponents, str):
        raise TypeError(f"opponents is a list of bots, got the str {opponents!r}: "
                        f"write [{opponents!r}]")
    if not isinstance(opponents, (list, tuple)):
        raise TypeError(f"opponents is a list of bots (names or callables bot(view, player)), "
                        f"got {type(opponents).__name__}")
    if not 1 <= len(opponents) <= 3:
        raise ValueError(f"Back to the Code takes 2 to 4 players: give 1 to 3 opponents, "
                         f"got {len(opponents)}")
    for k, bot in enumerate(opponents):
        if not (isinstance(bot, str) or callable(bot)):
            raise TypeError(f"opponent {k} is a bot name (str) or a callable bot(view, "
                            f"player), got {type(bot).__name__} {bot!r}")
    return list(opponents)


#: why a game ended (tronlab.capture.rules: "Which ending"), as the page says it
ENDINGS = {"no-active-player": "no player is left in the game",
           "decided": "the ranking could no longer change",
           "round-limit": "the last round is played", "idle": "nobody moved for 25 rounds"}


def outcome_text(reason: str, ranks, names=()) -> str:
    """The sentence ending a game's last frame: why it ended and who is first."""
    def who(p):
        return f"player {p}" + (f" ({names[p]})" if p < len(names) and names[p] else "")

    first = [p for p, r in enumerate(ranks) if r == 1]
    won = (f"{who(first[0])} wins" if len(first) == 1
           else "first place shared by " + " and ".join(who(p) for p in first))
    return f"game over: {ENDINGS.get(reason, reason)}; {won}"


def frame_of(state, before=None, events=(), ending: str = "") -> dict:
    """What the page draws for one moment of a game (plain JSON); ``ending`` (the last
    frame's :func:`outcome_text`) closes its text."""
    flash = [] if before is None else just_captured(before.owner, state.owner, state.positions)
    scores = state.scores()
    text = f"round {state.round - 1} played, scores " + " ".join(
        f"{p}:{s}" for p, s in enumerate(scores))
    said = [f"player {e.player} {e.kind} {e.detail}" if e.player is not None else e.detail
            for e in events] + ([ending] if ending else [])
    return {"rows": format_grid(state.owner).split("\n"), "round": state.round,
            "positions": [None if p is None else list(p) for p in state.positions],
            "backs": list(state.backs_left), "eliminated": list(state.eliminated),
            "scores": list(scores), "flash": [list(sq) for sq in flash],
            "text": "; ".join([text] + said), "over": state.over}


class CaptureWidget(anywidget.AnyWidget):
    """See the module docstring.  ``opponents`` are bot names or callables
    ``bot(view, player)``; they take the seats other than ``you`` in order."""

    _esm = _STATIC / "capture.js"
    _css = _STATIC / "capture.css"

    width = traitlets.Int(35).tag(sync=True)
    height = traitlets.Int(20).tag(sync=True)
    n_players = traitlets.Int(2).tag(sync=True)
    you = traitlets.Int(0).tag(sync=True)          # -1: a replay, nobody to play
    n_frames = traitlets.Int(1).tag(sync=True)
    frame = traitlets.Int(0).tag(sync=True)
    shown = traitlets.Dict().tag(sync=True)
    target = traitlets.List(allow_none=True, default_value=None).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    colors = traitlets.Dict().tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)   # per seat; [] in a replay

    def __init__(self, opponents=("nearest",), *, you: int = 0, rng=None, width: int = 35,
                 height: int = 20, starts=None, symmetric: bool = True,
                 round_limit: int | None = None, record: CaptureRecord | None = None,
                 time_limit: float | None = TIME_LIMIT, first_time_limit: float | None = None,
                 **kwargs):
        super().__init__(**kwargs)
        self.on_msg(self._on_browser_msg)
        self._clock, self._workers = None, {}
        if record is not None:      # a replay (see :meth:`replay`)
            states = record.replay()
            frames = [frame_of(states[0])] + [frame_of(s, b) for b, s in zip(states, states[1:])]
            out = record.outcome
            if out and len(states) > 1:     # the last frame says why the game ended, who won
                frames[-1] = frame_of(states[-1], states[-2],
                                      ending=outcome_text(out["reason"], out["ranks"]))
            self._state, self._bots, self.record = states[-1], {}, record
            self._setup(record.width, record.height, record.n_players, -1, frames)
            return
        opponents = _check_opponents(opponents)
        n = len(opponents) + 1
        you = check_whole(you, "you", 0, n - 1, "your seat")
        self._clock = _clock(time_limit, first_time_limit)
        rng = as_rng(rng)
        self._state = reset(n, rng=rng, width=width, height=height, starts=starts,
                            symmetric=symmetric, round_limit=round_limit)
        self._bots = {}
        seats = [p for p in range(n) if p != you]
        for p, bot in zip(seats, opponents):
            self._bots[p] = get_bot(bot, rng.integers(2**63)) if isinstance(bot, str) else bot
        self.record = CaptureRecord(width, height, n, self._state.config.round_limit,
                                    [list(s) for s in self._state.positions])
        self._setup(width, height, n, you, [frame_of(self._state)])
        named = {p: bot if isinstance(bot, str) else _bot_name(bot)
                 for p, bot in zip(seats, opponents)}
        self.names = ["you" if p == you else named[p] for p in range(n)]

    def _setup(self, width, height, n, you, frames):
        self._frames = frames
        self.width, self.height, self.n_players, self.you = width, height, n, you
        self.colors = {"owners": list(TRAIL_COLORS), "players": list(PLAYER_COLORS)}
        self.observe(lambda change: self._show(change["new"]), names="frame")
        self._show(len(frames) - 1)

    @traitlets.validate("target")
    def _valid_target(self, proposal):
        """``w.target = (x, y)`` from a cell is checked as a click is: an off-grid target
        had been played, and the rules eliminate whoever aims off the grid."""
        t = proposal["value"]
        return None if t is None else list(check_square(t, (self.height, self.width), "target"))

    @classmethod
    def replay(cls, record: CaptureRecord) -> CaptureWidget:
        """A widget that shows a recorded game, round by round, with the slider."""
        return cls(record=record)

    @property
    def state(self):
        """The present state of the game (whatever round the slider shows)."""
        return self._state

    def _show(self, k: int) -> None:
        k = max(0, min(int(k), len(self._frames) - 1))
        self.n_frames = len(self._frames)
        if self.frame != k:
            self.frame = k      # calls _show again through the observer
            return
        if self.shown is not self._frames[k]:
            self.shown = self._frames[k]

    # ---- playing ------------------------------------------------------------------------------
    def click(self, x: int, y: int) -> None:
        """Aim at square ``(x, y)`` and play one round toward it."""
        x, y = check_square((x, y), (self.height, self.width), "target")
        self.target = [x, y]
        self.play(1)

    def play(self, rounds: int = 1) -> None:
        """Play ``rounds`` turns toward the current target (stay put without one)."""
        rounds = check_whole(rounds, "rounds", 0)
        for _ in range(rounds):
            me = self._state.positions[self.you] if self.you >= 0 else None
            aim = tuple(self.target) if self.target else me
            self._turn(aim)

    def move(self, direction) -> None:
        """Aim at the square next to you, up, right, down or left (0-3 or a name, as
        ``BoardWidget.move`` takes), and play one round: an arrow key's (or WASD's) move."""
        m = parse_move(direction)
        if self.you < 0:
            raise ValueError("this widget replays a recorded game: nobody plays in it")
        me = self._state.positions[self.you]
        if me is None:
            raise ValueError("you are out of the game: next round plays the bots on")
        x, y = me[0] + _STEPS[m][0], me[1] + _STEPS[m][1]
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"you are at ({me[0]}, {me[1]}) on the edge: {MOVE_NAMES[m]} "
                             f"leaves the grid")
        self.click(x, y)

    def back(self, n: int) -> None:
        """Use your BACK: this turn's action is ``BACK n`` (1..25)."""
        n = check_whole(n, "n", 1, MAX_BACK, "rounds to go back")
        if self.you >= 0 and self._state.backs_left[self.you] < 1:
            raise ValueError("you have used your BACK already (a second one would eliminate you)")
        self._turn(("BACK", int(n)))

    def _turn(self, mine) -> None:
        if self.you < 0:
            raise ValueError("this widget replays a recorded game: nobody plays in it")
        state = self._state
        if state.over:
            self.status = "the game is over"
            return
        view = state.view()
        actions, notes = [], len(self.record.notes)
        for p in range(state.n_players):
            if state.eliminated[p]:
                actions.append(None)
            elif p == self.you:
                actions.append(action_to_json(mine, state, p))
            else:       # as in play_capture: a bot that raises or hangs is out, not the page
                actions.append(_ask(self._bots[p], view, p, self.record, state, self._clock,
                                    self._worker(p)))
        result = step(state, [action_from_json(a) for a in actions])
        _log(self.record, state, actions, result)
        self._state = result.state
        out = result.outcome
        ending = "" if out is None else outcome_text(out.reason, out.ranks, self.names)
        self._frames.append(frame_of(result.state, state, result.events, ending))
        # the frame's text says how a game ended; the status what a failing bot did
        self.status = "; ".join(self._said(p, text, actions[p], state.turns == 0)
                                for _, p, text in self.record.notes[notes:])
        self._show(len(self._frames) - 1)

    def _worker(self, p):
        """Bot ``p``'s worker thread (started at its first call), or None without a clock."""
        if self._clock is None:
            return None
        if p not in self._workers:
            self._workers[p] = Worker(f"tronlab-capture-widget-{p}")
        return self._workers[p]

    def _said(self, p, text, action, first) -> str:
        """The status line's words for a note on bot ``p``: a timeout says so, and
        is out of the game."""
        who = f"player {p} ({self.names[p]})"
        if action != "timeout":
            return f"{who}: {text}"
        hint = (" (the first turn may also load numba's kernels: run `tronlab warmup` "
                "once, or give a larger first_time_limit)" if first else "")
        return f"{who} timed out and is out of the game: {text}{hint}"

    def close(self) -> None:
        """Close the widget and end its bots' worker threads (one still running a call
        that overran, in C code, is abandoned)."""
        for worker in getattr(self, "_workers", {}).values():
            worker.stop()
        self._workers = {}
        super().close()

    # ---- a picture for saved notebooks --------------------------------------------------------
    def picture_png(self) -> bytes:
        """The frame shown, as a PNG (what a saved notebook shows without a kernel)."""
        import matplotlib.pyplot as plt

        from .ascii import parse_grid
        from .render import draw_grid

        f = self.shown
        fig, ax = plt.subplots(figsize=(min(12, 0.3 * self.width + 1),
                                        min(8, 0.3 * self.height + 0.6)))
        draw_grid(parse_grid("\n".join(f["rows"])).owner,
                  [None if p is None else tuple(p) for p in f["positions"]],
                  ax=ax, flash=[tuple(sq) for sq in f["flash"]],
                  title="\n".join(textwrap.wrap(f["text"], 90, max_lines=3)))
        return figure_png(fig)

    def _repr_mimebundle_(self, **kwargs):
        return with_picture(super()._repr_mimebundle_(**kwargs), self.picture_png(),
                            f"CaptureWidget: {self.n_players} players, {self.shown['text']}")

    def _on_browser_msg(self, _widget, content, _buffers):
        kind = content.get("kind") if isinstance(content, dict) else None
        try:
            # the values as sent, checked: int() cut the picker's 2.5 to BACK 2
            if kind == "click":
                self.click(content["x"], content["y"])
            elif kind == "move":
                self.move(content["move"])
            elif kind == "next":
                self.play(1)
            elif kind == "back":
                self.back(content["n"])
        except (ValueError, KeyError, TypeError) as err:
            self.status = str(err)
