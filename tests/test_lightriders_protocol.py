"""The Light Riders protocol's text as games.md section 3 says: settings in order,
rounds from 0, fields and facings, bad settings and broken rounds reported as bad
input (never a traceback).  The time bank's planning is in
test_lightriders_planning.py, whole programs and games in test_lightriders_program.py."""

import io

import pytest

from tronlab.tron.board import Board
from tronlab.runner.registry import get_bot
from tronlab.runner.stdio import run_stdio
from tronlab.tron.lightriders import (LightRidersClient, give_contest_facings,
                                      lightriders_settings, lightriders_state)
from tronlab.tron.mapgen import lightriders_board
from tronlab.tron.protocol import ProtocolError, encode_state, make_client

GAMES_MD_SETTINGS = """\
settings player_names player0,player1
settings your_bot player0
settings timebank 10000
settings time_per_move 200
settings your_botid 0
settings field_width 16
settings field_height 16
"""


def feed_all(client, text):
    return [r for r in (client.feed(line) for line in text.splitlines(True)) if r is not None]


def test_settings_lines_in_the_order_games_md_gives():
    board = lightriders_board(x=3, y=7)
    assert lightriders_settings(board, 0) == GAMES_MD_SETTINGS
    with_max = lightriders_settings(board, 1, max_rounds=90).splitlines()
    assert with_max[1] == "settings your_bot player1" and with_max[4] == "settings your_botid 1"
    assert with_max[-1] == "settings max_rounds 90" and len(with_max) == 8


def test_rounds_count_from_zero_both_ways():
    board = lightriders_board(x=3, y=7)
    text = encode_state("lightriders", board, 1, turn=0, time_ms=10000)
    assert text.splitlines()[0] == "update game round 0"
    assert text.splitlines()[2] == "action move 10000"
    client = make_client("lightriders")
    (req,) = feed_all(client, GAMES_MD_SETTINGS + text)
    assert req.turn == 0 and req.time_left == 10.0 and req.player == 0
    (req,) = feed_all(client, encode_state("lightriders", board, 0, turn=5, time_ms=9500))
    assert req.turn == 5 and req.time_left == 9.5


@pytest.mark.parametrize("line,setting", [
    ("settings your_botid 7", "your_botid"),
    ("settings your_botid -1", "your_botid"),
    ("settings your_botid 2", "your_botid"),      # just past the top: ids are 0 and 1
    ("settings field_width 1001", "field_width"),  # just past MAX_FIELD_SIDE
    ("settings field_width abc", "field_width"),
    ("settings field_width -16", "field_width"),
    ("settings field_height 0", "field_height"),
    ("settings field_height -3", "field_height"),
    ("settings timebank -5", "timebank"),
    ("settings time_per_move 1.5", "time_per_move"),
    ("settings max_rounds x", "max_rounds"),
    ("settings your_botid", "settings NAME VALUE"),
    ("update game round -1", "negative"),
    ("action move -20", "negative"),
])
def test_bad_values_are_protocol_errors_naming_them(line, setting):
    client = LightRidersClient()
    with pytest.raises(ProtocolError, match=setting):
        client.feed(line + "\n")
    assert client.player == 0 and client.settings["field_width"] == 16   # defaults kept


def play_stdio(text):
    out, err = io.StringIO(), io.StringIO()
    n = run_stdio(get_bot("hugger"), "lightriders", stdin=io.StringIO(text), stdout=out, stderr=err)
    return n, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("bad", ["settings your_botid 7", "settings field_width abc",
                                 "settings field_height -16", "settings field_width -1"])
def test_bad_settings_are_reported_and_the_bot_plays_on(bad):
    board = lightriders_board(x=3, y=7)
    text = GAMES_MD_SETTINGS + bad + "\n" + lightriders_state(board, 0, round=0, time_ms=10000)
    n, out, err = play_stdio(text)
    assert n == 1 and out.strip() in ("up", "right", "down", "left")
    assert "bad input" in err and bad.split()[1] in err and "Traceback" not in err


def test_a_botid_that_changes_mid_game_is_refused_and_the_bot_keeps_its_rider():
    """A rider is one bot's for the whole game, as CodinGame's P is.  Before, 'settings
    your_botid 1' after round 0 was kept: the bot planned round 1 for the other rider's
    head and its answer steered its own from there."""
    board = lightriders_board(x=3, y=7)
    text = (GAMES_MD_SETTINGS + lightriders_state(board, 0, round=0, time_ms=500)
            + "settings your_botid 1\n" + lightriders_state(board, 0, round=1, time_ms=500))
    seen = []
    out, err = io.StringIO(), io.StringIO()
    run_stdio(lambda b, p: seen.append(p) or "up", "lightriders", stdin=io.StringIO(text),
              stdout=out, stderr=err)
    assert seen == [0, 0] and out.getvalue() == "up\nup\n"
    assert err.getvalue() == ("tronlab bot: bad input: lightriders settings your_botid: "
                              "changed from 0 to 1 after round 0; keeping your_botid 0\n")
    client = LightRidersClient()        # before any round: settings may say anything
    feed_all(client, GAMES_MD_SETTINGS + "settings your_botid 1\n")
    assert client.player == 1


