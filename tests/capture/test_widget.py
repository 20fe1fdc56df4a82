"""CaptureWidget (Python side) and the matplotlib pictures of capture grids: a click sets
the target and plays a round, BACK rewinds, the slider shows earlier rounds, a just
captured enclosure is marked for the page to flash, a recorded game replays."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from tronlab.capture.game import play_capture  # noqa: E402
from tronlab.capture.render import draw_state, grid_rgb, just_captured  # noqa: E402
from tronlab.capture.widget import CaptureWidget  # noqa: E402


def stay(view, player):
    return view.positions[player]


def small():
    return CaptureWidget([stay], width=7, height=7, starts=[(1, 1), (5, 5)])


def test_a_click_sets_the_target_and_plays_one_round_toward_it():
    w = small()
    assert w.n_frames == 1 and w.shown["round"] == 1
    w.click(3, 1)
    assert w.target == [3, 1] and w.state.positions[0] == (2, 1)
    assert w.n_frames == 2 and w.frame == 1 and w.shown["round"] == 2
    assert w.shown["rows"][1] == ".00...."
    w.play(2)                                   # on toward the same target, then stays
    assert w.state.positions[0] == (3, 1) and w.state.round == 4


def test_a_closed_loop_is_flashed_and_back_undoes_it():
    w = small()
    for target, rounds in [((3, 1), 2), ((3, 3), 2), ((1, 3), 2), ((1, 2), 1)]:
        w.click(*target)
        w.play(rounds - 1)
    assert w.shown["flash"] == [[2, 2]] and w.shown["rows"][2] == ".000..."
    assert w.state.scores()[0] == 9
    assert all(f["flash"] == [] for f in w._frames[:-1])
    w.back(3)
    assert w.state.round == 5 and w.shown["rows"][2] == "...0..."    # round 8 goes back 3
    assert w.shown["flash"] == [] and "player 0 back 3" in w.shown["text"]
    with pytest.raises(ValueError, match="used your BACK"):
        w.back(2)
    with pytest.raises(ValueError, match="1 to 25"):
        CaptureWidget([stay]).back(26)


def test_the_slider_shows_earlier_rounds_and_play_goes_on_from_the_present():
    w = small()
    w.click(3, 1)
    w.click(3, 3)
    w.frame = 1
    assert w.shown["positions"][0] == [2, 1]
    w.click(6, 6)
    assert w.frame == 3 and w.n_frames == 4 and w.shown["positions"][0] == [4, 1]


def test_browser_messages_drive_the_game_and_errors_go_to_the_status():
    w = small()
    w._on_browser_msg(w, {"kind": "click", "x": 1, "y": 4}, [])
    assert w.state.positions[0] == (1, 2)
    w._on_browser_msg(w, {"kind": "next"}, [])
    assert w.state.positions[0] == (1, 3)
    w._on_browser_msg(w, {"kind": "back", "n": 1}, [])
    assert w.state.round == 2 and w.state.backs_left[0] == 0
    w._on_browser_msg(w, {"kind": "click", "x": 9, "y": 0}, [])
    assert "off the 7x7 grid" in w.status


def test_a_move_key_goes_one_square_that_way_and_the_edge_is_refused():
    # the page's arrow keys and WASD send {"kind": "move", "move": 0-3}: one round, one
    # square up, right, down or left (x right, y down, as the grid's rows)
    w = small()
    for move, square in [(0, (1, 0)), ("right", (2, 0)), (2, (2, 1)), ("left", (1, 1))]:
        w._on_browser_msg(w, {"kind": "move", "move": move}, [])
        assert (w.status, w.state.positions[0], w.target) == ("", square, list(square))
    assert w.state.round == 5 and w.n_frames == 5
    w.move("left")
    w._on_browser_msg(w, {"kind": "move", "move": 3}, [])      # at x = 0: left leaves the grid
    assert w.status == "you are at (0, 1) on the edge: left leaves the grid"
    assert w.state.round == 6 and w.state.positions[0] == (0, 1)
    with pytest.raises(ValueError, match="unknown move name 'jump'"):
        w.move("jump")
    with pytest.raises(ValueError, match="replays a recorded game"):
        CaptureWidget.replay(w.record).move("up")


def test_a_back_count_of_2_5_from_the_page_is_refused_not_cut_to_2():
    # the round picker is a number box: 2.5 typed there reached Python as a float, and
    # int() made it BACK 2 (round 5 went back to 3, the one BACK spent)
    w = small()
    w.play(4)
    for msg, said in [({"kind": "back", "n": 2.5}, "n must be an int from 1 to 25 "
                                                    "(rounds to go back), got float 2.5"),
                      ({"kind": "click", "x": 2.5, "y": 1}, "target must be an (x, y) pair "
                                                            "of ints, got (2.5, 1)")]:
        w._on_browser_msg(w, msg, [])
        assert w.status == said
        assert w.state.round == 5 and w.state.backs_left[0] == 1 and w.n_frames == 5


def test_four_players_and_the_end_of_the_game():
    w = CaptureWidget(["nearest", "random", "nearest"], you=2, rng=3, width=8, height=6,
                      round_limit=5)
    assert w.n_players == 4 and len(w.shown["positions"]) == 4
    w.play(5)
    # the last frame says why the game ended and who is first, and keeps saying it
    assert w.shown["over"] and w.status == ""
    assert w.shown["text"] == ("round 5 played, scores 0:6 1:5 2:1 3:6; game over: the last "
                               "round is played; first place shared by player 0 (nearest) "
                               "and player 3 (nearest)")
    w.play(1)
    assert w.status == "the game is over" and w.n_frames == 6
    assert w.shown["text"].endswith("player 3 (nearest)")
    w.record.verify()


def test_a_bot_that_raises_is_out_and_the_status_says_what_it_raised():
    # as in play_capture (and the board widget): a learner's bug does not break the widget
    def mine(view, player):
        raise NotImplementedError("write nearest_target")

    w = CaptureWidget([mine], width=7, height=7, starts=[(1, 1), (5, 5)])
    w._on_browser_msg(w, {"kind": "click", "x": 3, "y": 1}, [])
    assert w.state.positions[0] == (2, 1) and w.state.eliminated == (False, True)
    assert w.status == "player 1 (mine): NotImplementedError: write nearest_target"
    w.click(3, 1)
    assert w.status == ""
    w.record.verify()


def test_a_bot_that_hangs_times_out_and_the_status_names_it(monkeypatch):
    # without a clock a bot stuck in a loop blocked the click until the kernel was interrupted
    import threading
    import time

    from tronlab.capture import game
    monkeypatch.setattr(game, "GRACE", 0.3)         # the wait: limit + grace
    release = threading.Event()

    def stuck(view, player):
        release.wait(5)
        return view.positions[player]

    def slow(view, player):             # answers, but after its limit
        time.sleep(0.15 if view.round > 1 else 0)
        return view.positions[player]

    try:
        w = CaptureWidget([stuck, slow], width=7, height=7, starts=[(1, 1), (5, 5), (5, 1)],
                          time_limit=0.1, first_time_limit=0.05)
        t0 = time.perf_counter()
        w.click(3, 1)
        assert time.perf_counter() - t0 < 1.0
        assert w.state.eliminated == (False, True, False)
        assert w.status.startswith("player 1 (stuck) timed out and is out of the game: no "
                                   "answer 350 ms after it was asked, limit 50 ms (the first "
                                   "turn may also load numba's kernels")
        w.click(3, 1)                   # the stuck bot is not asked again; slow is late
        assert w.state.eliminated == (False, True, True) and w.state.positions[0] == (3, 1)
        assert w.status.startswith("player 2 (slow) timed out and is out of the game: "
                                   "answered after 1")
        assert w.status.endswith("ms, limit 100 ms")
        w.record.verify()
        w.close()
    finally:
        release.set()
    with pytest.raises(ValueError, match="time_limit must be None or a positive number"):
        CaptureWidget([stay], time_limit=0)
    with pytest.raises(ValueError, match="first_time_limit needs a time_limit"):
        CaptureWidget([stay], time_limit=None, first_time_limit=1.0)
    # the defaults: 5 s a turn, and a minute for the first (a cold cache compiles then)
    assert CaptureWidget([stay])._clock == (60.0, 5.0)
    assert CaptureWidget([stay], time_limit=30)._clock == (90.0, 30.0)
    untimed = CaptureWidget([stay], width=7, height=7, starts=[(1, 1), (5, 5)], time_limit=None)
    untimed.click(3, 1)
    assert untimed._workers == {} and untimed.state.positions[0] == (2, 1)


def test_a_record_replays_with_the_slider_only():
    rec = play_capture(["nearest", "random", "random"], rng=2, width=12, height=8)
    w = CaptureWidget.replay(rec)
    states = rec.replay()
    assert w.you == -1 and w.n_frames == len(states) and w.frame == len(states) - 1
    w.frame = 7
    assert w.shown["rows"] == ["".join("." if v < 0 else str(v) for v in row)
                               for row in states[7].owner.tolist()]
    with pytest.raises(ValueError, match="replays"):
        w.click(0, 0)
    # the last round says the game is over and who won; the earlier ones do not
    assert rec.outcome["ranks"] == [1, 3, 2]
    assert "game over" not in w.shown["text"]
    w.frame = len(states) - 1
    assert w.shown["text"].endswith("; game over: the ranking could no longer change; "
                                    "player 0 wins"), w.shown["text"]


def test_just_captured_leaves_out_standing_captures():
    before = np.full((3, 3), -1)
    after = before.copy()
    after[0, 0] = after[1, 1] = 0
    assert just_captured(before, after, [(0, 0)]) == [(1, 1)]


def test_pictures_use_the_owner_colours():
    w = small()
    w.click(3, 1)
    img = grid_rgb(w.state.owner)
    assert img.shape == (7, 7, 3) and (img[0, 0] == 1).all() and not (img[1, 1] == 1).all()
    ax = draw_state(w.state, before=w.record.replay()[0])
    assert ax.get_title() == "round 1: player 0 2, player 1 1"


def test_the_saved_picture_keeps_the_whole_line_of_a_finished_game(monkeypatch):
    # the last frame's line says who won at its end: the title wraps it, not cuts it
    import tronlab.capture.render as render
    titles = []
    draw_grid = render.draw_grid
    monkeypatch.setattr(render, "draw_grid", lambda *a, title="", **k: (
        titles.append(title), draw_grid(*a, title=title, **k))[1])
    rec = play_capture(["nearest", "random", "random"], rng=2, width=12, height=8)
    CaptureWidget.replay(rec).picture_png()
    assert len(titles[0].split("\n")) == 2 and titles[0].endswith("player 0 wins")


def test_a_saved_notebook_gets_a_picture_of_the_frame_shown():
    w = small()
    w.click(3, 1)
    data = w._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"].startswith("CaptureWidget: 2 players, round 1 played")
    import base64
    assert base64.b64decode(data["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"


def test_arguments_are_checked_up_front_like_the_board_widgets():
    with pytest.raises(TypeError, match=r"opponents is a list of bots, got the str 'nearest': "
                                        r"write \['nearest'\]"):
        CaptureWidget("nearest")
    with pytest.raises(TypeError, match="opponent 0 is a bot name .* got int 5"):
        CaptureWidget([5])
    with pytest.raises(TypeError, match="opponents is a list of bots"):
        CaptureWidget(None)
    with pytest.raises(ValueError, match="give 1 to 3 opponents, got 0"):
        CaptureWidget([])
    with pytest.raises(ValueError, match="give 1 to 3 opponents, got 4"):
        CaptureWidget([stay] * 4)
    with pytest.raises(TypeError, match=r"you must be an int from 0 to 1 \(your seat\), got bool"):
        CaptureWidget([stay], you=True)
    with pytest.raises(ValueError, match=r"you must be an int from 0 to 1 \(your seat\), got 2"):
        CaptureWidget([stay], you=2)
    with pytest.raises(TypeError, match="symmetric must be True or False, got str 'no'"):
        CaptureWidget([stay], symmetric="no")       # drew symmetric starts: 'no' is truthy
    w = small()
    for x, y in [(1.5, 2), (1, 2.0), (True, 1)]:
        with pytest.raises(TypeError, match=r"target must be an \(x, y\) pair of ints"):
            w.click(x, y)
    with pytest.raises(ValueError, match=r"target \(99, 1\) is off the"):
        w.click(99, 1)
    with pytest.raises(ValueError, match="rounds must be an int >= 0, got -1"):
        w.play(-1)
    with pytest.raises(TypeError, match="rounds must be an int >= 0, got float 1.5"):
        w.play(1.5)
    with pytest.raises(ValueError, match=r"n must be an int from 1 to 25 \(rounds to go back\)"):
        w.back(26)
    # the target set from a cell: an off-grid one was played, and the rules eliminated you
    with pytest.raises(ValueError, match=r"target \(99, 99\) is off the 7x7 grid"):
        w.target = [99, 99]
    with pytest.raises(TypeError, match=r"target must be an \(x, y\) pair of ints"):
        w.target = (2.5, 1)
    assert w.target is None
    assert w.state.round == 1 and w.n_frames == 1          # nothing was played
    w.click(np.int64(3), np.int32(1))                       # numpy integers are fine
    assert w.target == [3, 1] and w.state.positions[0] == (2, 1)


def test_players_sharing_a_square_are_all_drawn_and_labelled():
    # the rules let players stand on one square (a 4-player game can end with all
    # four on the last neutral square): every marker and id must stay visible, not
    # hidden under the next player's.  The board has just captured squares, whose
    # dark inner boxes are also smaller than a square: a head is told by its fill
    # in its player's colour, not by its size
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex
    from matplotlib.patches import Rectangle

    from tronlab.capture.ascii import parse_grid
    from tronlab.capture.render import draw_grid
    from tronlab.render import PLAYER_COLORS

    owner = parse_grid("""
        1...
        00.1
        000.
    """).owner
    positions = [(0, 2), (2, 0), (2, 0), (2, 0)]
    ax = draw_grid(owner, positions, flash=[(1, 1), (1, 2), (3, 1)])
    rects = [r for r in ax.patches if isinstance(r, Rectangle)]
    filled = [r for r in rects if r.get_fill()]
    assert len(rects) == len(filled)              # the outlines are one collection:
    (outlines,) = ax.collections
    assert len(outlines.get_paths()) == 6         # two for each captured square
    heads = {PLAYER_COLORS.index(to_hex(r.get_facecolor())): r.get_bbox() for r in filled}
    assert len(filled) == 4 and sorted(heads) == [0, 1, 2, 3]
    for p, b in heads.items():                    # each inside its own square
        x, y = positions[p]
        assert x - 0.5 <= b.x0 < b.x1 <= x + 0.5 and y - 0.5 <= b.y0 < b.y1 <= y + 0.5, p
    shared = [heads[p] for p in (1, 2, 3)]
    for i, a in enumerate(shared):                # and none covering another
        for b in shared[i + 1:]:
            assert a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0
    labels = {t.get_text(): tuple(t.get_position()) for t in ax.texts}
    assert sorted(labels) == ["0", "1", "2", "3"]
    for p, b in heads.items():                    # each id on its own head
        x, y = labels[str(p)]
        assert b.x0 < x < b.x1 and b.y0 < y < b.y1, p
    plt.close(ax.figure)


def test_head_boxes_split_a_shared_square_only():
    from tronlab.capture.render import head_boxes

    assert head_boxes([(1, 1), (3, 2)]) == {0: (1, 1, 0.8), 1: (3, 2, 0.8)}
    two = head_boxes([(1, 1), None, (1, 1)])
    assert list(two) == [0, 2] and two[0][1] == two[2][1] == 1 and two[0][0] < 1 < two[2][0]


def test_the_legend_names_each_seat():
    from tronlab.capture.paths_bot import PathBot

    w = CaptureWidget(["nearest", stay, PathBot(max_nodes=500)], you=1)
    assert w.names == ["nearest", "you", "stay", "PathBot"]
    rec = play_capture(["nearest", "nearest"], rng=1, round_limit=5)
    assert CaptureWidget.replay(rec).names == []        # a record does not keep names


def _luminance(rgb):
    """WCAG relative luminance of sRGB values in 0..1 (last axis)."""
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def test_the_outline_of_a_capture_shows_on_every_owners_colour():
    # the amber outline alone was 1.1:1 against the salmon (and blue) squares: the picture
    # barely showed what player 1's loop took.  Something in the outline must stand out
    # at the 3:1 contrast asked of graphics (WCAG 1.4.11) on each owner's colour
    import matplotlib.pyplot as plt

    from tronlab.capture.render import draw_grid
    from tronlab.render import TRAIL_COLORS

    owner = np.array([[0, 1, 2, 3]])
    ax = draw_grid(owner, flash=[(x, 0) for x in range(4)])
    fig = ax.figure
    fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())[..., :3] / 255
    for p in range(4):
        (x0, y0), (x1, y1) = ax.transData.transform([(p - 0.45, 0.45), (p + 0.45, -0.45)])
        top, bottom = sorted(img.shape[0] - np.array([y0, y1]).round().astype(int))
        square = img[top:bottom, int(round(x0)):int(round(x1))].reshape(-1, 3)
        fill = np.array([int(TRAIL_COLORS[p][i:i + 2], 16) for i in (1, 3, 5)]) / 255
        lum, ground = _luminance(square), _luminance(fill)
        contrast = (np.maximum(lum, ground) + 0.05) / (np.minimum(lum, ground) + 0.05)
        assert contrast.max() >= 3, f"player {p}'s captured square: {contrast.max():.1f}:1"
    plt.close(fig)


def test_the_saved_picture_is_as_sharp_as_the_steppers():
    # it was saved at 72 dpi, the search stepper's picture at 80
    import io

    from PIL import Image

    from tronlab import Board
    from tronlab.course.stepper import SearchStepper
    from tronlab.widget_views import PICTURE_DPI

    w = small()
    w.click(3, 1)
    board = Image.open(io.BytesIO(w.picture_png())).info["dpi"]
    stepper = SearchStepper(Board.from_ascii("""
        1...
        ...2
    """), depth=1).picture_png()
    assert board == Image.open(io.BytesIO(stepper)).info["dpi"]
    assert [round(d) for d in board] == [PICTURE_DPI, PICTURE_DPI]


def test_a_large_capture_is_outlined_in_one_artist_and_looks_the_same():
    # notebook 12 outlines a 197-square capture: one patch per outline (394) took about
    # 1 s more to draw than one collection of them; the picture must not change
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from tronlab.capture.render import FLASH_COLOR, FLASH_EDGE, draw_grid

    owner = np.full((20, 35), -1, np.int8)
    owner[2:12, 5:25] = 1
    flash = [(x, y) for y in range(2, 12) for x in range(5, 25)]

    def picture(ax):
        ax.figure.canvas.draw()
        img = np.asarray(ax.figure.canvas.buffer_rgba())[..., :3].astype(int)
        plt.close(ax.figure)
        return img

    ax = draw_grid(owner, [(3, 3)], flash=flash)
    assert len(ax.collections) == 1 and len(ax.patches) == 1      # the outlines; the head
    new = picture(ax)
    ax = draw_grid(owner, [(3, 3)])         # the oracle: each outline a patch of its own
    for x, y in flash:
        for colour, side, width in ((FLASH_COLOR, 1.0, 2.5), (FLASH_EDGE, 0.66, 1.2)):
            ax.add_patch(Rectangle((x - side / 2, y - side / 2), side, side, fill=False,
                                   edgecolor=colour, linewidth=width))
    old = picture(ax)
    differ = np.abs(new - old).max(axis=2) > 8
    assert differ.mean() < 0.005, differ.mean()      # a few corner pixels at most
