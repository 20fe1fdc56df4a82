"""What a teacher does after a class contest: grade from a spreadsheet, and understand
the size of a plan before it is played.

``tronlab arena export`` writes the standings and the games of a results database
as CSV; the tests read the files back with :mod:`csv` and check them against the
tables computed from the same database, and against wins counted from the games'
rows by hand.
"""

from __future__ import annotations

import csv
import io
import math

import pytest

from tronlab.arena import Store, round_robin, run
from tronlab.arena import schedule
from tronlab.arena.ratings import places, ratings
from tronlab.arena.schedule import gauntlet, plan_note
from tronlab.cli import main as tronlab_main

EIGHT = ["random", "hugger", "filler", "chamber", "minimax", "voronoi", "nash", "quick"]


# ---- the plan's size ------------------------------------------------------------------------

def test_a_large_plan_says_how_it_is_made_and_how_to_make_it_smaller():
    # before: 8 bots of a 4-player CodinGame run planned 280 games with no word why
    plan = round_robin(EIGHT, "random:1", game="codingame", players=4)
    note = plan_note(plan)
    assert len(plan) == 560 and note.count("\n") == 2, note
    assert "70 groups of 4 of the 8 bots x 8 seatings x 1 map x 1 seed" in note
    # the counts it offers are those of the plans the options make
    two = len(round_robin(EIGHT, "random:1", game="codingame", players=2))
    short = len(gauntlet(EIGHT[0], EIGHT[1:], "random:1", game="codingame", players=4))
    assert (two, short) == (56, 28)
    assert f"--players 2 ({two} games)" in note and f"--schedule gauntlet ({short} games" in note
    pairs = round_robin(EIGHT, "random:4", game="codingame", seeds=2)
    note = plan_note(pairs)
    assert len(pairs) == 28 * 2 * 4 * 2 and "28 pairs of the 8 bots x 2 seatings x 4 maps x 2 " \
        "seeds" in note and "fewer --maps or --seeds" in note and "--players" not in note
    assert plan_note(pairs, to_play=schedule.LARGE_PLAN) == ""       # nearly finished
    assert plan_note(round_robin(EIGHT, "arena")) == ""              # 56 games: nothing to say


