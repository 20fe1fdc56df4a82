"""The search stepper in a real chromium (JupyterLab): next and prev move through a
recorded alpha-beta search, the board and the tree follow, the kernel agrees on the step,
next is disabled at the last step and the arrow keys go on working there;
a screenshot is saved in test-artifacts/search-stepper.png.  In Notebook 7 the arrow keys
step too.  In focus, the stepper shows a cue (the keys reach it only then)."""

from __future__ import annotations

import time

import pytest

from .jupyter import (ARTIFACTS, ask_kernel, keys_stay_in, run_notebook, wait_for_kernel,
                      write_notebook)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tronlab import Board\nfrom tronlab.course.stepper import SearchStepper",
    'b = Board.from_ascii("""\n    ######\n    #....#\n    #1#..#\n    #...2#\n    ######\n""")\n'
    "st = SearchStepper(b, 4)\nst",
]

# a digest of the canvas's pixels (FNV-1a over its RGBA bytes), so that "it changed" is
# checked without sending megabytes of pixels to Python
PIXELS = """(root) => {
  const c = root.querySelector(sel);
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) { h ^= data[i]; h = Math.imul(h, 0x01000193) >>> 0; }
  return [c.width, c.height, h];
}"""


def _pixels(stepper, which):
    return stepper.evaluate(PIXELS.replace("sel", repr(f"canvas.tronlab-stepper-{which}")))


def _changes(stepper, which, before, timeout=10.0):
    """Wait until the ``which`` canvas's pixels differ from ``before``; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while (now := _pixels(stepper, which)) == before:
        assert time.monotonic() < deadline, f"the {which} canvas did not change: {now}"
        time.sleep(0.05)


def test_step_forward_and_back_through_a_search(lab):
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "stepper.ipynb", CELLS))
    stepper = page.locator(".tronlab-stepper")
    stepper.wait_for(state="visible", timeout=60_000)
    text = stepper.locator(".tronlab-stepper-text")
    assert text.inner_text().startswith("step 0: enter R")
    board0, tree0 = _pixels(stepper, "board"), _pixels(stepper, "tree")

    nxt = stepper.locator("button.tronlab-stepper-next")
    nxt.click()
    page.wait_for_function("() => document.querySelector('.tronlab-stepper')"
                           ".dataset.step === '1'", timeout=10_000)
    assert text.inner_text().startswith("step 1: enter up")
    # the search moved player 1 up: the board and the tree both changed (polled: once, in a
    # CI run on a loaded machine, the board's pixels read right after the step still held
    # step 0's picture)
    for which, before in (("board", board0), ("tree", tree0)):
        _changes(stepper, which, before)
    wait_for_kernel(conn, "st.step", "1")

    for _ in range(7):
        nxt.click()
    wait_for_kernel(conn, "st.step", "8")
    assert stepper.get_attribute("data-step") == "8"
    wait_for_kernel(conn, "st.node.id == int(" + repr(
        stepper.get_attribute("data-node")) + ")", "True")

    stepper.locator("button.tronlab-stepper-prev").click()
    wait_for_kernel(conn, "st.step", "7")
    assert text.inner_text().startswith("step 7:")

    stepper.locator("canvas.tronlab-stepper-tree").click()   # keys need focus
    stepper.press("ArrowRight")
    wait_for_kernel(conn, "st.step", "8")
    ARTIFACTS.mkdir(exist_ok=True)
    stepper.screenshot(path=str(ARTIFACTS / "search-stepper.png"))

    # the last step: next is disabled, prev enabled, and the keys still step (the disabled
    # button does not take the focus away with it)
    last = int(ask_kernel(conn, {"n": "len(st.trace.steps)"})["n"]) - 1
    ask_kernel(conn, {"x": f"setattr(st, 'step', {last - 1})"})
    page.wait_for_function("() => document.querySelector('.tronlab-stepper')"
                           f".dataset.step === '{last - 1}'", timeout=10_000)
    nxt.click()
    wait_for_kernel(conn, "st.step", str(last))
    assert nxt.is_disabled() and stepper.locator("button.tronlab-stepper-prev").is_enabled()
    page.keyboard.press("ArrowLeft")
    wait_for_kernel(conn, "st.step", str(last - 1))
    keys_stay_in(page, stepper.locator("input[type=range]"))   # the slider's keys are its own


def test_arrow_keys_step_in_notebook7(lab):
    """Notebook 7 binds the arrow keys to its own commands in the capture phase: without
    ``data-lm-suppress-shortcuts`` on the stepper they never reached it."""
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "stepper7.ipynb", CELLS),
                        app="notebook")
    stepper = page.locator(".tronlab-stepper")
    stepper.wait_for(state="visible", timeout=60_000)
    stepper.locator("canvas.tronlab-stepper-tree").click()   # keys need focus
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.tronlab-stepper')"
                           ".dataset.step === '1'", timeout=10_000)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    wait_for_kernel(conn, "st.step", "1")
    assert stepper.get_attribute("data-step") == "1"


FOCUS_STYLE = """(el) => { const s = getComputedStyle(el);
  return [s.outlineStyle, s.outlineColor, s.outlineWidth].join(' '); }"""


def test_the_stepper_shows_when_it_has_the_focus(lab):
    """The arrow keys step only while the stepper has the focus, and nothing showed it:
    its root was styled ``outline: none`` and had no focus style."""
    server, page = lab
    run_notebook(page, server, write_notebook(server.root / "stepper_focus.ipynb", CELLS))
    stepper = page.locator(".tronlab-stepper")
    stepper.wait_for(state="visible", timeout=60_000)
    before = stepper.evaluate(FOCUS_STYLE)
    stepper.locator(".tronlab-stepper-text").click()      # a click inside gives it the focus
    assert page.evaluate("() => document.activeElement.classList.contains('tronlab-stepper')")
    after = stepper.evaluate(FOCUS_STYLE)
    assert after != before and after.startswith("solid rgb(240, 165, 0)"), (before, after)
    page.keyboard.press("ArrowRight")                     # and the keys do reach it
    page.wait_for_function("() => document.querySelector('.tronlab-stepper')"
                           ".dataset.step === '1'", timeout=10_000)
    box = stepper.bounding_box()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "search-stepper-focus.png"), clip=box)
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})   # focus elsewhere
    assert stepper.evaluate(FOCUS_STYLE) == before
