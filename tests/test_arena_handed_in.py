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
