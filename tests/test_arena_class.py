"""A class contest from a folder of student bots: what a teacher runs into.

Each test is one mistake or mishap from a real classroom: a broken file among
thirty, a student bot saved as ``random.py``, a resubmitted bot, a README with
its x bit, a bot that prints through ``os.system``, a Light Riders bot that
hangs, a map file with a typo, a results file on read-only media.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from tronlab.arena.bots import bot_files_hash, scan_bots_folder
from tronlab.arena.store import Store
from tronlab.cli import main as tronlab_main

GOOD = """\
import random

def move(board, player):
    moves = list(board.legal_moves(player))
    return random.choice(moves) if moves else 0
"""

LAST = """\
def move(board, player):
    moves = list(board.legal_moves(player))
    return moves[-1] if moves else 0
"""


def _folder(tmp_path, files, name="class"):
    folder = tmp_path / name
    folder.mkdir()
    for file, text in files.items():
        (folder / file).write_text(textwrap.dedent(text))
    return folder


def _run(args, capsys):
    # half a second a move (a timeout at 1 s): these games must not turn on a busy machine
    clock = [] if "--time" in args else ["--time", "0.5"]
    code = tronlab_main(["arena", "run", "--no-progress", *clock, *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_broken_files_are_left_out_with_their_reasons_and_the_others_play(tmp_path, capsys):
    folder = _folder(tmp_path, {
        "ann.py": GOOD, "bob.py": LAST,
        "carl.py": "import numpyy_not_there\n\ndef move(board, player):\n    return 0\n",
        "dora.py": "def move(board, player)\n    return 0\n",
        "emil.py": "open('weights.bin')\n\ndef move(board, player):\n    return 0\n",
    })
    db = tmp_path / "class.sqlite"
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(db)], capsys)
    assert code == 0, err
    assert "left out carl: " in out and "numpyy_not_there" in out
    assert "left out dora: " in out and "SyntaxError" in out
    assert "left out emil: " in out and "FileNotFoundError" in out and "weights.bin" in out
    assert "2 games planned" in out
    assert "left out, cannot play: carl, dora, emil" in out
    with Store(db) as store:
        assert {n for r in store.rows() for n in r["names"]} == {"ann", "bob"}


def test_a_broken_bot_named_on_the_command_line_is_still_an_error(tmp_path, capsys):
    bad = tmp_path / "carl.py"
    bad.write_text("open('weights.bin')\n\ndef move(board, player):\n    return 0\n")
    code, out, err = _run(["--bots", "random", f"py:{bad}", "--db", str(tmp_path / "x.sqlite")],
                          capsys)
    assert code == 2 and "weights.bin" in err and err.count("\n") == 1
    assert not (tmp_path / "x.sqlite").exists()


def test_a_folder_where_fewer_than_two_bots_can_play_is_one_error(tmp_path, capsys):
    folder = _folder(tmp_path, {"ann.py": GOOD, "dora.py": "def move(board, player)\n"})
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(tmp_path / "x.sqlite")],
                          capsys)
    assert code == 2 and "fewer than two bots can play (1 left out)" in err
    assert "left out dora" in out


def test_a_student_file_named_like_a_module_does_not_replace_it_for_the_others(tmp_path, capsys):
    # ann's bot uses random.choice; a classmate handed in random.py
    folder = _folder(tmp_path, {"ann.py": GOOD, "random.py": LAST})
    db = tmp_path / "class.sqlite"
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(db)], capsys)
    assert code == 0, err
    assert "faults (timeouts, crashes, bad output): none in 2 games" in out
    with Store(db) as store:
        assert all(f is None or f not in ("exited", "error") for r in store.rows()
                   for f in r["faults"])


def test_a_helper_module_beside_the_bots_still_imports(tmp_path, capsys):
    folder = _folder(tmp_path, {
        "ann.py": "from helpers import first\n\ndef move(board, player):\n"
                  "    return first(board.legal_moves(player))\n",
        "helpers.py": "def first(moves):\n    moves = list(moves)\n"
                      "    return moves[0] if moves else 0\n",
        "bob.py": LAST})
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(tmp_path / "h.sqlite")], capsys)
    assert code == 0, err
    assert "skipped helpers.py: no move(board, player) and reads no input" in out
    assert "none in 2 games" in out


def test_files_that_are_not_bots_are_skipped_and_named(tmp_path):
    folder = _folder(tmp_path, {
        "ann.py": GOOD,
        "helpers.py": "def first(moves):\n    return moves[0]\n",
        "README.txt": "the class contest\n",
        "notes.txt": "not executable\n",
        "prog.py": "import sys\nfor line in sys.stdin:\n    pass\n",
        "run.sh": "#!/bin/sh\nexec python3 prog.py\n",
        "_private.py": GOOD,
    })
    for name in ("README.txt", "run.sh"):
        os.chmod(folder / name, 0o755)
    found = scan_bots_folder(folder)
    assert [os.path.basename(s.split()[-1]) if s.startswith("cmd:") else os.path.basename(s)
            for s in found.specs] == ["ann.py", "prog.py", "run.sh"]
    assert found.specs[0].startswith("py:") and found.specs[1].startswith("cmd:")
    assert {os.path.basename(p): why[:20] for p, why in found.skipped} == {
        "README.txt": "executable but not a", "helpers.py": "no move(board, playe"}


def test_a_changed_bot_file_gets_its_games_played_again(tmp_path, capsys):
    folder = _folder(tmp_path, {"ann.py": GOOD, "bob.py": LAST, "cid.py": LAST})
    db = str(tmp_path / "class.sqlite")
    args = ["--bots-dir", str(folder), "--db", db]
    assert _run(args, capsys)[0] == 0
    assert "6 already in" in _run(args, capsys)[1]            # nothing changed: nothing to play
    before = bot_files_hash(f"py:{folder / 'ann.py'}")
    (folder / "ann.py").write_text(GOOD + "\n# second version\n")
    assert bot_files_hash(f"py:{folder / 'ann.py'}") != before
    out = _run(args, capsys)[1]
    assert "6 games planned, 2 already in" in out              # ann's 4 games again
    assert bot_files_hash("chamber") == ""                     # registered bots: keys unchanged


def test_a_py_bot_writing_to_file_descriptor_1_or_reading_stdin_is_not_faulted(tmp_path, capsys):
    folder = _folder(tmp_path, {
        "ann.py": "import os, sys\n\ndef move(board, player):\n"
                  "    os.system('echo thinking...')\n"
                  "    assert sys.stdin.readline() == ''\n"
                  "    moves = list(board.legal_moves(player))\n"
                  "    return moves[0] if moves else 0\n",
        "bob.py": LAST})
    db = tmp_path / "class.sqlite"
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(db)], capsys)
    assert code == 0, err
    assert "none in 2 games" in out
    with Store(db) as store:
        for row in store.rows():
            assert max(row["ranks"]) >= 0 and row["turns"] > 3


@pytest.mark.slow
def test_light_riders_faults_are_counted_though_the_bot_keeps_going_straight(tmp_path, capsys,
                                                                           monkeypatch):
    # the first-move floor must cover starting Python, or long.py's crash reads as a timeout:
    # 1 s did not under a load of 5 on Python 3.13 ("long: 3 exited, 1 timeout")
    monkeypatch.setenv("TRONLAB_PROGRAM_START", "3")
    folder = _folder(tmp_path, {
        "ann.py": LAST,
        "hang.py": "import time\n\ndef move(board, player):\n    time.sleep(60)\n",
        "long.py": "def move(board, player):\n"
                   "    raise RuntimeError('x' * 150 + ' THE-END')\n"})
    db = str(tmp_path / "lr.sqlite")
    # --give-up-after 0: every game of hang is played, each with its fault counted
    code, out, err = _run(["--game", "lightriders", "--maps", "random:1", "--time", "0.1",
                           "--give-up-after", "0", "--bots-dir", str(folder), "--db", db],
                          capsys)
    assert code == 0, err
    assert "faults in 6 games (" in out
    assert "hang: timeout in 4 games" in out and "long: error in 4 games" in out
    with Store(db) as store:
        row = next(r for r in store.rows() if r["names"] == ["ann", "long"])
    assert row["faults"] == [None, "error"]
    assert tronlab_main(["arena", "replay", db, str(row["id"])]) == 0
    text = capsys.readouterr().out
    assert "error on turn 1, then it kept going straight: move() raised RuntimeError: " in text
    assert "THE-END (long.py, line 2)" in text                 # the error, whole


def test_a_bad_map_in_a_folder_stops_the_run_before_any_game(tmp_path, capsys):
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "a_good.txt").write_text("5 4\n#####\n#1 2#\n#   #\n#####\n")
    (maps / "b_bad.txt").write_text("3 3\n###\n#1#\n")
    db = tmp_path / "m.sqlite"
    code, out, err = _run(["--bots", "random", "hugger", "--maps", str(maps), "--db", str(db)],
                          capsys)
    assert code == 2 and "b_bad.txt" in err and err.count("\n") == 1
    assert out == "" and not db.exists()


@pytest.mark.parametrize("args, message", [
    (["--game", "codingame", "--players", "3", "--bots", "random", "hugger", "filler",
      "--maps", "arena"], "map 'arena' has 2 players, the game 3"),
    (["--bots", "random", "hugger", "--html", "nofolder/board.html"], "--html nofolder/board.html"),
])
def test_plan_mistakes_are_found_before_the_database_is_made(tmp_path, capsys, args, message):
    db = tmp_path / "p.sqlite"
    code, out, err = _run([*args, "--db", str(db)], capsys)
    assert code == 2 and message in err and out == ""
    assert not db.exists()


def test_light_riders_on_a_map_file_gets_the_contest_facings(tmp_path, capsys):
    code, out, err = _run(["--game", "lightriders", "--bots", "random", "hugger", "--maps",
                           "spiral", "--db", str(tmp_path / "s.sqlite")], capsys)
    assert code == 0, err
    assert "2 games planned" in out


def test_a_results_file_is_read_without_changing_it(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    assert _run(["--bots", "random", "hugger", "--db", str(db)], capsys)[0] == 0
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "t.sqlite").write_bytes(db.read_bytes())
    before = (copy / "t.sqlite").read_bytes()
    with Store(copy / "t.sqlite", read_only=True) as store:
        assert len(store.rows()) == 2
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.conn.execute("DELETE FROM games")
    assert tronlab_main(["arena", "table", str(copy / "t.sqlite")]) == 0
    assert tronlab_main(["arena", "replay", str(copy / "t.sqlite"), "1"]) == 0
    assert (copy / "t.sqlite").read_bytes() == before
    capsys.readouterr()
    not_ours = tmp_path / "other.sqlite"
    sqlite3.connect(not_ours).execute("CREATE TABLE x (a)").connection.close()
    assert tronlab_main(["arena", "table", str(not_ours)]) == 2
    assert "not a tronlab results database: it has no games table" in capsys.readouterr().err


def test_the_page_says_when_only_some_games_carry_a_replay(tmp_path, capsys):
    db = str(tmp_path / "r.sqlite")
    code = _run(["--bots", "random", "hugger", "--maps", "arena,random:2", "--db", db], capsys)[0]
    assert code == 0
    page = tmp_path / "b.html"
    assert tronlab_main(["arena", "table", db, "--html", str(page), "--replays", "2"]) == 0
    text = page.read_text()
    assert "only the first 2 of the 6 games carry a replay" in text
    data = json.loads(text.split('id="games-data">')[1].split("</script>")[0])
    assert len(data) == 2
    assert tronlab_main(["arena", "table", db, "--html", str(page)]) == 0
    assert "carry a replay" not in page.read_text()


def test_a_replay_piped_into_head_is_not_an_error(tmp_path, capsys):
    db = str(tmp_path / "p.sqlite")
    assert _run(["--bots", "random", "hugger", "--db", db], capsys)[0] == 0
    shell = (f"{sys.executable} -m tronlab arena replay {db} 1 --json | head -c 10 >/dev/null; "
             f"echo ${{PIPESTATUS[0]}}")
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "0" and done.stderr == ""


def test_a_capture_replay_names_the_program_that_crashed(tmp_path, capsys):
    crash = tmp_path / "crash3.py"
    crash.write_text(textwrap.dedent("""\
        import sys
        rows = turns = 0
        for line in sys.stdin:
            if len(line.strip()) == 35:            # a row of the 35x20 grid
                rows += 1
                if rows % 20 == 0:
                    turns += 1
                    if turns == 3:
                        raise SystemExit("gave up on turn three")
                    print("17 10", flush=True)
        """))
    db = str(tmp_path / "c.sqlite")
    code, out, err = _run(["--game", "backtothecode", "--bots", "random",
                           f"cmd:{sys.executable} {crash}", "--maps", "random:1", "--db", db],
                          capsys)
    assert code == 0, err
    assert tronlab_main(["arena", "replay", db, "1"]) == 0
    text = capsys.readouterr().out
    assert "crash3 (seat 1): exited on turn" in text and "gave up on turn three" in text


def test_a_capture_program_eliminated_for_breaking_a_rule_is_named(tmp_path, capsys):
    """A program that asks BACK a second time is eliminated ("second-back"): the faults
    line, the replay and the page must say so, as they do for a crash."""
    again = tmp_path / "twice.py"
    again.write_text(textwrap.dedent("""\
        import sys
        opponents = int(input())
        while True:
            round_ = int(input())
            for _ in range(opponents + 1 + 20):
                input()
            print("BACK 1" if round_ == 3 else "0 0", flush=True)
        """))
    db, page = str(tmp_path / "b.sqlite"), str(tmp_path / "b.html")
    code, out, err = _run(["--game", "backtothecode", "--bots", "random",
                           f"cmd:{sys.executable} {again}", "--maps", "random:1", "--db", db,
                           "--html", page], capsys)
    assert code == 0, err
    assert "twice: second-back in 2 games" in out
    assert tronlab_main(["arena", "replay", db, "1"]) == 0
    text = capsys.readouterr().out
    assert "twice (seat 1): second-back on turn" in text and "no BACK left" in text
    with open(page, encoding="utf-8") as f:
        assert "twice: second-back" in f.read()


def test_a_program_handed_in_without_its_x_bit_is_left_out_with_the_fix(tmp_path, capsys):
    """A script with a #! line (or a compiled program) that lost its x bit on the way
    (an e-mail attachment, a zip) is a student's bot that cannot start: it is left out
    with the chmod that lets it play, and named again at the end of the run."""
    folder = _folder(tmp_path, {"ann.py": GOOD, "bob.py": LAST,
                                "gina": "#!/usr/bin/env python3\nprint(1)\n",
                                "notes.txt": "not a bot\n"})
    (folder / "hal").write_bytes(b"\x7fELF\x02\x01\x01")
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(tmp_path / "x.sqlite")],
                          capsys)
    assert code == 0, err
    assert f"left out gina: {folder / 'gina'} is not executable: chmod +x" in out
    assert f"left out hal: {folder / 'hal'} is not executable: chmod +x" in out
    assert "left out, cannot play: gina, hal" in out and "notes" not in out
    assert "2 games planned" in out


def test_the_page_counts_each_bots_faults_as_the_table_does(tmp_path, capsys):
    """The page a teacher hands the class sums up who crashed, hung or printed garbage,
    as the printed table's faults line does, not only game by game."""
    crash = tmp_path / "quits.py"
    crash.write_text("import sys\nsys.stdin.readline()\nraise SystemExit('no plan')\n")
    db, page = str(tmp_path / "f.sqlite"), str(tmp_path / "f.html")
    code, out, err = _run(["--bots", "random", f"cmd:{sys.executable} {crash}", "--db", db,
                           "--html", page], capsys)
    assert code == 0, err
    assert "faults in 2 games (" in out
    assert "\n  quits: exited in 2 games (first in game 1)\n" in out
    with open(page, encoding="utf-8") as f:
        text = f.read()
    assert "<h2>Faults</h2>" in text and "<td>quits</td><td>exited in 2 games</td>" in text
    # each replay says what went wrong, not only 'quits: exited' (what arena replay says)
    games = json.loads(text.split('id="games-data">')[1].split("</script>")[0])
    assert len(games) == 2
    for g in games.values():
        seat = [n.split(" (")[0] for n in g["title"].split(": ")[1].split(" on ")[0]
                .split(" v ")].index("quits")
        assert g["faults"] == [f"quits (seat {seat}): exited on turn 1: program exited "
                               f"with code 1 (last stderr line: 'no plan')"], g["faults"]
    assert 'id="faults"' in text


