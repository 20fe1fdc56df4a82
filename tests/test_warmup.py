"""tronlab.jit.warmup compiles every kernel family through the public API without error."""

import os
import subprocess
import sys

import pytest

from aot_support import child_env


def test_warmup_runs_every_step_in_a_fresh_process():
    r = subprocess.run([sys.executable, "-m", "tronlab.jit.warmup"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    steps = [line.split()[0] for line in r.stdout.splitlines() if line.startswith("  ")]
    assert steps == ["territory", "flood", "ring", "articulation", "parity", "turn-order",
                     "chambers", "filler", "evaluations", "search", "endgame", "zero-sum",
                     "capture", "bots"]
    assert "compiled or loaded from the cache" in r.stdout


def test_tronlab_warmup_fills_the_cache_and_says_what_bots_will_use(tmp_path):
    """The documented command (README): numba's cache, then the AOT status line; after
    it a bot no longer starts cold (no hint on stderr)."""
    env = child_env(TRONLAB_AOT_DIR=str(tmp_path / "aot"))     # numba's usual cache: warm by now
    r = subprocess.run([sys.executable, "-m", "tronlab", "warmup", "--no-aot", "--quiet"],
                       capture_output=True, text=True, timeout=1800, env=env)
    assert r.returncode == 0, r.stderr
    assert "numba's cache is ready" in r.stdout
    assert "tronlab AOT: not built for this version" in r.stdout.splitlines()[-1]
    code = ("import sys; from tronlab.jit.cache import is_warm; "
            "sys.exit(0 if all(is_warm(b) for b in ('chamber', 'hybrid', 'nash')) else 1)")
    assert subprocess.run([sys.executable, "-c", code], env=env, timeout=300).returncode == 0


_WHOLE_GAMES = """
import numpy as np
from tronlab.jit.warmup import warm_up
from tronlab.jit.kernels import compiled_versions, versions_added
from tronlab.runner.engine import play
from tronlab.runner.registry import get_bot
from tronlab.tron import mapgen

warm_up()
before = compiled_versions()
arena, lr = mapgen.load_builtin("arena"), mapgen.lightriders_board(rng=np.random.default_rng(1))
for name in ("chamber", "minimax", "nash", "hybrid", "voronoi", "filler", "quick"):
    play(arena, [get_bot(name, time=0.02), get_bot("chamber", time=0.02)], rules="google2010",
         rng=1)
    play(lr, [get_bot(name, time=0.02), get_bot("minimax", time=0.02)], rules="lightriders",
         rng=1)
    play(mapgen.codingame_board(3, rng=1), [get_bot(name, time=0.02), get_bot("multivoronoi"),
         get_bot("random", rng=2)], rules="codingame", rng=1)
print(versions_added(before))
"""


def test_after_the_warm_up_whole_games_compile_nothing():
    """Every Tron bot plays whole games under the three rule sets after the warm-up
    (numba's dispatchers, no ahead-of-time twins): no kernel gains a signature,
    which would be a compile or a cache load in the middle of a game."""
    r = subprocess.run([sys.executable, "-c", _WHOLE_GAMES], capture_output=True, text=True,
                       timeout=600, env=child_env(TRONLAB_AOT="0"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "{}"


_ONE_BOT = """
import sys
import numpy as np
from tronlab.jit.kernels import compiled_versions, versions_added
from tronlab.runner.engine import play
from tronlab.runner.registry import get_bot
from tronlab.tron import mapgen

name = sys.argv[1]
bot = get_bot(name, time=0.02)
bot.warm_up()
before = compiled_versions()
arena, lr = mapgen.load_builtin("arena"), mapgen.lightriders_board(rng=np.random.default_rng(1))
play(arena, [bot, get_bot("random", rng=1)], rules="google2010", rng=1)
play(lr, [bot, get_bot("hugger")], rules="lightriders", rng=1)
play(mapgen.codingame_board(3, rng=1), [bot, get_bot("random", rng=2), get_bot("random", rng=3)],
     rules="codingame", rng=1)
print(versions_added(before))
"""


@pytest.mark.parametrize("name", ["chamber", "minimax", "nash", "hybrid", "voronoi"])
def test_a_bots_own_warm_up_covers_its_whole_games(name):
    """A contest program without the ahead-of-time build warms up just its bot
    (``bot.warm_up()``) before the first turn: whole games under the three rule
    sets must then find every kernel they call already compiled or loaded."""
    r = subprocess.run([sys.executable, "-c", _ONE_BOT, name], capture_output=True, text=True,
                       timeout=600, env=child_env(TRONLAB_AOT="0"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "{}"


_ONE_SIGNATURE = """
from tronlab.jit import kernels
from tronlab.jit.warmup import warm_up
warm_up(verbose=False)
print(sorted(f"{module}.{name}: {[str(s) for s in table._ns[name].signatures]}"
             for module, table in kernels.TABLES.items() if table._compiled
             for name in table._kernels if len(table._ns[name].signatures) > 1))
"""


@pytest.mark.slow
def test_a_cold_compile_gives_every_kernel_one_signature(tmp_path):
    """numba caches one entry per signature a kernel was compiled for; a compiled caller
    that passes a bare constant (``False``, ``-1``, a module's flag) adds a Literal
    signature beside the int64 or bool one the other callers use.  From an empty cache,
    the warm-up (every public function, every compiled caller) leaves one each."""
    env = child_env(NUMBA_CACHE_DIR=str(tmp_path / "numba"), TRONLAB_AOT="0")
    r = subprocess.run([sys.executable, "-c", _ONE_SIGNATURE], capture_output=True, text=True,
                       timeout=900, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout[-3000:]


def test_a_second_warmup_keeps_the_ahead_of_time_module_it_built(aot_build):
    """``tronlab warmup`` built the AOT module again on every run, though the build for
    these sources and versions was there and loaded: over a minute (70 s on 2 busy cores)
    for nothing, each time a setup script or a user ran it again."""
    directory, module = aot_build
    before = os.stat(module.__file__).st_mtime_ns
    env = child_env(TRONLAB_AOT_DIR=directory)
    r = subprocess.run([sys.executable, "-m", "tronlab", "warmup", "--quiet"],
                       capture_output=True, text=True, timeout=1800, env=env)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "the ahead-of-time module is up to date" in r.stdout, r.stdout
    assert not any(line.startswith(("built ", "building ")) for line in lines), r.stdout
    assert os.stat(module.__file__).st_mtime_ns == before
    assert lines[-1].startswith("tronlab AOT: ") and "kernels loaded from" in lines[-1]
