"""Bounds on what the commands are asked to do: every count, size, time and path a user
types is checked before any work, and a value out of range is one error line naming
the limit, exit code 2 - never a traceback, a MemoryError or a run that fills the disk."""

from __future__ import annotations

import pytest

from tronlab.arena.store import Store
from tronlab.cli import main as tronlab_main


def one_error(capsys, argv, *words, prefix="tronlab arena: error: "):
    """Run ``argv``; check for exit code 2 and one error line holding every word."""
    code = tronlab_main(argv)
    captured = capsys.readouterr()
    assert code == 2, (argv, captured.out, captured.err)
    assert captured.err.startswith(prefix) and captured.err.count("\n") == 1, captured.err
    for word in words:
        assert word in captured.err, (word, captured.err)
    assert "planned" not in captured.out, captured.out     # refused before any planning
    return captured.err


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "e.sqlite"
    Store(path).close()
    return str(path)


RUN = ["arena", "run", "--bots", "random", "hugger", "--no-progress"]


@pytest.mark.parametrize("value", ["86400.5", "1e308", "inf", "0", "-1", "nan"])
def test_arena_time_is_capped_at_a_day_like_match(capsys, db, value):
    one_error(capsys, RUN + ["--db", db, "--time", value], "up to 86400 (a day)", value)
    one_error(capsys, ["match", "random", "hugger", "--time", value], "up to 86400 (a day)",
              prefix="tronlab: error: ")


# ---- what a tournament plans ---------------------------------------------------------------

@pytest.mark.parametrize("extra, words", [
    (["--seeds", "99999999999"], ["seeds", "1 to 1000"]),
    (["--seeds", "0"], ["seeds", "1 to 1000"]),
    (["--maps", "random:99999999999"], ["random:N", "1 to 10000"]),
    (["--maps", "random:" + "9" * 6000], ["random:N", "1 to 10000"]),
    (["--maps", "random:1@" + "9" * 6000], ["below 2**63"]),
    (["--maps", "random:10000,random:10000@10000", "--seeds", "10"],
     ["400000 games", "more than the 100000"]),
    (["--depth", "1000000000"], ["depth", "1 to 48"]),
    (["--depth", "49", "--bots", "nash", "chamber"], ["depth", "1 to 48"]),
    (["--depth", "0"], ["depth", "1 to 48"]),
    (["--jobs", "100000"], ["--jobs is 1 to 256"]),
    (["--jobs", "0"], ["--jobs is 1 to 256"]),
])
def test_every_count_that_plans_games_is_bounded_before_planning(capsys, db, extra, words):
    one_error(capsys, RUN + ["--db", db, *extra], *words)


def test_a_huge_round_robin_is_refused_before_its_seatings_are_made(tmp_path):
    from tronlab.arena.schedule import round_robin

    bots = [f"random{i}" for i in range(400)]        # 400 * 399 seatings: never built
    with pytest.raises(ValueError, match="159600 seatings x 1 maps x 1 seeds"):
        round_robin(bots, ["arena"], game="google2010")
    with pytest.raises(ValueError, match="1 to 1000"):
        round_robin(["random", "hugger"], ["arena"], seeds=10**12)


# ---- board sizes -----------------------------------------------------------------------------

@pytest.mark.parametrize("game, maps", [("google2010", "random:1:99999x99999"),
                                        ("google2010", "random:1:1001x20"),
                                        ("google2010", "random:1:4x20"),
                                        ("backtothecode", "random:1:35x99999")])
def test_random_map_sizes_are_refused_before_planning(capsys, db, game, maps):
    bots = ["random", "hugger"] if game == "google2010" else ["random", "greedy"]
    one_error(capsys, ["arena", "run", "--game", game, "--bots", *bots, "--maps", maps,
                       "--db", db, "--no-progress"], "random maps are", "the largest board")


def test_random_map_and_map_files_stop_at_the_protocols_1000x1000():
    from tronlab.tron.board import BoardError
    from tronlab.tron.mapgen import random_map
    from tronlab.tron.maps import parse_map

    with pytest.raises(ValueError, match="width must be at most 1000"):
        random_map(100000, 100000)
    with pytest.raises(ValueError, match="height must be at most 1000"):
        random_map(20, 1001, rng=0)
    assert random_map(1000, 5, rng=0).width == 1000
    with pytest.raises(BoardError, match="1001x3 is larger than the 1000x1000"):
        parse_map("1001 3\n" + ("#" * 1001 + "\n") * 3)


def test_tronlab_match_refuses_a_map_file_too_large(capsys, tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("5 100000\n" + "#####\n" * 100000)
    one_error(capsys, ["match", "random", "hugger", "--map", str(path)], "huge.txt",
              "5x100000 is larger than", prefix="tronlab: error: ")


# ---- stored games ----------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["99999999999999999999999999", "9223372036854775808",
                                     "-1", "1e3", "\u0661", "9" * 6000])
