"""Enclosure kernels (tronlab.capture.enclosure) against scipy.ndimage's 8-connected labels."""

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

import tronlab
from tronlab.capture.ascii import format_grid, parse_grid
from tronlab.capture.enclosure import enclose, neutral_region

from .enclosure_oracle import scipy_enclose, scipy_regions


@st.composite
def owner_grids(draw, max_side=12):
    """Random owner grids: each square neutral with a drawn probability, else one
    of up to four owners (mostly player 0, so that closed regions occur)."""
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    neutral = draw(st.floats(0.0, 1.0))
    others = draw(st.floats(0.0, 0.3))
    owner = np.where(rng.random((h, w)) < others, rng.integers(1, 4, (h, w)), 0)
    owner[rng.random((h, w)) < neutral] = -1
    return owner.astype(np.int8)


def squares(mask):
    ys, xs = np.nonzero(mask)
    return {(int(x), int(y)) for x, y in zip(xs, ys)}


@settings(max_examples=EXAMPLES, deadline=None)
@given(owner_grids(), st.data(), st.booleans())
def test_neutral_region_matches_scipy(owner, data, jit):
    h, w = owner.shape
    x = data.draw(st.integers(0, w - 1))
    y = data.draw(st.integers(0, h - 1))
    labels = scipy_regions(owner)
    want = squares(labels == labels[y, x]) if labels[y, x] else set()
    assert neutral_region(owner, x, y, jit=jit) == want


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(owner_grids(), st.data(), st.booleans())
def test_enclose_matches_scipy(owner, data, jit):
    h, w = owner.shape
    x = data.draw(st.integers(0, w - 1))
    y = data.draw(st.integers(0, h - 1))
    player = data.draw(st.integers(0, 3))
    want = scipy_enclose(owner, player, x, y)
    got, taken = enclose(owner, player, x, y, jit=jit)
    assert got.tolist() == want.tolist()
    assert taken == int(np.count_nonzero(want != owner))


def test_twin_and_kernel_agree_on_a_full_size_grid():
    rng = np.random.default_rng(16)
    owner = np.where(rng.random((20, 35)) < 0.5, -1, rng.integers(0, 2, (20, 35))).astype(np.int8)
    owner[5:12, 5:15] = 0
    owner[6:11, 6:14] = -1
    a, na = enclose(owner, 0, 5, 8, jit=True)
    b, nb = enclose(owner, 0, 5, 8, jit=False)
    assert na == nb == 40 and (a == b).all()


def test_a_diagonal_gap_leaks():
    owner = parse_grid("""
        .....
        .00..
        .0.0.
        .000.
        .....
    """).owner
    assert enclose(owner, 0, 1, 2)[1] == 0       # (2, 2) leaks through (3, 1) to the edge
    owner[1, 3] = 0
    new, taken = enclose(owner, 0, 1, 2)
    assert taken == 1 and new[2, 2] == 0


def test_region_touching_another_players_square_diagonally_is_not_taken():
    text = """
        .....
        .000.
        .0.0.
        .000.
        ....1
    """
    owner = parse_grid(text).owner
    new, taken = enclose(owner, 0, 1, 1)
    assert taken == 1 and new[2, 2] == 0
    owner[3, 3] = 1          # the loop's own corner now belongs to player 1
    assert enclose(owner, 0, 1, 1)[1] == 0
    assert format_grid(owner) == format_grid(parse_grid(text).owner).replace(
        ".000.\n....1", ".001.\n....1")


@pytest.mark.parametrize("jit", [True, False])
def test_the_square_the_player_stands_on_seeds_no_region(jit):
    """games.md: the neutral squares *among the 8 around* the player are flooded.  Its own
    square, left neutral when two players share it, is taken only as part of a region
    seeded next to it.  Random grids rarely put a player on a neutral square walled in
    by its own eight, so a kernel that also flooded from there passed them."""
    owner = parse_grid("""
        ......
        .0000.
        .0.00.
        .0000.
        ......
    """).owner
    new, taken = enclose(owner, 0, 2, 2, jit=jit)       # on a shared, neutral square
    assert taken == 0 and new[2, 2] == -1
    assert new.tolist() == scipy_enclose(owner, 0, 2, 2).tolist() == owner.tolist()
    owner[2, 3] = -1        # a neighbour opens into the centre: seeded there, both are taken
    new, taken = enclose(owner, 0, 2, 2, jit=jit)
    assert taken == 2 and new[2, 2] == new[2, 3] == 0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="int8"):
        neutral_region(np.zeros((3, 3), int), 0, 0)
    with pytest.raises(ValueError, match="off the"):
        neutral_region(np.zeros((3, 3), np.int8), 3, 0)


def test_kernels_are_numba_dispatchers_with_plain_python_twins():
    from tronlab.capture import enclosure

    kernel = enclosure.enclose_kernel
    assert hasattr(kernel, "signatures") and kernel.py_func is enclosure._kernels.py_func(
        "enclose_kernel")
    assert enclosure._kernels.names == ["neutral_region_kernel", "enclose_kernel"]


def test_a_scan_leaves_the_grid_alone_and_stamps_carry_over_calls():
    """``write=False`` counts without writing; the stamps of one call do not
    hide a region from the next (they only grow)."""
    from tronlab.capture import enclosure

    owner = parse_grid("""
        .....
        .000.
        .0.0.
        .000.
        .....
    """).owner.reshape(-1)
    before = owner.copy()
    stamp, nxt = enclosure.new_stamps(owner.size)
    region = np.empty(owner.size, np.int32)
    for jit in (True, False):
        take = enclosure._kernel("enclose_kernel", jit)
        for _ in range(3):
            n = take(owner, np.int64(5), np.int64(5), np.int64(0), np.int64(1), np.int64(1),
                     False, stamp, nxt, region)
            assert n == 1 and (owner == before).all()
    assert take(owner, np.int64(5), np.int64(5), np.int64(0), np.int64(1), np.int64(1),
                True, stamp, nxt, region) == 1
    assert owner[12] == 0 and (owner != before).sum() == 1


def test_importing_the_game_does_not_import_numba():
    code = ("import sys, tronlab.capture, tronlab.capture.game, tronlab.capture.program, "
            "tronlab.capture.arena; print('numba' in sys.modules)")
    root = os.path.dirname(os.path.dirname(tronlab.__file__))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
