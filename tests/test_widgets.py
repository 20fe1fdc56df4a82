"""The board widget's Python side: wire format, playing by key messages, replay, overlays."""

import base64
import json
import pathlib
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, boards

from tronlab import Board
from tronlab.runner.registry import get_bot
from tronlab.runner.engine import play
from tronlab.tron.mapgen import codingame_board, load_builtin
from tronlab.widgets import (
    BoardWidget, decode_board, decode_frames, encode_board, encode_frames,
)

CODE_OF = {"#": 1, ".": 0, "a": 2, "b": 3, "c": 4, "d": 5,
           "1": 2, "2": 3, "3": 4, "4": 5, "A": 2, "B": 3, "C": 4, "D": 5}


def browser_cells(frame, width):
    """Decode a frame the way board.js does: base64 -> bytes, row-major playing area."""
    raw = base64.b64decode(frame["cells"])
    return [list(raw[i:i + width]) for i in range(0, len(raw), width)]


# ---- wire format ----------------------------------------------------------------------------

def test_frame_matches_the_ascii_picture():
    b = Board.from_ascii("""
        #a1.
        .Bbb
    """)
    f = encode_board(b)
    want = [[CODE_OF[ch] for ch in row] for row in b.to_ascii().split("\n")]
    assert browser_cells(f, b.width) == want
    assert f["heads"] == [[2, 0], [1, 1]] and f["alive"] == [True, False]
    json.dumps(f, allow_nan=False)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(dead=True))
def test_encode_decode_board_round_trip(board):
    back = decode_board(encode_board(board), board.width, board.height)
    assert back == board
    assert back.to_ascii() == board.to_ascii()


def test_decode_rejects_a_frame_of_the_wrong_size():
    f = encode_board(load_builtin("arena"))
    with pytest.raises(ValueError, match="frame holds 225 squares, expected 10x10"):
        decode_board(f, 10, 10)


@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(["google2010", "codingame"]))
def test_frames_round_trip_a_real_game(seed, rules):
    board = load_builtin("arena") if rules == "google2010" else codingame_board(3, rng=seed)
    n = board.n_players
    rec = play(board, [get_bot("random") for _ in range(n)], rules=rules, rng=seed)
    payload = encode_frames(rec.boards())
    assert len(payload["steps"]) == rec.outcome.turns
    json.dumps(payload, allow_nan=False)
    assert decode_frames(payload) == rec.boards()
    if rules == "google2010":     # two heads move a turn: at most two squares change
        assert all(len(s["d"]) <= 4 for s in payload["steps"])


def test_encode_frames_errors():
    with pytest.raises(ValueError, match="at least the start board"):
        encode_frames([])
    with pytest.raises(TypeError, match=r"boards\[1\] is a str"):
        encode_frames([load_builtin("arena"), "x"])
    with pytest.raises(ValueError, match="different size"):
        encode_frames([load_builtin("arena"), load_builtin("cross")])


# ---- playing ----------------------------------------------------------------------------------

def test_a_key_message_advances_the_game():
    w = BoardWidget.play("hugger", seed=1)
    assert (w.mode, w.turn, w.game_over, w.outcome) == ("play", 0, False, None)
    start = decode_board(w.frame, w.width, w.height)
    w._on_browser_msg(w, {"type": "move", "move": 0}, [])      # what an arrow key sends
    assert w.turn == 1 and "Turn 1." in w.status
    now = decode_board(w.frame, w.width, w.height)
    x0, y0 = start.head_xy(0)
    assert now.head_xy(0) == (x0, y0 - 1)                       # up is y-1
    assert now.flat[start.heads[0]] == 2                        # the old head is trail now
    w._on_browser_msg(w, {"type": "move", "move": "nonsense"}, [])
    assert w.turn == 1 and w.status.startswith("Ignored input")
    w._on_browser_msg(w, {"type": "move", "move": 1.5}, [])    # was cut to 1 and played
    assert w.turn == 1 and w.status == ("Ignored input: a move is an int 0-3 or a name like "
                                        "'up', got float")


def scripted(moves):
    """A bot that makes the given moves, one per call."""
    it = iter(moves)
    return lambda board, player: next(it)


