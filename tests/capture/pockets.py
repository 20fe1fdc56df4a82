"""Grids with pockets on purpose, for the enclosure and closing tests.

Random scatters (``small_games`` in test_rects.py) close a pocket in about one
grid in forty, so a kernel that never closes one passes them.  ``pocket_grids``
draws one to three rings of player 0's squares around a few neutral squares
and then spoils some of them the ways the rule cares about: a gap in the ring
(a walk through it closes the pocket), another player's square on the ring or
inside (the pocket is never player 0's), a square of player 0 inside (two
pockets).  Most drawn grids hold a pocket player 0 could take.
"""

import numpy as np
from hypothesis import strategies as st

KINDS = ("closed", "closed", "closed", "split", "gap", "gap", "rival_on_ring", "rival_inside")


def scatter(draw, rng, w, h, mine, theirs):
    """A ``h`` x ``w`` owner grid, neutral (-1) but for player 0's squares drawn
    with a chance of up to ``mine`` and then player 1's up to ``theirs``."""
    owner = np.where(rng.random((h, w)) < draw(st.floats(0, mine)), 0, -1)
    owner[rng.random((h, w)) < draw(st.floats(0, theirs))] = 1
    return owner.astype(np.int8)


def _ring(x0, y0, x1, y1):
    return [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)
            if x in (x0, x1) or y in (y0, y1)]


@st.composite
def pocket_grids(draw, max_w=9, max_h=8):
    """``(owner, position)``: a sparse random grid (player 0 and player 1) with
    pockets drawn on it; the position is a gap of a ring, a ring square or any
    square, so that L-shaped walks from it close pockets."""
    w = draw(st.integers(3, max_w))
    h = draw(st.integers(3, max_h))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    owner = scatter(draw, rng, w, h, 0.3, 0.1)
    near = []
    for _ in range(draw(st.integers(1, 3))):
        iw = draw(st.integers(1, min(3, w - 2)))
        ih = draw(st.integers(1, min(3, h - 2)))
        x0 = draw(st.integers(0, w - iw - 2))
        y0 = draw(st.integers(0, h - ih - 2))
        x1, y1 = x0 + iw + 1, y0 + ih + 1
        ring = _ring(x0, y0, x1, y1)
        for x, y in ring:
            owner[y, x] = 0
        owner[y0 + 1:y1, x0 + 1:x1] = -1
        inside = (x0 + 1 + draw(st.integers(0, iw - 1)), y0 + 1 + draw(st.integers(0, ih - 1)))
        on_ring = draw(st.sampled_from(ring))
        kind = draw(st.sampled_from(KINDS))
        if kind == "gap":
            owner[on_ring[1], on_ring[0]] = -1
        elif kind == "rival_on_ring":
            owner[on_ring[1], on_ring[0]] = 1
        elif kind == "rival_inside":
            owner[inside[1], inside[0]] = 1
        elif kind == "split":
            owner[inside[1], inside[0]] = 0
        near.append(on_ring)
    pos = draw(st.sampled_from(near) | st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)))
    return owner, pos
