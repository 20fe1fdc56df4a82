"""Exercises with local checkers (technique X4).

In a notebook::

    from tronlab.course import check_flood_fill
    check_flood_fill(flood_fill)      # runs your function on many boards

Each ``check_*`` runs the learner's function on tiny hand-made boards and then on seeded
random ones, compares with the package's reference and reports the first failing board
as ASCII with the expected and the given answer and a hint.  See
:mod:`tronlab.course.exercises` for the list and :mod:`tronlab.course.checker` for the
machinery.  ``hint("territory")`` helps before a wrong answer, ``progress()`` shows which
exercise functions pass across all the exercise notebooks (the solution notebooks call
``solution_notebook()`` first, so their checks do not count), and ``show_source(fn)`` shows the
package's code in a lesson.
"""

from .checker import CheckResult, draw, draw_grid
from .exercises import (
    check_articulation_points, check_bfs_distances, check_components, check_fill_bound,
    check_fit_weights, check_flood_fill, check_greedy_move, check_negamax,
    check_score_rectangle, check_separation_sample, check_territory, check_turn_order_territory,
)
from .game import INF, LOSS, TurnGame
from .hints import hint
from .progress import progress, solution_notebook
from .source import show_source

__all__ = [
    "CheckResult", "draw", "draw_grid", "TurnGame", "INF", "LOSS",
    "check_greedy_move", "check_fill_bound", "check_flood_fill", "check_components",
    "check_bfs_distances", "check_territory", "check_turn_order_territory", "check_negamax",
    "check_articulation_points", "check_separation_sample", "check_fit_weights",
    "check_score_rectangle", "hint", "progress", "show_source", "solution_notebook",
]
