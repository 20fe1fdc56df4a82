"""dev.py: one environment for both commands, the course offline, the course's settings, strip.

The offline test is the class-demo story of issue 12: ``dev.py test`` has set the
environment up once, the network is gone (``PIP_NO_INDEX=1``, so any pip install fails
on the build back-end), and ``dev.py course`` must still start JupyterLab on the
repository's root, with the news popup and autosave off.  The environment is a throw-away
directory whose ``bin/python`` runs the interpreter of this test run (so nothing is
installed); what ``dev.py test`` leaves behind (its install and warm-up stamps) is written
by dev.py's own functions.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_dev(venv: Path, monkeypatch):
    """dev.py as a module, with its environment in ``venv``."""
    monkeypatch.setenv("TRONLAB_VENV", str(venv))
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fake_env(venv: Path) -> None:
    """An 'environment' whose python is this test run's interpreter."""
    (venv / "bin").mkdir(parents=True)
    py = venv / "bin" / "python"
    py.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    py.chmod(0o755)


def test_course_and_test_share_one_install(tmp_path, monkeypatch):
    dev = load_dev(tmp_path / "env", monkeypatch)
    fake_env(tmp_path / "env")
    calls = []
    monkeypatch.setattr(dev, "run", lambda *cmd, **kw: calls.append([str(c) for c in cmd]))
    compiled = []
    monkeypatch.setattr(dev, "compile_bytecode", lambda *folders: compiled.append(folders))
    dev.ensure_venv()                       # what `dev.py test` does first
    installs = [c for c in calls if "-e" in c]
    assert len(installs) == 1 and installs[0][-1] == ".[test,pettingzoo]"
    # pip leaves the bytecode to compileall, which uses every core
    assert "--no-compile" in installs[0]
    assert compiled == [(dev.site_packages(),)]
    assert tmp_path / "env" in dev.site_packages().parents
    calls.clear()
    dev.ensure_venv()                       # what `dev.py course` does next: nothing to install
    assert calls == [] and len(compiled) == 1
    assert dev.is_installed()


def test_the_test_command_writes_bytecode_even_where_the_machine_says_not_to(tmp_path,
                                                                            monkeypatch):
    """Hundreds of processes import tronlab during a run; with PYTHONDONTWRITEBYTECODE
    each would compile it from source again.  ``dev.py test`` runs pytest without it, and
    the set-up writes tronlab's bytecode for the course's kernels too."""
    dev = load_dev(tmp_path / "env", monkeypatch)
    fake_env(tmp_path / "env")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    for name in ("ensure_venv", "build_fast_start", "ensure_chromium"):
        monkeypatch.setattr(dev, name, lambda: None)
    seen = []
    monkeypatch.setattr(dev.subprocess, "call", lambda cmd, **kw: seen.append((cmd, kw)) or 0)
    monkeypatch.setattr(dev.subprocess, "run", lambda *a, **kw: subprocess.CompletedProcess(
        a, 1, "", ""))
    assert dev.test(["-k", "nothing"]) == 0
    (cmd, kw), = seen
    assert cmd[1:3] == ["-m", "pytest"] and cmd[-2:] == ["-k", "nothing"]
    assert "PYTHONDONTWRITEBYTECODE" not in kw["env"] and kw["env"]["PYTHONHASHSEED"] == "0"
    assert os.environ["PYTHONDONTWRITEBYTECODE"] == "1"        # dev.py's own is left alone

    monkeypatch.undo()
    dev = load_dev(tmp_path / "env", monkeypatch)
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text("X = 1\n")
    (package / "broken.py").write_text("def (:\n")          # left to fail on import
    dev.compile_bytecode(package, tmp_path / "missing")
    assert [p.name.split(".")[0] for p in (package / "__pycache__").glob("*.pyc")] == ["mod"]


