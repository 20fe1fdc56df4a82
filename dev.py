#!/usr/bin/env python3
"""Set up tronlab in a local virtual environment and open the course or run the tests.

    python3 dev.py course     # set up .venv, install tronlab, open the course in JupyterLab
    python3 dev.py test       # set up .venv, run the whole test suite
    python3 dev.py strip      # remove outputs and execution counts from the course notebooks

Needs nothing but Python 3.10+.  One environment, ``.venv`` beside this file (or the
directory named by ``TRONLAB_VENV``), serves both ``course`` and ``test``: it holds
tronlab with everything the course notebooks import and the test tools, and is
re-installed only when ``pyproject.toml`` changes, so after either command has run once
the course starts without a network.  JupyterLab serves the repository's root (lessons in
``notebooks/``, ``exercises/``, ``solutions/``) without the news popup and without
autosave.  Extra arguments go to JupyterLab (``python3 dev.py course --no-browser``),
to pytest (``python3 dev.py test -k rules``) or name the notebooks to strip;
``python3 dev.py COMMAND --help`` says what a command does without installing anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("TRONLAB_VENV") or ROOT / ".venv").resolve()
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
CHROMIUM = "/usr/bin/chromium"
#: the one set of extras both commands install: the course's own (pettingzoo for notebook 08)
#: and the test tools, so neither command ever re-installs after the other
EXTRAS = "test,pettingzoo"
#: ``dev.py test`` runs the suite in this many processes at most (one a core)
TEST_WORKERS = 2
STAMP = VENV / ".tronlab-installed"
WARM_STAMP = VENV / ".tronlab-warm"
#: what the warm-up compiled (tronlab.jit.warmup.signature_report); the tests read it
WARMUP_REPORT = VENV / ".tronlab-warmup-report.json"
SETTINGS = VENV / "share" / "jupyter" / "lab" / "settings"
#: JupyterLab settings for a class: no news popup, no update check, no autosave (a notebook
#: changes on disk only when the student saves it)
OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
}
NOTEBOOK_DIRS = ("notebooks", "exercises", "solutions")


def say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


def run(*cmd, **kw) -> None:
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def _install_digest() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + EXTRAS.encode()).hexdigest()


def is_installed() -> bool:
    """Whether the environment holds this pyproject's tronlab with :data:`EXTRAS`."""
    return PY.exists() and STAMP.exists() and STAMP.read_text() == _install_digest()


