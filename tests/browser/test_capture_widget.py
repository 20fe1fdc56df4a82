"""The capture game widget in a real chromium (JupyterLab): a legend names each colour's
player, clicks on the board play rounds toward the clicked square, a closed loop takes
the square inside (and flashes), BACK with the round picker rewinds the game, the slider
shows an earlier round, and the kernel agrees at each point; a screenshot is saved in
test-artifacts/capture-widget.png."""

from __future__ import annotations

import pytest

from .jupyter import ARTIFACTS, run_notebook, wait_for_kernel, write_notebook

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

    slider = page.locator("input.tronlab-capture-slider")
    slider.evaluate("(s) => { s.value = 1; s.dispatchEvent(new Event('input')); }")
    _wait_round(page, 2)
    wait_for_kernel(conn, "w.frame", "1")
