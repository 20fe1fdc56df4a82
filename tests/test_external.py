"""ExternalBot with real subprocesses: whole games through the three protocols,
misbehaving programs, time banks, and no process left behind.

The main oracle: a tronlab bot run as a contest program (``python -m tronlab bot``)
behind ExternalBot must play move for move the same game as the same bot, with
the same seed, called in-process - the protocol may lose nothing the bot uses.
"""

import contextlib
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from tronlab.tron.board import Board
from tronlab.runner.registry import get_bot
from tronlab.runner.engine import BotFault, play
from tronlab.runner.external import STDERR_CAP, ExternalBot
from tronlab.runner.stderrsink import STDERR_TAIL
from tronlab.tron.mapgen import codingame_board, lightriders_board, load_builtin
from tronlab.tron.rules import FAULTS

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")

FIXTURES = Path(__file__).parent / "fixtures"
PY = sys.executable

DUEL = """
#########
#1......#
#.......#
#..#.#..#
#.......#
#......2#
#########
"""


def tronlab_bot(name, protocol, seed):
    return [PY, "-m", "tronlab", "bot", name, "--protocol", protocol, "--seed", str(seed)]


def fixture(name, *args):
    return [PY, str(FIXTURES / name), *map(str, args)]


def gone(pid: int) -> bool:
    """True when process ``pid`` no longer runs (a zombie awaiting its reaper counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def wait_gone(pids, seconds=3.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end and not all(gone(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if not gone(p)]


def faults_of(record, player):
    return [e for e in record.events if e["player"] == player and e["kind"] in FAULTS]


# ---- whole games through the protocols ----------------------------------------------

@pytest.mark.parametrize("protocol", ["google2010", "codingame", "lightriders"])
def test_protocol_games_match_in_process_games(protocol):
    if protocol == "google2010":
        board = Board.from_ascii(DUEL)
        specs = [("random", 11), ("hugger", 12)]
    elif protocol == "codingame":
        board = codingame_board(3, rng=np.random.default_rng(5))
        specs = [("random", 21), ("hugger", 22), ("random", 23)]
    else:
        board = lightriders_board(rng=np.random.default_rng(6))
        specs = [("random", 31), ("random", 32)]
    external = [ExternalBot(tronlab_bot(n, protocol, s), protocol=protocol,
                            time_limit=1.0, first_time_limit=10.0) for n, s in specs]
    inproc = [get_bot(n, rng=np.random.default_rng(s)) for n, s in specs]
    rec_ext = play(board, external, rules=protocol, rng=1)
    rec_in = play(board, inproc, rules=protocol, rng=1)
    for p in range(board.n_players):
        assert faults_of(rec_ext, p) == [], rec_ext.events
    assert rec_ext.moves == rec_in.moves
    assert rec_ext.outcome.to_dict() == rec_in.outcome.to_dict()
    assert rec_ext.outcome.turns >= 2
    rec_ext.verify()
    assert all(b.pid is None for b in external)


def test_two_tronlab_programs_play_google2010_on_a_builtin_map():
    board = load_builtin("open-field")
    bots = [ExternalBot(tronlab_bot("hugger", "google2010", 1), name="hugger-a"),
            ExternalBot(tronlab_bot("random", "google2010", 2), name="random-b")]
    rec = play(board, bots, rules="google2010", rng=3)
    assert rec.metadata["names"] == ["hugger-a", "random-b"]
    assert rec.outcome.turns > 1
    assert not faults_of(rec, 0) and not faults_of(rec, 1)
    assert set(rec.outcome.deaths) <= {None, "wall", "trail", "head-on", "swap"}


# ---- misbehaving programs -----------------------------------------------------------

def duel(program, *, rules="google2010", **limits):
    board = Board.from_ascii(DUEL) if rules == "google2010" else lightriders_board(x=2, y=7)
    bot = ExternalBot(program, protocol=rules, **limits)
    t0 = time.monotonic()
    rec = play(board, [bot, get_bot("hugger")], rules=rules, rng=0, max_turns=30)
    return rec, time.monotonic() - t0


def test_sleeper_times_out():
    rec, seconds = duel(fixture("sleeper.py"), time_limit=0.2, first_time_limit=0.6)
    assert rec.outcome.deaths[0] == "timeout" and rec.outcome.winner == 1
    assert "0.6 s" in rec.outcome.details[0]
    assert seconds < 5


def test_sleeper_times_out_under_the_engine_limit_too():
    bot = ExternalBot(fixture("sleeper.py"))
    rec = play(Board.from_ascii(DUEL), [bot, get_bot("hugger")], rng=0, time_limit=0.2)
    assert rec.outcome.deaths[0] == "timeout"
    assert rec.outcome.turns == 1


@pytest.mark.parametrize("maker", ["ExternalBot", "arena"])
def test_a_timeout_under_the_engine_limit_names_that_limit(maker):
    # 'tronlab match --time 0.2' said "no answer within 0.18 s": a number the user never gave
    from tronlab.arena.bots import make_bot

    args = fixture("slowpoke.py", "google2010", 60, 1)
    bot = (ExternalBot(args) if maker == "ExternalBot" else
           make_bot("cmd:" + " ".join(args), "google2010", limits=(0.2, 20.0)))
    board = Board.from_ascii(DUEL.replace("1", "x").replace("2", "1").replace("x", "2"))
    rec = play(board, [bot, get_bot("hugger")], rng=0, time_limit=0.2, first_time_limit=20.0)
    assert rec.outcome.deaths[0] == "timeout"
    assert rec.outcome.details[0] == (
        "turn 2: ran out of time: no answer within 0.18 s (nine tenths of the game's 0.2 s "
        "limit, so the program's clock runs out first and can say what it wrote)")


def test_crasher_exits_with_its_code_and_stderr():
    rec, _ = duel(fixture("crasher.py"))
    assert rec.outcome.deaths[0] == "exited"
    assert "exited with code 3" in rec.outcome.details[0]
    assert "giving up on purpose" in rec.outcome.details[0]
    assert "giving up on purpose" in rec.stderr[0]


def test_a_crash_names_its_last_stderr_line_even_when_stderr_is_read_late(monkeypatch):
    """The program can end before the thread keeping its stderr has read its last line
    (a busy machine: 23 of 300 crashes under load said no stderr line): the fault waits
    for stderr to end, as it waits for the exit code."""
    from tronlab.runner import program
    read = program.StderrSink.run

    def late(self, stream):
        time.sleep(0.3)
        read(self, stream)
    monkeypatch.setattr(program.StderrSink, "run", late)
    rec, _ = duel(fixture("crasher.py"))
    assert rec.outcome.details[0].endswith(
        "program exited with code 3 (last stderr line: 'crasher: giving up on purpose')")


def test_waiting_for_the_end_of_stderr_keeps_to_the_moves_clock(tmp_path):
    """A child the program left behind holds its stderr open, so stderr never ends: the
    fault is still "exited" with the last line, told within the move's 0.5 s (not after a
    whole second of waiting, which the engine's clock would call a timeout)."""
    quits = tmp_path / "quits.py"
    quits.write_text(textwrap.dedent("""\
        import subprocess, sys
        w, h = map(int, sys.stdin.readline().split())
        for _ in range(h):
            sys.stdin.readline()
        print(1, flush=True)
        sys.stdin.readline()
        subprocess.Popen(["sleep", "30"])       # inherits stdout and stderr
        sys.exit("bye")
        """))
    bot = ExternalBot([PY, str(quits)], time_limit=0.5, first_time_limit=30)
    board = Board.from_ascii(DUEL)
    try:
        bot(board, 0)
        t0 = time.monotonic()
        with pytest.raises(BotFault) as fault:
            bot(board, 0)
        seconds = time.monotonic() - t0
    finally:
        bot.close()
    assert fault.value.reason == "exited"
    assert str(fault.value) == "program exited with code 1 (last stderr line: 'bye')"
    assert seconds < 0.9