@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=60))
def test_widget_game_equals_engine_game(keys):
    """The oracle: the engine playing the same key presses against the same (deterministic) bot."""
    board = load_builtin("pillars")
    w = BoardWidget.play("hugger", board=board, seed=0)
    used = []
    for k in keys + [0] * (board.height + 1):      # then straight up: the game must end
        if w.game_over:
            break
        w.move(k)
        used.append(k)
    assert w.game_over
    rec = play(board, [scripted(used), get_bot("hugger")], rules="google2010", rng=0)
    assert w.board == rec.final
    assert w.outcome.to_dict()["winner"] == rec.outcome.winner
    assert w.outcome.ranking == rec.outcome.ranking
    assert w.outcome.deaths == rec.outcome.deaths
    assert w.record.moves == rec.moves
    w.record.verify()


def test_game_runs_to_the_end_and_restarts():
    w = BoardWidget.play("hugger", seed=3)
    while not w.game_over:
        w.move("right")
    out = w.outcome
    assert out is not None and out.turns == w.turn
    assert w.record is not None and w.record.outcome.turns == w.turn
    assert "New game" in w.status and "Replay" in w.status
    with pytest.raises(ValueError, match="the game is over"):
        w.move("up")
    w._on_browser_msg(w, {"type": "move", "move": 1}, [])      # ignored once over
    assert w.turn == out.turns
    w._on_browser_msg(w, {"type": "new"}, [])
    assert (w.turn, w.game_over, w.outcome) == (0, False, None)
    assert decode_board(w.frame, w.width, w.height) == load_builtin("arena")


def test_codingame_bots_play_on_after_the_person_dies():
    board = codingame_board(3, rng=4)
    w = BoardWidget.play(["hugger", "hugger"], rules="codingame", board=board, seed=2)
    x, _ = w.board.head_xy(0)
    for _ in range(x + 1):          # straight into the left edge
        if w.watching or w.game_over:
            break
        w.move("left")
    assert w.watching and not w.game_over and "You are out" in w.status
    assert w.status.endswith("You left the grid. You are out; the bots play on.")
    died = w.turn
    assert w.board.alive[1:].all() and not w.board.alive[0]
    with pytest.raises(ValueError, match="bots play on"):
        w.move("up")
    turn = w.turn
    w._on_browser_msg(w, {"type": "tick"}, [])           # the widget's clock: one turn
    assert w.turn == turn + 1 and not w.thinking
    # the next turns' sentences still say how the person went out (each lives one tick)
    assert w.status == (f"Turn {turn + 1}. You left the grid on turn {died} and are out; "
                        f"the bots play on."), w.status
    w.finish()
    assert w.game_over and not w.watching and w.outcome.deaths[0] == "edge"
    assert w.outcome.winner in (1, 2)
    assert not (w.board.cells == 2).any()      # a dead player's trail is removed
    w.record.verify()



def test_two_views_ticking_do_not_speed_up_the_bots(monkeypatch):
    """Each view of a widget runs a clock that sends ticks at the widget's fps; the kernel
    plays one turn per period however many views tick."""
    import tronlab.widgets as widgets
    now = [100.0]
    monkeypatch.setattr(widgets, "_clock", lambda: now[0], raising=False)
    w = BoardWidget.play(["hugger", "hugger"], rules="codingame",
                         board=codingame_board(3, rng=4), seed=2)
    while not w.watching:
        w.move("left")
    period = 1 / w.fps
    turn = w.turn
    for k in range(4):                      # two views, each ticking once a period
        w._on_browser_msg(w, {"type": "tick"}, [])
        now[0] += period / 3
        w._on_browser_msg(w, {"type": "tick"}, [])
        now[0] += 2 * period / 3
        assert w.turn == turn + k + 1 and not w.thinking and not w.game_over
    w.fps = 2.0                             # a slower widget: a tick after 1/8 s is early now
    turn = w.turn
    w._on_browser_msg(w, {"type": "tick"}, [])
    assert w.turn == turn
    now[0] += 0.5
    w._on_browser_msg(w, {"type": "tick"}, [])
    assert w.turn == turn + 1

