"""Rectangle and L-shape scans (tronlab.capture.rects) against brute force on small grids."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from .enclosure_oracle import scipy_enclose
from .pockets import pocket_grids, scatter
from .rects_oracle import all_l_scores, all_rect_scores, best_l_walk, border_squares, fewest_turns
from strategies import EXAMPLES

from tronlab.capture.ascii import parse_grid
from tronlab.capture.lshapes import best_l_shape, closed_gain
from tronlab.capture.rects import border_cycle, rectangle_scores, scan_rectangles
from tronlab.capture.rects_terms import RectTerms, needed_to_win

SWITCHES = sorted(RectTerms.OFF)


@st.composite
def small_games(draw, max_w=8, max_h=7):
    """A random owner grid (mostly neutral and player 0), the player's square,
    up to two opponents' squares, an aimed mask and switched-off terms."""
    w = draw(st.integers(2, max_w))
    h = draw(st.integers(2, max_h))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    owner = scatter(draw, rng, w, h, 0.6, 0.15)
    pos = (int(rng.integers(w)), int(rng.integers(h)))
    opponents = [(int(rng.integers(w)), int(rng.integers(h)))
                 for _ in range(draw(st.integers(0, 2)))]
    aimed = rng.random((h, w)) < draw(st.sampled_from([0, 0, 0.05]))
    off = draw(st.lists(st.sampled_from(SWITCHES), unique=True, max_size=4))
    n_players = draw(st.integers(2, 4))
    terms = RectTerms(max_side=draw(st.integers(2, 8)), size_limit=(4, 3, 3), border_free=1)
    return owner, pos, opponents, aimed, terms.without(*off), n_players


def _check_scan(game, jit):
    owner, pos, opponents, aimed, terms, n = game
    h, w = owner.shape
    params = terms.params(n, w)
    need = needed_to_win(owner, 0)
    prev = (0, 0, 1, 1)
    kw = dict(blocked=np.zeros(owner.shape, bool), aimed=aimed, opponents=opponents,
              needed=need, prev=prev)
    want = all_rect_scores(owner, 0, pos, params, **kw)
    got = rectangle_scores(owner, 0, pos, n_players=n, terms=terms, opponents=opponents,
                           aimed=aimed, needed=need, prev=prev, jit=jit)
    for (x0, y0, x1, y1), score in want.items():
        assert got[y0, x0, y1 - y0, x1 - x0] == pytest.approx(score), (x0, y0, x1, y1)
    assert np.count_nonzero(got >= 0) == len(want)
    best = scan_rectangles(owner, 0, pos, n_players=n, terms=terms, opponents=opponents,
                           aimed=aimed, needed=need, prev=prev, jit=jit)
    assert best.score == pytest.approx(max(want.values(), default=-1))
    rect = (best.x0, best.y0, best.x1, best.y1)
    if best.score > 0:
        assert want[rect] == pytest.approx(best.score)
        t, _, _ = fewest_turns(owner, 0, pos, border_squares(*rect), params[3], params[4])
        assert best.turns == t
        # the reported start and direction really take that many turns
        cycle = border_squares(*rect)
        ex, ey = cycle[best.entry]
        todo = {sq for sq in cycle if owner[sq[1], sq[0]] != 0}
        walk = next(k for k in range(len(cycle))
                    if todo <= {cycle[(best.entry + best.direction * j) % len(cycle)]
                                for j in range(k + 1)})
        assert params[3] * (abs(pos[0] - ex) + abs(pos[1] - ey)) + walk + 1 + params[4] == t


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_games())
def test_rectangle_scores_match_brute_force(game):
    _check_scan(game, jit=True)


