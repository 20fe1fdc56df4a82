"""The ``paths`` bot: Olaf69's path search with his opponent model (B6, B7).

Each turn the bot

1. moves the opponents by the model of :mod:`tronlab.capture.opponent` for
   ``max_steps`` rounds (after a ``BACK``, the positions they had in the
   thrown-away future count too: the earlier of the two arrivals);
2. after a rewind, heads first for an area an opponent closed in the
   thrown-away future if it can get there in time
   (:func:`~tronlab.capture.back.spoil_target`);
3. stands still when that closes an area now (its square is next to one it
   stood on two or more rounds ago and a closed region touches it: the search
   itself never stays);
4. runs :func:`~tronlab.capture.paths.search_paths` and walks the first
   straight stretch of the best path;
5. when no path scores above 1 (none closes an area), goes for the nearest
   neutral square (:func:`~tronlab.capture.bots.nearest_target`, B2).

``stats`` keeps ``(nodes, seconds)`` of every search, for the node counts
per turn reported in benchmarks/capture_paths.py.

Options tried against ``rectangles`` in 2-player games, each switchable; the
defaults are the write-up's bot except ``constant`` (tuned on maps 1000-1025,
table in benchmarks/capture_paths_options.py):

* ``constant`` - the 20 of ``(extra + 20) / (steps + 20)``, 40 by default: a
  larger one prefers bigger loops.  40 gained 18 +- 8 squares a game over 20
  on the same maps and seats (51 games); 10 lost 60 +- 38;
* ``keep`` - a bonus factor for what is left of the last turn's path
  (:func:`plan_left`), so that the bot finishes a loop instead of trading it
  for a slightly bigger one each turn (Recar's stability bonus, borrowed);
  it lost about 50 squares a game at 1.1 and at 1.5;
* ``wary`` - an opponent may stand on any square ``wary`` times its distance
  from now (:func:`reach_arrival`): only loops the opponent cannot cut
  count.  At 1.0 the loops are small and it lost all 10 games;
* ``rival`` - the opponent also walks its best rectangle
  (:func:`~tronlab.capture.rival.rectangle_arrival`);
* ``interfere`` / ``spoil`` - head for the border of an opponent's better
  (``interfere``, Recar's rule) or big (``spoil`` squares or more) rectangle;
* ``enough`` - the enough-to-win cap in the score
  (:func:`~tronlab.capture.paths.path_score`).

``interfere`` changed the margin by less than its error; ``spoil`` was
worse, and on 50 games so were ``rival`` (-21 +- 11 squares a game) and
``enough`` (-10 +- 5).  Caution loses to ``rectangles``; ambition wins a
little.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit.clock import NO_DEADLINE, deadline_after
from ..tron.values import check_flag
from .back import check_back, spoil_target
from .bots import nearest_target
from .checks import check_choice, check_number, check_search, check_whole
from .lshapes import closed_gain
from .memory import Memory
from .warmup import Warmup
from .opponent import NEVER, ORDERS, last_turn, predict
from .paths import new_scratch, path_score, search_paths
from .rects_bot import interference, scan_inputs, turn_start
from .rival import rectangle_arrival, rival_border
from .state import MAX_SIDE


class Plan(NamedTuple):
    """The path search's plan as :func:`~tronlab.capture.rects_bot.interference` reads it."""
    score: float
    turns: int
    points: int


def opponents_of(memory, view, player) -> tuple:
    """``(ids, [(position, heading, last_turn), ...])`` of the active opponents."""
    ids, out = [], []
    for q in range(view.n_players):
        if q == player or view.eliminated[q] or view.positions[q] is None:
            continue
        ids.append(q)
        out.append((view.positions[q], memory.heading(q), last_turn(memory.trail(q)[-12:])))
    return ids, out


def future_arrival(memory, view, ids) -> np.ndarray:
    """Rounds from now at which the opponents stood on each square in the
    thrown-away future (NEVER when they did not)."""
    h, w = view.owner.shape
    out = np.full((h, w), NEVER, np.int64)
    for q in ids:
        for k, pos in memory.future_positions(q).items():
            t = k - memory.last_round
            if t > 0 and out[pos[1], pos[0]] > t:
                out[pos[1], pos[0]] = t
    return out


