"""Back to the Code rules checked against the games specification, point by point,
on tiny grids played move by move (written from the rule text, not from the code)."""

import pytest

from tronlab.capture.ascii import format_grid, state_from_ascii
from tronlab.capture.protocol import format_start, format_turn, parse_answer
from tronlab.capture.rules import reset, step


def walk(state, *plans):
    """Play rounds until the plans (one list of actions per player) or the game end."""
    results = []
    for actions in zip(*plans):
        result = step(state, list(actions))
        results.append(result)
        state = result.state
        if result.outcome is not None:
            break
    return state, results


def grid(state):
    return format_grid(state.owner, {})


LOOP = [(2, 1), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (1, 2)]   # around (2, 2) from (1, 1)


def test_a_move_changes_x_first_then_y():
    s = reset(2, width=6, height=4, starts=[(2, 2), (5, 0)])
    s, _ = walk(s, [(5, 0), (5, 0), (5, 0), (5, 0)], [(5, 0)] * 4)
    assert [snap.positions[0] for snap in s.history] == [(2, 2), (3, 2), (4, 2), (5, 2), (5, 1)]


def test_alone_takes_a_neutral_square_shared_stays_neutral_owned_never_changes():
    s = reset(3, width=5, height=1, starts=[(0, 0), (2, 0), (4, 0)])
    s, _ = walk(s, [(1, 0)], [(1, 0)], [(3, 0)])       # 0 and 1 share (1, 0); 2 alone on (3, 0)
    assert grid(s) == "0.122"
    s, _ = walk(s, [(2, 0)], [(2, 0)], [(4, 0)])       # 0 and 1 on player 1's square
    assert grid(s) == "0.122"


def test_a_loop_closes_when_the_new_square_touches_an_old_one():
    s = reset(2, width=5, height=5, starts=[(1, 1), (4, 4)])
    s, _ = walk(s, LOOP[:-1], [(4, 4)] * 6)
    assert s.scores() == (7, 1)                         # no enclosure yet
    s, _ = walk(s, LOOP[-1:], [(4, 4)])                 # (1, 2) is next to the start (1, 1)
    assert grid(s) == ".....\n.000.\n.000.\n.000.\n....1"


def test_the_square_just_left_does_not_trigger_an_enclosure():
    # the region inside is already walled, but the only old square next to
    # the new one is the previous round's: no capture
    s = reset(2, width=5, height=5, starts=[(1, 1), (4, 4)])
    s, _ = walk(s, LOOP, [(4, 4)] * 7)
    before = s.scores()
    s, _ = walk(s, [(1, 1)], [(4, 4)])                  # back to (1, 1): all neighbours owned
    assert s.scores() == before


