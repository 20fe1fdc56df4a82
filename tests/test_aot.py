"""Ahead-of-time twins (tronlab.jit.aot) and kernels compiled on demand (tronlab.jit.kernels).

One build per test session into a temp dir (``aot_build``, ~10-30 s).  The twins
must return exactly what the numba kernels return and leave the same scratch
and output arrays, on random boards; the wrappers must use them when a build
loads and fall back to numba when none does, when the build is for other
sources, or when the file is broken; and a fresh interpreter with a build must
compute territory without importing numba.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from aot_support import child_env as _child_env
from strategies import EXAMPLES, bench_board, boards

from tronlab import Board
from tronlab.jit import aot, aot_build
from tronlab.jit.kernels import TABLES
from tronlab.grid import articulation, flood as fill, multivoronoi, parity, ring, voronoi
from tronlab.tron import chambers

ROOT = Path(__file__).resolve().parents[1]
EXPORTS = aot_build.exports()          # generated from the @kernel(sig=...) declarations
# kernels checked through their wrappers and the bots (tests/test_aot_search.py,
# tests/test_aot_wrappers.py)
THROUGH_WRAPPERS = {"negamax_kernel", "evaluate_kernel", "touching_kernel", "multi_score_kernel",
                    "endgame_kernel", "greedy_move_kernel", "fill_length_kernel",
                    "nash_search_kernel", "solve_zero_sum_kernel", "neutral_region_kernel",
                    "enclose_kernel", "l_scan_kernel", "chamber_values_kernel",
                    "opponent_paths_kernel", "path_search_kernel", "rect_scan_kernel"}


# ---------------------------------------------------------------------------
# arguments for every kernel: same inputs, scratch filled with the same garbage
# ---------------------------------------------------------------------------
def _garbage(rng, size, dtype):
    return rng.integers(0, 100, size=size).astype(dtype)


def _interior(board, rng):
    """A random square of the playing area (free or not)."""
    x, y = int(rng.integers(board.width)), int(rng.integers(board.height))
    return np.int64(board.index(x, y))


def _start(board, rng):
    return board.heads[0] if rng.random() < 0.5 else _interior(board, rng)


def _labelled(board):
    size = board.flat.size
    labels, sizes, equiv = (np.zeros(size, np.int32) for _ in range(3))
    k = fill.components_kernel(board.flat, np.int64(board.stride), labels, sizes, equiv)
    return labels, sizes, equiv, np.int64(k)


def _args(name, board, rng):
    """Arguments for kernel ``name`` on ``board`` in the dtypes the wrappers pass."""
    flat, size, stride = board.flat.copy(), board.flat.size, np.int64(board.stride)
    i4 = lambda: _garbage(rng, size, np.int32)  # noqa: E731
    u1 = lambda: _garbage(rng, size, np.uint8)  # noqa: E731
    if name == "ring_code_kernel":
        return flat, _interior(board, rng), stride
    if name in ("flood_fill_kernel", "fill_bound_kernel"):
        return flat, _start(board, rng), stride, u1(), i4()
    if name == "components_kernel":
        return flat, stride, i4(), i4(), i4()
    if name == "fill_square_kernel":
        free = np.flatnonzero(flat == 0)
        if free.size == 0:
            return None
        labels, sizes, equiv, k = _labelled(board)
        square = np.int64(rng.choice(free))
        flat[square] = 1
        return (flat, stride, square, ring.POTENTIAL_ARTICULATION.copy(), labels, sizes,
                equiv, k)
    if name == "bfs_distances_kernel":
        return flat, _start(board, rng), stride, i4(), i4()
    if name == "bucket_distances_kernel":
        cost = rng.integers(1, 256, size=size).astype(np.uint8)
        pool = 4 * size + 1
        return (flat, _start(board, rng), stride, cost, i4(),
                _garbage(rng, 256, np.int32), _garbage(rng, pool, np.int32),
                _garbage(rng, pool, np.int32))
    if name in ("territory_kernel", "owner_map_kernel"):
        return flat, board.heads[0], board.heads[1], stride, i4(), u1(), i4()
    if name == "territory_from_distances_kernel":
        maps = []
        for p in (0, 1):
            d = np.empty(size, np.int32)
            voronoi.bfs_distances_kernel(flat, board.heads[p], stride, d, np.empty(size, np.int32))
            maps.append(d)
        return flat, maps[0], maps[1], stride
    if name == "articulation_points_kernel":
        return flat, stride, i4(), i4(), i4(), u1(), i4(), u1()
    if name == "turn_order_territory_kernel":
        n = board.n_players
        alive = rng.random(n) < 0.75
        return (flat, board.heads.copy(), alive, np.int64(rng.integers(n)), stride, u1(), i4(),
                _garbage(rng, n, np.int64))
    if name in ("chamber_counts_kernel", "chamber_score_kernel"):
        return (flat, board.heads[0], board.heads[1], stride, 0.055, 0.194,
                np.int64(rng.integers(32)), _chamber_scratch(rng, size))
    if name == "chamber_tree_kernel":
        return (flat, board.heads[0], np.int64(rng.integers(2)), stride, bool(rng.integers(2)),
                _chamber_scratch(rng, size))
    if name == "region_colours_kernel":
        labels, _, _, k = _labelled(board)
        return stride, labels, k, _garbage(rng, (int(k) + 1) * 2, np.int32).reshape(-1, 2)
    raise AssertionError(f"no arguments for {name}")


def _chamber_scratch(rng, size):
    """A chamber scratch full of garbage (owner codes 0-99: 0-2 are players and neutral)."""
    s = chambers.new_scratch(size)
    return type(s)(*(_garbage(rng, a.size, a.dtype) for a in s))


def _copy(args):
    return tuple(a.copy() if isinstance(a, np.ndarray)
                 else type(a)(*_copy(a)) if isinstance(a, tuple) else a for a in args)


def _arrays(args):
    for a in args:
        if isinstance(a, tuple):
            yield from _arrays(a)
        elif isinstance(a, np.ndarray):
            yield a


def test_every_kernel_has_arguments_here():
    """The tests below (or the wrapper tests) cover every kernel compiled ahead of time."""
    board = Board.from_ascii("1..\n...\n..2")
    rng = np.random.default_rng(0)
    for name, (module, _) in EXPORTS.items():
        assert name in TABLES[module].names
        if name not in THROUGH_WRAPPERS:
            assert _args(name, board, rng) is not None


def test_export_list_is_generated_from_the_declarations():
    """Every kernel with a signature is exported, and only those; the bots' kernels are in."""
    want = {name for module, table in TABLES.items() for name in table.names
            if table.kernel(name).sig is not None}
    assert set(EXPORTS) == want
    assert THROUGH_WRAPPERS <= set(EXPORTS)
    assert "territory_kernel" in EXPORTS and "_find" not in EXPORTS
    assert set(aot.kernel_modules()) >= {"tronlab.grid.voronoi", "tronlab.tron.alphabeta",
                                          "tronlab.tron.chambers", "tronlab.jit.clock"}


