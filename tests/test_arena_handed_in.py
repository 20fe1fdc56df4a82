"""A student hands in a new file while the class contest is being played.

A game's key holds a hash of each bot's file as the run found it when it made its
plan; a game played by a file handed in later must not be stored under that key,
or the table would mix two versions of the bot with nothing to tell them apart, and
the old version's games would keep the new one's results for good once the student
went back to the old file.
"""

from __future__ import annotations


from tronlab.arena.play import changed_bots, play_spec
from tronlab.arena.schedule import round_robin
from tronlab.arena.store import Store
from tronlab.cli import main as tronlab_main

FIRST = """\
def move(board, player):
    moves = list(board.legal_moves(player))
    return moves[0] if moves else 0
"""

#: hands itself in again (a line more) during its first game, once
SELF_EDITING = """\
import os


def move(board, player):
    path = os.path.abspath(__file__)
    with open(path) as f:
        again = f.read().endswith("#2\\n")
    if not again:
        with open(path, "a") as f:
            f.write("#2\\n")
    moves = list(board.legal_moves(player))
    return moves[0] if moves else 0
"""


def test_a_game_whose_file_changed_since_the_plan_is_not_played(tmp_path):
    ann = tmp_path / "ann.py"
    ann.write_text(FIRST)
    spec = round_robin([f"py:{ann}", "hugger"], ["arena"], time=0.05)[0]
    assert changed_bots(spec) == []
    ann.write_text(FIRST + "# a comment: a new version\n")
    assert play_spec(spec) == {"key": spec.key, "names": list(spec.names), "changed": ["ann"]}


def test_relative_files_are_compared_in_the_run_s_folder(tmp_path, monkeypatch):
    # a Dask worker plays in a folder of its own: the run sends its own (cwd)
    (tmp_path / "ann.py").write_text(FIRST)
    monkeypatch.chdir(tmp_path)
    spec = round_robin(["py:ann.py", "hugger"], ["arena"], time=0.05)[0]
    monkeypatch.chdir(tmp_path.parent)
    assert changed_bots(spec, str(tmp_path)) == []
    (tmp_path / "ann.py").write_text(FIRST + "# v2\n")
    assert changed_bots(spec, str(tmp_path)) == ["ann"]


