"""What a non-editable install (``pip install tronlab``, a wheel) carries besides modules.

A wheel holds the package's ``.py`` files and only those other files that
``[tool.setuptools.package-data]`` names; a widget's JavaScript or a built-in map left out
works in the checkout (an editable install reads the source tree) and breaks on every
install from a wheel.  Checked here without building a wheel (that needs the network for
the build backend): setuptools expands each pattern with ``glob`` under the package
folder, as below, so every data file the checkout tracks, and every file the code opens
at run time, must be one of those matches.  A fresh Python 3.10 venv's ``pip install``
of the checkout was checked to hold exactly these files (session 51).
"""

import glob
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tronlab"
BUILT = (".py", ".pyc", ".nbi", ".nbc", ".so", ".pyd")   # modules and compile caches


def _patterns() -> list:
    """The package-data patterns of ``tronlab`` in pyproject.toml (read without tomllib,
    which Python 3.10 lacks)."""
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[tool.setuptools.package-data]", 1)[1].split("\n[", 1)[0]
    line = re.search(r"^tronlab\s*=\s*\[(.*?)\]", section, re.M | re.S)[1]
    return re.findall(r'"([^"]+)"', line)


def _shipped() -> set:
    """Files under tronlab/ that the patterns take, as setuptools expands them."""
    found = set()
    for pattern in _patterns():
        for path in glob.glob(str(PACKAGE / pattern), recursive=True):
            if os.path.isfile(path):
                found.add(Path(path).relative_to(PACKAGE).as_posix())
    return found


def _tracked_data_files() -> set:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    out = subprocess.run(["git", "ls-files", "tronlab"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return {Path(p).relative_to("tronlab").as_posix() for p in out if not p.endswith(BUILT)}


def test_every_data_file_of_the_package_is_shipped():
    tracked = _tracked_data_files()
    assert tracked, "no data files found: the maps and the widgets' JavaScript are data"
    assert tracked - _shipped() == set(), "add these to [tool.setuptools.package-data]"


def test_every_file_the_code_opens_at_run_time_is_shipped():
    """The widgets' JavaScript and CSS (``_STATIC / "board.js"`` in their modules) and the
    built-in maps."""
    from tronlab.tron import mapgen

    static = set()
    for module in PACKAGE.rglob("*.py"):
        static |= set(re.findall(r'_STATIC / "([^"]+)"', module.read_text(encoding="utf-8")))
    assert {"board.js", "board.css", "capture.js", "map_editor.js", "stepper.js"} <= static
    maps = {f"tron/maps/{name}.txt" for name in mapgen.builtin_maps()}
    assert Path(mapgen._MAP_DIR) == PACKAGE / "tron" / "maps" and len(maps) >= 8
    opened = {f"static/{name}" for name in static} | maps
    assert all((PACKAGE / rel).is_file() for rel in opened)
    assert opened - _shipped() == set()