def test_a_crashing_bot_loses_and_the_game_goes_on():
    def broken(board, player):
        raise RuntimeError("boom")

    w = BoardWidget.play(broken, seed=0)
    deaths = w.move("up")
    assert deaths == {1: "error"} and w.game_over and w.outcome.winner == 0
    assert "You win!" in w.status
    assert "boom" in w.outcome.details[1]
    # the status says what the bot raised: a learner's exercise bot needs it to be fixed
    assert w.status.startswith("Turn 1. broken (cycle 2) is out: the bot raised an exception "
                               "(RuntimeError: boom). You win!"), w.status

    def talker(board, player):
        return "x" * 500

    w = BoardWidget.play(talker, seed=0)
    w.move("up")
    assert "talker (cycle 2) is out: returned something that is not a move (returned 'xxx" \
        in w.status and "...). You win!" in w.status and len(w.status) < 360, w.status


def test_a_bot_failing_to_start_loses_on_its_first_move():
    class Moody:
        name = "moody"

        def start_game(self, board, player, **kw):
            raise ValueError("not today")

        def __call__(self, board, player):
            return "up"

    w = BoardWidget.play(Moody(), seed=0)
    assert w.names == ["you", "moody"]
    assert w.move("up") == {1: "error"} and w.outcome.winner == 0
    assert "in start_game: ValueError: not today" in w.outcome.details[1]
    w.record.verify()


def test_play_argument_errors():
    with pytest.raises(ValueError, match="unknown rules"):
        BoardWidget.play("hugger", rules="chess")
    with pytest.raises(ValueError, match="give 2 bot"):
        BoardWidget.play(["hugger"], rules="codingame", board=codingame_board(3, rng=1))
    with pytest.raises(TypeError, match="seed is an int or a numpy Generator"):
        BoardWidget.play("hugger", seed="x")
    with pytest.raises(TypeError, match="a bot is a registered name"):
        BoardWidget.play(42)
    with pytest.raises(ValueError, match="google2010 is played by 2 players"):
        BoardWidget.play("hugger", board=codingame_board(3, rng=1))
    w = BoardWidget(load_builtin("arena"))
    with pytest.raises(ValueError, match="no game"):
        w.move("up")
    with pytest.raises(ValueError, match="cell_px"):
        BoardWidget(load_builtin("arena"), cell_px=1000)



def _missing(self):
    raise AttributeError("not in numpy 1.24")


class Generator124(np.random.Generator):
    """A Generator as numpy 1.24 has it: no ``spawn`` (numpy 1.25 added it)."""
    spawn = property(_missing)


class PCG64_124(np.random.PCG64):
    """numpy 1.24's PCG64: its SeedSequence has no public ``seed_seq`` yet."""
    seed_seq = property(_missing)


def test_play_works_without_numpy_1_25_apis_and_keeps_the_same_games():
    old = Generator124(PCG64_124(7))
    assert not hasattr(old, "spawn") and not hasattr(old.bit_generator, "seed_seq")
    w = BoardWidget.play("random", seed=old)
    same = BoardWidget.play("random", seed=7)
    while not w.game_over:
        w.move("right")
        same.move("right")
    assert w.moves == same.moves and same.game_over


def test_child_rngs_are_the_streams_of_spawn():
    from tronlab.widget_game import child_rngs
    ours = [g.integers(2**32, size=4) for g in child_rngs(Generator124(PCG64_124(3)), 3)]
    spawned = [g.integers(2**32, size=4) for g in np.random.default_rng(3).spawn(3)]
    assert np.array_equal(ours, spawned)


def test_a_negative_seed_is_refused_by_name():
    with pytest.raises(ValueError, match="seed is a non-negative int or a numpy Generator, got -1"):
        BoardWidget.play("hugger", seed=-1)

# ---- replay -----------------------------------------------------------------------------------

def test_replay_sends_turns_plus_one_frames():
    rec = play(load_builtin("cross"), [get_bot("hugger"), get_bot("random")], rng=11)
    w = BoardWidget.replay(rec, fps=12)
    assert w.mode == "replay" and not w.playing and w.fps == 12 and w.turn == 0
    assert len(w.frames["steps"]) + 1 == rec.outcome.turns + 1 == len(rec.boards())
    assert decode_frames(w.frames) == rec.boards()
    assert w.names == rec.metadata["names"]
    w.turn = 5                                    # what the slider writes back
    assert w.board == rec.boards()[5]
    # set from a cell, a turn outside the game is the nearest end, as the page shows it:
    # w.turn = -1 had made w.board the last board (a list index), the page the first
    last = len(rec.boards()) - 1
    for asked, shown in [(-1, 0), (last + 5, last)]:
        w.turn = asked
        assert w.turn == shown and w.board == rec.boards()[shown]
    with pytest.raises(ValueError, match="fps"):
        BoardWidget.replay(rec, fps=0)
    with pytest.raises(TypeError, match="GameRecord or a list of Boards"):
        BoardWidget.replay("game.json")
    with pytest.raises(TypeError, match="autoplay must be True or False, got str 'no'"):
        BoardWidget.replay(rec, autoplay="no")          # played: bool('no') is True


