"""The numba compile cache works when the package directory is read-only.

A copy of the package goes to a temp dir and is made read-only for real: by
permissions when we are not root, by a read-only bind mount in a private
mount namespace (``unshare --mount``) when we are (root ignores permissions).
Two fresh interpreters then import the copy with ``HOME`` and
``XDG_CACHE_HOME`` in the temp dir.  The first compiles and must write its
cache under ``$XDG_CACHE_HOME/tronlab/numba``; the second must load every
kernel it uses from there (numba's ``stats.cache_hits``, no misses), without
errors or warnings.
"""

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import tronlab

CHILD = r"""
import json, os, time
t0 = time.perf_counter()
import tronlab
from tronlab import Board
from tronlab.grid.voronoi import territory, territory_kernel
from tronlab.grid.flood import flood_fill, flood_fill_kernel
board = Board.from_ascii("1...\n....\n...2")
result = [list(territory(board)), flood_fill(board)]
stats = {k.__name__: [sum(k.stats.cache_hits.values()), sum(k.stats.cache_misses.values())]
         for k in (territory_kernel, flood_fill_kernel)}
print(json.dumps({"file": tronlab.__file__, "cache_dir": os.environ.get("NUMBA_CACHE_DIR"),
                  "result": result, "stats": stats, "seconds": time.perf_counter() - t0}))
"""


def _make_read_only(root: Path):
    for path in [root, *root.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def _run(site: Path, home: Path, as_root: bool):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "xdg"), PYTHONPATH=str(site),
               PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-c", CHILD]
    if as_root:
        pkg = str(site / "tronlab")
        cmd = ["unshare", "--mount", "sh", "-c",
               f'mount --bind -o ro "{pkg}" "{pkg}" && exec "$0" "$@"', *cmd]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=home)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def test_cache_in_user_dir_when_package_is_read_only(tmp_path):
    as_root = os.geteuid() == 0 if hasattr(os, "geteuid") else False
    if as_root:
        if not shutil.which("unshare"):
            pytest.skip("running as root without unshare: cannot make a directory read-only")
        probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True)
        if probe.returncode != 0:
            pytest.skip("running as root and unshare --mount is not permitted here")
    site = tmp_path / "site"
    src = Path(tronlab.__file__).parent
    shutil.copytree(src, site / "tronlab", ignore=shutil.ignore_patterns("__pycache__", "*.nbi",
                                                                         "*.nbc"))
    home = tmp_path / "home"
    home.mkdir()
    if not as_root:
        _make_read_only(site / "tronlab")
    try:
        first, err1 = _run(site, home, as_root)
        second, err2 = _run(site, home, as_root)
    finally:
        for path in [site / "tronlab", *(site / "tronlab").rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    assert first["file"].startswith(str(site)), "the child imported another tronlab"
    expected_dir = str(home / "xdg" / "tronlab" / "numba")
    assert first["cache_dir"] == second["cache_dir"] == expected_dir
    assert first["result"] == second["result"] == [[5, 5, 13, 13], 10]
    assert "Warning" not in err1 + err2, err1 + err2
    cached = list(Path(expected_dir).rglob("*.nbi"))
    assert cached, "nothing was written to the user cache dir"
    assert not list((site / "tronlab").rglob("*.nbi")), "numba wrote inside the read-only package"
    for name, (hits, misses) in second["stats"].items():
        assert hits >= 1 and misses == 0, (name, second["stats"])
    for name, (hits, misses) in first["stats"].items():
        assert misses >= 1, ("the first run should compile", name, first["stats"])
