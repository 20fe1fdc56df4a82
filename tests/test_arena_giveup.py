"""A program that never answers its first move is given up on during the run.

Before: in a 29-bot class contest three such programs (a loop in move, a loop at the top of
the file, a silent program) took 914 s of the games' 2299 s, every one of their games
waiting out the first move's limit; the report said so only afterwards.  Now the run plays
none of such a program's games after its first ``give_up_after`` (2), stores none it did not
play, and decides again from the stored games at each start: an unchanged file stays given
up on, a changed file plays, ``give_up_after=0`` plays everything.
"""

from __future__ import annotations

import html
import json
from types import SimpleNamespace

import pytest

from tronlab.arena import Store, round_robin, run
from tronlab.arena.giveup import GiveUp, first_move_timeouts
from tronlab.cli import main as tronlab_main

HANG = "import time\n\ndef move(board, player):\n    time.sleep(60)\n"
FIXED = ("def move(board, player):\n    moves = list(board.legal_moves(player))\n"
         "    return moves[0] if moves else 0\n")
#: hangs on the first load only (a cold start): the first game times out, the others answer
COLD = ("import os, time\nMARK = os.path.join(os.path.dirname(__file__), 'warm')\n"
        "if not os.path.exists(MARK):\n    open(MARK, 'w').close()\n    time.sleep(60)\n" + FIXED)


@pytest.fixture
def quick_start(monkeypatch):
    """A first-move limit of 1 s, so each hung game costs 1 s, not 5."""
    monkeypatch.setenv("TRONLAB_PROGRAM_START", "1")


def _plan(hang, seeds=1):
    # registered opponents start at once: only the hung program waits out the limit
    return round_robin([f"py:{hang}", "random", "hugger"], "arena", seeds=seeds, time=0.05)


def _games_of(rows, name):
    return [r for r in rows if name in r["names"]]


def _all_hung(store, rows, name):
    """Whether ``name`` timed out on its first move in each of ``rows``, from the records."""
    return all(r["names"].index(name) in first_move_timeouts(store.record_json(r["id"]))
               for r in rows)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hung_program_is_given_up_on_and_its_other_games_wait_for_a_fixed_file(
        tmp_path, quick_start, monkeypatch, jobs):
    hang = tmp_path / "hang.py"
    hang.write_text(HANG)
    seeds = 1 if jobs == 1 else 3        # a pool starts jobs + 1 games before it can cancel
    plan = _plan(hang, seeds)
    hang_keys = {s.key for s in plan if "hang" in s.names}
    others = {s.key for s in plan} - hang_keys
    with Store(tmp_path / "g.sqlite") as store:
        first = run(plan, store, jobs=jobs, progress=False)
        rows = store.rows()
        stored = {r["key"] for r in rows}
        hung = _games_of(rows, "hang")
        assert others <= stored                         # every other game is played
        assert 2 <= len(hung) < len(hang_keys) and _all_hung(store, hung, "hang")
        [given] = first.given_up
        assert (given.name, given.games, given.unplayed, given.earlier) == \
            ("hang", len(hung), len(hang_keys) - len(hung), False)
        assert first.played == len(rows)
        # the same plan while the file is unchanged: nothing new, the same bot given up on
        again = run(_plan(hang, seeds), store, jobs=jobs, progress=False)
        assert again.played == 0 and store.done_keys() == stored
        assert [(g.name, g.unplayed, g.earlier) for g in again.given_up] == \
            [("hang", given.unplayed, True)]
        if jobs == 1:                                   # the page marks it (real records)
            from tronlab.arena.html import leaderboard_html
            from tronlab.arena.report import HUNG_NOTE, table_text
            assert "hang *" in table_text(rows, store=store) and HUNG_NOTE in table_text(
                rows, store=store)
            page = leaderboard_html(store, rows)
            assert "<td>hang *</td>" in page and page.count(" *</td>") == 1
            assert html.escape(HUNG_NOTE) in page
        # the student fixes the file: a new version, all its games are played
        hang.write_text(FIXED)
        monkeypatch.setenv("TRONLAB_PROGRAM_START", "5")     # a started program answers
        fixed = run(_plan(hang, seeds), store, jobs=jobs, progress=False)
        assert fixed.played == len(hang_keys) and fixed.given_up == []
        assert _all_hung(store, fixed.rows, "hang") is False


def test_give_up_after_0_plays_every_game(tmp_path, quick_start):
    hang = tmp_path / "hang.py"
    hang.write_text(HANG)
    plan = _plan(hang)
    with Store(tmp_path / "z.sqlite") as store:
        result = run(plan, store, progress=False, give_up_after=0)
        assert result.played == len(plan) == 6 and result.given_up == []
        assert _all_hung(store, _games_of(store.rows(), "hang"), "hang")