def reach_arrival(shape, opponents, wary: float) -> np.ndarray:
    """Rounds from now by which an opponent heading straight for a square could
    stand on it, slowed by the factor ``wary``: ``ceil(wary * distance)``
    (Manhattan distance from the nearest opponent; NEVER without one).

    >>> reach_arrival((1, 5), [((1, 0), (1, 0), 0)], 1.5).tolist()
    [[2, 0, 2, 3, 5]]
    """
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w]
    out = np.full(shape, NEVER, np.int64)
    for pos, _, _ in opponents:
        if pos is not None:
            d = np.abs(xs - pos[0]) + np.abs(ys - pos[1])
            out = np.minimum(out, np.ceil(np.minimum(wary * d, NEVER)).astype(np.int64))
    return out


def plan_left(owner, player, position, plan, arrival, constant=20.0, needed=NEVER):
    """``(score, squares)`` of what is left of ``plan`` (a path found on an
    earlier turn) from ``position``, or None when ``position`` is not on it,
    a square left is neither neutral nor the player's, the model now has an
    opponent first on a neutral one, or its last square closes nothing any
    more (squares the model's opponents hold by then counted as theirs).
    Scored like :func:`~tronlab.capture.paths.path_score`."""
    if position not in plan:
        return None
    rest = plan[plan.index(position) + 1:]
    if not rest:
        return None
    virtual = np.array(owner, np.int8, copy=True)
    new = 0
    for t, (x, y) in enumerate(rest, 1):
        if owner[y, x] == -1 and arrival[y, x] > t:
            new += 1
        elif owner[y, x] != player:
            return None
        virtual[y, x] = player
    other = 1 if player == 0 else 0
    virtual[(arrival <= len(rest)) & (virtual == -1)] = other
    taken = closed_gain(virtual, player, *rest[-1])
    if taken == 0:
        return None
    return path_score.py_func(new + taken, len(rest), constant, needed), rest


def first_stretch(position, path) -> tuple:
    """The last square of the straight start of ``path``."""
    target = path[0]
    dx, dy = target[0] - position[0], target[1] - position[1]
    for a, b in zip(path, path[1:]):
        if (b[0] - a[0], b[1] - a[1]) != (dx, dy):
            break
        target = b
    return target