def test_an_unreadable_round_is_answered_with_pass():
    text = GAMES_MD_SETTINGS + "update game field .,.\naction move 9000\n"
    n, out, err = play_stdio(text)
    assert out == "pass\n" and "2 tokens" in err and "Traceback" not in err


@pytest.mark.parametrize("gone", [0, 1])
def test_a_field_without_both_heads_is_refused(gone):
    # the game ends when a rider dies, so the server never asks for a move on such a field;
    # it was read as a board with that player dead and its head at square 0
    field = lightriders_state(lightriders_board(x=3, y=7), 0, round=0, time_ms=10000)
    field = field.replace(f",{gone},", ",.,")
    with pytest.raises(ProtocolError, match=f"no player {gone} head.*update game field"):
        feed_all(LightRidersClient(), GAMES_MD_SETTINGS + field)
    n, out, err = play_stdio(GAMES_MD_SETTINGS + field)
    assert out == "pass\n" and f"bad input: lightriders field: no player {gone} head" in err
    assert "Traceback" not in err


def test_contest_facings_are_given_only_where_missing():
    # a map file has no facings: the contest's are p0 right (1), p1 left (3)
    b = Board.from_ascii("""
        #######
        #1...2#
        #######
    """)
    assert list(b.facing) == [-1, -1]
    assert give_contest_facings(b) is b and list(b.facing) == [1, 3]
    b.facing[:] = [0, -1]
    assert list(give_contest_facings(b).facing) == [0, 3]      # a facing it has is kept


def test_facings_are_not_carried_over_a_change_of_field_size():
    # round 0 on a 3x3 field, then the field becomes 4 wide: the old head squares mean nothing
    # on the new grid (p1's index moves by exactly one square), so the facings start afresh
    client = LightRidersClient()
    first = ("settings field_width 3\nsettings field_height 3\n"
             "update game round 0\nupdate game field 0,.,.,.,1,.,.,.,.\naction move 500\n")
    (r0,) = feed_all(client, first)
    assert r0.board.facing.tolist() == [1, 3]
    second = ("settings field_width 4\nupdate game round 1\n"
              "update game field .,.,.,.,1,.,.,.,.,.,0,.\naction move 500\n")
    (r1,) = feed_all(client, second)
    assert r1.board.head_xy(1) == (0, 1) and r1.board.facing.tolist() == [1, 3]


@pytest.mark.parametrize("bad, answer", [("update game field {a} {b}", "pass"),
                                         ("update game field", "pass"),
                                         ("update game round 1 2\nupdate game field {a}{b}",
                                          "right")])
def test_a_broken_round_line_is_reported_not_answered_from_the_last_round(bad, answer):
    # a field line cut in two by a space fell through to 'other updates' and was dropped
    # without a word: the bot answered round 1 from round 0's field ('right' into the
    # square it had just left, had round 1 moved it) and the program exited 0
    board = lightriders_board(x=3, y=7)
    moved = board.copy()
    moved.flat[moved.heads[0] + 1] = moved.flat[moved.heads[0]]
    moved.heads[0] += 1
    field = lightriders_state(moved, 0, round=1, time_ms=500).splitlines()[1].split()[-1]
    line = bad.format(a=field[:100], b=field[100:])
    text = (GAMES_MD_SETTINGS + lightriders_state(board, 0, round=0, time_ms=500)
            + "update game round 1\n" + line + "\naction move 500\n")
    out, err, problems = io.StringIO(), io.StringIO(), []
    run_stdio(lambda b, p: "right", "lightriders", stdin=io.StringIO(text), stdout=out,
              stderr=err, problems=problems)
    assert out.getvalue() == f"right\n{answer}\n"     # a good field and action: a move
    assert "tronlab bot: bad input: lightriders" in err.getvalue()
    assert bool(problems) == (answer == "pass")


@pytest.mark.parametrize("lost", ["update game feild {f}", "update game Field {f}", ""],
                         ids=["misspelt", "capitalised", "missing"])
def test_a_round_without_its_field_is_passed_not_answered_from_the_last(lost):
    # a round whose field line was lost (or garbled into an 'update' the client skips) was
    # answered from the last round's field without a word, and the program exited 0
    board = lightriders_board(x=3, y=7)
    field = lightriders_state(board, 0, round=0, time_ms=500).splitlines()[1].split()[-1]
    text = (GAMES_MD_SETTINGS + lightriders_state(board, 0, round=0, time_ms=500)
            + "update game round 1\n" + lost.format(f=field) + "\naction move 500\n")
    out, err, problems = io.StringIO(), io.StringIO(), []
    run_stdio(lambda b, p: "right", "lightriders", stdin=io.StringIO(text), stdout=out,
              stderr=err, problems=problems)
    assert out.getvalue() == "right\npass\n"
    assert "bad input: lightriders: 'action move' with no field" in err.getvalue()
    assert problems
