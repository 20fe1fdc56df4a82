"""tronlab: building blocks and a course for Tron light-cycle and grid-territory bots.

The names below are the facade; each lives in a short topic module (``tronlab.voronoi``,
``tronlab.search`` ...) where its kernel and plain-Python twin sit beside it.  Importing
``tronlab`` loads only numpy: the analysis and search names are imported on first use.
"""

from ._cache import configure_numba_cache as _configure_numba_cache

_configure_numba_cache()

from .board import (  # noqa: E402
    DOWN, FREE, LEFT, MOVE_NAMES, RIGHT, TRAIL, UP, WALL, Board, BoardError,
    opposite, parse_ascii, parse_move,
)
from .bots import bot_names, get_bot, register  # noqa: E402
from .engine import BotFault, play  # noqa: E402
from .mapgen import (  # noqa: E402
    builtin_maps, codingame_board, lightriders_board, load_builtin, random_map,
)
from .maps import format_map, load_map, parse_map, save_map  # noqa: E402
from .records import GameRecord  # noqa: E402
from .rules import REASONS, Outcome, get_rules  # noqa: E402

__version__ = "0.1.0"

# name -> module: imported when first asked for (these pull in numba or matplotlib).
# No name here may equal a submodule's name (``tronlab.evaluate`` is the module).
_LAZY = {
    "territory": "voronoi", "owner_map": "voronoi", "bfs_distances": "voronoi",
    "bucket_distances": "voronoi", "territory_from_distances": "voronoi",
    "flood_fill": "fill", "components": "fill", "Components": "fill",
    "potential_articulation": "ring",
    "articulation_points": "articulation",
    "turn_order_territory": "multivoronoi",
    "fill_bound": "parity", "region_colours": "parity",
    "greedy_move": "filler", "fill_length": "filler", "fill_path": "filler",
    "is_separated": "evaluate",
    "negamax": "search", "Searcher": "search",
    "solve_endgame": "endgame",
    "draw_board": "render", "draw_record": "render",
    "BoardWidget": "widgets",
    "ExternalBot": "external",
    "run_stdio": "stdio",
    "chamber_score": "chambers", "chamber_tree": "chambers",
}


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
