"""A CodinGame program is told no grid, only the heads: on a board other than the contest's
empty 30x20 it played blind.  ``tronlab match --rules codingame --map arena hugger py:ann.py``
had a student's bot that only ever plays a legal move die on a wall at turn 7, and ``tronlab
arena run --game codingame --maps arena`` had ``tronlab bot chamber`` as a program lose all its
games.  Such a game is now refused before it starts (the CLI, the arena) or, through the API,
charged to the program as an error naming the reason at its first move."""

import subprocess
import sys

import numpy as np
import pytest

from tronlab.arena.schedule import round_robin
from tronlab.runner.engine import play
from tronlab.runner.external import ExternalBot
from tronlab.runner.registry import get_bot
from tronlab.tron.board import WALL, Board
from tronlab.tron.mapgen import codingame_board, load_builtin
from tronlab.tron.protocol import codingame_board_problem

LEGAL = "def move(board, player):\n    return (list(board.legal_moves(player)) or [0])[0]\n"


def _open_board(width, height):
    """A wall-free ``width`` x ``height`` board, heads at two corners (built by hand)."""
    rows = ["1" + "." * (width - 1)] + ["." * width] * (height - 2) + ["." * (width - 1) + "2"]
    return Board.from_ascii("\n".join(rows))


def test_only_the_empty_30x20_board_can_be_shown_to_a_program():
    assert codingame_board_problem(_open_board(30, 20)) is None
    assert codingame_board_problem(codingame_board(4, rng=3)) is None
    small = codingame_board_problem(_open_board(29, 20))
    assert "29x20" in small and "blocked" not in small
    walled = _open_board(30, 20)
    walled.cells[5, 7] = WALL                       # one wall: nothing in the input says so
    assert "with 1 square blocked besides the heads" in codingame_board_problem(walled)
    arena = codingame_board_problem(load_builtin("arena"))
    border = 4 * (15 - 1)                           # the map's own ring of walls
    assert f"15x15 with {border} squares blocked" in arena


def test_the_api_charges_the_program_with_the_reason_and_starts_no_process(tmp_path):
    ann = tmp_path / "ann.py"
    ann.write_text(LEGAL)
    bot = ExternalBot([sys.executable, str(ann)], protocol="codingame", name="ann")
    with pytest.raises(ValueError, match="ann cannot play here: the board is 15x15"):
        bot.start_game(load_builtin("arena"), 0, rules="codingame")
    assert bot.pid is None
    record = play(load_builtin("arena"), [bot, get_bot("hugger")], rules="codingame",
                  rng=np.random.default_rng(1))
    out = record.outcome
    assert out.winner == 1 and out.deaths[0] == "error" and out.death_turns[0] == 1
    assert "sends no grid" in out.details[0]


def test_match_refuses_the_map_in_one_line(tmp_path):
    ann = tmp_path / "ann.py"
    ann.write_text(LEGAL)
    r = subprocess.run([sys.executable, "-m", "tronlab", "match", "--rules", "codingame",
                        "--map", "arena", "hugger", f"py:{ann}", "--time", "0.2"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("tronlab: error: --map arena: the board is 15x15")
    assert "leave out --map" in r.stderr


def test_the_arena_refuses_the_map_for_programs_and_keeps_it_for_bots_in_process(tmp_path):
    ann = tmp_path / "ann.py"
    ann.write_text(LEGAL)
    for program in (f"py:{ann}", f"cmd:{sys.executable} -m tronlab bot hugger"):
        with pytest.raises(ValueError, match="map 'arena': the board is 15x15 .* random:N"):
            round_robin(["hugger", program], "arena", game="codingame")
        assert len(round_robin(["hugger", program], "random:1", game="codingame")) == 2
    assert len(round_robin(["hugger", "random"], "arena", game="codingame")) == 2