def test_a_program_that_answers_once_after_a_slow_start_is_not_given_up_on(tmp_path,
                                                                          quick_start):
    cold = tmp_path / "cold.py"
    cold.write_text(COLD)
    plan = round_robin([f"py:{cold}", "random", "hugger"], "arena", time=0.05)
    with Store(tmp_path / "c.sqlite") as store:
        result = run(plan, store, progress=False, check_load=False)
        rows = store.rows()
        assert result.played == len(plan) and result.given_up == []
        firsts = [r["names"].index("cold") in first_move_timeouts(store.record_json(r["id"]))
                  for r in _games_of(rows, "cold")]
    assert firsts[0] and not any(firsts[1:])        # one cold start, then it answered


def test_the_run_and_the_table_say_whom_it_gave_up_on_and_how_to_play_its_games(
        tmp_path, quick_start, capsys, monkeypatch):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "hang.py").write_text(HANG)
    (folder / "ann.py").write_text(FIXED)
    db = str(tmp_path / "class.sqlite")
    args = ["arena", "run", "--no-progress", "--bots-dir", str(folder), "--bots", "hugger",
            "--maps", "arena", "--time", "0.05", "--db", db]
    made = []
    real_init = GiveUp.__init__

    def counted(self, *a, **k):
        made[-1] += 1
        real_init(self, *a, **k)
    monkeypatch.setattr(GiveUp, "__init__", counted)
    made.append(0)
    assert tronlab_main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 games planned, 0 already in")
    made.append(0)
    assert ("gave up on hang: it did not answer its first move in any of its 2 games, so its "
            "other 2 games were not played") in out
    assert f"fix {folder / 'hang.py'}" in out and "run the same command again" in out
    # hugger meets hang first in the plan: it scored from hang, ann never met it
    assert "the table is uneven: hugger played it and scored from its timeouts, ann did not" in out
    assert "hang never answered a first move: its 2 games" in out       # the table's note
    assert tronlab_main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 games planned, 4 already in")
    assert "0 to play (2 games of hang not: given up on in an earlier run" in out
    assert "gave up on hang in an earlier run (its file has not changed since)" in out
    assert made == [1, 1]           # each run reads the stored games' records once
    assert tronlab_main(args + ["--give-up-after", "0"]) == 0
    out = capsys.readouterr().out
    assert "2 to play" in out and "gave up" not in out
    # the table's note tells of the setting used, not of the default
    assert "this run did not give up on such a program (--give-up-after 0)" in out
    assert "gives up on such a program" not in out


def test_first_move_timeouts_read_tron_and_capture_records():
    tron = {"events": [{"turn": 1, "player": 1, "kind": "timeout"},
                       {"turn": 3, "player": 0, "kind": "timeout"},
                       {"turn": 1, "player": 2, "kind": "crash"}]}
    capture = {"format": "tronlab-capture",
               "events": [[1, 1, 0, "timeout", "fault: timeout"],
                          [2, 2, 1, "timeout", "fault: timeout"]]}
    assert first_move_timeouts(json.dumps(tron)) == {1}
    assert first_move_timeouts(json.dumps(capture)) == {0}


def _row(key, bots, first_timeouts):
    """A stored game's row: the seats in ``first_timeouts`` timed out on turn 1."""
    events = [{"turn": 1, "player": p, "kind": "timeout"} for p in first_timeouts]
    return {"key": key, "game": "google2010", "bots": bots, "names": [b[3:] or b for b in bots],
            "map": "m", "map_set": "s", "seed": 1, "winner": None, "ranks": [0, 0],
            "turns": 1, "faults": ["timeout" if p in first_timeouts else None
                                   for p in range(len(bots))],
            "record": json.dumps({"events": events})}


def _two_hung_then_answered():
    """A plan of six games of py:x against random, and x's first three games as stored:
    it timed out on the first move of two, then answered in the third."""
    plan = [SimpleNamespace(key=f"k{i}", bots=("py:x", "random"), names=("x", "random"))
            for i in range(6)]
    rows = [_row("k0", ["py:x", "random"], {0}), _row("k1", ["py:x", "random"], {0}),
            _row("k2", ["py:x", "random"], set())]
    return plan, rows


