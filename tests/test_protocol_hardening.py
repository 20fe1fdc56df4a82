"""Protocol clients survive bad input (issue 11, defects 5 and 11): a bad header is
checked before it is kept, a bad turn is dropped and the next one read, ASCII digits
only, and input that ends in the middle of a turn is reported."""

import io

import pytest

from tronlab.runner.stdio import run_stdio
from tronlab.tron.board import BoardError
from tronlab.tron.maps import parse_map
from tronlab.tron.protocol import ProtocolError, make_client

TURN = ["5 3", "#####", "#1 2#", "#####"]


def feed_all(client, lines):
    """Feed every line; return the requests and the error messages."""
    requests, errors = [], []
    for line in lines:
        try:
            r = client.feed(line + "\n")
        except ProtocolError as err:
            errors.append(str(err))
            continue
        if r is not None:
            requests.append(r)
    return requests, errors


@pytest.mark.parametrize("header", ["0 3", "-1 3", "3 0", "3 -7"])
def test_an_empty_google2010_size_does_not_lock_the_bot_out(header):
    requests, errors = feed_all(make_client("google2010"), [header] + TURN)
    assert len(errors) == 1 and "is empty" in errors[0]
    assert len(requests) == 1 and requests[0].board.head_xy(0) == (1, 1)


@pytest.mark.parametrize("header", ["\u0663 1", "3\u00b3 1", "1_0 3", "5 3 3",
                                    "99999999999999999999 3", "2000 3"])
def test_odd_numbers_in_a_google2010_header_are_refused(header):
    requests, errors = feed_all(make_client("google2010"), [header] + TURN)
    assert len(errors) == 1 and "google2010 header" in errors[0]
    assert len(requests) == 1


def test_a_bad_row_drops_the_board_and_the_next_header_starts_afresh():
    lines = ["5 3", "#####", "#1 2###", "#####"] + TURN
    requests, errors = feed_all(make_client("google2010"), lines)
    assert "longer than width 5" in errors[0]
    assert len(requests) == 1 and requests[0].board.head_xy(1) == (3, 1)


def test_codingame_off_grid_line_changes_nothing_and_the_next_turn_is_read():
    client = make_client("codingame")
    requests, errors = feed_all(client, ["2 0", "1 1 1 1", "40 1 40 1",
                                         "2 0", "1 1 1 1", "5 5 5 5",
                                         "2 0", "1 1 1 2", "5 5 5 6"])
    assert len(errors) == 1 and "off the 30x20 grid" in errors[0]
    assert len(requests) == 2
    assert requests[-1].board.head_xy(0) == (1, 2) and requests[-1].board.head_xy(1) == (5, 6)


@pytest.mark.parametrize("protocol, text, words", [
    ("google2010", "5 3\n#####\n#1 2#\n", "2 of 3 rows"),
    ("codingame", "2 0\n1 1 1 1\n", "1 of 2 player lines"),
])
def test_input_that_ends_mid_turn_is_reported(protocol, text, words):
    err = io.StringIO()
    answers = run_stdio(lambda board, player: 0, protocol, stdin=io.StringIO(text),
                        stdout=io.StringIO(), stderr=err)
    assert answers == 0
    assert "input ended in the middle" in err.getvalue()
    assert words.split("...")[0] in err.getvalue()


def test_a_non_ascii_digit_in_a_map_header_names_the_map():
    with pytest.raises(BoardError, match=r"^mine.txt: first line must be 'W H'"):
        parse_map("1\u00b3 3\n" + "#" * 13 + "\n#1         2#\n" + "#" * 13 + "\n", name="mine.txt")
    with pytest.raises(BoardError, match=r"^mine.txt: first line"):
        parse_map("\u0661\u0663 3\n" + "#" * 13 + "\n#1         2#\n" + "#" * 13 + "\n",
                  name="mine.txt")