def test_replay_of_a_board_list():
    b = load_builtin("arena")
    w = BoardWidget.replay([b, b], autoplay=False)
    assert not w.playing and len(w.frames["steps"]) == 1 and w.frames["steps"][0]["d"] == []


# ---- overlays ---------------------------------------------------------------------------------

def test_overlays_validate_and_serialise():
    b = Board.from_ascii("""
        1..
        .#2
    """)
    w = BoardWidget(b)
    w.set_overlay("territory", np.array([[0, 0, 2], [0, 255, 1]]))
    assert w.overlays["territory"] == {"kind": "owner", "data": [0, 0, -1, 0, -1, 1]}
    w.set_overlay("distances", np.array([[0, 1, np.inf], [1, -1, 2.5]]))
    assert w.overlays["distances"]["data"] == [0, 1, -1, 1, -1, 2.5]
    mask = np.zeros((b.height + 2, b.width + 2), bool)
    mask[1, 2] = True                              # padded shape: square (1, 0)
    w.set_overlay("articulation", mask)
    assert w.overlays["articulation"]["data"] == [0, 1, 0, 0, 0, 0]
    w.set_overlay("score", np.array([[0.5, np.nan, 1], [2, 3, 4]]), kind="heat", visible=False)
    assert w.overlays["score"]["data"][1] is None and w.hidden_overlays == ["score"]
    json.dumps(w.overlays, allow_nan=False)
    w.clear_overlay("score")
    assert "score" not in w.overlays and w.hidden_overlays == []
    w.clear_overlay()
    assert w.overlays == {}


def test_overlay_errors_are_clear():
    w = BoardWidget(Board.from_ascii("1..\n.#2"))
    with pytest.raises(ValueError, match=r"overlay 'territory': shape \(3, 3\) does not fit"):
        w.set_overlay("territory", np.zeros((3, 3), int))
    with pytest.raises(ValueError, match="unknown overlay 'voronoi'.*kind="):
        w.set_overlay("voronoi", np.zeros((2, 3), int))
    with pytest.raises(ValueError, match="unknown overlay kind 'colour'"):
        w.set_overlay("x", np.zeros((2, 3)), kind="colour")
    with pytest.raises(ValueError, match="a mask.*booleans"):
        w.set_overlay("articulation", np.full((2, 3), 3))
    with pytest.raises(ValueError, match="whole numbers"):
        w.set_overlay("chambers", np.full((2, 3), 0.5))
    with pytest.raises(ValueError, match=r"holds 1e\+30: ids .* within \+-2\*\*53"):
        w.set_overlay("chambers", np.full((2, 3), 1e30))
    with pytest.raises(ValueError, match="holds 1.84467e\\+19"):
        w.set_overlay("territory", np.full((2, 3), 2**64 - 1, dtype=np.uint64))
    with pytest.raises(TypeError, match="numbers or booleans"):
        w.set_overlay("distances", [["a", "b", "c"], ["d", "e", "f"]])
    with pytest.raises(ValueError, match="no overlay called 'territory'"):
        w.clear_overlay("territory")


# ---- the front end ----------------------------------------------------------------------------

def test_front_end_ships_inside_the_package_and_needs_no_network():
    import tronlab

    static = pathlib.Path(tronlab.__file__).parent / "static"
    js = (static / "board.js").read_text()
    assert "export default { render }" in js
    assert "http://" not in js and "https://" not in js
    assert not any(line.lstrip().startswith("import ") for line in js.splitlines())
    w = BoardWidget(load_builtin("arena"))
    assert w._esm == js and "tronlab-canvas" in w._css


# ---- issue 12: four players, watching, replaying a finished game, the saved picture -----------

