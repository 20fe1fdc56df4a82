"""The recorded alpha-beta search: same value and node count as notebook 04's alpha-beta and
plain minimax (the oracle), a window that explains every cut-off, a principal line whose
leaf gives the root's value, and steps that enter and leave every node once, in order."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tronlab import Board  # noqa: E402
from tronlab.course.ex_search import alphabeta, minimax  # noqa: E402
from tronlab.course.game import INF, TurnGame  # noqa: E402
from tronlab.course.search_trace import draw_search_tree, trace_alphabeta, tree_layout  # noqa: E402

from strategies import EXAMPLES, small_boards  # noqa: E402

TINY = Board.from_ascii("""
    ######
    #....#
    #1#..#
    #...2#
    ######
""")


@settings(max_examples=EXAMPLES // 2)
@given(board=small_boards(max_players=2), depth=st.integers(1, 4), player=st.integers(0, 1))
def test_value_and_nodes_match_alphabeta_and_minimax(board, depth, player):
    t = trace_alphabeta(board, depth, player=player)
    game = TurnGame(board, player)
    assert t.value == alphabeta(game, depth, -INF, INF) == minimax(TurnGame(board, player), depth)
    assert len(t.nodes) == game.nodes
    for n in t.nodes:
        assert n.alpha < n.beta
        if n.pruned:                       # a cut-off happens only when a value reached beta
            assert n.value >= n.beta
        if n.children:
            assert n.value == max(-t.nodes[c].value for c in n.children)
    # the principal line ends in a leaf whose value, sign-flipped along the way, is the root's
    leaf = t.nodes[t.pv[-1]]
    assert (-1) ** (len(t.pv) - 1) * leaf.value == t.value
    assert not leaf.children


def test_steps_enter_and_leave_each_node_once_in_order():
    t = trace_alphabeta(TINY, 4)
    depth, entered, left = 0, [], []
    for node, kind in t.steps:
        if kind == "enter":
            entered.append(node)
            depth += 1
        else:
            left.append(node)
            depth -= 1
        assert depth >= 0
    assert entered == list(range(len(t.nodes))) and sorted(left) == entered and depth == 0
    assert t.label(0) == "R" and t.label(t.pv[1]) == "up"


def test_the_tiny_board_of_notebook_04():
    t = trace_alphabeta(TINY, 4)
    assert (t.value, len(t.nodes)) == (-3, 15)
    assert sum(len(n.pruned) for n in t.nodes) == 1


def test_layout_and_picture():
    t = trace_alphabeta(TINY, 4)
    pos = tree_layout(t)
    assert set(pos) == set(range(len(t.nodes)))
    for n in t.nodes:
        assert pos[n.id][1] == n.ply
        if n.children:
            xs = [pos[c][0] for c in n.children]
            assert min(xs) <= pos[n.id][0] <= max(xs)
    fig, ax = draw_search_tree(t)
    assert "15 nodes" in ax.get_title()
    fig, ax = draw_search_tree(t, upto=3)
    assert len(ax.collections) == 4 + 1          # 4 nodes entered by step 3, plus the ring


def test_the_picture_colours_each_node_by_its_player_as_the_stepper_page_does():
    # searched for player 1, the picture (a saved notebook's SearchStepper) drew the root
    # blue, "root's side", while the page drew it red, player 1's colour, as its step line says
    import matplotlib.colors as mc

    from tronlab.course.stepper import stepper_data

    t = trace_alphabeta(TINY, 2, player=1)
    page = stepper_data(t)
    _, ax = draw_search_tree(t)
    drawn = [mc.to_hex(c.get_edgecolor()[0]) for c in ax.collections]
    assert drawn == [page["colors"]["players"][n["player"]] for n in page["nodes"]]
    assert drawn[0] == "#e4572e" and "red: player 1" in ax.get_title()


def test_depth_is_checked():
    with pytest.raises(ValueError, match="depth"):
        trace_alphabeta(TINY, 0)


@settings(max_examples=EXAMPLES // 2)
@given(board=small_boards(max_players=2), depth=st.integers(1, 3), player=st.integers(0, 1))
def test_without_pruning_the_trace_is_the_whole_minimax_tree(board, depth, player):
    t = trace_alphabeta(board, depth, player=player, prune=False)
    game = TurnGame(board, player)
    assert t.value == minimax(game, depth) and not t.pruning
    assert len(t.nodes) == game.nodes                  # every node plain minimax visits
    assert all(not n.pruned for n in t.nodes)
    for n in t.nodes:
        if n.children:
            assert n.value == max(-t.nodes[c].value for c in n.children)
