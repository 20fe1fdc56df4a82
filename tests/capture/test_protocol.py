"""Back to the Code protocol (tronlab.capture.protocol): turn input, answers, the client."""

import io
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

import tronlab
from tronlab.capture import reset, state_from_ascii, step
from tronlab.capture.bots import NearestBot
from tronlab.capture import program
from tronlab.capture.program import main
from tronlab.capture.protocol import (
    CaptureClient, format_answer, format_start, format_turn, parse_answer, parse_turn, seen_ids,
)

THREE = """
    A..2.
    .1...
    ..0Bc
"""


def three_players():
    s = state_from_ascii(THREE, backs_left=(1, 0, 1))
    return step(s, [(0, 0), (3, 2), "timeout"]).state     # player 2 eliminated in round 1


def test_first_line_is_the_opponent_count():
    assert format_start(2) == "1\n" and format_start(4) == "3\n"


def test_turn_lines_renumber_so_the_reader_is_zero():
    s = three_players()
    assert format_turn(s, 1) == "\n".join([
        "2",            # gameRound: round 1 was played
        "3 2 0",        # own line
        "0 0 1",        # player 0 is seen as 1
        "-1 -1 0",      # player 2 (seen as 2) is eliminated
        "1..2.",
        ".0...",
        "..10.",
    ]) + "\n"
    assert format_turn(s, 0).split("\n")[1:4] == ["0 0 1", "3 2 0", "-1 -1 0"]
    assert format_turn(s, 0).split("\n")[4] == "0..2."
    with pytest.raises(ValueError, match="eliminated"):
        format_turn(s, 2)


def test_game_round_after_a_back_is_the_round_play_resumes_at():
    s = state_from_ascii(THREE)
    for _ in range(6):
        s = step(s, [(4, 0), (0, 0), (4, 1)]).state
    assert format_turn(s, 2).split("\n")[0] == "7"
    s = step(s, [("BACK", 4), (0, 0), ("BACK", 1)]).state      # round 7 goes back 5
    assert format_turn(s, 2).split("\n")[0] == "2"


def test_seen_ids_keep_the_opponents_order():
    assert seen_ids(2, 1) == [1, 0]
    assert seen_ids(3, 1) == [1, 0, 2]
    assert seen_ids(4, 3) == [1, 2, 3, 0]


def test_full_size_turn_has_20_rows_of_35():
    s = reset(4, rng=3)
    lines = format_turn(s, 2).rstrip("\n").split("\n")
    assert len(lines) == 1 + 4 + 20 and all(len(r) == 35 for r in lines[5:])
    assert lines[0] == "1"


def test_parse_turn_rebuilds_the_renumbered_view():
    s = three_players()
    view = parse_turn(format_turn(s, 1).splitlines(True), 3, width=5, height=3)
    assert view.round == 2
    assert view.positions == ((3, 2), (0, 0), None)
    assert view.backs_left == (0, 1, 0) and view.eliminated == (False, False, True)
    seen = np.array(seen_ids(3, 1))
    real = s.owner.astype(int)
    want = np.where(real >= 0, seen[np.maximum(real, 0)], -1)
    assert view.owner.tolist() == want.tolist()
    assert view.config.round_limit == 300 and (view.width, view.height) == (5, 3)


@pytest.mark.parametrize("lines, match", [
    (["1", "0 0 1", "2 2 1", "...", "..."], "a turn has 6 lines"),
    (["x", "0 0 1", "2 2 1", "...", "...", "..."], "bad number"),
    (["1", "0 0", "2 2 1", "...", "...", "..."], "three numbers"),
    (["1", "0 0 1", "2 2 1", "...", "....", "..."], "row 1 has 4"),
    (["1", "0 0 1", "2 2 1", "...", ".2.", "..."], "unexpected grid character '2'"),
    # read without a word before: a round before the first, a negative count of BACKs
    (["0", "0 0 1", "2 2 1", "...", "...", "..."], "gameRound starts at 1"),
    (["-3", "0 0 1", "2 2 1", "...", "...", "..."], "gameRound starts at 1"),
    (["1", "0 0 -4", "2 2 1", "...", "...", "..."], "backInTimeLeft is 0 or 1"),
    (["1", "0 0 1", "2 2 25", "...", "...", "..."], r"backInTimeLeft is 0 or 1 .* got 25"),
])
def test_parse_turn_refuses_malformed_input(lines, match):
    with pytest.raises(ValueError, match=match):
        parse_turn(lines, 2, width=3, height=3)