def test_four_player_play_builds_a_four_player_board_and_plays_to_the_end(monkeypatch):
    import tronlab.widgets as widgets
    now = [100.0]       # the widget's clock: a tick comes a whole second after the last
    monkeypatch.setattr(widgets, "_clock", lambda: now[0], raising=False)
    w = BoardWidget.play(["hugger", "filler", "random"], rules="codingame", seed=5)
    assert w.board.n_players == 4 and w.names == ["you", "hugger", "filler", "random"]
    while not w.game_over:
        if w.watching:      # (on the real clock this loop spun 25 s, 175,000 early ticks)
            now[0] += 1.0
            w._on_browser_msg(w, {"type": "tick"}, [])
        else:
            w._on_browser_msg(w, {"type": "move", "move": 0}, [])   # straight up
    rec, out = w.record, w.outcome
    rec.verify()
    assert rec.final.n_players == 4 and out.turns == w.turn
    # the whole game, the bots' turns after the person's death included, replays
    w._on_browser_msg(w, {"type": "replay"}, [])
    assert w.mode == "replay" and w.playing and w.can_restart
    assert decode_frames(w.frames) == rec.boards()
    # the result names the winner and says how each of the others went out, in turn order
    names = ["you", "hugger", "filler", "random"]
    assert w.result.startswith("A draw." if out.winner is None
                               else f"{names[out.winner]} (cycle {out.winner + 1}) wins. ")
    assert w.result.count(" on turn ") == sum(d is not None for d in out.deaths)
    assert "you (cycle 1) " in w.result
    # the kernel still says the game is over, and how (the status invites the Replay)
    assert w.game_over and w.outcome == out
    w._on_browser_msg(w, {"type": "new"}, [])
    assert w.mode == "play" and w.turn == 0 and w.board.n_players == 4


def test_replay_keeps_its_result_for_the_end():
    rec = play(load_builtin("cross"), [get_bot("hugger"), get_bot("random")], rng=11)
    w = BoardWidget.replay(rec)
    assert "wins" not in w.status and "draw" not in w.status.lower()
    assert rec.outcome.winner == 0 and rec.outcome.deaths == [None, "trail"]
    assert w.result == (f"hugger (cycle 1) wins. random (cycle 2) hit a trail on turn "
                        f"{rec.outcome.turns}.")
    assert w.game_over and w.outcome == rec.outcome
    w = BoardWidget.replay(rec.boards())            # boards alone: no outcome to tell
    assert not w.game_over and w.outcome is None


def png_pixels(data):
    """Decode an RGB PNG written by board_png (filter 0 rows) with zlib alone."""
    import struct
    import zlib
    w, h = struct.unpack(">II", data[16:24])
    pos, idat = 8, b""
    while pos < len(data):
        n, = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    rows = [raw[r * (3 * w + 1) + 1:(r + 1) * (3 * w + 1)] for r in range(h)]
    return np.frombuffer(b"".join(rows), np.uint8).reshape(h, w, 3)


def test_the_saved_picture_is_the_board():
    from tronlab.render import PLAYER_COLORS, WALL_COLOR
    from tronlab.widget_views import board_png

    b = Board.from_ascii("""
        1.#
        ..2
    """)
    px = png_pixels(board_png(b, 10))
    assert px.shape == (20, 30, 3)
    rgb = lambda hx: [int(hx[i:i + 2], 16) for i in (1, 3, 5)]   # noqa: E731
    assert px[5, 25].tolist() == rgb(WALL_COLOR)                   # square (2, 0)
    assert px[2, 2].tolist() == rgb(PLAYER_COLORS[0])              # head 1 at (0, 0)
    assert px[12, 22].tolist() == rgb(PLAYER_COLORS[1])            # head 2 at (2, 1)
    # as on the canvas, a frame one pixel in and the number in white (the picture had
    # neither, so a saved notebook's "cycle labelled 1" was not labelled)
    assert px[1, 5].tolist() == px[8, 5].tolist() == px[5, 1].tolist() == [0, 0, 0]
    assert px[3, 5].tolist() == px[7, 4].tolist() == [255, 255, 255]          # the 1
    assert (px[13:18, 24:27] == 255).any(axis=-1).sum() == 11                # the 2's strokes
    assert px[15, 5].tolist() == [255, 255, 255]                   # free square
    rec = play(load_builtin("cross"), [get_bot("hugger"), get_bot("random")], rng=11)
    w = BoardWidget.replay(rec, cell_px=8)
    data, _ = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    shown = png_pixels(base64.b64decode(data["image/png"]))
    assert (shown == png_pixels(board_png(rec.final, 8))).all()    # a replay shows its end
    assert "BoardWidget (replay)" in data["text/plain"]


