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