@pytest.mark.parametrize("line, action, message", [
    ("3 4", (3, 4), None),
    ("3 4\n", (3, 4), None),
    ("3 4\r\n", (3, 4), None),
    ("0 19 hello world", (0, 19), "hello world"),
    ("3   4", (3, 4), None),                      # spaces between the numbers
    ("3 4 ", (3, 4), ""),
    ("3 4  two spaces", (3, 4), " two spaces"),   # the message starts after one space
    ("3 4 " + "m" * 150, (3, 4), "m" * 100),      # cut to 100 characters
    ("-1 40", (-1, 40), None),                    # read as is: the rules eliminate
    ("BACK 5", ("BACK", 5), None),
    ("back 25", ("BACK", 25), None),
    ("Back   3 ", ("BACK", 3), None),
    ("BACK 0", ("BACK", 0), None),
    ("BACK 99", ("BACK", 99), None),
])
def test_answers_that_parse(line, action, message):
    ans = parse_answer(line)
    assert ans.action == action and ans.message == message and ans.reason is None


@pytest.mark.parametrize("line, reason", [
    ("", "empty answer"),
    ("\n", "empty answer"),
    ("   ", "empty answer"),
    ("3", "cannot read '3'"),
    ("3,4", "cannot read '3,4'"),
    ("3 4x", "cannot read '3 4x'"),
    ("x 4", "cannot read 'x 4'"),
    ("3.5 4", "cannot read '3.5 4'"),
    ("BACK", "cannot read 'BACK'"),
    ("BACK 2 please", "cannot read 'BACK 2 please'"),
    ("BACKWARD 2", "cannot read 'BACKWARD 2'"),
    ("UP", "cannot read 'UP'"),
    ("z" * 60, "cannot read 'zzz"),
])
def test_answers_that_are_bad_output(line, reason):
    ans = parse_answer(line)
    assert ans.action == "bad-output" and ans.reason.startswith(reason)
    assert "expected 'x y [message]' or 'BACK n'" in ans.reason or ans.reason == "empty answer"


def test_end_of_output_means_exited():
    assert parse_answer(None).action == "exited"


def test_format_answer_round_trips():
    for action, message in [((3, 4), None), ((0, 19), "go  there"), (("BACK", 7), None)]:
        ans = parse_answer(format_answer(action, message))
        assert ans.action == action
        assert ans.message == (None if message is None else "go there")
    with pytest.raises(ValueError, match=r"not an action: \('JUMP', 2\)"):
        format_answer(("JUMP", 2))


def test_client_reads_turns_and_writes_answers():
    s = three_players()
    text = format_start(3) + format_turn(s, 1) + format_turn(s, 0)
    out = io.StringIO()
    client = CaptureClient(io.StringIO(text), out, width=5, height=3)
    seen = []

    def bot(view, player):
        seen.append((view.round, view.positions[player], view.n_players))
        return ("BACK", 2) if len(seen) == 2 else (4, 0)

    assert client.run(bot) == 2
    assert seen == [(2, (3, 2), 3), (2, (0, 0), 3)]
    assert out.getvalue() == "4 0\nBACK 2\n"


def test_client_refuses_a_turn_cut_short():
    s = three_players()
    text = format_start(3) + format_turn(s, 1)[:-8]
    client = CaptureClient(io.StringIO(text), io.StringIO(), width=5, height=3)
    with pytest.raises(ValueError, match="ended in the middle"):
        client.read_turn()
    assert CaptureClient(io.StringIO(""), io.StringIO()).read_turn() is None