def test_a_program_that_answers_in_a_game_under_way_is_played_again_by_the_rerun(tmp_path):
    # a pool cancels the games not started when the second game comes back hung; a third,
    # already running, comes back answered: this run says so, the rerun plays the rest
    from tronlab.arena.giveup import GiveUp, given_up_lines
    plan, rows = _two_hung_then_answered()
    with Store(tmp_path / "u.sqlite") as store:
        quit_ = GiveUp(plan, store)
        assert quit_.add(rows[0]) == [] and quit_.add(rows[1]) == ["py:x"]
        assert quit_.skips(plan[3]) and quit_.add(rows[2]) == []
        for row in rows:
            store.add(row)
        [given] = quit_.report(plan, store.done_keys())
        assert (given.games, given.unplayed, given.answered) == (2, 3, True)
        assert "run the same command again to play them" in given_up_lines([given])[0]
        assert GiveUp(plan, store).given_up == {}          # the rerun plays its games
        assert GiveUp(plan[:2], store).given_up == {"py:x": True}   # 2 games, both hung
        assert GiveUp(plan[:2], store, 3).given_up == {}            # K = 3: not yet


def test_a_dask_run_cancels_the_games_of_a_bot_it_gave_up_on(tmp_path, quick_start):
    distributed = pytest.importorskip("distributed")
    from tronlab.arena import dask_executor
    hang = tmp_path / "hang.py"
    hang.write_text(HANG)
    plan = _plan(hang, seeds=3)
    hang_keys = {s.key for s in plan if "hang" in s.names}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=["random", "hugger"])
        with Store(tmp_path / "d.sqlite") as store:
            result = run(plan, store, executor=executor, progress=False)
            hung = _games_of(store.rows(), "hang")
            assert result.failed is None and result.played == len(plan) - len(hang_keys) \
                + len(hung)
            assert 2 <= len(hung) < len(hang_keys)
            assert [(g.name, g.unplayed) for g in result.given_up] == \
                [("hang", len(hang_keys) - len(hung))]


def test_the_note_names_a_hung_bot_of_a_game_that_went_on_without_it(tmp_path, monkeypatch):
    # three players: x timed out on turn 1 and the other two played on to turn 9, so the
    # rows alone (turns <= 1) do not tell; the records do
    from tronlab.arena.report import first_move_note, never_answered
    with Store(tmp_path / "three.sqlite") as store:
        for i in range(2):
            row = _row(f"k{i}", ["py:x", "random", "hugger"], {0})
            row.update(turns=9, ranks=[2, 0, 1], winner=1)
            store.add(row)
        rows = store.rows()
        assert never_answered(rows) == []
        assert never_answered(rows, store) == ["x"]
        assert first_move_note(rows, store)[0].startswith("  x never answered a first move")
        # the note tells of the run's --give-up-after, on the page as in the table
        from tronlab.arena.html import leaderboard_html
        assert "(--give-up-after, 2 by default)" in first_move_note(rows, store)[1]
        assert "(--give-up-after, 3 in this run)" in first_move_note(rows, store, None, 3)[1]
        monkeypatch.setattr("tronlab.arena.html._first_fault", lambda *a: "")  # no record
        page = leaderboard_html(store, rows, max_replays=0, give_up_after=0)
        assert "did not give up on such a program (--give-up-after 0)" in page
        assert "gives up on such a program" not in page
        late = _row("k2", ["py:x", "random", "hugger"], set())
        late.update(turns=9, ranks=[2, 0, 1], winner=1, faults=["timeout", None, None],
                    record=json.dumps({"events": [{"turn": 4, "player": 0, "kind": "timeout"}]}))
        store.add(late)
        assert never_answered(store.rows(), store) == []     # it answered in that game


def test_the_fix_line_names_a_programs_file_not_the_python_running_it(tmp_path):
    # a contest program found in --bots-dir is 'cmd:PYTHON FILE': the teacher fixes FILE
    import shlex
    import sys

    from tronlab.arena.giveup import GivenUp, given_up_lines
    prog = tmp_path / "silent prog.py"
    prog.write_text("import time\ntime.sleep(60)\n")
    spec = "cmd:" + shlex.join([sys.executable, str(prog)])
    lines = given_up_lines([GivenUp("silent prog", spec, 2, 54)])
    assert f"  to play them: fix {prog} (a loop" in lines[1], lines
    assert sys.executable not in lines[1]


