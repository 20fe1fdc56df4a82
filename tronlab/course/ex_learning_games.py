"""The games of the A9 checkers (:mod:`tronlab.course.ex_learning`): four hand-made games
(a wall that separates the players, two rooms with a crash, a head-on collision that never
separates, a door taken on the turn the other player dies: apart only once one is out)
played by :func:`scripted` bots, and :func:`sample_games`, seeded games between
the package's bots on small random maps."""

from __future__ import annotations

import functools
import weakref

import numpy as np

from ..tron.board import DOWN, LEFT, RIGHT, UP, Board

__all__ = ["scripted", "hand_games", "sample_games", "checker_games", "package_sample",
           "package_samples"]


def scripted(moves):
    """A bot that plays ``moves`` in order, then keeps repeating the last one."""
    it, last = iter(moves), [moves[-1]]

    def bot(board, player):
        last[0] = next(it, last[0])
        return last[0]
    return bot


def hand_games():
    """The hand-made games, as (label, record) pairs."""
    from ..runner.engine import play

    rows = Board.from_ascii("""
        .....
        1....
        .....
        ....2
    """)
    rooms = Board.from_ascii("""
        1..#...
        ...#..2
    """)
    door = Board.from_ascii("""
        ....#..2
        .....1..
        ....#...
    """)
    return [
        ("hand: a wall along the second row",
         play(rows, [scripted([RIGHT, RIGHT, RIGHT, RIGHT, UP, LEFT]),
                     scripted([LEFT, LEFT, LEFT, LEFT, UP, RIGHT])])),
        ("hand: two rooms, player 1 crashes",
         play(rooms, [scripted([RIGHT, RIGHT, DOWN, LEFT]), scripted([UP, LEFT, LEFT, LEFT])])),
        ("hand: head-on, never separated",
         play(Board.from_ascii("1.2"), [scripted([RIGHT]), scripted([LEFT])])),
        # player 0 steps into the door as player 1 leaves the grid: the board after turn 1
        # is separated, but player 1 is out by then, so the game never separates
        ("hand: player 1 leaves the grid as player 0 takes the door",
         play(door, [scripted([LEFT, LEFT, DOWN]), scripted([UP])])),
    ]


def sample_games(n: int, seed: int, *, size=(7, 13)):
    """``n`` seeded games on small random maps, each seat ``voronoi`` or ``filler`` drawn at
    random."""
    from ..runner.engine import play
    from ..runner.registry import get_bot
    from ..tron.mapgen import random_map

    rng = np.random.default_rng(seed)
    out = []
    for g in range(n):
        w, h = (int(v) for v in rng.integers(size[0], size[1] + 1, size=2))
        board = random_map(w, h, rng=rng, density=float(rng.uniform(0.0, 0.2)))
        names = [("voronoi", "filler")[int(i)] for i in rng.integers(0, 2, size=2)]
        rec = play(board, [get_bot(names[0]), get_bot(names[1])], rng=g)
        out.append((f"game {g}: {names[0]} v {names[1]} on {w}x{h}", rec))
    return out


@functools.lru_cache(maxsize=4)
def checker_games(n: int, seed: int) -> tuple:
    """:func:`sample_games` for the checkers, played once a process: a check is run again
    and again while a learner works, and they pass each game on as a copy, never the
    record itself.  A tuple of (label, record) pairs."""
    return tuple(sample_games(n, seed))


_SAMPLES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def package_sample(record):
    """:func:`tronlab.tron.learn.sample_from_record` of a checker's record, worked out once
    a record: a check asks for the same game's features several times (the answer, the
    hint, which games never separate).  The checkers never change their records; the
    learner's functions get copies."""
    try:
        return _SAMPLES[record]
    except KeyError:
        from ..tron.learn import sample_from_record
        sample = _SAMPLES[record] = sample_from_record(record)
        return sample


def package_samples(records) -> list:
    """:func:`package_sample` of each record, the games that never separate left out."""
    return [s for s in map(package_sample, records) if s is not None]
