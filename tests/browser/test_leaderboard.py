"""The leaderboard page opens offline (no request leaves the file) and a game's
replay link shows that game: its title, its final board, and earlier turns
with the slider and the arrow keys."""

import pytest

from tronlab.arena import Store, round_robin, run
from tronlab.arena.html import leaderboard_html
from tronlab.arena.store import record_of

pytestmark = pytest.mark.browser


@pytest.fixture
def page_file(tmp_path):
    plan = round_robin(["random", "hugger", "filler"], "arena,random:1:9x9")
    with Store(tmp_path / "lb.sqlite") as store:
        run(plan, store, progress=False)
        rows = store.rows()
        path = tmp_path / "board.html"
        path.write_text(leaderboard_html(store, rows), encoding="utf-8")
        game = rows[4]
        record = record_of(store.record_json(game["id"]))
    return path, game, record


def test_leaderboard_opens_offline_and_replays_a_game(page_file, browser):
    path, game, record = page_file
    boards = record.boards()
    requests = []
    context = browser.new_context(offline=True)
    try:
        page = context.new_page()
        page.on("request", lambda r: requests.append(r.url))
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path.as_uri())
        assert page.locator("h1").inner_text() == "tronlab arena leaderboard"
        assert page.locator("svg circle").count() == 3
        assert not page.locator("#viewer").is_visible()
        page.click(f'a[href="#game-{game["id"]}"]')
        page.wait_for_selector("#viewer", state="visible")
        a, b = game["names"]            # each with the characters it is drawn with
        assert f"{a} (1/a) v {b} (2/b)" in page.locator("#title").inner_text()
        assert page.locator("#board").inner_text() == boards[-1].to_ascii()
        assert f"turn {len(boards) - 1} of {len(boards) - 1}" == \
            page.locator("#turn-label").inner_text()
        page.keyboard.press("ArrowLeft")
        assert page.locator("#board").inner_text() == boards[-2].to_ascii()
        page.locator("#turn").fill("0")
        assert page.locator("#board").inner_text() == boards[0].to_ascii()
        page.screenshot(path=str(path.with_suffix(".png")), full_page=True)
        assert errors == []
    finally:
        context.close()
    assert all(url.startswith("file://") for url in requests), requests
