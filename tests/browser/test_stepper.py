"""The search stepper in a real chromium (JupyterLab): next and prev move through a
recorded alpha-beta search, the board and the tree follow, the kernel agrees on the step;
a screenshot is saved in test-artifacts/search-stepper.png."""

from __future__ import annotations

import json

import pytest

from .test_jupyterlab import (ALL_DONE, ARTIFACTS, CHROMIUM_ARGS, ERRORS, RUN_ALL, JupyterServer,
                              wait_for_kernel)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tronlab import Board\nfrom tronlab.course.stepper import SearchStepper",
    'b = Board.from_ascii("""\n    ######\n    #....#\n    #1#..#\n    #...2#\n    ######\n""")\n'
    "st = SearchStepper(b, 4)\nst",
]

PIXELS = """(root) => {
  const c = root.querySelector(sel);
  return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data);
}"""


def _notebook(path):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
                     "outputs": [], "source": src} for i, src in enumerate(CELLS)],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


def _pixels(stepper, which):
    return stepper.evaluate(PIXELS.replace("sel", repr(f"canvas.tronlab-stepper-{which}")))


def test_step_forward_and_back_through_a_search(tmp_path, chromium_path, sync_playwright,
                                                jupyter_available):
    server = JupyterServer("lab", tmp_path / "lab")
    kernel_ids = []
    try:
        server.start()
        _notebook(server.root / "stepper.ipynb")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"{server.url}/lab/tree/stepper.ipynb?reset&token={server.token}",
                          wait_until="domcontentloaded")
                page.wait_for_function(
                    "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                    " && window.jupyterapp.shell.currentWidget.sessionContext", timeout=120_000)
                page.evaluate(RUN_ALL)
                page.wait_for_function(ALL_DONE, timeout=120_000, polling=500)
                assert page.evaluate(ERRORS) == []
                kernel_ids.append(page.evaluate(
                    "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id"))
                conn = server.runtime / f"kernel-{kernel_ids[0]}.json"

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
                # the search moved player 1 up: the board and the tree both changed
                assert _pixels(stepper, "board") != board0
                assert _pixels(stepper, "tree") != tree0
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
            finally:
                browser.close()
    except Exception:
        print(f"--- jupyter log ---\n{server.logs() if server.proc else '(not started)'}")
        raise
    finally:
        server.stop(kernel_ids)