@settings(max_examples=10, deadline=None)
@given(small_games(max_w=5, max_h=5))
def test_plain_python_twin_matches_brute_force(game):
    _check_scan(game, jit=False)


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_games())
def test_the_pruning_bounds_never_undercut_a_rectangle(game):
    """scan_rectangles skips a rectangle when ``_most / _fewest_turns_bound`` is at most
    the best score so far: the turns must bound brute force's fewest turns from below
    and the quotient every score from above.  The scans' own tests meet a too tight
    bound only when it hides the best rectangle (a near tie): one that counted a turn
    too many passed them."""
    from tronlab.capture import rects

    owner, pos, opponents, aimed, terms, n = game
    h, w = owner.shape
    params = terms.params(n, w)
    (cap, win_bonus, _, approach, constant, _, _, border_bonus, border_col, _, edge_bonus,
     _, _, _, stable, _) = params
    need = needed_to_win(owner, 0)
    prev = (0, 0, 1, 1)
    want = all_rect_scores(owner, 0, pos, params, blocked=np.zeros(owner.shape, bool),
                           aimed=aimed, opponents=opponents, needed=need, prev=prev)
    plane = (h + 1) * (w + 1)
    pre = np.zeros(4 * plane, np.int64)             # the kernel reads plane 3: own squares
    pre[3 * plane:].reshape(h + 1, w + 1)[1:, 1:] = (owner == 0).cumsum(0).cumsum(1)
    fewest_bound = rects._kernels.plain("_fewest_turns_bound")
    most = rects._kernels.plain("_most")
    for (x0, y0, x1, y1), score in want.items():
        neutral = int(np.count_nonzero(owner[y0:y1 + 1, x0:x1 + 1] == -1))
        if neutral == 0:
            continue                                # scored 0 without the bound
        turns = fewest_bound(pre, 3 * plane, w + 1, x0, y0, x1, y1, pos[0], pos[1], approach,
                             constant)
        fewest, _, _ = fewest_turns(owner, 0, pos, border_squares(x0, y0, x1, y1), approach,
                                    constant)
        assert turns <= fewest, (x0, y0, x1, y1)
        top = most(neutral, need, cap, win_bonus, x0, y0, x1, y1, border_col, border_bonus,
                   edge_bonus, w, h, prev, stable)
        assert top / turns >= score - 1e-12, (x0, y0, x1, y1)


def test_border_cycle_is_the_oracles_walk():
    for rect in [(0, 0, 1, 1), (2, 1, 5, 3), (0, 0, 6, 1)]:
        assert border_cycle(*rect) == border_squares(*rect)


def test_best_rectangle_entry_and_turns_are_the_fewest():
    g = parse_grid("""
        A00...
        0.0...
        0.....
    """)
    r = scan_rectangles(g.owner, 0, (0, 0), terms=RectTerms().without("player_constant"))
    # seven steps east then down and back west: (1,0) ... (1,2), then the closing turn
    assert (r.x0, r.y0, r.x1, r.y1, r.turns, r.points) == (0, 0, 3, 2, 8, 4)
    cycle = border_cycle(0, 0, 3, 2)
    assert fewest_turns(g.owner, 0, (0, 0), cycle, 2, 0) == (8, r.entry, r.direction)


GRID = """
    ..........
    ..........
    ....a.....
    ..........
    ........b.
    ..........
"""


def _score(terms, rect, *, n=2, **kw):
    g = parse_grid(GRID)
    scores = rectangle_scores(g.owner, 0, g.positions[0], n_players=n, terms=terms, **kw)
    x0, y0, x1, y1 = rect
    return scores[y0, x0, y1 - y0, x1 - x0]


@pytest.mark.parametrize("term, rect, factor, kw", [
    ("win_bonus", (3, 1, 6, 4), 2.0, {"needed": 5}),
    ("proximity_divisor", (3, 1, 6, 4), 0.5, {"opponents": [(7, 4)]}),
    ("aimed_divisor", (3, 1, 6, 4), 0.1, {"aimed": np.eye(6, 10, 2, dtype=bool)}),
    ("stability_bonus", (3, 1, 6, 4), 1.1, {"prev": (3, 1, 6, 4)}),
    ("border_bonus", (5, 0, 8, 5), 1.0, {}),        # side on column 5 has only 6 squares
])
def test_each_multiplier_is_its_factor(term, rect, factor, kw):
    terms = RectTerms()
    on, off = _score(terms, rect, **kw), _score(terms.without(term), rect, **kw)
    assert on == pytest.approx(off * factor)


