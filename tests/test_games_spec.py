"""Tron rule and protocol points of the games specification that other tests leave
open, each checked on a tiny board from the rule text."""

from strategies import B
from tronlab.runner.engine import play
from tronlab.tron.board import DOWN, LEFT, RIGHT, UP
from tronlab.tron.protocol import (codingame_state, format_answer, google2010_state,
                                   lightriders_field, parse_answer)
from tronlab.tron.rules import get_rules

L = get_rules("lightriders")


def test_lightriders_head_on_square_becomes_wall():
    # "head-on and swaps kill both; the collision square becomes wall"
    b = B("1.2", facing=[RIGHT, LEFT])
    assert L.apply(b, [None, None], turn=4) == {0: "head-on", 1: "head-on"}
    assert b.to_ascii() == "A#B"


def test_lightriders_head_on_square_becomes_wall_in_a_played_game():
    b = B("1...2", facing=[RIGHT, LEFT])
    record = play(b, [lambda board, p: "pass"] * 2, rules="lightriders")
    assert record.outcome.draw and record.final.to_ascii() == "aA#Bb"


def test_lightriders_commands_ignore_case_and_no_moves_is_pass():
    assert parse_answer("lightriders", "UP") == UP
    assert parse_answer("lightriders", " Left\n") == LEFT
    assert parse_answer("lightriders", "PASS") is None
    assert parse_answer("lightriders", "No_Moves") is None


def test_lightriders_max_rounds_reached_with_both_alive_is_a_draw():
    b = B("1.....\n......\n.....2", facing=[DOWN, UP])
    record = play(b, [lambda board, p: "pass"] * 2, rules="lightriders", max_turns=1)
    assert record.outcome.draw and record.outcome.ranking == [[0, 1]]


def test_lightriders_field_is_row_major():
    b = B("1..\n.a.\n..#\nx2.".replace("x", "."))
    tokens = lightriders_field(b).split(",")
    assert tokens == ["0", ".", ".", ".", "x", ".", ".", ".", "x", ".", "1", "."]


def test_google2010_digits_are_north_east_south_west():
    assert [format_answer("google2010", m) for m in (UP, RIGHT, DOWN, LEFT)] == list("1234")
    b = B("...\n.1.\n..2")
    g = get_rules("google2010")
    g.apply(b, [parse_answer("google2010", "1"), parse_answer("google2010", "4")], turn=1)
    assert b.head_xy(0) == (1, 0) and b.head_xy(1) == (1, 2)     # 1 is y-1, 4 is x-1


def test_google2010_every_reader_sees_itself_as_1():
    b = B("1a.\n..2")
    assert google2010_state(b, 0) == "3 2\n1# \n  2\n"
    assert google2010_state(b, 1) == "3 2\n2# \n  1\n"


def test_codingame_dead_player_line_and_up_is_y_minus_1():
    b = B("1a..\n....\n...2")
    cg = get_rules("codingame")
    assert cg.apply_one(b, 1, DOWN, turn=1) == "edge"
    assert codingame_state(b, 0).splitlines()[2] == "-1 -1 -1 -1"
    assert b.to_ascii() == "1a..\n....\n...."                    # its trail is removed
    assert format_answer("codingame", UP) == "UP" and parse_answer("codingame", "UP") == UP
