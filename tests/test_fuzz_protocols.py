"""Fuzz: hostile server input to a contest program, for the three Tron protocols
and Back to the Code (issue 11).

In-process: the program's loop (:func:`tronlab.runner.stdio.run_stdio`, and
:func:`tronlab.capture.cli.run_program` for Back to the Code) reads a StringIO.
Every case ends with each answer line a valid answer - the bot's own legal move,
or ``pass`` where Light Riders allows one - and bad input reported on stderr in a
line, never a traceback, within the time bound.  A handful of cases run the real
``tronlab bot`` program on the same kind of input.  See ``tests/fuzz_support.py``
for the number of cases (``TRONLAB_FUZZ=long``).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import TIME_BOUND, fuzz_settings, junk, mutated
from strategies import boards
from tronlab.capture import protocol as capture_protocol
from tronlab.capture.cli import run_program
from tronlab.capture.starts import random_starts
from tronlab.capture.state import initial_state, make_config
from tronlab.runner.stdio import run_stdio
from tronlab.tron.lightriders import lightriders_settings, lightriders_state
from tronlab.tron.mapgen import codingame_board, lightriders_board
from tronlab.tron.protocol import (codingame_state, format_answer, google2010_state,
                                   parse_answer)

ROOT = Path(__file__).resolve().parents[1]


# ---- valid streams, then made hostile ------------------------------------------------

@st.composite
def google2010_stream(draw):
    turns = draw(st.lists(boards(max_players=2, min_players=2, max_width=12, max_height=9),
                          min_size=1, max_size=3))
    return "".join(google2010_state(b, 0) for b in turns)


@st.composite
def codingame_stream(draw):
    n = draw(st.integers(2, 4))
    board = codingame_board(n, rng=np.random.default_rng(draw(st.integers(0, 2**16))))
    players = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    return "".join(codingame_state(board, p) for p in players)


@st.composite
def lightriders_stream(draw):
    board = lightriders_board(rng=np.random.default_rng(draw(st.integers(0, 2**16))))
    player = draw(st.integers(0, 1))
    rounds = draw(st.integers(1, 3))
    text = lightriders_settings(board, player, max_rounds=draw(st.sampled_from([None, 100])))
    return text + "".join(lightriders_state(board, player, round=r, time_ms=10000)
                          for r in range(rounds))


STREAMS = {"google2010": google2010_stream, "codingame": codingame_stream,
           "lightriders": lightriders_stream}


def hostile(protocol):
    return st.one_of(junk, STREAMS[protocol]().flatmap(mutated),
                     STREAMS[protocol]())


# ---- the property ----------------------------------------------------------------

def first_legal(record):
    def bot(board, player):
        legal = board.legal_moves(player)
        move = legal[0] if legal else 0
        record.append(move)
        return move
    return bot


def check_program_loop(protocol, text):
    moves: list[int] = []
    out, err, passed = io.StringIO(), io.StringIO(), []
    t0 = time.monotonic()
    answers = run_stdio(first_legal(moves), protocol, stdin=io.StringIO(text), stdout=out,
                        stderr=err, passed=passed)
    assert time.monotonic() - t0 < TIME_BOUND
    assert "Traceback" not in err.getvalue(), err.getvalue()
    lines = out.getvalue().splitlines()
    # a broken turn is answered all the same (Light Riders 'pass', else a guess), each
    # noted in passed and not counted in answers; each was reported on stderr
    assert len(lines) == answers + len(passed) and answers == len(moves)
    assert all(why.startswith("bad input: ") for why in passed)
    assert len(passed) <= err.getvalue().count("tronlab bot: bad input: ")
    given_moves = [parse_answer(protocol, line) for line in lines]      # each a valid answer
    rest = iter(given_moves)
    assert all(move in rest for move in moves)      # the bot's own moves, in order
    if protocol != "lightriders":
        assert None not in given_moves
    for line in err.getvalue().splitlines():
        assert line.startswith("tronlab bot: "), line


@fuzz_settings()
@given(hostile("google2010"))
def test_google2010_program_survives_hostile_input(text):
    check_program_loop("google2010", text)


@fuzz_settings()
@given(hostile("codingame"))
def test_codingame_program_survives_hostile_input(text):
    check_program_loop("codingame", text)


@fuzz_settings()
@given(hostile("lightriders"))
def test_lightriders_program_survives_hostile_input(text):
    check_program_loop("lightriders", text)


# ---- Back to the Code ------------------------------------------------------------

def capture_stream(n_players: int, seed: int, player: int, turns: int) -> str:
    """What a contest program reads first: the opponent count, then ``turns`` turns
    of a game's start."""
    config = make_config(n_players)
    state = initial_state(config, random_starts(config, rng=seed))
    return (capture_protocol.format_start(n_players)
            + capture_protocol.format_turn(state, player) * turns)