def test_the_table_counts_only_the_games_of_a_changed_bots_latest_file(tmp_path, capsys):
    """After a student hands in a new file, ``arena table`` (and its page) rates the
    new version: the games its old file played are not counted twice beside them."""
    folder = _folder(tmp_path, {"ann.py": GOOD, "bob.py": LAST})
    db, page = str(tmp_path / "class.sqlite"), str(tmp_path / "class.html")
    args = ["--bots-dir", str(folder), "--db", db]
    assert _run(args, capsys)[0] == 0
    (folder / "ann.py").write_text(GOOD + "\n# second version\n")
    assert "2 games planned, 0 already in" in _run(args, capsys)[1]
    with Store(db) as store:
        assert len(store.rows()) == 4                          # both versions' games are kept
    assert tronlab_main(["arena", "table", db, "--html", page]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 games (google2010)")
    assert "2 older games left out: replaced by games of a changed bot file" in out
    with open(page, encoding="utf-8") as f:
        assert "<p>2 games (google2010)" in f.read()


def test_a_bot_file_given_as_bots_dir_is_pointed_to_bots(tmp_path):
    folder = _folder(tmp_path, {"ann.py": GOOD})
    with pytest.raises(ValueError, match=r"is a file, not a folder: a single bot goes in "
                                         r"--bots as py:FILE"):
        scan_bots_folder(folder / "ann.py")


def test_a_database_of_two_contests_gets_a_table_for_each(tmp_path, capsys):
    """One class database, a Google 2010 contest and a Light Riders one: 'arena table'
    rates each game apart (one rating over both games measures nothing)."""
    db = str(tmp_path / "class.sqlite")
    assert _run(["--bots", "hugger", "random", "--db", db], capsys)[0] == 0
    assert _run(["--game", "lightriders", "--bots", "hugger", "random", "--maps", "random:1",
                 "--db", db], capsys)[0] == 0
    assert tronlab_main(["arena", "table", db]) == 0
    out = capsys.readouterr().out
    assert "2 games (google2010), 1 map\n" in out and "2 games (lightriders), 1 map\n" in out
    assert "(google2010, lightriders)" not in out
    assert tronlab_main(["arena", "table", db, "--html", str(tmp_path / "b.html")]) == 2
    err = capsys.readouterr().err
    assert "holds games of google2010, lightriders" in err and "--game" in err
    assert not (tmp_path / "b.html").exists()


@pytest.mark.parametrize("game, value", [("google2010", "None"), ("lightriders", "'sideways'"),
                                         ("codingame", "7")])
def test_a_py_bot_returning_a_non_move_is_illegal_naming_the_value(tmp_path, game, value):
    """Before: the wrapper died on the value, so the game said "exited" (and under Light
    Riders the bot was gone for the rest of the game), then "bad-output" ("printed output
    that is not a move", though the student printed nothing). Now it is "illegal", as in
    process, quoting what move() returned, and the program plays on."""
    from tronlab import get_bot
    from tronlab.arena.bots import make_bot
    from tronlab.runner.engine import play
    from tronlab.tron.mapgen import codingame_board, lightriders_board, load_builtin

    bot = tmp_path / "ann.py"
    bot.write_text("calls = []\n\ndef move(board, player):\n    calls.append(1)\n"
                   f"    if len(calls) == 1:\n        return {value}\n"
                   "    moves = board.legal_moves(player)\n"
                   "    return moves[0] if moves else 0\n")
    boards = {"lightriders": lightriders_board(rng=1), "codingame": codingame_board(rng=1)}
    board = boards.get(game) or load_builtin("arena")    # codingame: a board it is shown
    ann = make_bot(f"py:{bot}", game, rng=None, time=None, depth=None, limits=(2.0, 6.0))
    try:
        record = play(board, [ann, get_bot("hugger")], rules=game, time_limit=2.0,
                      first_time_limit=6.0)
    finally:
        ann.close()
    faults = [e for e in record.events if e["player"] == 0]
    assert faults and faults[0]["kind"] == "illegal", record.events
    detail = faults[0]["detail"]
    assert detail.startswith(f"move() returned {value}; return 0-3 (0 up"), detail
    assert "\\n" not in detail and "expected" not in detail, detail   # no protocol words
    assert not [e for e in faults if e["kind"] == "exited"], faults
    if game == "lightriders":           # a bad answer keeps it straight; the bot plays on
        assert record.outcome.turns > 1, record.events
        assert [e["kind"] for e in faults if e["kind"] != "reverse"] == ["illegal"]
        assert detail.endswith("or a name such as 'up' (or 'pass': keep going straight)")


def test_a_py_bot_may_pass_under_light_riders(tmp_path):
    """Light Riders has a 'pass' answer (keep going straight), which an in-process bot
    may return; a py: bot's 'pass' was a bad-output fault instead."""
    from tronlab import get_bot
    from tronlab.arena.bots import make_bot
    from tronlab.runner.engine import play
    from tronlab.tron.mapgen import lightriders_board

    bot = tmp_path / "ann.py"
    bot.write_text("calls = []\n\ndef move(board, player):\n    calls.append(1)\n"
                   "    if len(calls) == 2:\n        return 'Pass'\n"
                   "    moves = board.legal_moves(player)\n"
                   "    return moves[0] if moves else 0\n")
    ann = make_bot(f"py:{bot}", "lightriders", rng=None, time=None, depth=None,
                   limits=(2.0, 6.0))
    try:
        record = play(lightriders_board(rng=1), [ann, get_bot("hugger")], rules="lightriders",
                      time_limit=2.0, first_time_limit=6.0, max_turns=4)
    finally:
        ann.close()
    kinds = [e["kind"] for e in record.events if e["player"] == 0]
    assert "bad-output" not in kinds and "pass" in kinds, record.events


def test_the_bots_dir_help_says_which_files_are_bots(tmp_path, capsys):
    # before: 'a folder of student bots', and a teacher could not tell which of the
    # files handed in would play, nor as what; the help says what scan_bots_folder does
    try:
        tronlab_main(["arena", "run", "--help"])
    except SystemExit:
        pass
    text = " ".join(capsys.readouterr().out.split())
    assert ("a folder of student bots: a .py file with def move( is a py: bot; one without it "
            "that reads its input or starts with #!, or any other file with a #! line or "
            "compiled, is a contest program (cmd:); other files, and names starting with . or "
            "_, are skipped") in text, text
    folder = _folder(tmp_path, {"ann.py": GOOD, "prog.py": "print(input())\n",
                                "helper.py": "X = 1\n", "run": "#!/bin/sh\ncat\n",
                                "_old.py": GOOD, "notes.txt": "hello\n"})
    found = scan_bots_folder(folder)
    assert [spec.split(":")[0] + ":" + os.path.basename(spec.split()[-1].strip("'"))
            for spec in found.specs] == ["py:ann.py", "cmd:prog.py", "cmd:run"], found


def test_a_folder_is_read_in_class_list_order_not_capitals_first(tmp_path):
    # sorted() put 'Zoe' and 'ALICE' before 'amy': the plan, the left-out lines and the
    # run's note read as a class list does
    folder = _folder(tmp_path, {name: GOOD for name in ("zed.py", "Zoe.py", "amy.py",
                                                        "alice.py", "ALICE.py", "Bob.py")})
    found = scan_bots_folder(folder)
    assert [os.path.basename(spec) for spec in found.specs] == [
        "ALICE.py", "alice.py", "amy.py", "Bob.py", "zed.py", "Zoe.py"]


def test_a_run_names_the_bots_of_the_database_its_plan_leaves_out(tmp_path, capsys):
    # cy's file removed after the first run: the second run's table leaves cy out, but
    # arena table and arena export still count cy's games; the run says so
    folder = _folder(tmp_path, {"ann.py": GOOD, "bob.py": LAST, "cy.py": GOOD})
    db = str(tmp_path / "class.sqlite")
    args = ["--bots-dir", str(folder), "--db", db, "--maps", "arena"]
    code, out, err = _run(args, capsys)
    assert code == 0 and "also holds games" not in out, err
    (folder / "cy.py").unlink()
    code, out, err = _run(args, capsys)
    assert code == 0, err
    assert (f"\n{db} also holds games of cy, not in this run's plan: arena table and arena "
            f"export count them too\n") in out, out


def test_a_whole_class_is_loaded_a_few_files_at_a_time_so_a_late_raise_is_seen(tmp_path):
    """Thirty files loaded all at once on two cores each took past the check's timeout,
    so a file whose top-level code raised passed the check and then lost every game as
    "exited".  Each file gets its timeout for itself, a core's worth of them at a time."""
    from tronlab.arena.pycheck import checks_at_once, load_problems
    spin = ("import time\nt = time.process_time()\n"
            "while time.process_time() - t < 0.2:\n    pass\n")
    files = []
    for k in range(20 * checks_at_once()):         # half a second each with Python's start:
        # all at once, 10 s for each on an idle machine; a core's worth at a time, 0.5 s
        # (5 s when ten other processes share each core)
        path = tmp_path / f"student{k:02d}.py"
        path.write_text(spin + "def move(board, player):\n    return 0\n")
        files.append(str(path))
    late = tmp_path / "zed.py"
    late.write_text(spin + "raise RuntimeError('weights.bin is missing')\n"
                    "def move(board, player):\n    return 0\n")
    problems = load_problems([*files, str(late)], timeout=8)
    assert list(problems) == [str(late)]
    assert "zed.py:5" in problems[str(late)] and "weights.bin is missing" in problems[str(late)]


def test_a_python_program_that_cannot_start_is_left_out_with_its_line(tmp_path, capsys):
    """A contest program (here the capture game's) that does not compile or imports a
    module that is not installed would lose every game on its first turn and hand its
    opponents the points: it is left out, as a py: bot is, with its file and line."""
    folder = _folder(tmp_path, {
        "nina.py": "while True:\n    input()\n    print('0 0', flush=True)\n",
        "carl.py": "import numpyy\nwhile True:\n    input()\n",
        "sy.py": "n = int(input(\nprint(n)\n",
    })
    code, out, err = _run(["--game", "backtothecode", "--bots-dir", str(folder),
                           "--db", str(tmp_path / "c.sqlite")], capsys)
    assert code == 2 and "fewer than two bots can play (2 left out)" in err, (out, err)
    assert f"left out carl: {folder / 'carl.py'}:1: imports 'numpyy', which is not " \
           f"installed" in out, out
    assert f"left out sy: {folder / 'sy.py'}:1: SyntaxError: " in out, out
    assert "(the program cannot start)" in out


def test_a_bot_saved_with_a_byte_order_mark_and_crlf_lines_is_a_bot(tmp_path):
    # Notepad on Windows saves 'UTF-8 with BOM' and CRLF line ends: still ann's move()
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_bytes(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode())
    (folder / "prog.py").write_bytes(b"\xef\xbb\xbf#!/usr/bin/env python3\nprint(1)\n")
    found = scan_bots_folder(folder)
    assert found.skipped == []
    assert found.specs[0] == f"py:{folder / 'ann.py'}"
    assert found.specs[1].startswith("cmd:") and found.specs[1].endswith("prog.py")


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_a_file_whose_name_is_not_utf8_is_left_out_and_the_others_play(tmp_path, capsys):
    # a zip made on an old Windows machine unpacks 'café.py' with its name in Latin-1
    folder = _folder(tmp_path, {"ann.py": GOOD, "bob.py": LAST})
    latin = os.path.join(os.fsencode(folder), "caf\xe9.py".encode("latin-1"))
    with open(latin, "w") as f:
        f.write(LAST)
    db = tmp_path / "class.sqlite"
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(db)], capsys)
    assert code == 0, err
    assert "skipped caf\ufffd.py: its name is not UTF-8" in out and "rename" in out
    assert "2 games planned" in out


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_a_map_whose_name_is_not_utf8_stops_the_run_before_any_game(tmp_path, capsys):
    # before: "'utf-8' codec can't encode character '\udce9' ... surrogates not allowed"
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "a_good.txt").write_text("5 4\n#####\n#1 2#\n#   #\n#####\n")
    latin = os.path.join(os.fsencode(maps), "r\xe9seau.txt".encode("latin-1"))
    with open(latin, "w") as f:
        f.write("5 4\n#####\n#1 2#\n#   #\n#####\n")
    db = tmp_path / "m.sqlite"
    for where in (str(maps), os.fsdecode(latin)):
        code, out, err = _run(["--bots", "random", "hugger", "--maps", where, "--db", str(db)],
                              capsys)
        assert code == 2 and err.count("\n") == 1 and out == "" and not db.exists()
        assert "r\ufffdseau.txt': its name is not UTF-8" in err and "rename it" in err