def ensure_venv() -> None:
    """Create the environment and install tronlab into it, unless that is done already."""
    if sys.version_info < (3, 10):
        sys.exit(f"tronlab needs Python 3.10 or newer; this is {sys.version.split()[0]}")
    if is_installed():
        return
    if not PY.exists():
        say(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    say("installing tronlab and its dependencies (first run takes a few minutes)")
    run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    # pip byte-compiles what it installs one file after another (a third of its time);
    # compileall does the same work on every core
    run(PY, "-m", "pip", "install", "--quiet", "--no-compile", "-e", f".[{EXTRAS}]", cwd=ROOT)
    compile_bytecode(site_packages())
    mark_installed()


def site_packages() -> Path:
    """The environment's folder of installed packages."""
    import sysconfig
    return Path(sysconfig.get_path("purelib", vars={"base": str(VENV), "platbase": str(VENV)}))


def compile_bytecode(*folders) -> None:
    """Write the ``.pyc`` files of ``folders`` on all cores.  Python writes them itself on
    first import, except where ``PYTHONDONTWRITEBYTECODE`` is set: there every process
    (each contest program, notebook kernel and test worker) would compile its imports
    from source again.  A file that does not compile (some packages ship such test data)
    is left to fail where it is imported, as it would without this step."""
    folders = [str(f) for f in folders if Path(f).is_dir()]
    if folders:
        subprocess.call([str(PY), "-m", "compileall", "-qq", "-j", "0", *folders], cwd=ROOT)


def mark_installed() -> None:
    STAMP.write_text(_install_digest())


def write_lab_settings() -> Path:
    """JupyterLab's application settings for the course (see :data:`OVERRIDES`)."""
    SETTINGS.mkdir(parents=True, exist_ok=True)
    path = SETTINGS / "overrides.json"
    text = json.dumps(OVERRIDES, indent=2) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return SETTINGS


def build_fast_start() -> None:
    """Compile the kernels ahead of use, so that no notebook waits for the compiler.

    numba's cache is filled by ``tronlab.jit.warmup`` (30-60 s the first time, 3 s after).
    The ahead-of-time module is optional: without a C compiler tronlab uses numba's cache.
    When it is missing it is built at the same time, in a process of its own (another
    core's worth of compiling: a first start waits for the longer of the two, not both),
    with a numba cache of its own, so the warm-up still starts from an empty cache and
    its report says so (tests/test_warmup.py).  Both are done once per state of the
    sources (:data:`WARM_STAMP`).
    """
    if is_warm():
        return
    compile_bytecode(ROOT / "tronlab")
    aot = start_aot_build()
    try:
        say("filling numba's compile cache (30-60 s the first time)")
        WARMUP_REPORT.unlink(missing_ok=True)
        run(PY, "-m", "tronlab.jit.warmup", "--quiet", cwd=ROOT,
            env=dict(os.environ, TRONLAB_WARMUP_REPORT=str(WARMUP_REPORT)))
    except BaseException:
        if aot is not None:
            aot[0].kill()
            finish_aot_build(aot)
        raise
    if aot is not None and not finish_aot_build(aot):
        say("no ahead-of-time kernels: tronlab will use numba's compile cache instead")
    mark_warm()


def start_aot_build():
    """Start building the ahead-of-time module when there is none for these sources:
    ``(process, its numba cache folder)``, else None."""
    built = ("import os, sys, tronlab.jit.aot as a; "
             "sys.exit(0 if os.path.exists(a.module_path()) else 1)")
    if subprocess.call([str(PY), "-c", built], cwd=ROOT) == 0:
        return None
    say("compiling the ahead-of-time kernels beside it (under a minute; optional)")
    cache = Path(tempfile.mkdtemp(prefix="tronlab-aot-numba-"))
    with open(cache / "build.log", "w") as log:      # what it says, printed at the end
        proc = subprocess.Popen([str(PY), "-m", "tronlab.jit.aot", "build"], cwd=ROOT,
                                env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)),
                                stdout=log, stderr=subprocess.STDOUT)
    return proc, cache


def finish_aot_build(aot) -> bool:
    """Wait for :func:`start_aot_build`'s process, print what it said, remove its cache;
    whether it built the module."""
    proc, cache = aot
    proc.wait()
    out = (cache / "build.log").read_text(errors="replace")
    shutil.rmtree(cache, ignore_errors=True)
    if out.strip():
        print(out.rstrip(), flush=True)
    return proc.returncode == 0


def is_warm() -> bool:
    return WARM_STAMP.exists() and WARM_STAMP.read_text() == _sources_digest()


def mark_warm() -> None:
    """Record that the kernels were compiled for the sources as they are now (the warm-up
    itself wrote cache files, which :func:`_sources_digest` counts)."""
    WARM_STAMP.write_text(_sources_digest())


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


def course_command(args) -> list[str]:
    """The JupyterLab command line: the repository's root, the first lesson open."""
    extra = ["--allow-root"] if os.name == "posix" and os.geteuid() == 0 else []
    return [str(PY), "-m", "jupyterlab", "notebooks/00_welcome.ipynb",
            f"--ServerApp.root_dir={ROOT}", f"--LabApp.app_settings_dir={write_lab_settings()}",
            *extra, *args]


def course(args) -> int:
    ensure_venv()
    build_fast_start()
    say("opening the course in JupyterLab (Ctrl-C to stop)")
    return subprocess.call(course_command(args), cwd=ROOT)