def test_a_capture_timeout_after_a_rewind_to_round_1_is_not_a_first_move_timeout():
    # Back to the Code: a BACK on turn 1 leaves round 1 to play again, so turn 2 is round 1
    # too; the seat that timed out on turn 2 had answered its first move (turn 1)
    from tronlab.capture.external import ProgramFault
    from tronlab.capture.game import play_capture

    def rewinds(view, p):
        return ("BACK", 1)

    answered = []

    def then_hangs(view, p):
        answered.append(p)
        if len(answered) == 1:
            return view.positions[p]
        raise ProgramFault("timeout", "no answer within the turn's limit")

    rec = play_capture([rewinds, then_hangs], rng=1, width=12, height=8)
    events = rec.to_dict()["events"]
    timeout = [e for e in events if e[3] == "timeout"]
    assert [e[:3] for e in timeout] == [[2, 1, 1]]      # turn 2, round 1, seat 1
    assert first_move_timeouts(json.dumps(rec.to_dict())) == set()


def test_a_stopped_run_counts_the_games_a_rerun_plays_of_a_bot_that_answered(tmp_path):
    # the run gave up on x after two hung games, then x answered in a game under way, and
    # the run was stopped: the rerun plays x's 3 other games, and 'stopped: ... to play the
    # other N' counts them
    from tronlab.arena.runtext import to_play as _to_play
    from tronlab.arena.giveup import GiveUp
    plan, rows = _two_hung_then_answered()
    with Store(tmp_path / "s.sqlite") as store:
        quit_ = GiveUp(plan, store)
        for row in rows:
            quit_.add(row)
            store.add(row)
        result = SimpleNamespace(given_up=quit_.report(plan, store.done_keys()), kept=[])
        rerun = GiveUp(plan, store)          # what the same command decides
        stored = store.rows()
        played_by_rerun = [s for s in plan if s.key not in store.done_keys()
                           and not rerun.skips(s)]
        assert len(played_by_rerun) == 3
        assert _to_play(plan, stored, result) == 3


def test_the_start_line_names_only_the_bots_whose_games_it_holds_back_in_class_order(tmp_path):
    # zed and amy were given up on in an earlier run (zed's games stored first); all of
    # old's games were played (--give-up-after 0), so none of the held games is old's
    from tronlab.arena.giveup import GiveUp, held_back

    def spec(key, bot):
        return SimpleNamespace(key=key, bots=(bot, "random"), names=(bot[3:], "random"))

    plan = ([spec(f"z{i}", "py:zed") for i in range(4)] + [spec(f"a{i}", "py:amy")
                                                            for i in range(4)]
            + [spec(f"o{i}", "py:old") for i in range(2)])
    with Store(tmp_path / "h.sqlite") as store:
        for key, bot in [("z0", "py:zed"), ("z1", "py:zed"), ("a0", "py:amy"),
                         ("a1", "py:amy"), ("o0", "py:old"), ("o1", "py:old")]:
            store.add(_row(key, [bot, "random"], {0}))
        kept, words = held_back(plan, GiveUp(plan, store, 2), store.done_keys())
    assert kept == 4
    assert words == " (4 games of amy, zed not: given up on in an earlier run, see the end)"


def test_the_end_of_the_run_names_the_bots_given_up_on_in_class_order(tmp_path):
    from tronlab.arena.giveup import GiveUp
    plan = [SimpleNamespace(key=f"{b}{i}", bots=(f"py:{b}", "random"), names=(b, "random"))
            for b in ("zed", "amy") for i in range(3)]
    with Store(tmp_path / "o.sqlite") as store:
        for key, bot in [("zed0", "py:zed"), ("zed1", "py:zed"), ("amy0", "py:amy"),
                         ("amy1", "py:amy")]:
            store.add(_row(key, [bot, "random"], {0}))
        given = GiveUp(plan, store).report(plan, store.done_keys())
    assert [(g.name, g.unplayed) for g in given] == [("amy", 1), ("zed", 1)]


def test_the_ratings_mark_a_bot_that_never_answered_and_say_why(tmp_path):
    # x's two games are first-move timeouts: its rating (two free wins for random) says
    # nothing of its play, and the table and the page say so beside its name
    from tronlab.arena.report import HUNG_NOTE, ratings_text
    plan, rows = _two_hung_then_answered()
    with Store(tmp_path / "r.sqlite") as store:
        for row in rows[:2] + [_row("k9", ["random", "hugger"], set())]:
            row.update(winner=1 if row["bots"][0] == "py:x" else None,
                       ranks=[1, 0] if row["bots"][0] == "py:x" else [0, 0])
            store.add(row)
        text = ratings_text(store.rows(), store).splitlines()
        marked = [line.split()[1:3] for line in text[1:4]]
        assert ["x", "*"] in marked and all(m[1] != "*" for m in marked if m[0] != "x"), text
        assert text[-1] == HUNG_NOTE
        store.add(rows[2])                                  # then it answered: no mark
        assert "*" not in ratings_text(store.rows(), store)