def test_the_ahead_of_time_build_runs_beside_the_warm_up_with_a_cache_of_its_own(
        tmp_path, monkeypatch, capsys):
    """A first start compiles numba's cache and the ahead-of-time module at once (two
    processes), the build with a numba cache of its own: the warm-up must start from an
    empty cache for its report to count as cold.  A warm-up that fails stops the build."""
    dev = load_dev(tmp_path / "env", monkeypatch)
    fake_env(tmp_path / "env")
    events = []

    class Build:
        returncode = None

        def __init__(self, cmd, env, stdout, **kw):
            events.append(("build starts", env["NUMBA_CACHE_DIR"]))
            stdout.write("built 32 kernels\n")
            self.cache = env["NUMBA_CACHE_DIR"]

        def wait(self):
            events.append(("build waited for",))
            self.returncode = 0 if self.returncode is None else self.returncode

        def kill(self):
            events.append(("build killed",))
            self.returncode = -9

    monkeypatch.setattr(dev, "compile_bytecode", lambda *folders: None)
    monkeypatch.setattr(dev.subprocess, "call", lambda cmd, **kw: 1)     # no module yet
    monkeypatch.setattr(dev.subprocess, "Popen", Build)
    monkeypatch.setattr(dev, "run", lambda *cmd, **kw: events.append(("warm-up", cmd[2])))
    dev.build_fast_start()
    (start, cache), warm, waited = events
    assert start == "build starts" and warm == ("warm-up", "tronlab.jit.warmup")
    assert waited == ("build waited for",) and not os.path.exists(cache)
    assert os.environ.get("NUMBA_CACHE_DIR") != cache
    assert "built 32 kernels" in capsys.readouterr().out and dev.is_warm()

    def broken(*cmd, **kw):
        raise subprocess.CalledProcessError(1, cmd)
    events.clear()
    dev.WARM_STAMP.unlink()
    monkeypatch.setattr(dev, "run", broken)
    with pytest.raises(subprocess.CalledProcessError):
        dev.build_fast_start()
    assert [e[0] for e in events] == ["build starts", "build killed", "build waited for"]
    assert not dev.is_warm()


def test_the_install_covers_every_import_of_the_course():
    """Every top-level module the course notebooks import is tronlab, the standard library
    or a dependency that the one install brings (pettingzoo for notebook 08)."""
    import ast

    extras = {"test", "pettingzoo"}
    try:
        import tomllib                                  # Python 3.11+
    except ImportError:                                 # 3.10: what the install recorded
        from importlib.metadata import requires
        wanted = [r.split(";")[0] for r in requires("tronlab")
                  if ";" not in r or any(f'extra == "{e}"' in r for e in extras)]
    else:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
        wanted = list(project["dependencies"])
        for e in extras:
            wanted += project["optional-dependencies"][e]
    names = {w.split(">")[0].split("=")[0].split("[")[0].strip().lower() for w in wanted}
    provided = names | {"tronlab", "ipython", "mpl_toolkits"}   # the last two come with them
    used = set()
    for folder in ("notebooks", "exercises", "solutions"):
        for path in (ROOT / folder).glob("*.ipynb"):
            for cell in json.loads(path.read_text())["cells"]:
                if cell["cell_type"] != "code":
                    continue
                src = "".join(cell["source"])
                src = "\n".join(line for line in src.splitlines()
                                if not line.lstrip().startswith(("%", "!")))
                for node in ast.walk(ast.parse(src)):
                    if isinstance(node, ast.Import):
                        used |= {a.name.split(".")[0] for a in node.names}
                    elif isinstance(node, ast.ImportFrom) and node.level == 0:
                        used.add(node.module.split(".")[0])
    # the scan read the notebooks (with none read, nothing would be missing either)
    assert {"numpy", "matplotlib", "networkx", "tronlab"} <= used, sorted(used)
    missing = {m for m in used if m.lower() not in provided and m not in sys.stdlib_module_names}
    assert not missing, f"the course imports {sorted(missing)}, which dev.py does not install"
    assert "pettingzoo" in used or "pettingzoo" in names


