"""The tronlab command, run as a real program (``python -m tronlab``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tronlab.runner.registry import bot_names, get_bot
from tronlab.runner.engine import play
from tronlab.tron.mapgen import builtin_maps, load_builtin
from tronlab.tron.maps import load_map
from tronlab.tron.protocol import google2010_state
from tronlab.runner.records import GameRecord

PY = sys.executable


def tronlab(*args, stdin="", timeout=120):
    return subprocess.run([PY, "-m", "tronlab", *map(str, args)], input=stdin, text=True,
                          capture_output=True, timeout=timeout)


def cmd_bot(name, protocol, seed=1):
    return f"cmd:{PY} -m tronlab bot {name} --protocol {protocol} --seed {seed}"


# ---- match --------------------------------------------------------------------------

def test_match_json_between_registered_bots_is_the_engine_result():
    r = tronlab("match", "--rules", "google2010", "--map", "arena", "random", "hugger",
                "--seed", 4, "--json")
    assert r.returncode == 0 and r.stderr == ""
    data = json.loads(r.stdout)   # exactly one JSON object on stdout
    assert data["names"] == ["random", "hugger"] and data["rules"] == "google2010"
    assert data["winner"] in (0, 1, None) and len(data["deaths"]) == 2
    assert data["ranking"] and data["turns"] >= 1
    # the same game played directly (the CLI draws the game seed from --seed)
    rng = np.random.default_rng(4)
    game_seed = int(rng.integers(2**63))
    rec = play(load_map("arena"), [get_bot("random"), get_bot("hugger")], rng=game_seed)
    assert data["winner"] == rec.outcome.winner
    assert data["turns"] == rec.outcome.turns
    assert data["deaths"] == rec.outcome.deaths
    assert data["final"] == rec.replay().to_ascii().split("\n")


def test_match_registered_bot_against_external_program(tmp_path):
    save = tmp_path / "game.json"
    r = tronlab("match", "--map", "open-field", "hugger", cmd_bot("random", "google2010"),
                "--seed", 2, "--json", "--save", save)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["names"][0] == "hugger" and data["names"][1].startswith("cmd:")
    assert all(d in (None, "wall", "trail", "head-on", "swap") for d in data["deaths"])
    rec = GameRecord.load(save)
    rec.verify()
    assert rec.outcome.winner == data["winner"] and rec.outcome.turns == data["turns"]


def test_match_text_output_shows_board_and_result():
    r = tronlab("match", "--map", "arena", "hugger", "hugger", "--seed", 1)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == ("google2010 on arena (15x15), 2 players; clock: none from the game "
                        "(each bot keeps its own time)")
    board = lines[1:16]
    assert all(len(row) == 15 for row in board) and board[0] == "#" * 15
    assert sum(row.count("a") for row in board) >= 1 and sum(row.count("b") for row in board) >= 1
    assert lines[16].startswith("after ") and ("wins" in lines[16] or "draw" in lines[16])
    assert lines[17].startswith("  player 0 [1/a] hugger: ")
    assert lines[18].startswith("  player 1 [2/b] hugger: ")


def test_match_codingame_three_players_and_lightriders_defaults():
    r = tronlab("match", "--rules", "codingame", "random", "hugger",
                cmd_bot("random", "codingame"), "--seed", 3, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert len(data["deaths"]) == 3 and len(data["final"]) == 20 and len(data["final"][0]) == 30
    assert data["winner"] in (0, 1, 2)           # codingame cannot draw
    r = tronlab("match", "--rules", "lightriders", cmd_bot("hugger", "lightriders"), "random",
                "--seed", 3, "--json", "--time", "2")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert len(data["final"]) == 16 and data["turns"] >= 1


# ---- listings -----------------------------------------------------------------------

def test_maps_lists_builtin_maps_with_sizes():
    r = tronlab("maps")
    assert r.returncode == 0
    rows = [line.split() for line in r.stdout.splitlines()]
    assert [row[0] for row in rows] == builtin_maps()
    for name, size in rows:
        b = load_builtin(name)
        assert size == f"{b.width}x{b.height}"


def test_bots_lists_registered_bots():
    r = tronlab("bots")
    assert r.returncode == 0
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert names == bot_names() and {"random", "hugger"} <= set(names)


def test_console_script_is_the_same_command():
    script = Path(PY).parent / "tronlab"
    if not script.exists():
        pytest.skip("the tronlab console script is not installed next to this Python")
    r = subprocess.run([str(script), "maps"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout == tronlab("maps").stdout


# ---- bot: a tronlab bot as a contest program ----------------------------------------

def test_bot_answers_one_line_per_turn():
    board = load_builtin("arena")
    r = tronlab("bot", "hugger", "--protocol", "google2010", stdin=google2010_state(board, 1) * 3)
    assert r.returncode == 0 and r.stderr == ""
    answers = r.stdout.splitlines()
    assert len(answers) == 3 and set(answers) <= {"1", "2", "3", "4"}


def test_bot_verbose_logs_on_stderr_only():
    board = load_builtin("arena")
    r = tronlab("bot", "random", "--protocol", "google2010", "--verbose", "--seed", 5,
                stdin=google2010_state(board, 0))
    assert r.returncode == 0
    assert len(r.stdout.splitlines()) == 1
    assert "turn 1: player 0 answers" in r.stderr     # turns count from 1


def test_bot_verbose_prints_search_statistics():
    board = load_builtin("arena")
    r = tronlab("bot", "minimax", "--protocol", "google2010", "--verbose", "--time", "0.2",
                stdin=google2010_state(board, 0))
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 1
    stats = r.stderr.split(" search: ", 1)[1].splitlines()[0]
    fields = dict(item.split("=", 1) for item in stats.split() if "=" in item)
    assert int(fields["depth"]) >= 1 and int(fields["nodes"]) > 0
    assert float(fields["time"]) < 0.2


def _stats(stderr):
    line = stderr.split(" search: ", 1)[1].splitlines()[0]
    return dict(item.split("=", 1) for item in line.split() if "=" in item)


def test_bot_takes_options_as_match_does():
    # it used to refuse them: "tronlab bot takes a bot's name without options"
    board = load_builtin("arena")
    r = tronlab("bot", "chamber+depth=2", "--protocol", "google2010", "--verbose", "--time",
                "0.5", stdin=google2010_state(board, 0))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() in [[str(m + 1)] for m in board.legal_moves(0)]   # 1 N 2 E 3 S 4 W
    stats = _stats(r.stderr)
    assert stats["mode"] == "search" and stats["depth"] == "2", stats


def test_a_wrong_bot_option_is_refused_before_any_input_is_read(tmp_path):
    """One line naming the option, exit 2, no answer - also without the ahead-of-time
    module and on an empty numba cache, where the check must not compile the bot."""
    env = dict(os.environ, TRONLAB_AOT="0", NUMBA_CACHE_DIR=str(tmp_path))
    state = google2010_state(load_builtin("arena"), 0) * 3
    for spec, message in [("chamber+dpth=2", "bot 'chamber+dpth=2': chamber has no option "
                                             "'dpth'"),
                          ("chamber+depth=0", "depth must be a positive int"),
                          ("chamber+time=-1", "time must be a positive number")]:
        r = subprocess.run([PY, "-m", "tronlab", "bot", spec, "--protocol", "google2010"],
                           input=state, text=True, capture_output=True, timeout=30, env=env)
        assert r.returncode == 2 and r.stdout == "", (spec, r)
        assert r.stderr.count("\n") == 1 and message in r.stderr, (spec, r.stderr)


# ---- errors: one line on stderr, exit code 2 ----------------------------------------

RAGGED = "5 3\n#####\n#1 2\n#####\n"


@pytest.mark.parametrize("args,message", [
    ([], "choose a command"),
    (["dance"], "invalid choice: 'dance'"),
    (["match", "--map", "no/such/map.txt", "random", "random"], "no such map file"),
    (["match", "--map", "{ragged}", "random", "random"], "ragged rows"),
    (["match", "--map", "arena", "random", "chess-master"], "unknown bot 'chess-master'"),
    (["match", "random", "random", "--time", "-1"], "positive number of seconds"),
    (["match", "random", "random", "--time", "soon"], "expected a number of seconds"),
    (["match", "random", "random", "--colour", "red"], "unrecognized arguments: --colour"),
    (["match", "--rules", "chess", "random", "random"], "invalid choice: 'chess'"),
    (["match", "random", "random", "random"], "the map has 2 players but 3 bots"),
    (["match", "--rules", "codingame", "random", "random", "random", "random", "random"],
     "codingame is for 2 to 4 players"),
    (["match", "random", "cmd:./no-such-bot --fast"], "program not found: './no-such-bot'"),
    (["match", "random", "cmd:python3 'unbalanced"], "cannot read the command"),
    (["match", "random", "random", "--save", "no/such/dir/game.json"], "cannot save the record"),
    (["match", "random", "random", "--max-turns", "-3"],
     "argument --max-turns: expected a whole number of turns, 1 or more, got '-3'"),
    (["match", "random", "random", "--max-turns", "0"],      # not a game of no turns, a 'draw'
     "argument --max-turns: expected a whole number of turns, 1 or more, got '0'"),
    (["bot", "chess-master", "--protocol", "google2010"], "unknown bot 'chess-master'"),
    (["bot", "random"], "the following arguments are required: --protocol"),
    (["bot", "random", "--protocol", "tron"], "invalid choice: 'tron'"),
    (["bot", "hugger+speed=3", "--protocol", "codingame"], "hugger has no option 'speed'"),
    (["bot", "chamber+depth", "--protocol", "google2010"], "'depth' in 'chamber+depth' is not"),
    (["bot", "py:mybot.py", "--protocol", "google2010"], "tronlab bot runs a registered bot"),
])
def test_errors_are_one_line_and_exit_2(tmp_path, args, message):
    ragged = tmp_path / "ragged.txt"
    ragged.write_text(RAGGED)
    args = [a.replace("{ragged}", str(ragged)) for a in args]
    r = tronlab(*args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert r.stderr.endswith("\n") and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("tronlab: error: ")
    assert message in r.stderr
    assert r.stdout == ""


def test_match_plays_a_students_py_file_as_the_arena_does(tmp_path):
    """A teacher tries one student's ``move(board, player)`` file before the contest."""
    ann = tmp_path / "ann.py"
    ann.write_text("def move(board, player):\n    moves = list(board.legal_moves(player))\n"
                   "    return moves[0] if moves else 0\n")
    r = tronlab("match", "hugger", f"py:{ann}", "--seed", 2, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["names"] == ["hugger", "ann"] and data["turns"] > 1
    broken = tmp_path / "bob.py"
    broken.write_text("def move(board, player)\n    return 0\n")
    r = tronlab("match", "hugger", f"py:{broken}")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "bob.py:1: SyntaxError" in r.stderr and "Traceback" not in r.stderr
    r = tronlab("match", "--rules", "backtothecode", "nearest", f"py:{ann}")
    assert r.returncode == 2 and "py: bots play the Tron games" in r.stderr


@pytest.mark.parametrize("how", ["module", "script"])
def test_a_bot_program_runs_numpy_with_one_blas_thread(how):
    """``tronlab bot`` (either way it is started) asks for one BLAS thread before numpy
    loads (tronlab.runner.startup); a value the user set is kept."""
    board = load_builtin("arena")
    script = Path(sys.executable).with_name("tronlab")
    if how == "script" and not script.exists():
        pytest.skip("the tronlab console script is not installed beside this python")
    cmd = ([sys.executable, "-m", "tronlab"] if how == "module" else [str(script)])
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS",
                                                            "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    for preset, shown in ((None, "1"), ("2", "2")):
        if preset:
            env["OPENBLAS_NUM_THREADS"] = preset
        r = subprocess.run([*cmd, "bot", "random", "--protocol", "google2010", "--verbose"],
                           input=google2010_state(board, 0), capture_output=True, text=True,
                           timeout=120, env=env)
        assert r.returncode == 0, r.stderr
        assert f"tronlab bot random: BLAS threads {shown}" in r.stderr


@pytest.mark.parametrize("rules, spec, other", [
    ("google2010", "minimax+depth=1+time=60", "hugger"),
    ("backtothecode", "paths+max_nodes=2000", "nearest"),
])
def test_match_takes_bot_options_as_the_arena_does(rules, spec, other):
    # before: 'unknown bot' for any NAME+key=value, which the arena and notebook 05 use
    r = tronlab("match", "--rules", rules, spec, other, "--seed", 3, "--max-turns", 30, "--json")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert json.loads(r.stdout)["names"] == [spec, other]


@pytest.mark.parametrize("rules, spec, words", [
    ("google2010", "chamber+depth=-2", "bot 'chamber+depth=-2': depth must be a positive int"),
    ("google2010", "chamber+bogus=1", "bot 'chamber+bogus=1': chamber has no option 'bogus'"),
    ("backtothecode", "paths+max_nodes=0", "bot 'paths+max_nodes=0': max_nodes must be"),
    ("backtothecode", "paths+nodes", "bot option 'nodes' in 'paths+nodes' is not key=value"),
])
def test_match_names_a_bad_bot_option_in_one_line(rules, spec, words):
    other = "hugger" if rules == "google2010" else "nearest"
    r = tronlab("match", "--rules", rules, spec, other)
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert r.stderr.count("\n") == 1 and words in r.stderr, r.stderr


def test_match_gives_a_program_time_to_start_under_a_short_time(tmp_path):
    """``--time 0.1`` made a program's first move 0.27 s (3x, shortened), less than
    starting Python and tronlab takes, so every py: bot 'timed out' at turn 1; the
    first move now gets the arena's start-up floor, as the help says."""
    ann = tmp_path / "ann.py"     # loads a table first: 0.6 s
    ann.write_text("import time\ntime.sleep(0.6)\n\n\n"
                   "def move(board, player):\n    moves = list(board.legal_moves(player))\n"
                   "    return moves[0] if moves else 0\n")
    r = tronlab("match", "hugger", f"py:{ann}", "--seed", 2, "--time", "0.1", "--json",
                "--max-turns", "3")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["turns"] == 3, data
    assert "timeout" not in r.stdout, r.stdout


def test_match_says_the_clock_it_played_under():
    """The text and the JSON say the game's clock (a limit a move, a bank or none)."""
    r = tronlab("match", "hugger", "hugger", "--seed", 1, "--time", "0.1")
    assert r.stdout.splitlines()[0].endswith("; clock: 0.1 s a move, 0.3 s the first")
    r = tronlab("match", "hugger", "hugger", "--seed", 1, "--time", "0.1", "--json")
    clock = json.loads(r.stdout)["clock"]       # not 0.30000000000000004
    assert clock == {"time_limit": 0.1, "first_time_limit": 0.3, "time_bank": None}, clock
    r = tronlab("match", "--rules", "lightriders", "hugger", "hugger", "--seed", 1,
                "--bank", "2", "--json")
    clock = json.loads(r.stdout)["clock"]
    assert clock == {"time_limit": None, "first_time_limit": None, "time_bank": [2.0, 0.2]}


def test_match_text_counts_one_turn_in_words():
    # a program that crashed at once read "after 1 turns: player 1 (hugger) wins"
    from tronlab import Board
    from tronlab.cli.match import match_text

    boxed = Board.from_ascii("""
        #####
        #1#2#
        #####
    """)
    record = play(boxed, [get_bot("hugger"), get_bot("hugger")], rng=1)
    assert record.outcome.turns == 1
    assert "\nafter 1 turn: draw between players 0, 1\n" in match_text(record, "box")


def test_match_json_names_a_fault_that_was_not_the_death():
    # under Light Riders a faulty bot is shut down and goes straight: it dies later of
    # something else.  The text said 'error on turn 2, then it kept going straight'; the
    # JSON only the later death, so a program's timeout was invisible there
    from tronlab import get_bot, lightriders_board, play
    from tronlab.cli.match import match_summary

    def fails_on_turn_2(board, player, turns=[]):
        turns.append(1)
        if len(turns) == 2:
            raise RuntimeError("lost my way")
        return 1                # right, straight on for player 0

    record = play(lightriders_board(x=3, y=5), [fails_on_turn_2, get_bot("random")],
                  rules="lightriders", rng=1)
    data = json.loads(json.dumps(match_summary(record, "lightriders 16x16")))
    (fault,) = [f for f in data["faults"] if f is not None]
    assert data["faults"][0] == fault and fault["turn"] == 2 and fault["kind"] == "error"
    assert "lost my way" in fault["detail"] and data["deaths"][0] != "error"
