"""What a py: bot's process says of its file's errors and odd answers, on tiny files
(tronlab.arena.pyprogram): the line named, the error on one line, 'pass'."""

import sys

import pytest

from tronlab.arena.pyprogram import (RAISED_MARK, answer_line, describe_error, load_bot,
                                     load_problem, raised_line)
from tronlab.tron.protocol import make_client


def _file(folder, name, text):
    path = folder / name
    path.write_text(text)
    return str(path)


def test_a_loading_error_names_the_files_deepest_line_and_not_a_strings(tmp_path):
    path = _file(tmp_path, "ann.py", "def f():\n    raise RuntimeError('x')\n\nf()\n")
    assert load_problem(path) == f"{path}:2: loading the py: bot raised RuntimeError: x"
    path = _file(tmp_path, "bea.py", "exec('1 / 0')\n")
    assert load_problem(path) == (f"{path}:1: loading the py: bot raised ZeroDivisionError: "
                                  f"division by zero")


def test_a_moves_error_names_the_bots_line_not_its_helpers(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))
    _file(tmp_path, "helper_zz9.py", "def boom():\n    raise RuntimeError('deep')\n")
    path = _file(tmp_path, "cy.py", "import helper_zz9\n\n\ndef move(board, player):\n"
                                    "    return helper_zz9.boom()\n")
    move = load_bot(path)[0]
    assert sys.path[-1] == str(tmp_path)       # last: a bot's random.py shadows nothing
    with pytest.raises(RuntimeError) as err:
        move(None, 0)
    assert raised_line("move", err.value, path) == (f"{RAISED_MARK}move() raised "
                                                     f"RuntimeError: deep (cy.py, line 5)")


def test_an_error_is_described_on_one_line():
    assert describe_error(SystemExit(3)) == "SystemExit: sys.exit(3)"
    assert describe_error(ValueError("a\n   b")) == "ValueError: a b"


class _TwoLines:
    def __repr__(self):
        return "two\nlines"


def test_an_answer_that_is_not_a_move_is_said_on_one_line(capsys):
    line = answer_line(make_client("google2010"), _TwoLines())
    assert "\n" not in line and line.endswith("two lines: not a move"), line
    assert answer_line(make_client("lightriders"), " Pass ") == "pass"