def test_a_replay_id_sqlite_cannot_hold_is_one_error_line(capsys, db, game_id):
    one_error(capsys, ["arena", "replay", db, game_id], "below 2**63")


def test_the_store_refuses_ids_sqlite_cannot_hold(db):
    with Store(db) as store:
        for bad in (10**30, -1, True, "1"):
            with pytest.raises(ValueError, match="no game"):
                store.record_json(bad)


# ---- output paths ----------------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--db", "--html"])
def test_an_empty_output_path_is_refused_before_the_tournament(capsys, tmp_path, monkeypatch,
                                                               option):
    monkeypatch.chdir(tmp_path)
    argv = RUN + ["--maps", "random:1", "--db", "a.sqlite"] + [option, ""]
    one_error(capsys, argv, f"{option} : the path is empty")
    assert list(tmp_path.iterdir()) == []          # no database made either


@pytest.mark.parametrize("option", ["--bots-dir", "--dask"])
def test_an_empty_bots_dir_or_dask_address_is_not_ignored(capsys, db, option):
    one_error(capsys, RUN + ["--db", db, option, " "], f"{option}: the value is empty")


def test_jobs_beside_dask_is_not_ignored(capsys, db):
    # the cluster plays the games: --jobs 4 was dropped without a word
    one_error(capsys, RUN + ["--db", db, "--dask", "tcp://127.0.0.1:1", "--jobs", "4"],
              "--jobs 4 plays on processes of this machine, --dask on the cluster's workers")


@pytest.mark.parametrize("rules", ["google2010", "backtothecode"])
def test_match_refuses_an_empty_save_path(capsys, rules):
    one_error(capsys, ["match", "random", "random", "--rules", rules, "--save", ""],
              "cannot save the record to : the path is empty", prefix="tronlab: error: ")


# ---- tables of what is not stored ------------------------------------------------------------

@pytest.fixture(scope="module")
def played(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("t") / "t.sqlite")
    assert tronlab_main(RUN + ["--maps", "random:1", "--db", db, "--tag", "week1"]) == 0
    return db


@pytest.mark.parametrize("filters, words", [
    (["--game", "nosuch"], ["no games of game 'nosuch' are stored", "'google2010'", "'week1'"]),
    (["--tag", "nosuch"], ["no games with tag 'nosuch' are stored", "'week1'"]),
    (["--tag", ""], ["no games with tag '' are stored"]),
    (["--game", "codingame", "--tag", "week1"], ["of game 'codingame' with tag 'week1'"]),
])
def test_a_table_of_a_game_or_tag_not_stored_names_what_is(capsys, played, filters, words):
    capsys.readouterr()
    one_error(capsys, ["arena", "table", played, *filters], *words)
    assert tronlab_main(["arena", "table", played, "--tag", "week1"]) == 0


def test_games_without_a_tag_are_named_so_not_as_empty_quotes(capsys, tmp_path):
    # before: "... it holds games of 'google2010' with tags ''"
    db = str(tmp_path / "u.sqlite")
    assert tronlab_main(RUN + ["--maps", "random:1", "--db", db]) == 0
    capsys.readouterr()
    one_error(capsys, ["arena", "table", db, "--tag", "nosuch"], "with tags (no tag)")


def test_a_filtered_table_of_an_empty_database_says_it_is_empty(capsys, db):
    one_error(capsys, ["arena", "table", db, "--tag", "x"], "holds no games yet")
    assert tronlab_main(["arena", "table", db]) == 0       # no filter: an empty table


def test_a_py_folder_is_called_a_folder(capsys, db, tmp_path):
    """``py:FOLDER`` was refused as 'no such Python file', as if the path were mistyped;
    it names the folder and where a folder of bots goes (--bots-dir)."""
    folder = str(tmp_path)
    words = ("is a folder", "one Python file", f"--bots-dir {folder}")
    one_error(capsys, ["match", f"py:{folder}", "random"], *words, prefix="tronlab: error: ")
    err = one_error(capsys, ["arena", "run", "--bots", "random", f"py:{folder}", "--db", db,
                             "--no-progress"], *words)
    assert "no such" not in err


def test_replays_without_the_page_is_refused(capsys, db, played, tmp_path):
    # --replays only chooses the page's replays: without --html it was accepted silently
    for argv in (RUN + ["--db", db, "--replays", "5"],
                 ["arena", "table", played, "--replays", "3"]):
        one_error(capsys, argv, "--replays chooses how many games of the leaderboard page",
                  "--html FILE")
    page = tmp_path / "p.html"
    assert tronlab_main(["arena", "table", played, "--replays", "0", "--html", str(page)]) == 0
    assert page.exists()
