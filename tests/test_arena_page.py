"""What a teacher reads after a class contest: the faults each student must fix, the
students whose file could not play, and replays that say who is who."""

from __future__ import annotations

import json
import re

import pytest

from tronlab.arena import Store, round_robin, run
from tronlab.arena.html import leaderboard_html, replay_frames
from tronlab.arena.report import table_text
from tronlab.arena.store import record_of
from tronlab.cli import main as tronlab_main

GOOD = """\
def move(board, player):
    moves = list(board.legal_moves(player))
    return moves[-1] if moves else 0
"""


def _games(page):
    return json.loads(page.split('id="games-data">')[1].split("</script>")[0])


def test_the_report_says_what_each_faulty_bot_did_and_who_was_left_out(tmp_path, capsys):
    # before: the table and the page gave only counts ('nil: 2 bad-output'), the page left
    # out the students whose file could not load without a word, and the run's end said
    # '(the reasons are at the top)', above a table and a progress bar
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text(GOOD)
    (folder / "nil.py").write_text("def move(board, player):\n    pass\n")
    (folder / "dora.py").write_text("def move(board, player)\n    return 0\n")
    db, page = tmp_path / "c.sqlite", tmp_path / "c.html"
    code = tronlab_main(["arena", "run", "--no-progress", "--time", "0.5", "--bots-dir",
                         str(folder), "--db", str(db), "--html", str(page)])
    out = capsys.readouterr().out
    assert code == 0
    assert "\n  nil: illegal in 2 games (first in game 1)\n" in out
    tail = out[out.index("left out, cannot play: dora\n"):]
    assert tail.splitlines()[1].startswith("  dora: ") and "SyntaxError" in tail
    text = page.read_text(encoding="utf-8")
    faults = text[text.index("<h2>Faults</h2>"):text.index("<h2>Games</h2>")]
    assert '<a href="#game-1">game 1</a>: illegal on turn 1: ' in faults
    assert "move() returned None" in faults
    assert "<h2>Left out</h2>" in faults and "<td>dora</td>" in faults
    assert "SyntaxError" in faults
    with Store(db) as store:          # the page of a later 'arena table' has no one left out
        again = leaderboard_html(store, store.rows())
    assert "<h2>Left out</h2>" not in again and "move() returned None" in again


def test_a_replay_says_which_characters_are_which_bot_and_the_axis_has_numbers(tmp_path):
    # before: a replay's title was 'random v hugger v filler', the board '1', 'b', 'c'...
    # with no key; a game of three was said to be played from 'both seats'; the rating plot
    # had no numbers on its axis
    with Store(tmp_path / "g.sqlite") as store:
        run(round_robin(["random", "hugger", "filler"], "random:1", game="codingame",
                        players=3), store, progress=False)
        rows = store.rows()
        page = leaderboard_html(store, rows)
    names = rows[0]["names"]
    title = _games(page)[str(rows[0]["id"])]["title"]
    assert f"{names[0]} (1/a) v {names[1]} (2/b) v {names[2]} (3/c) on " in title
    assert "every seat;" in page and "both seats" not in page
    with Store(tmp_path / "g.sqlite") as store:
        text = table_text(store.rows())
    assert "first bot's side, every seat;" in text and "both seats" not in text
    svg = page[page.index("<svg"):page.index("</svg>")]
    ticks = re.findall(r'fill="#666">(-?[\d.]+)</text>', svg)
    assert len(ticks) >= 3 and "0" in ticks


def test_a_capture_replay_shows_where_the_players_stand(tmp_path):
    # before: the page drew a capture game's owners only: nobody could be seen moving
    with Store(tmp_path / "b.sqlite") as store:
        run(round_robin(["random", "nearest"], "random:1", game="backtothecode"), store,
            progress=False)
        row = store.rows()[0]
        record = record_of(store.record_json(row["id"]))
    start, steps = replay_frames(record)
    board = "\n".join(start)
    assert re.search("[aA]", board) and re.search("[bB]", board), board
    page_title = f"{row['names'][0]} (a/0) v {row['names'][1]} (b/1)"
    with Store(tmp_path / "b.sqlite") as store:
        assert page_title in leaderboard_html(store, store.rows())


