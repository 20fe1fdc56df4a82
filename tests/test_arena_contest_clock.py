"""The arena holds programs' answers against the contest's own clock and says so.

Before: a Back to the Code program got 2 x --time + 50 ms a turn in the arena where
CodinGame gave 150 ms, a codingame Tron program 2 x --time where CodinGame gave 100 ms,
and only ``--help`` said it: a program that passed in the arena timed out in the contest
without a word.  Each program here sleeps 0.3 s on its second answer only, under an
arena allowance of over a second, so it never times out in the arena.
"""

from __future__ import annotations

import csv
import io
import sqlite3
import sys

from tronlab.arena import Store, report
from tronlab.arena.store import SCHEMA
from tronlab.cli import main as tronlab_main
from tronlab.tron.rules import FAULTS

SLEEPY_PY = """import time
calls = 0

def move(board, player):
    global calls
    calls += 1
    if calls == 2:
        time.sleep(0.3)
    moves = list(board.legal_moves(player))
    return moves[0] if moves else 0
"""

# a Back to the Code program on a 12x8 grid: it stays where it is
SLEEPY_CMD = """import sys, time
read = sys.stdin.readline
opponents = int(read())
turn = 0
while True:
    line = read()
    if not line:
        break
    turn += 1
    x, y, _ = read().split()
    for _ in range(opponents + 8):
        read()
    if turn == 2:
        time.sleep(0.3)
    print(x, y, flush=True)
"""


