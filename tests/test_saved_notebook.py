"""A notebook saved after running shows the board as a picture where no widget can run.

The notebook is executed by nbclient the way JupyterLab saves it by default (no widget
state), then rendered to HTML by nbconvert without a kernel, as GitHub or nbviewer would
show it: each widget's output must be a PNG of the board - a replay's final board - and not
``<tronlab.widgets.BoardWidget object at 0x...>``.
"""

from __future__ import annotations

import base64
import re

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
nbconvert = pytest.importorskip("nbconvert")

CELLS = [
    "from tronlab.runner.engine import play\n"
    "from tronlab.runner.registry import get_bot\n"
    "from tronlab.tron.mapgen import load_builtin\n"
    "from tronlab.widgets import BoardWidget\n"
    "record = play(load_builtin('cross'), [get_bot('hugger'), get_bot('random')], rng=11)",
    "BoardWidget.replay(record, cell_px=8)",
    "BoardWidget(load_builtin('arena'), cell_px=8)",
]


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_saved_notebook_renders_boards_as_images(tmp_path):
    from tronlab.runner.engine import play
    from tronlab.runner.registry import get_bot
    from tronlab.tron.mapgen import load_builtin
    from tronlab.widget_views import board_png

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            store_widget_state=False).execute()
    path = tmp_path / "saved.ipynb"
    nbformat.write(nb, path)

    html, _ = nbconvert.HTMLExporter().from_notebook_node(nbformat.read(path, as_version=4))
    assert "BoardWidget object at" not in html
    images = re.findall(r'<img[^>]+src="data:image/png;base64,([^"]+)"', html)
    assert len(images) == 2, f"{len(images)} images in the HTML"
    final = play(load_builtin("cross"), [get_bot("hugger"), get_bot("random")], rng=11).final
    assert base64.b64decode(images[0]) == board_png(final, 8)
    assert base64.b64decode(images[1]) == board_png(load_builtin("arena"), 8)