@pytest.mark.parametrize("protocol, broken, words, guess", [
    ("codingame", ["5 0"] + ["1 1 1 1"] * 5, "bad player count or index '5 0'", None),
    ("codingame", ["1 0", "1 1 1 1"], "bad player count or index '1 0'", None),
    ("codingame", ["2 2", "1 1 1 1", "5 5 5 5"], "bad player count or index '2 2'", None),
    # the header is good, so the turn ends after its 2 lines: answered (the server waits);
    # the reader's head (3, 0) has the grid's edge north, so the guess is east
    ("codingame", ["2 0", "3 0 3 0", "40 1 40 1"], "start (40, 1) is off the 30x20 grid",
     "RIGHT"),
    ("codingame", ["2 1", "40 1 40 1", "3 0 3 0"], "start (40, 1) is off the 30x20 grid",
     "RIGHT"),
    ("google2010", ["5 3", "#######", "#1 2#", "#####"], "row 0 is longer than width 5", "2"),
    ("google2010", ["5 3", "#####", "#1 2#", "#?###"], "unknown character '?'", "2"),
    ("google2010", ["5 3", "#####", "#1  #", "#####"], "no player 2 head", "2"),
    ("google2010", ["0 3", "#####", "#1 2#", "#####"], "size 0x3 is empty", None),
    ("google2010", ["5 x", "#####", "#1 2#", "#####"], "expected 2 whole numbers", None),
])
def test_a_broken_turn_is_one_error_line_and_the_next_turn_is_read(protocol, broken, words,
                                                                   guess):
    good = TURN if protocol == "google2010" else ["2 0", "1 1 1 1", "5 5 5 5"]
    err, out = io.StringIO(), io.StringIO()
    answers = run_stdio(lambda board, player: board.legal_moves(player)[0], protocol,
                        stdin=io.StringIO("\n".join(broken + good) + "\n"), stdout=out,
                        stderr=err)
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tronlab bot: bad input: {protocol}")
    assert words in lines[0] and "\\n" not in lines[0]     # no quoted newline either
    # a turn whose lines all came is answered with a guess: the server waits for it
    # (it was not, and the program lost on time); a bad header says nothing of the turn
    assert answers == 1 and out.getvalue().splitlines()[:-1] == ([guess] if guess else [])


@pytest.mark.parametrize("protocol, text, broken", [
    ("google2010", "garbage\n", True),
    ("codingame", "garbage\n", True),
    ("lightriders", "garbage\n", True),
    ("google2010", "\n".join(TURN + ["5 x"]) + "\n", True),          # a good turn, then junk
    ("google2010", "5 3\n#####\n#1 2#\n", True),                    # cut short
    ("google2010", "\n".join(["5 x"] + TURN) + "\n", False),         # junk, then a good turn
    ("google2010", "", False),
])
def test_input_that_ends_on_a_broken_turn_is_a_problem(protocol, text, broken):
    problems = []
    run_stdio(lambda board, player: board.legal_moves(player)[0], protocol,
              stdin=io.StringIO(text), stdout=io.StringIO(), stderr=io.StringIO(),
              problems=problems)
    assert bool(problems) == broken and len(problems) <= 1


@pytest.mark.parametrize("protocol", ["google2010", "codingame", "lightriders", "backtothecode"])
def test_every_contest_program_fed_garbage_exits_2_with_one_error_line(protocol, capsys,
                                                                       monkeypatch):
    from tronlab.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("garbage\n"))
    assert main(["bot", "random", "--protocol", protocol, "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("tronlab: error: ") and "Traceback" not in err


@pytest.mark.parametrize("turns, said", [(1, "1 turn was answered"),
                                          (2, "2 turns were answered")])
def test_the_exit_line_counts_the_answers_in_words(capsys, monkeypatch, turns, said):
    # it said '1 turns were answered'
    from tronlab.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(TURN * turns + ["5 x"]) + "\n"))
    assert main(["bot", "random", "--protocol", "google2010", "--seed", "1"]) == 2
    assert capsys.readouterr().err.rstrip().endswith(said)


def test_a_good_game_after_a_bad_line_still_exits_0(capsys, monkeypatch):
    from tronlab.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["5 x"] + TURN) + "\n"))
    assert main(["bot", "random", "--protocol", "google2010", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1
    assert "bad input" in err and "error" not in err


def test_a_broken_codingame_turn_is_answered_off_the_trails_it_remembers():
    # the reader went (1, 0) -> (0, 0) -> (0, 1); in the last turn the opponent's line is
    # garbled.  The guess is made on the board the client remembers, with the lines
    # that did read: north of (0, 1) is its own trail, so it goes east, not north
    turns = ["2 0", "1 0 1 0", "9 9 9 9", "2 0", "1 0 0 0", "9 9 9 8",
             "2 0", "1 0 0 1", "9 9 x"]
    out, passed = io.StringIO(), []
    answers = run_stdio(lambda board, player: board.legal_moves(player)[0], "codingame",
                        stdin=io.StringIO("\n".join(turns) + "\n"), stdout=out,
                        stderr=io.StringIO(), passed=passed)
    assert answers == 2 and out.getvalue().splitlines()[-1] == "RIGHT"
    assert len(passed) == 1 and "expected 4 whole numbers, got '9 9 x'" in passed[0]


def test_the_exit_line_says_a_broken_google2010_turn_was_answered_with_a_guess(
        capsys, monkeypatch):
    from tronlab.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(TURN + ["5 3", "#####", "#1 2#",
                                                                   "##?##"]) + "\n"))
    assert main(["bot", "random", "--protocol", "google2010", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2 and out.splitlines()[1] == "2"
    assert err.rstrip().endswith("2 turns were answered, 1 of them with a guess because its "
                                 "input was broken")
