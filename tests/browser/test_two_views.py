"""A play widget shown twice in a real chromium (JupyterLab): after the person is out the
bots play on at the widget's speed, not twice as fast (each view runs a clock that sends
ticks; the kernel plays one turn per period, BoardWidget._tick_due)."""

from __future__ import annotations

import ast

import pytest

from .jupyter import ask_kernel, run_notebook, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tronlab import BoardWidget\nfrom tronlab.tron.mapgen import codingame_board\n"
    "w = BoardWidget.play(['hugger', 'hugger'], rules='codingame',\n"
    "                     board=codingame_board(3, rng=4), seed=2)\nw.fps = 4.0\nw",
    "display(w)",
]
# on this board the person runs into the left edge on turn 15; the bots play 51 more turns
CLOCK = "(w.turn, __import__('time').monotonic(), w.watching, w.game_over)"


def test_two_views_play_at_the_widgets_speed(lab):
    server, page = lab
    conn = run_notebook(page, server, write_notebook(server.root / "two_views.ipynb", CELLS))
    views = page.locator(".tronlab-board[data-mode=play]")
    views.nth(1).wait_for(state="visible", timeout=60_000)
    assert views.count() == 2
    ask_kernel(conn, {"out": "[w.move('left') for _ in range(40) if not w.watching]"})
    page.wait_for_timeout(1000)                   # both views' clocks are running now
    turn0, t0, watching, _ = ast.literal_eval(ask_kernel(conn, {"c": CLOCK})["c"])
    assert watching
    page.wait_for_timeout(3000)
    turn1, t1, _, over = ast.literal_eval(ask_kernel(conn, {"c": CLOCK})["c"])
    assert not over, "the game ended inside the measured window: measure a shorter one"
    rate = (turn1 - turn0) / (t1 - t0)            # turns per second; fps is 4
    assert 1.0 <= rate <= 1.5 * 4.0, f"{turn1 - turn0} turns in {t1 - t0:.2f} s"