def test_a_program_that_closes_its_output_is_told_so_within_the_moves_clock(tmp_path):
    """A program that closes stdout and runs on: exit_detail waited a whole second for its
    exit code, past the move's limit, so the engine called it a timeout ('no answer within
    0.3 s') rather than 'program closed its output'."""
    closes = tmp_path / "closes.py"
    closes.write_text(textwrap.dedent("""\
        import os, sys, time
        w, h = map(int, sys.stdin.readline().split())
        for _ in range(h):
            sys.stdin.readline()
        print(2, flush=True)
        sys.stdin.readline()
        os.close(1)
        time.sleep(30)
        """))
    bot = ExternalBot([PY, str(closes)])
    try:
        rec = play(Board.from_ascii(DUEL), [bot, get_bot("hugger")], rng=0, time_limit=0.3,
                   first_time_limit=20.0)
    finally:
        bot.close()
    assert rec.outcome.deaths[0] == "exited", rec.outcome.details
    assert rec.outcome.details[0] == ("turn 2: the bot's program ended: program closed "
                                      "its output")


def test_garbage_is_bad_output_quoted_and_cut_short():
    rec, _ = duel(fixture("garbage.py"))
    assert rec.outcome.deaths[0] == "bad-output"
    detail = rec.outcome.details[0]
    assert "'jump over the wall please" in detail and "characters)" in detail
    assert len(detail) < 300
    assert "not a move: expected a digit" in detail, detail    # not "bad output: " again