GRID_EXPORTS = [name for name in EXPORTS if name not in THROUGH_WRAPPERS]


@pytest.mark.parametrize("name", GRID_EXPORTS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(), seed=st.integers(0, 2**32 - 1))
def test_twin_equals_numba_kernel(aot_build, name, board, seed):
    module = aot_build[1]
    args = _args(name, board, np.random.default_rng(seed))
    if args is None:
        return
    jit = TABLES[EXPORTS[name][0]].jit(name)
    a, b = _copy(args), _copy(args)
    got, want = getattr(module, name)(*a), jit(*b)
    assert got == want
    assert type(got) is type(want) or got is None
    for x, y in zip(_arrays(a), _arrays(b)):
        np.testing.assert_array_equal(x, y)          # scratch and outputs alike


# ---------------------------------------------------------------------------
# the wrappers: twins when loaded, numba otherwise, same answers
# ---------------------------------------------------------------------------
def _wrapper_results(board):
    comps = fill.Components(board)
    free = np.flatnonzero(board.flat == 0)
    x, y = board.xy(int(free[len(free) // 2]))
    refilled = comps.fill(x, y)
    count, mask = articulation.articulation_points(board)
    d0, d1 = voronoi.bfs_distances(board, 0), voronoi.bfs_distances(board, 1)
    labels, colours = parity.region_colours(board)
    return [
        tuple(voronoi.territory(board)), voronoi.owner_map(board).tolist(), d0.tolist(),
        voronoi.bucket_distances(board, 1).tolist(),
        tuple(voronoi.territory_from_distances(board, d0, d1)),
        fill.flood_fill(board), fill.flood_fill(board, 1), refilled, comps.count,
        comps.labels.tolist(), count, mask.tolist(), ring.ring_code(board, x, y),
        multivoronoi.turn_order_territory(board, first=1).counts.tolist(),
        tuple(parity.fill_bound(board)), labels.tolist(), colours.tolist(),
    ]


def test_wrappers_call_the_twins_when_built(twins):
    for name, (module, _) in EXPORTS.items():
        f = TABLES[module].fast(name)          # checked twins (TRONLAB_AOT_CHECK=1)
        assert f is aot.twin(name) and f.__wrapped__ is getattr(twins, name), name
    board = bench_board("rand30x20")
    assert tuple(voronoi.territory(board)) == (237, 199, 700, 578)     # ref.c's numbers
    assert articulation.articulation_points(board)[0] == 39


def test_wrappers_fall_back_to_numba_without_a_build(no_twins):
    assert aot.twin("territory_kernel") is None
    assert voronoi._kernels.fast("territory_kernel") is voronoi._kernels.jit("territory_kernel")
    assert "not built for this version" in aot.status()
    assert "using the numba JIT kernels" in aot.status()
    assert tuple(voronoi.territory(bench_board("rand30x20"))) == (237, 199, 700, 578)


def test_switched_off_by_environment(aot_build, monkeypatch):
    monkeypatch.setenv("TRONLAB_AOT_DIR", aot_build[0])
    monkeypatch.setenv("TRONLAB_AOT", "0")
    aot.unload()
    try:
        assert aot.twin("territory_kernel") is None
        assert "TRONLAB_AOT=0" in aot.status()
    finally:
        aot.unload()


@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(board=boards(max_players=2))
def test_wrappers_agree_with_and_without_twins(aot_build, board):
    if not np.any(board.flat == 0):
        return
    old = os.environ.get("TRONLAB_AOT_DIR")
    try:
        os.environ["TRONLAB_AOT_DIR"] = aot_build[0]
        aot.unload()
        assert aot.twin("territory_kernel") is not None
        fast = _wrapper_results(board)
        os.environ["TRONLAB_AOT_DIR"] = aot_build[0] + "-missing"
        aot.unload()
        assert aot.twin("territory_kernel") is None
        slow = _wrapper_results(board)
    finally:
        if old is None:
            os.environ.pop("TRONLAB_AOT_DIR", None)
        else:
            os.environ["TRONLAB_AOT_DIR"] = old
        aot.unload()
    assert fast == slow


def test_bad_scratch_is_an_error_not_a_crash(twins):
    """The twins trust their argument types, so the wrappers check user scratch."""
    board = Board.from_ascii("1...\n...2")
    good = voronoi.new_scratch(board.flat.size)
    bad = good._replace(dist=good.dist.astype(np.int64))
    with pytest.raises(ValueError, match="new_scratch"):
        voronoi.territory(board, scratch=bad)
    art = articulation.new_scratch(board.flat.size)
    with pytest.raises(ValueError, match="new_scratch"):
        articulation.articulation_points(board, scratch=art._replace(low=art.low[::-1]))
    assert tuple(voronoi.territory(board, scratch=good)) == (2, 2, 3, 3)


# ---------------------------------------------------------------------------
# which build loads
# ---------------------------------------------------------------------------
def test_build_for_other_sources_is_not_loaded(aot_build, tmp_path, monkeypatch):
    """Editing a kernel changes the key; the old build is then ignored."""
    directory, _ = aot_build
    pkg = tmp_path / "pkg"
    shutil.copytree(Path(aot.__file__).parents[1], pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "course", "static", "bots"))
    old_key = aot.key()
    monkeypatch.setattr(aot, "_PKG", str(pkg))
    assert aot.key() == old_key                  # same files, same key
    with open(pkg / "grid" / "voronoi.py", "a") as f:
        f.write("\n# edited\n")
    assert aot.key() != old_key
    assert aot.load(directory) is None
    assert "not built for this version" in aot.status()
    assert os.path.exists(aot.module_path(directory, old_key))    # the stale one is there
    aot.unload()


def test_key_is_remembered_by_file_stamps(tmp_path, monkeypatch):
    """A build files its key under the files' sizes and times; a start-up reads it
    back instead of hashing every module, and a changed file is hashed afresh."""
    pkg = tmp_path / "pkg"
    shutil.copytree(Path(aot.__file__).parents[1], pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "course", "static", "bots"))
    monkeypatch.setattr(aot, "_PKG", str(pkg))
    monkeypatch.setattr(aot, "_keys", {})
    monkeypatch.setenv("TRONLAB_AOT_DIR", str(tmp_path / "aot"))
    real = aot.content_key()
    assert aot.key() == real                                 # nothing filed: from the contents
    assert aot.remember_key() == real
    (memo,) = (tmp_path / "aot" / "keys").iterdir()
    memo.write_text("0123456789abcdef\n")                   # a planted key shows it is read
    aot._keys.clear()
    assert aot.key() == "0123456789abcdef"
    with open(pkg / "grid" / "voronoi.py", "a") as f:
        f.write("\n# edited\n")
    assert aot.key() == aot.content_key() != real


def test_key_covers_numba_version(monkeypatch):
    old = aot.key()
    real = aot._version_bytes
    monkeypatch.setattr(aot, "_version_bytes",
                        lambda pkg, fn: real(pkg, fn) + (b"+1" if pkg == "numba" else b""))
    assert aot.key() != old


def test_stale_build_under_another_key_is_ignored(aot_build, tmp_path):
    """A complete build filed under another key (say, the previous numba) is never loaded,
    and ``clean`` removes it."""
    src = Path(aot.module_path(aot_build[0]))
    stale = tmp_path / "0123456789abcdef"
    stale.mkdir()
    shutil.copy(src, stale / src.name)
    try:
        assert aot.load(str(tmp_path)) is None
        assert aot.clean(str(tmp_path)) == [str(stale)]
        assert not stale.exists()
    finally:
        aot.unload()


def test_broken_file_falls_back(tmp_path):
    path = Path(aot.module_path(str(tmp_path)))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not an extension module")
    try:
        assert aot.load(str(tmp_path)) is None
        assert "does not load" in aot.status()
    finally:
        aot.unload()


# ---------------------------------------------------------------------------
# fresh interpreters
# ---------------------------------------------------------------------------
CHILD = r"""
import json, sys
import tronlab
from tronlab.grid.voronoi import territory
board = tronlab.load_map(sys.argv[1])
result = list(territory(board))
numba_loaded = "numba" in sys.modules
from tronlab.jit import aot
print(json.dumps({"result": result, "numba": numba_loaded, "status": aot.status()}))
"""


def _fresh(env):
    board = ROOT / "benchmarks" / "boards" / "rand30x20.txt"
    proc = subprocess.run([sys.executable, "-c", CHILD, str(board)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    import json
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_fresh_process_with_build_never_imports_numba(aot_build):
    out = _fresh(_child_env(TRONLAB_AOT_DIR=aot_build[0]))
    assert out["result"] == [237, 199, 700, 578]
    assert out["numba"] is False, out
    assert "kernels loaded from" in out["status"]


def test_fresh_process_scores_chambers_without_numba(aot_build):
    """chamber_score and chamber_tree come from the build too (their kernels declare
    signatures): no numba import, no compile on the first call."""
    code = ("import sys, tronlab; from tronlab.tron.chambers import chamber_score, chamber_tree;"
            "b = tronlab.load_builtin('arena'); s = chamber_score(b); t = chamber_tree(b, 1);"
            "print(s.n_me, s.n_opp, t.n, 'numba' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600,
                          env=_child_env(TRONLAB_AOT_DIR=aot_build[0]))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["77", "77", "77", "False"], proc.stdout


def test_fresh_process_without_build_uses_numba(tmp_path):
    out = _fresh(_child_env(TRONLAB_AOT_DIR=str(tmp_path)))
    assert out["result"] == [237, 199, 700, 578]
    assert out["numba"] is True
    assert "using the numba JIT kernels" in out["status"]


def test_importing_kernel_modules_does_not_import_numba():
    """``import tronlab``, every module that declares kernels and every bot module."""
    from tronlab.runner.registry import _BUILTIN_MODULES

    modules = ["tronlab", *aot.kernel_modules(), *_BUILTIN_MODULES]
    assert len(modules) > 25
    code = (f"import importlib, sys; [importlib.import_module(m) for m in {modules!r}]; "
            "print('numba' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], env=_child_env(), capture_output=True,
                          text=True, timeout=300)
    assert proc.stdout.strip() == "False", proc.stderr


def test_kernels_are_numba_dispatchers_on_demand():
    from numba.core.registry import CPUDispatcher

    from tronlab.jit.kernels import Kernel
    territory_kernel = voronoi._kernels.kernel("territory_kernel")   # what @kernel made
    assert isinstance(territory_kernel, Kernel)
    assert territory_kernel.py_func is voronoi._kernels.py_func("territory_kernel")
    assert territory_kernel.sig.startswith("UniTuple(i8, 4)(")
    disp = voronoi._kernels.jit("territory_kernel")
    assert isinstance(disp, CPUDispatcher)
    assert voronoi.territory_kernel is territory_kernel       # the module keeps its stand-in,
    assert voronoi._kernels._ns["territory_kernel"] is disp   # the kernels' globals the dispatcher
    assert territory_kernel.dispatcher() is disp
    assert isinstance(fill._kernels.jit("fill_square_kernel"), CPUDispatcher)
    assert "territory_kernel" in dir(voronoi)
    with pytest.raises(AttributeError, match="no attribute 'nonsense_kernel'"):
        voronoi.nonsense_kernel  # noqa: B018


def test_a_user_njit_function_can_call_a_stand_in():
    """numba types a stand-in like its dispatcher (``_numba_type_``)."""
    from numba import njit

    from tronlab.jit.kernels import Kernel
    from tronlab.tron import evaluate
    touching_kernel = evaluate._kernels.kernel("touching_kernel")
    assert isinstance(touching_kernel, Kernel)

    @njit
    def twice(flat, a, b, stride, dist, queue):
        return (touching_kernel(flat, a, b, stride, dist, queue)
                and touching_kernel(flat, b, a, stride, dist, queue))

    board = Board.from_ascii("1.#..\n..#.2")
    n = board.flat.size
    args = (board.flat, board.heads[0], board.heads[1], np.int64(board.stride))
    assert twice(*args, np.empty(n, np.int32), np.empty(n, np.int32)) is False
    board = Board.from_ascii("1....\n....2")
    args = (board.flat, board.heads[0], board.heads[1], np.int64(board.stride))
    assert twice(*args, np.empty(n, np.int32), np.empty(n, np.int32)) is True


def test_plain_twins_call_no_compiled_code():
    """``KernelTable.plain``: the twin and every kernel it reaches are plain functions,
    even after the module compiled (its namespace then holds dispatchers)."""
    import types

    from tronlab.capture import lshapes, paths

    paths._kernels.jit("path_search_kernel")                   # the module has compiled
    assert not isinstance(paths._closed_virtual, types.FunctionType)
    twin = paths._kernels.plain("path_search_kernel")
    assert twin.__code__ is paths._kernels.py_func("path_search_kernel").__code__
    for name in ("_closed_virtual", "path_score"):
        assert isinstance(twin.__globals__[name], types.FunctionType), name
    helper = twin.__globals__["_closed_virtual"]
    assert helper.__globals__ is twin.__globals__               # one plain copy per module
    scan = lshapes._kernels.plain("l_scan_kernel")
    assert isinstance(scan.__globals__["enclose_kernel"], types.FunctionType)
    assert not isinstance(paths._closed_virtual, types.FunctionType)   # module untouched


_FRESH_TWINS = """
import sys, types
import numpy as np
from tronlab import Board
from tronlab.grid import flood, ring
from tronlab.tron import nash_search
from tronlab.jit.kernels import TABLES
linked = 0
for table in list(TABLES.values()):
    for name in table.names:
        twin = table.plain(name)
        for used in table._uses:
            assert isinstance(twin.__globals__[used], types.FunctionType), (table.module, used)
            linked += 1
b = Board.from_ascii('1....\\n.....\\n....2')
n = b.flat.size
labels, sizes, equiv = (np.zeros(n, np.int32) for _ in range(3))
k = flood._kernels.plain("components_kernel")(b.flat, np.int64(b.stride), labels, sizes, equiv)
square = b.stride + 3               # the top row's middle square: never a cut square
b.flat[square] = 1
done = flood._kernels.plain("fill_square_kernel")(b.flat, np.int64(b.stride), np.int64(square),
                                                  ring.POTENTIAL_ARTICULATION, labels, sizes,
                                                  equiv, np.int64(k))
print(linked, int(done[0]), int(done[1]), "numba" in sys.modules)
"""


def test_plain_twins_reach_kernels_other_modules_lend_before_anything_compiled():
    """``uses=`` links a kernel of another module only when the module compiles;
    a plain twin called first, in a fresh process, must find it too."""
    proc = subprocess.run([sys.executable, "-c", _FRESH_TWINS], env=_child_env(), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[1:] == ["0", "1", "False"] and int(proc.stdout.split()[0]) > 0


def test_kernel_declaration_errors():
    from tronlab.jit.kernels import kernel, parse_sig

    with pytest.raises(TypeError, match="signature string"):
        kernel(sig=("i8",))
    with pytest.raises(ValueError, match="bad kernel signature"):
        parse_sig("i8(nonsense_type)")
    orphan = kernel(lambda x: x)
    with pytest.raises(RuntimeError, match="not in a KernelTable"):
        orphan(1)


def test_cli_status_and_build_without_compiler(tmp_path):
    env = _child_env(TRONLAB_AOT_DIR=str(tmp_path), PATH=str(tmp_path / "empty"))
    env.pop("CC", None)
    status = subprocess.run([sys.executable, "-m", "tronlab.jit.aot", "status"], env=env,
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert status.returncode == 0, status.stderr
    lines = status.stdout.strip().splitlines()
    assert len(lines) == 1 and "no C compiler" in lines[0], lines
    built = subprocess.run([sys.executable, "-m", "tronlab.jit.aot", "build"], env=env,
                           capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert built.returncode == 1
    assert "no C compiler" in built.stdout and "numba JIT kernels" in built.stdout
    assert not any(tmp_path.iterdir())