def test_strip_removes_outputs_and_keeps_tags(tmp_path, monkeypatch):
    dev = load_dev(tmp_path / "env", monkeypatch)
    nb = {"nbformat": 4, "nbformat_minor": 4,
          "metadata": {"kernelspec": {"name": "python3"}, "widgets": {"state": {}}},
          "cells": [{"cell_type": "code", "execution_count": 3, "metadata": {"tags": ["answer"],
                     "scrolled": True}, "outputs": [{"output_type": "stream", "text": "x"}],
                     "source": "1 + 1"},
                    {"cell_type": "markdown", "metadata": {"collapsed": False}, "source": "# hi"}]}
    clean = dev.strip_notebook(nb)
    code, md = clean["cells"]
    assert code["outputs"] == [] and code["execution_count"] is None
    assert code["metadata"] == {"tags": ["answer"]} and md["metadata"] == {}
    assert code["id"] != md["id"]
    assert set(clean["metadata"]) == {"kernelspec", "language_info"}
    assert dev.strip_notebook(clean) == clean
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(nb))
    assert dev.strip([str(path)]) == 0
    assert json.loads(path.read_text()) == clean



@pytest.mark.parametrize("name, text, words", [
    ("missing.ipynb", None, "no such file"),
    ("folder", "", "it is a folder"),
    ("text.ipynb", "not json", "not JSON text"),
    ("bytes.ipynb", b"\xff\xfe", "not JSON text"),
    ("list.ipynb", "[1, 2]", "a list of cells"),
    ("cells.ipynb", '{"cells": 3}', "a list of cells"),
    ("empty_cell.ipynb", '{"cells": [{}]}', "cell 0 has no cell_type"),
])
def test_strip_names_a_file_that_is_not_a_notebook_and_writes_nothing(tmp_path, monkeypatch,
                                                                      capsys, name, text,
                                                                      words):
    dev = load_dev(tmp_path / "env", monkeypatch)
    good = tmp_path / "good.ipynb"
    good.write_text(json.dumps({"cells": [{"cell_type": "code", "source": "1",
                                           "outputs": [1], "metadata": {}}]}))
    before = good.read_text()
    bad = tmp_path / name
    if name == "folder":
        bad.mkdir()
    elif isinstance(text, bytes):
        bad.write_bytes(text)
    elif text is not None:
        bad.write_text(text)
    assert dev.strip([str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dev.py strip: error: ") and err.count("\n") == 1
    assert name in err and words in err
    assert good.read_text() == before           # checked first, written after


def test_strip_of_an_empty_path_and_help(tmp_path, monkeypatch, capsys):
    dev = load_dev(tmp_path / "env", monkeypatch)
    assert dev.strip([""]) == 2
    assert "an empty path names no notebook" in capsys.readouterr().err
    for flag in ("--help", "-h"):
        assert dev.main([flag]) == 0
        assert "python3 dev.py course" in capsys.readouterr().out
    assert dev.main([]) == 2 and dev.main(["nosuch"]) == 2
    capsys.readouterr()
    for flag in ("--help", "-h"):       # before: "dev.py strip: error: .../--help: no such file"
        assert dev.main(["strip", flag]) == 0
        out = capsys.readouterr()
        assert out.out.startswith("usage: python3 dev.py strip [NOTEBOOK ...]") and not out.err


@pytest.mark.parametrize("command, tool, own_help", [
    ("course", "JupyterLab", "-m jupyterlab --help"), ("test", "pytest", "-m pytest --help")])
def test_help_of_course_and_test_installs_nothing(tmp_path, monkeypatch, capsys, command, tool,
                                                   own_help):
    """``dev.py course --help`` set the environment up (minutes on a fresh machine) and then
    showed JupyterLab's help; it now says what the command does at once."""
    dev = load_dev(tmp_path / "env", monkeypatch)

    def no_setup(*args, **kw):
        raise AssertionError("set up or ran a tool")
    for name in ("ensure_venv", "build_fast_start", "ensure_chromium", "run"):
        monkeypatch.setattr(dev, name, no_setup)
    monkeypatch.setattr(dev.subprocess, "call", no_setup)
    for flag in ("--help", "-h"):
        assert dev.main([command, flag]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert out.startswith(f"usage: python3 dev.py {command} ")
        assert f"Extra arguments go to {tool}" in out and own_help in out
        assert "not set up yet" in out
    assert not (tmp_path / "env").exists()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_course_starts_offline_after_test_has_run(tmp_path, monkeypatch):
    venv = tmp_path / "env"
    dev = load_dev(venv, monkeypatch)
    fake_env(venv)
    dev.mark_installed()          # what `dev.py test` leaves: the install ...
    dev.mark_warm()               # ... and the compiled kernels
    port, token = free_port(), secrets.token_hex(8)
    env = dict(os.environ, TRONLAB_VENV=str(venv), PIP_NO_INDEX="1",
               PIP_INDEX_URL="http://127.0.0.1:9/", PYTHONPATH=str(ROOT))
    for var, sub in {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_RUNTIME_DIR": "runtime",
                     "JUPYTERLAB_SETTINGS_DIR": "settings",
                     "JUPYTERLAB_WORKSPACES_DIR": "workspaces", "IPYTHONDIR": "ipython"}.items():
        (tmp_path / sub).mkdir()
        env[var] = str(tmp_path / sub)
    log = open(tmp_path / "course.log", "w")
    proc = subprocess.Popen([sys.executable, str(ROOT / "dev.py"), "course", "--no-browser",
                             "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
                             "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}"],
                            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
                            start_new_session=True)

    def get(path):
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, (tmp_path / "course.log").read_text()[-3000:]
            try:
                get("/api/status")
                break
            except OSError:
                assert time.monotonic() < deadline, "no server after 180 s"
                time.sleep(0.5)
        top = {item["name"] for item in get("/api/contents/")["content"]}
        assert {"notebooks", "exercises", "solutions"} <= top
        news = get("/lab/api/settings/@jupyterlab/apputils-extension:notification")
        assert news["schema"]["properties"]["fetchNews"]["default"] == "false"
        docs = get("/lab/api/settings/@jupyterlab/docmanager-extension:plugin")
        assert docs["schema"]["properties"]["autosave"]["default"] is False
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
    text = (tmp_path / "course.log").read_text()
    assert "installing" not in text and "filling numba" not in text, text[-2000:]


@pytest.mark.parametrize("cores, args, env, want", [
    (2, [], None, ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"]),
    (8, ["-k", "rules"], None,
     ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"]),   # never more than two
    (1, [], None, []),                                                # one core: one process
    (8, ["-n", "4"], None, []),                                       # the caller chose
    (8, ["-n4"], None, []),
    (8, ["--dist", "load"], None, []),
    (8, ["-p", "no:xdist"], None, []),
    (8, [], "1", []),
    (8, [], "3", ["-n", "3", "--dist", "loadfile", "--no-loadscope-reorder"]),
])
def test_the_suite_runs_in_one_process_a_core_at_most_two(tmp_path, monkeypatch, cores, args,
                                                           env, want):
    dev = load_dev(tmp_path / "venv", monkeypatch)
    monkeypatch.setattr(dev, "_cores", lambda: cores)
    if env is None:
        monkeypatch.delenv("TRONLAB_TEST_WORKERS", raising=False)
    else:
        monkeypatch.setenv("TRONLAB_TEST_WORKERS", env)
    assert dev.parallel_args(args) == want


def test_the_slowest_files_start_first_and_each_keeps_its_own_order():
    # under xdist the files start in collection order: the slow ones first, so the run
    # does not end with one worker alone on test_warmup (117 s), as xdist's own order did
    root = ROOT
    spec = importlib.util.spec_from_file_location("root_conftest", root / "conftest.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    for path in conf.SLOW_FIRST:                 # a renamed file must not drop out unseen
        assert (root / path).is_file(), path
    paths = [root / p for p in ("tests/test_a.py", "tests/test_a.py", "tests/test_cli.py",
                                "notebooks/00.ipynb", "tests/test_warmup.py",
                                "notebooks/00.ipynb", "tests/test_cli.py")]
    assert conf.slow_first(paths, root) == [4, 2, 6, 0, 1, 3, 5]