def test_an_answer_cut_at_the_line_cap_is_said_to_be_longer_not_counted():
    """Before: "got 'xxx...'... (4096 characters)" of a 10,000-character answer, the
    length of what was kept given as the line's."""
    rec, _ = duel([PY, "-c", "import sys\nfor _ in sys.stdin: print('x' * 10000, flush=True)"],
                  first_time_limit=20.0)
    assert rec.outcome.deaths[0] == "bad-output"
    assert "... (a line longer than 4096 bytes, cut there) (stdout carries the answers" in \
        rec.outcome.details[0], rec.outcome.details[0]


def test_missing_program_is_exited_not_a_crash():
    rec, _ = duel([str(FIXTURES / "no-such-program")])
    assert rec.outcome.deaths[0] == "exited"
    assert "could not start" in rec.outcome.details[0]


def test_garbage_under_lightriders_goes_straight_and_is_recorded():
    rec, _ = duel(fixture("garbage.py"), rules="lightriders")
    kinds = [e["kind"] for e in rec.events if e["player"] == 0]
    assert kinds and set(kinds) == {"bad-output"}
    # every move was replaced by "straight on": player 0 rode right from (2, 7)
    assert rec.outcome.deaths[0] in ("wall", "edge", "trail", "head-on", "swap")
    assert len(kinds) == rec.outcome.turns
    final = rec.replay()
    assert all(final.at(x, 7) != 0 for x in range(2, 2 + rec.outcome.turns))


def test_noisy_stderr_is_capped():
    rec, _ = duel(fixture("noisy.py"), time_limit=0.2, first_time_limit=1.0)
    assert rec.outcome.deaths[0] == "timeout"
    text = rec.stderr[0]
    assert text.startswith("noise 00000 ") and text.endswith("noise 01999 " + "x" * 90 + "\n")
    assert len(text.encode()) < STDERR_CAP + STDERR_TAIL + 200
    assert "bytes of stderr dropped" in text


def test_lightriders_time_bank():
    board = lightriders_board(x=3, y=3)
    # bank 2 s, +0.02 s a move; the first answer is quick, every later one takes
    # 0.25 s: far over the 0.02 s increment, so only the bank pays for them
    bot = ExternalBot(fixture("slowpoke.py", "lightriders", 0.25, 1), protocol="lightriders",
                      time_limit=0.02, first_time_limit=2.0)
    bot.start_game(board, 0)
    try:
        answered = 0
        for _ in range(12):
            try:
                assert bot(board, 0) == "pass"
            except BotFault as err:
                assert err.reason == "timeout"
                break
            answered += 1
        assert 4 <= answered <= 10  # about 8: 2 s less start-up time, 0.23 s a move
        t0 = time.monotonic()
        with pytest.raises(BotFault):  # the bank is empty now: 0.02 s is not enough
            bot(board, 0)
        assert time.monotonic() - t0 < 0.5
        time.sleep(0.3)
    finally:
        bot.close()
    banks = [int(x) for x in bot.stderr_text().split()]
    assert banks[0] == 2000                       # the full bank, capped
    assert all(a > b for a, b in zip(banks[1:], banks[2:]))  # spent faster than refilled
    assert banks[-1] < 250


