"""The Back to the Code game loop and records (tronlab.capture.game): JSON round trips,
exact replay, bot failures as faults, and golden games replayed exactly."""

import json
import os
import sys
import time

import numpy as np
import pytest

from tronlab.capture.bots import RandomBot
from tronlab.capture.game import CaptureRecord, play_capture

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")

#: name -> (bots, seed): one game per player count and one with BACKs
GOLDEN_GAMES = {
    "two": (["nearest", "random"], 2015),
    "three": (["random", "nearest", "random"], 2016),
    "four": (["nearest", "random", "nearest", "random"], 2017),
    "backs": (["random-back", "nearest", "random-back"], 2019),
}


def golden_game(name):
    bots, seed = GOLDEN_GAMES[name]
    return play_capture(bots, rng=seed, metadata={"golden": name, "bots": bots, "seed": seed})


def write_golden():  # pragma: no cover - run by hand to refresh the files
    os.makedirs(GOLDEN, exist_ok=True)
    for name in GOLDEN_GAMES:
        golden_game(name).save(os.path.join(GOLDEN, f"{name}.json"))


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_game_replays_exactly(name):
    stored = CaptureRecord.load(os.path.join(GOLDEN, f"{name}.json"))
    stored.verify()                         # the rules give the stored game from its actions
    states = stored.replay()
    assert ["".join("." if v < 0 else str(v) for v in row)
            for row in states[-1].owner.tolist()] == stored.final
    assert list(states[-1].scores()) == stored.outcome["scores"]
    fresh = golden_game(name)               # and the same bots and seed play the same game
    assert fresh.to_dict() == stored.to_dict()


def test_golden_games_cover_what_they_should():
    records = {n: CaptureRecord.load(os.path.join(GOLDEN, f"{n}.json")) for n in GOLDEN_GAMES}
    assert [records[n].n_players for n in ("two", "three", "four")] == [2, 3, 4]
    backs = [e for e in records["backs"].events if e[3] in ("back", "rewind")]
    assert [(e[2], e[3]) for e in backs] == [
        (0, "back"), (None, "rewind"), (2, "back"), (None, "rewind")]
    assert backs[0][4] == "24" and backs[1][4].startswith("17 rounds back")   # capped at r-1
    for rec in records.values():
        assert rec.outcome is not None and len(rec.actions) == rec.outcome["turns"]


def test_records_round_trip_through_json(tmp_path):
    rec = play_capture([RandomBot(1, back_chance=0.05), "nearest"], rng=3, width=9, height=6)
    path = tmp_path / "game.json"
    rec.save(path)
    again = CaptureRecord.load(path)
    assert again == rec and json.loads(path.read_text())["format"] == "tronlab-capture"
    again.verify()


def test_verify_notices_a_changed_action():
    rec = play_capture(["nearest", "nearest"], rng=4, width=8, height=5)
    rec.actions[0][0] = "timeout"
    with pytest.raises(ValueError, match="different"):
        rec.verify()
    with pytest.raises(ValueError, match="not a tronlab-capture"):
        CaptureRecord.from_dict({"format": "tronlab-game", "version": 1})


@pytest.mark.parametrize("name", ["outcome", "events", "final"])
def test_verify_notices_a_changed_outcome_event_or_final_grid(name):
    rec = play_capture(["nearest", "nearest"], rng=4, width=8, height=5)
    rec.verify()
    if name == "outcome":
        rec.outcome["scores"] = rec.outcome["scores"][::-1] + [0]
    elif name == "events":
        rec.events.append([1, 1, 0, "timeout", "fault: timeout"])
    else:
        rec.final[0] = "0" * len(rec.final[0]) if rec.final[0][0] != "0" else "." * 8
    with pytest.raises(ValueError, match=f"different {name}"):
        rec.verify()