def test_border_bonus_on_a_tall_grid():
    owner = np.full((14, 35), -1, np.int8)
    scores = rectangle_scores(owner, 0, (17, 6), needed=999)
    plain = rectangle_scores(owner, 0, (17, 6), needed=999,
                             terms=RectTerms().without("border_bonus"))
    assert scores[1, 17, 11, 3] == pytest.approx(2 * plain[1, 17, 11, 3])   # 12 free > 10
    assert scores[1, 16, 11, 3] == pytest.approx(plain[1, 16, 11, 3])       # not on column 17


def test_edge_bonus_only_with_three_or_four_players():
    for n, factor in ((2, 1.0), (3, 1.1), (4, 1.1)):
        on = _score(RectTerms(), (0, 0, 3, 3), n=n)
        off = _score(RectTerms().without("edge_bonus"), (0, 0, 3, 3), n=n)
        assert on == pytest.approx(off * factor)


def test_size_penalty_and_doubled_approach():
    owner = np.full((20, 35), -1, np.int8)
    big = rectangle_scores(owner, 0, (0, 0), needed=999)
    flat = rectangle_scores(owner, 0, (0, 0), needed=999, terms=RectTerms().without("size_divisor"))
    assert big[0, 0, 14, 14] == pytest.approx(flat[0, 0, 14, 14] / 2)     # 15 > 14
    assert big[0, 0, 13, 13] == pytest.approx(flat[0, 0, 13, 13])
    # a 4x4 square 3 steps away: 2*3 + 11 + 1 + 10 turns against 3 + 11 + 1 + 10
    one = rectangle_scores(owner, 0, (0, 0), needed=999, terms=RectTerms().without("approach"))
    assert big[0, 3, 3, 3] == pytest.approx(16 / 28)
    assert one[0, 3, 3, 3] == pytest.approx(16 / 25)


def test_enemy_square_zeroes_and_thin_areas_score_below_one():
    g = parse_grid("""
        a....
        ..1..
        .....
    """)
    scores = rectangle_scores(g.owner, 0, (0, 0))
    assert scores[0, 0, 2, 2] == 0 and scores[0, 0, 1, 1] > 0
    assert scores[0, 0, 2, 1] < 1 and scores[0, 0, 1, 4] < 0.1


def test_needed_to_win_counts_the_best_opponent():
    g = parse_grid("""
        00111
        .....
    """)
    # 2 + k > 3 + (5 - k)  ->  k >= 4 (3 would tie)
    assert needed_to_win(g.owner, 0) == 4
    assert needed_to_win(g.owner, 0, active=[0]) == 2


def test_needed_to_win_beats_an_eliminated_players_fixed_score():
    # before: with player 1 out (active=[0, 2]) its 6 squares were left out, and 1 more
    # square 'won' for player 0 (2 + 1 > 0 + 0), while the game ranks player 1 above
    # 3; its score cannot grow, so 5 are needed (2 + 5 > 6), not 4 as if it could grow and
    # share the 3 free squares with player 0 (2 + 4 > 6 + (3 - 4))
    g = parse_grid("""
        001111
        11..2.
    """)
    brute = min(k for k in range(20) if 2 + k > 6 and 2 + k > 1 + (3 - k))
    assert needed_to_win(g.owner, 0, active=[0, 2]) == brute == 5
    assert needed_to_win(g.owner, 0) == 4        # all three still in


def test_terms_reject_unknown_names_and_player_counts():
    with pytest.raises(ValueError, match="no switchable term 'nope'"):
        RectTerms().without("nope")
    with pytest.raises(ValueError, match="n_players must be 2, 3 or 4"):
        RectTerms().params(5)
    with pytest.raises(ValueError, match="owner must be a 2-D int8 array"):
        scan_rectangles(np.zeros((3, 3)), 0, (0, 0))


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_games(max_w=7, max_h=6) | pocket_grids(max_w=7, max_h=6), st.integers(1, 6),
       st.sampled_from([0.0, 4.0]))
