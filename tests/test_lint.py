"""The lint gate: pyflakes-style errors, pycodestyle errors and warnings, lines of at most 100
characters, over the package, the tests, the benchmarks and the two root scripts (settings in
pyproject.toml's ``[tool.ruff]``)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["tronlab", "tests", "benchmarks", "dev.py", "conftest.py"]


def test_the_code_passes_ruff():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *CHECKED],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_gate_catches_a_long_line_and_an_unused_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n" + "x = '" + "a" * 100 + "'\n")
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                          "--config", str(ROOT / "pyproject.toml"), str(bad)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "F401" in out.stdout and "E501" in out.stdout