def stay_closes(owner, player, position, trail) -> bool:
    """Whether standing still this round closes an area."""
    x, y = position
    old = set(trail)        # the rules' "two or more rounds ago": all but the current square
    if not any((x + dx, y + dy) in old for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
        return False
    return closed_gain(owner, player, x, y) > 0


class PathBot:
    """Olaf69's search (see the module docstring).  Each option is checked here: a
    TypeError for a wrong type, a ValueError for a wrong value."""

    def __init__(self, *, max_nodes: int = 30000, steps=(3, 2, 1), max_steps: int = 60,
                 order: str = "writeup", back=None, model: bool = True, wary: float = 0.0,
                 interfere: bool = False, constant: float = 40.0, keep: float = 0.0,
                 enough: bool = False, spoil: int = 0, rival: bool = False):
        self.max_nodes, self.steps, self.max_steps, self.constant, _ = check_search(
            max_nodes, steps, max_steps, constant)
        self.order, self.back = check_choice(order, "order", tuple(ORDERS)), check_back(back)
        self.model, self.rival = check_flag(model, "model"), check_flag(rival, "rival")
        self.interfere = check_flag(interfere, "interfere")
        self.enough = check_flag(enough, "enough")
        self.wary = check_number(wary, "wary", 0.0, "0: off")
        self.keep = check_number(keep, "keep", 0.0, "0: off")
        self.spoil = check_whole(spoil, "spoil", 0, MAX_SIDE * MAX_SIDE, "squares; 0: off")
        self.plan = []                  # the squares of the path being walked
        self.memory = Memory()
        self.scratch = None
        self.stats = []
        self.last = None                # the last search's PathResult
        self.plan_squares, self.plan_since = None, 0
        self.warmup = None
        self.time_budget = None         # seconds a search may take; None: max_nodes always
        self.rate = None                # nodes per second seen so far
        self.deadline = NO_DEADLINE     # this turn's: ``time_budget`` after the bot was asked

    def prepare_for_protocol(self, budget: float = 0.05):
        """As a contest program: load the kernels in the background (answering with
        the nearest-neutral rule meanwhile, :mod:`tronlab.capture.warmup`), size each
        search to about ``budget`` seconds of wall clock, and stop it when ``budget``
        seconds have passed since the bot was asked (the kernel reads the clock)."""
        self.warmup = Warmup()
        self.time_budget = budget

    def nodes_now(self) -> int:
        """The node budget of this turn: ``max_nodes``, or with a time budget what
        the speed seen so far allows in it (at least 1,000)."""
        if self.time_budget is None or self.rate is None:
            return self.max_nodes if self.time_budget is None else min(self.max_nodes, 5000)
        return int(min(self.max_nodes, max(1000, self.rate * self.time_budget)))

    def __call__(self, view, player):
        self.deadline = (NO_DEADLINE if self.time_budget is None
                         else deadline_after(self.time_budget))
        early = turn_start(self, view, player)
        return self.choose(view, player) if early is None else early

    def arrival(self, view, player) -> np.ndarray:
        """Round (from now) from which an opponent holds each neutral square."""
        ids, opps = opponents_of(self.memory, view, player)
        h, w = view.owner.shape
        arrival = np.full((h, w), NEVER, np.int64)
        if self.model and opps:
            arrival = predict(view.owner, opps, rounds=self.max_steps, order=self.order).arrival
        if self.rival and opps:
            arrival = np.minimum(arrival, rectangle_arrival(view, player, self.max_steps))
        if self.memory.future:
            arrival = np.minimum(arrival, future_arrival(self.memory, view, ids))
        if self.wary > 0 and opps:
            arrival = np.minimum(arrival, reach_arrival(view.owner.shape, opps, self.wary))
        return arrival

    def needed(self, view, player) -> int:
        """With ``enough``: the squares that make the win sure (the cap of
        :func:`~tronlab.capture.paths.path_score`); else no cap."""
        return scan_inputs(view, player)[1] if self.enough else NEVER

    def choose(self, view, player):
        owner, me = view.owner, tuple(view.positions[player])
        h, w = owner.shape
        if self.memory.future:
            spoil = spoil_target(self.memory, view, player)
            if spoil is not None:
                return spoil
        trail = self.memory.trail(player)[:-1]
        if stay_closes(owner, player, me, trail):
            return me
        if self.scratch is None:
            self.scratch = new_scratch(w, h, self.max_nodes)
        arrival = self.arrival(view, player)
        needed = self.needed(view, player)
        result = search_paths(owner, player, me, trail=trail, arrival=arrival,
                              steps=self.steps, max_nodes=self.nodes_now(),
                              max_steps=self.max_steps, deadline=self.deadline,
                              constant=self.constant, needed=needed,
                              scratch=self.scratch)
        self.last = result
        self.stats.append((result.nodes, result.seconds))
        if result.nodes >= 1000 and result.seconds > 0:
            seen = result.nodes / result.seconds
            self.rate = seen if self.rate is None else min(seen, 0.5 * (self.rate + seen))
        if self.interfere and view.n_players == 2:
            mine = Plan(max(result.score, 0.0), len(result.path), result.extra)
            spoil = interference(view, player, mine)
            if spoil is not None:
                return spoil
        if self.spoil > 0:
            target = rival_border(view, player, self.spoil)
            if target is not None:
                return target
        path, score = result.path, result.score
        if self.keep > 0:
            old = plan_left(owner, player, me, self.plan, arrival, self.constant, needed)
            if old is not None and old[0] * self.keep >= score:
                score, path = old
        if score <= 1.0 or not path:
            self.plan = []
            return nearest_target(view, player)
        self.plan = path
        self.plan_squares = set(path)
        return first_stretch(me, path)
