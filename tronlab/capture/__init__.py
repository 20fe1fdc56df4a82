"""Back to the Code (CodinGame 2015): the territory-capture game (techniques B1, B2).

Players move one square a round toward a target of their choice, take the
neutral squares they stand on alone, take neutral regions they enclose, and
may once rewind the whole game with ``BACK n``.  The pieces:

* :mod:`~tronlab.capture.state` - the immutable game state and its config;
* :mod:`~tronlab.capture.starts` - point-symmetric and random starts;
* :mod:`~tronlab.capture.enclosure` - the 8-connected region kernels;
* :mod:`~tronlab.capture.rules` - :func:`reset` and :func:`step`;
* :mod:`~tronlab.capture.ascii` - grids as ASCII strings;
* :mod:`~tronlab.capture.protocol` - the contest program's input and output;
* :mod:`~tronlab.capture.bots` - the random and nearest-neutral bots;
* :mod:`~tronlab.capture.game` - the game loop and its JSON records;
* :mod:`~tronlab.capture.arena` - one bot against copies of another;
* :mod:`~tronlab.capture.program` - a built-in bot as a contest program;
* :mod:`~tronlab.capture.external` - an outside contest program as a player;
* :mod:`~tronlab.capture.cli` - ``tronlab match --rules backtothecode`` and
  ``tronlab bot NAME --protocol backtothecode``;
* :mod:`~tronlab.capture.render` - matplotlib pictures of grids;
* :mod:`~tronlab.capture.widget` - the board to play or replay in a notebook (X1).

Importing this package does not import numba; the enclosure kernel compiles
at the first round that needs it.
"""

from .ascii import format_grid, parse_grid, state_from_ascii
from .bots import NearestBot, RandomBot, nearest_target
from .game import CaptureRecord, play_capture
from .render import draw_grid, draw_state   # as tronlab has draw_board; matplotlib loads on use
from .rules import Event, Outcome, StepResult, reset, step
from .state import FAULTS, NEUTRAL, ROUND_LIMITS, Config, State, View

__all__ = ["CaptureRecord", "Config", "Event", "FAULTS", "NEUTRAL", "NearestBot", "Outcome",
           "ROUND_LIMITS", "RandomBot", "State", "StepResult", "View", "draw_grid", "draw_state",
           "format_grid", "nearest_target", "parse_grid", "play_capture", "reset",
           "state_from_ascii", "step"]
