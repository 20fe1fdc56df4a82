"""Widgets left on the page after a kernel restart (JupyterLab): their channel to the
kernel is closed, so nothing will answer a key or a click.  The play board, the capture
game and the map editor say so ("lost its kernel ... run its cell again") instead of
"thinking..." for ever or doing nothing, and their clicks throw no error into the page."""

from __future__ import annotations

import pytest

from .jupyter import run_notebook, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tronlab import BoardWidget\nfrom tronlab.capture.widget import CaptureWidget\n"
    "from tronlab.map_editor import MapEditor",
    "BoardWidget.play('hugger')",
    "CaptureWidget(['nearest'], width=9, height=7)",
    "MapEditor(7, 7)",
]
RESTART = ("async () => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
           ".restart()")


def test_widgets_say_their_kernel_is_gone_after_a_restart(lab):
    server, page = lab
    run_notebook(page, server, write_notebook(server.root / "restart.ipynb", CELLS))
    page.locator(".tronlab-map-editor").wait_for(state="visible", timeout=60_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.evaluate(RESTART)

    board = page.locator(".tronlab-board[data-mode=play]")
    board.locator("canvas").click()
    page.keyboard.press("ArrowUp")
    status = board.locator(".tronlab-status")
    page.wait_for_function("el => el.textContent.includes('lost its kernel')",
                           arg=status.element_handle(), timeout=10_000)
    assert "thinking" not in status.text_content()
    assert board.get_attribute("data-thinking") == "no"

    page.locator("canvas.tronlab-capture-canvas").click()
    assert "lost its kernel" in page.locator(".tronlab-capture-status").text_content()
    page.locator(".tronlab-map-editor canvas").click(position={"x": 40, "y": 40})
    assert "lost its kernel" in page.locator(".tronlab-map-editor .tronlab-status").text_content()
    assert errors == []