@st.composite
def capture_valid(draw):
    n = draw(st.integers(2, 4))
    return capture_stream(n, draw(st.integers(0, 2**16)), draw(st.integers(0, n - 1)),
                          draw(st.integers(1, 3)))


def stay(view, player):
    return view.positions[0] if view.positions[0] is not None else (0, 0)


@fuzz_settings()
@given(st.one_of(junk, capture_valid().flatmap(mutated), capture_valid()))
def test_backtothecode_program_survives_hostile_input(text):
    out, err = io.StringIO(), io.StringIO()
    t0 = time.monotonic()
    try:
        answers = run_program(stay, stdin=io.StringIO(text), stdout=out, stderr=err)
    except ValueError as exc:          # the program's clear message: tronlab: error: ...
        message = str(exc)
        assert message and "\n" not in message and "Traceback" not in message
        answers = None
    assert time.monotonic() - t0 < TIME_BOUND
    assert "Traceback" not in err.getvalue(), err.getvalue()
    lines = out.getvalue().splitlines()
    if answers is not None:
        assert len(lines) == answers
    for line in lines:
        assert capture_protocol.parse_answer(line).reason is None, line


# a blank line is skipped, so it is not among the bad counts
@pytest.mark.parametrize("count", ["-3", "0", "4", "99999999999", "\u0663", "two"])
def test_an_odd_opponent_count_is_named(count):
    text = capture_stream(2, 1, 0, 1).split("\n", 1)[1]
    with pytest.raises(ValueError, match="^the first line must be the number of opponents, "
                                         "1 to 3, got "):
        run_program(stay, stdin=io.StringIO(f"{count}\n{text}"), stdout=io.StringIO(),
                    stderr=io.StringIO())


# ---- a handful through the real program --------------------------------------------

PROGRAM_INPUT = {"google2010": hostile("google2010"), "codingame": hostile("codingame"),
                 "lightriders": hostile("lightriders"),
                 "backtothecode": st.one_of(junk, capture_valid().flatmap(mutated))}


@pytest.mark.parametrize("protocol", sorted(PROGRAM_INPUT))
@fuzz_settings(share=0.01)
@given(data=st.data())
def test_the_real_program_ends_cleanly_on_hostile_input(protocol, data):
    text = data.draw(PROGRAM_INPUT[protocol])
    name = "random"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "tronlab", "bot", name, "--protocol", protocol,
                        "--seed", "1"], input=text.encode("utf-8", "surrogateescape"),
                       capture_output=True, env=env, timeout=60 + TIME_BOUND)
    stderr = r.stderr.decode(errors="replace")
    assert r.returncode in (0, 2), stderr
    assert "Traceback" not in stderr, stderr
    if r.returncode == 2:
        assert stderr.startswith("tronlab: error: ") or "\ntronlab: error: " in stderr, stderr
    for line in r.stdout.decode(errors="replace").splitlines():
        if protocol == "backtothecode":
            assert capture_protocol.parse_answer(line).reason is None, line
        else:
            parse_answer(protocol, line)


def test_format_answer_round_trips():       # the oracle the checks above lean on
    for protocol in ("google2010", "codingame", "lightriders"):
        for m in range(4):
            assert parse_answer(protocol, format_answer(protocol, m)) == m
