"""Back to the Code rules (tronlab.capture.rules), one or more tests per sentence of
games.md section 4, on small ASCII grids.

A handy trick: a player that stays on a square ``S`` it reached from an orthogonal
neighbour ``T`` stands, in the round after, next to a square it stood on two rounds
ago - so ``trails={p: [T]}`` plus "stay" triggers the enclosure check.
"""
import numpy as np
import pytest

from tronlab.capture import format_grid, reset, state_from_ascii
from tronlab.capture.rules import step_toward

from .helpers import STAY, grid, play, squares


# ---- grid, moves, standing capture --------------------------------------------------------

def test_the_grid_is_35_wide_20_high_and_players_may_share_a_square():
    s = reset(3, rng=0)
    assert s.owner.shape == (20, 35) and (s.width, s.height) == (35, 20)
    s = state_from_ascii("""
        .....
        .a.b.
        ..c..
    """)
    r = play(s, [(2, 1), (2, 1), (2, 1)])
    assert r.state.positions == ((2, 1),) * 3 and not any(r.state.eliminated)
    assert r.events == [] and r.outcome is None


def test_moves_go_one_square_toward_the_target_x_first():
    assert step_toward(0, 0, 3, 3) == (1, 0)
    assert step_toward(3, 0, 3, 3) == (3, 1)
    assert step_toward(3, 3, 0, 0) == (2, 3)
    assert step_toward(0, 3, 0, 0) == (0, 2)
    assert step_toward(2, 2, 2, 2) == (2, 2)
    s = state_from_ascii("""
        a...
        ....
        ...b
    """)
    seen = []
    for _ in range(6):
        s = play(s, [(2, 2), STAY]).state
        seen.append(s.positions[0])
    assert seen == [(1, 0), (2, 0), (2, 1), (2, 2), (2, 2), (2, 2)]
    assert grid(s) == ".00.\n..0.\n..AB"      # (0, 0) was drawn neutral


def test_a_player_alone_on_a_neutral_square_takes_it_and_owned_squares_never_change():
    s = state_from_ascii("""
        A1...
        0B...
    """)
    r = play(s, [(1, 0), (0, 1)])        # each steps onto the other's square
    assert r.state.owner.tolist() == s.owner.tolist()
    r = play(s, [(2, 1), (2, 0)])        # x first: 0 onto 1's square, 1 onto a neutral one
    assert r.state.positions == ((1, 0), (2, 1))
    assert grid(r.state) == "01...\n01B.."


def test_players_sharing_a_neutral_square_leave_it_neutral_and_all_moves_come_first():
    s = state_from_ascii("""
        a.b
        ...
    """)
    r = play(s, [(1, 0), (1, 0)])
    assert r.state.owner[0, 1] == -1
    # the sharing counts positions after all moves: 0 leaves (1, 0) as 1 arrives
    s = state_from_ascii("""
        .ab.
        ....
    """)
    r = play(s, [(0, 0), (1, 0)])
    assert r.state.owner[0, 0] == 0 and r.state.owner[0, 1] == 1


def test_each_player_owns_its_start_square():
    for n in (2, 3, 4):
        s = reset(n, rng=n)
        assert s.scores() == (1,) * n
        for p, (x, y) in enumerate(s.positions):
            assert s.owner[y, x] == p
        assert np.count_nonzero(s.owner >= 0) == n


# ---- enclosure ----------------------------------------------------------------------------

LOOP = """
    .....
    .A00.
    ...0.
    .000.
    .....
"""


def test_enclosure_needs_a_square_stood_on_two_or_more_rounds_ago():
    s = state_from_ascii(LOOP, positions={1: (4, 4)})
    r = play(s, [(1, 2), STAY])       # round 1: next to (1, 1), stood on one round ago
    assert r.state.owner[2, 1] == 0 and r.state.owner[2, 2] == -1
    r = play(r.state, [STAY, STAY])   # round 2: (1, 1) is now two rounds ago
    assert r.state.owner[2, 2] == 0
    assert grid(r.state) == ".....\n.000.\n.A00.\n.000.\n....B"


def test_standing_again_on_an_old_square_is_not_being_next_to_one():
    s = state_from_ascii("""
        .....
        .A00.
        .0.0.
        .000.
        .....
    """, positions={1: (4, 4)})
    # out to (2, 1) and back: (1, 1) is now two rounds old, but the player stands on
    # it and is next to no old square, so the pocket at (2, 2) stays neutral
    r = play(s, [(2, 1), STAY], [(1, 1), STAY])
    assert r.state.positions[0] == (1, 1) and r.state.owner[2, 2] == -1
    r = play(r.state, [STAY, STAY])   # now (2, 1), next to (1, 1), is two rounds old
    assert r.state.owner[2, 2] == 0


def test_an_owned_square_never_stood_on_or_a_diagonal_one_does_not_trigger():
    text = """
        .....
        .000.
        .0.0.
        .0A0.
        .....
    """
    s = state_from_ascii(text, positions={1: (4, 4)}, trails={0: [(1, 2)]})
    r = play(s, [STAY, STAY])       # (1, 2) is diagonal to (2, 3)
    assert r.state.owner[2, 2] == -1
    s = state_from_ascii(text, positions={1: (4, 4)}, trails={0: [(2, 4)]})
    r = play(s, [STAY, STAY])       # (2, 4) is right below
    assert r.state.owner[2, 2] == 0


