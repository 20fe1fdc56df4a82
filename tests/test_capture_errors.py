"""Wrong inputs to the capture game's public functions: a ValueError or TypeError
naming the argument, or (for what a bot returns) "bad-output" with a readable
reason in the record, never an obscure crash."""

import numpy as np
import pytest

from tronlab.capture import parse_grid, play_capture, state_from_ascii, step
from tronlab.capture.enclosure import enclose
from tronlab.capture.lshapes import best_l_shape, closed_gain
from tronlab.capture.opponent import predict
from tronlab.capture.paths import search_paths
from tronlab.capture.rects import scan_rectangles
from tronlab.capture.rules import read_action

GRID_TEXT = """
    A....
    .....
    ....b
"""
OWNER = parse_grid(GRID_TEXT).owner         # 5x3


def game_against(bot):
    """A short game of ``bot`` (player 0) against the nearest bot; checked to
    have finished and to replay."""
    rec = play_capture([bot, "nearest"], rng=1, width=8, height=5)
    assert rec.outcome is not None
    rec.verify()
    return rec


def first_note(rec, player=0):
    return next(text for _turn, p, text in rec.notes if p == player)


# --- what a bot returns ----------------------------------------------------------------

def test_a_numpy_pair_of_ints_is_a_target():
    rec = game_against(lambda view, player: np.array([1, 2]))
    assert rec.actions[0][0] == [1, 2] and all(type(v) is int for v in rec.actions[0][0])
    assert not [e for e in rec.events if e[2] == 0 and e[3] == "bad-output"]


def test_a_numpy_array_that_is_no_target_is_bad_output_with_a_reason():
    rec = game_against(lambda view, player: np.array([1.5, 2.0]))
    assert rec.actions[0][0] == "bad-output"
    assert tuple(rec.events[0][:4]) == (1, 1, 0, "bad-output")
    assert "numpy array of float64" in first_note(rec) and "(x, y)" in first_note(rec)


def test_a_return_value_whose_repr_raises_is_bad_output():
    class Odd:
        def __repr__(self):
            raise RuntimeError("no repr")

    rec = game_against(lambda view, player: Odd())
    assert rec.actions[0][0] == "bad-output"
    assert first_note(rec) == ("not an action: "
                               "<Odd object: its __repr__ raised RuntimeError: no repr>")


def test_a_return_value_that_cannot_be_read_is_bad_output():
    class Endless(list):
        def __len__(self):
            raise RuntimeError("no len")

    rec = game_against(lambda view, player: Endless())
    assert rec.actions[0][0] == "bad-output" and "not an action" in first_note(rec)


@pytest.mark.parametrize("text, python", [("BACK 3", '("BACK", 3)'), ("3 4", "(3, 4)")])
def test_the_contest_text_form_is_rejected_with_the_python_form(text, python):
    rec = game_against(lambda view, player: text)
    assert rec.actions[0][0] == "bad-output"
    note = first_note(rec)
    assert "text form" in note and '("BACK", n) or (x, y)' in note and f"here {python}" in note
    s = state_from_ascii(GRID_TEXT)
    kind, why = read_action(text, s, 0)
    assert kind == "bad-output" and '("BACK", n) or (x, y)' in why
    assert "text form" in step(s, [text, (4, 2)]).events[0].detail


# --- play_capture's arguments ----------------------------------------------------------

def test_bots_must_be_a_list():
    with pytest.raises(TypeError, match="bots must be a list of 2-4 bots"):
        play_capture("nearest")
    with pytest.raises(ValueError, match="bots must be a list of 2-4 bots, got 1"):
        play_capture(["nearest"])


def test_every_bot_must_be_a_name_or_a_callable():
    with pytest.raises(TypeError, match=r"bots\[1\] must be a registered bot name or a callable"):
        play_capture(["nearest", 42], width=8, height=5)
    with pytest.raises(ValueError, match=r"bots\[1\]: unknown bot 'clever'"):
        play_capture(["nearest", "clever"], width=8, height=5)


