"""The positions from seeded games of exercise B3 (:mod:`tronlab.course.ex_rects`), after
the tiny grids of :mod:`tronlab.course.ex_rects_grids`: games of random bots, some with a
player eliminated, and on each a few rectangles (:func:`_random_cases`)."""

from __future__ import annotations

import functools

import numpy as np

from ..capture.rects import scan_rectangles
from ..capture.rects_bot import scan_inputs
from .checker import Case
from .ex_rects_grids import RectGrid


@functools.lru_cache(maxsize=4)
def _random_cases(seed=1111, games=8, quits=6):
    """Positions from seeded games of random bots: ``games`` games of 2-4 players, then
    ``quits`` games of 3-4 players in which one player stops answering at a random
    round (it is eliminated and keeps its squares; the position comes after that).
    On each, each of two active players' best rectangle and two drawn at random
    (sides 2 to 16)."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games + quits):
        n = 2 + g % 3 if g < games else 3 + g % 2
        out += _game_cases(rng, g, n, quits=g >= games)
    return tuple(out)


def _game_cases(rng, g, n, *, quits):
    """The cases of one seeded game of ``n`` random bots (see :func:`_random_cases`)."""
    from ..capture.bots import NearestBot
    from ..capture.game import play_capture

    w, h = int(rng.integers(10, 25)), int(rng.integers(7, 15))
    bots, gone = ["random"] * n, ""
    if quits:
        q, at = int(rng.integers(n)), int(rng.integers(30, 70))
        bots[q] = _quitter(NearestBot(), at)
        gone = f", player {q} eliminated"
    rec = play_capture(bots, rng=int(rng.integers(2**32)), width=w, height=h)
    states = rec.replay()
    if quits:
        first = next(i for i, st in enumerate(states) if st.eliminated[q])
        s = states[int(rng.integers(first, min(first + 40, len(states))))]
    else:
        s = states[int(rng.integers(len(states) // 4, len(states)))]
    view = s.view()
    out = []
    for p in s.active[:2]:
        opponents, needed = scan_inputs(view, p)
        best = scan_rectangles(np.asarray(view.owner), p, view.positions[p], n_players=n,
                               opponents=opponents, needed=needed)
        rects = [(best.x0, best.y0, best.x1, best.y1)] if best.score > 0 else []
        while len(rects) < 3:
            rw, rh = int(rng.integers(2, min(w, 16) + 1)), int(rng.integers(2, min(h, 16) + 1))
            x0, y0 = int(rng.integers(w - rw + 1)), int(rng.integers(h - rh + 1))
            rects.append((x0, y0, x0 + rw - 1, y0 + rh - 1))
        for rect in rects:
            out.append(Case(f"random: game {g} ({n} players{gone}, {w}x{h}), round "
                            f"{s.round - 1}, player {p}, rectangle {rect}", RectGrid(view),
                            (p, rect)))
    return out


def _quitter(bot, at):
    """``bot`` until round ``at``, then an exception every turn: the game eliminates it."""
    def quitter(view, player):
        if view.round >= at:
            raise RuntimeError(f"stops answering at round {at}")
        return bot(view, player)
    return quitter
