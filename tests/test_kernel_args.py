"""A kernel called from Python refuses wrong arguments with one clear error, under
the AOT twins and under numba alike: never a crash of the interpreter, never a numba
traceback (tronlab.jit.argcheck, the guards of tronlab.grid.guards).  The calls are
the ones the notebooks show (notebook 02's flood fill with numpy's default float
stack, the start square of 10**9, ...)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from aot_support import child_env

from tronlab import load_builtin
from tronlab.grid import flood
from tronlab.grid.flood import components_kernel, flood_fill_kernel
from tronlab.jit import aot
from tronlab.jit.argcheck import guarded
from tronlab.nash import saddle
from tronlab.tron.evaluate import multi_score_kernel

ROOT = Path(__file__).resolve().parents[1]
BOARD = load_builtin("arena")
N = BOARD.flat.size
H, S = np.int64(BOARD.heads[0]), np.int64(BOARD.stride)

BAD_TYPES = [
    ((BOARD.flat, H, S, np.zeros(N, np.uint8), np.zeros(N)),
     r"argument 5 'stack' must be a 1-d int32 array \(C-contiguous, writeable\), got a 1-d "
     r"float64 array"),
    ((BOARD.flat, H, S, np.zeros(N, np.uint8), np.zeros(N, int)),
     r"'stack' must be a 1-d int32 array.*got a 1-d int64 array"),
    ((BOARD.flat, H, S, [0] * N, np.zeros(N, np.int32)), r"'seen' must be .*uint8.*got list"),
    ((BOARD.flat, 5.0, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)),
     r"'start' must be an int, got float 5.0"),
    ((BOARD.flat, True, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)),
     r"'start' must be an int"),
    ((BOARD.cells, H, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)),
     r"'flat' must be a 1-d uint8 array.*got a 2-d uint8 array"),
    ((np.repeat(BOARD.flat, 2)[::2], H, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)),
     r"'flat' must be .*C-contiguous.*not C-contiguous"),
    ((BOARD.flat, H, S, np.broadcast_to(np.uint8(0), N), np.zeros(N, np.int32)),
     r"'seen' must be .*writeable.*read-only"),
]
BAD_VALUES = [
    ((BOARD.flat, 10**9, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)),
     r"start 1000000000 is outside"),
    ((BOARD.flat, -1, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)), r"start -1 is outside"),
    ((BOARD.flat, 0, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)), r"start 0 is on the border"),
    ((BOARD.flat, H, S, np.zeros(N, np.uint8), np.zeros(3, np.int32)), r"scratch stack holds 3"),
    ((BOARD.flat, H, np.int64(10**9), np.zeros(N, np.uint8), np.zeros(N, np.int32)), r"stride"),
    ((np.zeros(N, np.uint8), H, S, np.zeros(N, np.uint8), np.zeros(N, np.int32)),
     r"border squares are all blocked"),
]


@pytest.fixture(params=["aot", "jit"])
def either(request, aot_build, monkeypatch):
    """Once with the AOT twins loaded (unchecked: TRONLAB_AOT_CHECK off), once with numba."""
    monkeypatch.delenv("TRONLAB_AOT_CHECK", raising=False)
    monkeypatch.setenv("TRONLAB_AOT_DIR", aot_build[0])
    if request.param == "jit":
        monkeypatch.setenv("TRONLAB_AOT", "0")
    else:
        monkeypatch.delenv("TRONLAB_AOT", raising=False)
    aot.unload()
    yield request.param
    aot.unload()


@pytest.mark.parametrize("args, message, error", [(*case, TypeError) for case in BAD_TYPES]
                         + [(*case, ValueError) for case in BAD_VALUES])
def test_flood_fill_kernel_refuses_bad_arguments(either, args, message, error):
    with pytest.raises(error, match=message):
        flood_fill_kernel(*args)
    good = flood_fill_kernel(BOARD.flat, H, S, np.zeros(N, np.uint8), np.zeros(N, np.int32))
    assert good == 167


def test_module_attribute_is_checked_after_the_module_compiled(either):
    """The module keeps its stand-ins when its kernels compile: ``flood.flood_fill_kernel``
    is checked then too, while compiled code calls the dispatchers."""
    flood._kernels.compile()
    assert flood.flood_fill_kernel is flood_fill_kernel
    with pytest.raises(TypeError, match="'stack' must be"):
        flood.flood_fill_kernel(BOARD.flat, H, S, np.zeros(N, np.uint8), np.zeros(N))
    assert flood.flood_fill(BOARD) == 167
    labels = np.zeros(N, np.int32)
    assert flood.fill_square_kernel(BOARD.flat.copy(), S, H, flood.POTENTIAL_ARTICULATION,
                                    labels, labels.copy(), labels.copy(), 0)[0] in (True, False)


def test_wrong_count_of_arguments_names_the_missing_one(either):
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'stack'"):
        flood_fill_kernel(BOARD.flat, H, S, np.zeros(N, np.uint8))


def test_components_and_multi_score_kernels_are_guarded(either):
    i4 = np.zeros(N, np.int32)
    with pytest.raises(TypeError, match="'labels' must be a 1-d int32"):
        components_kernel(BOARD.flat, S, np.zeros(N), i4, i4.copy())
    with pytest.raises(ValueError, match="scratch equiv holds 5"):
        components_kernel(BOARD.flat, S, i4, i4.copy(), np.zeros(5, np.int32))
    assert components_kernel(BOARD.flat, S, i4, i4.copy(), i4.copy()) >= 1
    args = [BOARD.flat, BOARD.heads.copy(), BOARD.alive.copy(), np.int64(0), S,
            np.empty(N, np.uint8), np.empty(N, np.int32), np.zeros(2, np.int64),
            np.empty(N, np.int32)]
    good = multi_score_kernel(*args)
    for i, value, error, message in [
            (1, np.array([H, 10**9]), ValueError, "head of living player 1"),
            (1, BOARD.heads.astype(np.int32), TypeError, "'heads' must be a 1-d int64"),
            (3, np.int64(2), ValueError, "me 2 is not a player"),
            (7, np.zeros(1, np.int64), ValueError, "counts holds 1")]:
        bad = list(args)
        bad[i] = value
        with pytest.raises(error, match=message):
            multi_score_kernel(*bad)
    assert multi_score_kernel(*args) == good


def test_a_kernel_without_signature_gives_one_type_error(either):
    tiny = np.array([[3.0, 5.0], [1.0, 2.0]])
    assert saddle.pure_bounds_kernel(tiny, tiny, 2, 2) == (3.0, 0, 3.0, 0)
    with pytest.raises(ValueError, match="m = 5 is outside lo"):
        saddle.pure_bounds_kernel(tiny, tiny, 5, 2)
    with pytest.raises(TypeError, match="pure_bounds_kernel cannot take arguments of types "
                                        r"\(list, list, int, int\)") as info:
        saddle.pure_bounds_kernel([[3.0]], [[3.0]], 1, 1)
    assert info.value.__cause__ is None and info.value.__context__ is None   # no numba trace


def test_the_slow_path_accepts_what_fits():
    """An ndarray subclass or an equal non-native dtype misses the quick test but fits."""
    call = guarded(lambda a, n: int(a.sum()) + n, "k", ["a", "n"],
                   [{"array": "int32", "ndim": 1, "contiguous": True}, "int"])
    assert call(np.ones(3, np.int32), 1) == 4
    assert call(np.ones(3, np.int32).view(np.recarray).view(np.ndarray), np.int8(1)) == 4

    class Sub(np.ndarray):
        pass
    assert call(np.ones(3, np.int32).view(Sub), 0) == 3
    with pytest.raises(TypeError, match="argument 2 'n' must be an int, got bool True"):
        call(np.ones(3, np.int32), True)


def test_notebook_02_pattern_does_not_crash_a_fresh_process(aot_build):
    """numpy's default float stack, as a student writes it: a TypeError, not SIGSEGV."""
    code = ("import numpy as np, tronlab; from tronlab.grid.flood import flood_fill_kernel;"
            "b = tronlab.load_builtin('arena'); n = b.flat.size\n"
            "try:\n flood_fill_kernel(b.flat, b.heads[0], b.stride, np.zeros(n, np.uint8),"
            " np.zeros(n))\nexcept TypeError as e:\n print('TypeError', e)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=child_env(TRONLAB_AOT_DIR=aot_build[0]))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("TypeError flood_fill_kernel: argument 5 'stack'")
