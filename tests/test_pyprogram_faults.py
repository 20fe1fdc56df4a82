"""A student's ``py:`` bot's mistakes in the student's terms, as an in-process bot's.

Before: an exception in ``move`` ended the program, recorded as "exited" ("the
bot's program ended: program exited with code 1 ..."), and under Light
Riders the bot was gone for the rest of the game, where an in-process bot that
raised is asked again next round; a ``move`` returning a non-move was
"bad-output" ("printed output that is not a move") though the student printed
nothing.  Now they are "error" and "illegal", as in process, and only a
program that really ends is "exited".
"""

from __future__ import annotations

import pytest

from tronlab import get_bot
from tronlab.arena.bots import make_bot
from tronlab.arena.pyprogram import load_bot
from tronlab.arena.store import Store
from tronlab.cli import main as tronlab_main
from tronlab.runner.engine import play
from tronlab.tron.mapgen import codingame_board, lightriders_board, load_builtin

RAISER = 'def move(board, player):\n    raise RuntimeError("oops")\n'

#: raises at its first and third move, plays its first legal move otherwise
ODD = """\
calls = []

def move(board, player):
    calls.append(1)
    if len(calls) in (1, 3):
        raise ValueError(f"call {len(calls)}")
    moves = board.legal_moves(player)
    return moves[0] if moves else 0
"""

FIRST = """\
def move(board, player):
    moves = board.legal_moves(player)
    return moves[0] if moves else 0
"""


class _InProcess:
    """The same file as an in-process bot: the engine calls its hooks itself."""

    def __init__(self, path):
        self.move, set_clock, start_game = load_bot(str(path))
        if set_clock is not None:
            self.set_clock = set_clock
        if start_game is not None:
            self.start_game = start_game

    def __call__(self, board, player):
        return self.move(board, player)


def _play(bot, rules, max_turns=None, limits=(2.0, 6.0)):
    boards = {"lightriders": lightriders_board(rng=1), "codingame": codingame_board(rng=1)}
    board = boards.get(rules) or load_builtin("arena")   # codingame: a board it is shown
    clock = ({"time_bank": (10.0, 1.0)} if rules == "lightriders" else
             {"time_limit": limits[0], "first_time_limit": limits[1]})
    return play(board, [bot, get_bot("hugger")], rules=rules, rng=3, max_turns=max_turns,
                **clock)


def _play_file(tmp_path, text, rules="google2010", max_turns=None, name="ann.py",
               limits=(2.0, 6.0)):
    """The file's game against the hugger, the engine's ``limits`` (a move's, the first
    move's) told to the file too."""
    path = tmp_path / name
    path.write_text(text)
    bot = make_bot(f"py:{path}", rules, limits=limits)
    try:
        return _play(bot, rules, max_turns, limits)
    finally:
        bot.close()


def _faults(record, player=0):
    return [(e["turn"], e["kind"], e["detail"]) for e in record.events
            if e["player"] == player and e["kind"] != "reverse"]


@pytest.mark.parametrize("rules", ["google2010", "codingame"])
def test_an_exception_in_move_is_an_error_naming_the_exception_and_the_line(tmp_path, rules):
    record = _play_file(tmp_path, RAISER, rules, name="raiser.py")
    assert record.outcome.deaths[0] == "error", record.events
    assert record.outcome.details[0] == ("turn 1: the bot raised an exception: move() raised "
                                         "RuntimeError: oops (raiser.py, line 2)")
    stderr = record.stderr[0]
    assert 'raise RuntimeError("oops")' in stderr and "RuntimeError: oops" in stderr
    assert "pyprogram" not in stderr                   # the student's frames only


def test_under_light_riders_a_py_bot_that_raised_is_asked_again_as_in_process(tmp_path):
    path = tmp_path / "ann.py"
    path.write_text(ODD)
    inproc = _play(_InProcess(path), "lightriders", max_turns=6)
    record = _play_file(tmp_path, ODD, "lightriders", max_turns=6)
    faults = _faults(record)
    assert [(t, k) for t, k, _ in faults] == [(1, "error"), (3, "error")], faults
    assert faults[1][2] == "move() raised ValueError: call 3 (ann.py, line 6)"
    assert [(t, k) for t, k, _ in _faults(inproc)] == [(1, "error"), (3, "error")]
    assert record.moves == inproc.moves and record.outcome.deaths == inproc.outcome.deaths


@pytest.mark.parametrize("hook", ["start_game", "set_clock"])
def test_an_exception_in_a_hook_costs_that_move_and_the_bot_plays_on(tmp_path, hook):
    """start_game fails once (the first move), set_clock at every move, as in process."""
    args = ("board, player, **options" if hook == "start_game"
            else "time_left, time_per_move")
    text = FIRST + f"\n\ndef {hook}({args}):\n    raise KeyError('{hook}')\n"
    path = tmp_path / "ann.py"
    path.write_text(text)
    inproc = _play(_InProcess(path), "lightriders", max_turns=3)
    record = _play_file(tmp_path, text, "lightriders", max_turns=3)
    faults = _faults(record)
    turns = [1] if hook == "start_game" else [1, 2, 3]
    assert [(t, k) for t, k, _ in faults] == [(t, "error") for t in turns], faults
    assert faults[0][2] == f"{hook}() raised KeyError: '{hook}' (ann.py, line 7)"
    assert [(t, k) for t, k, _ in _faults(inproc)] == [(t, "error") for t in turns]
    assert record.moves == inproc.moves


