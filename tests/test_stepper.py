"""The search stepper's Python side: what it sends the browser, the sentence per step, the
step bounds, and the picture a saved notebook keeps."""

from __future__ import annotations

import base64

import matplotlib

matplotlib.use("Agg")

from tronlab import Board  # noqa: E402
from tronlab.course.search_trace import trace_alphabeta  # noqa: E402
from tronlab.course.stepper import SearchStepper, step_texts, stepper_data  # noqa: E402

TINY = Board.from_ascii("""
    ######
    #....#
    #1#..#
    #...2#
    ######
""")


def test_data_matches_the_trace():
    t = trace_alphabeta(TINY, 4)
    d = stepper_data(t)
    assert len(d["nodes"]) == len(t.nodes) == len(d["boards"])
    assert d["steps"] == [[i, k] for i, k in t.steps] and d["pv"] == t.pv
    for n, sent, board in zip(t.nodes, d["nodes"], d["boards"]):
        assert (sent["value"], sent["parent"], sent["player"]) == (n.value, n.parent, n.player)
        assert board["heads"] == [list(n.board.xy(h)) for h in n.board.heads]
        assert board["cells"] == n.board.cells[1:-1, 1:-1].tolist()


def test_one_sentence_per_step_naming_windows_values_and_cut_offs():
    t = trace_alphabeta(TINY, 4)
    texts = step_texts(t)
    assert len(texts) == len(t.steps)
    # player 0 (blue, its head drawn "1") moves first: once "player 1 to move", the digit,
    # while notebook 04 beside the stepper says "blue where player 0 is to move"; then
    # "(player 0 (head 1) to move)", two numbers for one player and nothing saying why
    assert texts[0] == ("step 0: enter R, player 0 (blue, 1 on the board) to move, "
                        "window (-inf, inf)")
    second = next(s for s in texts if "player 1" in s)
    assert second == "step 1: enter up, player 1 (red, 2 on the board) to move, window (-inf, inf)"
    assert texts[-1] == "step 29: leave R with value -3"
    cut = [s for s in texts if "cut-off" in s]
    assert len(cut) == 1 and "left never tried" in cut[0]


def test_stepping_stays_in_bounds():
    s = SearchStepper(TINY, 4)
    s.prev()
    assert s.step == 0 and s.node.id == 0
    s.next()
    assert s.step == 1 and s.text.startswith("step 1: enter up")
    s.step = 10_000
    assert s.step == len(s.trace.steps) - 1


def test_a_saved_notebook_keeps_a_picture():
    data, _ = SearchStepper(TINY, 3)._repr_mimebundle_()
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG") and len(png) > 5000
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "SearchStepper" in data["text/plain"]


def test_a_wrong_board_is_named_in_the_steppers_words():
    """Not a Board, or four players: the message names SearchStepper, not TurnGame (an
    internal class of the search the learner never met)."""
    import numpy as np
    import pytest

    from tronlab.tron.mapgen import codingame_board

    for bad, kind in [("board.txt", TypeError), (np.zeros((5, 5)), TypeError),
                      (codingame_board(4, rng=0), ValueError)]:
        with pytest.raises(kind) as err:
            SearchStepper(bad, 2)
        assert str(err.value).startswith("SearchStepper ") and "TurnGame" not in str(err.value)
    assert "needs a 2-player Board, this one has 4 players" in str(err.value)
