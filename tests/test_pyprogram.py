"""A student's ``py:`` file as a program (:mod:`tronlab.arena.pyprogram`): its hooks."""

from __future__ import annotations

import ast
import json

import pytest

from tronlab import get_bot
from tronlab.arena.bots import make_bot
from tronlab.runner.engine import play
from tronlab.tron.mapgen import lightriders_board, load_builtin

HOOKED = """\
import sys

ready = []

def start_game(board, player, *, rules, time_limit, rng, time_bank=None, max_turns=None):
    ready.append(board.legal_moves(player))
    heard = (rules, time_limit, time_bank, max_turns, int(rng.integers(10**6)))
    print("start_game", repr(heard), file=sys.stderr)

def move(board, player):
    if not ready:
        raise RuntimeError("start_game was never called")
    moves = board.legal_moves(player)
    return moves[0] if moves else 0
"""


def _heard(record):
    lines = [ln for ln in record.stderr[0].splitlines() if ln.startswith("start_game")]
    assert len(lines) == 1, record.stderr[0]      # once a game, before the first move
    return ast.literal_eval(lines[0].removeprefix("start_game "))


def test_a_py_file_start_game_is_called_before_its_first_move(tmp_path):
    """Before: a py: file got move and set_clock only; a start_game that precomputes,
    as built-in bots and the README's 'Write your own bot' have it, was silently never
    called (here move raises then, and the game records 'exited')."""
    path = tmp_path / "ann.py"
    path.write_text(HOOKED)
    records = []
    for _ in range(2):
        ann = make_bot(f"py:{path}", "google2010", limits=(2.0, 6.0))
        try:
            records.append(play(load_builtin("arena"), [ann, get_bot("hugger")],
                                rules="google2010", rng=5, time_limit=2.0,
                                first_time_limit=6.0, max_turns=3))
        finally:
            ann.close()
    record = records[0]
    assert not [e for e in record.events if e["player"] == 0], record.events
    rules, limit, bank, turns, drawn = _heard(record)
    # the limits its own clock holds it to (nine tenths of the referee's), the game's turns
    assert (rules, limit, bank, turns) == ("google2010", pytest.approx(1.8), None, 3)
    assert _heard(records[1])[-1] == drawn        # its rng follows the game's seed


def test_a_py_file_start_game_hears_the_bank_under_light_riders(tmp_path):
    path = tmp_path / "ann.py"
    path.write_text(HOOKED)
    ann = make_bot(f"py:{path}", "lightriders")
    try:
        record = play(lightriders_board(rng=1), [ann, get_bot("hugger")], rules="lightriders",
                      time_bank=(3, 0.05), max_turns=2)
    finally:
        ann.close()
    assert not [e for e in record.events if e["player"] == 0 and e["kind"] != "reverse"], \
        record.events
    rules, limit, bank, turns, _ = _heard(record)
    assert (rules, limit, bank, turns) == ("lightriders", None, (3.0, 0.05), 2)


def test_start_game_run_by_hand_hears_the_light_riders_settings():
    """Run by hand (no --game), the program takes the bank and turn limit from the
    settings the server sent."""
    from tronlab.arena.pyprogram import call_start_game
    from tronlab.tron.protocol import make_client
    from tronlab.tron.lightriders import lightriders_settings, lightriders_state

    board = lightriders_board(rng=1)
    client = make_client("lightriders")
    text = lightriders_settings(board, 1, timebank_ms=5000, time_per_move_ms=100,
                                max_rounds=40) + lightriders_state(board, 1, round=0,
                                                                     time_ms=5000)
    requests = [r for r in map(client.feed, text.splitlines()) if r is not None]
    heard = {}

    def start_game(board, player, **options):
        heard.update(options, player=player)

    call_start_game(start_game, requests[0], client, {})
    assert heard["player"] == 1 and heard["rules"] == "lightriders"
    assert heard["time_bank"] == (5.0, 0.1) and heard["max_turns"] == 40
    assert heard["time_limit"] is None and heard["first_time_limit"] is None
    json.dumps({k: v for k, v in heard.items() if k != "rng"})


@pytest.mark.parametrize("signature, fits", [
    ("board, player, *, rules, time_limit, rng", True),
    ("board, player, **options", True),
    ("board, player, rules, time_limit, rng, max_turns=None", True),
    ("*args, **kwargs", True),
    ("board, player, *, rules, time_limit, rng, time_bank=None", True),
    # named, these are always told (pyprogram.call_start_game), so they need no default
    ("board, player, *, rules, time_limit, rng, max_turns", True),
    ("board, player, rules, time_limit, rng, first_time_limit, time_bank", True),
    ("board, player", False),
    ("board, player, *, rules, rng", False),
    ("board", False),
    ("board, player, *, rules, time_limit, rng, depth", False)])
def test_a_start_game_that_cannot_take_the_call_is_refused_before_the_games(tmp_path,
                                                                              signature, fits):
    """A start_game(board, player) would end the program at its first move with a
    TypeError; the check before a tournament names the file, the line and the call."""
    from tronlab.arena.pycheck import check_python_bot

    path = tmp_path / "ann.py"
    path.write_text(f"def move(board, player):\n    return 0\n\n\n"
                    f"def start_game({signature}):\n    pass\n")
    if fits:
        check_python_bot(str(path))
    else:
        with pytest.raises(ValueError, match=r"ann\.py:5: start_game\(.*\) cannot be called "
                                             r"as start_game\(board, player, \*, rules, "):
            check_python_bot(str(path))
