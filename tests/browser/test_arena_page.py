"""The arena's leaderboard page for a class of thirty, in a real chromium: the head-to-head
matrix scrolls in a box of its own, the page itself stays as wide as the window, and the
row names stay in view while the matrix scrolls."""

from __future__ import annotations

import itertools

import pytest

from tronlab.arena.html import leaderboard_html

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

#: thirty students, some with long names, as a class folder gives them
NAMES = [f"student_{k:02d}" for k in range(26)] + [
    "garbage_program", "Paul Smith", "zoë", "quinn-v2-final-really"]


class _NoStore:
    path = "class.sqlite"          # no replays and no faults: the page reads no record


def _rows():
    rows = []
    for k, (a, b) in enumerate(itertools.combinations(NAMES, 2), 1):
        winner = (None, 0, 1)[k % 3]                   # a draw, a win, a loss in turn
        rows.append({"id": k, "key": str(k), "tag": "", "game": "google2010",
                     "bots": [a, b], "names": [a, b], "map": "arena", "map_set": "builtin",
                     "seed": k, "time": 0.05, "depth": None, "winner": winner,
                     "ranks": [0, 0] if winner is None else [winner, 1 - winner],
                     "turns": 20, "faults": [None, None], "depths": [None, None],
                     "seconds": 0.1, "created": "", "bank": None, "slow": None})
    return rows


def test_thirty_bots_head_to_head_scrolls_in_its_box_with_the_names_in_view(browser, tmp_path):
    page_file = tmp_path / "board.html"
    page_file.write_text(leaderboard_html(_NoStore(), _rows(), max_replays=0), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width              # the page does not scroll sideways
        box = page.locator("table.h2h").locator("xpath=..")
        assert box.evaluate("(e) => e.scrollWidth > e.clientWidth")   # the matrix does
        first = page.locator("table.h2h tr").nth(5).locator("td").first
        before = first.bounding_box()["x"]
        box.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
        assert first.bounding_box()["x"] == pytest.approx(before, abs=1)
        number, name = first.inner_text().split(" ", 1)
        assert number == "5" and name in NAMES
    finally:
        context.close()
