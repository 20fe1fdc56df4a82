"""tronlab: building blocks and a course for Tron light-cycle and grid-territory bots."""

from ._cache import configure_numba_cache as _configure_numba_cache

_configure_numba_cache()

from .board import (  # noqa: E402
    DOWN, FREE, LEFT, MOVE_NAMES, RIGHT, TRAIL, UP, WALL, Board, BoardError,
    opposite, parse_ascii, parse_move,
)
from .maps import format_map, load_map, parse_map, save_map  # noqa: E402

__version__ = "0.1.0"
