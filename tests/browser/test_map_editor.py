"""The map editor in a real chromium (JupyterLab): draw walls and starts with the mouse,
save the map with the page's button, and play a game on the saved file; a start on the
centre square of a point-symmetric map is refused, and the page's status says why; a path
typed in the page's box reaches Python while the box keeps the focus.  Notebook 00's editor
section runs in the page: a click draws a wall, the keyboard reaches the grid (Tab, a focus
cue, arrow keys and Space) and the load button reads the saved map back; in Notebook 7 the
arrow keys reach the grid too."""

from __future__ import annotations

import shutil

import pytest

from .jupyter import (ARTIFACTS, ask_kernel, keys_stay_in, run_notebook, wait_for_kernel,
                      write_notebook)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "import os\nfrom tronlab import get_bot, load_map, play\n"
    "from tronlab.map_editor import MapEditor",
    "ed = MapEditor(9, 7, symmetric=True, path='drawn.txt')\ned",
]


def test_draw_save_and_play_a_map(lab):
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "editor.ipynb", CELLS))
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

    # the centre square (4, 3) is its own mirror: no start there, and the page says why
    editor.locator("button[data-tool='2']").click()
    click(4, 3)
    page.wait_for_function("el => el.textContent.includes('(4, 3) is the centre square')",
                           arg=editor.locator(".tronlab-status").element_handle(),
                           timeout=30_000)
    wait_for_kernel(conn, "ed.cells[3]", repr("# 1   2 #"))      # the starts did not move
    status = editor.locator(".tronlab-status")
    assert status.evaluate("e => getComputedStyle(e).color") == "rgb(176, 0, 32)"  # red
    keys_stay_in(page, editor.locator("button[data-tool='2']"))   # a tool's keys are its own


    editor.locator("button.tronlab-save").click()
    wait_for_kernel(conn, "os.path.exists('drawn.txt')", "True")
    page.wait_for_function("el => el.textContent.startsWith('saved')",
                           arg=status.element_handle(), timeout=30_000)
    assert status.evaluate("e => getComputedStyle(e).color") != "rgb(176, 0, 32)"
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


def test_a_path_typed_in_the_box_reaches_python_without_leaving_the_box(lab):
    """JupyterLab takes Enter for its own command, so the box's change event never fired:
    until the box lost the focus, ``ed.save()`` wrote to the old path."""
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "editor_path.ipynb", CELLS))
    box = page.locator(".tronlab-map-editor input.tronlab-path")
    box.wait_for(state="visible", timeout=60_000)
    box.click()
    box.fill("")
    page.keyboard.type("mine.txt")
    page.keyboard.press("Enter")
    wait_for_kernel(conn, "ed.path", "'mine.txt'", timeout=10)
    assert page.evaluate("() => document.activeElement.classList.contains('tronlab-path')")


SCROLL_TO_EDITOR = """async () => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const i = nb.widgets.findIndex(
    (c) => c.model.sharedModel.getSource().includes('editor = MapEditor('));
  if (i >= 0 && nb.scrollToCell) await nb.scrollToCell(nb.widgets[i], 'center');
  return i;
}"""
BORDER = "el => getComputedStyle(el).borderTopColor"


def test_notebook00s_editor_section_draws_with_mouse_and_keys_and_loads(lab):
    server, page = lab
    shutil.copy(server.root / "00_welcome.ipynb", server.root / "editor-00_welcome.ipynb")
    conn = run_notebook(page, server, "editor-00_welcome.ipynb")
    assert page.evaluate(SCROLL_TO_EDITOR) >= 0, "no MapEditor cell in notebook 00"
    editor = page.locator(".tronlab-map-editor")
    editor.wait_for(state="visible", timeout=60_000)
    canvas = editor.locator("canvas.tronlab-canvas")
    # the notebook drew its walls and starts from code, and loaded its saved map back
    wait_for_kernel(conn, "editor.cells[4]", repr("# 1 #   # 2 #"))
    assert canvas.get_attribute("data-rows").split("\n")[4] == "# 1 #   # 2 #"
    px = canvas.evaluate("c => c.width") / 13

    # a click draws a wall (and its mirror through the centre)
    assert editor.locator("button[data-tool='#']").get_attribute("aria-pressed") == "true"
    canvas.click(position={"x": 6.5 * px, "y": 1.5 * px})
    wait_for_kernel(conn, "editor.cells[1][6] + editor.cells[7][6]", "'##'")

    # the keyboard: Tab from the load button reaches the grid, which shows it has the
    # focus; the arrows move the cursor from the clicked square and Space paints
    canvas.evaluate("c => c.blur()")                         # the focus away, then back
    unfocused = canvas.evaluate(BORDER)
    editor.locator("button.tronlab-load").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.tagName") == "CANVAS"
    assert canvas.evaluate(BORDER) == "rgb(240, 165, 0)" != unfocused
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    wait_for_kernel(conn, "editor.cells[1][7] + editor.cells[7][5]", "'##'")
    assert page.evaluate("() => document.activeElement.tagName") == "CANVAS"
    ARTIFACTS.mkdir(exist_ok=True)
    editor.screenshot(path=str(ARTIFACTS / "map-editor-notebook00.png"))

    # the load button reads the file in the box back over the drawing
    editor.locator("button.tronlab-load").click()
    wait_for_kernel(conn, "editor.board() == mine", "True")
    page.wait_for_function("el => el.textContent.startsWith('loaded ')",
                           arg=editor.locator(".tronlab-status").element_handle(),
                           timeout=30_000)


def test_the_keys_paint_in_notebook7(lab):
    """Notebook 7 binds the arrow keys to its own commands (cell selection) in the capture
    phase: the grid carries ``data-lm-suppress-shortcuts`` so they move its cursor."""
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "editor7.ipynb", CELLS),
                        app="notebook")
    canvas = page.locator(".tronlab-map-editor canvas.tronlab-canvas")
    canvas.wait_for(state="visible", timeout=60_000)
    px = canvas.evaluate("c => c.width") / 9
    canvas.click(position={"x": 1.5 * px, "y": 1.5 * px})          # a wall at (1, 1)
    for key in ["ArrowDown", "ArrowDown", "ArrowRight", "Enter"]:   # and at (2, 3)
        page.keyboard.press(key)
    wait_for_kernel(conn, "ed.cells[1][1] + ed.cells[3][2] + ed.cells[3][6]", "'###'")
