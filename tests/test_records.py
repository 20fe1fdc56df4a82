"""Game records (tronlab.runner.records): exact JSON round trips, replay, verification, golden
games."""

import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import EXAMPLES, boards
from tronlab.tron.board import Board
from tronlab.runner.registry import get_bot
from tronlab.runner.engine import play
from tronlab.tron.mapgen import codingame_board, lightriders_board, load_builtin, random_map
from tronlab.runner.records import GameRecord, board_from_dict, board_to_dict

GOLDEN = os.path.join(os.path.dirname(__file__), "golden_games")
RULES = ["google2010", "lightriders", "codingame"]


def same_board(a, b):
    return (a == b and np.array_equal(a.facing, b.facing) and np.array_equal(a.starts, b.starts))


# ---- boards ---------------------------------------------------------------------------------

@settings(max_examples=EXAMPLES)
@given(boards(dead=True), st.integers(0, 2**32 - 1))
def test_board_dict_round_trip_is_exact(board, seed):
    rng = np.random.default_rng(seed)
    board.facing[:] = rng.integers(-1, 4, size=board.n_players)
    back = board_from_dict(json.loads(json.dumps(board_to_dict(board))))
    assert same_board(back, board)


def test_board_dict_keeps_a_head_on_a_freed_square():
    b = Board.from_ascii("1.2.3")
    b.alive[1] = False
    b.cells[b.cells == 3] = 0                  # codingame removed player 1's trail
    d = board_to_dict(b)
    assert d["rows"] == ["1...3"] and d["heads"][1] == [2, 0]
    assert same_board(board_from_dict(d), b)


def test_board_dict_errors():
    d = board_to_dict(Board.from_ascii("1.2"))
    with pytest.raises(ValueError, match="do not make a 3x1 grid"):
        board_from_dict({**d, "rows": ["1.2."]})
    with pytest.raises(ValueError, match="unknown character '\\?'"):
        board_from_dict({**d, "rows": ["1?2"]})
    with pytest.raises(ValueError, match="not a board dict"):
        board_from_dict({"width": 3})
    # a trail letter of a player the record's board lacks (its heads say two players)
    with pytest.raises(ValueError, match=r"'c' at x=1, y=0 .* trail of player 3, but the board "
                                         r"has players 1, 2"):
        board_from_dict({**d, "rows": ["1c2"]})
    assert board_from_dict({**d, "rows": ["1b2"]}).to_ascii() == "1b2"


# ---- records --------------------------------------------------------------------------------

def random_game(rules, seed):
    if rules == "codingame":
        board = codingame_board(int(seed % 3) + 2, rng=seed)
    elif rules == "lightriders":
        board = lightriders_board(rng=seed)
    else:
        board = random_map(11, 9, rng=seed)
    bots = [get_bot("random") if (seed >> p) & 1 else get_bot("hugger", random_ties=True)
            for p in range(board.n_players)]
    return play(board, bots, rules=rules, rng=seed)


@settings(max_examples=EXAMPLES)
@given(st.sampled_from(RULES), st.integers(0, 2**32 - 1))
def test_json_round_trip_and_replay(rules, seed):
    rec = random_game(rules, seed)
    text = rec.to_json()
    back = GameRecord.from_json(text)
    assert back.to_dict() == rec.to_dict()
    assert json.loads(back.to_json()) == json.loads(text)
    assert back.replay() == rec.final
    assert same_board(back.replay(), rec.final)
    assert same_board(back.start, rec.start)
    back.verify()
    frames = back.boards()
    assert len(frames) == rec.outcome.turns + 1 and same_board(frames[0], rec.start)


def test_save_and_load(tmp_path):
    rec = random_game("google2010", 7)
    path = tmp_path / "game.json"
    rec.save(path)
    assert GameRecord.load(path).to_dict() == rec.to_dict()
    assert json.loads(path.read_text())["format"] == "tronlab-game"


def test_replay_reproduces_faults():
    def boom(board, player):
        raise RuntimeError("kaput")
    board = Board.from_ascii("#1...2#")
    rec = play(board, [get_bot("hugger"), boom], max_turns=5)
    back = GameRecord.from_json(rec.to_json())
    boards, outcome = back.simulate()
    assert outcome.deaths == [None, "error"]
    assert outcome.details[1] == "turn 1: the bot raised an exception: RuntimeError: kaput"
    assert outcome == rec.outcome