def test_a_whole_8_connected_region_is_taken():
    s = state_from_ascii("""
        .......
        .00000.
        .0..00.
        .00..0.
        .0000A.
        .......
    """, positions={1: (0, 0)}, trails={0: [(5, 3)]})
    r = play(s, [STAY, STAY])
    region = {(2, 2), (3, 2), (3, 3), (4, 3)}
    assert squares(r.state, -1) == sorted(set(squares(s, -1)) - region - {(0, 0)})
    assert r.state.scores()[0] == s.scores()[0] + 4


def test_every_region_around_the_square_is_taken():
    s = state_from_ascii("""
        .......
        .00000.
        .0.0.0.
        .00A00.
        .......
    """, positions={1: (0, 0)}, trails={0: [(3, 4)]})
    r = play(s, [STAY, STAY])
    assert r.state.owner[2, 2] == 0 and r.state.owner[2, 4] == 0


def test_a_region_on_the_outer_ring_is_not_taken_but_the_edge_may_carry_the_wall():
    s = state_from_ascii("""
        A00..
        0.0..
        000..
        .....
    """, positions={1: (4, 3)}, trails={0: [(1, 0)]})
    r = play(s, [STAY, STAY])
    assert r.state.owner[1, 1] == 0
    s = state_from_ascii("""
        A0...
        ..0..
        000..
        .....
    """, positions={1: (4, 3)}, trails={0: [(1, 0)]})
    r = play(s, [STAY, STAY])         # (0, 1) and (1, 1) reach the left edge
    assert r.state.owner[1, 1] == -1 and r.state.owner[1, 0] == -1


def test_a_diagonal_gap_leaks():
    s = state_from_ascii("""
        ......
        .A0...
        .0.0..
        .000..
        ......
    """, positions={1: (5, 4)}, trails={0: [(1, 2)]})
    r = play(s, [STAY, STAY])
    assert r.state.owner[2, 2] == -1


@pytest.mark.parametrize("blocker", [(3, 2), (3, 3), (0, 0)])
def test_a_region_touching_another_players_square_goes_to_nobody(blocker):
    s = state_from_ascii("""
        .....
        .A00.
        .0.0.
        .000.
        .....
    """, positions={1: (4, 4)}, trails={0: [(1, 2)]})
    owner = s.owner.copy()
    x, y = blocker
    owner[y, x] = 1
    s = state_from_ascii(format_grid(owner), positions={0: (1, 1), 1: (4, 4)},
                         trails={0: [(1, 2)]})
    r = play(s, [STAY, STAY])
    # (3, 2) and (3, 3) touch the hole (orthogonally, diagonally); (0, 0) does not
    assert r.state.owner[2, 2] == (0 if blocker == (0, 0) else -1)


def test_where_players_stand_does_not_matter_only_ownership():
    s = state_from_ascii("""
        .......
        .A0000.
        .0.b.0.
        .00000.
        .......
    """, trails={0: [(1, 2)]})
    r = play(s, [STAY, (3, 2)])       # player 1 stays alone inside player 0's region
    assert r.state.owner[2, 2:5].tolist() == [0, 0, 0]


def test_captures_go_in_id_order_so_a_lower_id_spoils_a_higher_ids_region():
    loop = """
        .......
        .#####.
        .#.x.#.
        .#####.
        .......
    """
    # player 1 closes the loop; player 0 stands alone inside it and takes its square first
    s = state_from_ascii(loop.replace("#", "1").replace("x", "a"), positions={1: (1, 2)},
                         trails={1: [(1, 3)]})
    r = play(s, [STAY, STAY])
    assert r.state.owner[2, 2:5].tolist() == [-1, 0, -1]
    # the other way round player 0 encloses before player 1's standing capture
    s = state_from_ascii(loop.replace("#", "0").replace("x", "b"), positions={0: (1, 2)},
                         trails={0: [(1, 3)]})
    r = play(s, [STAY, STAY])
    assert r.state.owner[2, 2:5].tolist() == [0, 0, 0]


# ---- starts -------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_starts_are_point_symmetric_by_default(n):
    for seed in range(20):
        s = reset(n, rng=seed)
        assert len(set(s.positions)) == n
        assert all(0 <= x < 35 and 0 <= y < 20 for x, y in s.positions)
        x, y = s.positions[0]
        if n == 2:
            assert s.positions[1] == (34 - x, 19 - y)
        if n == 4:
            assert s.positions[2] == (34 - x, 19 - y)
        assert reset(n, rng=seed).positions == s.positions      # seeded
    assert len({reset(n, rng=seed).positions for seed in range(20)}) > 10


def test_random_distinct_starts_are_an_option_and_explicit_starts_are_checked():
    starts = {reset(4, rng=seed, symmetric=False).positions for seed in range(30)}
    assert len(starts) == 30 and all(len(set(p)) == 4 for p in starts)
    assert reset(2, starts=[(0, 0), (1, 0)], width=2, height=1).scores() == (1, 1)
    with pytest.raises(ValueError, match="distinct"):
        reset(2, starts=[(0, 0), (0, 0)])
    with pytest.raises(ValueError, match="off the"):
        reset(2, starts=[(0, 0), (35, 0)])
    with pytest.raises(ValueError, match="2 to 4"):
        reset(5)
