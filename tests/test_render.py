"""Static pictures (tronlab.render): colours per square, overlays, errors, determinism."""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from strategies import EXAMPLES, boards  # noqa: E402

from tronlab import Board  # noqa: E402
from tronlab.render import (  # noqa: E402
    CHAMBER_COLORS, FREE_COLOR, PLAYER_COLORS, TRAIL_COLORS, WALL_COLOR, board_rgb, draw_board,
    draw_record, grid_of,
)

TINY = """
#aa1..#
#..#.b#
#...b2#
"""


def rgb(hex_color):
    return tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))


def expected_color(ch):
    """The colour a square should have, straight from its ASCII character (the oracle)."""
    if ch == "#":
        return rgb(WALL_COLOR)
    if ch == ".":
        return rgb(FREE_COLOR)
    if ch in "abcd":
        return rgb(TRAIL_COLORS["abcd".index(ch)])
    if ch in "1234":
        return rgb(PLAYER_COLORS["1234".index(ch)])
    return rgb(PLAYER_COLORS["ABCD".index(ch)])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def pixel(fig, ax, x, y):
    """RGB of the rendered figure at board coordinates (x, y)."""
    fig.canvas.draw()
    buf = np.asarray(fig.canvas.buffer_rgba())
    px, py = ax.transData.transform((x, y))
    row = buf.shape[0] - int(round(py))
    return tuple(int(v) for v in buf[row, int(round(px)), :3])


def test_rendered_squares_have_their_colours():
    b = Board.from_ascii(TINY)
    fig, ax = draw_board(b, grid=False)
    rows = b.to_ascii().split("\n")
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            # off-centre, away from the head digit and outline
            got = pixel(fig, ax, x - 0.25, y + 0.25) if ch not in "1234ABCD" else \
                pixel(fig, ax, x + 0.3, y - 0.3)
            want = expected_color(ch)
            assert max(abs(g - w) for g, w in zip(got, want)) <= 3, (x, y, ch, got, want)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards(dead=True))
def test_board_rgb_matches_ascii(board):
    img = board_rgb(board)
    rows = board.to_ascii().split("\n")
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            want = np.array(expected_color(ch)) / 255.0
            assert np.allclose(img[y, x], want), (x, y, ch)


def test_grid_of_accepts_three_shapes():
    b = Board.from_ascii(TINY)
    inner = np.arange(b.height * b.width).reshape(b.height, b.width)
    padded = np.full((b.height + 2, b.width + 2), -7)
    padded[1:-1, 1:-1] = inner
    assert np.array_equal(grid_of(b, inner), inner)
    assert np.array_equal(grid_of(b, padded), inner)
    assert np.array_equal(grid_of(b, padded.reshape(-1)), inner)


def test_grid_of_errors_name_the_problem():
    b = Board.from_ascii(TINY)
    with pytest.raises(ValueError, match=r"owner: shape \(2, 2\) does not fit a 7x3 board"):
        grid_of(b, np.zeros((2, 2)), name="owner")
    with pytest.raises(TypeError, match="numbers or booleans"):
        grid_of(b, np.array([["a"] * 7] * 3), name="dist")
    with pytest.raises(TypeError, match="Board"):
        grid_of("not a board", np.zeros((3, 7)))


def test_draw_board_argument_errors():
    b = Board.from_ascii(TINY)
    with pytest.raises(TypeError, match="needs a tronlab Board"):
        draw_board(b.cells)
    with pytest.raises(ValueError, match="mask: expected booleans"):
        draw_board(b, mask=np.full((3, 7), 2))
    with pytest.raises(ValueError, match="chambers: shape"):
        draw_board(b, chambers=np.zeros((4, 4), int))


def test_distance_labels_skip_unreachable_and_blocked_squares():
    b = Board.from_ascii(TINY)
    dist = np.full((3, 7), -1.0)
    dist[1, 1] = 3          # free: labelled
    dist[1, 2] = 2.5        # free: labelled with one decimal
    dist[2, 3] = 10_000     # larger than the board: unreachable
    dist[0, 0] = 4          # a wall: not labelled
    dist[2, 2] = np.inf     # unreachable
    fig, ax = draw_board(b, dist=dist)
    labels = {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text()
              for t in ax.texts}
    head_labels = {b.head_xy(p): str(p + 1) for p in range(b.n_players)}
    assert {k: v for k, v in labels.items() if k not in head_labels} == {(1, 1): "3", (2, 1): "2.5"}


def test_mask_marks_exactly_the_true_squares():
    b = Board.from_ascii(TINY)
    mask = np.zeros((3, 7), bool)
    mask[1, 4] = mask[2, 1] = True
    fig, ax = draw_board(b, mask=mask)
    (points,) = ax.collections
    assert sorted(map(tuple, points.get_offsets().tolist())) == [(1.0, 2.0), (4.0, 1.0)]