def test_l_shapes_match_brute_force(game, max_len, constant):
    """The whole answer, not only the score: the walk (first tie in the kernel's
    order), the squares it brings and where it ends."""
    owner, pos = game[0], game[1]
    want = best_l_walk(owner, 0, pos, max_len, constant)
    got = best_l_shape(owner, 0, pos, max_len=max_len, constant=constant)
    if want is None:
        assert got.score == -1 or got.score == pytest.approx(-1)
        return
    assert got.score == pytest.approx(want[0])
    assert tuple(got)[1:] == want[1:]


@pytest.mark.parametrize("jit", [True, False])
def test_an_l_walk_does_not_see_squares_an_earlier_walk_took(jit):
    """The scan marks each walk's squares in a work copy and puts them back.  Here
    only the walk's last square (5, 1), max_len steps out, opens the pocket of six to
    the edge: the best walk ends there, 7 squares in 5 turns.  A scan that put back
    one square short (range(1, max_len)) left (5, 1) taken for the walks after, and
    two steps east then 'closed' the pocket (6 in 3 turns): the random grids, where
    such a square is rare, did not see it."""
    g = parse_grid("""
        11111.11
        1A000.01
        1110..01
        1110..01
        1110..01
        11100001
        11111111
    """)
    want = best_l_walk(g.owner, 0, g.positions[0], 4, 0.0)
    assert want == (1.4, 0, -1, 4, 0, 7, (5, 1))
    got = best_l_shape(g.owner, 0, g.positions[0], max_len=4, jit=jit)
    assert got.score == pytest.approx(want[0]) and tuple(got)[1:] == want[1:]


def test_l_shape_closes_a_pocket_of_own_squares():
    g = parse_grid("""
        .......
        .0000..
        .0...A.
        .0000..
        .......
    """)
    best = best_l_shape(g.owner, 0, g.positions[0])
    # one step west takes (4, 2) and closes (2, 2), (3, 2): 3 squares over 1 + 1 turns
    assert best == (1.5, 2, -1, 1, 0, 3, (4, 2))
    want = all_l_scores(g.owner, 0, g.positions[0], 20, 0.0)
    assert best.score == pytest.approx(max(want.values()))


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_games(max_w=9, max_h=8) | pocket_grids(), st.booleans())
def test_closed_gain_is_what_the_enclosure_oracle_takes(game, jit):
    owner = game[0]
    before = owner.copy()
    h, w = owner.shape
    for y in range(h):
        for x in range(w):
            want = int(np.count_nonzero(scipy_enclose(before, 0, x, y) != before))
            assert closed_gain(owner, 0, x, y, jit=jit) == want, (x, y)
            assert (owner == before).all()      # counted, not taken


@pytest.mark.parametrize("path", ["numba", "twin", "plain"])
def test_closed_gain_takes_a_games_read_only_grid(monkeypatch, path):
    """A game's grid is frozen (read-only); numba types such an array apart
    and refuses a kernel that could write it, so the wrapper must not pass it."""
    from tronlab.capture import enclosure

    if path == "numba":
        monkeypatch.setattr(enclosure._kernels, "fast", enclosure._kernels.jit)
    owner = parse_grid("""
        000.
        0.0.
        000.
    """).owner
    owner.setflags(write=False)
    assert closed_gain(owner, 0, 2, 1, jit=path != "plain") == 1


def test_l_scan_twin_and_kernel_agree_on_a_real_grid():
    rng = np.random.default_rng(5)
    owner = np.where(rng.random((20, 35)) < 0.35, 0, -1).astype(np.int8)
    owner[rng.random((20, 35)) < 0.05] = 1
    a = best_l_shape(owner, 0, (10, 10), jit=True)
    b = best_l_shape(owner, 0, (10, 10), jit=False)
    assert a == b


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_games(max_w=9, max_h=8) | pocket_grids(), st.integers(1, 8),
       st.sampled_from([0.0, 4.0, 10.0]))
