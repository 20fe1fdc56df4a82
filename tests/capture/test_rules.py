"""Back to the Code rules (tronlab.capture.rules), one or more tests per sentence of
games.md section 4, on small ASCII grids.

A handy trick: a player that stays on a square ``S`` it reached from an orthogonal
neighbour ``T`` stands, in the round after, next to a square it stood on two rounds
ago - so ``trails={p: [T]}`` plus "stay" triggers the enclosure check.
"""

import numpy as np
import pytest

from tronlab.capture import format_grid, reset, state_from_ascii, step
from tronlab.capture.rules import ranks_of, step_toward

STAY = "stay"


def play(state, *turns):
    """Play ``turns`` (each a list of actions; ``STAY`` = target the own square);
    return the last StepResult."""
    result = None
    for actions in turns:
        actions = [state.positions[p] if a == STAY else a for p, a in enumerate(actions)]
        result = step(state, actions)
        state = result.state
    return result


def grid(state):
    return format_grid(state.owner, state.positions)


def squares(state, player):
    return sorted((int(x), int(y)) for y, x in zip(*np.nonzero(state.owner == player)))


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


# ---- BACK ---------------------------------------------------------------------------------

CORRIDOR = """
    A.....
    ......
    .....B
"""
EAST_WEST = [(5, 0), (0, 2)]        # player 0 walks east along row 0, player 1 west along row 2


def walked(rounds, **kw):
    """States after 0, 1, ..., ``rounds`` rounds of the corridor walk."""
    states = [state_from_ascii(CORRIDOR, **kw)]
    for _ in range(rounds):
        states.append(step(states[-1], EAST_WEST).state)
    return states


def same_game(a, b):
    return (a.owner.tolist() == b.owner.tolist() and a.positions == b.positions
            and a.round == b.round)


def test_back_throws_the_round_away_and_resumes_from_the_end_of_round_r_minus_n_minus_1():
    states = walked(5)
    r = step(states[5], [("BACK", 2), (0, 0)])      # round 6: 1's move up is thrown away too
    s = r.state
    assert s.round == 4 and same_game(s, states[3])
    assert s.backs_left == (0, 1) and s.positions == ((3, 0), (2, 2))
    assert [e.kind for e in r.events] == ["back", "rewind"] and r.outcome is None
    assert s.trail(0) == [(0, 0), (1, 0), (2, 0), (3, 0)]     # the trail is rewound too
    s = step(s, [(3, 1), (2, 1)]).state                        # round 4 played differently
    assert s.round == 5 and s.positions == ((3, 1), (2, 1))
    assert grid(s) == "0000..\n..BA..\n..1111"


def test_several_backs_in_a_round_add_up_capped_at_r_minus_1():
    states = walked(4)
    s = step(states[4], [("BACK", 1), ("BACK", 2)]).state        # round 5: 3 back
    assert s.round == 2 and same_game(s, states[1]) and s.backs_left == (0, 0)
    s = step(states[3], [("BACK", 2), ("BACK", 2)]).state        # round 4: 4 capped at 3
    assert s.round == 1 and same_game(s, states[0])


def test_a_back_in_round_1_is_used_up_for_nothing():
    s0 = state_from_ascii(CORRIDOR)
    r = step(s0, [(5, 0), ("back", 3)])                          # case does not matter
    assert same_game(r.state, s0) and r.state.backs_left == (1, 0)
    assert r.state.turns == 1 and r.events[-1].detail.startswith("0 rounds back")


def test_the_round_limit_counts_in_game_rounds():
    s = walked(4, round_limit=5)[4]
    s = step(s, [("BACK", 2), EAST_WEST[1]]).state               # round 5 -> round 3
    outcomes = []
    for _ in range(3):
        r = step(s, EAST_WEST)
        s = r.state
        outcomes.append(r.outcome)
    assert outcomes[:2] == [None, None]
    assert outcomes[2].reason == "round-limit" and outcomes[2].round == 5
    assert outcomes[2].turns == 8 and s.over
    with pytest.raises(ValueError, match="over"):
        step(s, EAST_WEST)


