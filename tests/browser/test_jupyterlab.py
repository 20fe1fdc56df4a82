"""Play notebook 00's board widget in a real chromium, in JupyterLab 4 and in Notebook 7.

Both tests use the shared Jupyter server (conftest.py: throw-away config, data, runtime
and settings directories, so nobody's personal settings leak in; a copy of
``notebooks/``), each on its own copy of ``00_welcome.ipynb`` in a fresh workspace.  The
test runs every cell, clicks the play widget's canvas and presses arrow keys.  Then it
asks the *kernel* (a second client on the kernel's connection file) where the game
stands, checks the page shows the same turn (and that keys pressed while a slowed bot
thinks are kept for the next turn, the newest winning), and saves a screenshot of the board
mid-game in ``test-artifacts/`` (``jupyterlab-board.png``, ``notebook7-board.png``).  It
also starts a new game, toggles an overlay checkbox and seeks the replay widget with its
slider, checking each in the kernel; in Notebook 7 the replay first waits at turn 0 and
then plays to its end (in JupyterLab, tests/browser/test_course.py checks that on the
page ``dev.py course`` opens).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import numpy as np
import pytest

from .jupyter import ARTIFACTS, ask_kernel, keys_stay_in, run_notebook, wait_for_kernel

NOTEBOOK = "00_welcome.ipynb"
# Notebook 00 plays hugger on the built-in "arena" with seed 0; this opening is safe there.
KEYS = ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight"]
HEAD_AFTER_KEYS = (4, 4)          # player 0 starts at (3, 7): three up, one right

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]


# where the page and the notebook's scroll containers stand (arrow keys must not move them)
SCROLL_POSITIONS = """() => [document.scrollingElement,
  ...document.querySelectorAll('.jp-WindowedPanel-outer, .jp-Notebook, .jp-NotebookPanel')]
  .map((e) => e.scrollTop)"""

SCROLL_TO_PLAY = """async () => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const i = nb.widgets.findIndex(
    (c) => c.model.sharedModel.getSource().includes('BoardWidget.play('));
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


SLOW_BOT = ("setattr(game._game.seats[1], 'bot', (lambda bot: lambda board, p: "
            "__import__('time').sleep(1.5) or bot(board, p))(game._game.seats[1].bot))")


def check_keys_while_thinking(page, conn, status):
    """Keys pressed while the bot thinks are kept for the next turn, the newest winning.

    From turn 4 (head at (4, 4)) with a bot that takes 1.5 s a turn: right goes to the
    kernel at once; up then down, pressed while it thinks, leave down as the next move."""
    assert ask_kernel(conn, {"s": SLOW_BOT})["s"] == "None"
    for key in ("ArrowRight", "ArrowUp", "ArrowDown"):
        page.keyboard.press(key)
    page.wait_for_function("el => el.textContent.includes('thinking... Next move: down.')",
                           arg=status.element_handle(), timeout=5_000)
    wait_for_kernel(conn, "game.turn", "6")
    state = ask_kernel(conn, {"head": "game.board.head_xy(0)",
                              "mine": "[m[0] for m in game.moves]"})
    assert state["head"] == "(5, 5)", state
    assert state["mine"] == "[0, 0, 0, 1, 1, 2]", state           # up up up right, right, down
    page.wait_for_function("el => el.textContent.startsWith('Turn 6.')"
                           " && !el.textContent.includes('thinking')",
                           arg=status.element_handle(), timeout=10_000)
    page.wait_for_timeout(2000)                                      # longer than a bot's turn
    assert ask_kernel(conn, {"t": "game.turn"})["t"] == "6"          # the kept key counted once


