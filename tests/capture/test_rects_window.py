"""The rectangle scan of a window around the player (tronlab.capture.rects_window): the best
rectangle of the window, scored as on the whole grid (the oracle: every score of the whole
grid's scan), and a rectangle bot that looks at no more rectangles a scan than its budget
on the largest grid while it plays the contest's grid exactly as before."""

import numpy as np
import pytest

from tronlab.capture import parse_grid, play_capture
from tronlab.capture import lshapes, rects
from tronlab.capture.enclosure import enclose
from tronlab.capture.lshapes import best_l_shape
from tronlab.capture.rects import rectangle_scores
from tronlab.capture.rects_bot import RectangleBot, l_squares
from tronlab.capture.rects_terms import RectTerms
from tronlab.capture.rects_window import (L_WINDOW, SCAN_BUDGET, l_shape_window,
                                          rectangles_examined, scan_window, window_around,
                                          window_side)
from tronlab.capture.state import MAX_SIDE


def brute_count(width, height, max_side):
    return sum(1 for w in range(2, max_side + 1) for h in range(2, max_side + 1)
               for _x in range(width - w + 1) for _y in range(height - h + 1))


def test_rectangles_examined_counts_every_rectangle_of_the_grid():
    for w, h, s in [(7, 5, 4), (5, 9, 16), (12, 3, 2), (2, 2, 2)]:
        assert rectangles_examined(w, h, s) == brute_count(w, h, s)


def test_the_window_is_the_largest_within_the_budget_and_stays_on_the_grid():
    for w, h in [(35, 20), (70, 40), (100, 100), (100, 7)]:
        s = window_side(w, h, 16)
        assert rectangles_examined(min(w, s), min(h, s), 16) <= SCAN_BUDGET
        assert s == max(w, h) or rectangles_examined(min(w, s + 1), min(h, s + 1),
                                                     16) > SCAN_BUDGET
    assert window_side(35, 20, 16) == 35            # the contest's grid is scanned whole
    for pos in [(0, 0), (99, 99), (50, 3), (70, 50)]:
        x0, y0, x1, y1 = window_around((100, 100), pos, 29)
        assert (x1 - x0, y1 - y0) == (28, 28) and x0 <= pos[0] <= x1 and y0 <= pos[1] <= y1
        assert 0 <= x0 and x1 <= 99 and 0 <= y0 and y1 <= 99


def random_case(rng, n_players, width=26, height=22):
    owner = rng.choice(np.array([-1, -1, -1, -1, 0, 1, 2, 3][:4 + n_players], np.int8),
                       size=(height, width))
    owner[rng.random((height, width)) < 0.5] = -1
    me = (int(rng.integers(width)), int(rng.integers(height)))
    # opponents near the player: some just outside the windows, for the proximity term
    opps = [(int(np.clip(me[0] + rng.integers(-9, 10), 0, width - 1)),
             int(np.clip(me[1] + rng.integers(-9, 10), 0, height - 1)))
            for _ in range(n_players - 1)]
    terms = RectTerms(max_side=8, proximity=int(rng.integers(1, 5)), border_free=1,
                      edge_bonus=1.5, proximity_divisor=3.0)
    options = dict(n_players=n_players, opponents=opps,
                   blocked=rng.random((height, width)) < 0.03,
                   aimed=rng.random((height, width)) < 0.05, needed=int(rng.integers(5, 60)),
                   terms=terms)
    if rng.random() < 0.5:
        x0, y0 = int(rng.integers(width - 3)), int(rng.integers(height - 3))
        options["prev"] = (x0, y0, x0 + 2, y0 + 2)
    return owner, me, options


@pytest.mark.parametrize("seed", range(24))
def test_the_window_finds_its_best_rectangle_as_the_whole_grid_scores_it(seed):
    rng = np.random.default_rng(seed)
    owner, me, options = random_case(rng, 2 + seed % 3)
    scores = rectangle_scores(owner, 0, me, **options)       # [y0, x0, h - 1, w - 1]
    for side in (9, 13):
        x0, y0, x1, y1 = window_around(owner.shape, me, side)
        inside = np.full(scores.shape, -1.0)
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                hh, ww = min(8, y1 - y + 1), min(8, x1 - x + 1)
                inside[y, x, :hh, :ww] = scores[y, x, :hh, :ww]
        got = scan_window(owner, 0, me, side=side, **options)
        assert x0 <= got.x0 < got.x1 <= x1 and y0 <= got.y0 < got.y1 <= y1
        assert got.score == inside.max()
        assert got.score == scores[got.y0, got.x0, got.y1 - got.y0, got.x1 - got.x0]


