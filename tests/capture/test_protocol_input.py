"""The Back to the Code client's checks of its input, line by line, on a 5x3 grid."""

import io

import pytest

from tronlab.capture.protocol import CaptureClient, parse_answer, parse_turn_line

GRID = ["0....", ".....", "....1"]


@pytest.mark.parametrize("line, words", [
    ("1 2 3 4", "player lines need three numbers"),
    ("1 2", "player lines need three numbers"),
    ("1 2 -1", "backInTimeLeft is 0 or 1"),
    ("1 2 2", "backInTimeLeft is 0 or 1 (1 while the BACK is unused, once a game), got 2 "
              "in '1 2 2'"),
    ("0 3 1", "your own position (0, 3) is off the 5x3 grid"),
    ("5 0 1", "your own position (5, 0) is off the 5x3 grid"),
    ("-1 0 1", "your own position (-1, 0) is off the 5x3 grid"),
    # before: read as the reader eliminated, though the referee sends it no turn then
    ("-1 -1 0", "your own line is an eliminated player's '-1 -1 0', but the referee sends no "
                "turn to an eliminated player"),
    ("-1 -1 1", "your own line is an eliminated player's '-1 -1 1'")])
def test_a_player_line_out_of_the_protocol_is_named(line, words):
    with pytest.raises(ValueError) as err:
        parse_turn_line(1, line, 2, width=5, height=3)
    assert words in str(err.value)


def test_an_opponents_eliminated_line_shows_no_back():
    # before: read as an eliminated player with its BACK unused (the referee sends 0)
    with pytest.raises(ValueError, match=r"an eliminated player's line is '-1 -1 0' \(the "
                                         r"referee shows no BACK for it\), got '-1 -1 1'"):
        parse_turn_line(2, "-1 -1 1", 2, width=5, height=3)


def test_the_grids_last_cells_and_a_gone_player_are_in_the_protocol():
    assert parse_turn_line(1, "4 2 0", 2, width=5, height=3) == (4, 2, 0)
    assert parse_turn_line(2, "-1 -1 0", 2, width=5, height=3) == (-1, -1, 0)


def test_grid_rows_with_trailing_blanks_are_read():
    # no square is a blank, so blanks after a row carry nothing; they were refused as a
    # row of 7 characters (and the advice to restart with --width 7), the turn lost
    assert parse_turn_line(3, "0....  \r\n", 2, width=5, height=3) == "0...."
    assert parse_turn_line(3, "0....\t", 2, width=5, height=3) == "0...."
    with pytest.raises(ValueError, match="grid row 0 has 6 characters, not 5"):
        parse_turn_line(3, " 0....", 2, width=5, height=3)


def test_a_long_unreadable_answer_is_shown_cut_to_40_characters():
    reason = parse_answer("x" * 50).reason
    assert reason == f"cannot read {'x' * 37 + '...'!r}: expected 'x y [message]' or 'BACK n'"
    assert parse_answer("y" * 40).reason.startswith(f"cannot read {'y' * 40!r}:")


def _client(text):
    return CaptureClient(io.StringIO(text), io.StringIO(), width=5, height=3)


def test_a_broken_turn_is_answered_with_the_last_own_square_read():
    # turn 1 puts the reader on (1, 1); in turn 2 its own line is unreadable: the answer
    # is (1, 1), not the centre (2, 1)
    text = "\n".join(["1", "3", "1 1 1", "3 1 1", *GRID,
                      "4", "? ? 1", "3 1 1", *GRID]) + "\n"
    client, logged = _client(text), []
    views = list(client.turns(log=logged.append))
    assert len(views) == 1 and views[0].positions == ((1, 1), (3, 1))
    assert client.stream_out.getvalue() == "1 1\n"
    assert len(logged) == 1 and "'? ? 1' is not three whole numbers" in logged[0]


def test_a_turn_that_says_the_reader_is_eliminated_is_refused_and_answered_honestly():
    # before: the bot was asked to play standing nowhere, failed, and logged 'staying at
    # 0 0' (or at its last square); now the line is named and the last own square answered
    text = "\n".join(["1", "3", "1 1 1", "3 1 1", *GRID,
                      "4", "-1 -1 0", "3 1 1", *GRID]) + "\n"
    client, logged = _client(text), []
    assert [v.positions for v in client.turns(log=logged.append)] == [((1, 1), (3, 1))]
    assert client.stream_out.getvalue() == "1 1\n"
    assert logged == ["tronlab bot: bad input: turn line 2 of 6: your own line is an "
                      "eliminated player's '-1 -1 0', but the referee sends no turn to an "
                      "eliminated player; skipping the rest of the turn, then answering 1 1"]


def test_input_that_ends_inside_a_turn_is_an_error_not_the_end_of_the_game():
    client = _client("1\n3\n1 1 1\n")
    with pytest.raises(ValueError, match=r"the input ended in the middle of a turn \(2 of its "
                                         r"6 lines read\)"):
        client.read_turn()
    assert _client("1\n").read_turn() is None


def test_a_server_that_stopped_reading_is_not_called_a_failing_bot():
    # the referee may close the program's stdout at the end of the game; the write of
    # the last answer then fails, and the program used to report it as the bot's failure
    # ("the bot failed (BrokenPipeError ...), staying at ...")
    from tronlab.capture.cli import run_program

    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    asked = []

    def bot(view, player):
        asked.append(view.round)
        return (1, 1)

    err = io.StringIO()
    text = "1\n1\n0 0 1\n4 2 1\n" + "\n".join(GRID) + "\n"
    run_program(bot, stdin=io.StringIO(text), stdout=Gone(), stderr=err, width=5, height=3)
    assert asked == [1]
    assert err.getvalue() == ""


def test_an_answer_that_is_no_action_is_still_answered_for():
    from tronlab.capture.cli import run_program
    out, err = io.StringIO(), io.StringIO()
    text = "1\n1\n0 0 1\n4 2 1\n" + "\n".join(GRID) + "\n"
    run_program(lambda view, player: "left", stdin=io.StringIO(text), stdout=out, stderr=err,
                width=5, height=3)
    assert out.getvalue() == "0 0\n"
    assert "the bot failed (ValueError: not an action: 'left'" in err.getvalue()


def test_a_first_line_of_thousands_of_digits_is_named_as_the_opponent_count():
    # before: Python's "Exceeds the limit (4300 digits) for integer string conversion"
    # was the program's only error line
    with pytest.raises(ValueError, match="^the first line must be the number of opponents, "
                                         "1 to 3, got '9999"):
        _client("9" * 5000 + "\n").read_turn()


def test_the_program_loop_refuses_streams_that_carry_no_text():
    # before: AttributeError "'str' object has no attribute 'readline'" for the text itself
    from tronlab.capture.cli import run_program

    with pytest.raises(TypeError, match=r"stdin must be a text stream, not the text itself"):
        run_program(lambda view, player: (0, 0), stdin="1\n1\n")
    with pytest.raises(TypeError, match="stdout must be a text stream .* got a binary BytesIO"):
        run_program(lambda view, player: (0, 0), stdin=io.StringIO("1\n"), stdout=io.BytesIO())