def test_late_answers_are_not_taken_for_the_next_turn():
    board = Board.from_ascii(DUEL)
    bot = ExternalBot(fixture("slowpoke.py", "google2010", 0.4, 1), time_limit=0.15)
    bot.start_game(board, 0)
    try:
        assert bot(board, 0) == 0            # first turn answered at once
        with pytest.raises(BotFault):        # second answer comes 0.4 s late
            bot(board, 0)
        time.sleep(1.0)                      # ...and is waiting in the pipe now
        with pytest.raises(BotFault):        # it must not count as the third answer
            bot(board, 0)
    finally:
        bot.close()


def test_what_a_lightriders_program_is_told_under_an_engine_limit():
    # the program echoes its input on stderr: the settings (with the turn limit), the rounds
    # counted from 0 and, with no clock of its own, the engine's limit less 10% a move as
    # its bank, each move, the first too (its clock allows three times that, as the engine
    # does, for starting up: told as a bank it planned from it; tests/test_lightriders_limit)
    board = lightriders_board(x=3, y=3)
    bot = ExternalBot([PY, str(FIXTURES / "lr_echo.py")], protocol="lightriders")
    bot.start_game(board, 0, rules="lightriders", time_limit=2.0, max_turns=7)
    try:
        assert [bot(board, 0) for _ in range(3)] == [0, 0, 0]
    finally:
        bot.close()
    lines = bot.stderr_text().splitlines()
    assert "settings max_rounds 7" in lines and "settings timebank 1800" in lines
    assert "settings time_per_move 1800" in lines
    assert [x for x in lines if x.startswith("update game round")] == [
        "update game round 0", "update game round 1", "update game round 2"]
    assert [x for x in lines if x.startswith("action move")] == ["action move 1800"] * 3


@contextlib.contextmanager
def chatty(mode, **limits):
    """tests/fixtures/chatty.py in ``mode`` as a started Light Riders bot, closed after."""
    bot = ExternalBot(fixture("chatty.py", mode), protocol="lightriders", **limits)
    bot.start_game(lightriders_board(x=3, y=3), 0)
    try:
        yield bot
    finally:
        bot.close()


def test_an_answer_to_an_earlier_turn_is_not_this_turns_answer():
    # no timing involved: the program withholds turn 1's answer until turn 2 is asked,
    # then prints "up" (turn 1's, late) and "left" (turn 2's); only "left" answers turn 2.
    # The first turn times out by design; the second waits as long as the program needs to
    # start on a loaded machine, and returns as soon as "left" arrives
    board = lightriders_board(x=3, y=3)
    with chatty("late", time_limit=5.0, first_time_limit=0.3) as bot:
        with pytest.raises(BotFault) as err:
            bot(board, 0)
        assert err.value.reason == "timeout"
        assert bot(board, 0) == 3                # left, not the late up
        assert bot(board, 0) == 3


def test_a_second_answer_to_one_turn_is_bad_output():
    board = lightriders_board(x=3, y=3)
    with chatty("twice", time_limit=5.0, first_time_limit=5.0) as bot:
        assert bot(board, 0) == 0
        time.sleep(0.5)                          # the second "up" is waiting in the pipe now
        with pytest.raises(BotFault, match="printed without being asked") as err:
            bot(board, 0)
        assert err.value.reason == "bad-output"


# ---- cleaning up --------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["sleep", "exit"])
def test_no_process_outlives_the_game(tmp_path, mode):
    pidfile = tmp_path / "pids"
    rec, _ = duel(fixture("spawner.py", pidfile, mode), time_limit=0.2, first_time_limit=1.5)
    assert rec.outcome.deaths[0] == ("timeout" if mode == "sleep" else "exited")
    pids = [int(x) for x in pidfile.read_text().split()]
    assert len(pids) == 2
    assert wait_gone(pids) == []


