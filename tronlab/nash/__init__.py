"""Nash equilibria for simultaneous moves (techniques L1-L6).

* :mod:`tronlab.nash.zero_sum` - zero-sum matrix games: :func:`solve_zero_sum`
  and its allocation-free kernel (L1).
* :mod:`tronlab.nash.saddle` - saddle-point pruning of a matrix searched cell
  by cell, with alpha-beta windows (L2).
* :mod:`tronlab.nash.tron_search` - the simultaneous-move Tron search that
  values each node by the matrix game over both players' moves, with
  saddle-point pruning and iterative deepening (L1-L3, L5, L6).

Importing this package loads only numpy; the search (which needs numba) is
imported on first use of its names.
"""

from .zero_sum import ZeroSumSolution, solve_zero_sum

_LAZY = {"nash_search": "tron_searcher", "NashSearcher": "tron_searcher",
         "choose_move": "tron_searcher"}

__all__ = ["ZeroSumSolution", "solve_zero_sum", *_LAZY]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tronlab.nash' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
