"""More wrong input that gets a message naming the argument and showing the bad value, never
numpy's or Python's own words from deep inside: negative seeds, malformed CodinGame starts,
``time=`` for bots that do not search, the map files' and the capture rules' arguments,
string answers to the exercise checkers, and ``py:`` bots whose loading raises.  Each check
has a neighbour showing that the good value still works."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import tronlab
from tronlab import Board, codingame_board, get_bot, lightriders_board, random_map
from tronlab.arena.maps import expand_maps
from tronlab.arena.pycheck import check_bots_load
from tronlab.arena.schedule import round_robin
from tronlab.arena.store import Store
from tronlab.arena.tournament import check_plan_loads, run
from tronlab.capture import parse_grid, state_from_ascii, step
from tronlab.capture.rules import reset
from tronlab.course import exercises
from tronlab.course.answers import as_count, as_grid
from tronlab.course.checker import WRONG_TYPE, Case, WrongType
from tronlab.course.ex_articulation import _as_squares
from tronlab.course.ex_capture import NearestTarget
from tronlab.course.ex_learning import FitWeights
from tronlab.course.ex_nash import _as_answer, check_solve_game
from tronlab.tron.maps import format_map, load_map, save_map

SMALL = """
    1....
    .....
    ....2
"""


# ---- 1. seeds ---------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda rng: random_map(9, 9, rng=rng),
    lambda rng: codingame_board(2, rng=rng),
    lambda rng: lightriders_board(rng=rng),
    lambda rng: get_bot("random", rng=rng),
], ids=["random_map", "codingame_board", "lightriders_board", "get_bot"])
def test_a_negative_seed_is_named(make):
    with pytest.raises(ValueError, match=r"rng must be .*an int seed of 0 or more.*got -1"):
        make(-1)
    with pytest.raises(ValueError, match=r"rng must be .*got -3"):
        make(np.int64(-3))
    make(0)
    make(np.int64(3))
    make(np.random.default_rng(1))


def test_a_seed_of_the_wrong_type_shows_its_value():
    with pytest.raises(TypeError, match=r"rng must be .*got float 1\.5"):
        random_map(9, 9, rng=1.5)


def test_play_names_a_negative_seed():
    board = Board.from_ascii(SMALL)
    bots = [get_bot("hugger"), get_bot("hugger")]
    with pytest.raises(ValueError, match=r"rng must be .*got -1"):
        tronlab.play(board, bots, rng=-1)
    assert tronlab.play(board, bots, rng=0).metadata["seed"] == 0


def test_the_capture_rules_name_a_negative_seed():
    with pytest.raises(ValueError, match=r"rng must be None, a non-negative int seed .*got -1"):
        reset(2, rng=-1)
    with pytest.raises(TypeError, match=r"rng must be None, a non-negative int seed .*'seven'"):
        reset(2, rng="seven")
    assert reset(2, rng=7).positions == reset(2, rng=np.int64(7)).positions


@pytest.mark.parametrize("spec", ["random:-1", "random:1.5", "random:2:8x"])
def test_a_malformed_random_map_spec_is_named(spec):
    with pytest.raises(ValueError, match=rf"map '{spec}': random maps are random:N or "
                                         r"random:N:WxH"):
        expand_maps("google2010", spec)


def test_random_0_plays_no_map_and_says_so():
    with pytest.raises(ValueError, match=r"map 'random:0': random:N plays N random maps, N "
                                         r"from 1 to 10000"):
        expand_maps("google2010", "random:0")
    assert len(expand_maps("google2010", "random:2,random:1:9x9")) == 3


# ---- 2. CodinGame starts ----------------------------------------------------------------------

@pytest.mark.parametrize("starts,message", [
    ([(1, 1)], r"1 starts for 2 players: \[\(1, 1\)\]"),
    ([(1, 1), (30, 5)], r"start \(30, 5\) is off the 30x20 grid"),
    ([(1, 1), (-1, 5)], r"start \(-1, 5\) is off the 30x20 grid"),
    ([(1, 1), (2.5, 5)], r"starts\[1\] must be an \(x, y\) pair of ints, got \(2\.5, 5\)"),
    ([(1, 1), ("a", 5)], r"starts\[1\] must be an \(x, y\) pair of ints, got \('a', 5\)"),
    ([(1, 1), "12"], r"starts\[1\] must be an \(x, y\) pair of ints, got '12'"),
    ([(1, 1), (2, 3, 4)], r"starts\[1\] must be an \(x, y\) pair of ints, got \(2, 3, 4\)"),
    ([None, (1, 1)], r"starts\[0\] must be an \(x, y\) pair of ints, got None"),
    ([(True, 1), (1, 1)], r"starts\[0\] must be an \(x, y\) pair of ints, got \(True, 1\)"),
])
def test_malformed_codingame_starts_are_named(starts, message):
    with pytest.raises(ValueError, match=message):
        codingame_board(2, starts=starts)


def test_codingame_starts_must_be_a_list():
    with pytest.raises(TypeError, match="starts must be a list of \\(x, y\\) squares, got 5"):
        codingame_board(2, starts=5)


def test_good_codingame_starts_still_work():
    b = codingame_board(3, starts=np.array([[0, 0], [29, 19], [5, 7]]))
    assert [b.head_xy(p) for p in range(3)] == [(0, 0), (29, 19), (5, 7)]
    b = codingame_board(2, starts=[(np.int64(3), 4), [5, 6]])
    assert [b.head_xy(p) for p in range(2)] == [(3, 4), (5, 6)]


# ---- 3. time= for every bot -------------------------------------------------------------------

@pytest.mark.parametrize("name,game", [("random", "tron"), ("hugger", "tron"),
                                       ("filler", "tron"), ("quick", "tron"),
                                       ("voronoi", "tron"), ("random", "backtothecode"),
                                       ("nearest", "backtothecode")])
@pytest.mark.parametrize("bad", [-1, 0, float("nan"), "x", True])
def test_every_bot_refuses_a_time_that_is_not_positive(name, game, bad):
    with pytest.raises(ValueError, match="time must be a positive number of seconds per move, "
                                         "got "):
        get_bot(name, game=game, time=bad)


@pytest.mark.parametrize("name,game", [("random", "tron"), ("filler", "tron"),
                                       ("voronoi", "tron"), ("nearest", "backtothecode")])
def test_a_positive_time_or_none_still_makes_a_bot(name, game):
    for good in (None, 0.05, 1, np.float64(0.2)):
        assert callable(get_bot(name, game=game, time=good))


# ---- 4. map files and the capture rules -------------------------------------------------------

def test_save_map_names_a_board_that_is_not_one(tmp_path):
    with pytest.raises(TypeError, match="save_map expects a Board .*got int 3"):
        save_map(3, tmp_path / "m.txt")
    with pytest.raises(TypeError, match="save_map expects a Board .*got str 'm.txt'"):
        save_map("m.txt", Board.from_ascii(SMALL))                  # arguments swapped
    with pytest.raises(TypeError, match="format_map expects a Board .*got NoneType None"):
        format_map(None)
    assert not (tmp_path / "m.txt").exists()


def test_save_map_and_load_map_name_a_path_that_is_not_one(tmp_path):
    board = Board.from_ascii(SMALL)
    with pytest.raises(TypeError, match=r"save_map: path must be a file name .*got NoneType"):
        save_map(board, None)
    with pytest.raises(TypeError, match=r"load_map: path must be a file name .*got NoneType"):
        load_map(None)
    with pytest.raises(TypeError, match=r"load_map: path must be a file name .*got int 3"):
        load_map(3)
    with pytest.raises(TypeError, match=r"load_map: path must be a file name .*got Board "
                                        r"Board\(5x3"):
        load_map(board)


def test_save_map_and_load_map_still_round_trip(tmp_path):
    board = Board.from_ascii(SMALL)
    save_map(board, tmp_path / "m.txt")
    assert load_map(tmp_path / "m.txt") == load_map(str(tmp_path / "m.txt")) == board
    assert load_map("arena").width > 0


@pytest.mark.parametrize("bad", [None, 3, b"a.."])
def test_parse_grid_wants_text(bad):
    with pytest.raises(TypeError, match="text must be a str: the grid's rows, one per line, "
                                        "got "):
        parse_grid(bad)
    with pytest.raises(TypeError, match="text must be a str"):
        state_from_ascii(bad)


def test_parse_grid_still_reads_text():
    assert parse_grid("a.\n.B").positions == {0: (0, 0), 1: (1, 1)}


@pytest.mark.parametrize("bad", [None, 3, "ab", iter([(1, 1), (2, 2)])])
def test_step_wants_a_list_or_a_dict_of_actions(bad):
    with pytest.raises(TypeError, match=r"actions must be a list with one action per player "
                                        r"or a dict \{player: action\}, got "):
        step(reset(2, rng=1), bad)


def test_step_wants_a_state():
    with pytest.raises(TypeError, match=r"step expects a State \(from reset\), got NoneType"):
        step(None, [(1, 1), (2, 2)])


def test_step_still_takes_lists_tuples_and_dicts():
    state = reset(2, rng=1)
    for actions in ([(1, 1), (2, 2)], ((1, 1), (2, 2)), [[1, 1], [2, 2]],
                    {0: (1, 1), 1: (2, 2)}):
        result = step(state, actions)
        assert result.events == []


# ---- 6. string answers to the exercise checkers -----------------------------------------------

def _returns(value):
    def flood_fill(board, player):
        return value
    return flood_fill


@pytest.mark.parametrize("answer", ["5", ""])
def test_a_string_count_is_the_wrong_type_on_the_first_board(answer):
    result = exercises.check_flood_fill(_returns(answer))
    assert result.status == WRONG_TYPE
    assert "FAILED on board 1 (" in result.message
    assert f"as an int, not the string {answer!r}" in result.hint


def test_a_string_array_answer_is_the_wrong_type_on_the_first_board():
    def components(board):
        return "[[0, 1]]"
    result = exercises.check_components(components)
    assert result.status == WRONG_TYPE and "FAILED on board 1 (" in result.message
    assert "as a numpy array shaped like board.cells, not the string '[[0, 1]]'" in result.hint


def _case():
    return Case("x", Board.from_ascii(SMALL), (0,))


@pytest.mark.parametrize("convert,answer,message", [
    (lambda v: as_count(v, "the bound"), "5", r"return the bound as an int, not the string '5'"),
    (lambda v: as_grid(v, _case().board, "the distance array"), "5",
     r"the distance array as a numpy array shaped like board.cells, not the string '5'"),
    (lambda v: exercises.Territory().convert(v, _case()), "12",
     r"a pair \(n0, n1\) of counts, not the string '12'"),
    (lambda v: exercises.Territory().convert(v, _case()), ("3", "4"),
     r"each count as an int, not the string '3'"),
    (lambda v: exercises.TurnOrderTerritory().convert(v, _case()), "12",
     r"a list of 2 counts, one per player, not the string '12'"),
    (lambda v: exercises.Negamax().convert(v, _case()), "10",
     r"a pair \(value, move\), not the string '10'"),
    (lambda v: exercises.Negamax().convert(v, _case()), ("1", 0),
     r"the value as an int, not the string '1'"),
    (lambda v: _as_squares(v, _case().board), "10",
     r"a set of \(x, y\) squares, not the string '10'"),
    (lambda v: _as_squares(v, _case().board), {("1", "0")},
     r"every element must be an \(x, y\) pair of ints, got \('1', '0'\)"),
    (lambda v: exercises.SeparationSample().convert(v, _case()), "1234",
     r"None or a tuple \(dn, de, moves0, moves1\) of 4 ints, not the string '1234'"),
    (lambda v: FitWeights().convert(v, _case()), "15",
     r"two numbers \(k1, k2\), not the string '15'"),
    (lambda v: FitWeights().convert(v, _case()), ("1", "2"),
     r"k1 and k2 must be numbers, not strings"),
])
def test_string_answers_name_the_expected_type(convert, answer, message):
    with pytest.raises(WrongType, match=message):
        convert(answer)


def test_good_answers_still_convert():
    case = _case()
    board = case.board
    assert as_count(np.int64(5)) == 5
    assert as_grid(np.zeros(board.cells.shape, int), board, "x").shape == board.cells.shape
    assert exercises.Territory().convert([3, np.int64(4)], case) == (3, 4)
    assert exercises.TurnOrderTerritory().convert((3, 4), case) == [3, 4]
    assert exercises.Negamax().convert((1, 2), case) == (1, 2)
    assert _as_squares([(1, 0), np.array([2, 1])], board) == {(1, 0), (2, 1)}
    assert exercises.SeparationSample().convert((1, 2, 3, 4), case) == (1, 2, 3, 4)
    assert FitWeights().convert((1, np.float64(2.5)), case) == (1.0, 2.5)


def test_a_target_of_strings_is_the_wrong_type():
    checker = NearestTarget()
    case = checker.cases()[0]
    with pytest.raises(WrongType, match=r"x and y must be whole numbers, not strings: got "
                                        r"\('1', '0'\)"):
        checker.convert(("1", "0"), case)
    assert checker.convert((np.int64(1), np.int32(0)), case) == (1, 0)
    with pytest.raises(WrongType, match=r"the game refuses a float, even 0\.0"):
        checker.convert((np.int64(1), 0.0), case)     # the game eliminates such a bot


def test_solve_game_refuses_strings_inside_the_answer():
    assert _as_answer(("0", [0.5, 0.5]), 2) == (None, "the value must be a number, got str '0'")
    answer, why = _as_answer((0.0, ["0.5", "0.5"]), 2)
    assert answer is None and why == "the row strategy must be 2 numbers, got list ['0.5', '0.5']"
    (value, strategy), why = _as_answer((0, np.array([0.5, 0.5])), 2)
    assert why is None and value == 0.0 and strategy.tolist() == [0.5, 0.5]


def test_the_solve_game_checker_names_the_first_game_for_a_string_value():
    result = check_solve_game(lambda payoff: ("0", [0.5, 0.5]))
    assert result.status == WRONG_TYPE and "FAILED on game 1 (" in result.message
    assert result.hint == "the value must be a number, got str '0'"


# ---- 7. py: bots whose loading raises ---------------------------------------------------------

def _file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_py_bot_whose_loading_raises_is_named_with_file_line_and_exception(tmp_path):
    boom = _file(tmp_path, "boom.py", "import json\nWEIGHTS = json.loads('{')\n"
                                      "def move(board, player):\n    return 0\n")
    keyerr = _file(tmp_path, "keys.py", "CONFIG = {}\nSPEED = CONFIG['speed']\n"
                                        "def move(board, player):\n    return 0\n")
    with pytest.raises(ValueError) as err:
        check_bots_load([boom, keyerr], timeout=60)
    text = str(err.value)
    assert f"{boom}:2: loading the py: bot raised JSONDecodeError: Expecting" in text
    assert "json/decoder.py:" in text                   # where inside json it was raised
    assert f"{keyerr}:2: loading the py: bot raised KeyError: 'speed'" in text


def test_a_py_bot_that_ends_its_process_while_loading_is_named(tmp_path):
    bye = _file(tmp_path, "bye.py", "import sys\nsys.exit('bye')\n")
    with pytest.raises(ValueError, match=r"bye\.py:2: loading the py: bot raised SystemExit"):
        check_bots_load([bye], timeout=60)


def test_a_py_bot_that_loads_passes(tmp_path):
    good = _file(tmp_path, "good.py", "import numpy\ndef move(board, player):\n    return 0\n")
    assert check_bots_load([good, good], timeout=60) is None


def test_run_names_a_py_bot_whose_loading_raises_before_any_game(tmp_path):
    bad = _file(tmp_path, "bad.py", "raise RuntimeError('no config file')\n"
                                    "def move(board, player):\n    return 0\n")
    plan = round_robin([f"py:{bad}", "random"], "random:1:9x9")
    with Store(tmp_path / "r.sqlite") as store:
        with pytest.raises(ValueError, match=r"bad\.py:1: loading the py: bot raised "
                                             r"RuntimeError: no config file"):
            run(plan, store, progress=False)
        assert store.rows() == []


def test_only_py_bots_with_games_left_to_play_are_load_checked(tmp_path):
    bad = _file(tmp_path, "gone.py", "raise RuntimeError('config moved')\n"
                                     "def move(board, player):\n    return 0\n")
    plan = round_robin([f"py:{bad}", "random"], "random:1:9x9")
    with pytest.raises(ValueError, match="config moved"):
        check_plan_loads(plan)
    assert check_plan_loads(plan, done={spec.key for spec in plan}) is None   # all played


def test_the_cli_says_a_py_bot_whose_loading_raises_in_one_line(tmp_path):
    bad = _file(tmp_path, "cfg.py", "SPEED = {}['speed']\ndef move(board, player):\n"
                                    "    return 0\n")
    run_cli = subprocess.run([sys.executable, "-m", "tronlab", "arena", "run", "--bots",
                              f"py:{bad}", "random", "--maps", "random:1", "--no-progress",
                              "--db", str(tmp_path / "a.sqlite")],
                             capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run_cli.returncode == 2, run_cli.stderr
    assert "Traceback" not in run_cli.stderr
    lines = run_cli.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "cfg.py:1: loading the py: bot raised KeyError: 'speed'" in lines[0]
    assert "planned" not in run_cli.stdout      # named before anything else is said or made
    assert not (tmp_path / "a.sqlite").exists()


def test_a_py_bot_imports_a_helper_module_beside_it_from_any_folder(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    _file(bots, "helpers.py", "def first_move():\n    return 0\n")
    bot = _file(bots, "mine.py", "from helpers import first_move\n"
                                 "def move(board, player):\n    return first_move()\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert check_bots_load([bot], timeout=60) is None
    run_cli = subprocess.run([sys.executable, "-m", "tronlab", "arena", "run", "--bots",
                              f"py:{bot}", "random", "--maps", "random:1:9x9", "--no-progress",
                              "--db", str(tmp_path / "a.sqlite")],
                             capture_output=True, text=True, cwd=elsewhere, timeout=300)
    assert run_cli.returncode == 0, run_cli.stderr
    assert "exited" not in run_cli.stdout + run_cli.stderr


def test_ring_functions_refuse_float_coordinates_and_territory_bool_maps():
    from tronlab.grid import ring, voronoi
    b = tronlab.load_builtin("arena")
    for x, y in ((1.5, 2), (1, 2.0), (True, 2)):
        with pytest.raises(TypeError, match="must be an int"):
            ring.potential_articulation(b, x, y)
        with pytest.raises(TypeError, match="must be an int"):
            ring.ring_code(b, x, y)
    with pytest.raises(TypeError, match="Board"):
        ring.ring_code("board", 1, 2)
    assert ring.potential_articulation(b, np.int64(1), 2) in (True, False)
    d0, d1 = voronoi.bfs_distances(b, 0), voronoi.bfs_distances(b, 1)
    with pytest.raises(TypeError, match="dist0 must hold distances"):
        voronoi.territory_from_distances(b, d0 >= 0, d1)
    assert voronoi.territory_from_distances(b, d0, d1) == voronoi.territory_from_distances(
        b, d0.astype(float), d1)


def test_a_map_file_saved_with_a_byte_order_mark_reads_as_the_same_map(tmp_path):
    # Windows Notepad (before 2019) wrote UTF-8 files with a BOM; the map itself is the same
    board = Board.from_ascii(SMALL)
    text = format_map(board).replace("\n", "\r\n")
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + text.encode("ascii"))
    assert load_map(tmp_path / "bom.txt") == board
