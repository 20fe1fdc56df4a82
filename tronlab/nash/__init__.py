"""Nash equilibria for simultaneous moves (techniques L1-L6).

* :mod:`tronlab.nash.zero_sum` - zero-sum matrix games: :func:`solve_zero_sum`
  and its allocation-free kernel (L1).
* :mod:`tronlab.nash.saddle` - saddle-point pruning of a matrix searched cell
  by cell, with alpha-beta windows (L2).
The simultaneous-move Tron search built on them lives with the Tron game:
:mod:`tronlab.tron.nash_search` (the compiled search) and
:mod:`tronlab.tron.nash_searcher` (deepening under the clock).  Importing this
package loads only numpy; those names are imported on first use.
"""

from .zero_sum import ZeroSumSolution, solve_zero_sum

_LAZY = {"nash_search": "tronlab.tron.nash_searcher", "NashSearcher": "tronlab.tron.nash_searcher",
         "choose_move": "tronlab.tron.nash_searcher", "stats_by_name": "tronlab.tron.nash_searcher"}

__all__ = ["ZeroSumSolution", "solve_zero_sum", *_LAZY]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tronlab.nash' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
