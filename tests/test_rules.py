"""Rules of google2010, lightriders and codingame (tronlab.tron.rules): ASCII boards for
games.md."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import EXAMPLES, B, boards
from tronlab.tron.board import FREE, TRAIL, WALL
from tronlab.tron.rules import (FAULTS, REASONS, DeathLog, Outcome, collision, get_rules,
                           rank_players, rules_names)

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
G, L, C = get_rules("google2010"), get_rules("lightriders"), get_rules("codingame")


# ---- names and preconditions ------------------------------------------------------------------

def test_get_rules_names_and_aliases():
    assert rules_names() == ["google2010", "lightriders", "codingame"]
    assert get_rules("Light-Riders") is L and get_rules("CODINGAME") is C and get_rules(G) is G
    assert (G.simultaneous, L.simultaneous, C.simultaneous) == (True, True, False)
    assert (C.min_players, C.max_players, G.max_players) == (2, 4, 2)
    with pytest.raises(ValueError, match="unknown rules 'tron'; known: google2010"):
        get_rules("tron")
    with pytest.raises(TypeError, match="rules are named by a str, got int"):
        get_rules(3)


def test_reason_vocabulary():
    assert set(FAULTS) <= set(REASONS)
    assert set(REASONS) == {"wall", "trail", "edge", "head-on", "swap", "timeout", "error",
                            "illegal", "bad-output", "exited"}


def test_check_preconditions():
    three = B("1.2.3")
    with pytest.raises(ValueError, match="google2010 is played by 2 players; this board has 3"):
        G.check(three)
    C.check(three)
    with pytest.raises(ValueError, match="lightriders: player 0 has no facing"):
        L.check(B("1..2"))
    L.check(B("1..2", facing=[1, 3]))
    with pytest.raises(ValueError, match="player 1 is already dead"):
        G.check(B("1..B"))
    with pytest.raises(TypeError, match="google2010: expected a Board, got str"):
        G.check("1..2")


def test_collision_codes():
    b = B("""
        1.#
        .b2
    """)
    assert collision(b, b.index(1, 0)) is None
    assert collision(b, b.index(2, 0)) == "wall"
    assert collision(b, b.index(1, 1)) == "trail"
    assert collision(b, b.index(2, 1)) == "trail"          # a head is trail
    assert collision(b, b.index(-1, 0)) == "edge"           # padding is WALL but off the grid
    assert collision(b, b.index(0, 2)) == "edge"


# ---- google2010 -----------------------------------------------------------------------------

def test_google_plain_move_leaves_trail():
    b = B("""
        #####
        #1..#
        #..2#
        #####
    """)
    assert G.apply(b, [RIGHT, UP], turn=1) == {}
    assert b.to_ascii() == B("""
        #####
        #a12#
        #..b#
        #####
    """).to_ascii()
    assert b.facing.tolist() == [RIGHT, UP]


def test_google_head_on_is_draw_and_square_stays_free():
    b = B("#1.2#")
    assert G.apply(b, [RIGHT, LEFT], turn=1) == {0: "head-on", 1: "head-on"}
    assert b.to_ascii() == "#A.B#"
    assert not b.alive.any()


def test_google_swap_kills_both():
    b = B("#12#")
    assert G.apply(b, [RIGHT, LEFT], turn=1) == {0: "swap", 1: "swap"}
    assert b.to_ascii() == "#AB#"


def test_google_both_crash_into_walls():
    b = B("""
        #1#
        #.#
        #2#
    """)
    assert G.apply(b, [LEFT, RIGHT], turn=1) == {0: "wall", 1: "wall"}


def test_google_head_is_a_wall_even_when_it_moves_away():
    # player 0 steps where player 1's head is now; player 1 moves on: only player 0 dies
    b = B("""
        12.
        ...
    """)
    assert G.apply(b, [RIGHT, RIGHT], turn=1) == {0: "trail"}
    assert b.to_ascii() == "Ab2\n..."


def test_google_walls_and_edges_on_unenclosed_map():
    b = B("""
        1.#
        ...
        #.2
    """)
    assert G.apply(b, [UP, RIGHT], turn=1) == {0: "edge", 1: "edge"}
    b = B("""
        1.#
        ...
        #.2
    """)
    assert G.apply(b, [LEFT, DOWN], turn=1) == {0: "edge", 1: "edge"}
    b = B("""
        1#.
        ...
        .#2
    """)
    assert G.apply(b, [RIGHT, LEFT], turn=1) == {0: "wall", 1: "wall"}


def test_google_one_dies_into_trail():
    b = B("""
        1b.
        ..2
    """)
    assert G.apply(b, [RIGHT, LEFT], turn=1) == {0: "trail"}
    assert b.alive.tolist() == [False, True]


def test_google_no_move_dies_with_fault():
    b = B("#1..2#")
    assert G.apply(b, [None, LEFT], turn=1, faults={0: "timeout"}) == {0: "timeout"}
    b = B("#1..2#")
    assert G.apply(b, [None, None], turn=1) == {0: "illegal", 1: "illegal"}
    with pytest.raises(ValueError, match="fault 'tired'"):
        G.apply(B("#1..2#"), [None, LEFT], turn=1, faults={0: "tired"})
    with pytest.raises(ValueError, match="0-3 or None"):
        G.apply(B("#1..2#"), [7, LEFT], turn=1)
    with pytest.raises(ValueError, match="2 players"):
        G.apply(B("#1..2#"), [LEFT], turn=1)


def test_google_head_on_does_not_count_a_player_that_did_not_move():
    b = B("#1.2#")
    assert G.apply(b, [RIGHT, None], turn=1, faults={1: "error"}) == {1: "error"}
    assert b.to_ascii() == "#a1B#"


# ---- lightriders ----------------------------------------------------------------------------

def lr_board():
    return B("""
        ......
        .1..2.
        ......
    """, facing=[RIGHT, LEFT])


def test_lightriders_reverse_after_round_one_goes_straight():
    b = lr_board()
    assert L.apply(b, [LEFT, RIGHT], turn=2) == {}
    assert b.to_ascii() == "......\n.a12b.\n......"


def test_lightriders_reverse_in_round_one_is_a_real_turn():
    b = lr_board()
    assert L.apply(b, [LEFT, RIGHT], turn=1) == {}
    assert b.to_ascii() == "......\n1a..b2\n......"
    assert b.facing.tolist() == [LEFT, RIGHT]


def test_lightriders_pass_bad_text_timeout_go_straight():
    # the engine hands None for pass / bad text / timeout / error; the rules keep the facing
    for fault in (None, "timeout", "illegal", "error"):
        b = lr_board()
        faults = {} if fault is None else {0: fault, 1: fault}
        assert L.apply(b, [None, None], turn=5, faults=faults) == {}
        assert b.to_ascii() == "......\n.a12b.\n......"


def test_lightriders_deaths():
    b = B("..1.2.", facing=[RIGHT, LEFT])
    assert L.apply(b, [None, None], turn=3) == {0: "head-on", 1: "head-on"}
    b = B(".12.", facing=[RIGHT, LEFT])
    assert L.apply(b, [RIGHT, LEFT], turn=3) == {0: "swap", 1: "swap"}
    b = B("1..2", facing=[UP, RIGHT])
    assert L.apply(b, [None, None], turn=3) == {0: "edge", 1: "edge"}
    b = B("1#b2", facing=[RIGHT, LEFT])
    assert L.apply(b, [None, None], turn=3) == {0: "wall", 1: "trail"}


def test_lightriders_effective_move():
    b = lr_board()
    assert L.effective_move(b, 0, LEFT, turn=1) == LEFT
    assert L.effective_move(b, 0, LEFT, turn=2) == RIGHT
    assert L.effective_move(b, 0, None, turn=1) == RIGHT
    assert L.effective_move(b, 0, UP, turn=9) == UP
    assert G.effective_move(b, 0, LEFT, turn=2) == LEFT


# ---- codingame ------------------------------------------------------------------------------

def test_codingame_lower_player_takes_square_first():
    b = B("1.2")
    assert C.apply_one(b, 0, RIGHT, turn=1) is None
    assert C.apply_one(b, 1, LEFT, turn=1) == "trail"
    assert b.to_ascii() == "a1."          # player 1's trail is gone
    b = B("1.2")                           # the same moves under google2010: both die
    assert G.apply(b, [RIGHT, LEFT], turn=1) == {0: "head-on", 1: "head-on"}


def test_codingame_square_freed_by_a_death_this_turn_can_be_entered():
    b = B("""
        2a1#
        ....
        ...3
    """)
    moves, deaths = C.play_turn(b, lambda p, _: ([RIGHT, RIGHT, UP][p], None, None), turn=1)
    assert [(p, r) for p, r, _ in deaths] == [(0, "wall")]
    assert b.to_ascii() == "b2.#\n...3\n...c"
    assert moves == [RIGHT, RIGHT, UP]


def test_codingame_own_trail_and_edge_kill_and_trail_is_removed():
    b = B("""
        .aa.
        .a1.
        ..2c
        ...3
    """)
    assert C.apply_one(b, 0, UP, turn=1) == "trail"
    assert b.to_ascii() == "....\n....\n..2c\n...3"
    assert C.apply_one(b, 1, DOWN, turn=1) is None
    assert C.apply_one(b, 2, RIGHT, turn=1) == "edge"
    assert b.to_ascii() == "....\n....\n..b.\n..2."


def test_codingame_walls_kill_and_fault_kills():
    b = B("1#2.")
    assert C.apply_one(b, 0, RIGHT, turn=1) == "wall"
    b = B("1.2.")
    assert C.apply_one(b, 0, None, turn=1, fault="timeout") == "timeout"
    assert C.apply_one(b, 1, None, turn=1) == "illegal"
    with pytest.raises(ValueError, match="player 0 is dead"):
        C.apply_one(b, 0, RIGHT, turn=1)


def test_codingame_two_players_stop_after_first_death():
    b = B("1.2")
    asked = []

    def choose(p, _):
        asked.append(p)
        return UP, None, None

    moves, deaths = C.play_turn(b, choose, turn=1)
    assert asked == [0] and moves == [UP, None]
    assert deaths[0][:2] == (0, "edge")
    assert C.game_over(b)


def test_play_turn_details():
    b = B("#1.2#")
    _, deaths = G.play_turn(b, lambda p, _: ([RIGHT, LEFT][p], None, None), turn=4)
    assert deaths == [(0, "head-on", "turn 4: met player 1 head-on at (2, 0)"),
                      (1, "head-on", "turn 4: met player 0 head-on at (2, 0)")]
    b = B("1b2")
    _, deaths = G.play_turn(b, lambda p, _: ([RIGHT, None][p], [None, "error"][p],
                                             [None, "ZeroDivisionError"][p]), turn=2)
    assert deaths == [(0, "trail", "turn 2: hit player 1's trail at (1, 0)"),
                      (1, "error", "turn 2: the bot raised an exception: ZeroDivisionError")]


# ---- outcomes -------------------------------------------------------------------------------

def test_rank_players_and_outcome():
    assert rank_players([None, 5, 5, 2]) == [[0], [1, 2], [3]]
    assert rank_players([3, 3, None, 1], [0, 1, 0, 0]) == [[2], [1], [0], [3]]
    o = Outcome.from_deaths(["wall", "wall"], [7, 7], 7)
    assert o.winner is None and o.draw and o.ranking == [[0, 1]]
    o = Outcome.from_deaths([None, "swap", None], [None, 3, None], 9)
    assert o.winner is None and o.ranking == [[0, 2], [1]]
    o = Outcome.from_deaths(["trail", None], [4, None], 4, details=["turn 4: x", None])
    assert o.winner == 1 and Outcome.from_dict(o.to_dict()) == o
    with pytest.raises(ValueError, match="not an outcome dict"):
        Outcome.from_dict({"winner": 0})


def test_death_log_orders_sequential_deaths():
    log = DeathLog(4, simultaneous=False)
    log.add(3, [(2, "trail", "a"), (0, "edge", "b")])
    log.add(5, [(1, "wall", "c")])
    o = log.outcome(5)
    assert o.winner == 3 and o.ranking == [[3], [1], [0], [2]]
    assert o.deaths == ["edge", "wall", "trail", None] and o.death_turns == [3, 5, 3, None]


# ---- oracle: an independent coordinate-based resolver on random boards ------------------------

DXY = [(0, -1), (1, 0), (0, 1), (-1, 0)]


def oracle_simultaneous(board, moves):
    """Plain-Python resolution in (x, y) coordinates: deaths and the board after."""
    W, H = board.width, board.height
    grid = {(x, y): board.at(x, y) for x in range(W) for y in range(H)}
    heads = {p: board.head_xy(p) for p in range(board.n_players) if board.alive[p]}
    target = {p: (heads[p][0] + DXY[moves[p]][0], heads[p][1] + DXY[moves[p]][1]) for p in heads}
    deaths = {}
    for p in heads:
        t = target[p]
        swappers = [q for q in heads if q != p and target[q] == heads[p] and t == heads[q]]
        if swappers:
            deaths[p] = "swap"
        elif t not in grid:
            deaths[p] = "edge"
        elif grid[t] == WALL:
            deaths[p] = "wall"
        elif grid[t] != FREE:
            deaths[p] = "trail"
        elif any(target[q] == t for q in heads if q != p):
            deaths[p] = "head-on"
    for p in heads:
        if p not in deaths:
            grid[target[p]] = TRAIL + p
    return deaths, grid


@settings(max_examples=EXAMPLES)
@given(boards(max_players=2, max_width=8, max_height=6), st.lists(st.integers(0, 3), min_size=2,
                                                                   max_size=2))
def test_google_matches_oracle(board, moves):
    want, grid = oracle_simultaneous(board, moves)
    got = G.apply(board, moves, turn=1)
    assert got == want
    assert all(board.at(x, y) == c for (x, y), c in grid.items())
    assert [bool(a) for a in board.alive] == [p not in want for p in range(2)]


@settings(max_examples=EXAMPLES)
@given(boards(max_players=4, max_width=8, max_height=6), st.lists(st.integers(0, 3), min_size=4,
                                                                   max_size=4))
def test_codingame_matches_oracle(board, moves):
    n = board.n_players
    W, H = board.width, board.height
    grid = {(x, y): board.at(x, y) for x in range(W) for y in range(H)}
    heads = [board.head_xy(p) for p in range(n)]
    want = []
    for p in range(n):
        if sum(1 for q in range(n) if q not in [d for d, _ in want]) <= 1:
            break
        x, y = heads[p][0] + DXY[moves[p]][0], heads[p][1] + DXY[moves[p]][1]
        if (x, y) not in grid or grid[(x, y)] != FREE:
            reason = "edge" if (x, y) not in grid else ("wall" if grid[(x, y)] == WALL else "trail")
            want.append((p, reason))
            for sq, c in grid.items():
                if c == TRAIL + p:
                    grid[sq] = FREE
        else:
            grid[(x, y)] = TRAIL + p
    _, got = C.play_turn(board, lambda p, _: (moves[p], None, None), turn=1)
    assert [(p, r) for p, r, _ in got] == want
    assert all(board.at(x, y) == c for (x, y), c in grid.items())
