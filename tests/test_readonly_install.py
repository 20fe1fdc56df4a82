"""A read-only install with an unwritable HOME (issue 11, defect 4): ``import tronlab``
works and the first kernel call compiles, the numba cache falling back to a temporary
directory."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tronlab.jit import cache

ROOT = Path(__file__).resolve().parents[1]
_SESSION_NUMBA_CACHE_DIR = os.environ.get("NUMBA_CACHE_DIR")    # as this module was collected


def test_unwritable_package_and_home_fall_back_to_a_temporary_dir(monkeypatch, tmp_path):
    import numba.core.config as cfg
    blocker = tmp_path / "a-file"
    blocker.write_text("")                      # nothing can be made under a file, not even by root
    writable = cache._writable
    monkeypatch.setattr(cache, "_writable",
                        lambda p: not p.startswith(str(blocker)) and writable(p))
    monkeypatch.setattr(cache, "_PKG", str(blocker / "tronlab" / "jit"))
    # set, then delete: monkeypatch records a variable only when it exists, and the
    # configure call below sets it; unrecorded, it would leak into every later test's
    # children (a cold numba cache for the rest of the session)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "set-so-that-teardown-removes-it")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setattr(cfg, "CACHE_DIR", cfg.CACHE_DIR)     # restored afterwards
    target = cache.configure_numba_cache()
    assert target and not target.startswith(str(blocker))
    assert os.path.isdir(target) and os.access(target, os.W_OK)
    assert os.environ["NUMBA_CACHE_DIR"] == target == cfg.CACHE_DIR


def test_the_previous_test_left_numba_cache_dir_as_it_was():
    """The session's children keep the usual cache (the leak this file once had)."""
    assert os.environ.get("NUMBA_CACHE_DIR") == _SESSION_NUMBA_CACHE_DIR


def _can_mount() -> bool:
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _can_mount(), reason="needs a private mount namespace (unshare -m)")
def test_import_and_first_kernel_call_from_a_read_only_copy(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(ROOT / "tronlab", site / "tronlab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.so"))
    home = tmp_path / "home-file"
    home.write_text("")
    script = ("import os, tronlab\n"
              "from tronlab import Board, flood_fill\n"
              "print(flood_fill(Board.from_ascii('1..#\\n...2'), 0))\n"
              "print(os.environ['NUMBA_CACHE_DIR'])\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH", "TRONLAB_AOT_DIR")}
    env.update(HOME=str(home / "home"), PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1")
    shell = ('mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && '
             'exec "$1" -c "$2"')
    out = subprocess.run(["unshare", "-m", "sh", "-c", shell, str(site), sys.executable, script],
                         env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    count, where = out.stdout.split()
    assert count == "5"
    assert not where.startswith(str(site)) and not where.startswith(str(home))