def test_sys_exit_in_move_ends_the_program_and_says_so(tmp_path):
    text = "import sys\n\ndef move(board, player):\n    sys.exit(3)\n"
    record = _play_file(tmp_path, text, "lightriders", max_turns=3)
    faults = _faults(record)
    assert [k for _, k, _ in faults] == ["exited"] * 3, faults
    # said of the student's file, not of 'the external program'
    assert faults[0][2] == "ann.py: move() called sys.exit(3), which ends the bot (return a " \
                           "move instead)", faults


def test_exit_in_move_names_the_file_and_exit(tmp_path):
    text = "def move(board, player):\n    exit()\n"
    record = _play_file(tmp_path, text, name="quitter.py")
    assert record.outcome.details[0] == (
        "turn 1: the bot's program ended: quitter.py: move() called exit() or sys.exit(), "
        "which ends the bot (return a move instead)")


def test_exit_while_loading_names_the_file_and_exit(tmp_path):
    # before: "the program running leaver.py exited with code 1 (last stderr line:
    # 'SystemExit: 2')", where an exit in move() is said in the file's terms
    record = _play_file(tmp_path, "import sys\nsys.exit(2)\n" + FIRST, name="leaver.py")
    assert record.outcome.details[0] == (
        "turn 1: the bot's program ended: leaver.py: loading it called sys.exit(2), which "
        "ends the bot")


def test_a_py_program_that_ends_otherwise_is_said_of_the_file(tmp_path):
    text = "import os\n\ndef move(board, player):\n    os._exit(4)\n"
    record = _play_file(tmp_path, text, name="hard.py")
    assert record.outcome.details[0] == (
        "turn 1: the bot's program ended: the program running hard.py exited with code 4")


def test_the_table_the_replay_and_the_page_tell_a_students_mistakes(tmp_path, capsys):
    """The class contest of a bot returning "sideways" and one raising RuntimeError."""
    (tmp_path / "bad_ret.py").write_text('def move(board, player):\n    return "sideways"\n')
    (tmp_path / "raiser.py").write_text(RAISER)
    db, page = str(tmp_path / "c.sqlite"), str(tmp_path / "c.html")
    code = tronlab_main(["arena", "run", "--no-progress", "--bots",
                         f"py:{tmp_path / 'bad_ret.py'}", f"py:{tmp_path / 'raiser.py'}",
                         "--maps", "random:1", "--time", "0.5", "--db", db, "--html", page])
    out = capsys.readouterr().out
    assert code == 0
    # each bot's count, then what it did in that first game
    assert ("\n  bad_ret: illegal in 2 games (first in game 1)\n"
            "    game 1: illegal on turn 1: move() returned 'sideways'") in out
    assert ("\n  raiser: error in 2 games (first in game 1)\n"
            "    game 1: error on turn 1: move() raised RuntimeError: oops "
            "(raiser.py, line 2)\n") in out
    with Store(db) as store:
        game = store.rows()[0]["id"]
    assert tronlab_main(["arena", "replay", db, str(game)]) == 0
    replay = capsys.readouterr().out
    assert ("died (error) turn 1: the bot raised an exception: move() raised RuntimeError: "
            "oops (raiser.py, line 2)") in replay
    assert ("died (illegal) turn 1: returned something that is not a move: move() returned "
            "'sideways'; return 0-3 (0 up") in replay
    with open(page, encoding="utf-8") as f:
        text = f.read()
    faults = text[text.index("<h2>Faults</h2>"):text.index("<h2>Games</h2>")]
    assert "<td>raiser</td><td>error in 2 games</td>" in faults
    assert "error on turn 1: move() raised RuntimeError: oops (raiser.py, line 2)" in faults
    assert "<td>bad_ret</td><td>illegal in 2 games</td>" in faults
    assert "exited" not in out + replay + faults and "bad-output" not in out + replay + faults


def test_a_file_still_busy_at_its_first_move_is_not_told_to_flush_its_stdout(tmp_path):
    # before: 'no answer within 0.9 s ..., nothing on stdout yet (too slow, or did it print
    # without flushing?)', the hint for a contest program; a py: file prints no answers (the
    # arena does), so the student was sent looking for a print when a test loop left at the
    # top level of the file never let it reach its first move
    text = FIRST + "\nimport time\nwhile True:      # a test loop left in\n    time.sleep(1)\n"
    record = _play_file(tmp_path, text, name="ivy.py", limits=(0.2, 1.0))
    (turn, kind, detail), = _faults(record)
    assert (turn, kind) == (1, "timeout")
    assert "flush" not in detail and "print" not in detail, detail
    assert detail.startswith("no answer within 0.9 s"), detail
    assert "top level of the file" in detail and "first move()" in detail, detail