def test_the_saved_picture_crosses_out_no_removed_trail():
    # CodinGame removes a dead player's trail; the canvas (board.js drawHeads) then draws
    # nothing there, but the saved picture crossed out the empty square
    from tronlab.tron.rules import get_rules
    from tronlab.widget_views import board_png

    b = Board.from_ascii("""
        .....
        .1.2.
        .....
    """)
    cg = get_rules("codingame")
    cg.apply_one(b, 0, 1, turn=1)
    assert cg.apply_one(b, 1, 3, turn=1) == "trail" and not b.alive[1]
    x, y = b.xy(b.heads[1])
    square = png_pixels(board_png(b, 10))[y * 10 + 1:y * 10 + 10, x * 10 + 1:x * 10 + 10]
    assert (square == 255).all()
    b.alive = [False, False]                         # a dead head whose trail stays: crossed
    x, y = b.xy(b.heads[0])
    assert (png_pixels(board_png(b, 10))[y * 10 + 5, x * 10 + 5] == 0).all()


def picture(widget):
    data = widget._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    return png_pixels(base64.b64decode(data["image/png"]))


def blend(under, hex_or_rgb, alpha):
    top = ([int(hex_or_rgb[i:i + 2], 16) for i in (1, 3, 5)] if isinstance(hex_or_rgb, str)
           else list(hex_or_rgb))
    return [round((1 - alpha) * u + alpha * t) for u, t in zip(under, top)]


def test_the_saved_picture_shows_the_visible_overlays():
    """A saved notebook's picture of a widget with an overlay shows the overlay as the canvas
    does (board.js drawOverlays), not the bare board; a hidden overlay is left out."""
    from tronlab.render import CHAMBER_COLORS, PLAYER_COLORS
    from tronlab.widget_views import HEAT_STOPS, board_png

    b = Board.from_ascii("""
        1....
        ..#..
        ....2
    """)
    bare = png_pixels(board_png(b, 16))
    centre = lambda x, y: (y * 16 + 8, x * 16 + 8)              # noqa: E731
    white = [255, 255, 255]
    owner = np.full((3, 5), -1)
    owner[:, :2], owner[:, 3:] = 0, 1
    w = BoardWidget(b, cell_px=16).set_overlay("territory", owner)
    px = picture(w)
    assert px[centre(1, 0)].tolist() == blend(white, PLAYER_COLORS[0], 0.28)
    assert px[centre(4, 0)].tolist() == blend(white, PLAYER_COLORS[1], 0.28)
    assert px[centre(2, 0)].tolist() == white                      # nobody's square
    assert (px[centre(0, 0)] == bare[centre(0, 0)]).all()          # a head is not tinted
    w.set_overlay("territory", owner, visible=False)
    assert (picture(w) == bare).all()

    chambers = np.where(np.arange(5) < 2, 0, 1)[None, :].repeat(3, axis=0)
    w = BoardWidget(b, cell_px=16).set_overlay("chambers", chambers)
    px = picture(w)
    assert px[centre(1, 1)].tolist() == blend(white, CHAMBER_COLORS[0], 0.6)
    assert px[centre(3, 1)].tolist() == blend(white, CHAMBER_COLORS[1], 0.6)
    assert px[16 + 8, 2 * 16].tolist() == [0, 0, 0]               # the border between them

    heat = np.arange(15, dtype=float).reshape(3, 5)
    heat[0, 0] = heat[2, 4] = 5                # the heads: the scale runs over every square
    px = picture(BoardWidget(b, cell_px=16).set_overlay("heat", heat))
    assert px[centre(1, 0)].tolist() == blend(white, HEAT_STOPS[0], 0.55)   # 1, the coldest
    assert px[centre(3, 2)].tolist() == blend(white, HEAT_STOPS[-1], 0.55)  # 13, the hottest

    mask = np.zeros((3, 5), bool)
    mask[0, 3] = True
    px = picture(BoardWidget(b, cell_px=16).set_overlay("articulation", mask))
    assert px[centre(3, 0)].tolist() == [0, 0, 0] and px[centre(1, 0)].tolist() == white

    dist = np.full((3, 5), -1)
    dist[0, 1], dist[2, 3] = 7, 12
    px = picture(BoardWidget(b, cell_px=16).set_overlay("distances", dist))
    ink = (px == 0x22).all(axis=2)
    assert ink[0:16, 16:32].any() and ink[32:48, 48:64].any()      # the two numbers
    assert not ink[0:16, 32:48].any()                              # and nothing where -1
    small = picture(BoardWidget(b, cell_px=8).set_overlay("distances", dist))
    assert (small == png_pixels(board_png(b, 8))).all()            # the canvas: no numbers < 10 px


