"""The registry of games: what each game is, in data (no game code is imported here).

Every game tronlab can run has one :class:`GameInfo` entry.  A game belongs to
a *family*: games of one family share a board and so share bots (the three Tron
rule sets are the ``"tron"`` family; Back to the Code is ``"capture"``).  The
runner, the command line and the arena read these entries to know how many
players a game takes, whether they move together, the board size, the time
limits and the contest protocol; the family's package holds the rules.

Adding a game is one folder (its package) and one :func:`register_game` call
here.

>>> get_game("codingame").players
(2, 4)
>>> [g.name for g in games("tron")]
['google2010', 'codingame', 'lightriders']
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    """One game.  Times are seconds; ``size`` is ``(width, height)`` or None when
    the game is played on any map.  ``first_move_time`` and ``move_time`` are the
    contest's advertised limits (the first move, every later one) and ``grace`` the
    seconds its referee waited past ``move_time`` before calling a timeout (Back to the
    Code: 50 ms).  A ``banked`` game's clock is a time bank (Light Riders):
    ``first_move_time`` is the bank's size and ``move_time`` the time added before
    each move.  These are the one place the contests' clocks are written down."""
    name: str
    family: str
    title: str
    players: tuple[int, int]
    simultaneous: bool
    size: tuple[int, int] | None
    first_move_time: float
    move_time: float
    protocol: str
    package: str
    banked: bool = False
    grace: float = 0.0

    def check_players(self, n: int) -> None:
        """Raise ValueError unless ``n`` players can play this game."""
        lo, hi = self.players
        if not lo <= n <= hi:
            span = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ValueError(f"{self.name} is played by {span} players, got {n}")


_GAMES: dict[str, GameInfo] = {}


def register_game(info: GameInfo) -> GameInfo:
    """Add ``info`` to the registry (a name may be registered once)."""
    if info.name in _GAMES and _GAMES[info.name] != info:
        raise ValueError(f"a game called {info.name!r} is already registered")
    _GAMES[info.name] = info
    return info


def get_game(name) -> GameInfo:
    """The entry of game ``name`` (a GameInfo passes through)."""
    if isinstance(name, GameInfo):
        return name
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(_GAMES)}")
    return _GAMES[name]


def games(family: str | None = None) -> list[GameInfo]:
    """The registered games, of one family or all, in registration order."""
    return [g for g in _GAMES.values() if family is None or g.family == family]


def game_names(family: str | None = None) -> list[str]:
    return [g.name for g in games(family)]


def family_of(name: str) -> str:
    """The family of a game name; a family name is returned as it is."""
    if name in {g.family for g in _GAMES.values()}:
        return name
    return get_game(name).family


register_game(GameInfo("google2010", "tron", "Google AI Challenge 2010 Tron", (2, 2), True,
                       None, 3.0, 1.0, "google2010", "tronlab.tron"))
register_game(GameInfo("codingame", "tron", "CodinGame Tron Battle", (2, 4), False,
                       (30, 20), 1.0, 0.1, "codingame", "tronlab.tron"))
register_game(GameInfo("lightriders", "tron", "riddles.io Light Riders", (2, 2), True,
                       (16, 16), 10.0, 0.2, "lightriders", "tronlab.tron", banked=True))
register_game(GameInfo("backtothecode", "capture", "CodinGame Back to the Code", (2, 4), True,
                       (35, 20), 1.0, 0.1, "backtothecode", "tronlab.capture", grace=0.05))