@pytest.mark.parametrize("name", ["time_limit", "first_time_limit"])
def test_time_limits_must_be_positive_numbers(name):
    with pytest.raises(ValueError, match=f"{name} must be None or a positive number"):
        play_capture(["nearest", "nearest"], width=8, height=5, **{name: -1})
    with pytest.raises(ValueError, match=f"{name} must be None or a positive number"):
        play_capture(["nearest", "nearest"], width=8, height=5, **{name: 0})
    with pytest.raises(TypeError, match=f"{name} must be None or a positive number.*'1'"):
        play_capture(["nearest", "nearest"], width=8, height=5, **{name: "1"})


def test_width_and_height_must_be_ints():
    with pytest.raises(TypeError, match="width must be an int, got 8.0"):
        play_capture(["nearest", "nearest"], width=8.0, height=5)
    with pytest.raises(TypeError, match="height must be an int, got '5'"):
        play_capture(["nearest", "nearest"], width=8, height="5")


def test_rng_must_be_a_seed_or_a_generator():
    with pytest.raises(ValueError, match="rng must be None, a non-negative int seed"):
        play_capture(["nearest", "nearest"], width=8, height=5, rng=-1)
    with pytest.raises(TypeError, match="rng must be None, a non-negative int seed.*'seven'"):
        play_capture(["nearest", "nearest"], width=8, height=5, rng="seven")
    a = play_capture(["random", "random"], width=8, height=5, rng=np.random.default_rng(7))
    b = play_capture(["random", "random"], width=8, height=5, rng=np.int64(7))
    assert a.to_dict() == b.to_dict()


# --- squares, players and arrays of the bots' helpers ----------------------------------

def test_scan_rectangles_checks_player_position_and_prev():
    with pytest.raises(ValueError, match=r"position \(5, 0\) is off the 5x3 grid"):
        scan_rectangles(OWNER, 0, (5, 0), jit=False)
    with pytest.raises(ValueError, match="player must be an int 0 to 3, got 4"):
        scan_rectangles(OWNER, 4, (0, 0), jit=False)
    with pytest.raises(TypeError, match="player must be an int 0 to 3, got str '0'"):
        scan_rectangles(OWNER, "0", (0, 0), jit=False)
    with pytest.raises(ValueError, match=r"prev must be None or 4 ints"):
        scan_rectangles(OWNER, 0, (0, 0), prev=(0, 0), jit=False)
    ok = scan_rectangles(OWNER, np.int64(0), (np.int64(0), np.int64(0)),
                         prev=np.array([0, 0, 1, 1]), jit=False)
    assert ok.score > 0


def test_search_paths_checks_player_position_arrival_and_trail():
    with pytest.raises(ValueError, match="player must be an int 0 to 3, got 7"):
        search_paths(OWNER, 7, (0, 0), jit=False)
    with pytest.raises(TypeError, match=r"position must be an \(x, y\) pair of ints"):
        search_paths(OWNER, 0, (0, 0.5), jit=False)     # a ValueError before: a wrong type
    with pytest.raises(ValueError, match=r"arrival must be shaped like owner, \(3, 5\)"):
        search_paths(OWNER, 0, (0, 0), arrival=np.zeros((2, 2), np.int64), jit=False)
    with pytest.raises(ValueError, match=r"trail\[1\] \(9, 9\) is off the 5x3 grid"):
        search_paths(OWNER, 0, (0, 0), trail=[(0, 1), (9, 9)], jit=False)
    with pytest.raises(TypeError, match=r"trail\[0\] must be an \(x, y\) pair of ints"):
        search_paths(OWNER, 0, (0, 0), trail=[None], jit=False)