def test_a_file_handed_in_during_the_run_stores_none_of_its_new_games(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text(SELF_EDITING)
    db = tmp_path / "class.sqlite"
    code = tronlab_main(["arena", "run", "--no-progress", "--bots-dir", str(folder),
                         "--bots", "hugger", "--maps", "arena", "--time", "0.05",
                         "--db", str(db)])
    out = capsys.readouterr().out
    assert code == 0
    assert (folder / "ann.py").read_text().endswith("#2\n")
    # the first game was played by the old file, which changed during it; the second
    # would have been the new file's: neither is stored under the old file's key
    with Store(db) as store:
        assert store.rows() == []
    assert "ann's file changed while this run played: 2 games of ann were not stored" in out
    assert "run the same command again to play every game of the new file" in out


def _stored(store, plan, winner):
    """Store a made-up result for each game of ``plan`` (no game is played)."""
    for s in plan:
        store.add({"key": s.key, "tag": s.tag, "game": s.game, "bots": list(s.bots),
                   "names": list(s.names), "map": s.map_label, "map_set": s.map_set,
                   "seed": s.seed, "time": s.time, "depth": s.depth, "bank": s.bank,
                   "winner": winner, "ranks": [1 - winner, winner], "turns": 1,
                   "faults": [None, None], "record": "{}"})


def test_going_back_to_an_earlier_file_brings_back_its_games_everywhere(tmp_path):
    # ann v1 wins every game from seat 0, v2 from seat 1; the student goes back to v1:
    # the run plays nothing (v1's games are stored) and arena table and export, which
    # keep the latest version of each game, must keep v1's as the run's table does
    from tronlab.arena.store import latest_versions
    from tronlab.arena.tournament import run

    ann = tmp_path / "ann.py"
    plans = []
    with Store(tmp_path / "class.sqlite") as store:
        for version, winner in ((FIRST, 0), (FIRST + "# v2\n", 1)):
            ann.write_text(version)
            plans.append(round_robin([f"py:{ann}", "hugger"], ["arena"], time=0.05))
            _stored(store, plans[-1], winner)
        assert {r["key"] for r in latest_versions(store.rows())[0]} == {
            s.key for s in plans[1]}
        ann.write_text(FIRST)
        again = round_robin([f"py:{ann}", "hugger"], ["arena"], time=0.05)
        assert {s.key for s in again} == {s.key for s in plans[0]}
        result = run(again, store, progress=False)
        assert result.played == 0 and result.skipped == len(again)
        kept, replaced = latest_versions(store.rows())
        assert {r["key"] for r in kept} == {s.key for s in plans[0]} and replaced == 2
        assert {r["winner"] for r in kept} == {0}
        # and a third file, handed in after that, is the latest again
        ann.write_text(FIRST + "# v3\n")
        third = round_robin([f"py:{ann}", "hugger"], ["arena"], time=0.05)
        _stored(store, third, 1)
        assert {r["key"] for r in latest_versions(store.rows())[0]} == {s.key for s in third}


def test_the_run_says_whose_changed_file_it_plays_again(tmp_path):
    from tronlab.arena.runtext import played_again

    ann, bob = tmp_path / "ann.py", tmp_path / "bob.py"
    ann.write_text(FIRST)
    bob.write_text(FIRST)

    def plan():
        return round_robin([f"py:{ann}", f"py:{bob}", "hugger"], ["arena"], time=0.05)

    with Store(tmp_path / "class.sqlite") as store:
        assert played_again(store, plan(), store.done_keys()) == ""      # a new database
        _stored(store, plan(), 0)
        assert played_again(store, plan(), store.done_keys()) == ""      # nothing changed
        ann.write_text(FIRST + "# v2\n")
        # ann's 4 games (2 opponents, 2 seats) again; bob, who played ann, did not change
        assert played_again(store, plan(), store.done_keys()) == (
            "\n  4 of them are played again: the file of ann changed since its games were "
            "stored")
        bob.write_text(FIRST + "# v2\n")
        assert played_again(store, plan(), store.done_keys()) == (
            "\n  6 of them are played again: the files of ann, bob changed since their "
            "games were stored")
        # the class folder moved, no file changed: its games are new games, none again
        moved = tmp_path / "moved"
        moved.mkdir()
        ann, bob = (moved / "ann.py", moved / "bob.py")
        ann.write_text(FIRST)
        bob.write_text(FIRST)
        assert played_again(store, plan(), store.done_keys()) == ""


def test_a_worker_on_another_python_reads_the_files_the_run_hashed(tmp_path, monkeypatch):
    # a cmd: line names the run's Python, which is no bot file; a Dask worker running
    # another Python must leave it out too, or every such game looked changed
    import sys

    program = tmp_path / "ida.py"
    program.write_text("print(1)\n")
    spec = round_robin([f"cmd:{sys.executable} {program}", "hugger"], ["arena"], time=0.05)[0]
    run_python = sys.executable
    other = tmp_path / "python3"
    other.write_text("")
    monkeypatch.setattr(sys, "executable", str(other))
    assert changed_bots(spec, str(tmp_path), run_python) == []
    program.write_text("print(2)\n")
    assert changed_bots(spec, str(tmp_path), run_python) == ["ida"]


def test_a_class_folder_copied_and_played_again_counts_once(tmp_path):
    # the games of cap2/ replace those of cap/: every spec's path changed, and with it
    # every game's seed (made from the specs), so seeds alone matched none of them
    from tronlab.arena.store import latest_versions

    plans = []
    with Store(tmp_path / "class.sqlite") as store:
        for folder, winner in (("cap", 0), ("cap2", 1)):
            (tmp_path / folder).mkdir()
            for name in ("ann", "bob"):
                (tmp_path / folder / f"{name}.py").write_text(FIRST)
            plans.append(round_robin([f"py:{tmp_path / folder / 'ann.py'}",
                                      f"py:{tmp_path / folder / 'bob.py'}"],
                                     ["arena", "ring"], seeds=2, time=0.05))
            _stored(store, plans[-1], winner)
        assert not {s.seed for s in plans[0]} & {s.seed for s in plans[1]}
        kept, replaced = latest_versions(store.rows())
        assert {r["key"] for r in kept} == {s.key for s in plans[1]} and replaced == 8
        # a copy played in part (a stopped run) replaces as many games of each kind
        partial = [r for r in store.rows() if r["key"] not in {s.key for s in plans[1][1:]}]
        kept, replaced = latest_versions(partial)
        assert len(kept) == 8 and replaced == 1