def test_arena_run_prints_the_plans_making_under_its_size(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(schedule, "LARGE_PLAN", 5)
    db = str(tmp_path / "p.sqlite")
    args = ["arena", "run", "--no-progress", "--bots", "random", "hugger", "filler",
            "--maps", "arena", "--db", db]
    assert tronlab_main(args) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[:3]
    assert head[0] == f"6 games planned, 0 already in {db}, 6 to play", out
    assert head[1] == "  the plan: 3 pairs of the 3 bots x 2 seatings x 1 map x 1 seed"
    assert head[2].startswith("  smaller plans: --schedule gauntlet (4 games")
    assert tronlab_main(args) == 0                              # nothing left to play
    assert "the plan:" not in capsys.readouterr().out


def test_the_plan_note_offers_only_options_that_give_fewer_games():
    # before: two bots were offered '--schedule gauntlet' for as many games, and three bots
    # of a 3-player game '--players 2' and a gauntlet for twice as many
    two = round_robin(EIGHT[:2], "random:60", game="codingame")
    assert len(two) == 120 and len(gauntlet(EIGHT[0], EIGHT[1:2], "random:60",
                                            game="codingame")) == 120
    assert plan_note(two).endswith("\n  smaller plans: fewer --maps"), plan_note(two)
    for bots, players in ((3, 3), (4, 4)):              # a single group: no option helps
        plan = round_robin(EIGHT[:bots], "random:40", game="codingame", players=players)
        pairs = round_robin(EIGHT[:bots], "random:40", game="codingame")
        short = gauntlet(EIGHT[0], EIGHT[1:bots], "random:40", game="codingame",
                         players=players)
        assert len(plan) <= min(len(pairs), len(short)), (bots, players)
        assert plan_note(plan).endswith("\n  smaller plans: fewer --maps"), plan_note(plan)
    four = round_robin(EIGHT[:4], "random:40", game="codingame", players=3)
    pairs = round_robin(EIGHT[:4], "random:40", game="codingame")
    assert (len(four), len(pairs)) == (960, 480) and "--players 2 (480 games)" in plan_note(four)
    assert "--schedule gauntlet (360 games" in plan_note(four)
    five = round_robin(EIGHT[:5], "random:10", game="codingame", players=4)   # 5 groups
    short = len(gauntlet(EIGHT[0], EIGHT[1:5], "random:10", game="codingame", players=4))
    pairs = len(round_robin(EIGHT[:5], "random:10", game="codingame"))
    assert (len(five), short, pairs) == (400, 160, 200)
    assert plan_note(five).endswith(f"smaller plans: --players 2 ({pairs} games), --schedule "
                                    f"gauntlet ({short} games: the first bot v the others), "
                                    "fewer --maps"), plan_note(five)


# ---- the export ---------------------------------------------------------------------------

CY = "def move(board, player):\n    return board.lega_moves(player)[0]   # a typo\n"


@pytest.fixture(scope="module")
def contest(tmp_path_factory):
    """A database of two contests: google2010 with a student bot that always crashes,
    and 3-player codingame games (a file of three seats, two of them for google2010)."""
    folder = tmp_path_factory.mktemp("contest")
    (folder / "cy.py").write_text(CY)
    db = str(folder / "class.sqlite")
    with Store(db) as store:
        run(round_robin(["random", "hugger", f"py:{folder / 'cy.py'}"], "arena", time=0.5),
            store, progress=False)
        run(round_robin(["random", "hugger", "filler"], "random:1", game="codingame",
                        players=3), store, progress=False)
    return folder, db


def _read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_export_is_the_table_of_the_same_database(contest, capsys):
    # before: the results were only in SQLite; a teacher grading had no file to open
    folder, db = contest
    table, games = str(folder / "standings.csv"), str(folder / "games.csv")
    assert tronlab_main(["arena", "export", db, "--table", table, "--games", games]) == 0
    out = capsys.readouterr().out
    assert f"12 games written to {games}" in out and f"written to {table}" in out
    standing, played = _read(table), _read(games)
    with Store(db, read_only=True) as store:
        rows = store.rows()
    assert [int(g["game"]) for g in played] == [r["id"] for r in rows]
    for rules in ("google2010", "codingame"):
        subset = [r for r in rows if r["game"] == rules]
        mine = [s for s in standing if s["rules"] == rules]
        table_ = ratings(subset)
        assert [(int(s["rank"]), s["bot"]) for s in mine] == list(
            zip(places(table_), [r.name for r in table_]))
        for s, r in zip(mine, table_):
            assert (int(s["rating"]), int(s["interval"]), int(s["results"])) == (
                round(r.elo), round(r.half), r.games)
            assert float(s["points"]) == r.points
    # by hand from the games' lines: points of a 2-player game are wins + draws / 2
    two = [g for g in played if g["rules"] == "google2010"]
    assert len(two) == 6 and all(g["seat2_bot"] == g["seat2_place"] == "" for g in two)
    for s in [s for s in standing if s["rules"] == "google2010"]:
        bot = s["bot"]
        mine = [g for g in two if bot in (g["seat0_bot"], g["seat1_bot"])]
        wins = sum(g["winner"] == bot for g in mine)
        draws = sum(g["winner"] == "" for g in mine)
        assert float(s["points"]) == wins + draws / 2 and int(s["games"]) == len(mine) == 4
    # cy lost every game to its typo: the fault, and what it did, seat by seat
    cy = [(g[f"seat{k}_fault"], g[f"seat{k}_reason"]) for g in two for k in (0, 1)
          if g[f"seat{k}_bot"] == "cy"]
    assert len(cy) == 4 and {f for f, _ in cy} == {"error"}
    assert all("lega_moves" in why for _, why in cy), cy
    assert all(g["winner"] != "cy" and g["seat0_fault"] + g["seat1_fault"] in ("", "error")
               for g in two)
    row = next(s for s in standing if s["bot"] == "cy")
    assert (row["faults"], row["error"], row["exited"], row["timeout"]) == ("4", "4", "0", "0")
    for g, r in zip(played, rows):               # seat by seat, as stored
        seats = range(len(r["names"]))
        assert [g[f"seat{k}_bot"] for k in seats] == r["names"]
        assert [int(g[f"seat{k}_place"]) for k in seats] == [
            1 + sum(y < x for y in r["ranks"]) for x in r["ranks"]]
        assert (g["map"], int(g["turns"])) == (r["map"], r["turns"])
    assert math.isclose(sum(float(s["points"]) for s in standing if s["rules"] == "codingame"),
                        6 * 3)          # 6 games of 3 players: 3 results each, 1 point each


def test_the_export_writes_to_standard_output_and_refuses_a_slip(contest, capsys, tmp_path):
    folder, db = contest
    assert tronlab_main(["arena", "export", db, "--games", "-", "--game", "codingame"]) == 0
    captured = capsys.readouterr()
    lines = list(csv.DictReader(io.StringIO(captured.out)))
    assert len(lines) == 6 and {g["rules"] for g in lines} == {"codingame"}
    assert captured.err == ""
    for args, message in [([], "say what to export: --table FILE"),
                          (["--table", "-", "--games", "-"], "give two files"),
                          (["--table", "-", "--game", "lightriders"], "no games of game"),
                          (["--table", str(tmp_path / "no" / "t.csv")], "--table ")]:
        assert tronlab_main(["arena", "export", db, *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err
    assert tronlab_main(["arena", "export", str(tmp_path / "x.sqlite"), "--table", "-"]) == 2
    assert "no results database" in capsys.readouterr().err


def test_a_stopped_run_exports_the_games_it_finished(tmp_path, capsys):
    db = str(tmp_path / "half.sqlite")
    plan = round_robin(["random", "hugger", "filler"], "arena,random:1")
    with Store(db) as store:
        run(plan[:5], store, progress=False)                # 5 of the plan's 12 games
    assert tronlab_main(["arena", "export", db, "--table", "-"]) == 0
    standing = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sum(int(s["games"]) for s in standing) == 2 * 5
    assert tronlab_main(["arena", "table", db]) == 0
    assert capsys.readouterr().out.startswith("5 games (google2010)")


def test_an_empty_database_exports_headers_and_says_why(tmp_path, capsys):
    # before: the header line alone, without a word about the database being empty
    db = str(tmp_path / "empty.sqlite")
    Store(db).close()
    assert tronlab_main(["arena", "export", db, "--table", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [",".join(["rules", "rank", "bot", "rating", "interval",
                                                   "points", "results", "games", "faults",
                                                   "timeout", "error", "illegal", "bad-output",
                                                   "exited", "contest_late",
                                                   "contest_worst_ms"])]
    assert captured.err == f"{db} holds no games yet: each file gets its header line only\n"


def _stored(key, seed, winner, ranks, slow, game="google2010", names=("a", "b"), faults=None):
    return {"key": key, "game": game, "bots": list(names), "names": list(names), "map": "m",
            "map_set": "s", "seed": seed, "winner": winner, "ranks": ranks, "turns": 5,
            "faults": faults or [None] * len(names), "time": 0.1, "slow": slow, "record": "{}"}


def test_the_export_of_hand_made_rows(tmp_path, capsys):
    # game 1 is played again as game 2 (a changed bot file): game 1 is left out; a's
    # answers: 3 late in game 2, none in game 3 (worst 200 ms); b and b in game 4 are
    # two seats of one bot in one game
    db = str(tmp_path / "h.sqlite")
    with Store(db) as store:
        for row in [_stored("k1", 1, 0, [0, 1], [[9, 1.0, 3], None]),
                    _stored("k2", 1, None, [0, 0], [[3, 0.2, 4], None]),
                    _stored("k3", 2, 1, [1, 0], [[0, 0.05, 2], None], faults=["trail", None]),
                    _stored("k4", 1, 0, [0, 1, 2], None, game="codingame",
                            names=("a", "b", "b"))]:
            store.add(row)
    table, games = str(tmp_path / "t.csv"), str(tmp_path / "g.csv")
    assert tronlab_main(["arena", "export", db, "--table", table, "--games", games]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"standings (4 lines, a bot each) written to {table}", f"3 games written to {games}",
        "1 older game left out: replaced by games of a changed bot file"]
    cells = [(s["rules"], s["bot"], s["results"], s["games"], s["contest_late"],
              s["contest_worst_ms"]) for s in _read(table)]
    assert cells == [("codingame", "a", "2", "1", "", ""), ("codingame", "b", "2", "1", "", ""),
                     ("google2010", "b", "2", "2", "", ""),        # b won game 3
                     ("google2010", "a", "2", "2", "3", "200")]
    played = _read(games)
    assert [(g["game"], g["winner"], g["seat0_fault"], g["seat0_reason"]) for g in played] == [
        ("2", "", "", ""), ("3", "b", "", ""), ("4", "a", "", "")]


def test_places_count_the_seats_placed_better_in_both_games(tmp_path):
    """A Tron row stores a tie for first as ranks 0, 0, 1 and a capture row as 0, 0, 2: the
    export called the third player 2nd in one and 3rd in the other; it is 3rd in both."""
    from tronlab.arena.export import game_lines
    from tronlab.arena.html import _result

    with Store(str(tmp_path / "p.sqlite")) as store:
        store.add(_stored("t", 1, None, [0, 0, 1], None, game="codingame", names=("a", "b", "c")))
        store.add(_stored("c", 2, None, [0, 0, 2], None, game="backtothecode",
                          names=("a", "b", "c")))
        rows = store.rows()
        lines = game_lines(store, rows)
    place = lines[0].index("seat2_place")
    assert [line[place] for line in lines[1:]] == [3, 3]
    assert {_result(row) for row in rows} == {"places a 1, b 1, c 3"}


def test_a_large_gauntlet_and_a_three_player_plan_say_how_they_are_made():
    plan = gauntlet(EIGHT[0], EIGHT[1:], "random:4", game="codingame", players=4)
    note = plan_note(plan, "gauntlet")
    two = len(gauntlet(EIGHT[0], EIGHT[1:], "random:4", game="codingame", players=2))
    assert len(plan) == 7 * 4 * 4 and two == 7 * 2 * 4
    assert note == ("\n  the plan: 7 opponents of the first bot x 4 seatings x 4 maps x 1 seed"
                    f"\n  smaller plans: --players 2 ({two} games), fewer --maps")
    three = round_robin(EIGHT[:6], "random:2", game="codingame", players=3)
    pairs = len(round_robin(EIGHT[:6], "random:2", game="codingame", players=2))
    assert len(three) > schedule.LARGE_PLAN and f"--players 2 ({pairs} games)" in plan_note(three)


def test_no_output_file_may_be_a_results_database(tmp_path, capsys):
    # before: `arena export class.sqlite --games class.sqlite` (a tab completion too far)
    # wrote the CSV over the database, and every game of the class was gone
    db = str(tmp_path / "class.sqlite")
    other = str(tmp_path / "last_year.sqlite")
    for path in (db, other):
        with Store(path) as store:
            run(round_robin(["random", "hugger"], "arena"), store, progress=False)
    with open(db, "rb") as f:
        before = f.read()
    slips = [["arena", "export", db, "--games", db],
             ["arena", "export", db, "--table", other],
             ["arena", "table", db, "--html", db],
             ["arena", "run", "--no-progress", "--bots", "random", "hugger", "--db", db,
              "--html", other],
             ["match", "random", "hugger", "--save", db],
             ["match", "--rules", "backtothecode", "random", "nearest", "--save", db]]
    for args in slips:
        assert tronlab_main(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "SQLite database" in err, (args, err)
    with open(db, "rb") as f:
        assert f.read() == before
    with Store(other, read_only=True) as store:
        assert len(store.rows()) == 2


def test_a_new_database_and_its_page_may_not_be_one_file(tmp_path, capsys):
    # the page is written after the games, over the database the run has just filled
    db = str(tmp_path / "new.sqlite")
    args = ["arena", "run", "--no-progress", "--bots", "random", "hugger", "--db", db]
    assert tronlab_main([*args, "--html", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--html and --db are the same file" in err
    assert not (tmp_path / "new.sqlite").exists()


def test_a_bot_name_a_spreadsheet_would_run_as_a_formula_is_exported_as_text(tmp_path, capsys):
    # a student's file '=HYPERLINK(...).py' or '=1+2.py' is a bot named '=1+2': a
    # spreadsheet opening the export ran it as a formula in the teacher's grading sheet
    # (CSV injection); a cell starting with = + - @ gets a leading ' that keeps it text
    names = ("=1+2", "@SUM(A1)")
    db = str(tmp_path / "f.sqlite")
    with Store(db) as store:
        store.add(_stored("k1", 1, 0, [0, 1], None, names=names))
        store.add(_stored("k2", 2, 1, [1, 0], None, names=("-rf", "+x")))
    table, games = str(tmp_path / "t.csv"), str(tmp_path / "g.csv")
    assert tronlab_main(["arena", "export", db, "--table", table, "--games", games]) == 0
    capsys.readouterr()
    assert sorted(s["bot"] for s in _read(table)) == ["'+x", "'-rf", "'=1+2", "'@SUM(A1)"]
    played = _read(games)
    assert [(g["winner"], g["seat0_bot"], g["seat1_bot"]) for g in played] == [
        ("'=1+2", "'=1+2", "'@SUM(A1)"), ("'+x", "'-rf", "'+x")]
    ratings_ = [int(s["rating"]) for s in _read(table)]    # numbers stay numbers
    assert min(ratings_) < 0
