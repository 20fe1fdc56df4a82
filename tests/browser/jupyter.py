"""What the browser tests share: a Jupyter server in throw-away directories, a kernel
client that asks the running kernel for values, the page scripts that run a notebook and
report its errors, and small notebooks written for one test."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1000}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterServer:
    """A Jupyter server in its own process group and its own directories, serving a copy
    of ``notebooks/`` to JupyterLab (``/lab``) and Notebook 7 (``/notebooks``) alike; the
    browser tests share one (see conftest.py) and add the notebooks they need to its root."""

    def __init__(self, base: Path):
        self.base = base
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.root = base / "root"
        self.runtime = base / "runtime"
        self.log_path = base / "server.log"
        self.proc = None
        self.url = f"http://127.0.0.1:{self.port}"

    def _env(self) -> dict:
        dirs = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data",
                "JUPYTER_RUNTIME_DIR": "runtime", "JUPYTERLAB_SETTINGS_DIR": "settings",
                "JUPYTERLAB_WORKSPACES_DIR": "workspaces", "IPYTHONDIR": "ipython"}
        env = dict(os.environ)
        for var, sub in dirs.items():
            (self.base / sub).mkdir(parents=True, exist_ok=True)
            env[var] = str(self.base / sub)
        env.pop("MPLBACKEND", None)
        env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
        env["PYTHONHASHSEED"] = "0"
        return env

    def _settings(self):
        """No news popup; every cell kept in the DOM (no windowing) so widgets are findable."""
        s = self.base / "settings"
        (s / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
        (s / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        (s / "@jupyterlab" / "notebook-extension").mkdir(parents=True, exist_ok=True)
        (s / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
            json.dumps({"windowingMode": "none"}))

    def start(self):
        shutil.copytree(ROOT / "notebooks", self.root)
        env = self._env()
        self._settings()
        # both front ends expose their app to the page; offline: no PyPI look-ups from the
        # extension manager
        extra = ["--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
                 "--JupyterNotebookApp.expose_app_in_browser=True"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            extra.append("--allow-root")      # CI containers run as root
        # IdentityProvider.token is the current name of ServerApp.token
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
               *extra]
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True, cwd=self.root)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"jupyter exited with {self.proc.returncode}:\n{self.logs()}")
            try:
                self.api("GET", "/api/status")
                return
            except OSError:
                time.sleep(0.5)
        pytest.fail(f"jupyter did not answer within 120 s:\n{self.logs()}")

    def api(self, method: str, path: str):
        req = urllib.request.Request(self.url + path, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def logs(self) -> str:
        self.log.flush()
        return self.log_path.read_text()[-4000:]

    def shut_kernels(self, kernel_ids=None):
        """Shut the kernels ``kernel_ids`` down (all of them by default); each runs in its
        own process group, so stopping the server alone would leave them running."""
        if kernel_ids is None:
            try:
                kernel_ids = [k["id"] for k in self.api("GET", "/api/kernels")]
            except OSError:
                kernel_ids = []
        for kid in kernel_ids:
            try:
                self.api("DELETE", f"/api/kernels/{kid}")
            except OSError:
                pass

    def stop(self):
        if self.proc is None:
            return
        self.shut_kernels()
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        except ProcessLookupError:
            pass
        self.log.close()


def ask_kernel(connection_file: Path, expressions: dict) -> dict:
    """Evaluate ``expressions`` in the running kernel (silently) and return their text values."""
    from jupyter_client import BlockingKernelClient

    kc = BlockingKernelClient(connection_file=str(connection_file))
    kc.load_connection_file()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        msg_id = kc.execute("", silent=True, store_history=False, user_expressions=expressions)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            reply = kc.get_shell_msg(timeout=60)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        out = {}
        for name, value in reply["content"]["user_expressions"].items():
            assert value["status"] == "ok", f"{name}: {value.get('ename')}: {value.get('evalue')}"
            out[name] = value["data"]["text/plain"]
        return out
    finally:
        kc.stop_channels()


def wait_for_kernel(connection_file: Path, expression: str, want: str, timeout: float = 30):
    """Poll the kernel until ``expression`` evaluates to the text ``want``."""
    deadline = time.monotonic() + timeout
    while True:
        got = ask_kernel(connection_file, {"x": expression})["x"]
        if got == want:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"kernel: {expression} is {got}, expected {want}")
        time.sleep(0.3)


RUN_ALL = """async () => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  await panel.context.ready;
  await panel.sessionContext.ready;
  await app.commands.execute('notebook:run-all-cells');
}"""

ALL_DONE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const code = panel.content.widgets.filter((c) => c.model.type === 'code');
  return !!kernel && kernel.status === 'idle' && code.length > 0
    && code.every((c) => c.model.executionCount !== null);
}"""

ERRORS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const errors = [];
  for (const c of panel.content.widgets) {
    if (c.model.type !== 'code') continue;
    for (const o of c.model.outputs.toJSON()) {
      if (o.output_type === 'error') errors.push(o.ename + ': ' + o.evalue);
    }
  }
  return errors;
}"""


PANEL_READY = ("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
               " && window.jupyterapp.shell.currentWidget.sessionContext"
               " && window.jupyterapp.shell.currentWidget.content")
KERNEL_ID = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id"


def run_notebook(page, server: JupyterServer, path: str, *, app: str = "lab") -> Path:
    """Open ``path`` (in the server's root) in ``app`` (``lab`` or ``notebook``), run all its
    cells, check that none raised, and return its kernel's connection file."""
    where = f"/lab/tree/{path}?reset&" if app == "lab" else f"/notebooks/{path}?"
    page.goto(f"{server.url}{where}token={server.token}", wait_until="domcontentloaded")
    page.wait_for_function(PANEL_READY, timeout=120_000)
    page.evaluate(RUN_ALL)
    page.wait_for_function(ALL_DONE, timeout=240_000, polling=500)
    errors = page.evaluate(ERRORS)
    assert not errors, f"notebook cells raised: {errors}"
    return server.runtime / f"kernel-{page.evaluate(KERNEL_ID)}.json"


def write_notebook(path: Path, cells) -> str:
    """A notebook of the code ``cells`` at ``path``; returns its name."""
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
                     "outputs": [], "source": src} for i, src in enumerate(cells)],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))
    return path.name


CELL_STATE = """() => { const nb = window.jupyterapp.shell.currentWidget.content;
  return [nb.activeCellIndex, nb.widgets.length]; }"""


def keys_stay_in(page, control, keys=("j", "d", "d")):
    """Press ``keys`` with ``control`` (a widget's slider, button...) focused and check that
    the front end saw none of them: the same cell active, none deleted.  In command mode "j"
    selects the next cell and "d d" deletes one, and Lumino matches its shortcuts from the
    focused element up, so each control needs ``data-lm-suppress-shortcuts`` itself."""
    control.focus()
    before = page.evaluate(CELL_STATE)
    for key in keys:
        page.keyboard.press(key)
    page.wait_for_timeout(200)
    after = page.evaluate(CELL_STATE)
    assert after == before, f"keys {keys} reached the notebook (active cell, cells): " \
                            f"{before} -> {after}"
