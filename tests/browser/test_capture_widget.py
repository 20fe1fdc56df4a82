"""The capture game widget in a real chromium (JupyterLab): a legend names each colour's
player, clicks on the board play rounds toward the clicked square, a closed loop takes
the square inside (and flashes), BACK with the round picker rewinds the game, the slider
shows an earlier round, the arrow keys and WASD on the focused board move one square a
round (a replay's left arrow steps back), and the kernel agrees at each point; a
screenshot is saved in test-artifacts/capture-widget.png.  Four players' loops closing at
once show that a captured square's mark stands out on every owner's colour
(test-artifacts/capture-loops.png)."""

from __future__ import annotations

import numpy as np
import pytest

from .jupyter import ARTIFACTS, keys_stay_in, run_notebook, wait_for_kernel, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tronlab.capture.widget import CaptureWidget\n"
    "def stay(view, player):\n    return view.positions[player]",
    "w = CaptureWidget([stay], width=7, height=7, starts=[(1, 1), (5, 5)])\nw",
]

SQUARE = """(canvas, [x, y]) => {
  const r = canvas.getBoundingClientRect(), px = canvas.width / 7;
  const s = r.width / canvas.width;
  return {x: (x + 0.5) * px * s, y: (y + 0.5) * px * s};
}"""


def _wait_round(page, value):
    page.wait_for_function("() => document.querySelector('canvas.tronlab-capture-canvas')"
                           f".dataset.round === '{value}'", timeout=20_000)


def test_a_capture_game_advances_by_clicks_and_back_rewinds(lab):
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "capture.ipynb", CELLS))
    canvas = page.locator("canvas.tronlab-capture-canvas")
    canvas.wait_for(state="visible", timeout=60_000)
    _wait_round(page, 1)
    # a legend says who is which colour: you, then the bot by its name
    legend = page.locator(".tronlab-capture-legend-item")
    assert legend.all_inner_texts() == ["0: you", "1: stay"]
    assert legend.locator(".tronlab-capture-swatch").evaluate_all(
        "(s) => s.map((e) => e.style.background)") == ["rgb(31, 111, 209)", "rgb(228, 87, 46)"]
    rnd = 1
    # walk a loop around (2, 2): two rounds to (3, 1), two to (3, 3), two to
    # (1, 3), one to (1, 2), next to the start square: the loop closes
    for target, times in [((3, 1), 2), ((3, 3), 2), ((1, 3), 2), ((1, 2), 1)]:
        for _ in range(times):
            canvas.click(position=canvas.evaluate(SQUARE, list(target)))
            rnd += 1
            _wait_round(page, rnd)
        if target == (3, 1):
            wait_for_kernel(conn, "w.state.positions[0]", "(3, 1)")
    assert canvas.get_attribute("data-flash") == "1"
    rows = canvas.get_attribute("data-rows").split("\n")
    assert rows[1:4] == [".000...", ".000...", ".000..."]
    wait_for_kernel(conn, "w.state.scores()", "(9, 1)")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".tronlab-capture").screenshot(
        path=str(ARTIFACTS / "capture-widget.png"))

    page.locator("input.tronlab-capture-pick").fill("3")
    page.locator("button.tronlab-capture-back").click()
    _wait_round(page, 5)                  # round 8 went back 3 rounds
    rows = canvas.get_attribute("data-rows").split("\n")
    assert rows[1:4] == [".000...", "...0...", "...0..."]
    wait_for_kernel(conn, "(w.state.round, w.state.backs_left[0])", "(5, 0)")
    assert page.locator("button.tronlab-capture-back").is_disabled()
    # the board has the focus back after a button (the keys play on), as on the Tron board
    assert canvas.evaluate("(c) => document.activeElement === c")

    slider = page.locator("input.tronlab-capture-slider")
    slider.evaluate("(s) => { s.value = 1; s.dispatchEvent(new Event('input')); }")
    _wait_round(page, 2)
    wait_for_kernel(conn, "w.frame", "1")
    keys_stay_in(page, slider)        # "d d" on the focused slider deleted the widget's cell

    # the keys, as on the Tron board: the focused board moves you one square a key, from
    # the present (3, 3) of round 5 whatever round the slider shows
    assert "arrow keys or WASD" in canvas.get_attribute("aria-label")
    canvas.focus()
    for key in ("ArrowLeft", "ArrowDown"):
        page.keyboard.press(key)
    _wait_round(page, 7)
    wait_for_kernel(conn, "(w.state.positions[0], w.state.round)", "((2, 4), 7)")
    keys_stay_in(page, canvas)        # j: nothing; d d: right twice, the notebook sees none
    wait_for_kernel(conn, "(w.state.positions[0], w.state.round)", "((4, 4), 9)")