def test(args) -> int:
    ensure_venv()
    build_fast_start()
    ensure_chromium()
    env = dict(os.environ, PYTHONHASHSEED="0", MPLBACKEND="Agg")
    # the run writes bytecode (pytest's rewritten test files, the modules of the hundreds
    # of programs and kernels it starts) even where PYTHONDONTWRITEBYTECODE is set: else
    # each process compiles its imports from source again (collecting the suite took
    # 20 s against 11 s, tests/test_cli.py 28 s against 21 s)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # the AOT tests load the module build_fast_start() just made instead of building their
    # own (minutes); they build one into a temp dir when it is missing or stale
    where = "import tronlab.jit.aot as a; print(a.aot_dir())"
    aot_dir = subprocess.run([str(PY), "-c", where], cwd=ROOT, capture_output=True, text=True)
    if aot_dir.returncode == 0 and aot_dir.stdout.strip():
        env.setdefault("TRONLAB_TEST_AOT_DIR", aot_dir.stdout.strip())
    # the warm-up's signature check uses the report of a cold warm-up just made, if any
    # (tests/test_warmup.py checks it is cold and of these sources, else compiles anew)
    if WARMUP_REPORT.exists():
        env.setdefault("TRONLAB_TEST_WARMUP_REPORT", str(WARMUP_REPORT))
    return subprocess.call([str(PY), "-m", "pytest", *parallel_args(args), *args],
                           cwd=ROOT, env=env)


