"""A9: separation turn, moves after it, features and the least-squares fit.

Oracles: hand-worked games on tiny boards, a plain-Python BFS for the separation
turn, and the normal equations for the fit; the fit must recover known weights
from synthetic samples.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tronlab import Board, get_bot, play, random_map
from tronlab.tron.board import DOWN, LEFT, RIGHT, UP
from tronlab.course.ex_learning import scripted
from tronlab.tron.learn import (Sample, draw_fit, fit_weights, moves_after, prediction_error,
                                sample_from_record, samples_from_records, separation_turn)

from strategies import EXAMPLES


def test_a_hand_worked_game():
    # two mirrored 3x2 rooms; player 1 runs into the divider on its 3rd move
    start = Board.from_ascii("""
        1..#...
        ...#..2
    """)
    rec = play(start, [scripted([RIGHT, RIGHT, DOWN, LEFT]), scripted([UP, LEFT, LEFT, LEFT])])
    assert rec.outcome.winner == 0 and rec.outcome.turns == 4
    assert separation_turn(rec.boards()) == 0
    # player 1: UP, LEFT, LEFT are good moves ((6,0), (5,0), (4,0)); its 4th enters the divider.
    # player 0 survives 4 moves and then has 1 square left, which the filler takes.
    assert moves_after(rec, 0) == (4 + 1, 3)
    s = sample_from_record(rec)
    assert s == Sample(0, 0, 0, 5, 3) and s.target == 2      # mirrored rooms: equal counts


def test_separation_later_in_the_game():
    # player 0 draws a wall along the second row and turns up on its 5th move: from then on
    # it owns the top row, player 1 the free part of the bottom rows
    start = Board.from_ascii("""
        .....
        1....
        .....
        ....2
    """)
    rec = play(start, [scripted([RIGHT, RIGHT, RIGHT, RIGHT, UP, LEFT]),
                       scripted([LEFT, LEFT, LEFT, LEFT, UP, RIGHT])])
    boards = rec.boards()
    assert separation_turn(boards) == 5 == oracle_separation(boards)
    # both then fill their 4 squares and leave the board on turn 10: a draw
    assert rec.outcome.winner is None and rec.outcome.turns == 10
    # 4 squares each; edges: 1 + 2 + 2 + 1 on either side
    assert sample_from_record(rec) == Sample(5, 0, 0, 4, 4)


def test_a_game_that_never_separates_gives_no_sample():
    start = Board.from_ascii("1.2")
    rec = play(start, [scripted([RIGHT]), scripted([LEFT])])      # head-on
    assert rec.outcome.winner is None
    assert separation_turn(rec.boards()) is None
    assert sample_from_record(rec) is None
    assert samples_from_records([rec]) == []


def test_moves_after_checks_its_turn():
    rec = play(Board.from_ascii("1.#.2"), [scripted([RIGHT, LEFT]), scripted([LEFT, RIGHT])])
    with pytest.raises(ValueError, match="turn"):
        moves_after(rec, rec.outcome.turns + 1)


def oracle_separation(boards):
    """First board on which both are alive and no path of free squares joins the heads."""
    for i, b in enumerate(boards):
        if not (b.alive[0] and b.alive[1]):
            return None
        rows = b.to_ascii().splitlines()
        h, w = len(rows), len(rows[0])
        (y0, x0), (y1, x1) = (divmod(c, w) for c in _heads_yx(rows))
        seen, todo, meet = {(y0, x0)}, deque([(y0, x0)]), False
        while todo and not meet:
            y, x = todo.popleft()
            for ny, nx in ((y - 1, x), (y, x + 1), (y + 1, x), (y, x - 1)):
                if (ny, nx) == (y1, x1):
                    meet = True
                elif 0 <= ny < h and 0 <= nx < w and (ny, nx) not in seen \
                        and rows[ny][nx] == ".":
                    seen.add((ny, nx))
                    todo.append((ny, nx))
        if not meet:
            return i
    return None


def _heads_yx(rows):
    """Each head as a row-major index into the ASCII picture ``rows``."""
    w = len(rows[0])
    return [next(y * w + x for y, r in enumerate(rows) for x, c in enumerate(r) if c == str(p + 1))
            for p in (0, 1)]


@settings(max_examples=EXAMPLES // 4 or 10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_separation_turn_against_a_plain_bfs(seed):
    rng = np.random.default_rng(seed)
    board = random_map(9, 7, rng=rng, density=0.15)
    rec = play(board, [get_bot("random"), get_bot("hugger")], rng=seed)
    assert separation_turn(rec.boards()) == oracle_separation(rec.boards())


def test_fit_recovers_known_weights_within_two_percent():
    rng = np.random.default_rng(2010)
    k1, k2 = 0.055, 0.194
    samples = []
    for _ in range(3000):
        dn = int(rng.integers(-300, 301))
        de = int(rng.integers(-1200, 1201))
        noise = rng.normal(0, 3)
        target = int(round(k1 * dn + k2 * de + noise))
        samples.append(Sample(0, dn, de, 100 + target, 100))
    fit = fit_weights(samples)
    assert abs(fit.k1 - k1) / k1 < 0.02 and abs(fit.k2 - k2) / k2 < 0.02
    assert fit.n == 3000 and 2.5 < fit.rmse < 3.5
    # the normal equations give the same weights
    x = np.array([[s.dn, s.de] for s in samples], float)
    y = np.array([s.target for s in samples], float)
    want = np.linalg.solve(x.T @ x, x.T @ y)
    assert np.allclose([fit.k1, fit.k2], want, rtol=1e-9)
    assert prediction_error(samples, fit.k1, fit.k2) == pytest.approx(fit.rmse)


def test_fit_refuses_too_little_data():
    with pytest.raises(ValueError, match="at least 2 samples"):
        fit_weights([Sample(0, 1, 2, 3, 0)])
    with pytest.raises(ValueError, match="proportional"):
        fit_weights([Sample(0, 1, 2, 3, 0), Sample(0, 2, 4, 6, 0)])


def test_the_regression_picture_centres_its_colours_on_a_level_game():
    # the colour scale ran from the lowest to the highest outcome, so with more lopsided
    # wins for one side its white (the middle) was not 0, a level game
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    samples = [Sample(0, dn, 3 * dn, 100 + dn, 100) for dn in (-40, -10, 0, 5, 20, 90, 200)]
    fig = draw_fit(samples, {"fitted": (0.5, 0.2)})
    dots = fig.axes[0].collections[0]
    assert dots.norm.vmin == -dots.norm.vmax == -200
    assert dots.norm(0) == 0.5                      # white is a level game
    assert fig.axes[2].get_ylabel() == "moves0 - moves1"          # the colour bar
    plt.close(fig)