def test_close_twice_and_restart_for_a_new_game(tmp_path):
    board = Board.from_ascii(DUEL)
    bot = ExternalBot(fixture("slowpoke.py", "google2010", 0))
    bot.start_game(board, 0)
    first = bot.pid
    assert bot(board, 0) == 0
    bot.start_game(board, 0)             # a new game: a new process
    second = bot.pid
    assert second != first and wait_gone([first]) == []
    assert bot(board, 0) == 0
    bot.close()
    bot.close()
    assert bot.pid is None and wait_gone([second]) == []


def test_interpreter_exit_kills_the_program_group(tmp_path):
    pidfile = tmp_path / "pids"
    script = textwrap.dedent(f"""
        import os, sys, time
        from tronlab.tron.board import Board
        from tronlab.runner.external import ExternalBot
        bot = ExternalBot({fixture("spawner.py", pidfile, "sleep")!r})
        bot.start_game(Board.from_ascii({DUEL!r}), 0)
        for _ in range(200):
            if os.path.exists({str(pidfile)!r}):
                break
            time.sleep(0.05)
        sys.exit(0)   # no close(): the finalizer must clean up
    """)
    subprocess.run([PY, "-c", script], check=True, timeout=60)
    pids = [int(x) for x in pidfile.read_text().split()]
    assert len(pids) == 2 and wait_gone(pids) == []


# ---- arguments ----------------------------------------------------------------------

def test_bad_arguments():
    with pytest.raises(TypeError, match="command must be"):
        ExternalBot(42)
    with pytest.raises(ValueError, match="command is empty"):
        ExternalBot("  ")
    with pytest.raises(ValueError, match="unknown protocol"):
        ExternalBot("x", protocol="tron")
    with pytest.raises(ValueError, match="time_limit must be a positive"):
        ExternalBot("x", time_limit=0)
    with pytest.raises(ValueError, match="first_time_limit must be a positive"):
        ExternalBot("x", first_time_limit=True)
    bot = ExternalBot("python3 'my bot.py' --fast")
    assert bot.args == ["python3", "my bot.py", "--fast"] and bot.name == "python3"


def test_protocol_must_match_the_rules():
    bot = ExternalBot(fixture("slowpoke.py", "google2010", 0))   # speaks google2010
    rec = play(lightriders_board(x=2, y=7), [bot, get_bot("hugger")], rules="lightriders",
               rng=0, max_turns=2)
    faults = faults_of(rec, 0)
    assert len(faults) == 2
    assert all(f["kind"] == "error" and "speaks the google2010 protocol" in f["detail"]
               for f in faults)
    assert bot.pid is None


# ---- what a timeout says -------------------------------------------------------------

@contextlib.contextmanager
def unfinished(mode, word, protocol="google2010", **limits):
    """tests/fixtures/unfinished.py as a started bot, once it wrote ``word`` (as ``mode``
    says) and before it is asked anything, so the turn's limit can be short."""
    bot = ExternalBot(fixture("unfinished.py", mode, word), protocol=protocol, **limits)
    board = Board.from_ascii(DUEL) if protocol == "google2010" else lightriders_board(x=3, y=3)
    bot.start_game(board, 0)
    try:
        end = time.monotonic() + 30
        while "ready" not in bot.stderr_text() and time.monotonic() < end:
            time.sleep(0.02)
        yield bot, board
    finally:
        bot.close()


def test_a_timeout_names_an_answer_written_without_its_newline():
    # print("1", end="", flush=True): the commonest first-program mistake gets a message
    # that says what was seen and what to do, not just "no answer"
    with unfinished("partial", "1", first_time_limit=0.3) as (bot, board):
        with pytest.raises(BotFault) as err:
            bot(board, 0)
    assert err.value.reason == "timeout"
    assert err.value.detail == ("no complete answer line within 0.3 s: it wrote '1' without a "
                                "newline (end each answer with \\n and flush stdout)")