def test_a_built_in_bot_runs_as_a_contest_program():
    s = reset(3, rng=8)
    text = format_start(3) + format_turn(s, 1) + format_turn(step(s, [(0, 0)] * 3).state, 1)
    out = io.StringIO()
    assert main(["nearest"], io.StringIO(text), out) == 0
    answers = out.getvalue().splitlines()
    assert len(answers) == 2 and all(parse_answer(a).reason is None for a in answers)
    view = parse_turn(format_turn(s, 1).splitlines(), 3)
    assert answers[0] == format_answer(NearestBot()(view, 0))


def test_the_contest_program_runs_in_its_own_process():
    root = os.path.dirname(os.path.dirname(tronlab.__file__))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    s = reset(2, rng=9)
    text = format_start(2) + format_turn(s, 0)
    done = subprocess.run([sys.executable, "-m", "tronlab.capture.program", "random", "--seed",
                           "3"], input=text, capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert parse_answer(done.stdout).reason is None and done.stdout.count("\n") == 1


def test_the_contest_program_names_bad_input_in_one_line(capsys):
    # python -m tronlab.capture.program used to end in a ValueError traceback here
    assert main(["nearest"], io.StringIO("hello\n"), io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err == ("python -m tronlab.capture.program: error: the first line must be the "
                   "number of opponents, 1 to 3, got 'hello'\n")


def test_the_contest_program_exits_with_code_2_on_input_ending_on_a_broken_turn(capsys):
    s = reset(2, rng=9)
    lines = format_turn(s, 0).splitlines(True)
    out = io.StringIO()
    text = format_start(2) + lines[0] + "50 5 1\n" + "".join(lines[2:])
    assert main(["nearest"], io.StringIO(text), out) == 2 and out.getvalue() == "34 5\n"
    assert capsys.readouterr().err.splitlines()[1] == (
        "python -m tronlab.capture.program: error: bad input: turn line 2 of 23: your own "
        "position (50, 5) is off the 35x20 grid")
    assert main(["nearest"], io.StringIO(text + format_turn(s, 0)), io.StringIO()) == 0


@pytest.mark.parametrize("action", [(1.7, 2), (3, 4.0), ("BACK", 2.0), (1,), (1, 2, 3), "3 4",
                                    ("GO", 3), (True, 2), None])
def test_format_answer_writes_only_what_the_rules_take(action):
    # it wrote int() of floats ("1 2" for (1.7, 2)): a program passed what the same bot
    # in process loses for ("bad-output"); a short tuple was an unpacking error
    with pytest.raises(ValueError, match="^not an action: "):
        format_answer(action)


def test_format_answer_takes_numpy_integers():
    assert format_answer((np.int64(3), np.uint8(4))) == "3 4"
    assert format_answer(np.array([3, 4])) == "3 4"
    assert format_answer(("back", np.int32(2))) == "BACK 2"


def test_a_bot_answering_floats_is_answered_for(capsys, monkeypatch):
    monkeypatch.setattr(program, "_make_bot", lambda name, seed: lambda view, p: (1.5, 2))
    s = reset(2, rng=9)
    out = io.StringIO()
    assert main(["nearest"], io.StringIO(format_start(2) + format_turn(s, 0)), out) == 0
    assert out.getvalue() == "%d %d\n" % s.positions[0]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "(ValueError: not an action: (1.5, 2)" in err[0], err


def test_the_contest_program_plays_every_capture_bot_of_the_registry(capsys):
    """python -m tronlab.capture.program offered three bots (its own table) while
    tronlab bot --protocol backtothecode ran every capture bot: both now read the
    registry, and the help lists its bots."""
    from tronlab.runner.registry import bot_names
    s = reset(2, rng=9)
    turn = format_start(2) + format_turn(s, 0)
    for spec in ("rectangles", "paths+max_nodes=50"):
        out = io.StringIO()
        assert main([spec, "--seed", "1"], io.StringIO(turn), out) == 0, capsys.readouterr()
        assert len(out.getvalue().splitlines()) == 1
    assert main(["paths+nosuch=1"], io.StringIO(turn), io.StringIO()) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert "tronlab bot NAME --protocol backtothecode" in " ".join(shown.split())
    assert f"bots: {', '.join(bot_names('capture'))}" in shown


@pytest.mark.parametrize("player", [2, -1, 1.0, "0"])
def test_format_turn_names_a_player_not_in_the_game(player):
    with pytest.raises((ValueError, TypeError), match="player"):
        format_turn(reset(2, rng=9), player)


def test_the_contest_program_answers_for_a_bot_that_raises(capsys, monkeypatch):
    def broken(view, player):
        raise RuntimeError("oops")
    monkeypatch.setattr(program, "_make_bot", lambda name, seed: broken)
    s = reset(2, rng=9)
    out = io.StringIO()
    assert main(["nearest"], io.StringIO(format_start(2) + format_turn(s, 0)), out) == 0
    assert out.getvalue() == "%d %d\n" % s.positions[0]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "the bot failed (RuntimeError: oops)" in err[0]


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1), st.integers(0, 40), st.data())
def test_turn_text_round_trips_to_the_renumbered_view(n, seed, rounds, data):
    """Random games: what parse_turn rebuilds equals the engine's state seen by the reader."""
    rng = np.random.default_rng(seed)
    s = reset(n, rng=rng, width=12, height=7)
    for _ in range(rounds):
        acts = [None if s.eliminated[p] else
                ("timeout" if rng.random() < 0.01 else
                 (int(rng.integers(12)), int(rng.integers(7)))) for p in range(n)]
        r = step(s, acts)
        if r.outcome is not None:
            break
        s = r.state
    reader = data.draw(st.sampled_from(s.active))
    view = parse_turn(format_turn(s, reader).splitlines(), n, width=12, height=7)
    seen = seen_ids(n, reader)
    back = {seen[q]: q for q in range(n)}
    assert view.round == s.round
    assert view.positions == tuple(s.positions[back[k]] for k in range(n))
    assert view.backs_left == tuple(0 if s.eliminated[back[k]] else s.backs_left[back[k]]
                                    for k in range(n))
    relabel = np.array([-1] + seen)
    assert view.owner.tolist() == relabel[s.owner.astype(int) + 1].tolist()


