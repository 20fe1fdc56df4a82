"""Back to the Code rules, continued (tronlab.capture.rules): BACK, eliminations and the
endings, one or more tests per sentence of games.md section 4."""

import numpy as np
import pytest

from tronlab.capture import reset, state_from_ascii, step
from tronlab.capture.rules import ranks_of

from .helpers import CORRIDOR, EAST_WEST, STAY, grid, play, same_game, walked


# ---- BACK ---------------------------------------------------------------------------------

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


def test_an_off_grid_target_names_the_grid():
    # it said only "off the grid": with x and y swapped, (3, 30), the size tells why
    r = step(reset(2, rng=1), [(3, 30), (0, 0)])
    assert r.events[0].detail == "target (3, 30) is off the 35x20 grid (x 0 to 34, y 0 to 19)"


def test_actions_may_be_lists_or_numpy_integers():
    s = walked(1)[1]
    r = step(s, [[np.int64(5), np.int32(0)], (np.uint8(0), 2)])
    assert r.state.positions == ((2, 0), (3, 2)) and r.events == []


def test_actions_may_come_as_a_dict_and_a_missing_player_is_bad_output():
    s = walked(1)[1]
    r = step(s, {0: (5, 0), 1: (0, 2)})
    assert r.state.positions == ((2, 0), (3, 2)) and r.events == []
    r = step(s, {1: (0, 2)})
    assert [(e.player, e.kind) for e in r.events] == [(0, "bad-output")]
    with pytest.raises(ValueError, match="need 2 actions"):
        step(s, [(5, 0)])


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


def test_equal_scores_on_a_full_grid_are_not_decided():
    # games.md: decided when no two neighbouring intervals overlap; [2, 2] and [2, 2] do
    s = state_from_ascii("A..B", backs_left=(0, 0))
    r = step(s, [(3, 0), (0, 0)])
    assert r.state.scores() == (2, 2) and not r.state.last_round
    here = [tuple(q) for q in r.state.positions]
    for _ in range(25):                     # standing still: the game ends as idle
        assert r.outcome is None and not r.state.last_round
        r = step(r.state, here)
    assert r.outcome.reason == "idle" and r.outcome.ranks == (1, 1)


def test_the_ranking_check_waits_for_unused_backs():
    # one unused BACK of an active player: checked only from round 25, on the owners of round r-25
    s = state_from_ascii("A0.B", backs_left=(1, 0))
    states = [s]
    for k in range(32):               # 0 takes the last square in round 3, then shuttles
        targets = [(2, 0), (3, 0)] if k % 2 == 0 else [(1, 0), (3, 0)]
        r = step(states[-1], targets)
        states.append(r.state)
        if r.state.last_round:
            break
    assert states[3].scores() == (3, 1) and not states[3].last_round
    assert len(states) - 1 == 28          # round 28 looks back at round 3, the first full grid
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