@pytest.mark.parametrize("options, error, said", [
    ({"max_nodes": 0}, ValueError, "max_nodes must be an int from 1 to 10000000"),
    ({"max_nodes": 5000.0}, TypeError, "max_nodes must be an int from 1"),
    ({"steps": (0,)}, ValueError, r"steps\[0\] must be an int from 1"),
    ({"steps": "321"}, TypeError, "steps must be a sequence of ints"),
    ({"max_steps": -1}, ValueError, "max_steps must be an int from 1"),
    ({"constant": -5.0}, ValueError, "constant must be a number >= 0"),
    ({"escape": "yes"}, TypeError, "escape must be True or False"),
])
def test_search_paths_checks_its_budget_and_score_options(options, error, said):
    # before: max_nodes=0 an IndexError here and, compiled, a write past the node arrays;
    # 5000.0 a numba typing error; constant=-5 a division by zero
    with pytest.raises(error, match=said):
        search_paths(OWNER, 0, (0, 0), jit=False, **options)


def test_enclose_checks_player_and_square():
    with pytest.raises(ValueError, match=r"\(5, 0\) is off the 5x3 grid"):
        enclose(OWNER, 0, 5, 0, jit=False)
    with pytest.raises(ValueError, match="player must be an int 0 to 3, got 9"):
        enclose(OWNER, 9, 0, 0, jit=False)


def test_l_shapes_check_square_and_max_len():
    with pytest.raises(ValueError, match=r"square \(-1, 0\) is off the 5x3 grid"):
        closed_gain(OWNER, 0, -1, 0, jit=False)
    with pytest.raises(ValueError, match=r"position \(0, 3\) is off the 5x3 grid"):
        best_l_shape(OWNER, 0, (0, 3), jit=False)
    with pytest.raises(ValueError, match="max_len must be an int of at least 1, got 0"):
        best_l_shape(OWNER, 0, (0, 0), max_len=0, jit=False)


def test_predict_wants_position_heading_last_turn():
    with pytest.raises(ValueError,
                       match=r"opponents\[0\] must be \(position, heading, last_turn\)"):
        predict(OWNER, [(4, 2)], jit=False)
    with pytest.raises(ValueError, match=r"opponents\[0\] position \(9, 1\) is off the 5x3 grid"):
        predict(OWNER, [((9, 1), None, 0)], jit=False)
    with pytest.raises(ValueError, match=r"opponents\[0\] heading must be None or \(dx, dy\)"):
        predict(OWNER, [((4, 2), (2, 0), 0)], jit=False)


def test_state_from_ascii_checks_positions_trails_and_backs():
    with pytest.raises(TypeError, match=r"positions\[1\] must be an \(x, y\) pair of ints"):
        state_from_ascii(GRID_TEXT, positions={1: 3})
    with pytest.raises(ValueError, match=r"trails\[0\]\[1\] \(7, 0\) is off the 5x3 grid"):
        state_from_ascii(GRID_TEXT, trails={0: [(0, 1), (7, 0)]})
    with pytest.raises(ValueError, match="backs_left must be 2 values 0 or 1"):
        state_from_ascii(GRID_TEXT, backs_left=(1,))
    # one BACK a game: a state with two would print 'x y 2', a line the referee never sends
    with pytest.raises(ValueError, match=r"backs_left must be 2 values 0 or 1 .* got \(2, 1\)"):
        state_from_ascii(GRID_TEXT, backs_left=(2, 1))


@pytest.mark.parametrize("call, error, said", [
    (lambda: __import__("tronlab.capture", fromlist=["reset"]).reset(2, width=10**6, height=20),
     ValueError, "larger than this package plays"),
    (lambda: __import__("tronlab.capture", fromlist=["reset"]).reset(2, width="10"),
     TypeError, "width must be an int, got str '10'"),
    (lambda: __import__("tronlab.capture", fromlist=["reset"]).reset(2, round_limit=2.5),
     TypeError, "round_limit must be an int"),
])
def test_grid_sizes_are_checked_before_anything_is_built(call, error, said):
    with pytest.raises(error, match=said):
        call()