def _arena(capsys, *args):
    code = tronlab_main(["arena", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _slow_seat(row, name):
    return row["slow"][row["names"].index(name)]


def test_a_slow_python_file_is_held_against_codingames_100_ms(tmp_path, capsys):
    bot = tmp_path / "sleepy.py"
    bot.write_text(SLEEPY_PY)
    db = str(tmp_path / "t.sqlite")
    code, out, err = _arena(capsys, "run", "--game", "codingame", "--bots", f"py:{bot}",
                            "hugger", "--maps", "random:1", "--time", "0.6", "--seeds", "1",
                            "--no-progress", "--db", db, "--html", str(tmp_path / "p.html"))
    assert code == 0, err
    with Store(db, read_only=True) as store:
        rows = store.rows()
    assert rows and all(row["faults"][row["names"].index("sleepy")] not in FAULTS
                        for row in rows)            # in time for the arena
    for row in rows:
        late, worst, _turn = _slow_seat(row, "sleepy")
        assert late >= 1 and worst >= 0.3, row["slow"]
        assert _slow_seat(row, "hugger") is None        # a registered bot is not held to it
    assert ("the contest's own clock (codingame: 100 ms a move; the arena allows more), "
            "against the programs' answers after their first:") in out
    line = next(x for x in out.splitlines() if x.startswith("  sleepy: "))
    assert f"slower than the contest's 100 ms, in {len(rows)} of {len(rows)} games" in line
    assert line.endswith("the contest would have timed it out")
    page = (tmp_path / "p.html").read_text()
    assert "<h2>The contest's clock</h2>" in page and "slower than the contest" in page
    code, out, err = _arena(capsys, "export", db, "--table", "-")
    standing = {s["bot"]: s for s in csv.DictReader(io.StringIO(out))}
    assert int(standing["sleepy"]["contest_late"]) >= len(rows)
    assert int(standing["sleepy"]["contest_worst_ms"]) >= 300
    assert standing["hugger"]["contest_late"] == standing["hugger"]["contest_worst_ms"] == ""


def test_a_slow_back_to_the_code_program_is_held_against_the_referees_150_ms(tmp_path, capsys):
    program = tmp_path / "stay.py"
    program.write_text(SLEEPY_CMD)
    db = str(tmp_path / "c.sqlite")
    code, out, err = _arena(capsys, "run", "--game", "backtothecode", "--bots",
                            f"cmd:{sys.executable} {program}", "random", "--maps",
                            "random:1:12x8", "--time", "0.6", "--seeds", "1", "--no-progress",
                            "--db", db)
    assert code == 0, err
    with Store(db, read_only=True) as store:
        rows = store.rows()
    for row in rows:
        assert row["faults"][row["names"].index("stay")] is None   # in time for the arena
        late, worst, _turn = _slow_seat(row, "stay")
        assert late >= 1 and worst >= 0.3, row["slow"]
    assert ("(backtothecode: 150 ms a turn, 100 ms and the referee's 50 ms of grace; the "
            "arena allows more)" in out)
    assert "  stay: " in out and "slower than the contest's 150 ms" in out


def test_registered_bots_alone_get_no_contest_clock_lines(tmp_path, capsys):
    db = str(tmp_path / "r.sqlite")
    code, out, err = _arena(capsys, "run", "--bots", "random", "hugger", "--maps", "arena",
                            "--no-progress", "--db", db)
    assert code == 0, err
    assert "contest's own clock" not in out


def test_an_older_database_reads_without_the_slow_column(tmp_path):
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old)
    # the schema before this change: the bank column was the last
    conn.execute(SCHEMA[0].split("record   TEXT NOT NULL,")[0]
                 + "record TEXT NOT NULL, bank REAL)")
    conn.execute("INSERT INTO games (key, game, bots, names, map, map_set, seed, time, ranks, "
                 "turns, faults, created, record) VALUES ('k', 'codingame', '[\"a\", \"b\"]', "
                 "'[\"a\", \"b\"]', 'm', 's', 1, 0.1, '[0, 1]', 3, '[null, null]', 'now', '{}')")
    conn.commit()
    conn.close()
    with Store(old, read_only=True) as store:          # read-only: the file is not changed
        assert [r["slow"] for r in store.rows()] == [None]
    with Store(old) as store:                           # written to: the column is added
        row = dict(store.rows()[0], key="k2", slow=[[2, 0.25, 4], None], record="{}")
        assert store.add(row)
        rows = store.rows()
    assert [r["slow"] for r in rows] == [None, [[2, 0.25, 4], None]]
    text = report.table_text(rows)
    assert "  a: 2 answers slower than the contest's 100 ms, in 1 of 1 game" in text


def test_a_bank_no_looser_than_the_contests_is_not_held_against_it_again(tmp_path, capsys):
    """Under --bank at the contest's own clock the arena times out what the contest would:
    nothing to report (and timing from outside, a little longer than the bank's own, could
    call an answer that nearly emptied the bank late).  A looser bank is reported."""
    bot = tmp_path / "sleepy.py"
    bot.write_text(SLEEPY_PY)
    seats = {}
    for bank in (10, 20):
        db = str(tmp_path / f"b{bank}.sqlite")
        code, out, err = _arena(capsys, "run", "--game", "lightriders", "--bots", f"py:{bot}",
                                "hugger", "--maps", "random:1", "--bank", str(bank), "--time",
                                "0.2", "--seeds", "1", "--no-progress", "--db", db)
        assert code == 0, err
        with Store(db, read_only=True) as store:
            seats[bank] = [_slow_seat(row, "sleepy") for row in store.rows()]
        assert ("the contest's own clock" in out) == (bank == 20), out
    assert seats[10] and all(seat is None for seat in seats[10])
    assert seats[20] and all(seat is not None and seat[0] == 0 for seat in seats[20])


def _held(game, time, bank=None, id=1):
    return {"id": id, "game": game, "names": ["me", "you"], "time": time, "bank": bank,
            "slow": [[0, 0.05, 3], None]}


def test_the_head_says_the_arena_allows_more_only_where_it_does():
    """Before: '; the arena allows more' whatever --time was, though at google2010's default
    --time 0.1 a program is stopped at 0.18 s of the contest's 1 s (and a Light Riders one
    at 0.18 s of the 200 ms a move): there the arena's own timeout comes first."""
    from tronlab.arena.html import _slow
    from tronlab.arena.slow import allows_more, clock_head

    assert [allows_more(_held(*clock)) for clock in (
        ("google2010", 0.1), ("google2010", 0.6), ("codingame", 0.1), ("codingame", 0.05),
        ("lightriders", 0.1), ("lightriders", 0.2), ("lightriders", 0.2, 20.0),
        ("lightriders", 0.3, 10.0), ("backtothecode", 0.05), ("backtothecode", 0.06),
        ("google2010", None))] == [False, True, True, False, False, True, True, True, False,
                                   True, True]
    tight, loose = _held("google2010", 0.1), _held("google2010", 0.6, id=2)
    assert clock_head([tight]) == ("the contest's own clock (google2010: 1000 ms a move; the "
                                   "arena's own limit is no looser), against the programs' "
                                   "answers after their first:")
    assert "; the arena allows more)" in clock_head([loose])
    unheld = dict(loose, slow=[None, None])           # no program's answers: not counted
    assert "; the arena allows more in 1 of 2 games)" in clock_head([tight, loose, unheld])
    page = _slow([tight], set())
    assert "the arena&#x27;s own limit is no looser" in page and "allows more" not in page


def test_the_arena_allows_more_only_past_the_contests_own_limit():
    """At the contest's own clock exactly (Light Riders' 10 s bank, 200 ms added a move)
    the arena allows no more; google2010 at --time 0.55 stops a program at 90% of twice
    that, 0.99 s, inside the contest's 1 s."""
    from tronlab.arena.slow import allows_more

    assert not allows_more(_held("lightriders", 0.2, 10.0))
    assert not allows_more(_held("google2010", 0.55))
    assert allows_more(_held("google2010", 0.6))
