"""Where a finished two-player game was decided: before the separation, by the
split at the separation, or in the endgame fill.

Once the players are separated (:func:`tronlab.tron.learn.separation_turn`) each
can still make at most its longest fill, which the endgame solver (A8) finds
given time.  Under the simultaneous rules (google2010, lightriders) the longer
fill wins and equal fills draw (both crash on the same turn).  So a finished game
falls in one of three kinds:

* ``"crash"``: it ended before the players were separated (a head-on crash, a
  player trapped);
* ``"split"``: the result is the one the solved fills give: the regions each
  player got at the separation decided it, that is the play before it;
* ``"fill"``: the result differs from the solved fills: a player fell short of
  its fill and the endgame changed the result (or, when a fill is not proved
  exact, the solve missed a longer one).

>>> from tronlab import Board
>>> from tronlab.runner.engine import play
>>> from tronlab.runner.registry import get_bot
>>> b = Board.from_ascii('''
...     1...#.....
...     ....#....2
... ''')
>>> record = play(b, [get_bot("filler"), get_bot("filler")], rng=0)
>>> where_decided(record, time=1.0)
Decided(kind='split', turn=0, fills=(7, 9), exact=(True, True), made=(7, 9))
"""

from __future__ import annotations

from typing import NamedTuple

from ..runner.records import GameRecord
from .endgame import Endgame
from .learn import moves_after, separation_turn
from .values import is_real


#: the rules under which the longer fill wins and equal fills draw
SIMULTANEOUS = ("google2010", "lightriders")


class Decided(NamedTuple):
    kind: str                 # "crash", "split" or "fill" (module doc)
    turn: int | None          # index of the separation board (None: "crash")
    fills: tuple | None       # each player's longest fill there, solved
    exact: tuple | None       # whether each fill is proved longest
    made: tuple | None        # the moves each player made from there (moves_after)


def solved_result(fills) -> int | None:
    """The winner the fills give (the longer fill), None for equal fills."""
    a, b = fills
    return None if a == b else (0 if a > b else 1)


def where_decided(record, *, time: float = 1.0, boards=None) -> Decided:
    """Classify the finished 2-player google2010 or lightriders game ``record``
    (module doc); each player's fill is solved with ``time`` seconds."""
    if not isinstance(record, GameRecord):
        raise TypeError(f"where_decided needs a finished game's GameRecord (from play), "
                        f"got {type(record).__name__}")
    if record.rules not in SIMULTANEOUS:
        raise ValueError(f"where_decided reads games of {' or '.join(SIMULTANEOUS)} rules "
                         f"(two players moving together), got {record.rules!r}")
    if not is_real(time) or not time > 0:
        raise ValueError(f"time must be a positive number of seconds, got {time!r}")
    boards = boards if boards is not None else record.boards()
    turn = separation_turn(boards)
    if turn is None:
        return Decided("crash", None, None, None, None)
    solver, fills, exact = Endgame(), [], []
    for p in (0, 1):
        fills.append(solver.solve(boards[turn], p, time=time)[0])
        exact.append(solver.last_stats["exact"])
    made = moves_after(record, turn, boards)
    kind = "split" if solved_result(fills) == record.outcome.winner else "fill"
    return Decided(kind, turn, tuple(fills), tuple(exact), tuple(made))
