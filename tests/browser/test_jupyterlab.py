"""Play notebook 00's board widget in a real chromium, in JupyterLab 4 and in Notebook 7.

Each test starts its own Jupyter server on a free localhost port with a random
token, in throw-away config/data/runtime/settings directories (so nobody's
personal settings leak in), serving a temporary copy of ``notebooks/``.  It
opens ``00_welcome.ipynb`` in a fresh workspace, runs every cell, clicks the
play widget's canvas and presses arrow keys.  Then it asks the *kernel* (a
second client on the kernel's connection file) where the game stands, checks
the page shows the same turn, and saves a screenshot of the board mid-game in
``test-artifacts/`` (``jupyterlab-board.png``, ``notebook7-board.png``).  It also
starts a new game, toggles an overlay checkbox and lets the replay widget run
to its end and seek with the slider, checking each in the kernel.  The server is stopped by its process group in a finally.
"""

from __future__ import annotations

import ast
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

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "00_welcome.ipynb"
ARTIFACTS = ROOT / "test-artifacts"
# Notebook 00 plays hugger on the built-in "arena" with seed 0; this opening is safe there.
KEYS = ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight"]
HEAD_AFTER_KEYS = (4, 4)          # player 0 starts at (3, 7): three up, one right
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterServer:
    """A jupyter lab / notebook server in its own process group and its own directories."""

    def __init__(self, app: str, base: Path):
        self.app, self.base = app, base
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
        if self.app == "lab":   # offline: no PyPI look-ups from the extension manager
            extra = ["--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly"]
        else:
            extra = ["--JupyterNotebookApp.expose_app_in_browser=True"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            extra.append("--allow-root")      # CI containers run as root
        module = "jupyterlab" if self.app == "lab" else "notebook"
        # IdentityProvider.token is the current name of ServerApp.token
        cmd = [sys.executable, "-m", module, "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
               *extra]
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True, cwd=self.root)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"jupyter {self.app} exited with {self.proc.returncode}:\n{self.logs()}")
            try:
                self.api("GET", "/api/status")
                return
            except OSError:
                time.sleep(0.5)
        pytest.fail(f"jupyter {self.app} did not answer within 120 s:\n{self.logs()}")

    def api(self, method: str, path: str):
        req = urllib.request.Request(self.url + path, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def logs(self) -> str:
        self.log.flush()
        return self.log_path.read_text()[-4000:]

    def stop(self, kernel_ids=()):
        if self.proc is None:
            return
        for kid in kernel_ids:                 # kernels run in their own process groups
            try:
                self.api("DELETE", f"/api/kernels/{kid}")
            except OSError:
                pass
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

# where the page and the notebook's scroll containers stand (arrow keys must not move them)
SCROLL_POSITIONS = """() => [document.scrollingElement,
  ...document.querySelectorAll('.jp-WindowedPanel-outer, .jp-Notebook, .jp-NotebookPanel')]
  .map((e) => e.scrollTop)"""

SCROLL_TO_PLAY = """async () => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const i = nb.widgets.findIndex((c) => c.model.sharedModel.getSource().includes('BoardWidget.play('));
  if (i >= 0 && nb.scrollToCell) await nb.scrollToCell(nb.widgets[i], 'center');
  return i;
}"""


SAMPLE_PIXELS = """(root, [w, h]) => {
  const canvas = root.querySelector('canvas.tronlab-canvas');
  const px = canvas.width / w;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const out = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // a point clear of grid lines, head outline, head digit and the dead-head cross
      const i = (Math.floor((y + 0.55) * px) * canvas.width + Math.floor((x + 0.25) * px)) * 4;
      out.push([data[i], data[i + 1], data[i + 2]]);
    }
  }
  return out;
}"""


def expected_rgb(ch: str) -> tuple:
    """The colour board.js should paint a square, from its ASCII character."""
    from tronlab.render import FREE_COLOR, PLAYER_COLORS, TRAIL_COLORS, WALL_COLOR

    if ch == "#":
        c = WALL_COLOR
    elif ch == ".":
        c = FREE_COLOR
    elif ch in "abcd":
        c = TRAIL_COLORS["abcd".index(ch)]
    else:
        c = PLAYER_COLORS[("1234" if ch in "1234" else "ABCD").index(ch)]
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def canvas_mismatches(root_locator, ascii_board: str) -> list:
    """Squares whose colour on the widget's canvas differs from the ASCII board."""
    rows = ascii_board.split("\n")
    h, w = len(rows), len(rows[0])
    got = root_locator.evaluate(SAMPLE_PIXELS, [w, h])
    bad = []
    for k, rgb in enumerate(got):
        y, x = divmod(k, w)
        want = expected_rgb(rows[y][x])
        if max(abs(a - b) for a, b in zip(rgb, want)) > 6:
            bad.append(((x, y), rows[y][x], tuple(rgb), want))
    return bad


def colour_present(png_path: Path, hex_color: str, min_pixels: int) -> bool:
    import matplotlib.image as mpimg

    img = mpimg.imread(str(png_path))[..., :3]
    want = np.array([int(hex_color[i:i + 2], 16) for i in (1, 3, 5)]) / 255.0
    close = np.all(np.abs(img - want) < 3 / 255.0, axis=-1)
    return int(close.sum()) >= min_pixels


def drive(app: str, url_path: str, prefix: str, tmp_path: Path, chromium: str, sp):
    """Run notebook 00 in ``app``; screenshots go to test-artifacts/<prefix>-*.png."""
    from tronlab.render import PLAYER_COLORS, TRAIL_COLORS

    server = JupyterServer(app, tmp_path / app)
    kernel_ids = []
    try:
        server.start()
        with sp() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                outside = []
                page.on("request", lambda r: outside.append(r.url)
                        if not r.url.startswith((server.url, "data:", "blob:", "about:")) else None)
                page.goto(f"{server.url}{url_path}token={server.token}", wait_until="domcontentloaded")
                page.wait_for_function(
                    "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                    " && window.jupyterapp.shell.currentWidget.sessionContext"
                    " && window.jupyterapp.shell.currentWidget.content", timeout=120_000)
                page.evaluate(RUN_ALL)
                page.wait_for_function(ALL_DONE, timeout=240_000, polling=500)
                errors = page.evaluate(ERRORS)
                assert not errors, f"notebook cells raised: {errors}"
                kernel_ids.append(page.evaluate(
                    "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id"))

                assert page.evaluate(SCROLL_TO_PLAY) >= 0, "no BoardWidget.play cell in notebook 00"
                widget = page.locator(".tronlab-board[data-mode=play]")
                widget.wait_for(state="visible", timeout=60_000)
                canvas = widget.locator("canvas.tronlab-canvas")
                canvas.scroll_into_view_if_needed()
                canvas.click()
                assert page.evaluate("() => document.activeElement.classList.contains('tronlab-canvas')")
                scroll_before = page.evaluate(SCROLL_POSITIONS)
                status = widget.locator(".tronlab-status")
                for turn, key in enumerate(KEYS, start=1):
                    page.keyboard.press(key)
                    page.wait_for_function("([el, t]) => el.textContent.startsWith(`Turn ${t}.`)",
                                           arg=[status.element_handle(), turn], timeout=30_000)
                # the keys went to the game, not to JupyterLab or the page
                assert page.evaluate("() => document.activeElement.classList.contains('tronlab-canvas')")
                assert page.evaluate(SCROLL_POSITIONS) == scroll_before

                conn = server.runtime / f"kernel-{kernel_ids[0]}.json"
                state = ask_kernel(conn, {"turn": "game.turn", "over": "game.game_over",
                                          "head": "game.board.head_xy(0)",
                                          "moved": "game.moves[0]"})
                assert int(state["turn"]) == len(KEYS), state
                assert state["over"] == "False", state
                assert state["head"] == repr(HEAD_AFTER_KEYS), state
                assert state["moved"].startswith("[0, "), state      # first key: up
                assert status.text_content().startswith(f"Turn {len(KEYS)}.")
                game_ascii = ast.literal_eval(ask_kernel(conn, {"a": "game.board.to_ascii()"})["a"])
                assert canvas_mismatches(widget, game_ascii) == []

                ARTIFACTS.mkdir(exist_ok=True)
                shot = ARTIFACTS / f"{prefix}-board.png"
                widget.screenshot(path=str(shot))
                # mid-game: both heads and a blue trail are on the picture
                assert colour_present(shot, PLAYER_COLORS[0], 50)
                assert colour_present(shot, PLAYER_COLORS[1], 50)
                assert colour_present(shot, TRAIL_COLORS[0], 200)

                # New game: the kernel starts over
                widget.locator("button.tronlab-new").click()
                wait_for_kernel(conn, "game.turn", "0")
                page.wait_for_function("el => el.textContent.includes('you drive')",
                                       arg=status.element_handle(), timeout=30_000)

                # the overlay checkbox hides the territory overlay and tells the kernel
                view = page.locator(".tronlab-board[data-mode=view]")
                box = view.locator("input[data-overlay=territory]")
                view_canvas = view.locator("canvas.tronlab-canvas")
                view_canvas.scroll_into_view_if_needed()
                assert box.is_checked()
                with_overlay = view_canvas.screenshot()
                box.uncheck()
                wait_for_kernel(conn, "view.hidden_overlays", "['territory']")
                without = view_canvas.screenshot()
                box.check()
                wait_for_kernel(conn, "view.hidden_overlays", "[]")
                assert without != with_overlay and view_canvas.screenshot() == with_overlay
                view.screenshot(path=str(ARTIFACTS / f"{prefix}-overlay.png"))

                # the replay waits at turn 0, without its result, until play is pressed;
                # then it animates to its last frame (71 turns) and shows the result,
                # the speed menu keeps its six entries, and the slider seeks
                replay = page.locator(".tronlab-board[data-mode=replay]")
                slider = replay.locator("input.tronlab-slider")
                assert slider.get_attribute("max") == "71"
                replay.scroll_into_view_if_needed()
                page.wait_for_timeout(1500)
                assert replay.locator(".tronlab-turn").text_content() == "turn 0 / 71"
                result = ask_kernel(conn, {"r": "replay.result"})["r"].strip("'")
                assert result and result not in replay.locator(".tronlab-status").text_content()
                replay.locator("button.tronlab-playpause").click()
                page.wait_for_function("el => el.textContent === 'turn 71 / 71'",
                                       arg=replay.locator(".tronlab-turn").element_handle(),
                                       timeout=60_000)
                wait_for_kernel(conn, "replay.turn", "71")
                assert replay.locator(".tronlab-status").text_content().endswith(result)
                assert replay.locator("select.tronlab-speed option").count() == 6
                slider.fill("30")
                wait_for_kernel(conn, "replay.turn", "30")
                assert replay.locator(".tronlab-turn").text_content() == "turn 30 / 71"
                board30 = ast.literal_eval(
                    ask_kernel(conn, {"a": "record.boards()[30].to_ascii()"})["a"])
                assert canvas_mismatches(replay, board30) == []
                replay.screenshot(path=str(ARTIFACTS / f"{prefix}-replay.png"))
                assert outside == [], f"requests left localhost (must work offline): {outside[:5]}"
            finally:
                browser.close()
    except Exception:
        print(f"--- jupyter {app} log ---\n{server.logs() if server.proc else '(not started)'}")
        raise
    finally:
        server.stop(kernel_ids)


def test_board_widget_in_jupyterlab(tmp_path, chromium_path, sync_playwright, jupyter_available):
    drive("lab", f"/lab/tree/{NOTEBOOK}?reset&", "jupyterlab", tmp_path,
          chromium_path, sync_playwright)


def test_board_widget_in_notebook7(tmp_path, chromium_path, sync_playwright, jupyter_available):
    drive("notebook", f"/notebooks/{NOTEBOOK}?", "notebook7", tmp_path,
          chromium_path, sync_playwright)