def test_back_undoes_captures_for_everyone_and_eliminated_players_stay_eliminated():
    states = walked(3)
    s = step(states[3], [EAST_WEST[0], "timeout"]).state        # round 4: 1 eliminated
    assert s.eliminated == (False, True) and s.positions[1] is None
    assert s.scores() == (5, 4)                                  # 1 keeps its squares
    r = step(s, [("BACK", 3), None])                             # round 5 -> round 2
    s = r.state
    assert s.round == 2 and s.owner.tolist() == states[1].owner.tolist()
    assert s.scores() == (2, 2) and s.eliminated == (False, True) and s.positions[1] is None
    assert s.backs_left == (0, 1)


def test_used_backs_are_not_refunded_and_a_second_back_eliminates():
    s = walked(3)[3]
    s = step(s, [("BACK", 1), EAST_WEST[1]]).state
    s = step(s, EAST_WEST).state
    score = s.scores()[0]
    r = step(s, [("BACK", 1), EAST_WEST[1]])
    assert [(e.player, e.kind) for e in r.events] == [(0, "second-back")]
    assert r.state.eliminated == (True, False) and r.state.positions[0] is None
    assert r.state.scores()[0] == score and r.state.round == s.round + 1   # no rewind


@pytest.mark.parametrize("n, ok", [(0, False), (1, True), (25, True), (26, False), (-3, False)])
def test_back_n_must_be_1_to_25(n, ok):
    s = walked(20)[20]
    r = step(s, [("BACK", n), EAST_WEST[1]])
    if ok:      # round 21: BACK 25 is capped at 20
        assert r.state.round == max(21 - n, 1) and not any(r.state.eliminated)
    else:
        assert r.state.eliminated == (True, False) and r.events[0].kind == "back-range"
        assert r.state.round == 22


@pytest.mark.parametrize("action, kind", [
    ((6, 0), "off-grid"), ((0, -1), "off-grid"), ((0, 3), "off-grid"),
    ("timeout", "timeout"), ("bad-output", "bad-output"), ("error", "error"),
    ("exited", "exited"), ("5 0", "bad-output"), ((1.0, 2.0), "bad-output"),
    ((True, 0), "bad-output"), (None, "bad-output"), (("BACK", "2"), "bad-output"),
    ((1, 2, 3), "bad-output"), (("FORWARD", 2), "bad-output"),
])
def test_faults_and_bad_actions_eliminate(action, kind):
    s = walked(2)[2]
    r = step(s, [action, EAST_WEST[1]])
    assert [(e.player, e.kind) for e in r.events] == [(0, kind)]
    assert r.state.eliminated == (True, False) and r.state.positions[0] is None
    assert r.state.scores()[0] == s.scores()[0]
    assert r.state.positions[1] == (2, 2) and r.outcome is None   # a lone survivor plays on


def test_actions_may_be_lists_or_numpy_integers():
    s = walked(1)[1]
    r = step(s, [[np.int64(5), np.int32(0)], (np.uint8(0), 2)])
    assert r.state.positions == ((2, 0), (3, 2)) and r.events == []


def test_an_eliminated_players_squares_still_block_enclosures():
    s = state_from_ascii("""
        .......
        .A0000.
        .0...0.
        .00001.
        .......
    """, positions={1: (6, 4)}, trails={0: [(1, 2)]})
    s = step(s, [(1, 1), "exited"]).state
    assert s.eliminated == (False, True) and s.owner[3, 5] == 1
    s = step(s, [(1, 1), None]).state
    assert s.owner[2, 2:5].tolist() == [-1, -1, -1]


# ---- endings ------------------------------------------------------------------------------

def test_round_limits_by_player_count():
    for n, limit in ((2, 350), (3, 300), (4, 250)):
        s = reset(n, rng=n)
        assert s.config.round_limit == limit
        home = s.positions
        away = [(x + 1 if x < 34 else x - 1, y) for x, y in home]
        for k in range(limit):
            r = step(s, away if k % 2 == 0 else home)
            s = r.state
            assert (r.outcome is None) == (k < limit - 1)
        assert r.outcome.reason == "round-limit" and r.outcome.round == limit


