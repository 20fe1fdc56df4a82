"""``tronlab match --rules backtothecode`` and ``tronlab bot NAME --protocol
backtothecode``, run as real programs."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tronlab.capture import reset, step
from tronlab.capture.game import play_capture
from tronlab.capture.protocol import format_start, format_turn
from tronlab.runner.registry import get_bot

PY = sys.executable
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}


def tronlab(*args, stdin="", timeout=180, cwd=None):
    return subprocess.run([PY, "-m", "tronlab", *map(str, args)], input=stdin, text=True,
                          capture_output=True, timeout=timeout, env=ENV, cwd=cwd)


def same_game(names, seed, **options):
    rng = np.random.default_rng(seed)
    bots = [get_bot(n, game="backtothecode", rng=int(rng.integers(2**63))) for n in names]
    return play_capture(bots, rng=rng, **options)


def test_match_json_is_the_game_played_directly():
    r = tronlab("match", "--rules", "backtothecode", "nearest", "random", "random",
                "--seed", 4, "--json")
    assert r.returncode == 0 and r.stderr == ""
    data = json.loads(r.stdout)
    rec = same_game(["nearest", "random", "random"], 4)
    assert data["scores"] == rec.outcome["scores"] and data["ranks"] == rec.outcome["ranks"]
    assert data["final"] == rec.final and len(data["final"]) == 20
    assert data["reason"] == rec.outcome["reason"] and data["names"][0] == "nearest"
    assert data["ranking"][0] == [data["ranks"].index(1)] or len(data["ranking"][0]) > 1
    assert sorted(p for group in data["ranking"] for p in group) == [0, 1, 2]


def test_match_text_shows_the_grid_scores_and_ranking(tmp_path):
    save = tmp_path / "game.json"
    r = tronlab("match", "--rules", "backtothecode", "random", "nearest", "--seed", 2,
                "--max-turns", 60, "--save", save)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    rec = same_game(["random", "nearest"], 2, round_limit=60)
    assert lines[0] == ("backtothecode 35x20, 2 players, ended after round 60 (round-limit)")
    assert lines[1:21] == rec.final
    first = min(range(2), key=lambda p: (rec.outcome["ranks"][p], p))
    name = ["random", "nearest"][first]
    assert lines[21] == (f"  rank {rec.outcome['ranks'][first]}: player {first} {name} "
                         f"{rec.outcome['scores'][first]} squares")
    assert json.loads(save.read_text())["format"] == "tronlab-capture"


def test_match_of_four_with_an_outside_program_and_an_elimination():
    prog = f"cmd:{PY} -m tronlab bot nearest --protocol backtothecode --seed 1"
    crash = f"cmd:{PY} -c 'import sys; sys.exit(4)'"
    r = tronlab("match", "--rules", "backtothecode", "nearest", prog, "random", crash,
                "--seed", 9, "--json", "--time", 5)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["eliminated"] == {"3": [1, "exited", "the program exited with code 4"]}
    assert data["scores"][3] == 1 and len(data["ranks"]) == 4


def test_match_text_says_what_an_eliminated_program_did():
    garbage = f"cmd:{PY} -c 'input(); [input() for _ in range(23)]; print(\"hello world\")'"
    crash = f"cmd:{PY} -c 'raise SystemExit(\"no map for you\")'"
    r = tronlab("match", "--rules", "backtothecode", "random", garbage, crash, "--seed", 3,
                "--max-turns", 5)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    bad = next(line for line in lines if "player 1 " in line)
    assert bad.endswith("eliminated in round 1 (bad-output: cannot read 'hello world': "
                        "expected 'x y [message]' or 'BACK n' (stdout carries the answers "
                        "only, one line a turn: write anything else to stderr))"), bad
    gone = next(line for line in lines if "player 2 " in line)
    assert gone.endswith("eliminated in round 1 (exited: the program exited with code 1 "
                         "(last stderr line: 'no map for you'))"), gone


def test_match_time_gives_the_first_turn_three_times_as_long():
    from tronlab.capture.cli import make_player
    assert make_player("cmd:true").first_time_limit == 1.0            # the contest's
    assert make_player("cmd:true", 0.1).first_time_limit == 1.0       # never below it
    longer = make_player("cmd:true", 2.0)
    assert (longer.first_time_limit, longer.time_limit) == (6.0, 2.0)   # not 1 s, then 2 s


def test_match_errors_are_one_line(tmp_path):
    folder = tmp_path
    for name, mode in (("mute.py", 0o644), ("talk.py", 0o755)):
        (folder / name).write_text("#!/usr/bin/env python3\n")
        (folder / name).chmod(mode)
    for args, text in [(["nearest"], "2 to 4 players, got 1"),
                       (["nearest"] * 5, "2 to 4 players, got 5"),
                       (["nearest", "nearest", "--map", "arena"], "--map does not apply"),
                       (["nearest", "clever"], "unknown bot 'clever'"),
                       (["nearest", "cmd:/no/such/bot"], "program not found"),
                       (["nearest", "cmd:./mute.py"], "./mute.py is not executable: chmod +x"),
                       (["nearest", "cmd:talk.py"], "write cmd:./talk.py or cmd:python3 talk.py")]:
        r = tronlab("match", "--rules", "backtothecode", *args, cwd=folder)
        assert r.returncode == 2 and r.stderr.startswith("tronlab: error:"), r.stderr
        assert text in r.stderr and len(r.stderr.splitlines()) == 1


def test_bots_lists_the_capture_bots():
    r = tronlab("bots", "--game", "backtothecode")
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert {"random", "random-back", "nearest"} <= set(names)


def test_bot_answers_every_turn_as_the_in_process_bot_does():
    state = reset(3, rng=5)
    text = format_start(3)
    bot = get_bot("nearest", game="backtothecode")
    want = []
    for _ in range(3):
        text += format_turn(state, 1)
        view = state.view()
        want.append("%d %d" % bot(view, 1))
        state = step(state, [(0, 0), tuple(map(int, want[-1].split())), (34, 19)]).state
    r = tronlab("bot", "nearest", "--protocol", "backtothecode", stdin=text)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.splitlines() == want


def test_bot_takes_options_as_match_does():
    # tronlab bot used to refuse NAME+key=value ("options ... are for tronlab match")
    state = reset(2, rng=4)
    text = format_start(2) + format_turn(state, 1) * 2
    r = tronlab("bot", "paths+max_nodes=2000", "--protocol", "backtothecode", stdin=text)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    answers = [tuple(map(int, line.split())) for line in r.stdout.splitlines()]
    assert len(answers) == 2 and all(0 <= x < 35 and 0 <= y < 20 for x, y in answers)


def test_bot_reports_a_broken_turn_in_one_line_and_answers_on_the_grid():
    state = reset(2, rng=9)
    lines = format_turn(state, 0).splitlines(True)
    text = format_start(2) + "\n" + lines[0] + "50 5 1\n" + "".join(lines[2:]) + "\n"
    r = tronlab("bot", "paths", "--protocol", "backtothecode", stdin=text + format_turn(state, 0))
    assert r.returncode == 0
    assert r.stderr.splitlines() == ["tronlab bot: bad input: turn line 2 of 23: your own "
                                     "position (50, 5) is off the 35x20 grid; skipping the "
                                     "rest of the turn, then answering 34 5"]
    answers = r.stdout.splitlines()
    assert len(answers) == 2 and answers[0] == "34 5"


def test_bot_input_that_ends_on_a_broken_turn_exits_with_code_2():
    # as the Tron protocols' contest programs do; it used to exit with 0
    state = reset(2, rng=9)
    lines = format_turn(state, 0).splitlines(True)
    text = format_start(2) + lines[0] + "50 5 1\n" + "".join(lines[2:])
    r = tronlab("bot", "nearest", "--protocol", "backtothecode", stdin=text)
    assert r.returncode == 2 and r.stdout == "34 5\n"
    assert r.stderr.splitlines()[1:] == ["tronlab: error: the backtothecode input ended on a "
                                         "broken turn (see the line above); 1 turn was "
                                         "answered"]


def test_bot_refuses_a_thinking_time_it_would_not_use():
    r = tronlab("bot", "nearest", "--protocol", "backtothecode", "--time", "0.5")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("tronlab: error: --time: the backtothecode bots keep to")
    assert len(r.stderr.splitlines()) == 1


def test_bot_plays_a_grid_of_another_size_it_is_told_and_names_the_option_when_not():
    # before: the input never gives the grid's size, so a program on a 12x8 arena map read
    # its rows as 35 wide, skipped into the next turn and waited for lines never sent (a
    # timeout in the arena), and tronlab bot had no way to be told the size
    state = reset(2, rng=3, width=12, height=8)
    bot = get_bot("nearest", game="backtothecode")
    text, want = format_start(2), []
    for _ in range(2):
        text += format_turn(state, 1)
        want.append("%d %d" % bot(state.view(), 1))
        state = step(state, [(0, 0), tuple(map(int, want[-1].split()))]).state
    r = tronlab("bot", "nearest", "--protocol", "backtothecode", "--width", 12, "--height", 8,
                stdin=text)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.splitlines() == want
    r = tronlab("bot", "nearest", "--protocol", "backtothecode", stdin=text)
    assert r.returncode == 2
    assert ("grid row 0 has 12 characters, not 35 (another grid size? the input never gives "
            "it: start the program with --width 12 --height H)") in r.stderr, r.stderr
    r = tronlab("bot", "chamber", "--protocol", "google2010", "--width", 12)
    assert r.returncode == 2 and r.stderr.startswith("tronlab: error: --width/--height are for "
                                                     "--protocol backtothecode"), r.stderr
    r = tronlab("bot", "nearest", "--protocol", "backtothecode", "--width", 0)
    assert r.returncode == 2 and "the grid is 1 to 100 squares a side" in r.stderr, r.stderr


def test_a_program_on_a_cold_cache_says_so_once_and_the_next_start_is_quiet(tmp_path,
                                                                            monkeypatch):
    # the rectangle and path bots answer with B2's nearest-neutral rule while a background
    # thread compiles their kernels: on a cold numba cache tens of seconds, much of a game,
    # and the program said nothing of it (the Tron programs say so in one line)
    import io
    import threading

    from tronlab.capture.cli import COLD_HINT, run_program

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))     # holds the warm marker

    class Loading:                      # a Warmup whose thread has finished
        thread, done, error = threading.Thread(target=lambda: None), True, None

        def begin(self):
            pass

    class Bot:
        warmup = None

        def prepare_for_protocol(self):
            self.warmup = Loading()

        def __call__(self, view, player):
            return view.positions[0]

    turn = "1\n" + format_turn(reset(2, rng=1), 0)
    said = []
    for _ in range(2):
        err = io.StringIO()
        assert run_program(Bot(), stdin=io.StringIO(turn), stdout=io.StringIO(),
                           stderr=err) == 1
        said.append(err.getvalue())
    assert said == [COLD_HINT + "\n", ""]


def test_the_kernels_begin_loading_only_once_the_first_answer_is_written(monkeypatch):
    # numba's import and compiler hold the GIL most of the time: a load that ran beside
    # the first turn slowed the fallback's answer (benchmarks/coldstart.py: 0.34-0.46 s
    # from the start instead of 0.27 s)
    import io
    import threading

    from tronlab.capture import warmup as warmup_module
    from tronlab.capture.cli import run_program
    from tronlab.capture.rects_bot import RectangleBot
    from tronlab.jit import aot

    out, began, written = io.StringIO(), threading.Event(), []

    def load():                         # stands in for compiling every kernel
        written.append(out.getvalue())
        began.set()

    monkeypatch.setattr(aot, "loaded_names", lambda: ())     # no twins: a thread loads
    monkeypatch.setattr(warmup_module, "run_every_kernel", load)
    monkeypatch.setattr(warmup_module, "BEGIN_BY", 60.0, raising=False)    # only begin()

    class Bot(RectangleBot):
        def __call__(self, view, player):
            began.wait(0.2)             # time for a load that does not wait to begin
            return super().__call__(view, player)

    bot = Bot()
    turn = "1\n" + format_turn(reset(2, rng=1), 0)
    assert run_program(bot, stdin=io.StringIO(turn), stdout=out, stderr=io.StringIO()) == 1
    bot.warmup.thread.join(5)
    assert bot.warmup.done and out.getvalue().count("\n") == 1
    assert written == [out.getvalue()]  # the load began after the first answer, not before


def test_a_grid_far_beyond_the_contests_35x20_is_refused_before_any_game(capsys):
    # 1000x1000 was let through: 7.5 s to draw the starts, 0.5 s a turn to write and read
    # its text, 0.24 s for the nearest-neutral rule, so every program timed out at 100 ms
    from tronlab.arena.maps import expand_maps
    from tronlab.capture.state import make_config
    from tronlab.cli import main as tronlab_main

    with pytest.raises(ValueError, match=r"a 1000x1000 grid is larger than this package plays "
                                         r"\(100x100 at most; the contest's is 35x20\)"):
        make_config(2, width=1000, height=1000)
    with pytest.raises(ValueError, match="101x20 grid is larger"):
        make_config(4, width=101, height=20)
    assert make_config(2, width=100, height=100).width == 100
    with pytest.raises(ValueError, match="random maps are 2x2 to 100x100"):
        expand_maps("backtothecode", "random:1:1000x1000")
    assert tronlab_main(["bot", "paths", "--protocol", "backtothecode",
                         "--width", "1000", "--height", "1000"]) == 2
    err = capsys.readouterr().err
    assert err == ("tronlab: error: --width/--height: the grid is 1 to 100 squares a side "
                   "(the contest's is 35x20), got 1000x1000\n"), err


@pytest.mark.parametrize("built", [False, True])
def test_kernels_that_fail_to_load_are_said_once_and_the_game_goes_on(monkeypatch, built):
    # the rectangle and path bots stay on the nearest-neutral rule when their kernels do
    # not load, and nothing said so: a whole game of B2 with no word on stderr
    import io

    from tronlab.capture import warmup as warmup_module
    from tronlab.capture.cli import load_failed, run_program
    from tronlab.capture.rects_bot import RectangleBot
    from tronlab.jit import aot

    def broken():
        raise RuntimeError("no LLVM here")

    monkeypatch.setattr(aot, "loaded_names", lambda: ["scan_kernel"] if built else [])
    monkeypatch.setattr(warmup_module, "run_every_kernel", broken)

    class Bot(RectangleBot):
        asked = 0

        def __call__(self, view, player):
            self.asked += 1
            if self.asked > 1:
                self.warmup.ready.wait(5)   # the load has failed before the next answer
            return super().__call__(view, player)

    turns = "1\n" + "".join(format_turn(reset(2, rng=1), 0) for _ in range(3))
    err, out = io.StringIO(), io.StringIO()
    assert run_program(Bot(), stdin=io.StringIO(turns), stdout=out, stderr=err) == 3
    said = load_failed(RuntimeError("no LLVM here"))
    assert "no LLVM here" in said and err.getvalue().count(said) == 1, err.getvalue()