@pytest.mark.parametrize("owner, positions, said", [
    (np.array([[0.5, -1]]), None, "whole numbers -1 \\(neutral\\) to 3, got dtype float64"),
    (np.array([0, 1, -1]), None, "2-D grid of owners, got shape \\(3,\\)"),
    (np.array([[0, 7]]), None, "owner holds 7"),
    (np.array([[0, -5]]), None, "owner holds -5"),
    (np.array([[0, -1]]), [(5, 0)], "positions\\[0\\] \\(5, 0\\) is off the 2x1 grid"),
    (np.array([[0, -1]]), {9: (0, 0)}, "a key of positions must be an int 0 to 3, got 9"),
])
def test_format_grid_names_what_it_cannot_draw(owner, positions, said):
    from tronlab.capture.ascii import format_grid
    with pytest.raises(ValueError, match=said):
        format_grid(owner, positions)


def test_format_grid_still_draws_a_grid_with_players():
    from tronlab.capture.ascii import format_grid
    state = parse_grid(GRID_TEXT)
    assert format_grid(state.owner, state.positions) == "A....\n.....\n....b"


def test_step_refuses_an_action_for_a_player_that_is_not_in_the_game():
    from tronlab.capture import reset
    state = reset(2, rng=7)
    with pytest.raises(ValueError, match="5 is not a player of this game"):
        step(state, {0: (1, 1), 1: (2, 2), 5: (3, 3)})


def test_nearest_target_names_a_player_that_is_not_there():
    from tronlab.capture import reset
    from tronlab.capture.bots import nearest_target
    view = reset(2, rng=7).view()
    with pytest.raises(ValueError, match="player must be an int 0 to 3, got -1"):
        nearest_target(view, -1)
    with pytest.raises(ValueError, match="player 3 is not on this grid"):
        nearest_target(view, 3)


def test_a_player_beyond_the_game_is_refused_where_the_game_is_known():
    # before: player 2 of a 2-player game passed the 0-3 check and came out as an
    # IndexError (interference, rival_border, seen_ids) or as an answer for nobody
    # (scan_inputs, read_action, touches_old_square, a scan scored as player 2 of 2)
    from tronlab.capture import reset
    from tronlab.capture.protocol import seen_ids
    from tronlab.capture.rects_bot import interference, scan_inputs
    from tronlab.capture.rival import rectangle_arrival, rival_border
    from tronlab.capture.rules import touches_old_square
    state = reset(2, rng=1)
    view, here = state.view(), state.positions[0]
    mine = scan_rectangles(state.owner, 0, here, jit=False)
    for call in (lambda: read_action((3, 3), state, 2),
                 lambda: touches_old_square(state, 2, (3, 3)),
                 lambda: scan_inputs(view, 2), lambda: interference(view, 2, mine),
                 lambda: rectangle_arrival(view, 2, 5), lambda: rival_border(view, 2, 5)):
        with pytest.raises(ValueError, match=r"player 2 is not on this grid \(players 0 to 1\)"):
            call()
    with pytest.raises(ValueError, match=r"player 2 is not in a 2-player game \(players 0 to 1"):
        seen_ids(2, 2)
    with pytest.raises(ValueError, match="player 2 is not in a 2-player game"):
        scan_rectangles(state.owner, 2, here, jit=False)
    with pytest.raises(ValueError, match="player 3 is not in a 3-player game"):
        scan_rectangles(state.owner, 3, here, n_players=3, jit=False)
    assert scan_rectangles(state.owner, 2, here, n_players=3, jit=False).score > 0
    # an owner grid alone has no player count: these check 0-3 only, as they say
    assert enclose(state.owner, 2, 3, 3, jit=False)[1] == 0
    assert closed_gain(state.owner, 3, 3, 3, jit=False) == 0