def test_territory_tints_only_owned_free_squares():
    b = Board.from_ascii(TINY)
    owner = np.full((3, 7), -1)
    owner[2, 1] = 0          # free square owned by player 0
    owner[0, 5] = 1          # free square owned by player 1
    owner[1, 3] = 0          # a wall: stays a wall
    fig, ax = draw_board(b, owner=owner, grid=False)
    white = rgb(FREE_COLOR)
    assert pixel(fig, ax, 1.2, 2.2) != white
    assert pixel(fig, ax, 5.2, 0.2) != white
    assert pixel(fig, ax, 2.2, 2.2) == white          # nobody's
    a, c = pixel(fig, ax, 1.2, 2.2), pixel(fig, ax, 5.2, 0.2)
    assert a[2] > a[0] and c[0] > c[2]                # blue-ish vs red-ish
    w = pixel(fig, ax, 3.2, 1.2)
    assert max(abs(g - v) for g, v in zip(w, rgb(WALL_COLOR))) <= 3


def test_chamber_borders_follow_id_changes():
    b = Board.from_ascii("""
        ....
        1..2
    """)
    ch = np.array([[0, 0, 1, 1], [0, 0, 1, -1]])
    fig, ax = draw_board(b, chambers=ch)
    (lines,) = [c for c in ax.collections if hasattr(c, "get_segments")]
    segs = sorted(tuple(map(tuple, np.round(s, 2))) for s in lines.get_segments())
    # brute force: a unit edge between horizontally or vertically adjacent squares with
    # different ids
    want = []
    for y in range(2):
        for x in range(4):
            if x + 1 < 4 and ch[y, x] != ch[y, x + 1]:
                want.append(((x + 0.5, y - 0.5), (x + 0.5, y + 0.5)))
            if y + 1 < 2 and ch[y, x] != ch[y + 1, x]:
                want.append(((x - 0.5, y + 0.5), (x + 0.5, y + 0.5)))
    assert segs == sorted(want)


def png_bytes(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=60, metadata={"Software": None})
    return buf.getvalue()


def test_pictures_are_deterministic():
    b = Board.from_ascii(TINY)
    dist = np.arange(21).reshape(3, 7)
    one = png_bytes(draw_board(b, dist=dist, title="x")[0])
    two = png_bytes(draw_board(b, dist=dist, title="x")[0])
    assert one == two
    other = png_bytes(draw_board(b, dist=dist + 1, title="x")[0])
    assert other != one


def test_draw_on_given_axes_returns_them():
    b = Board.from_ascii(TINY)
    fig, axes = plt.subplots(1, 2)
    f, ax = draw_board(b, ax=axes[1], title="right")
    assert f is fig and ax is axes[1] and ax.get_title() == "right"


def test_draw_record_small_multiples():
    from tronlab.runner.registry import get_bot
    from tronlab.runner.engine import play
    from tronlab.tron.mapgen import load_builtin

    rec = play(load_builtin("arena"), [get_bot("hugger"), get_bot("random")], rng=7)
    last = rec.outcome.turns
    fig = draw_record(rec, turns=[0, 2, -1], ncols=2)
    titled = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titled == ["turn 0", "turn 2", f"turn {last}"]
    assert len(fig.axes) == 4 and not fig.axes[3].axison
    fig = draw_record(rec)
    assert [ax.get_title() for ax in fig.axes][0] == "turn 0"
    assert fig.axes[len([a for a in fig.axes if a.get_title()]) - 1].get_title() == f"turn {last}"
    with pytest.raises(ValueError, match=r"turn 9999 is outside the game \(turns 0\.\."):
        draw_record(rec, turns=[9999])
    with pytest.raises(ValueError, match="turns is empty"):
        draw_record(rec, turns=[])
    with pytest.raises(TypeError, match="whole numbers"):
        draw_record(rec, turns=[1.5])
    with pytest.raises(TypeError, match="GameRecord"):
        draw_record([1, 2])
    # one turn as a bare number (it used to fail with "'int' object is not iterable")
    assert [ax.get_title() for ax in draw_record(rec, turns=-1).axes] == [f"turn {last}"]
    with pytest.raises(TypeError, match=r"turns is a list of turn numbers \(or one turn\)"):
        draw_record(rec, turns="0, 2")
    # "2" used to fail inside, comparing a str with '<'; now one line naming ncols
    for bad, error in ((0, ValueError), (2.5, TypeError), ("2", TypeError)):
        with pytest.raises(error, match="ncols must be a whole number of at least 1"):
            draw_record(rec, ncols=bad)


def test_a_removed_trail_leaves_no_head_mark():
    """CodinGame wipes a dead player's trail: no outline or cross may stay behind."""
    from tronlab.tron.rules import get_rules

    b = Board.from_ascii("""
        .....
        .1.2.
        .....
    """)
    cg = get_rules("codingame")
    cg.apply_one(b, 0, 1, turn=1)
    assert cg.apply_one(b, 1, 3, turn=1) == "trail"
    fig, ax = draw_board(b, grid=False)
    assert [t.get_text() for t in ax.texts] == ["1"]
    assert len(ax.patches) == 1 and not ax.lines           # one outline, no cross
    x, y = b.xy(b.heads[1])
    assert pixel(fig, ax, x + 0.3, y - 0.3) == rgb(FREE_COLOR)