def test_25_rounds_without_a_move_or_a_back_end_the_game():
    s = walked(2)[2]
    for k in range(25):
        r = play(s, [STAY, STAY])
        s = r.state
        assert (r.outcome is None) == (k < 24)
    assert r.outcome.reason == "idle" and r.outcome.round == 27


def test_a_move_or_a_back_restarts_the_idle_count():
    s = walked(2)[2]
    for _ in range(24):
        s = play(s, [STAY, STAY]).state
    s = play(s, [(3, 0), STAY]).state              # player 0 moves: the count restarts
    for _ in range(24):
        s = play(s, [STAY, STAY]).state
    s = play(s, [("BACK", 1), STAY]).state         # a BACK restarts it too
    for _ in range(24):
        r = play(s, [STAY, STAY])
        s = r.state
        assert r.outcome is None
    assert play(s, [STAY, STAY]).outcome.reason == "idle"


def test_the_game_ends_when_no_active_player_is_left():
    s = walked(2)[2]
    r = step(s, ["timeout", (9, 9)])
    assert r.outcome.reason == "no-active-player" and r.state.over
    assert r.outcome.scores == (3, 3) and r.outcome.ranks == (1, 1)


def test_a_decided_ranking_ends_the_game_one_round_later():
    s = state_from_ascii("A...B", backs_left=(0, 0))
    r = step(s, [(4, 0), (0, 0)])                   # 2 - 2, one square free: open
    assert r.outcome is None and not r.state.last_round
    r = step(r.state, [(4, 0), (0, 0)])             # both onto (2, 0): it stays neutral
    assert r.outcome is None and not r.state.last_round
    r = step(r.state, [(2, 0), (2, 0)])
    r = step(r.state, [(3, 0), (2, 0)])             # 0 leaves; 1 alone takes (2, 0): full
    assert r.state.scores() == (2, 3) and r.state.last_round and r.outcome is None
    r = step(r.state, [("BACK", 1), (0, 0)])        # the extra round ends it, whatever it does
    assert r.outcome.reason == "decided" and r.outcome.ranks == (2, 1)
    assert r.state.eliminated == (True, False)


def test_equal_scores_on_a_full_grid_are_a_decided_tie():
    s = state_from_ascii("A..B", backs_left=(0, 0))
    r = step(s, [(3, 0), (0, 0)])
    assert r.state.scores() == (2, 2) and r.state.last_round
    r = step(r.state, [(3, 0), (0, 0)])
    assert r.outcome.reason == "decided" and r.outcome.ranks == (1, 1)


def test_the_ranking_check_waits_for_unused_backs():
    # one unused BACK of an active player: checked only from round 25, on the owners of round r-25
    s = state_from_ascii("A..B", backs_left=(1, 0))
    states = [s]
    for k in range(30):               # the grid is full after round 1; then both shuttle
        targets = [(1, 0), (2, 0)] if k % 2 == 0 else [(0, 0), (3, 0)]
        r = step(states[-1], targets)
        states.append(r.state)
        if r.state.last_round:
            break
    assert len(states) - 1 == 26          # round 26 looks back at round 1, the first full grid
    # an eliminated player's unused BACK does not count, and its upper end is its count
    s = state_from_ascii("A..b", backs_left=(0, 1))
    r = step(s, [(1, 0), "timeout"])
    assert r.state.scores() == (2, 0) and r.state.last_round


def test_intervals_that_still_overlap_keep_the_game_going():
    s = state_from_ascii("""
        A0...
        .....
        ....B
    """, backs_left=(0, 0))
    r = play(s, [(2, 0), STAY])           # 3 against 1 with 11 free: open
    assert not r.state.last_round


def test_scores_are_squares_owned_and_equal_scores_share_a_rank():
    assert ranks_of((5, 9, 5, 2)) == (2, 1, 2, 4)
    assert ranks_of((3, 3, 3)) == (1, 1, 1)
    s = state_from_ascii("""
        A00
        1B.
        .2C
    """)
    assert s.scores() == (3, 2, 2)


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