def drive(lab, app: str, prefix: str):
    """Run notebook 00 in ``app``; screenshots go to test-artifacts/<prefix>-*.png."""
    from tronlab.render import PLAYER_COLORS, TRAIL_COLORS

    server, page = lab
    name = f"{prefix}-{NOTEBOOK}"          # each app its own copy: its own kernel session
    shutil.copy(server.root / NOTEBOOK, server.root / name)
    outside = []
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith((server.url, "data:", "blob:", "about:")) else None)
    conn = run_notebook(page, server, name, app=app)

    assert page.evaluate(SCROLL_TO_PLAY) >= 0, "no BoardWidget.play cell in notebook 00"
    # the first game: the section on drawing a map plays a second one, on the drawn map
    widget = page.locator(".tronlab-board[data-mode=play]").first
    widget.wait_for(state="visible", timeout=60_000)
    canvas = widget.locator("canvas.tronlab-canvas")
    assert "arrow keys or WASD" in canvas.get_attribute("aria-label")
    canvas.scroll_into_view_if_needed()
    unfocused = canvas.evaluate("c => getComputedStyle(c).borderTopColor")
    canvas.click()
    assert page.evaluate("() => document.activeElement.classList.contains('tronlab-canvas')")
    # the focus cue: the keys reach the board now (board.css, .tronlab-canvas:focus)
    assert canvas.evaluate("c => getComputedStyle(c).borderTopColor") == "rgb(240, 165, 0)" \
        != unfocused
    scroll_before = page.evaluate(SCROLL_POSITIONS)
    status = widget.locator(".tronlab-status")
    for turn, key in enumerate(KEYS, start=1):
        page.keyboard.press(key)
        page.wait_for_function("([el, t]) => el.textContent.startsWith(`Turn ${t}.`)",
                               arg=[status.element_handle(), turn], timeout=30_000)
    # the keys went to the game, not to JupyterLab or the page
    assert page.evaluate("() => document.activeElement.classList.contains('tronlab-canvas')")
    assert page.evaluate(SCROLL_POSITIONS) == scroll_before

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

    check_keys_while_thinking(page, conn, status)

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

    # Notebook 7: the replay waits at turn 0, without its result, until play is pressed;
    # then it animates to its last frame (71 turns) and shows the result, and the speed
    # menu keeps its six entries (JupyterLab: test_course.py).  Both: the slider seeks
    replay = page.locator(".tronlab-board[data-mode=replay]")
    slider = replay.locator("input.tronlab-slider")
    assert slider.get_attribute("max") == "71"
    assert "Space plays or pauses" in replay.locator("canvas.tronlab-canvas").get_attribute("title")
    replay.scroll_into_view_if_needed()
    if app == "notebook":
        page.wait_for_timeout(1500)
        assert replay.locator(".tronlab-turn").text_content() == "turn 0 / 71"
        result = ask_kernel(conn, {"r": "replay.result"})["r"].strip("'")
        status = replay.locator(".tronlab-status")
        assert result and result not in status.text_content()
        assert status.text_content() == "71 turns. Press play."
        replay.locator("button.tronlab-playpause").click()
        page.wait_for_function("el => el.textContent === '71 turns. playing...'",
                               arg=status.element_handle(), timeout=10_000)
        page.wait_for_function("el => el.textContent === 'turn 71 / 71'",
                               arg=replay.locator(".tronlab-turn").element_handle(),
                               timeout=60_000)
        wait_for_kernel(conn, "replay.turn", "71")
        assert status.text_content() == f"71 turns. {result}"     # over: no "Press play."
        assert replay.locator("select.tronlab-speed option").count() == 6
    slider.fill("30")
    wait_for_kernel(conn, "replay.turn", "30")
    assert replay.locator(".tronlab-turn").text_content() == "turn 30 / 71"
    board30 = ast.literal_eval(
        ask_kernel(conn, {"a": "record.boards()[30].to_ascii()"})["a"])
    assert canvas_mismatches(replay, board30) == []
    replay.screenshot(path=str(ARTIFACTS / f"{prefix}-replay.png"))
    keys_stay_in(page, slider)                  # the replay's controls keep their keys
    keys_stay_in(page, replay.locator("button.tronlab-playpause"))
    # paused from Python, the page tells the kernel where it stopped (w.turn stayed at 30);
    # while it plays, w.turn follows it (it stayed at 30 until the animation stopped)
    ask_kernel(conn, {"go": "setattr(replay, 'fps', 4.0) or setattr(replay, 'playing', True)"})
    page.wait_for_function("el => el.textContent !== 'turn 30 / 71'",
                           arg=replay.locator(".tronlab-turn").element_handle(), timeout=10_000)
    wait_for_kernel(conn, "30 < replay.turn < 71 and replay.playing", "True", timeout=8)
    ask_kernel(conn, {"stop": "setattr(replay, 'playing', False)"})
    page.wait_for_timeout(300)
    shown = int(replay.locator(".tronlab-turn").text_content().split()[1])
    assert shown > 30
    wait_for_kernel(conn, "replay.turn", str(shown))
    assert outside == [], f"requests left localhost (must work offline): {outside[:5]}"


def test_board_widget_in_jupyterlab(lab):
    drive(lab, "lab", "jupyterlab")


def test_board_widget_in_notebook7(lab):
    drive(lab, "notebook", "notebook7")