def test_an_opponent_just_left_of_the_window_still_halves_the_rectangles_near_it():
    # the kernel skips an opponent at a negative x: the window keeps proximity - 1 squares
    # of blocked ring on each side, so the opponent at (4, 4) stays at x >= 0
    g = parse_grid("""
        ....................
        ......0000..........
        ......0.............
        ......0.............
        ......0...a.........
        ......0.............
        ......0.............
        ......0000..........
        ....................
    """)
    options = dict(opponents=[(4, 4)], terms=RectTerms(max_side=8, proximity=3), needed=99)
    assert window_around(g.owner.shape, (10, 4), 9) == (6, 0, 14, 8)
    got = scan_window(g.owner, 0, (10, 4), side=9, **options)
    scores = rectangle_scores(g.owner, 0, (10, 4), **options)
    # x0 = 6 is 2 squares from the opponent: halved (1.5 -> 0.75), so x0 = 7 is the best
    assert scores[0, 6, 7, 7] == 0.75 and (got.x0, got.y0, got.x1, got.y1) == (7, 0, 14, 7)
    assert got.score == scores[0, 7, 7, 7]


def test_the_whole_grid_is_scanned_when_it_fits_the_window():
    rng = np.random.default_rng(5)
    owner, me, options = random_case(rng, 2)
    whole = rects.scan_rectangles(owner, 0, me, **options)
    assert scan_window(owner, 0, me, side=26, **options) == whole


def walk_score(owner, player, position, shape, constant):
    """An L-shaped walk's score on the whole grid, by the rules' own enclosure."""
    work = owner.copy()
    squares = l_squares(position, shape)
    for x, y in squares:
        work[y, x] = player if work[y, x] == -1 else work[y, x]
    gained = sum(owner[y, x] == -1 for x, y in squares) + enclose(work, player, *shape.end)[1]
    return gained / (shape.a + shape.b + 1 + constant)


@pytest.mark.parametrize("seed", range(8))
def test_an_l_shape_of_the_window_never_scores_more_than_on_the_whole_grid(seed):
    rng = np.random.default_rng(seed)
    owner = np.where(rng.random((40, 40)) < 0.4, 0, -1).astype(np.int8)
    owner[rng.random((40, 40)) < 0.05] = 1
    me = (int(rng.integers(40)), int(rng.integers(40)))
    whole = best_l_shape(owner, 0, me, constant=10.0)
    got = l_shape_window(owner, 0, me, side=15, constant=10.0)
    x0, y0, x1, y1 = window_around(owner.shape, me, 15)
    assert x0 <= got.end[0] <= x1 and y0 <= got.end[1] <= y1
    rescored = walk_score(owner, 0, me, got, 10.0)
    assert got.score <= rescored + 1e-12 and rescored <= whole.score + 1e-12
    assert l_shape_window(owner, 0, me, side=40, constant=10.0) == whole


def scanned_sizes(monkeypatch, module=rects, kernel_name="rect_scan_kernel"):
    """The (width, height) of every call of a kernel from now on."""
    sizes = []
    fast = module._kernels.fast

    def spy(name):
        kernel = fast(name)
        if name != kernel_name:
            return kernel

        def scan(*args):
            sizes.append((int(args[1]), int(args[2])))
            return kernel(*args)
        return scan

    monkeypatch.setattr(module._kernels, "fast", spy)
    return sizes


def test_on_the_largest_grid_each_scan_keeps_to_the_budget(monkeypatch):
    # the scan looked at all 1.9 million rectangles of a 100x100 grid (0.3 s a turn)
    sizes = scanned_sizes(monkeypatch)
    walks = scanned_sizes(monkeypatch, lshapes, "l_scan_kernel")
    rec = play_capture([RectangleBot(), RectangleBot()], rng=4, width=MAX_SIDE,
                       height=MAX_SIDE, round_limit=4)
    assert rec.outcome["turns"] >= 3 and len(sizes) >= 6       # itself and the opponent
    pad = 2                                                     # the blocked ring
    for w, h in sizes:
        assert rectangles_examined(w - pad, h - pad, 16) <= SCAN_BUDGET
    assert walks and all(w <= L_WINDOW and h <= L_WINDOW for w, h in walks)


def test_the_contest_grid_is_played_exactly_as_with_the_whole_grid_scanned():
    games = [play_capture([RectangleBot(scan_budget=budget), "nearest"], rng=11,
                          round_limit=25).actions for budget in (SCAN_BUDGET, None)]
    assert games[0] == games[1]
    with pytest.raises(ValueError, match="scan_budget must be an int >= 1"):
        RectangleBot(scan_budget=0)
