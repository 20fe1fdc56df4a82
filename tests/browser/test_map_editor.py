"""The map editor in a real chromium (JupyterLab): draw walls and starts with the mouse,
save the map with the page's button, and play a game on the saved file."""

from __future__ import annotations

import json

import pytest

from .test_jupyterlab import (ALL_DONE, ARTIFACTS, CHROMIUM_ARGS, ERRORS, RUN_ALL, JupyterServer,
                             ask_kernel, wait_for_kernel)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "import os\nfrom tronlab import get_bot, load_map, play\nfrom tronlab.map_editor import MapEditor",
    "ed = MapEditor(9, 7, symmetric=True, path='drawn.txt')\ned",
]


def _notebook(path):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
                     "outputs": [], "source": src} for i, src in enumerate(CELLS)],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


def test_draw_save_and_play_a_map(tmp_path, chromium_path, sync_playwright, jupyter_available):
    server = JupyterServer("lab", tmp_path / "lab")
    kernel_ids = []
    try:
        server.start()
        _notebook(server.root / "editor.ipynb")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"{server.url}/lab/tree/editor.ipynb?reset&token={server.token}",
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

                editor = page.locator(".tronlab-map-editor")
                editor.wait_for(state="visible", timeout=60_000)
                canvas = editor.locator("canvas.tronlab-canvas")
                px = canvas.evaluate("c => c.width") / 9

                def click(x, y):
                    canvas.click(position={"x": (x + 0.5) * px, "y": (y + 0.5) * px})

                editor.locator("button[data-tool='1']").click()
                click(2, 3)
                wait_for_kernel(conn, "ed.cells[3][2] + ed.cells[3][6]", "'12'")
                editor.locator("button[data-tool='#']").click()
                click(4, 1)
                click(4, 2)
                wait_for_kernel(conn, "''.join(r[4] for r in ed.cells)", "'### ###'")  # border, 2 + 2 mirrored

                editor.locator("button.tronlab-save").click()
                wait_for_kernel(conn, "os.path.exists('drawn.txt')", "True")
                got = ask_kernel(conn, {
                    "same": "load_map('drawn.txt').to_ascii() == ed.board().to_ascii()",
                    "turns": "play(load_map('drawn.txt'), [get_bot('hugger', rng=0), "
                             "get_bot('filler')], rng=0).outcome.turns",
                    "status": "ed.status"})
                assert got["same"] == "True", got
                assert int(got["turns"]) >= 3, got
                assert "saved" in got["status"], got
                ARTIFACTS.mkdir(exist_ok=True)
                editor.screenshot(path=str(ARTIFACTS / "map-editor.png"))
            finally:
                browser.close()
    except Exception:
        print(f"--- jupyter log ---\n{server.logs() if server.proc else '(not started)'}")
        raise
    finally:
        server.stop(kernel_ids)