def test_a_tag_that_is_not_utf8_is_refused_before_the_database_is_made(tmp_path, capsys):
    # a terminal in Latin-1 passes 'café' as bytes that are not UTF-8; the tag is stored
    # text: the run stopped after planning with "... surrogates not allowed"
    db = tmp_path / "t.sqlite"
    code, out, err = _run(["--bots", "random", "hugger", "--db", str(db),
                           "--tag", "caf\udce9"], capsys)
    assert code == 2 and err.count("\n") == 1 and out == "" and not db.exists()
    assert "--tag 'caf\ufffd': it is not UTF-8" in err


def test_a_program_saved_with_windows_line_ends_is_left_out_with_the_fix(tmp_path, capsys):
    """A #! script saved on Windows ends its first line in CR LF: the system looks for an
    interpreter '/bin/sh\\r'.  Every game was lost at the first turn with 'could not start
    .../kim: No such file or directory' (the file is there) or env's 'use -[v]S to pass
    options in shebang lines'; a #! naming an interpreter this machine lacks is the same."""
    folder = _folder(tmp_path, {"ann.py": GOOD, "bob.py": LAST})
    for name, text in (("kim", b"#!/bin/sh\r\necho 1\r\n"),
                       ("lou", b"#!/usr/bin/env python3\r\nprint(1)\r\n"),
                       ("max", b"#!/no/such/python3\nprint(1)\n")):
        (folder / name).write_bytes(text)
        os.chmod(folder / name, 0o755)
    code, out, err = _run(["--bots-dir", str(folder), "--db", str(tmp_path / "x.sqlite")],
                          capsys)
    assert code == 0, err
    for name in ("kim", "lou"):
        assert f"left out {name}: {folder / name}: its #! line ends in a Windows line end" \
               in out and f"dos2unix {folder / name}" in out
    assert f"left out max: {folder / 'max'}: its #! line names /no/such/python3, which " \
           f"this machine does not have" in out
    assert "2 games planned" in out
    r = tronlab_main(["match", "random", f"cmd:{folder / 'kim'}"])
    assert r == 2 and "Windows line end" in capsys.readouterr().err