LOOPS = [
    "from tronlab.capture.game import play_capture\n"
    "from tronlab.capture.widget import CaptureWidget\n"
    "PATH = [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]\n"
    "def loop(view, player):      # each player walks around the square below its start\n"
    "    dx, dy = PATH[min(view.round - 1, len(PATH) - 1)]\n"
    "    return (3 * player + dx, dy)\n"
    "rec = play_capture([loop] * 4, width=12, height=3, round_limit=8,\n"
    "                   starts=[(0, 0), (3, 0), (6, 0), (9, 0)])\n"
    "w = CaptureWidget.replay(rec)\nw",
]

PIXELS = """(canvas, [x, y]) => {
  const px = canvas.width / 12;
  const d = canvas.getContext("2d").getImageData(x * px, y * px, px, px).data;
  return Array.from(d);
}"""


def _luminance(rgb):
    """WCAG relative luminance of sRGB values in 0..1 (last axis)."""
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def test_a_captured_square_is_marked_readably_on_every_owners_colour(lab):
    # the amber outline alone was 1.1:1 on player 1's salmon and player 0's blue squares, and
    # its blinking amber fill no better: a still frame (or a colour-weak reader) missed what
    # a loop took.  On each owner's colour something in the square must reach 3:1 (WCAG
    # 1.4.11, as the static picture), in either phase of the blink and after it
    from tronlab.render import TRAIL_COLORS

    server, page = lab
    run_notebook(page, server, write_notebook(server.root / "capture_loops.ipynb", LOOPS))
    canvas = page.locator("canvas.tronlab-capture-canvas")
    canvas.wait_for(state="visible", timeout=60_000)
    _wait_round(page, 9)
    page.locator("input.tronlab-capture-slider").evaluate(
        "(s) => { s.value = 7; s.dispatchEvent(new Event('input')); }")
    _wait_round(page, 8)                  # round 7 closed the four loops
    assert canvas.get_attribute("data-flash") == "4"
    worst = {p: np.inf for p in range(4)}
    for _ in range(10):                   # the blink takes 6 x 220 ms; sample through it
        for p in range(4):
            rgba = np.array(canvas.evaluate(PIXELS, [3 * p + 1, 1]), float).reshape(-1, 4)
            fill = np.array([int(TRAIL_COLORS[p][i:i + 2], 16) for i in (1, 3, 5)]) / 255
            lum, ground = _luminance(rgba[:, :3] / 255), _luminance(fill)
            contrast = (np.maximum(lum, ground) + 0.05) / (np.minimum(lum, ground) + 0.05)
            worst[p] = min(worst[p], contrast.max())
        page.wait_for_timeout(180)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".tronlab-capture").screenshot(path=str(ARTIFACTS / "capture-loops.png"))
    assert min(worst.values()) >= 3, {p: f"{c:.2f}:1" for p, c in worst.items()}
    canvas.focus()                        # a replay's keys: the left arrow steps a round back
    page.keyboard.press("ArrowLeft")
    _wait_round(page, 7)
