"""Outside contest programs in Back to the Code (tronlab.capture.external), with real
subprocesses: a tronlab bot run as a contest program plays whole games through the
external-program player; programs that crash, hang, print garbage or send a second
BACK are eliminated with the right reason, keep their squares, and leave nothing
running."""

import os
import sys
import textwrap
import time

import pytest

from tronlab.capture.ascii import parse_grid
from tronlab.capture.bots import NearestBot
from tronlab.capture.external import CaptureProgram, ProgramFault
from tronlab.capture.game import play_capture
from tronlab.capture.rules import ELIMINATIONS
from tronlab.capture.state import initial_state, make_config
from tronlab.runner.external import ANSWERS_ONLY

PY = sys.executable
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = {"PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
#: generous limits for the programs that behave: the machine may be busy, and a
#: python start-up can take more than the contest's 1000 ms there
SLOW = dict(first_time_limit=20.0, time_limit=5.0)

# a contest program that walks right along its row until round `after`, then misbehaves
PROGRAM = textwrap.dedent("""
    import sys, time, os
    mode, after = sys.argv[1], int(sys.argv[2])
    n = int(input()) + 1
    while True:
        rnd = int(input())
        x, y, backs = map(int, input().split())
        for _ in range(n - 1 + 20):
            input()
        if rnd >= after:
            if mode == "crash":
                raise SystemExit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "garbage":
                print("go left!", flush=True)
                continue
            if mode == "back":
                print("back 2", flush=True)
                continue
            if mode == "long":                      # an answer with a 9,000-byte message
                print(f"34 {y}", "m" * 9000, flush=True)
                continue
            if mode == "chatty" and rnd == after:   # the answer, then a debug line
                print(f"34 {y}\\ndebug: I am at {x} {y}", flush=True)
                continue
            if mode == "child":
                os.system("sleep 60 &")
                time.sleep(60)
            if mode == "unfinished":      # print(..., end="", flush=True)
                print("34 5", end="", flush=True)
                time.sleep(60)
            if mode == "unflushed":       # print("34 5") block-buffered, never flushed
                out = os.fdopen(os.dup(1), "w", buffering=8192)
                out.write("34 5\\n")
                time.sleep(60)
        print(34 if y % 2 == 0 else 0, y, "hello", flush=True)
""")


def program(tmp_path, mode, after):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    return CaptureProgram([PY, str(path), mode, str(after)], **SLOW)


def tronlab_program(name, seed):
    return CaptureProgram([PY, "-m", "tronlab", "bot", name, "--protocol", "backtothecode",
                           "--seed", str(seed)], env=ENV, **SLOW)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:   # a zombie is dead too
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def in_session(sid):
    """Live (not zombie) processes of session ``sid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry))
    return found


def test_a_tronlab_bot_plays_a_whole_four_player_game_as_a_contest_program():
    """Seat 2 is ``python -m tronlab bot nearest --protocol backtothecode``: its game
    is exactly the game of the in-process nearest bot."""
    prog = tronlab_program("nearest", 1)
    rec = play_capture(["random", "nearest", prog, "random"], rng=11)
    same = play_capture(["random", "nearest", NearestBot(), "random"], rng=11)
    assert rec.outcome["reason"] in ("round-limit", "decided", "idle")
    assert rec.outcome["round"] > 100 and not rec.notes
    assert rec.actions == same.actions and rec.outcome == same.outcome
    assert prog.pid is None


def test_a_random_bot_as_a_program_uses_the_same_seeded_moves():
    prog = tronlab_program("random", 5)
    rec = play_capture([prog, "nearest"], rng=3, round_limit=40)
    from tronlab.runner.registry import get_bot
    same = play_capture([get_bot("random", game="capture", rng=5), "nearest"], rng=3,
                        round_limit=40)
    assert rec.actions == same.actions


@pytest.mark.parametrize("mode, reason", [
    ("crash", "exited"), ("hang", "timeout"), ("garbage", "bad-output"), ("back", "second-back"),
])
def test_a_misbehaving_program_is_eliminated_and_keeps_its_squares(tmp_path, mode, reason):
    prog = program(tmp_path, mode, 6)
    if mode == "hang":
        prog.time_limit = 1.0      # generous: only the hang should miss it
    if mode == "back":   # the first BACK is allowed: its second is the fault
        prog = program(tmp_path, mode, 6)
    t0 = time.monotonic()
    rec = play_capture([prog, "nearest", "random"], rng=8)
    out = [e for e in rec.events if e[2] == 0 and e[3] not in ("back",)]
    assert out[0][3] == reason, rec.events
    turn = out[0][0]
    if mode == "back":
        assert [e[3] for e in rec.events if e[2] == 0] == ["back", "second-back"]
    else:
        assert turn == 6
    if mode == "hang":   # it answered 5 turns: a slow program, not told it forgot to flush
        assert rec.notes[0][2] == "no answer within 1050 ms"
    # the squares it owned when it went out are still its own at the end
    before = rec.replay()[turn - 1]
    final = parse_grid("\n".join(rec.final)).owner
    assert before.scores()[0] > 1
    assert ((final == 0) == (before.owner == 0)).all() and rec.outcome["scores"][0] == \
        before.scores()[0]
    assert all(a[0] is None for a in rec.actions[turn:])
    assert prog.pid is None and time.monotonic() - t0 < 30


def test_the_note_says_why(tmp_path):
    rec = play_capture([program(tmp_path, "garbage", 2), "nearest"], rng=8)
    assert rec.notes == [[2, 0, "cannot read 'go left!': expected 'x y [message]' or 'BACK n' "
                                "(stdout carries the answers only, one line a turn: write "
                                "anything else to stderr)"]]
    rec = play_capture([program(tmp_path, "crash", 3), "nearest"], rng=8)
    assert rec.notes[0][:2] == [3, 0] and "exited with code 3" in rec.notes[0][2]


def test_a_line_printed_after_the_answer_is_bad_output_at_the_next_turn(tmp_path):
    """The contest's referee read such a line as the next turn's answer.  tronlab threw
    it away when it was queued by the next turn (else read it as that answer), so the
    program played on or not by chance."""
    rec = play_capture([program(tmp_path, "chatty", 4), "nearest"], rng=8)
    assert [e[1:4] for e in rec.events if e[2] == 0] == [[5, 0, "bad-output"]]
    x, y = rec.replay()[3].positions[0]      # where it stood when it printed the line
    [[turn, player, note]] = rec.notes
    # the line is found when the next turn is asked, or read as its answer (a race)
    assert note in (f"'debug: I am at {x} {y}' printed without being asked ({ANSWERS_ONLY})",
                    f"cannot read 'debug: I am at {x} {y}': expected 'x y [message]' or "
                    f"'BACK n' ({ANSWERS_ONLY})")


def test_a_line_waiting_when_the_next_turn_is_asked_is_named_as_tron_names_it(tmp_path):
    """Without the race of the game above: the debug line is in the pipe before the
    next turn, and the fault says so in the words the Tron runner uses."""
    state = initial_state(make_config(2), [(3, 4), (30, 15)])
    prog = program(tmp_path, "chatty", 1)
    try:
        assert prog(state.view(), 0) == (34, 4)
        time.sleep(0.5)                      # 'debug: I am at 3 4' is waiting now
        with pytest.raises(ProgramFault) as err:
            prog(state.view(), 0)
    finally:
        prog.close()
    assert err.value.reason == "bad-output"
    assert err.value.detail == f"'debug: I am at 3 4' printed without being asked ({ANSWERS_ONLY})"


def test_an_answer_with_a_long_message_is_one_answer(tmp_path):
    """A line is cut at 4096 bytes and the rest of it dropped.  Before, the rest was
    queued as lines of their own: the answer was read, then at the next turn its tail
    ('mmm...'... (808 characters) printed without being asked) eliminated the program."""
    state = initial_state(make_config(2), [(3, 4), (30, 15)])
    prog = program(tmp_path, "long", 1)
    try:
        for _ in range(2):
            assert prog(state.view(), 0) == (34, 4)
            assert prog.message == "m" * 100       # the contest's 100 characters
            time.sleep(0.2)                        # the whole line is in the pipe by now
    finally:
        prog.close()


def test_the_first_turn_has_its_own_limit(tmp_path):
    path = tmp_path / "slowstart.py"
    path.write_text("import time\ntime.sleep(60)\n")
    prog = CaptureProgram([PY, str(path)], first_time_limit=0.4)
    t0 = time.monotonic()
    rec = play_capture([prog, "nearest"], rng=1)
    assert rec.actions[0][0] == "timeout"
    assert rec.notes[0][2].startswith("no answer within 400 ms, nothing on stdout yet")
    assert time.monotonic() - t0 < 10


@pytest.mark.parametrize("mode, after, note", [
    ("unfinished", 3, "no complete answer line within 1050 ms: it wrote '34 5' without a "
                      "newline (end each answer with \\n and flush stdout)"),
    ("unflushed", 1, "no answer within 500 ms, nothing on stdout yet (too slow, or did it "
                     "print without flushing?)"),
])
def test_a_timeout_says_what_the_program_wrote(tmp_path, mode, after, note):
    """An answer without its newline is quoted; a program whose stdout got nothing all
    game is asked whether it flushed."""
    prog = program(tmp_path, mode, after)
    if mode == "unflushed":   # it times out whatever the machine's speed: no need to wait
        prog.first_time_limit = 0.5
    prog.time_limit = 1.0
    rec = play_capture([prog, "nearest"], rng=8)
    assert rec.actions[after - 1][0] == "timeout", rec.events
    assert rec.notes[0][2] == note


def test_default_limits_are_the_contests():
    prog = CaptureProgram("true")
    assert (prog.first_time_limit, prog.time_limit, prog.grace) == (1.0, 0.1, 0.05)
    with pytest.raises(ValueError, match="positive"):
        CaptureProgram("true", time_limit=0)
    with pytest.raises(TypeError, match="command must be a str or a list of str"):
        CaptureProgram(42)


def test_nothing_is_left_running_not_even_a_child(tmp_path):
    prog = program(tmp_path, "child", 3)
    prog.time_limit = 1.0
    pids = []
    orig = prog._start

    def start(n):
        orig(n)
        pids.append(prog.pid)
    prog._start = start
    rec = play_capture([prog, "nearest"], rng=2)
    assert rec.actions[2][0] == "timeout"
    assert pids and not alive(pids[0])
    for _ in range(50):     # the killed child may take a moment to be reaped
        if not in_session(pids[0]):
            break
        time.sleep(0.1)
    assert in_session(pids[0]) == []


def test_a_program_that_cannot_start_is_exited():
    rec = play_capture([CaptureProgram("/nonexistent/bot"), "nearest"], rng=2)
    assert rec.actions[0][0] == "exited" and "could not start" in rec.notes[0][2]


def test_play_capture_times_in_process_bots_only_when_asked():
    def slow(view, player):
        time.sleep(0.03 if view.round > 1 else 0)
        return (0, 0)

    rec = play_capture([slow, "nearest"], rng=1, width=8, height=5, time_limit=0.01)
    assert rec.actions[1][0] == "timeout" and "limit 10 ms" in rec.notes[0][2]
    rec = play_capture([slow, "nearest"], rng=1, width=8, height=5, round_limit=4)
    assert "timeout" not in rec.actions[1]


def test_a_fault_raised_by_any_bot_is_recorded_with_its_code():
    def bot(view, player):
        raise ProgramFault("timeout", "too slow")

    rec = play_capture([bot, "nearest"], rng=1, width=8, height=5)
    assert rec.actions[0][0] == "timeout" and rec.notes[0] == [1, 0, "too slow"]


def test_starting_up_is_not_the_first_turns_thinking(tmp_path):
    # the program reads the opponent count once it is up; the first turn's clock starts
    # then, as a Light Riders program's bank starts once it read its settings. Before,
    # the 1000 ms of the first turn included starting the program: `tronlab bot paths`
    # itself (1.5 s to start on a busy machine) was eliminated in round 1 by timeout
    path = tmp_path / "slowstart.py"
    path.write_text(textwrap.dedent("""
        import time
        time.sleep(1.5)     # imports, a JIT, a busy machine
        n = int(input()) + 1
        while True:
            for _ in range(1 + n + 20):
                input()
            print("0 0", flush=True)
    """))
    prog = CaptureProgram([PY, str(path)], first_time_limit=1.0, time_limit=1.0)
    rec = play_capture([prog, "nearest"], rng=1, round_limit=3)
    assert [e for e in rec.events if e[3] in ELIMINATIONS] == []
    assert len(prog.answer_seconds) == 3 and max(prog.answer_seconds) < 1.0