def run_client(text, bot=None, **size):
    out, logged = io.StringIO(), []
    client = CaptureClient(io.StringIO(text), out, **size)
    turns = sum(1 for view in client.turns(logged.append)
                if out.write(format_answer((bot or (lambda v, p: v.positions[0]))(view, 0))
                             + "\n"))
    return turns, out.getvalue().splitlines(), logged


def test_blank_lines_between_turns_are_skipped():
    s = reset(2, rng=9)
    text = format_start(2) + "\n" + format_turn(s, 0) + "\n\n" + format_turn(s, 0) + "\n"
    turns, answers, logged = run_client(text)
    assert turns == 2 and logged == [] and len(answers) == 2


def test_an_own_position_off_the_grid_is_one_line_and_a_legal_answer():
    s = reset(2, rng=9)
    lines = format_turn(s, 0).splitlines(True)
    text = format_start(2) + lines[0] + "50 5 1\n" + "".join(lines[2:]) + format_turn(s, 0)
    turns, answers, logged = run_client(text)
    assert logged == ["tronlab bot: bad input: turn line 2 of 23: your own position (50, 5) is "
                      "off the 35x20 grid; skipping the rest of the turn, then answering 34 5"]
    assert turns == 1 and answers == ["34 5", "%d %d" % s.positions[0]]   # back in step


def test_a_bad_line_is_reported_when_it_is_read():
    stream = io.StringIO("1\nfoo\n" + "never read\n")
    client = CaptureClient(stream, io.StringIO())
    with pytest.raises(ValueError, match="line 1 of 23: .*gameRound must be a whole number, "
                                         "got 'foo'") as err:
        client.read_turn()
    assert err.value.remaining == 22 and stream.readline() == "never read\n"
    turns, answers, logged = run_client("1\nfoo\n")
    assert turns == 0 and answers == [] and len(logged) == 1 and "'foo'" in logged[0]


def test_an_opponent_off_the_grid_is_refused():
    with pytest.raises(ValueError, match=r"position of opponent 1 \(3, 0\) is off the 3x3"):
        parse_turn(["1", "0 0 1", "3 0 1", "...", "...", "..."], 2, width=3, height=3)
