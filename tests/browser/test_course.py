"""The course as a new user meets it, in a real chromium (issue 12).

1. ``python3 dev.py course`` (its environment faked as in tests/test_dev.py, the package
   index unreachable) serves the repository: the page it opens (its "browser" is ``echo``)
   shows lesson 00, the
   file browser's root shows ``exercises/`` and ``solutions/``, and the *Try it* link of
   lesson 03 opens ``exercises/03_voronoi_exercise.ipynb``.  Nothing is written into the
   repository's notebooks (autosave is off).
2. On the same page, lesson 00 run from the top, with one cell added at its end (never
   saved): lesson 00's replay waits at turn 0 until play is pressed and keeps its six speeds
   after a full replay; the added cell's four-player CodinGame game is played to the end (the
   person drives into a wall, the bots play on visibly until one is left) and Replay replays
   the whole game.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .jupyter import (ALL_DONE, ERRORS, RUN_ALL, VIEWPORT, ask_kernel, free_port,
                      wait_for_kernel)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PANEL_READY = ("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
               " && window.jupyterapp.shell.currentWidget.context"
               " && window.jupyterapp.shell.currentWidget.content")
# opens a notebook without awaiting the command: its promise settles 10-20 s after the
# notebook is shown (the waits on the current widget's path follow every use)
OPEN = "(path) => { window.jupyterapp.commands.execute('docmanager:open', {path}); }"
CURRENT_PATH = "() => window.jupyterapp.shell.currentWidget.context.path"
# the notebook renders only the cells near the view: bring the Try-it link's cell there
SCROLL_TO_LINK = """async () => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const i = nb.widgets.findIndex((c) => c.model.type === 'markdown'
    && c.model.sharedModel.getSource().includes('(../exercises/03_voronoi_exercise.ipynb)'));
  if (i >= 0) await nb.scrollToCell(nb.widgets[i], 'center');
  return i;
}"""
SCROLL_TO = """async (text) => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const i = nb.widgets.findIndex((c) => c.model.sharedModel.getSource().includes(text));
  if (i >= 0) await nb.scrollToCell(nb.widgets[i], 'center');
  return i;
}"""
ADD_CELL = """(source) => {
  const shared = window.jupyterapp.shell.currentWidget.content.model.sharedModel;
  shared.insertCell(shared.cells.length, {cell_type: 'code', source});
  return shared.cells.length;
}"""
# the play widget's status shows turn t or a later one (after the person's crash the bots
# play on at once, so the status can pass turn t before anyone reads it)
REACHED = """([el, t]) => {
  const m = el.textContent.match(/^Turn (\\d+)\\./);
  return m !== null && Number(m[1]) >= t;
}"""
FOUR = ("from tronlab.widgets import BoardWidget\n"
        "four = BoardWidget.play(['hugger', 'filler', 'random'], rules='codingame', seed=2)\n"
        "four.fps = 30      # the bots' turns after you are out, a second\n"
        "four")


def start_dev_course(tmp_path: Path):
    """``dev.py course --no-browser`` on a free port; returns (process, log path, port)."""
    venv = tmp_path / "env"
    (venv / "bin").mkdir(parents=True)
    py = venv / "bin" / "python"
    py.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    py.chmod(0o755)
    env = dict(os.environ, TRONLAB_VENV=str(venv), PIP_NO_INDEX="1", PYTHONPATH=str(ROOT))
    env.pop("MPLBACKEND", None)
    for var, sub in {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data",
                     "JUPYTER_RUNTIME_DIR": "runtime", "JUPYTERLAB_SETTINGS_DIR": "settings",
                     "JUPYTERLAB_WORKSPACES_DIR": "workspaces", "IPYTHONDIR": "ipython"}.items():
        (tmp_path / sub).mkdir()
        env[var] = str(tmp_path / sub)
    # what `dev.py test` leaves behind: the install and the compiled kernels
    subprocess.run([sys.executable, "-c", "import importlib.util as u, sys; "
                    f"s = u.spec_from_file_location('dev', {str(ROOT / 'dev.py')!r}); "
                    "m = u.module_from_spec(s); s.loader.exec_module(m); "
                    "m.mark_installed(); m.mark_warm()"], env=env, check=True)
    port, token = free_port(), secrets.token_hex(16)
    log_path = tmp_path / "course.log"
    log = open(log_path, "w")
    # the "browser" echoes what dev.py course opens: a redirect file pointing at the lesson
    cmd = [sys.executable, str(ROOT / "dev.py"), "course", "--ServerApp.browser=echo OPEN %s",
           "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
           "--LabApp.extension_manager=readonly"]
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
                            start_new_session=True)
    return proc, log, log_path, port, token


def _group_alive(pgid):
    """Whether a process of group ``pgid`` still runs (zombies, ended children of pytest,
    the census's subreaper, waiting to be read, do not count)."""
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def stop(proc, log):
    """Stop dev.py course and JupyterLab under it: the whole process group, waited for
    (dev.py ends at once on SIGTERM, JupyterLab takes its time shutting its kernels down,
    seconds on a busy machine), killed if it has not gone in 20 s."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + 20
    while (proc.poll() is None or _group_alive(proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    if _group_alive(proc.pid):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    log.close()


def test_dev_course_serves_the_whole_course(tmp_path, browser, jupyter_available):
    watched = [ROOT / "notebooks" / "00_welcome.ipynb", ROOT / "notebooks" / "03_voronoi.ipynb",
               ROOT / "exercises" / "03_voronoi_exercise.ipynb"]
    before = {p: p.stat().st_mtime_ns for p in watched}
    checkpoints = [ROOT / d / ".ipynb_checkpoints" for d in ("notebooks", "exercises")]
    had = {c for c in checkpoints if c.exists()}
    proc, log, log_path, port, token = start_dev_course(tmp_path)
    try:
        deadline, url = time.monotonic() + 150, None
        while url is None:
            assert proc.poll() is None, log_path.read_text()[-3000:]
            assert time.monotonic() < deadline, "dev.py course announced no URL in 150 s"
            found = re.search(r"OPEN file://(\S+)", log_path.read_text())
            if found:
                redirect = Path(urllib.request.url2pathname(found.group(1))).read_text()
                url = re.search(rf"(http://127\.0\.0\.1:{port}/[^\"' ]+)", redirect).group(1)
                url = url.replace("&amp;", "&")
                break
            time.sleep(0.5)
        assert "/lab/tree/notebooks/00_welcome.ipynb" in url, url
        for _ in range(100):                       # the announced URL answers
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}",
                                       timeout=5)
                break
            except OSError:
                time.sleep(0.3)
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = context.new_page()
            page.goto(url, wait_until="domcontentloaded")
            page.wait_for_function(PANEL_READY, timeout=120_000)
            assert page.evaluate(CURRENT_PATH) == "notebooks/00_welcome.ipynb"

            # the file browser, at its root, shows the three folders of the course
            page.locator(".jp-BreadCrumbs-home").first.click()
            listing = page.locator(".jp-DirListing-content")
            for folder in ("exercises", "notebooks", "solutions"):
                listing.locator(f".jp-DirListing-item[title^='Name: {folder}']").or_(
                    listing.locator(".jp-DirListing-itemText", has_text=re.compile(
                        rf"^{folder}$"))).first.wait_for(timeout=30_000)

            # lesson 03's Try-it link opens the exercise notebook
            page.evaluate(OPEN, "notebooks/03_voronoi.ipynb")
            page.wait_for_function(
                "() => window.jupyterapp.shell.currentWidget.context.path"
                " === 'notebooks/03_voronoi.ipynb'", timeout=60_000)
            page.wait_for_function(
                "() => window.jupyterapp.shell.currentWidget.content.widgets.length > 5",
                timeout=60_000)
            assert page.evaluate(SCROLL_TO_LINK) >= 0, "no Try-it link in lesson 03"
            lesson = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
            link = page.locator(f"[id='{lesson}'] .jp-RenderedMarkdown a",
                                has_text="exercises/03_voronoi_exercise.ipynb").first
            link.wait_for(state="visible", timeout=30_000)
            link.click()
            page.wait_for_function(
                "() => window.jupyterapp.shell.currentWidget.context &&"
                " window.jupyterapp.shell.currentWidget.context.path"
                " === 'exercises/03_voronoi_exercise.ipynb'", timeout=60_000)
            page.wait_for_function(
                "() => window.jupyterapp.shell.currentWidget.content.widgets.length > 5",
                timeout=60_000)
            assert page.locator(".jp-Notebook-cell").count() > 5
            # no news popup
            assert page.locator(".jp-Notification-Toast").filter(
                has_text=re.compile("news", re.I)).count() == 0

            play_lesson_00(page, tmp_path / "runtime")
        finally:
            context.close()
    except Exception:
        print(f"--- dev.py course log ---\n{log_path.read_text()[-4000:]}")
        raise
    finally:
        stop(proc, log)
        for c in checkpoints:        # JupyterLab checkpoints each notebook it opens
            if c not in had and c.exists():
                shutil.rmtree(c)
    # autosave is off: opening the lessons changed nothing in the repository
    assert {p: p.stat().st_mtime_ns for p in watched} == before


def play_lesson_00(page, runtime: Path):
    """Run lesson 00 with FOUR added at its end; check its replay and play FOUR to the end."""
    page.evaluate(OPEN, "notebooks/00_welcome.ipynb")
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.context.path"
                           " === 'notebooks/00_welcome.ipynb'", timeout=60_000)
    page.evaluate(ADD_CELL, FOUR)
    page.evaluate(RUN_ALL)
    page.wait_for_function(ALL_DONE, timeout=240_000, polling=500)
    assert not page.evaluate(ERRORS)
    conn = runtime / "kernel-{}.json".format(page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id"))

    # the lesson's replay waits at turn 0, its result hidden, until play is pressed; after a
    # full replay the speed menu still has its six entries
    assert page.evaluate(SCROLL_TO, "BoardWidget.replay(") >= 0, "no replay in lesson 00"
    replay = page.locator(".jp-Notebook-cell").filter(
        has_text="BoardWidget.replay(").locator(".tronlab-board[data-mode=replay]")
    replay.wait_for(state="visible", timeout=60_000)
    turns = int(ask_kernel(conn, {"t": "record.outcome.turns"})["t"])
    page.wait_for_timeout(1500)
    assert replay.locator(".tronlab-turn").text_content() == f"turn 0 / {turns}"
    result = ask_kernel(conn, {"r": "replay.result"})["r"].strip("'")
    assert result and result not in replay.locator(".tronlab-status").text_content()
    replay.locator("button.tronlab-playpause").click()
    page.wait_for_function(f"el => el.textContent === 'turn {turns} / {turns}'",
                           arg=replay.locator(".tronlab-turn").element_handle(), timeout=60_000)
    assert replay.locator(".tronlab-status").text_content().endswith(result)
    assert replay.locator("select.tronlab-speed option").count() == 6

    # the added cell: four players, the person first; drive up into the wall
    assert page.evaluate(SCROLL_TO, "rules='codingame'") >= 0
    cell = page.locator(".jp-Notebook-cell").filter(has_text="rules='codingame'").last
    widget = cell.locator(".tronlab-board")
    widget.wait_for(state="visible", timeout=60_000)
    assert widget.get_attribute("data-mode") == "play"
    assert ask_kernel(conn, {"n": "four.board.n_players"})["n"] == "4"
    assert widget.locator(".tronlab-legend-item").count() == 4
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    canvas = widget.locator("canvas.tronlab-canvas")
    canvas.click()
    status = widget.locator(".tronlab-status")
    turn = 0
    out = "are out; the bots play on"     # "You are out; ..." or "You left the grid on ..."
    while out not in status.text_content() and turn < 40:
        turn += 1
        for attempt in range(3):  # a key pressed while the canvas had lost focus: click, again
            page.keyboard.press("ArrowUp")
            try:
                page.wait_for_function(REACHED, arg=[status.element_handle(), turn],
                                       timeout=20_000)
                break
            except PlaywrightTimeout:
                canvas.click()
        else:
            raise AssertionError(f"turn {turn} never came: {status.text_content()!r}")
        text = status.text_content()
        shown = int(re.match(r"Turn (\d+)\.", text).group(1))
        # one key, one turn while the person plays; once out, the bots play on by themselves
        assert attempt > 0 or out in text or shown == turn, (turn, text)
        turn = shown
    assert out in status.text_content()
    # the bots play on by themselves, turn by turn, to the end
    page.wait_for_function("el => el.dataset.gameOver === 'yes'",
                           arg=widget.element_handle(), timeout=120_000)
    state = ask_kernel(conn, {"over": "four.game_over", "turns": "four.outcome.turns",
                              "n": "four.record.final.n_players",
                              "watched": "four.turn > %d" % turn})
    assert state["over"] == "True" and state["n"] == "4" and state["watched"] == "True", state
    turns = int(state["turns"])
    assert status.text_content().startswith(f"Turn {turns}.")

    # Replay shows the whole game again, the bots' turns after the person's included
    widget.locator("button.tronlab-replay-game").click()
    wait_for_kernel(conn, "four.mode", "'replay'", timeout=60)
    page.wait_for_function(f"el => el.textContent === 'turn {turns} / {turns}'",
                           arg=widget.locator(".tronlab-turn").element_handle(), timeout=60_000)
    assert widget.locator("button.tronlab-again").is_visible()
    assert widget.locator("select.tronlab-speed option").count() == 6
    ARTIFACTS.mkdir(exist_ok=True)
    widget.screenshot(path=str(ARTIFACTS / "course-four-players.png"))