def test_a_lightriders_timeout_names_the_unfinished_answer_every_turn():
    with unfinished("partial", "up", "lightriders", first_time_limit=0.3,
                    time_limit=0.1) as (bot, board):
        for within in ("0.300", "0.100"):     # the second turn: the bank is spent
            with pytest.raises(BotFault) as err:
                bot(board, 0)
            assert err.value.reason == "timeout"
            assert err.value.detail.startswith(f"no complete answer line within its time bank "
                                               f"of {within} s: it "
                                               f"wrote 'up' without a newline")


def test_a_silent_program_is_asked_whether_it_flushed():
    # the answer sits in the program's own buffer: nothing reached the pipe all game
    with unfinished("unflushed", "1", first_time_limit=0.3) as (bot, board):
        with pytest.raises(BotFault) as err:
            bot(board, 0)
    # its last stderr line follows: a program that printed nothing may have said why there
    assert err.value.detail == ("no answer within 0.3 s, nothing on stdout yet (too slow, or "
                                "did it print without flushing?) (last stderr line: 'ready')")


def test_a_program_that_answered_before_is_only_told_it_was_slow():
    # it flushed its first answer: a later timeout must not hint at flushing
    board = Board.from_ascii(DUEL)
    bot = ExternalBot(fixture("slowpoke.py", "google2010", 60, 1), time_limit=0.2,
                      first_time_limit=20.0)
    bot.start_game(board, 0)
    try:
        assert bot(board, 0) == 0
        with pytest.raises(BotFault) as err:
            bot(board, 0)
    finally:
        bot.close()
    assert err.value.detail == "no answer within 0.2 s"


def test_a_debug_line_on_stdout_is_named_as_such_and_the_next_answer_explained():
    """A program that logs to stdout: its debug line is read as the answer, and its real
    answer then as a line nobody asked for.  Before, neither fault said why (the second
    quoted a good 'up' as unasked); now the first says stdout is for answers only and
    the second that the line before it was taken for an answer."""
    board = lightriders_board(x=3, y=3)
    with chatty("debug", time_limit=5.0, first_time_limit=5.0) as bot:
        details = []
        for _ in range(2):
            with pytest.raises(BotFault) as err:
                bot(board, 0)
            assert err.value.reason == "bad-output"
            details.append(err.value.detail)
            time.sleep(0.5)                  # turn 1's "up" is waiting in the pipe now
    assert details[0] == ("expected up, right, down, left or pass, got 'thinking' (stdout "
                          "carries the answers only, one line a turn: write anything else "
                          "to stderr)")
    assert details[1] == ("'up' printed without being asked: 'thinking' was read as turn 1's "
                          "answer, so this line came one too many (stdout carries the answers "
                          "only, one line a turn: write anything else to stderr)")


SLOW_START_CODINGAME = """
import sys, time
time.sleep(1.5)                 # imports, a JIT, a busy machine
for line in sys.stdin:
    n, me = map(int, line.split())
    heads = [sys.stdin.readline().split() for _ in range(n)]
    x, y = int(heads[me][2]), int(heads[me][3])
    print("DOWN" if y < 19 else "RIGHT", flush=True)
"""


@pytest.mark.parametrize("seat", [0, 1])
def test_starting_up_is_not_the_first_moves_thinking(tmp_path, seat):
    # with no engine clock a program keeps the contest's: 1 s for the first CodinGame move.
    # That second included starting the program, and both programs start at start_game,
    # so the seat asked first paid its start-up and the other started up for free while
    # waiting: two copies of `tronlab bot chamber` on a busy machine, seat 0 always died
    # at turn 1. The clock now starts once the program has read the turn (it is up)
    path = tmp_path / "slow_start_cg.py"
    path.write_text(SLOW_START_CODINGAME)
    bots = [get_bot("hugger"), get_bot("hugger")]
    bots[seat] = ExternalBot([PY, str(path)], protocol="codingame")
    rec = play(codingame_board(2, rng=1), bots, rules="codingame", rng=0, max_turns=3)
    assert not faults_of(rec, seat), rec.events