def test_a_bot_that_raises_or_talks_nonsense_is_eliminated():
    def crash(view, player):
        raise RuntimeError("oops")

    def nonsense(view, player):
        return "north" if view.round > 2 else (view.width - 1, 0)

    rec = play_capture([crash, nonsense, "nearest"], rng=5, width=10, height=6)
    kinds = {(e[2], e[3]) for e in rec.events}
    assert (0, "error") in kinds and (1, "bad-output") in kinds
    assert rec.notes[0] == [1, 0, "RuntimeError: oops"]
    assert rec.notes[1] == [3, 1, "not an action: 'north'"]
    assert rec.actions[0][0] == "error" and rec.actions[1][0] is None
    assert rec.actions[2][1] == "bad-output"
    rec.verify()


def test_numpy_integers_from_a_bot_are_recorded_as_plain_ints():
    def bot(view, player):
        return (np.int64(0), np.int32(0))

    rec = play_capture([bot, "nearest"], rng=6, width=6, height=4)
    assert all(type(v) is int for v in rec.actions[0][0])
    json.dumps(rec.to_dict())


def test_bots_must_match_the_player_count():
    with pytest.raises(ValueError, match="3 bots for 2"):
        play_capture(["nearest"] * 3, n_players=2)
    with pytest.raises(ValueError, match="unknown bot"):
        play_capture(["nearest", "clever"])


