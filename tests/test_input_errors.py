"""Wrong input gets a message naming the argument and what it should be, never a stray
TypeError from deep inside, a blamed learner or a silent NaN: the exercise checkers'
``time_limit`` and drawing helpers, ``py:`` bots and ``--players`` in the arena, and huge
payoffs in the zero-sum solver."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tronlab import Board
from tronlab.arena.bots import check_spec
from tronlab.arena.schedule import gauntlet, round_robin
from tronlab.course import draw, draw_grid, exercises, timelimit
from tronlab.course.ex_nash import check_solve_game
from tronlab.nash import solve_zero_sum


def _student(board):
    return None


# ---- exercise checkers ------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [-1, 0, float("nan")])
def test_a_time_limit_that_is_not_positive_is_named(bad):
    with pytest.raises(ValueError, match="time_limit must be a positive number of seconds"):
        exercises.check_flood_fill(_student, time_limit=bad)


@pytest.mark.parametrize("bad", ["x", True, [1]])
def test_a_time_limit_that_is_not_a_number_is_named(bad):
    with pytest.raises(TypeError, match="time_limit must be a positive number"):
        exercises.check_flood_fill(_student, time_limit=bad)


def test_the_time_limit_of_the_nash_checker_and_of_the_timer_is_checked_too():
    with pytest.raises(TypeError, match="time_limit must be a positive number"):
        check_solve_game(lambda payoff: None, time_limit="x")
    with pytest.raises(ValueError, match="time_limit must be a positive number"):
        timelimit.call_with_time_limit(lambda: 1, -1)
    assert timelimit.call_with_time_limit(lambda: 1, 0).value == 1        # 0: no limit
    assert timelimit.check_time_limit(float("inf")) is None


def test_draw_wants_a_board():
    with pytest.raises(TypeError, match="draw expects a board .*got int 3"):
        draw(3)


def test_draw_grid_wants_values_shaped_like_the_cells():
    board = Board.from_ascii("1.2")
    with pytest.raises(ValueError, match=r"draw_grid: values must .* shape \(3, 5\).*got shape "
                                         r"\(2, 2\)"):
        draw_grid(board, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="playing area only"):
        draw_grid(board, np.zeros((board.height, board.width)))
    with pytest.raises(TypeError, match="draw_grid expects a board"):
        draw_grid(np.zeros((3, 5)), np.zeros((3, 5)))
    assert draw_grid(board, np.zeros(board.cells.shape, int), blank=0) == " a  .  b"


# ---- arena: py: bots --------------------------------------------------------------------------

def _bot(tmp_path, text, name="bot.py"):
    path = tmp_path / name
    path.write_text(text)
    return f"py:{path}"


def test_a_py_bot_with_a_syntax_error_is_named_with_its_line(tmp_path):
    spec = _bot(tmp_path, "def move(board, player):\n    return 0\nif True\n    pass\n")
    with pytest.raises(ValueError, match=r"bot\.py:3: SyntaxError"):
        check_spec(spec, "google2010")


def test_a_py_bot_without_move_is_named(tmp_path):
    spec = _bot(tmp_path, "def mover(board, player):\n    return 0\n")
    with pytest.raises(ValueError, match=r"bot\.py defines no function move\(board, player\)"):
        check_spec(spec, "google2010")


def test_a_py_bot_whose_move_takes_other_arguments_is_named(tmp_path):
    spec = _bot(tmp_path, "def move(board):\n    return 0\n")
    with pytest.raises(ValueError, match=r"bot\.py:1: move\(board\) cannot be called"):
        check_spec(spec, "google2010")


def test_a_py_bot_importing_a_missing_module_is_named(tmp_path):
    spec = _bot(tmp_path, "import numpy\nimport no_such_module_zz9\n"
                          "def move(board, player):\n    return 0\n")
    with pytest.raises(ValueError, match=r"bot\.py:2: imports 'no_such_module_zz9', which is "
                                         r"not installed"):
        check_spec(spec, "google2010")


def test_a_py_bot_is_read_not_run(tmp_path):
    marker = tmp_path / "ran"
    spec = _bot(tmp_path, f"open({str(marker)!r}, 'w').close()\n"
                          "try:\n    import no_such_module_zz9\nexcept ImportError:\n    pass\n"
                          "if True:\n    def move(board, player, depth=2):\n        return 0\n")
    check_spec(spec, "google2010")
    assert not marker.exists()


def test_the_cli_says_a_bad_py_bot_in_one_line(tmp_path):
    spec = _bot(tmp_path, "def move(board, player)\n    return 0\n", "broken.py")
    db = tmp_path / "a.sqlite"
    run = subprocess.run([sys.executable, "-m", "tronlab", "arena", "run", "--bots", spec,
                          "random", "--maps", "random:1", "--no-progress", "--db", str(db)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "broken.py:1: SyntaxError" in lines[0]
    assert not db.exists()


# ---- arena: players ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [-2, 0, 1, 5, 2.5, True])
def test_players_outside_the_game_range_are_named(players):
    with pytest.raises(ValueError, match=r"players: codingame is played by 2 to 4 players"):
        round_robin(["random", "hugger"], "random:1", game="codingame", players=players)


def test_gauntlet_checks_players_too():
    with pytest.raises(ValueError, match=r"players: google2010 is played by 2 players, got 0"):
        gauntlet("random", ["hugger"], "random:1", players=0)


# ---- zero-sum games ---------------------------------------------------------------------------

def test_huge_payoffs_are_solved_not_nan():
    s = solve_zero_sum([[1e300, -1e300], [-1e300, 1e300]])
    assert s.value == 0.0
    assert s.row_strategy.tolist() == [0.5, 0.5] and s.column_strategy.tolist() == [0.5, 0.5]
    big = solve_zero_sum(np.array([[3.0, 1.0, 0.0], [0.0, 2.0, 4.0], [1.0, 0.0, 3.0]]) * 1e300)
    small = solve_zero_sum([[3.0, 1.0, 0.0], [0.0, 2.0, 4.0], [1.0, 0.0, 3.0]])
    assert np.isfinite(big.value)
    assert big.value == pytest.approx(small.value * 1e300, rel=1e-12)
    np.testing.assert_allclose(big.row_strategy, small.row_strategy, atol=1e-12)