def test_the_rating_axis_ticks_are_round_and_inside_the_range():
    from tronlab.arena.html import _ticks
    for lo, hi in [(-2432, 922), (-95, 95), (0, 0.5), (-600, 700), (3, 3)]:
        ticks = _ticks(lo, hi)
        assert 2 <= len(ticks) <= 8, (lo, hi, ticks)
        assert all(lo - 1e-9 <= t <= max(hi, lo + 1) + 1e-9 for t in ticks), (lo, hi, ticks)
    assert _ticks(-600, 700) == [-600, -400, -200, 0, 200, 400, 600]


def test_a_py_bot_in_a_capture_contest_is_told_what_to_hand_in(tmp_path):
    # before: 'py: bots play the Tron games, not backtothecode', and nothing on what does
    from tronlab.arena.bots import check_spec
    bot = tmp_path / "ann.py"
    bot.write_text(GOOD)
    with pytest.raises(ValueError, match=r"not backtothecode: a backtothecode bot is a program "
                                         r"speaking its protocol \(cmd:COMMAND.*capture/proto"):
        check_spec(f"py:{bot}", "backtothecode")


def test_verbose_names_each_stored_game_by_the_number_replay_takes(tmp_path, capsys):
    # before: 'stored 49a6c13939c3f13873a8 random v hugger ...': a key that 'arena replay'
    # does not take, and no number that it does
    db = str(tmp_path / "v.sqlite")
    assert tronlab_main(["arena", "run", "--bots", "random", "hugger", "--db", db,
                         "--no-progress", "--verbose"]) == 0
    stored = [line for line in capsys.readouterr().out.splitlines() if line.startswith("stored")]
    assert [line.split()[2:4] for line in stored] == [["as", "game"]] * 2
    with Store(db) as store:
        ids = {r["key"]: r["id"] for r in store.rows()}
    for line in stored:
        assert line.split()[4] == f"{ids[line.split()[1]]}:"
    assert tronlab_main(["arena", "replay", db, stored[1].split()[4].rstrip(":")]) == 0


def test_a_student_file_named_like_a_built_in_bot_is_told_to_be_renamed(tmp_path):
    # before: 'two bots have the name 'hugger': ...' in a random order, and no way out
    (tmp_path / "hugger.py").write_text(GOOD)
    with pytest.raises(ValueError, match=r"two bots have the name 'hugger': 'hugger' and "
                                         r"'py:.*hugger.py'; .* rename one of the files"):
        round_robin(["hugger", f"py:{tmp_path / 'hugger.py'}"], "arena")


def test_only_the_faults_count_column_is_kept_on_one_line():
    # before: the rule that keeps '18 illegal' on one line named the class 'faults', which
    # the left-out and contest-clock tables share, so their long second column ('why': a
    # SyntaxError or a wrong signature in words; 'answers') ran off the right of the page
    from tronlab.arena.html import STYLE, _left_out
    nowrap = [rule for rule in re.findall(r"([^{}]+)\{([^}]*)\}", STYLE)
              if "nowrap" in rule[1]]
    classes = {c for selector, _ in nowrap for c in re.findall(r"\.([\w-]+)", selector)}
    left = _left_out({"gina": "gina.py:2: move(board) cannot be called as move(board, "
                              "player): a py: bot's move takes the two arguments"})
    table_classes = set(re.search(r'<table class="([^"]*)"', left).group(1).split())
    assert nowrap and not classes & table_classes


def test_the_printed_table_says_what_each_faulty_bot_did_the_first_time(tmp_path, capsys):
    # before: the terminal said only 'nil: 2 illegal (first in game 1)': the teacher had to
    # run 'arena replay' once for each student's fault (or open the page) to learn what to
    # tell the student, though the page says it beside the count
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text(GOOD)
    (folder / "nil.py").write_text("def move(board, player):\n    pass\n")
    db = str(tmp_path / "c.sqlite")
    assert tronlab_main(["arena", "run", "--no-progress", "--time", "0.5", "--bots-dir",
                         str(folder), "--db", db]) == 0
    said = ("\n  nil: illegal in 2 games (first in game 1)\n    game 1: illegal on turn 1: move() "
            "returned None; return 0-3")
    assert said in capsys.readouterr().out
    assert tronlab_main(["arena", "table", db]) == 0
    assert said in capsys.readouterr().out
