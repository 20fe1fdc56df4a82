"""Where a game was decided (tronlab.tron.decided).

Oracles: hand-worked games on ASCII boards (a crash, a game the split decided and
one the fill decided), and on seeded small random maps a plain-Python exhaustive
longest path for each player's fill at the separation, with the rule "the longer
fill wins, equal fills draw" applied by hand.
"""

from __future__ import annotations

import pytest

from tronlab import Board, get_bot, lightriders_board, play, random_map
from tronlab.course.ex_learning import scripted
from tronlab.grid.parity import fill_bound
from tronlab.tron.board import LEFT, RIGHT, UP
from tronlab.tron.decided import Decided, solved_result, where_decided
from tronlab.tron.learn import moves_after, separation_turn


def brute_longest(board, player):
    """Most moves any path of free squares from the head can make (plain DFS)."""
    rows = board.to_ascii().splitlines()
    h, w = len(rows), len(rows[0])
    head = next((y, x) for y in range(h) for x in range(w) if rows[y][x] == str(player + 1))
    free = {(y, x) for y in range(h) for x in range(w) if rows[y][x] == "."}

    def longest(at, left):
        best = 0
        y, x = at
        for step in ((y - 1, x), (y, x + 1), (y + 1, x), (y, x - 1)):
            if step in left:
                best = max(best, 1 + longest(step, left - {step}))
        return best

    return longest(head, frozenset(free))


def test_a_head_on_crash_is_decided_before_the_separation():
    rec = play(Board.from_ascii("1...2"), [scripted([RIGHT, RIGHT]), scripted([LEFT, LEFT])])
    assert rec.outcome.winner is None and rec.outcome.turns == 2
    assert rec.outcome.deaths == ["head-on", "head-on"]
    assert where_decided(rec) == Decided("crash", None, None, None, None)


def test_a_player_that_wastes_its_room_loses_a_game_its_fill_would_win():
    # blue could run right along the bottom and back along the top row: 9 moves to red's 5;
    # it steps up into the dead end instead and is stuck on its second move
    start = Board.from_ascii("""
        .#....#2..
        1.....#...
    """)
    rec = play(start, [scripted([UP, UP]), scripted([RIGHT, RIGHT])])
    assert rec.outcome.winner == 1
    d = where_decided(rec, time=0.5)
    assert d == Decided("fill", 0, (9, 5), (True, True), (1, moves_after(rec, 0)[1]))


def test_the_split_decides_when_both_fill_their_rooms():
    start = Board.from_ascii("""
        1..#....
        ...#...2
    """)
    rec = play(start, [get_bot("filler"), get_bot("filler")], rng=3)
    d = where_decided(rec)
    assert d.kind == "split" and d.fills == (5, 7) and rec.outcome.winner == 1


def small_game(seed):
    """A seeded game of the random bot on a random 8x7 map (walls included)."""
    board = random_map(8, 7, density=0.1, rng=seed)
    names = ("random", "random") if seed % 2 else ("random", "voronoi")
    return play(board, [get_bot(n) for n in names], rng=seed)


@pytest.mark.parametrize("seed", range(24))
def test_small_random_games_against_the_exhaustive_oracle(seed):
    rec = small_game(seed)
    boards = rec.boards()
    d = where_decided(rec, time=2.0)
    turn = separation_turn(boards)
    if turn is None:
        assert d.kind == "crash" and d.fills is None
        return
    fills = tuple(brute_longest(boards[turn], p) for p in (0, 1))
    by_hand = None if fills[0] == fills[1] else int(fills[1] > fills[0])
    assert d.turn == turn and d.fills == fills and d.exact == (True, True)
    assert d.kind == ("split" if by_hand == rec.outcome.winner else "fill")
    assert d.made == moves_after(rec, turn)


def test_the_oracle_games_hold_both_kinds_after_a_separation():
    # the comparison above must meet games the fill decided, not only splits
    kinds = [where_decided(small_game(seed)).kind for seed in range(24)]
    assert kinds.count("fill") >= 1 and kinds.count("split") >= 12


def test_solved_result():
    assert [solved_result(f) for f in ((3, 1), (1, 3), (2, 2))] == [0, 1, None]


def test_clear_errors():
    rec = play(Board.from_ascii("1.#.2"), [scripted([RIGHT]), scripted([LEFT])])
    for bad in (0, -1, True, "1"):
        with pytest.raises(ValueError, match="time must be a positive number"):
            where_decided(rec, time=bad)
    for bad in (None, "game.json", rec.to_dict()):
        with pytest.raises(TypeError, match="GameRecord"):
            where_decided(bad)
    cg = play(Board.from_ascii("1...2"), [scripted([RIGHT]), scripted([LEFT])], rules="codingame")
    with pytest.raises(ValueError, match="google2010 or lightriders"):
        where_decided(cg)


def test_a_light_riders_game_is_read_the_same_way():
    # an open 16x16 field: filler walls itself into 80 squares, voronoi keeps 138; both
    # fills are proved (the solver reaches a line as long as the parity bound, or every
    # line ends before the depth limit), and neither player wastes a square of its own
    rec = play(lightriders_board(rng=4), [get_bot("filler"), get_bot("voronoi")], rng=4,
               rules="lightriders")
    assert rec.outcome.winner == 1 and rec.outcome.turns == 99
    d = where_decided(rec, time=2.0)
    assert d == Decided("split", 19, (79, 137), (True, True), (79, 137))
    boards = rec.boards()
    assert separation_turn(boards) == 19 and moves_after(rec, 19, boards) == d.made
    assert all(d.fills[p] <= fill_bound(boards[19], p).bound for p in (0, 1))