def test_verify_catches_a_changed_record():
    rec = random_game("google2010", 11)
    data = rec.to_dict()
    turn = next(i for i, m in enumerate(data["moves"]) if m[0] is not None and m[0] != 0)
    data["moves"][turn][0] = (data["moves"][turn][0] + 2) % 4     # reverse: into its own trail
    with pytest.raises(ValueError, match="replay|after the game ended"):
        GameRecord.from_dict(data).verify()
    data = rec.to_dict()
    row = data["final"]["rows"][1]
    data["final"]["rows"][1] = row[0] + ("." if row[1] == "#" else "#") + row[2:]
    with pytest.raises(ValueError, match="does not reproduce the recorded final board"):
        GameRecord.from_dict(data).verify()
    data = rec.to_dict()
    data["outcome"]["winner"] = None if rec.outcome.winner is not None else 0
    with pytest.raises(ValueError, match="replay gives winner"):
        GameRecord.from_dict(data).verify()


def test_record_errors():
    rec = random_game("google2010", 3)
    with pytest.raises(ValueError, match="not valid JSON"):
        GameRecord.from_json("{")
    with pytest.raises(ValueError, match="not a tronlab game record"):
        GameRecord.from_json("[]")
    with pytest.raises(ValueError, match="version 99 is not supported"):
        GameRecord.from_dict({**rec.to_dict(), "version": 99})
    data = rec.to_dict()
    del data["moves"]
    with pytest.raises(ValueError, match="no 'moves' field"):
        GameRecord.from_dict(data)
    data = rec.to_dict()
    data["moves"].append(data["moves"][-1])
    with pytest.raises(ValueError, match="moves after the game ended"):
        GameRecord.from_dict(data).replay()
    # a record edited by hand: one line naming the field (events "zz" raised AttributeError
    # deep in a replay, moves of numbers a TypeError)
    for key, value, message in [("events", "zz", "events must be a list of objects"),
                                ("events", [1], "events must be a list of objects"),
                                ("moves", [1, 2], "moves must be a list of turns"),
                                ("moves", "01", "moves must be a list of turns"),
                                ("metadata", [], "metadata must be an object"),
                                ("stderr", "x", "stderr must be an object")]:
        with pytest.raises(ValueError, match=f"^game record: {message}.*edited by hand"):
            GameRecord.from_dict({**rec.to_dict(), key: value})
    rec.metadata["when"] = object()
    with pytest.raises(TypeError, match="check metadata"):
        rec.to_json()


def test_repr():
    rec = play(Board.from_ascii("#1.2#"), [lambda b, p: 1, lambda b, p: 3], names=["x", "y"])
    assert repr(rec) == "<GameRecord google2010: x vs y, 1 turn, draw>"
    # who won, in the board's digits too: player 0 is drawn 1
    rec = play(Board.from_ascii("#1..2#"), [lambda b, p: 1, lambda b, p: 1], names=["x", "y"])
    assert repr(rec) == "<GameRecord google2010: x vs y, 1 turn, x (player 0, drawn 1) wins>"
    rec.metadata.pop("names")
    assert repr(rec) == "<GameRecord google2010: 2 players, 1 turn, player 0 (drawn 1) wins>"


# ---- golden games: fixed-seed games stored as JSON --------------------------------------------

def golden_game(rules):
    """The fixed game stored in tests/golden_games/<rules>.json."""
    if rules == "codingame":
        board = codingame_board(3, rng=2010)
        bots = [get_bot("hugger"), get_bot("random"), get_bot("hugger", random_ties=True)]
    elif rules == "lightriders":
        board = lightriders_board(x=3, y=7)
        bots = [get_bot("hugger", random_ties=True), get_bot("random")]
    else:
        board = load_builtin("two-rooms")
        bots = [get_bot("random"), get_bot("hugger", random_ties=True)]
    return play(board, bots, rules=rules, rng=2010, metadata={"golden": rules})


def write_golden():  # pragma: no cover - run by hand to refresh the files
    os.makedirs(GOLDEN, exist_ok=True)
    for rules in RULES:
        golden_game(rules).save(os.path.join(GOLDEN, f"{rules}.json"))


@pytest.mark.parametrize("rules", RULES)
def test_golden_game(rules):
    stored = GameRecord.load(os.path.join(GOLDEN, f"{rules}.json"))
    stored.verify()
    assert stored.final is not None and stored.outcome.turns > 10
    fresh = golden_game(rules)
    assert fresh.moves == stored.moves
    assert fresh.events == stored.events
    assert fresh.outcome == stored.outcome
    assert same_board(fresh.final, stored.final)


def test_a_turn_with_too_few_moves_says_how_many_in_the_right_number():
    rec = play(Board.from_ascii("#1..2#"), [lambda b, p: 1, lambda b, p: 1], names=["x", "y"])
    rec.moves[0] = rec.moves[0][:1]
    with pytest.raises(ValueError, match="turn 1: 1 move for 2 players"):
        rec.simulate()