@pytest.fixture
def bot_clock(monkeypatch):
    """A fake clock for the game's timing that only the bots advance: ``clock[0] += s``."""
    import types
    from tronlab.capture import game
    clock = [0.0]
    monkeypatch.setattr(game, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    return clock


def timeouts(rec):
    """``(turn, player)`` of every timeout in a record."""
    return [(turn, p) for turn, _r, p, kind, _d in rec.events if kind == "timeout"]


def test_in_process_bots_are_timed_first_turn_apart(bot_clock):
    # 0.5 s on the bots' first turn, 0.05 s later
    def still(view, player):
        bot_clock[0] += 0.5 if view.round == 1 else 0.05
        return view.positions[player]

    for first in (0.6, None):                   # None: the default first-turn limit, 1 s
        rec = play_capture([still, still], rng=1, width=8, height=5, time_limit=0.1,
                           first_time_limit=first)
        assert timeouts(rec) == [] and rec.outcome["reason"] == "idle"
    rec = play_capture([still, still], rng=1, width=8, height=5, time_limit=0.1,
                       first_time_limit=0.4)
    assert timeouts(rec) == [(1, 0), (1, 1)] and rec.actions[0] == ["timeout", "timeout"]
    rec = play_capture([still, still], rng=1, width=8, height=5, time_limit=0.01)
    assert timeouts(rec) == [(2, 0), (2, 1)]    # 0.05 s is over 0.01 s from turn 2 on


def test_an_answer_of_exactly_the_limit_is_in_time_and_a_hair_more_is_not(bot_clock):
    """Binary fractions on the fake clock, so the seconds spent are exact.  The test
    above is late by 0.1 s or five times the limit, so a game that let a bot run 10 ms
    over (spent > limit + 0.01) passed it."""
    def still(view, player):
        bot_clock[0] += 0.5 if view.round == 1 else 0.0625
        return view.positions[player]

    rec = play_capture([still, still], rng=1, width=8, height=5, time_limit=0.0625,
                       first_time_limit=0.5)
    assert timeouts(rec) == [] and rec.outcome["reason"] == "idle"
    rec = play_capture([still, still], rng=1, width=8, height=5, time_limit=0.0624,
                       first_time_limit=0.5)
    assert timeouts(rec) == [(2, 0), (2, 1)]


def test_an_eliminated_bot_is_closed_at_once_and_not_asked_again():
    turns = []

    def still(view, player):
        turns.append(view.round)
        return view.positions[player]

    class Quitter:
        def __init__(self):
            self.asked, self.closed_after = 0, []

        def __call__(self, view, player):
            self.asked += 1
            return "quit"                        # not an action: bad-output, eliminated

        def close(self):
            self.closed_after.append(len(turns))

    quitter = Quitter()
    rec = play_capture([quitter, still], rng=1, width=8, height=5)
    assert rec.events[0][2:4] == [0, "bad-output"] and quitter.asked == 1
    assert len(turns) > 20                       # the other bot played on ...
    assert quitter.closed_after[0] == 1          # ... after the quitter was closed, turn 1


def test_records_of_the_two_games_name_each_other_and_share_their_methods(tmp_path):
    # before: CaptureRecord had no from_json, and states() (boards() on a Tron record) was
    # only replay(), which on a Tron record returns the final board; loading the other
    # game's record said only 'not a tronlab-capture record, version 1' (or the Tron
    # one's 'not a tronlab game record'), a missing field a bare TypeError from __init__
    import tronlab
    from tronlab.runner.records import GameRecord
    rec = play_capture(["nearest", "random"], rng=4, width=6, height=4)
    back = CaptureRecord.from_json(rec.to_json())
    assert back == rec
    assert [s.owner.tolist() for s in back.states()] == [s.owner.tolist()
                                                         for s in rec.replay()]
    board = tronlab.Board.from_ascii("#####\n#1.2#\n#####")
    tron = tronlab.play(board, [tronlab.get_bot("hugger")] * 2, rng=1)
    tron_path, capture_path = tmp_path / "tron.json", tmp_path / "capture.json"
    tron.save(tron_path)
    rec.save(capture_path)
    with pytest.raises(ValueError, match="it is a Tron game record: tronlab.GameRecord.load"):
        CaptureRecord.load(tron_path)
    with pytest.raises(ValueError, match="it is a Back to the Code record: "
                                         "tronlab.capture.CaptureRecord.load"):
        GameRecord.load(capture_path)
    with pytest.raises(ValueError, match="capture record is not valid JSON"):
        CaptureRecord.from_json("{")
    data = rec.to_dict()
    del data["starts"]
    with pytest.raises(ValueError, match="capture record has no 'starts' field"):
        CaptureRecord.from_dict(data)
    with pytest.raises(ValueError, match="capture record has an unknown field 'bogus'"):
        CaptureRecord.from_dict({**rec.to_dict(), "bogus": 1})
    with pytest.raises(ValueError, match="version 2 is not supported"):
        CaptureRecord.from_dict({**rec.to_dict(), "version": 2})
    with pytest.raises(ValueError, match="not a tronlab-capture record"):
        CaptureRecord.from_dict([1, 2])             # before: an AttributeError


def test_the_pictures_are_exported_as_tronlab_exports_draw_board():
    # before: 'from tronlab.capture import draw_state' was an ImportError (only
    # tronlab.capture.render had it), where 'from tronlab import draw_board' works
    import subprocess
    import sys

    import tronlab.capture
    from tronlab.capture import render
    assert tronlab.capture.draw_state is render.draw_state
    assert tronlab.capture.draw_grid is render.draw_grid
    assert {"draw_grid", "draw_state"} <= set(tronlab.capture.__all__)
    code = "import sys, tronlab.capture; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)), timeout=120)
    assert out.stdout.strip() == "False", out.stderr       # still light to import


def test_the_first_turn_limit_defaults_to_three_times_the_later_ones(bot_clock):
    # before: play_capture's first turn had 1 s whatever time_limit was (time_limit=2: 1 s
    # first, 2 s later), and CaptureProgram's too unless the CLI set it; tronlab.play and
    # the CLI give the first turn 3 x time_limit (the CLI at least 1 s)
    from tronlab.capture.external import CaptureProgram

    def slow_start(view, player):
        bot_clock[0] += 1.5 if view.round == 1 else 0.05
        return view.positions[player]

    rec = play_capture([slow_start, slow_start], rng=1, width=8, height=5, time_limit=0.6)
    assert timeouts(rec) == []                              # 1.8 s for the first turn
    rec = play_capture([slow_start, slow_start], rng=1, width=8, height=5, time_limit=0.1)
    assert timeouts(rec) == [(1, 0), (1, 1)]                # the contest's 1 s floor stays
    # an outside program: the same default, unless its first-turn limit was given
    assert CaptureProgram(["true"]).first_time_limit == 1.0
    assert CaptureProgram(["true"], time_limit=2).first_time_limit == 6
    prog = CaptureProgram(["true"])
    prog.start_game(2, 0, time_limit=0.5)
    assert prog.first_time_limit == 1.5
    mine = CaptureProgram(["true"], first_time_limit=5)
    mine.start_game(2, 0, time_limit=0.1)
    assert mine.first_time_limit == 5


def test_a_bot_that_never_answers_times_out_instead_of_hanging_the_game():
    # tronlab.play abandons a timed bot that hangs; play_capture waited for it forever
    import threading
    release = threading.Event()

    def stuck(view, player):
        release.wait(60)                    # an endless loop, set free when the test ends
        return view.positions[player]

    start = time.perf_counter()
    try:
        rec = play_capture([stuck, "nearest"], rng=1, width=8, height=5, time_limit=0.2,
                           first_time_limit=0.3)
    finally:
        release.set()
    assert time.perf_counter() - start < 10
    assert timeouts(rec) == [(1, 0)] and rec.actions[0][0] == "timeout"
    assert rec.outcome["ranks"] == [2, 1]
    assert any(p == 0 and "no answer 1300 ms after it was asked, limit 300 ms" in text
               for _t, p, text in rec.notes)


def test_a_timed_bot_is_asked_on_one_thread_for_the_whole_game():
    # play_capture started a thread for every call of a timed bot: 0.5-0.7 ms a call
    # (benchmarks/capture_loop.py); the Tron engine keeps one worker a seat
    import threading
    seen = {0: [], 1: []}

    def still(view, player):
        seen[player].append(threading.current_thread())    # kept alive: ids stay unique
        return view.positions[player]

    rec = play_capture([still, still], rng=1, width=8, height=5, time_limit=1.0)
    assert rec.outcome["turns"] > 20 and len(seen[0]) == rec.outcome["turns"]
    threads = {p: {id(t) for t in calls} for p, calls in seen.items()}
    assert [len(ids) for ids in threads.values()] == [1, 1] and threads[0] != threads[1]
    for calls in seen.values():         # the workers end with the game
        calls[0].join(5)
        assert not calls[0].is_alive()


@pytest.mark.parametrize("call", [lambda: sys.exit(3), lambda: exit()])
def test_a_bot_that_ends_the_program_is_an_error_not_the_end_of_the_caller(call):
    def quits(view, player):
        call()

    for limit in (None, 0.5):               # untimed, and timed in a thread
        rec = play_capture([quits, "nearest"], rng=1, width=8, height=5, time_limit=limit)
        assert rec.actions[0][0] == "error" and rec.outcome["ranks"] == [2, 1]
        assert rec.notes[0][:2] == [1, 0] and rec.notes[0][2].startswith("SystemExit")


@pytest.mark.parametrize("item", [["BACK", 2.5], [2.7, 1], [1, 2.0], ["jump", 3], [1, 2, 3]])
def test_a_record_with_a_non_integer_action_is_refused_not_rounded(item):
    # int() cut a recorded ["BACK", 2.5] to BACK 2 and [2.7, 1] to (2, 1): the replay
    # showed a game nobody played.  Now the replay names the turn and the player
    def stay(view, player):
        return view.positions[player]

    rec = play_capture([stay, stay], width=7, height=7, starts=[(1, 1), (5, 5)], round_limit=6)
    data = rec.to_dict()
    data["actions"][2][1] = item
    bad = CaptureRecord.from_dict(data)
    for replay in (bad.replay, bad.verify):
        with pytest.raises(ValueError, match=r"capture record, turn 3, player 1: not a "
                                             r"recorded action: \[.*\] \(\[x, y\] or \[.BACK."):
            replay()
