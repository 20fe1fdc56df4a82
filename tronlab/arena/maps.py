"""The maps of a tournament: what ``--maps`` names, and the board each one makes.

A *map spec* is a string a worker process can turn back into the same board:

* a Google 2010 map file (its absolute path) or a folder of them (every
  ``*.txt`` in it, sorted);
* the name of a built-in map (``tronlab maps`` lists them);
* ``random:N`` - N seeded random maps made for the game: 20x20 point-symmetric
  maps for google2010 (``random:N:WxH`` another size), empty 30x20 boards with
  drawn starts for codingame, drawn 16x16 starts for lightriders, drawn starts
  on the 35x20 grid for backtothecode; ``random:N@K`` (or ``random:N:WxH@K``)
  the N maps from seed K on, for a run on maps no earlier run has seen.

Each map has a label (the file's name without ``.txt``, ``rand3``, ``cg3``...)
and a *set* (the folder's name, ``built-in``, ``20x20``...) by which the
tables group games.

>>> [(m.label, m.set) for m in expand_maps("google2010", "arena,random:2")]
[('arena', 'built-in'), ('rand0', '20x20'), ('rand1', '20x20')]
>>> [m.label for m in expand_maps("google2010", "random:2@40")]
['rand40', 'rand41']
>>> make_board("google2010", "random:20x20:1", 2).width
20
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple


class MapRef(NamedTuple):
    spec: str
    label: str
    set: str


_RANDOM = re.compile(r"random:(\d+)(?::(\d+)x(\d+))?(?:@(\d+))?")
_SIZED = re.compile(r"random:(\d+)x(\d+):(\d+)")
#: random maps one ``random:N`` may name: more than a plan may play on (see
#: :data:`tronlab.arena.schedule.MAX_GAMES`) is a typo, not a tournament
MAX_RANDOM_MAPS = 10_000
DEFAULT_MAPS = {"google2010": "arena", "codingame": "random:4", "lightriders": "random:4",
                "backtothecode": "random:2"}


def _check_random_size(game: str, w: int, h: int) -> None:
    """Refuse a ``random:N:WxH`` size the game's boards cannot have, before any game."""
    from ..capture.state import MAX_SIDE as CAPTURE_SIDE
    from ..tron.maps import MAX_SIDE

    low, high = (5, MAX_SIDE) if game == "google2010" else (2, CAPTURE_SIDE)
    if not (low <= w <= high and low <= h <= high):
        raise ValueError(f"random maps are {low}x{low} to {high}x{high} (the largest board "
                         f"the contests play), got {w}x{h}")


def _random_refs(game: str, count: int, size, first=0) -> list[MapRef]:
    if size is not None and game in ("google2010", "backtothecode"):
        _check_random_size(game, *size)
    if game == "google2010":
        w, h = size or (20, 20)
        label = "rand{}" if (w, h) == (20, 20) else f"rand{w}x{h}-{{}}"
        return [MapRef(f"random:{w}x{h}:{i}", label.format(i), f"{w}x{h}")
                for i in range(first, first + count)]
    if size is not None and game != "backtothecode":
        raise ValueError(f"{game} is played on a board of fixed size; drop the size in random:")
    if game == "backtothecode":
        w, h = size or (35, 20)
        return [MapRef(f"capture:{w}x{h}:{i}", f"starts{i}", f"{w}x{h}")
                for i in range(first, first + count)]
    short = {"codingame": "cg", "lightriders": "lr"}[game]
    return [MapRef(f"{game}:{i}", f"{short}{i}", game) for i in range(first, first + count)]


def _number(digits):
    """The whole number ``digits`` (None stays None); one too long to be a count, a size
    or a seed comes back as 2**63, beyond every limit (not a 5,000-digit int)."""
    if digits is None:
        return None
    return int(digits) if len(digits.lstrip("0")) <= 19 else 2**63


def _random_item(game, item, count, width, height, first) -> list[MapRef]:
    """The maps of ``random:N[:WxH][@K]``, its numbers checked."""
    if not 1 <= count <= MAX_RANDOM_MAPS:
        raise ValueError(f"map {item!r}: random:N plays N random maps, N from 1 to "
                         f"{MAX_RANDOM_MAPS} (more than a tournament can play)")
    if first is not None and first + count > 2**63:
        raise ValueError(f"map {item!r}: random:N@K starts at seed K, below 2**63")
    size = None if width is None else (width, height)
    return _random_refs(game, count, size, first or 0)


