"""The arena: tournaments of bots, stored in SQLite, rated, reported (techniques X2, X6).

* :mod:`~tronlab.arena.maps` - what ``--maps`` names, and each map's board;
* :mod:`~tronlab.arena.bots` - bot specs: registered names, ``py:FILE``, ``cmd:...``;
* :mod:`~tronlab.arena.schedule` - round robin and gauntlet plans of :class:`GameSpec`;
* :mod:`~tronlab.arena.play` - one game of a plan, played where it lands;
* :mod:`~tronlab.arena.store` - the SQLite results database (resumable, kill-safe); its
  write lock in :mod:`~tronlab.arena.storelock`, and the games a stopped run could not
  write, kept beside it for the next, in :mod:`~tronlab.arena.unstored`;
* :mod:`~tronlab.arena.tournament` - run a plan on an executor (processes, Dask);
* :mod:`~tronlab.arena.cluster` - a Dask cluster's executor and its checks of the workers;
* :mod:`~tronlab.arena.daskgames` - that executor: each game checks its worker first;
* :mod:`~tronlab.arena.stats` - W-D-L, scores, sign tests, verdicts;
* :mod:`~tronlab.arena.ratings` - Bradley-Terry ratings with 95% intervals;
* :mod:`~tronlab.arena.report`, :mod:`~tronlab.arena.html` - the tables and the leaderboard page;
* :mod:`~tronlab.arena.cli` - ``tronlab arena run|table|replay``; its options in
  :mod:`~tronlab.arena.parser`, ``export`` in :mod:`~tronlab.arena.export`.

The names below are loaded on first use (PEP 562): every ``py:`` bot of a
tournament runs ``python -m tronlab.arena.pyprogram`` in a process of its own,
two a game, and that program needs none of the arena's own modules.

>>> from tronlab.arena import Store, round_robin, run
"""

from importlib import import_module

#: each name of the package -> the module that defines it
_HOMES = {"GameSpec": "schedule", "gauntlet": "schedule", "round_robin": "schedule",
          "dask_executor": "cluster", "Store": "store", "record_of": "store",
          "process_pool": "pool", "run": "tournament"}

__all__ = sorted(_HOMES)


def __getattr__(name):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*globals(), *_HOMES])
