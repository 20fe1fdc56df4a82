"""tronlab: building blocks and a course for Tron light-cycle and grid-territory bots.

The names below are the facade; each lives in a short topic module (``tronlab.grid.voronoi``,
``tronlab.tron.search`` ...) where its kernel and plain-Python twin sit beside it.  Importing
``tronlab`` loads only numpy: the analysis and search names are imported on first use.
"""

import time as _time

#: when this process imported tronlab: a module file changed after it is newer than the code
#: the process runs (tronlab.arena.cluster refuses such a Dask worker)
_IMPORTED_AT = _time.time()

from .runner.startup import one_blas_thread_for_programs as _one_blas_thread  # noqa: E402
from .jit.cache import configure_numba_cache as _configure_numba_cache  # noqa: E402

_one_blas_thread()      # before numpy loads: a bot program needs no BLAS thread pool
_configure_numba_cache()

from .tron.board import (  # noqa: E402
    DOWN, FREE, LEFT, MOVE_NAMES, RIGHT, TRAIL, UP, WALL, Board, BoardError,
    opposite, parse_ascii, parse_move,
)
from .runner.registry import bot_names, get_bot, register  # noqa: E402
from .runner.engine import BotFault, play  # noqa: E402
from .tron.mapgen import (  # noqa: E402
    builtin_maps, codingame_board, lightriders_board, load_builtin, random_map,
)
from .tron.maps import format_map, load_map, parse_map, save_map  # noqa: E402
from .runner.records import GameRecord  # noqa: E402
from .tron.rules import REASONS, Outcome, get_rules  # noqa: E402

__version__ = "0.1.0"

# name -> module: imported when first asked for (these pull in numba or matplotlib).
# No name here may equal a submodule's name (``tronlab.tron.evaluate`` is the module).
_LAZY = {
    "territory": "grid.voronoi", "owner_map": "grid.voronoi", "bfs_distances": "grid.voronoi",
    "bucket_distances": "grid.voronoi", "territory_from_distances": "grid.voronoi",
    "flood_fill": "grid.flood", "components": "grid.flood", "Components": "grid.flood",
    "potential_articulation": "grid.ring",
    "articulation_points": "grid.articulation",
    "turn_order_territory": "grid.multivoronoi",
    "fill_bound": "grid.parity", "region_colours": "grid.parity",
    "greedy_move": "tron.spacefill", "fill_length": "tron.spacefill", "fill_path": "tron.spacefill",
    "is_separated": "tron.evaluate",
    "negamax": "tron.search", "Searcher": "tron.search",
    "solve_endgame": "tron.endgame",
    "draw_board": "render", "draw_record": "render",
    "BoardWidget": "widgets",
    "ExternalBot": "runner.external",
    "run_stdio": "runner.stdio",
    "chamber_score": "tron.chambers", "chamber_tree": "tron.chambers",
    "Match": "tron.match",
    "solve_zero_sum": "nash.zero_sum",
    "MapEditor": "map_editor",
    "parallel_env": "tron.env",
}


#: lazy names whose module needs an optional extra (``pip install 'tronlab[pettingzoo]'``)
_NEEDS = {"parallel_env": ("pettingzoo", "gymnasium")}


def _installed(modules) -> bool:
    from importlib.util import find_spec    # finds without importing

    return all(find_spec(m) is not None for m in modules)


#: what ``from tronlab import *`` gives: the names above and the lazy ones (which it imports),
#: those of an optional extra only where it is installed (a plain install's star import failed)
__all__ = [
    "DOWN", "FREE", "LEFT", "MOVE_NAMES", "RIGHT", "TRAIL", "UP", "WALL", "Board", "BoardError",
    "opposite", "parse_ascii", "parse_move", "bot_names", "get_bot", "register", "BotFault",
    "play", "builtin_maps", "codingame_board", "lightriders_board", "load_builtin", "random_map",
    "format_map", "load_map", "parse_map", "save_map", "GameRecord", "REASONS", "Outcome",
    "get_rules", *(n for n in _LAZY if n not in _NEEDS or _installed(_NEEDS[n])),
]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tronlab' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