def test_a_loop_may_run_along_the_grid_edge_but_a_region_on_the_ring_stays_neutral():
    edge = [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
    s = reset(2, width=4, height=4, starts=[(0, 0), (3, 3)])
    s, _ = walk(s, edge, [(3, 3)] * 7)
    assert grid(s) == "000.\n000.\n000.\n...1"         # (1, 1) is off the ring: taken
    s = reset(2, width=3, height=3, starts=[(0, 0), (2, 2)])
    s, _ = walk(s, [(1, 0), (1, 1), (0, 1)], [(2, 2)] * 3)
    assert grid(s) == "00.\n00.\n..1"                  # nothing inside to take


def test_a_diagonal_gap_leaks():
    # (2, 2) is closed orthogonally but reaches the ring diagonally through (3, 3)
    leaky = """
        ......
        .000..
        .0.A..
        .00...
        ......
        ......
    """
    old = {"trails": {0: [(3, 1)]}, "positions": {1: (5, 5)}}   # (3, 1): two rounds ago
    s = state_from_ascii(leaky, **old)
    s, _ = walk(s, [(3, 2)], [(5, 5)])
    assert s.owner[2, 2] == -1
    s = state_from_ascii(leaky.replace(".00...", ".000.."), **old)
    s, _ = walk(s, [(3, 2)], [(5, 5)])
    assert s.owner[2, 2] == 0


BIG = [(2, 1), (3, 1), (4, 1), (4, 2), (4, 3), (4, 4), (3, 4), (2, 4), (1, 4), (1, 3), (1, 2)]


def test_a_region_touching_another_players_square_diagonally_goes_to_nobody():
    # player 1's start (4, 4) is a corner of player 0's loop: it touches the
    # region (2..3, 2..3) only diagonally, and that is enough to spoil it
    s = reset(2, width=6, height=6, starts=[(1, 1), (4, 4)])
    s, _ = walk(s, BIG, [(4, 4)] * len(BIG))
    assert s.owner[4, 4] == 1 and (s.owner[2:4, 2:4] == -1).all()
    s = reset(2, width=6, height=6, starts=[(1, 1), (5, 5)])    # the same loop, all its own
    s, _ = walk(s, BIG, [(5, 5)] * len(BIG))
    assert (s.owner[2:4, 2:4] == 0).all()


def test_where_players_stand_does_not_matter_only_ownership():
    # player 1 stands on player 0's wall when the loop closes: the region is still taken
    s = reset(2, width=5, height=5, starts=[(1, 1), (4, 4)])
    other = [(4, 4)] * 3 + [(3, 2)] * 4                 # (3, 4), (3, 3), then (3, 2)
    s, _ = walk(s, LOOP, other)
    assert s.positions[1] == (3, 2) and s.owner[2, 3] == 0 and s.owner[4, 3] == 1
    assert s.owner[2, 2] == 0


def test_an_eliminated_players_squares_still_block_an_enclosure():
    s = reset(2, width=6, height=6, starts=[(1, 1), (3, 3)])
    s, results = walk(s, BIG, ["timeout"] + [None] * (len(BIG) - 1))
    assert s.eliminated == (False, True) and s.positions[1] is None
    assert s.owner[3, 3] == 1 and s.owner[2, 2] == -1   # keeps its square, blocks the region


def test_back_resumes_from_the_end_of_round_r_minus_n_minus_1():
    s = reset(2, width=5, height=5, starts=[(1, 1), (4, 4)])
    s, _ = walk(s, LOOP, [(4, 4)] * 7)                  # rounds 1..7: the loop closes in 7
    assert s.round == 8 and s.owner[2, 2] == 0
    s, (res,) = walk(s, [(1, 1)], [("BACK", 3)])        # round 8: BACK 3
    assert s.round == 5                                 # gameRound shown next: 8 - 3
    assert s.positions[0] == LOOP[3]                    # the end of round 4
    assert s.scores() == (5, 1)                         # the enclosure is undone
    assert s.backs_left == (1, 0)
    s2, _ = walk(s, [(2, 3)], [(4, 4)])                 # play goes on from round 5
    assert s2.round == 6


def test_backs_add_up_capped_at_r_minus_1_and_a_round_1_back_is_used_up():
    s = reset(2, width=5, height=5, starts=[(1, 1), (4, 4)])
    s, (res,) = walk(s, [("back", 5)], [("BACK", 2)])
    assert s.round == 1 and s.backs_left == (0, 0) and s.eliminated == (False, False)
    s = reset(2, width=5, height=5, starts=[(1, 1), (4, 4)])
    s, _ = walk(s, LOOP[:5], [(4, 4)] * 5)              # rounds 1..5
    s, _ = walk(s, [("BACK", 2)], [("BACK", 20)])       # round 6: 22 capped at 5
    assert s.round == 1 and s.positions == ((1, 1), (4, 4))


def test_a_second_back_a_bad_n_or_an_off_grid_target_eliminates():
    for bad in [("BACK", 0), ("BACK", 26), (5, 0), (-1, 0), "bad-output", "timeout"]:
        s = reset(2, width=5, height=5, starts=[(1, 1), (4, 4)])
        s, _ = walk(s, [(2, 1)], [bad])
        assert s.eliminated == (False, True), bad
        assert s.owner[4, 4] == 1 and s.positions[1] is None
    s = reset(3, width=5, height=5, starts=[(1, 1), (4, 4), (0, 4)])
    s, _ = walk(s, [(2, 1), (3, 1), (3, 1)], [(4, 4), ("BACK", 1), ("BACK", 1)],
                [(0, 4)] * 3)
    assert s.eliminated == (False, True, False)


def test_eliminated_players_stay_eliminated_and_backs_are_not_refunded_by_a_back():
    s = reset(3, width=5, height=5, starts=[(1, 1), (4, 4), (0, 4)])
    s, _ = walk(s, [(2, 1), (3, 1)], [(4, 4), (4, 4)], [(0, 3), "timeout"])
    assert s.owner[3, 0] == 2                           # player 2 took (0, 3) in round 1
    s, _ = walk(s, [("BACK", 2)], [(4, 4)], [None])     # round 3: back to round 1
    assert s.round == 1 and s.eliminated == (False, False, True) and s.backs_left == (0, 1, 1)
    assert s.owner[3, 0] == -1 and s.scores() == (1, 1, 1)   # its capture is undone too


def test_the_round_limit_counts_in_game_rounds():
    s = reset(2, width=9, height=1, starts=[(0, 0), (8, 0)], round_limit=4)
    s, res = walk(s, [(8, 0)] * 3, [(0, 0)] * 3)       # rounds 1-3
    s, _ = walk(s, [("BACK", 2)], [(0, 0)])            # round 4 thrown away: round 2 next
    s, res = walk(s, [(8, 0)] * 3, [(0, 0)] * 3)       # rounds 2, 3, 4
    assert res[-1].outcome is not None and res[-1].outcome.reason == "round-limit"
    assert res[-1].outcome.round == 4 and all(r.outcome is None for r in res[:-1])


def test_25_rounds_without_a_move_or_back_end_the_game():
    s = reset(2, width=9, height=9, starts=[(0, 0), (8, 8)])
    s, res = walk(s, [(0, 0)] * 25, [(8, 8)] * 25)
    assert [r.outcome is None for r in res] == [True] * 24 + [False]
    assert res[-1].outcome.reason == "idle"


def test_the_last_active_player_plays_on_and_nobody_active_ends_the_game():
    s = reset(2, width=9, height=9, starts=[(0, 0), (8, 8)])
    s, res = walk(s, [(1, 0)], ["timeout"])
    assert res[0].outcome is None
    s, res = walk(s, ["bad-output"], [None])
    assert res[0].outcome.reason == "no-active-player"


def test_a_decided_ranking_plays_one_more_round():
    s = reset(2, width=5, height=1, starts=[(0, 0), (4, 0)])
    s, res = walk(s, [("BACK", 1), (1, 0)], [("BACK", 1), (3, 0)])
    assert res[-1].state.last_round is False            # 2+2 and one free: [2,3] [2,3]
    s, res = walk(s, [(2, 0)], [(3, 0)])                # 3 and 2, nothing free
    assert res[-1].outcome is None and s.last_round
    s, res = walk(s, [(2, 0)], [(3, 0)])
    assert res[-1].outcome.reason == "decided" and res[-1].outcome.ranks == (1, 2)


def test_a_tie_for_good_does_not_decide_and_equal_scores_share_a_rank():
    s = reset(2, width=4, height=1, starts=[(0, 0), (3, 0)])
    s, res = walk(s, [("BACK", 1), (1, 0)], [("BACK", 1), (2, 0)])
    assert not s.last_round                             # [2, 2] and [2, 2] overlap
    s, res = walk(s, [(1, 0)] * 25, [(2, 0)] * 25)
    assert res[-1].outcome.reason == "idle" and res[-1].outcome.ranks == (1, 1)


def test_unused_backs_delay_the_decided_check():
    s = reset(2, width=5, height=1, starts=[(0, 0), (4, 0)])
    s, res = walk(s, [(1, 0), (2, 0)], [(3, 0), (3, 0)])   # 3 and 2 for good, BACKs unused
    assert not s.last_round


# ---- protocol ---------------------------------------------------------------------------

def test_the_turn_text_renumbers_ids_and_shows_end_of_last_round_positions():
    s = reset(3, width=4, height=2, starts=[(0, 0), (3, 0), (0, 1)])
    s, _ = walk(s, [(1, 0)], [(3, 1)], ["timeout"])
    assert format_start(3) == "2\n"
    # gameRound 2; own line first; player 0 becomes 1, eliminated player 2 shows -1 -1 0
    assert format_turn(s, 1).splitlines() == ["2", "3 1 1", "1 0 1", "-1 -1 0", "11.0", "2..0"]


@pytest.mark.parametrize("line, action, message", [
    ("3 4", (3, 4), None), ("3 4 hi there", (3, 4), "hi there"), ("back 7", ("BACK", 7), None),
    ("Back 7", ("BACK", 7), None), ("3 4 " + "x" * 150, (3, 4), "x" * 100),
    ("40 4", (40, 4), None),
])
def test_answers_are_read_as_the_protocol_says(line, action, message):
    answer = parse_answer(line)
    assert (answer.action, answer.message, answer.reason) == (action, message, None)


def test_a_shared_square_ringed_by_one_player_stays_neutral():
    # players 0 and 1 both step onto (2, 2); the 8 squares around it are player 0's
    # and none of them is neutral, so no region is flooded: the shared square stays neutral
    s = state_from_ascii("""
        .....
        .0A0.
        .0.0.
        .000.
        .....
    """, positions={1: (3, 2)}, trails={0: [(1, 2)]})
    s, _ = walk(s, [(2, 2)], [(2, 2)])
    assert s.positions == ((2, 2), (2, 2))
    assert s.owner[2, 2] == -1


def test_the_decided_check_looks_back_25_rounds_per_unused_back():
    # scores are 3 and 2 for good after round 2, but each unused BACK could still undo
    # 25 rounds: with two unused, round r compares the owners at round r - 50
    s = reset(2, width=5, height=1, starts=[(0, 0), (4, 0)])
    p0 = [(1, 0), (2, 0)] + [(1, 0), (2, 0)] * 30
    p1 = [(3, 0), (4, 0)] * 31
    s, res = walk(s, p0, p1)
    ends = [(k + 1, r.outcome.reason) for k, r in enumerate(res) if r.outcome is not None]
    assert ends[0] == (53, "decided")                   # decided after round 52, one more round


def test_an_eliminated_players_upper_end_is_its_count_now():
    s = reset(2, width=5, height=1, starts=[(0, 0), (4, 0)])
    s, _ = walk(s, [("BACK", 1)], ["timeout"])           # p1 out, p0's BACK used up
    s, res = walk(s, [(1, 0)], [None])                  # [2, 4] against p1's [1, 1]
    assert s.last_round
    s, res = walk(s, [(2, 0)], [None])
    assert res[0].outcome.reason == "decided" and res[0].outcome.scores == (3, 1)