def _file_ref(path: str) -> MapRef:
    from .common import NOT_UTF8, is_utf8, shown_name
    if not is_utf8(path):
        raise ValueError(f"map {shown_name(path)!r}: {NOT_UTF8}")
    path = os.path.abspath(path)
    folder = os.path.basename(os.path.dirname(path))
    return MapRef(path, os.path.basename(path)[:-4] if path.endswith(".txt")
                  else os.path.basename(path), folder)


def expand_maps(game: str, text) -> list[MapRef]:
    """The maps named by ``text`` (comma-separated, or a list) for ``game``."""
    from ..tron.mapgen import builtin_maps

    items = text.split(",") if isinstance(text, str) else list(text)
    refs: list[MapRef] = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        m = _RANDOM.fullmatch(item)
        if m:
            refs += _random_item(game, item, *(_number(g) for g in m.groups()))
        elif game == "backtothecode":
            raise ValueError(f"backtothecode maps are random:N (drawn starts), got {item!r}")
        elif os.path.isdir(item):
            files = sorted(f for f in os.listdir(item) if f.endswith(".txt"))
            if not files:
                raise ValueError(f"no map files (*.txt) in the folder {item!r}")
            refs += [_file_ref(os.path.join(item, f)) for f in files]
        elif os.path.isfile(item):
            refs.append(_file_ref(item))
        elif item in builtin_maps():
            refs.append(MapRef(item, item, "built-in"))
        elif item.startswith("random:"):
            raise ValueError(f"map {item!r}: random maps are random:N or random:N:WxH (then "
                             f"@K to start at seed K), N, W, H and K whole numbers in digits, "
                             f"N at least 1")
        else:
            raise ValueError(f"unknown map {item!r}: not a file, a folder, a built-in map "
                             f"({', '.join(builtin_maps())}) or random:N")
    if not refs:
        raise ValueError("no maps to play")
    return refs


def make_board(game: str, spec: str, n_players: int):
    """The Tron board of map ``spec`` for ``n_players`` players (Tron games only)."""
    from ..tron.mapgen import codingame_board, lightriders_board, load_builtin, random_map
    from ..tron.maps import load_map

    m = _SIZED.fullmatch(spec)
    if m:
        w, h, seed = map(int, m.groups())
        board = random_map(w, h, density=0.1, rng=seed)
    elif spec.startswith("codingame:"):
        board = codingame_board(n_players, rng=int(spec.split(":")[1]))
    elif spec.startswith("lightriders:"):
        board = lightriders_board(rng=int(spec.split(":")[1]))
    elif os.path.isabs(spec):
        board = load_map(spec)
    else:
        board = load_builtin(spec)
    if board.n_players != n_players:
        raise ValueError(f"map {spec!r} has {board.n_players} players, the game {n_players}")
    if game == "lightriders":
        from ..tron.lightriders import give_contest_facings
        give_contest_facings(board)
    return board


def check_maps(game: str, refs, n_players: int, programs: bool = False) -> None:
    """Make each map's board once and check it against the rules of ``game``, so a
    malformed file or a map for another number of players stops a tournament before
    its first game, not in the middle.  Random maps are made for the game: not checked.
    When ``programs`` play (``py:``, ``cmd:``), a codingame map must be one the protocol
    can show them: the contest's empty 30x20 board."""
    from ..runner.games import get_game
    from ..tron.protocol import codingame_board_problem
    from ..tron.rules import get_rules

    if get_game(game).family != "tron":
        return
    rules = get_rules(game)
    for ref in refs:
        if ref.spec.startswith(("random:", "codingame:", "lightriders:")):
            continue
        try:
            board = make_board(game, ref.spec, n_players)
            rules.check(board)
            problem = codingame_board_problem(board) if programs and game == "codingame" \
                else None
            if problem is not None:
                raise ValueError(f"{problem}; programs play codingame on random:N maps (the "
                                 f"contest's boards)")
        except ValueError as err:
            text = " ".join(str(err).split())
            raise ValueError(text if ref.label in text or ref.spec in text
                             else f"map {ref.label!r}: {text}") from None


def capture_setup(spec: str, n_players: int) -> dict:
    """``play_capture`` options of a backtothecode map spec ``capture:WxH:i``."""
    from ..capture.rules import reset

    m = re.fullmatch(r"capture:(\d+)x(\d+):(\d+)", spec)
    if m is None:
        raise ValueError(f"not a backtothecode map spec: {spec!r}")
    w, h, seed = map(int, m.groups())
    state = reset(n_players, rng=seed, width=w, height=h)
    return {"width": w, "height": h, "starts": [list(p) for p in state.positions]}