def _share_of_head_colour(fig, ax, board, p):
    """The share of player ``p``'s head square, as rendered, that has the player's colour."""
    fig.canvas.draw()
    buf = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    x, y = board.xy(board.heads[p])
    (x0, y0), (x1, y1) = ax.transData.transform([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)])
    rows = sorted(int(round(buf.shape[0] - v)) for v in (y0, y1))
    cols = sorted(int(round(v)) for v in (x0, x1))
    square = buf[rows[0]:rows[1], cols[0]:cols[1]]
    return float((np.abs(square - np.array(rgb(PLAYER_COLORS[p]))).sum(-1) < 60).mean())


def test_small_pictures_of_a_large_board_still_show_the_heads_colours():
    # draw_record's panels of a 30x20 CodinGame board: the heads' frames (1.5 pt) and numbers
    # (6 pt) used to cover all but a quarter of each 6-pt head square, so that every head
    # looked black; frames and numbers now scale with the square
    from tronlab.tron.mapgen import codingame_board

    b = codingame_board(4, rng=np.random.default_rng(8))
    fig, axes = plt.subplots(1, 5, figsize=(13, 2.1), layout="constrained")
    for ax in axes:
        draw_board(b, ax=ax)
    assert min(_share_of_head_colour(fig, axes[0], b, p) for p in range(4)) > 0.4
    # drawn alone the squares are large, and the numbers grow with them (they were 6 pt)
    fig, ax = draw_board(b)
    assert min(t.get_fontsize() for t in ax.texts) >= 9
    assert min(_share_of_head_colour(fig, ax, b, p) for p in range(4)) > 0.7


def test_draw_record_puts_its_default_five_turns_on_one_row():
    # the default used to be four columns: five pictures left a row with one
    from tronlab.runner.engine import play
    from tronlab.runner.registry import get_bot
    from tronlab.tron.mapgen import load_builtin

    rec = play(load_builtin("arena"), [get_bot("hugger"), get_bot("random")], rng=7)
    fig = draw_record(rec)
    assert len(fig.axes) == 5 and all(ax.axison for ax in fig.axes)
    assert len({round(ax.get_position().y0, 3) for ax in fig.axes}) == 1


# Colour-blind reading of the palette: Machado, Oliveira & Fernandes (2009) full-severity
# matrices on linear RGB, then the CIELAB distance between every two players' colours.
_CVD = {"normal": np.eye(3),
        "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                                  [0.280085, 0.672501, 0.047413],
                                  [-0.011820, 0.042940, 0.968881]]),
        "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                                [0.114503, 0.786281, 0.099216],
                                [-0.003882, -0.048116, 1.051998]])}


def _lab(hex_color, vision):
    c = np.array(rgb(hex_color)) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    lin = np.clip(_CVD[vision] @ lin, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ lin / np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("vision", sorted(_CVD))
@pytest.mark.parametrize("palette,least", [(PLAYER_COLORS, 25), (TRAIL_COLORS, 12)])
def test_four_players_can_be_told_apart_with_red_green_colour_blindness(palette, least,
                                                                         vision):
    # the old green and purple failed: under protanopia trails 1 and 4 were 4 apart and
    # heads 1 and 4 were 11 apart
    labs = [_lab(c, vision) for c in palette]
    for i in range(4):
        for j in range(i + 1, 4):
            gap = np.linalg.norm(labs[i] - labs[j])
            assert gap >= least, f"{vision}: players {i + 1} and {j + 1} are {gap:.0f} apart"


def _lab_of_tint(hex_color, alpha, vision="normal"):
    """The CIELAB colour of ``hex_color`` laid at ``alpha`` over a white (free) square."""
    mixed = 255 - alpha * (255 - np.array(rgb(hex_color), dtype=float))
    return _lab("#%02x%02x%02x" % tuple(int(round(v)) for v in mixed), vision)


@pytest.mark.parametrize("alpha", [0.5, 0.6])          # draw_board's tint, the widget's
@pytest.mark.parametrize("vision,least", [("normal", 25), ("deuteranopia", 20),
                                          ("protanopia", 20)])
def test_chamber_tints_do_not_look_like_a_players_colours(alpha, vision, least):
    # the old peach was 20 from red's trail, the lavender 14 from blue's and the cyan
    # 14 from teal's: a chamber read as a trail.  Under deuteranopia (Machado 2009) the next
    # set's pink was 9 from teal's trail and its greens 10-12 from red's (protanopia: the
    # pink 9 from teal's)
    tints = [_lab_of_tint(c, alpha, vision) for c in CHAMBER_COLORS]
    for k, tint in enumerate(tints):
        for p in range(4):
            for what, colour in (("trail", TRAIL_COLORS[p]), ("head", PLAYER_COLORS[p])):
                gap = np.linalg.norm(tint - _lab(colour, vision))
                assert gap >= least, (f"{vision}: chamber tint {k} is {gap:.0f} from player "
                                      f"{p + 1}'s {what}")
    if vision == "normal":          # borders part chambers; their tints still differ
        for k, tint in enumerate(tints):
            for j in range(k):
                assert np.linalg.norm(tint - tints[j]) >= 12, f"chamber tints {j} and {k} alike"