def _cores() -> int:
    """The cores this process may use.  tronlab.arena.pycheck.checks_at_once counts them
    the same way; each keeps its own four lines: dev.py runs before tronlab (and numpy,
    which ``import tronlab`` loads) is installed, and tronlab cannot import dev.py."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on Linux
        return os.cpu_count() or 1


def parallel_args(args) -> list:
    """pytest-xdist's options for ``dev.py test``: one worker a core, at most
    :data:`TEST_WORKERS` (many tests run bots against a clock and start programs of their
    own, so more workers than cores would let the machine's load decide them), whole files
    to a worker (nbval runs a notebook's cells in order; module fixtures are shared).
    None when the caller chose (``-n``, ``-p no:xdist``), on one core, or with
    ``TRONLAB_TEST_WORKERS=1``."""
    if any(a == "-n" or a.startswith(("-n", "--numprocesses", "--dist")) or a == "no:xdist"
           for a in args):
        return []
    wanted = os.environ.get("TRONLAB_TEST_WORKERS", "")
    workers = int(wanted) if wanted.isdigit() else min(TEST_WORKERS, _cores())
    # --no-loadscope-reorder: files start in the order collected, which conftest.py makes
    # slowest first; xdist's own order (most tests first) left a 117 s file for the end
    return (["-n", str(workers), "--dist", "loadfile", "--no-loadscope-reorder"]
            if workers > 1 else [])


# ---- notebooks without outputs ------------------------------------------------------------------
#: the kernel a committed notebook names when it names none
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def strip_notebook(nb: dict) -> dict:
    """``nb`` as it is committed: no outputs, no execution counts, cell metadata only ``tags``,
    notebook metadata only the kernelspec and the language's name (not the version of
    Python that last ran it), every cell with a stable id (nbformat 4.5)."""
    out = dict(nb)
    meta = nb.get("metadata") or {}
    language = (meta.get("language_info") or {}).get("name", "python")
    out["metadata"] = {"kernelspec": dict(meta.get("kernelspec") or KERNELSPEC),
                       "language_info": {"name": language}}
    out["nbformat"], out["nbformat_minor"] = 4, 5
    cells, seen = [], set()
    for i, cell in enumerate(nb.get("cells", [])):
        c = {"cell_type": cell["cell_type"]}
        cid = cell.get("id")
        if not cid or cid in seen:
            cid = f"c{i:02d}"
            while cid in seen:
                cid += "x"
        seen.add(cid)
        c["id"] = cid
        tags = (cell.get("metadata") or {}).get("tags")
        c["metadata"] = {"tags": list(tags)} if tags else {}
        if cell["cell_type"] == "code":
            c["execution_count"], c["outputs"] = None, []
        if "attachments" in cell and cell["cell_type"] == "markdown":
            c["attachments"] = cell["attachments"]
        c["source"] = cell.get("source", "")
        cells.append(c)
    out["cells"] = cells
    return out


def notebook_paths(args) -> list[Path]:
    if args:
        return [Path(a).resolve() for a in args]
    return sorted(p for d in NOTEBOOK_DIRS for p in (ROOT / d).glob("*.ipynb"))


def read_notebook(path: Path) -> dict:
    """The notebook at ``path``; a ValueError saying why the file is not one."""
    if path.is_dir():
        raise ValueError("it is a folder, not a notebook")
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError("no such file") from None
    except OSError as err:
        raise ValueError(err.strerror or str(err)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"not a notebook: not JSON text ({err})") from None
    cells = nb.get("cells", []) if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: expected a JSON object with a list of cells")
    for i, cell in enumerate(cells):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise ValueError(f"not a notebook: cell {i} has no cell_type")
    return nb


def _strip_error(message: str) -> int:
    print(f"dev.py strip: error: {message}", file=sys.stderr)
    return 2


def strip(args) -> int:
    """Strip the named notebooks (default: every course notebook); say which changed.
    Every file is read first: one that is not a notebook stops the command before any
    is written, with one error line and exit code 2."""
    if args in (["-h"], ["--help"]):    # not a notebook called '--help'
        print("usage: python3 dev.py strip [NOTEBOOK ...]\n\nRemove outputs and execution "
              "counts from the named notebooks (default: every notebook of the course, in "
              "notebooks/, exercises/ and solutions/); cell tags stay.")
        return 0
    if any(not a.strip() for a in args):
        return _strip_error("an empty path names no notebook")
    notebooks = []
    for path in notebook_paths(args):
        try:
            notebooks.append((path, read_notebook(path)))
        except ValueError as err:
            return _strip_error(f"{path}: {err}")
    changed = 0
    for path, nb in notebooks:
        clean = strip_notebook(nb)
        if clean != nb:
            path.write_text(json.dumps(clean, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
            say(f"stripped {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            changed += 1
    say(f"{changed} notebook(s) changed")
    return 0


COMMANDS = {"course": course, "test": test, "strip": strip}
#: what ``course`` and ``test`` do: their usage, a sentence, the tool taking their extra
#: arguments, an example of one, and that tool's help in the environment
TOOL_HELP = {
    "course": ("[JUPYTERLAB-OPTION ...]", "opens the course in JupyterLab on the repository's "
               "root, the first lesson open", "JupyterLab", "--no-browser",
               "-m jupyterlab --help"),
    "test": ("[PYTEST-ARGUMENT ...]", f"runs the test suite, in at most {TEST_WORKERS} "
             "processes", "pytest", "-k rules", "-m pytest --help"),
}


def command_help(name: str) -> str:
    """``dev.py NAME --help``: what the command does and where its extra arguments go,
    said without setting anything up (the tool's own help needs the environment)."""
    usage, what, tool, example, own_help = TOOL_HELP[name]
    where = os.path.relpath(PY) if PY.is_relative_to(Path.cwd()) else str(PY)
    state = ("it is set up" if is_installed() else
             "it is not set up yet: the first run of a command sets it up")
    about = textwrap.fill(f"Sets up the environment in {VENV} (the first time: a few minutes, "
                          f"installing tronlab and its dependencies), then {what}.", 88)
    return (f"usage: python3 dev.py {name} {usage}\n\n{about}\n"
            f"Extra arguments go to {tool}: python3 dev.py {name} {example}\n"
            f"{tool}'s own options: {where} {own_help}\n({state})")


def main(argv) -> int:
    if argv[:1] in (["-h"], ["--help"], ["help"]):
        print(__doc__.strip())
        return 0
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip())
        return 2
    if argv[0] in TOOL_HELP and argv[1:2] in (["-h"], ["--help"]):   # before any install
        print(command_help(argv[0]))
        return 0
    try:
        return COMMANDS[argv[0]](argv[1:])
    except subprocess.CalledProcessError as err:
        say(f"setup step failed: {' '.join(map(str, err.cmd))} (exit {err.returncode})")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
