"""The widgets in a narrow window (JupyterLab, 800 px wide, file browser open: the output
area is under 400 px): the board, the search stepper, the capture game and the map
editor scale down to fit their cell (nothing cut off at the right edge, the pictures keep
their shape), a click on the scaled capture grid still aims at the square under the
pointer, and the parts drawn on the page read in a dark theme (the stepper's tree has
its own light background, the capture lines take the theme's text colour); a screenshot
is saved in test-artifacts/narrow-window.png."""

from __future__ import annotations

import pytest

from .jupyter import ARTIFACTS, run_notebook, wait_for_kernel, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tronlab import Board, MapEditor, codingame_board\n"
    "from tronlab.widgets import BoardWidget\n"
    "from tronlab.course.stepper import SearchStepper\n"
    "from tronlab.capture.widget import CaptureWidget\n"
    "def stay(view, player):\n    return view.positions[player]",
    "BoardWidget(codingame_board(2, rng=0))",
    'SearchStepper(Board.from_ascii("""\n    ######\n    #....#\n    #1#..#\n    #...2#\n'
    '    ######\n"""), 2)',
    "w = CaptureWidget([stay])\nw",
    "MapEditor(30, 30)",
]
WIDGETS = [".tronlab-board", ".tronlab-stepper", ".tronlab-capture", ".tronlab-map-editor"]

# for each widget: how far it sticks out of its output area, and for each canvas in it
# the drawn aspect ratio against the canvas's own
FIT = """(sel) => {
  const w = document.querySelector(sel), out = w.closest('.jp-OutputArea-output');
  const canvases = [...w.querySelectorAll('canvas')].map((c) => {
    const r = c.getBoundingClientRect();
    return [r.width / r.height, c.width / c.height];
  });
  return {out: out.clientWidth, over: w.getBoundingClientRect().right
          - out.getBoundingClientRect().right, scroll: out.scrollWidth - out.clientWidth,
          canvases};
}"""

# the colour of a capture line under a theme whose text colour is rgb(1, 2, 3)
THEMED = """() => {
  const cap = document.querySelector('.tronlab-capture');
  cap.parentElement.style.setProperty('--jp-ui-font-color1', 'rgb(1, 2, 3)');
  return getComputedStyle(cap.querySelector('.tronlab-capture-info')).color;
}"""

BOARD_SCALE = """() => {
  const c = document.querySelector('canvas.tronlab-canvas');
  return [c.width / (window.devicePixelRatio || 1), c.clientWidth];
}"""

TREE_CORNER = """() => [...document.querySelector('canvas.tronlab-stepper-tree')
  .getContext('2d').getImageData(1, 1, 1, 1).data]"""

SQUARE = """([x, y]) => {
  const c = document.querySelector('canvas.tronlab-capture-canvas');
  const r = c.getBoundingClientRect(), s = c.clientWidth / 35;
  return {x: r.left + c.clientLeft + (x + 0.5) * s, y: r.top + c.clientTop + (y + 0.5) * s};
}"""


def test_widgets_fit_a_narrow_window_and_read_in_a_dark_theme(lab):
    server, page = lab
    page.set_viewport_size({"width": 800, "height": 900})
    conn = run_notebook(page, server, write_notebook(server.root / "narrow.ipynb", CELLS))
    for sel in WIDGETS:
        page.locator(sel).first.wait_for(state="visible", timeout=60_000)
        fit = page.evaluate(FIT, sel)
        assert fit["out"] < 500, f"the output area is {fit['out']} px: not a narrow window"
        assert fit["over"] <= 0.5 and fit["scroll"] <= 0, f"{sel} does not fit its cell: {fit}"
        for shown, own in fit["canvases"]:
            assert shown == pytest.approx(own, rel=0.03), f"{sel}: a canvas lost its shape"

    # the board is drawn at the size shown, not drawn large and scaled down by the page
    # (which dropped grid lines and blurred the heads' digits in a narrow cell)
    drawn, shown = page.evaluate(BOARD_SCALE)
    assert drawn == pytest.approx(shown, abs=1), (drawn, shown)

    assert page.evaluate(TREE_CORNER) == [255, 255, 255, 255]
    assert page.evaluate(THEMED) == "rgb(1, 2, 3)"
    stepper = page.locator(".tronlab-stepper")
    assert stepper.locator("button.tronlab-stepper-prev").is_disabled()   # at step 0
    assert stepper.locator("button.tronlab-stepper-next").is_enabled()

    # the capture grid (630 px drawn) is shown scaled down: a click still hits its square
    page.locator("canvas.tronlab-capture-canvas").scroll_into_view_if_needed()
    where = page.evaluate(SQUARE, [20, 12])
    page.mouse.click(where["x"], where["y"])
    wait_for_kernel(conn, "w.target", "[20, 12]")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "narrow-window.png"), full_page=True)
