"""One checker per exercise (X4): call ``check_<function>(your_function)`` in a notebook.

Notebook 01, space filling
    ``check_greedy_move``: ``greedy_move(board, player) -> move`` (A1);
    ``check_fill_bound``: ``fill_bound(board, player) -> int`` (A10);
    ``check_articulation_points``: ``articulation_points(board) -> set of (x, y)`` (A11).
Notebook 02, flood fill
    ``check_flood_fill``: ``flood_fill(board, player) -> int`` (A3);
    ``check_components``: ``components(board) -> labels`` (A3).
Notebook 03, Voronoi
    ``check_bfs_distances``: ``bfs_distances(board, player) -> dist`` (A4);
    ``check_territory``: ``territory(board) -> (n0, n1)`` (A4);
    ``check_turn_order_territory``: ``turn_order_territory(board, first) -> counts`` (K1).
Notebook 04, search
    ``check_negamax``: ``negamax(game, depth, alpha, beta) -> (value, move)`` (A5).
Notebook 06, learning the evaluation
    ``check_separation_sample``: ``separation_sample(record) -> (dn, de, m0, m1) | None`` (A9);
    ``check_fit_weights``: ``fit_weights(records) -> (k1, k2)`` (A9).
Notebook 09, simultaneous moves
    ``check_solve_game``: ``solve_game(payoff) -> (value, row_strategy)`` (L1).
Notebook 10, the capture game
    ``check_nearest_target``: ``nearest_target(view, player) -> (x, y)`` (B2).
Notebook 11, rectangles
    ``check_score_rectangle``: ``score_rectangle(view, player, rect) -> float`` (B3).

The expected answers come from the package's plain-Python twins (:mod:`tronlab.grid.reference`;
the tests check that the numba kernels agree on every board used) and, for A1 and A5, from
the small oracles in the exercise modules.  Hints come from recomputing the answer with a
typical mistake (:mod:`tronlab.course.variants`) and seeing whether it matches.  Every
checker returns a :class:`~tronlab.course.checker.CheckResult`; ``time_limit`` (seconds per
call) overrides the exercise's default.  Every check remembers its latest result for
:func:`tronlab.course.progress.progress`; :func:`tronlab.course.hints.hint` gives hints on
request.
"""

from __future__ import annotations

from .checker import run_check
from .ex_articulation import ArticulationPoints, check_articulation_points
from .ex_capture import NearestTarget, check_nearest_target
from .ex_flood_fill import Components, FloodFill
from .ex_nash import SolveGame, check_solve_game
from .ex_learning import FitWeights, SeparationSample, check_fit_weights, check_separation_sample
from .ex_rects import ScoreRectangle, check_score_rectangle
from .ex_search import Negamax
from .ex_space_filling import FillBound, GreedyMove
from .ex_voronoi import BfsDistances, Territory, TurnOrderTerritory
from .progress import recorded

__all__ = ["check_greedy_move", "check_fill_bound", "check_flood_fill", "check_components",
           "check_bfs_distances", "check_territory", "check_turn_order_territory", "check_negamax",
           "check_articulation_points", "check_separation_sample", "check_fit_weights",
           "check_score_rectangle", "check_nearest_target", "check_solve_game", "EXERCISES"]

#: exercise classes by the name of the function the learner writes
EXERCISES = {cls.function: cls for cls in (GreedyMove, FillBound, FloodFill, Components,
                                           BfsDistances, Territory, TurnOrderTerritory, Negamax,
                                           ArticulationPoints, SeparationSample, FitWeights,
                                           SolveGame, NearestTarget, ScoreRectangle)}


@recorded
def check_flood_fill(flood_fill, *, time_limit=None):
    """Check ``flood_fill(board, player) -> int``: free squares the head can reach."""
    return run_check(FloodFill(), flood_fill, time_limit=time_limit)


@recorded
def check_components(components, *, time_limit=None):
    """Check ``components(board) -> labels`` (any numbering of the regions is fine)."""
    return run_check(Components(), components, time_limit=time_limit)


@recorded
def check_bfs_distances(bfs_distances, *, time_limit=None):
    """Check ``bfs_distances(board, player) -> array`` of moves from the head (-1 unreachable)."""
    return run_check(BfsDistances(), bfs_distances, time_limit=time_limit)


@recorded
def check_territory(territory, *, time_limit=None):
    """Check ``territory(board) -> (n0, n1)``: Voronoi counts, ties neutral, heads excluded."""
    return run_check(Territory(), territory, time_limit=time_limit)


@recorded
def check_turn_order_territory(turn_order_territory, *, time_limit=None):
    """Check ``turn_order_territory(board, first) -> [count per player]`` (K1)."""
    return run_check(TurnOrderTerritory(), turn_order_territory, time_limit=time_limit)


@recorded
def check_fill_bound(fill_bound, *, time_limit=None):
    """Check ``fill_bound(board, player) -> int``, the checkerboard parity bound (A10)."""
    return run_check(FillBound(), fill_bound, time_limit=time_limit)


@recorded
def check_greedy_move(greedy_move, *, time_limit=None):
    """Check ``greedy_move(board, player) -> move`` (A1); any of several equally good moves
    passes."""
    return run_check(GreedyMove(), greedy_move, time_limit=time_limit)


@recorded
def check_negamax(negamax, *, time_limit=None):
    """Check ``negamax(game, depth, alpha, beta) -> (value, move)`` on a :class:`TurnGame` (A5)."""
    return run_check(Negamax(), negamax, time_limit=time_limit)
