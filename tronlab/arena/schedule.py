"""The plan of a tournament: which bots meet on which map, in which seats, with which seed.

A plan is a list of :class:`GameSpec`; each names everything a worker needs to
play the game again identically, and its :attr:`GameSpec.key` (a hash of all
that) is how the store knows whether the game was played.  Two schedules:

* :func:`round_robin` - every group of ``players`` bots (every pair, for two)
  on every map, in every seating (both seats; for 3-4 players every rotation of
  the group and of its reverse, so each pair sits each way round as often),
  ``seeds`` times each;
* :func:`gauntlet` - one bot against each of the others, with ``players - 1``
  copies of the other for 3-4 player games, seats rotated.

Seeds are derived from the game itself (bots in seat order, map, seed index),
so the same plan always gives the same games.

>>> plan = round_robin(["random", "hugger", "filler"], ["arena"], game="google2010")
>>> len(plan), plan[0].bots, plan[1].bots
(6, ('random', 'hugger'), ('hugger', 'random'))
>>> len(gauntlet("filler", ["random", "hugger"], ["random:2"], game="codingame", players=3))
12
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import zlib
from dataclasses import asdict, dataclass

from ..runner.games import get_game
from ..runner.reprs import plural, safe_repr
from ..runner.timebank import MAX_SECONDS
from ..tron import nash_table, search_state
from ..tron.values import is_real, is_whole
from .bots import bot_files_hash, bot_name, check_spec, is_program
from .helptext import DEFAULT_TIME, bank_move_time
from .maps import DEFAULT_MAPS, MapRef, check_maps, expand_maps

#: seeded games per group of bots, map and seating: a thousand already tell two bots
#: apart to a fraction of a percent
MAX_SEEDS = 1000
#: games in one plan: at a few seconds a game, a hundred thousand take weeks on one core,
#: and a plan of many millions does not fit in memory
MAX_GAMES = 100_000
#: a fixed search depth every depth bot can search (the Nash tables are the shallowest)
MAX_DEPTH = min(search_state.MAX_DEPTH, nash_table.MAX_DEPTH)


class _GameTime:
    """``time``'s default in :func:`round_robin` and :func:`gauntlet`: 0.1 s a move, or
    under a ``bank`` the Light Riders contest's seconds added a move (0.2), as
    ``tronlab arena run`` has it."""

    def __repr__(self) -> str:
        return "<0.1, or 0.2 with a bank>"


GAME_TIME = _GameTime()


def default_time(time, bank):
    """``time``, or for :data:`GAME_TIME` the seconds a move it stands for under ``bank``
    (``tronlab arena run`` passes it when ``--time`` is not given)."""
    if time is not GAME_TIME:
        return time
    return DEFAULT_TIME if bank is None else bank_move_time()


@dataclass(frozen=True)
class GameSpec:
    """One game of a plan.  ``time`` is each bot's thinking budget a move (the
    engine calls a timeout at twice it, six times for the first move);
    ``depth`` a fixed search depth for the search bots (None: timed).  ``bank``
    (Light Riders only) plays the game under the contest's time bank instead:
    each bot's bank starts at ``bank`` seconds and ``time`` is added before each
    move (:mod:`tronlab.runner.timebank`)."""
    game: str
    bots: tuple
    map: str
    map_label: str
    map_set: str
    seed: int
    time: float | None = 0.1
    depth: int | None = None
    tag: str = ""
    #: by seat, a hash of the files a ``py:`` or ``cmd:`` bot runs ('' for a registered
    #: bot): a student who hands in a changed file gets its games played again
    files: tuple = ()
    #: seconds of a Light Riders time bank (None: ``time`` is a limit a move)
    bank: float | None = None

    @property
    def names(self) -> tuple:
        return tuple(bot_name(b) for b in self.bots)

    @property
    def key(self) -> str:
        """A short hash of everything that decides the game (and the run's tag)."""
        what = [self.tag, self.game, list(self.bots), self.map, self.seed, self.time, self.depth]
        if any(self.files):
            what.append(list(self.files))
        if self.bank is not None:       # absent for a game a move's limit: old keys stand
            what.append({"bank": self.bank})
        return hashlib.sha1(json.dumps(what).encode()).hexdigest()[:20]

    def to_dict(self) -> dict:
        return {**asdict(self), "bots": list(self.bots)}


def _seatings(group, players):
    """The seatings ``group`` plays in: every rotation of it and of its reverse.  Seat
    order matters beyond the first seat (CodinGame Tron moves in index order, the
    capture game resolves in id order), and rotations alone sit each pair in one order
    two times in three (three players) or three in four: with the reverse's rotations
    too, every pair sits each way round equally often and every bot in every seat.
    For two players that is both seats; a gauntlet's copies of one bot make some
    seatings alike, played once."""
    group = tuple(group)
    turns = [group[k:] + group[:k] for k in range(players)]
    return list(dict.fromkeys(turns + [tuple(reversed(t)) for t in turns]))


def _seating_count(players: int, gauntlet: bool = False) -> int:
    """How many seatings a group of ``players`` bots plays in: a gauntlet's group (one
    bot and copies of another) in each rotation, a round robin's in twice that (two
    players: both seats either way)."""
    group = [0] + [1] * (players - 1) if gauntlet else range(players)
    return len(_seatings(group, players))


def check_players(game: str, players, name: str = "players") -> int:
    """``players`` if it is a whole number of players a tournament game of ``game`` can
    have (2 to the game's maximum), else a ValueError naming ``name`` and the range."""
    lo, hi = get_game(game).players
    lo = max(lo, 2)                         # a tournament game has opponents
    span = str(lo) if lo == hi else f"{lo} to {hi}"
    if not is_whole(players) or not lo <= players <= hi:
        raise ValueError(f"{name}: {game} is played by {span} players, got {players!r}")
    return int(players)


def _maps(game, maps):
    if maps is None:
        maps = DEFAULT_MAPS[game]
    if isinstance(maps, str) or (maps and not isinstance(maps[0], MapRef)):
        return expand_maps(game, maps)
    return list(maps)


def check_seeds(seeds, name: str = "seeds") -> int:
    """``seeds`` if it is a whole number from 1 to :data:`MAX_SEEDS`, else a ValueError
    naming ``name`` (the ``tronlab arena`` command passes ``"--seeds"``)."""
    if not is_whole(seeds) or not 1 <= seeds <= MAX_SEEDS:
        raise ValueError(f"{name} is the number of games per map and seating, 1 to {MAX_SEEDS} "
                         f"(a thousand measure a score to about 3 percent), got {seeds!r}")
    return int(seeds)


def check_depth(depth, name: str = "depth") -> int | None:
    """``depth`` as an int if it is a fixed search depth every depth bot can search
    (1 to :data:`MAX_DEPTH`), None for None, else a ValueError naming ``name``."""
    if depth is not None and (not is_whole(depth) or not 1 <= depth <= MAX_DEPTH):
        raise ValueError(f"{name} is a whole number of turns from 1 to {MAX_DEPTH} (the "
                         f"deepest search every depth bot can make), got {depth!r}")
    return None if depth is None else int(depth)


def check_plan_size(seatings: int, maps: int, seeds) -> None:
    """A ValueError, before any plan is made, when ``seeds`` is not a whole number from 1
    to :data:`MAX_SEEDS` or the plan would hold more than :data:`MAX_GAMES` games."""
    check_seeds(seeds)
    games = seatings * maps * seeds
    if games > MAX_GAMES:
        raise ValueError(f"{seatings} seatings x {maps} maps x {seeds} seeds make {games} "
                         f"games, more than the {MAX_GAMES} a tournament may plan (they "
                         f"would take weeks to play); use fewer bots, maps or seeds")


def _check_options(depth, time, game, bank) -> tuple:
    """``(depth, time, bank)`` as an int and floats (or None), once checked: ``time=1``
    and ``--time 1`` are one clock, so they must make the same game keys."""
    depth = check_depth(depth)
    if time is not None and (not is_real(time) or not time > 0):
        raise ValueError(f"time is a positive number of seconds a move, got {time!r}")
    return depth, None if time is None else float(time), check_bank(bank, game, time)


def check_bank(bank, game, time=0.1, name="bank", time_name="time") -> float | None:
    """``bank`` as a float if it is a Light Riders time bank (seconds above 0) and
    ``time`` the seconds added a move, None for None; else a TypeError (not a number)
    or a ValueError naming ``name`` (the ``tronlab arena`` command passes ``"--bank"``)."""
    if bank is None:
        return None
    if not get_game(game).banked:
        raise ValueError(f"{name} is for lightriders (the only game played with a time "
                         f"bank); {game} takes {time_name}, a limit per move")
    if not is_real(bank):
        raise TypeError(f"{name} is the seconds of a Light Riders time bank, got "
                        f"{safe_repr(bank, 80)}")
    if not 0 < bank < MAX_SECONDS:
        raise ValueError(f"{name} is a positive number of seconds under {MAX_SECONDS:g} "
                         f"(the contest's: 10), got {bank!r}")
    if time is None:
        raise ValueError(f"with {name}, {time_name} is the seconds added to the bank before "
                         f"each move (the contest's: 0.2), not None")
    return float(bank)


def _renaming(name: str) -> str:
    """How to give two bots that share ``name`` names of their own."""
    if name.startswith("tronlab bot "):
        return (f"and tronlab's own bot run as a program is named {name!r} whatever its "
                f"other options: put the options in NAME (chamber+time=0.5), or play it in "
                f"process (--bots chamber+time=0.5)")
    return ("and a py: bot is named after its file, a cmd: bot after its program or script "
            "and the arguments after it: rename one of the files")


def _specs(game, seatings, maps, seeds, clock, tag):
    time, depth, bank = clock
    info = get_game(game)
    names = {}
    for spec in sorted({b for seating in seatings for b in seating}):
        other = names.setdefault(bot_name(spec), spec)
        if other != spec:
            raise ValueError(f"two bots have the name {bot_name(spec)!r}: {other!r} and "
                             f"{spec!r}; the tables tell bots apart by name, "
                             f"{_renaming(bot_name(spec))}")
    check_maps(game, maps, len(seatings[0]) if seatings else 2,
               programs=any(is_program(spec) for seating in seatings for spec in seating))
    plan = []
    hashes = {}
    for seating in seatings:
        info.check_players(len(seating))
        for spec in seating:
            if spec not in hashes:          # each bot once, not once per seating
                check_spec(spec, game)
                hashes[spec] = bot_files_hash(spec)
        files = tuple(hashes[b] for b in seating)
        for ref in maps:
            for s in range(seeds):
                seed = zlib.crc32(f"{game}|{'|'.join(seating)}|{ref.spec}|{s}".encode())
                plan.append(GameSpec(game, tuple(seating), ref.spec, ref.label, ref.set, seed,
                                     time, depth, tag, files, bank))
    return plan


def round_robin(bots, maps=None, *, game="google2010", players=2, seeds=1, time=GAME_TIME,
                depth=None, tag="", bank=None) -> list[GameSpec]:
    """Every group of ``players`` distinct bots, in every seating, on every map.
    ``time`` is each bot's seconds a move (default 0.1; None: no clock).  ``bank``
    (seconds, Light Riders only) plays every game under the contest's time bank,
    ``time`` then being the seconds added a move (default the contest's 0.2; its bank
    is 10)."""
    players = check_players(game, players)
    bots = list(dict.fromkeys(bots))
    if len(bots) < players:
        raise ValueError(f"a round robin of {players}-player games needs at least {players} "
                         f"different bots, got {len(bots)}")
    time = default_time(time, bank)
    depth, time, bank = _check_options(depth, time, game, bank)
    maps = _maps(game, maps)
    check_plan_size(math.comb(len(bots), players) * _seating_count(players),
                    len(maps), seeds)
    seatings = [s for g in itertools.combinations(bots, players) for s in _seatings(g, players)]
    return _specs(game, seatings, maps, seeds, (time, depth, bank), tag)


def gauntlet(hero, others, maps=None, *, game="google2010", players=2, seeds=1, time=GAME_TIME,
             depth=None, tag="", bank=None) -> list[GameSpec]:
    """``hero`` against each of ``others`` (``players - 1`` copies of it), seats rotated;
    ``time`` and ``bank`` as in :func:`round_robin`."""
    players = check_players(game, players)
    others = [o for o in dict.fromkeys(others) if o != hero]
    if not others:
        raise ValueError("a gauntlet needs at least one bot besides the hero")
    time = default_time(time, bank)
    depth, time, bank = _check_options(depth, time, game, bank)
    maps = _maps(game, maps)
    check_plan_size(len(others) * _seating_count(players, True), len(maps), seeds)
    seatings = [s for o in others for s in _seatings([hero] + [o] * (players - 1), players)]
    return _specs(game, seatings, maps, seeds, (time, depth, bank), tag)


#: games to play above which ``tronlab arena run`` says how its plan is made
LARGE_PLAN = 100


def plan_note(plan, schedule: str = "round-robin", to_play: int | None = None) -> str:
    """For a plan with more than :data:`LARGE_PLAN` games ``to_play`` (default: all of
    it), two indented lines (each after a newline): how the plan is made (groups x
    seatings x maps x seeds) and the options of ``tronlab arena run`` that make it
    smaller (only those giving fewer games than it), with the games each gives; '' for
    a smaller plan."""
    if not plan or (len(plan) if to_play is None else to_play) <= LARGE_PLAN:
        return ""
    players = len(plan[0].bots)
    bots = len({b for g in plan for b in g.bots})
    maps = len({g.map for g in plan})
    seeds = len(plan) // len({(g.bots, g.map) for g in plan})
    seatings = _seating_count(players, schedule == "gauntlet")
    if schedule == "gauntlet":
        groups = f"{plural(bots - 1, 'opponent')} of the first bot"
    else:
        n = math.comb(bots, players)
        groups = (plural(n, "pair") if players == 2 else f"{plural(n, 'group')} of {players}"
                  ) + f" of the {bots} bots"
    each = maps * seeds
    offers = []                             # (option, its games), kept only if fewer games
    if players > 2:
        two = math.comb(bots, 2) if schedule != "gauntlet" else bots - 1
        offers.append(("--players 2 ({} games)", two * 2 * each))
    if schedule != "gauntlet":
        offers.append(("--schedule gauntlet ({} games: the first bot v the others)",
                       (bots - 1) * _seating_count(players, True) * each))
    smaller = [text.format(n) for text, n in offers if n < len(plan)]
    fewer = [option for option, n in (("--maps", maps), ("--seeds", seeds)) if n > 1]
    smaller += [f"fewer {' or '.join(fewer)}"] if fewer else []
    return (f"\n  the plan: {groups} x {seatings} seatings x {plural(maps, 'map')} x "
            f"{plural(seeds, 'seed')}"
            + (f"\n  smaller plans: {', '.join(smaller)}" if smaller else ""))
