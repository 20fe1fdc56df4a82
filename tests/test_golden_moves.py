"""Every built-in Tron bot still makes the move it made on 100 seeded positions
(recorded by ``tests/golden_moves/record.py`` before the package was reorganised).

A change that alters one move of one bot fails here; rerun the recorder only
when a change of play is intended, and say so in the commit.
"""

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "golden_moves"
sys.path.insert(0, str(HERE))
import record  # noqa: E402

ROWS = json.loads((HERE / "moves.json").read_text())


def test_the_positions_are_the_recorded_ones():
    got = [(rules, board.to_ascii(), player) for rules, board, player in record.positions()]
    want = [(row["rules"], row["board"], row["player"]) for row in ROWS]
    assert got == want


@pytest.mark.parametrize("name", list(record.BOTS))
def test_bot_makes_the_recorded_moves(name):
    now = record.record_bot(name)
    want = [row["moves"][name] for row in ROWS]
    diff = [i for i, (a, b) in enumerate(zip(now, want)) if a != b]
    assert not diff, (f"{name} changed its move on {len(diff)} of {len(want)} positions, "
                      f"first at position {diff[0]}:\n{ROWS[diff[0]]['board']}\n"
                      f"recorded {want[diff[0]]}, now {now[diff[0]]}")
