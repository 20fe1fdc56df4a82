"""The board widget's legend in a real chromium (JupyterLab): on a codingame board a
player's trail goes with it, so the legend marks who is out ("1: you (out)"), while the
bots play on and once the game is over."""

from __future__ import annotations

import pytest

from .jupyter import ask_kernel, run_notebook, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tronlab import BoardWidget\nfrom tronlab.tron.mapgen import codingame_board\n"
    "w = BoardWidget.play(['hugger', 'hugger'], rules='codingame',\n"
    "                     board=codingame_board(3, rng=4), seed=2)\nw.fps = 2.0\nw",
]
LEGEND = ("() => [...document.querySelectorAll('.tronlab-board .tronlab-legend-item')]"
          ".map((e) => e.textContent.trim())")


def test_the_legend_says_who_is_out(lab):
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "legend.ipynb", CELLS))
    page.locator(".tronlab-board[data-mode=play]").wait_for(state="visible", timeout=60_000)
    assert page.evaluate(LEGEND) == ["1: you", "2: hugger", "3: hugger"]
    # on this board the person runs into the left edge on turn 15
    ask_kernel(conn, {"out": "[w.move('left') for _ in range(40) if not w.watching]"})
    page.wait_for_function(f"() => ({LEGEND})()[0] === '1: you (out)'", timeout=10_000)
    assert page.evaluate(LEGEND)[1:] == ["2: hugger", "3: hugger"]
    winner = int(ask_kernel(conn, {"w": "w.finish().outcome.winner"})["w"])
    page.wait_for_function("() => document.querySelector('.tronlab-board')"
                           ".dataset.gameOver === 'yes'", timeout=10_000)
    want = [f"{p + 1}: {name}" + ("" if p == winner else " (out)")
            for p, name in enumerate(["you", "hugger", "hugger"])]
    page.wait_for_function(f"(want) => JSON.stringify(({LEGEND})()) === JSON.stringify(want)",
                           arg=want, timeout=10_000)
