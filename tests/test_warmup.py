"""tronlab.jit.warmup compiles every kernel family through the public API without error."""

import subprocess
import sys


def test_warmup_runs_every_step_in_a_fresh_process():
    r = subprocess.run([sys.executable, "-m", "tronlab.jit.warmup"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    steps = [line.split()[0] for line in r.stdout.splitlines() if line.startswith("  ")]
    assert steps == ["territory", "flood", "ring", "articulation", "parity", "turn-order",
                     "chambers", "filler", "evaluations", "search", "endgame", "bots"]
    assert "compiled or loaded from the cache" in r.stdout