def test_the_picture_uses_the_canvas_colours():
    """The Python picture and board.js share their tints: a change to one shows here."""
    from tronlab.render import CHAMBER_COLORS
    from tronlab.widget_views import HEAT_STOPS

    js = (pathlib.Path(__file__).resolve().parents[1] / "tronlab" / "static" / "board.js"
          ).read_text(encoding="utf-8")
    tints = js.split("const CHAMBER_TINTS = ")[1].split(";")[0]
    stops = js.split("const HEAT_STOPS = ")[1].split(";")[0]
    assert json.loads(tints) == list(CHAMBER_COLORS)
    assert json.loads(stops) == [list(s) for s in HEAT_STOPS]
    for alpha in ("0.28)", "0.6)", "0.55)"):                    # owner, chambers, heat
        assert alpha in js


def test_play_and_new_game_take_rng_as_the_other_games_call_it():
    # before: BoardWidget.play took only seed=, while tronlab.play, play_capture and the
    # capture widget take rng=: play("hugger", rng=5) was "unexpected keyword argument"
    bots = ["hugger", "random"]
    by_rng = BoardWidget.play(bots, rules="codingame", rng=5)
    by_seed = BoardWidget.play(bots, rules="codingame", seed=5)
    assert by_rng.board == by_seed.board
    assert by_rng.board != BoardWidget.play(bots, rules="codingame").board   # seed 0
    by_rng.new_game(rng=np.random.default_rng(7))
    by_seed.new_game(seed=np.random.default_rng(7))
    assert by_rng.board == by_seed.board
    with pytest.raises(TypeError, match="give seed or rng, not both"):
        BoardWidget.play("hugger", seed=1, rng=2)
    with pytest.raises(TypeError, match="give seed or rng, not both"):
        by_rng.new_game(seed=1, rng=2)


def test_the_replay_button_keeps_the_boards_size():
    """Replay (and New game after it) show the game at the size it was played at: the
    replay took the default size instead (a 10-px 15x15 board grew to 28 px)."""
    w = BoardWidget.play("random", cell_px=10, seed=1)
    while not w.game_over:
        w.advance() if w.watching else w.move("up")
    w._on_browser_msg(w, {"type": "replay"}, [])
    assert (w.mode, w.cell_px) == ("replay", 10)
    w._on_browser_msg(w, {"type": "new"}, [])
    assert (w.mode, w.cell_px) == ("play", 10)


def test_an_empty_bot_list_is_named():
    """play(bot=[]) said 'n_players must be at least 2, got 1' (the codingame board maker's
    words about a board the learner never asked for)."""
    for rules in ("codingame", "google2010"):
        with pytest.raises(ValueError, match="bot is an empty list: give one bot per opponent"):
            BoardWidget.play([], rules=rules)


def test_the_moves_stay_readable_after_the_replay_button():
    """widget.moves emptied when Replay was pressed (the game's driver is let go); the
    replay is of that game, so its moves are the record's, checked against the replay's
    own boards by applying them with the rules."""
    from tronlab.tron.rules import get_rules

    w = BoardWidget.play("random", seed=1)
    while not w.game_over:
        w.advance() if w.watching else w.move("up")
    played = w.moves
    w._on_browser_msg(w, {"type": "replay"}, [])
    assert w.mode == "replay" and w.moves == played and len(played) == w.outcome.turns
    boards, rules = w.record.boards(), get_rules("google2010")
    for turn, moves in enumerate(played):
        board = boards[turn].copy()
        rules.apply(board, moves, turn=turn + 1)
        assert board == boards[turn + 1]