def test_input_in_a_py_bot_is_told_that_there_is_nothing_to_read(tmp_path):
    # before: 'move() raised EOFError: EOF when reading a line (pause.py, line 2)', and
    # loading a file that asks for a name at the top level the same, which does not say why
    # an input() the student typed into happily at home found nothing
    text = 'def move(board, player):\n    input("press enter")\n    return 0\n'
    record = _play_file(tmp_path, text, name="pause.py")
    (_, kind, detail), = _faults(record)
    assert kind == "error" and detail.startswith("move() raised EOFError"), detail
    assert "input() has nothing to read" in detail and detail.endswith("(pause.py, line 2)")
    path = tmp_path / "hal.py"
    path.write_text('name = input("your name? ")\n\n' + FIRST)
    from tronlab.arena.pycheck import load_problems
    said, = load_problems([str(path)], timeout=20).values()     # --check, its own process
    assert "EOFError" in said and "input() has nothing to read" in said, said


def test_exit_in_start_game_after_a_print_names_the_file_and_the_hook(tmp_path):
    # the stderr's last line is the hook's: a print before it (sent to stderr) is not read;
    # and the hint to return a move is for move() alone
    text = ("def start_game(board, player, **kw):\n    print('hello')\n    exit()\n\n"
            "def move(board, player):\n    return 0\n")
    record = _play_file(tmp_path, text, name="early.py")
    assert record.outcome.details[0] == (
        "turn 1: the bot's program ended: early.py: start_game() called exit() or "
        "sys.exit(), which ends the bot"), record.outcome.details


def test_a_file_that_answered_and_then_hung_is_not_told_it_never_started(tmp_path):
    text = (FIRST + "\nimport time\n_turns = []\n\ndef move(board, player):\n"
            "    _turns.append(1)\n    if len(_turns) > 1:\n        time.sleep(30)\n"
            "    moves = board.legal_moves(player)\n    return moves[0] if moves else 0\n")
    record = _play_file(tmp_path, text, name="hang.py", limits=(0.2, 3.0))
    (turn, kind, detail), = _faults(record)
    assert (turn, kind) == (2, "timeout"), (turn, kind, detail)
    assert "first move()" not in detail and "top level" not in detail, detail


#: plays each py: file of its arguments on a small board; prints the file's fault, then
#: what the arena's load check says of the first file
_KILLED_GAMES = """
import sys
from tronlab.arena.bots import make_bot
from tronlab.arena.pycheck import load_problems
from tronlab.runner.engine import play
from tronlab.tron.board import Board
for path in sys.argv[1:]:
    bot = make_bot("py:" + path, "google2010", limits=(2.0, 6.0))
    try:
        board = Board.from_ascii("1......\\n.......\\n......2")
        print(play(board, [bot, lambda b, p: b.legal_moves(p)[0]], time_limit=2.0,
                   first_time_limit=6.0).outcome.details[0])
    finally:
        bot.close()
print(*load_problems(sys.argv[1:2], 30.0).values())
"""


def test_a_file_that_kills_its_parent_ends_its_own_bot_not_the_match(tmp_path):
    """os.kill(os.getppid(), 9) in a py: file, at import or in move(), killed the process
    that ran the game: ``tronlab match`` died with no word (exit -9), an arena run died on
    the same game at each rerun.  The program now runs the file in a child of its own, so
    the kill hits only that program's waiting parent, and the child dies with it (had it
    lived on, its next getppid() was the nearest subreaper: the arena).  (A subprocess
    here: without the fix the kill would end pytest.)"""
    import subprocess
    import sys

    paths = []
    for where, text in (("import", "import os, time\nos.kill(os.getppid(), 9)\n"
                                   "time.sleep(1)\n" + FIRST),
                        ("move", "import os, time\ndef move(board, player):\n"
                                 "    os.kill(os.getppid(), 9)\n    time.sleep(1)\n"
                                 "    return 'down'\n")):
        paths.append(tmp_path / f"killer_{where}.py")
        paths[-1].write_text(text)
    out = subprocess.run([sys.executable, "-c", _KILLED_GAMES, *map(str, paths)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, (out.returncode, out.stderr)
    # each file sleeps after its kill: the parent's death ends the bot before it answers
    # (Linux kills the child once the parent's exit is done; a child that went straight on
    # could load, read turn 1 and answer first, and die at turn 2)
    *games, check = out.stdout.splitlines()
    for where, line in zip(("import", "move"), games, strict=True):
        assert line == (f"turn 1: the bot's program ended: the program running "
                        f"killer_{where}.py was killed by signal SIGKILL"), line
    # the arena's load check before a tournament: the file is left out, saying why
    assert check == (f"{paths[0]}: loading the py: bot ended its process: it was killed by "
                     f"signal SIGKILL")
