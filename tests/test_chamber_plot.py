"""The chamber-tree picture: one line per tree edge (the chosen line thick), a red outline
on every square of a chamber touching the front, a dot on every gate."""

import matplotlib

matplotlib.use("Agg")

from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from tronlab import Board  # noqa: E402
from tronlab.tron.chamber_plot import (FRONT_COLOR, LINK_ZORDER, PATH_COLOR,  # noqa: E402
                                       chamber_centres, draw_chamber_tree)
from tronlab.tron.chambers import chamber_tree  # noqa: E402

BOARD = Board.from_ascii("""
    ##################
    #......#...#..#..#
    #...1......2.....#
    #......#...#..#..#
    ##################
""")


@pytest.mark.parametrize("player", [0, 1])
def test_the_picture_shows_the_tree(player):
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    tree = chamber_tree(BOARD, player)
    fig, ax = draw_chamber_tree(BOARD, tree)
    lines = [ln for ln in ax.lines if ln.get_zorder() == LINK_ZORDER]
    assert len(lines) == len(tree) - 1
    thick = [ln for ln in lines if ln.get_linewidth() == 3.0]
    assert len(thick) == len(tree.path) - 1
    assert all(to_rgba(ln.get_color()) == to_rgba(PATH_COLOR) for ln in thick)
    front = [p for p in ax.patches if to_rgba(p.get_edgecolor()) == to_rgba(FRONT_COLOR)]
    ids = tree.chamber_of
    want = sum(int(np.sum(ids == c)) for c in range(len(tree)) if tree.touches_front[c])
    assert len(front) == want
    dots = ax.collections[-1].get_offsets()
    assert len(dots) == int(tree.cut_mask.sum())
    plt.close(fig)



@pytest.mark.parametrize("player", [0, 1])
def test_the_lines_pass_under_the_heads_numbers(player):
    # a line of the tree starts on the head: drawn over it, it hid the player's number
    # (notebook 05's pictures)
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Rectangle

    from tronlab.render import PLAYER_COLORS

    tree = chamber_tree(BOARD, player)
    fig, ax = draw_chamber_tree(BOARD, tree)
    lines = [ln for ln in ax.lines if ln.get_linestyle() in ("-", "--")]
    assert lines
    top = max(ln.get_zorder() for ln in lines)
    numbers = [t for t in ax.texts if t.get_text() in ("1", "2")]
    assert len(numbers) == 2 and all(t.get_zorder() > top for t in numbers)
    for p in (0, 1):                  # an opaque head square over the lines, under the number
        x, y = BOARD.head_xy(p)
        covers = [r for r in ax.patches if isinstance(r, Rectangle) and r.get_fill()
                  and r.get_xy() == (x - 0.5, y - 0.5) and r.get_zorder() > top
                  and to_rgba(r.get_facecolor()) == to_rgba(PLAYER_COLORS[p])]
        assert len(covers) == 1
        number = next(t for t in numbers if t.get_position() == (x, y))
        assert number.get_zorder() > covers[0].get_zorder()
    plt.close(fig)


def test_centres_are_the_mean_of_each_chamber():
    tree = chamber_tree(BOARD, 1)
    c = chamber_centres(BOARD, tree)
    assert tuple(c[0]) == BOARD.xy(int(BOARD.heads[1]))
    ys, xs = np.nonzero(tree.chamber_of[1:-1, 1:-1] == 1)
    assert tuple(c[1]) == (xs.mean(), ys.mean())


def test_errors():
    with pytest.raises(TypeError, match="ChamberTree"):
        draw_chamber_tree(BOARD, "tree")
    other = Board.from_ascii("1..\n..2")
    with pytest.raises(ValueError, match="another size"):
        draw_chamber_tree(other, chamber_tree(BOARD, 0))


def test_chamber_trees_on_the_2010_contest_maps():
    """Every 2010 contest map, 12 turns into a voronoi v voronoi game: both players' trees
    equal the plain-Python oracle and draw; the gallery is saved as
    test-artifacts/chambers-google2010.png.  (The course's notebooks cannot read the contest
    maps; notebook 05 draws trees on the package's own maps.)"""
    import matplotlib.pyplot as plt

    from test_chambers import assert_same_as_oracle
    from tronlab import get_bot, play
    from tronlab.tron.maps import load_map

    root = Path(__file__).resolve().parents[2] / "shared" / "maps" / "google2010"
    paths = sorted(root.glob("*.txt"))
    if not paths:
        pytest.skip("shared maps not available")
    cols = 6
    fig, axes = plt.subplots((len(paths) + cols - 1) // cols, cols, figsize=(3 * cols, 14))
    drawn = 0
    for path, ax in zip(paths, axes.flat):
        board = load_map(str(path))
        game = play(board, [get_bot("voronoi"), get_bot("voronoi")], rng=0)
        position = game.boards()[min(12, game.outcome.turns - 1)]
        for player in (0, 1):
            assert_same_as_oracle(position, player, penalize=False)
        tree = chamber_tree(position, 0)
        draw_chamber_tree(position, tree, ax=ax, title=f"{path.stem}: N = {tree.n}")
        drawn += 1
    for ax in axes.flat[drawn:]:
        ax.axis("off")
    assert drawn == len(paths) >= 20
    out = Path(__file__).resolve().parents[1] / "test-artifacts"
    out.mkdir(exist_ok=True)
    fig.tight_layout()
    fig.savefig(out / "chambers-google2010.png", dpi=60)
    plt.close(fig)


def test_the_default_title_names_the_player_by_index_and_head_digit():
    # before: "player 1: N=..." for chamber_tree(board, 0), the head's digit where the call
    # (and notebook 05's text) counts players from 0
    import matplotlib.pyplot as plt
    tree = chamber_tree(BOARD, 0)
    fig, ax = draw_chamber_tree(BOARD, tree)
    assert ax.get_title() == f"player 0 (blue, 1 on the board): N={tree.n}, E={tree.e}"
    plt.close(fig)
