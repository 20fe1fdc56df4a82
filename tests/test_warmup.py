"""tronlab.jit.warmup compiles every kernel family through the public API without error."""

import json
import os
import subprocess
import sys

import pytest

from aot_support import child_env
from tronlab.jit.warmup import sources_digest


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


def _cold_report():
    """The signature report of ``dev.py test``'s own warm-up (``$TRONLAB_TEST_WARMUP_REPORT``)
    when it fits: made from these sources with nothing loaded from numba's cache (a cold
    compile, as in a fresh clone); else None."""
    path = os.environ.get("TRONLAB_TEST_WARMUP_REPORT")
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    fits = report.get("sources") == sources_digest() and report.get("cache_hits") == 0
    return report if fits else None


@pytest.mark.slow
def test_a_cold_compile_gives_every_kernel_one_signature(tmp_path):
    """numba caches one entry per signature a kernel was compiled for; a compiled caller
    that passes a bare constant (``False``, ``-1``, a module's flag) adds a Literal
    signature beside the int64 or bool one the other callers use.  From an empty cache,
    the warm-up (every public function, every compiled caller) leaves one each.  The
    cold warm-up ``dev.py test`` just ran says so in its report (a minute of compiling
    saved); anywhere else the test compiles everything into an empty cache itself."""
    report = _cold_report()
    if report is None:
        path = tmp_path / "report.json"
        env = child_env(NUMBA_CACHE_DIR=str(tmp_path / "numba"), TRONLAB_AOT="0",
                        TRONLAB_WARMUP_REPORT=str(path))
        r = subprocess.run([sys.executable, "-m", "tronlab.jit.warmup", "--quiet"],
                           capture_output=True, text=True, timeout=900, env=env)
        assert r.returncode == 0, r.stderr[-3000:]
        report = json.loads(path.read_text(encoding="utf-8"))
        assert report["cache_hits"] == 0, report        # the empty cache gave nothing
    assert report["sources"] == sources_digest()
    assert report["kernels"] >= 40, report              # every family compiled
    assert report["multi"] == [], report["multi"]


def test_the_signature_report_counts_cache_loads_and_second_signatures(tmp_path, monkeypatch):
    """The report the check above trusts: a load from numba's cache shows in
    ``cache_hits`` (so a warm report is never taken for a cold one), and a kernel with
    two signatures in ``multi``."""
    code = ("import json\n"
            "from tronlab.jit.warmup import signature_report\n"
            "from tronlab.grid import voronoi\n"
            "from tronlab.tron import mapgen\n"
            "voronoi.territory(mapgen.load_builtin('arena'))\n"
            "print(json.dumps(signature_report()))\n")
    env = child_env(NUMBA_CACHE_DIR=str(tmp_path / "numba"), TRONLAB_AOT="0")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=600, env=env) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr[-3000:]
    cold, warm = (json.loads(r.stdout) for r in runs)
    assert cold["kernels"] >= 3 and cold["multi"] == [] and cold["sources"] == sources_digest()
    assert cold["cache_hits"] == 0 and warm["cache_hits"] >= 1, (cold, warm)

    from collections import Counter
    from types import SimpleNamespace

    from tronlab.jit import kernels, warmup
    twice = SimpleNamespace(signatures=["(int64,)", "(Literal[int](-1),)"],
                            stats=SimpleNamespace(cache_hits=Counter()))
    table = SimpleNamespace(_compiled=True, _kernels={"k": None}, _ns={"k": twice})
    monkeypatch.setattr(kernels, "TABLES", {"fake": table})
    report = warmup.signature_report()
    assert report["kernels"] == 1 and report["multi"] == [
        "fake.k: ['(int64,)', '(Literal[int](-1),)']"], report