def test_l_scan_twin_and_kernel_agree_on_random_grids(game, max_len, constant):
    owner, pos = game[0], game[1]
    a = best_l_shape(owner, 0, pos, max_len=max_len, constant=constant, jit=True)
    b = best_l_shape(owner, 0, pos, max_len=max_len, constant=constant, jit=False)
    assert a == b


@pytest.mark.parametrize("seed", [1, 2])
def test_pruned_scan_twin_and_kernel_agree_on_a_real_grid(seed):
    """The pruned scan (no score table) on a 35x20 grid: the kernel and its plain twin pick
    the same rectangle, start and direction, and the unpruned table's best agrees."""
    rng = np.random.default_rng(seed)
    owner = np.where(rng.random((20, 35)) < 0.3, 0, -1).astype(np.int8)
    owner[rng.random((20, 35)) < 0.04] = 1
    kw = dict(n_players=3, opponents=[(30, 15)], prev=(3, 3, 8, 7))
    a = scan_rectangles(owner, 0, (12, 9), jit=True, **kw)
    b = scan_rectangles(owner, 0, (12, 9), jit=False, **kw)
    assert a == b and a.score > 0
    table = rectangle_scores(owner, 0, (12, 9), **kw)
    assert table.max() == pytest.approx(a.score)
    assert table[a.y0, a.x0, a.y1 - a.y0, a.x1 - a.x0] == pytest.approx(a.score)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_player_constant_is_the_write_ups_count_of_extra_turns(n):
    """Switching the constant off takes exactly 10, 6 or 4 turns off every rectangle."""
    owner = np.full((8, 10), -1, np.int8)
    on = scan_rectangles(owner, 0, (0, 0), n_players=n, needed=999,
                         terms=RectTerms().only("approach", "player_constant"))
    off = scan_rectangles(owner, 0, (0, 0), n_players=n, needed=999,
                          terms=RectTerms().only("approach"))
    rect = (on.x0, on.y0, on.x1, on.y1)
    again = rectangle_scores(owner, 0, (0, 0), n_players=n, needed=999,
                             terms=RectTerms().only("approach"))[on.y0, on.x0, on.y1 - on.y0,
                                                                 on.x1 - on.x0]
    assert on.points / on.turns == pytest.approx(on.score)
    assert again == pytest.approx(on.points / (on.turns - {2: 10, 3: 6, 4: 4}[n]))
    assert off.score >= again and rect != (0, 0, 0, 0)


def test_a_frozen_grid_compiles_nothing_the_warm_up_did_not(monkeypatch):
    """A bot warms its kernels up on a fresh grid and then plays on the game's
    frozen (read-only) one: that must not make numba compile again mid-game
    (seconds, while the turn has 100 ms)."""
    from tronlab.capture import opponent, paths
    from tronlab.capture.warmup import run_every_kernel
    from tronlab.jit.kernels import KernelTable, compiled_versions, versions_added

    monkeypatch.setattr(KernelTable, "fast", KernelTable.jit)     # numba, not the twins
    run_every_kernel()
    before = compiled_versions()
    owner = np.full((5, 6), -1, np.int8)
    owner[2, 2] = 0
    owner.setflags(write=False)
    arrival = np.full((5, 6), 9, np.int64)
    arrival.setflags(write=False)
    scan_rectangles(owner, 0, (2, 2), aimed=np.zeros((5, 6), bool))
    best_l_shape(owner, 0, (2, 2))
    closed_gain(owner, 0, 2, 2)
    opponent.predict(owner, [((4, 4), (1, 0), 0)], rounds=3)
    paths.search_paths(owner, 0, (2, 2), max_nodes=50, arrival=arrival)
    assert versions_added(before) == {}