# ---- the bots' clock ------------------------------------------------------------------------
def test_a_bot_stuck_in_a_loop_times_out_instead_of_blocking_the_kernel():
    release = threading.Event()

    def stuck(board, player):
        release.wait(30)            # a learner's endless loop; released when the test ends
        return "up"

    try:
        w = BoardWidget.play(stuck, seed=0, time_limit=0.2, first_time_limit=0.3)
        t0 = time.monotonic()
        assert w.move("up") == {1: "timeout"}
        assert time.monotonic() - t0 < 20       # the wait ended at the limit, not at 30 s
        assert w.game_over and w.outcome.winner == 0
        assert w.status.startswith("Turn 1. stuck (cycle 2) is out: ") and \
            "no answer within 0.3 s" in w.status and "You win!" in w.status, w.status
        # a wait in C code is told to stop but runs on until it returns to Python
        assert "Its call still runs in a thread: told to stop, it ends when it next runs " \
            "Python code" in w.status, w.status
    finally:
        release.set()


def test_a_bot_in_an_endless_python_loop_is_stopped_when_it_times_out():
    flag = threading.Event()

    def spinning(board, player):
        while not flag.is_set():        # a learner's endless loop, ended by the stop
            pass

    try:
        w = BoardWidget.play(spinning, seed=0, time_limit=0.2, first_time_limit=0.3)
        assert w.move("up") == {1: "timeout"} and "You win!" in w.status
        assert "still runs" not in w.status, w.status
        assert not w._game.seats[1].worker.busy
    finally:
        flag.set()


def test_under_light_riders_a_timed_out_bot_is_shut_down_and_keeps_going_straight():
    release, calls = threading.Event(), []

    def slow_once(board, player):
        calls.append(board.heads[player])
        if len(calls) == 2:
            release.wait(30)
        return "pass"               # a Light Riders bot may pass: it keeps going straight

    try:
        w = BoardWidget.play(slow_once, rules="lightriders", seed=3, time_limit=0.2)
        w.move("up")
        w.move("up")                # the bot's second move overruns
        kinds = [e["kind"] for e in w._game.events if e["player"] == 1]
        assert kinds == ["pass", "timeout"], w._game.events
        assert not w.game_over
        w.move("up")
        assert len(calls) == 2      # shut down: never asked again
        assert w._game.events[-1]["detail"] == "shut down after a timeout: keeps going straight"
    finally:
        release.set()


def test_the_clock_runs_bots_on_their_own_thread_and_none_turns_it_off():
    seen = []

    class Probe:
        name = "probe"

        def start_game(self, board, player, *, time_limit=None, **kw):
            seen.append(("start", threading.current_thread().name, time_limit))

        def __call__(self, board, player):
            seen.append(("move", threading.current_thread().name))
            return board.legal_moves(player)[0]

    w = BoardWidget.play(Probe(), seed=0)
    w.move("up")
    # the clock guards the bot but tells it no limit: a searching bot thinks its own time
    assert seen == [("start", "tronlab-bot-1", None), ("move", "tronlab-bot-1")]
    assert w._game.limits == (60.0, 5.0)
    worker = w._game.seats[1].worker
    w.new_game()                            # keeps the clock; the old game's thread ends
    worker.thread.join(5)
    assert w._game.limits == (60.0, 5.0) and not worker.thread.is_alive()
    seen.clear()
    w.new_game(time_limit=None)             # no clock: the bot runs in the kernel's thread
    w.move("up")
    main = threading.main_thread().name
    assert seen == [("start", main, None), ("move", main)] and w._game.limits == (None, None)
    w.new_game(time_limit=2, first_time_limit=7)
    assert w._game.limits == (7.0, 2.0)
    w.close()
    assert w._game.seats[1].worker is None


def test_clock_argument_errors_are_named():
    with pytest.raises(ValueError, match="time_limit is a positive number of seconds"):
        BoardWidget.play("hugger", time_limit=-1)
    with pytest.raises(ValueError, match="first_time_limit needs a time_limit"):
        BoardWidget.play("hugger", time_limit=None, first_time_limit=3)


def test_a_new_game_with_a_bad_bot_leaves_the_running_game_playable():
    w = BoardWidget.play("hugger", seed=0)
    w.move("up")
    with pytest.raises(TypeError, match="a bot is a registered name"):
        w.new_game(bot=42)
    w.move("up")                            # the old game, its bot and its clock go on
    assert w.turn == 2 and w._game.seats[1].worker is not None
    w.new_game()                            # and New game restarts it, not the bad bot
    assert w.names == ["you", "hugger"] and w.turn == 0
