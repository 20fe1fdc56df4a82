"""tronlab.jit.warmup compiles every kernel family through the public API without error."""

import subprocess
import sys

from aot_support import child_env


def test_warmup_runs_every_step_in_a_fresh_process():
    r = subprocess.run([sys.executable, "-m", "tronlab.jit.warmup"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    steps = [line.split()[0] for line in r.stdout.splitlines() if line.startswith("  ")]
    assert steps == ["territory", "flood", "ring", "articulation", "parity", "turn-order",
                     "chambers", "filler", "evaluations", "search", "endgame", "capture", "bots"]
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
