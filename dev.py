#!/usr/bin/env python3
"""Set up tronlab in a local virtual environment and open the course or run the tests.

    python3 dev.py course     # set up .venv, install tronlab, open the course in JupyterLab
    python3 dev.py test       # set up .venv with the test extras, run the whole test suite

Needs nothing but Python 3.10+.  The environment lives in ``.venv`` beside this file and
is re-installed only when ``pyproject.toml`` changes.  Extra arguments after ``test`` go
to pytest (``python3 dev.py test -k rules``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
CHROMIUM = "/usr/bin/chromium"


def say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


def run(*cmd, **kw) -> None:
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def ensure_venv(extras: str) -> None:
    if sys.version_info < (3, 10):
        sys.exit(f"tronlab needs Python 3.10 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        say(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    stamp = VENV / f".installed-{extras or 'base'}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    say("installing tronlab and its dependencies (first run takes a few minutes)")
    run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    target = f".[{extras}]" if extras else "."
    run(PY, "-m", "pip", "install", "--quiet", "-e", target, cwd=ROOT)
    stamp.write_text(digest)


def build_fast_start() -> None:
    """Compile the kernels ahead of use, so that no notebook waits for the compiler.

    numba's cache is filled by ``tronlab.jit.warmup`` (about 30 s the first time, 3 s after).
    The ahead-of-time module is optional: without a C compiler tronlab uses numba's cache.
    """
    stamp = VENV / ".warm"
    digest = _sources_digest()
    if not (stamp.exists() and stamp.read_text() == digest):
        say("filling numba's compile cache (about 30 s the first time)")
        run(PY, "-m", "tronlab.jit.warmup", "--quiet", cwd=ROOT)
        stamp.write_text(_sources_digest())     # the warm-up itself wrote cache files
    built = ("import os, sys, tronlab.jit.aot as a; "
             "sys.exit(0 if os.path.exists(a.module_path()) else 1)")
    if subprocess.call([str(PY), "-c", built], cwd=ROOT) == 0:
        return
    say("compiling the ahead-of-time kernels (about 20 s; optional)")
    if subprocess.call([str(PY), "-m", "tronlab.jit.aot", "build"], cwd=ROOT) != 0:
        say("no ahead-of-time kernels: tronlab will use numba's compile cache instead")


def _sources_digest() -> str:
    """Changes when the package's sources, the environment or numba's cache files change."""
    h = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    for path in sorted((ROOT / "tronlab").rglob("*.py")):
        st = path.stat()
        h.update(f"{path}:{st.st_mtime_ns}:{st.st_size}".encode())
    h.update(str(len(list((ROOT / "tronlab").rglob("*.nbi")))).encode())
    return h.hexdigest()


def ensure_chromium() -> None:
    """The browser test drives Debian's chromium; install it when we may."""
    if Path(CHROMIUM).exists():
        return
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("apt-get"):
        say("chromium not found and cannot be installed here: the browser test will be skipped")
        return
    say("installing Debian's chromium for the browser test")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run("apt-get", "update", "-qq", env=env)
    run("apt-get", "install", "-y", "-qq", "chromium", env=env, stdout=subprocess.DEVNULL)


def course(args) -> int:
    ensure_venv("")
    build_fast_start()
    say("opening the course in JupyterLab (Ctrl-C to stop)")
    extra = ["--allow-root"] if os.name == "posix" and os.geteuid() == 0 else []
    return subprocess.call([str(BIN / "jupyter"), "lab", "notebooks/00_welcome.ipynb", *extra, *args],
                           cwd=ROOT)


def test(args) -> int:
    ensure_venv("test")
    build_fast_start()
    ensure_chromium()
    env = dict(os.environ, PYTHONHASHSEED="0", MPLBACKEND="Agg")
    return subprocess.call([str(PY), "-m", "pytest", *args], cwd=ROOT, env=env)


def main(argv) -> int:
    if not argv or argv[0] not in ("course", "test"):
        print(__doc__.strip())
        return 2
    try:
        return course(argv[1:]) if argv[0] == "course" else test(argv[1:])
    except subprocess.CalledProcessError as err:
        say(f"setup step failed: {' '.join(map(str, err.cmd))} (exit {err.returncode})")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
