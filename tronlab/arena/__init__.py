"""The arena: tournaments of bots, stored in SQLite, rated, reported (techniques X2, X6).

* :mod:`~tronlab.arena.maps` - what ``--maps`` names, and each map's board;
* :mod:`~tronlab.arena.bots` - bot specs: registered names, ``py:FILE``, ``cmd:...``;
* :mod:`~tronlab.arena.schedule` - round robin and gauntlet plans of :class:`GameSpec`;
* :mod:`~tronlab.arena.play` - one game of a plan, played where it lands;
* :mod:`~tronlab.arena.store` - the SQLite results database (resumable, kill-safe);
* :mod:`~tronlab.arena.tournament` - run a plan on an executor (processes, Dask);
* :mod:`~tronlab.arena.cluster` - a Dask cluster's executor and its checks of the workers;
* :mod:`~tronlab.arena.daskgames` - that executor: each game checks its worker first;
* :mod:`~tronlab.arena.stats` - W-D-L, scores, sign tests, verdicts;
* :mod:`~tronlab.arena.ratings` - Bradley-Terry ratings with 95% intervals;
* :mod:`~tronlab.arena.report`, :mod:`~tronlab.arena.html` - the tables and the leaderboard page;
* :mod:`~tronlab.arena.cli` - ``tronlab arena run|table|replay``; its options in
  :mod:`~tronlab.arena.parser`, ``export`` in :mod:`~tronlab.arena.export`.

>>> from tronlab.arena import Store, round_robin, run
"""

from .schedule import GameSpec, gauntlet, round_robin
from .cluster import dask_executor
from .store import Store, record_of
from .tournament import process_pool, run

__all__ = ["GameSpec", "Store", "dask_executor", "gauntlet", "process_pool", "record_of",
           "round_robin", "run"]
