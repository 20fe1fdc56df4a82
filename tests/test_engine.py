"""Whole games (tronlab.runner.engine.play): turn order, faults, time limits, hooks, termination."""

import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import EXAMPLES, B
from tronlab.tron.board import FREE, Board
from tronlab.runner.registry import get_bot
from tronlab.runner.engine import BotFault, play
from tronlab.tron.mapgen import codingame_board, lightriders_board, load_builtin, random_map

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


def script(*moves):
    """A bot that plays the given moves, then keeps repeating the last one."""
    moves = list(moves)

    def bot(board, player):
        return moves.pop(0) if len(moves) > 1 else moves[0]
    return bot


CORRIDOR = """
    #######
    #1...2#
    #.....#
    #######
"""


# ---- plain games ----------------------------------------------------------------------------

def test_head_on_draw_game():
    rec = play(B("#1...2#"), [script(RIGHT), script(LEFT)])
    o = rec.outcome
    assert (o.winner, o.ranking, o.turns, o.deaths) == (None, [[0, 1]], 2, ["head-on", "head-on"])
    assert rec.moves == [[RIGHT, LEFT], [RIGHT, LEFT]]
    assert rec.final.to_ascii() == "#aA.Bb#"


def test_winner_and_board_untouched():
    board = B(CORRIDOR)
    before = board.copy()
    rec = play(board, [script(DOWN, RIGHT), script(UP)])
    assert board == before and np.array_equal(board.facing, before.facing)
    o = rec.outcome
    assert o.winner == 0 and o.deaths == [None, "wall"] and o.death_turns == [None, 1]
    assert o.details[1] == "turn 1: hit a wall at (5, 0)"
    assert rec.metadata["names"] == ["bot", "bot"]


def test_bot_receives_a_copy():
    seen = []

    def vandal(board, player):
        seen.append(board)
        board.cells[:] = FREE
        return RIGHT
    rec = play(B(CORRIDOR), [vandal, script(LEFT)], max_turns=1)
    assert rec.final.at(0, 0) != FREE and seen[0] is not rec.final


def test_names_metadata_and_max_turns():
    rec = play(B(CORRIDOR), [script(DOWN, RIGHT, RIGHT), script(DOWN, LEFT, LEFT)], max_turns=2,
               names=["a", "b"], metadata={"map": "corridor"}, rng=5)
    assert rec.outcome.turns == 2 and rec.outcome.winner is None
    assert rec.outcome.ranking == [[0, 1]] and rec.outcome.deaths == [None, None]
    m = rec.metadata
    assert m["names"] == ["a", "b"] and m["map"] == "corridor" and m["seed"] == 5
    assert m["max_turns"] == 2 and m["tronlab"] and m["date"].endswith("+00:00")
    assert len(m["think_seconds"]) == 2


def test_move_names_are_accepted():
    rec = play(B(CORRIDOR), [script("right"), script("left")])
    assert rec.moves[0] == [RIGHT, LEFT]


def test_play_validates_its_arguments():
    b = B(CORRIDOR)
    with pytest.raises(ValueError, match="2 players but 1 bot was given"):
        play(b, [script(UP)])
    with pytest.raises(TypeError, match="bot 1 is not callable"):
        play(b, [script(UP), 5])
    # a name, as play_capture takes them: before, only "not callable (got str)"
    with pytest.raises(TypeError, match=r"bot 1 is the name 'hugger': play takes bots, not "
                                        r"names; get_bot\('hugger'\) makes one"):
        play(b, [script(UP), "hugger"])
    with pytest.raises(ValueError, match="time_limit is a positive number"):
        play(b, [script(UP)] * 2, time_limit=0)
    with pytest.raises(ValueError, match="max_turns"):
        play(b, [script(UP)] * 2, max_turns=-1)
    with pytest.raises(ValueError, match="names must be a list of 2 strings"):
        play(b, [script(UP)] * 2, names=["x"])
    with pytest.raises(ValueError, match="google2010 is played by 2 players"):
        play(B("1.2.3"), [script(UP)] * 3)
    with pytest.raises(ValueError, match="unknown rules"):
        play(b, [script(UP)] * 2, rules="pong")


# ---- faults ---------------------------------------------------------------------------------

def boom(board, player):
    return 1 // 0


def test_raising_bot_loses_with_error():
    rec = play(B(CORRIDOR), [boom, script(LEFT)])
    o = rec.outcome
    assert o.winner == 1 and o.deaths[0] == "error" and o.death_turns[0] == 1
    assert o.details[0] == ("turn 1: the bot raised an exception: "
                            "ZeroDivisionError: integer division or modulo by zero")
    assert rec.events == [{"turn": 1, "player": 0, "kind": "error",
                           "detail": "ZeroDivisionError: integer division or modulo by zero"}]


@pytest.mark.parametrize("garbage", ["banana", 7, None, 2.0, True, [1]])
def test_garbage_answer_is_illegal(garbage):
    rec = play(B(CORRIDOR), [script(RIGHT), lambda b, p: garbage])
    assert rec.outcome.deaths == [None, "illegal"] and rec.outcome.winner == 0
    assert repr(garbage) in rec.outcome.details[1]


def test_bot_fault_and_any_exception_naming_a_fault():
    class Failure(RuntimeError):
        def __init__(self):
            super().__init__("program exited with code 3")
            self.reason, self.detail = "exited", "program exited with code 3"

    def bad(board, player):
        raise BotFault("bad-output", "printed 'hello'")

    def gone(board, player):
        raise Failure()
    rec = play(B(CORRIDOR), [bad, gone])
    assert rec.outcome.deaths == ["bad-output", "exited"] and rec.outcome.winner is None
    assert rec.outcome.details == [
        "turn 1: printed output that is not a move: printed 'hello'",
        "turn 1: the bot's program ended: program exited with code 3"]
    with pytest.raises(ValueError, match="BotFault reason 'oops'"):
        BotFault("oops")


def test_slow_answer_is_a_timeout():
    def slow(board, player):
        time.sleep(0.25)
        return RIGHT
    rec = play(B(CORRIDOR), [slow, script(LEFT)], time_limit=0.05, first_time_limit=0.1)
    assert rec.outcome.deaths[0] == "timeout" and rec.outcome.winner == 1


def test_gil_holding_bot_is_a_timeout():
    # sum() over a range runs in C without releasing the GIL, as a numba kernel would:
    # the engine only regains control when it returns, and then calls it late
    def hog(board, player):
        sum(range(10_000_000))
        return RIGHT
    rec = play(B(CORRIDOR), [hog, script(LEFT)], time_limit=0.01, first_time_limit=0.01)
    assert rec.outcome.deaths[0] == "timeout" and rec.outcome.death_turns[0] == 1
    assert "0.01 s" in rec.outcome.details[0]


def first_slow(seconds):
    calls = []

    def bot(board, player):
        calls.append(1)
        if len(calls) == 1:
            time.sleep(seconds)
            return DOWN
        return RIGHT
    return bot


def test_first_move_gets_three_times_the_limit():
    # p0 down, right, right; p1 down, left, left: they meet head-on at (3, 2) on turn 3
    rec = play(B(CORRIDOR), [first_slow(0.15), script(DOWN, LEFT)], time_limit=0.1)
    assert rec.outcome.deaths == ["head-on", "head-on"] and rec.outcome.turns == 3
    rec = play(B(CORRIDOR), [first_slow(0.15), script(DOWN, LEFT)], time_limit=0.1,
               first_time_limit=0.1)
    assert rec.outcome.deaths[0] == "timeout" and rec.outcome.death_turns[0] == 1


@pytest.mark.parametrize("busy", [False, True])
def test_hung_bot_loses_and_game_ends_quickly(busy):
    stop = threading.Event()

    def hang(board, player):
        if busy:
            while not stop.is_set():      # a pure-Python endless loop
                pass
        else:
            stop.wait()                   # blocked forever
        return RIGHT
    t0 = time.perf_counter()
    try:
        rec = play(B(CORRIDOR), [script(DOWN), hang], time_limit=0.05, first_time_limit=0.1)
    finally:
        stop.set()
    assert time.perf_counter() - t0 < 2.0
    assert rec.outcome.deaths == [None, "timeout"] and rec.outcome.winner == 0
    assert rec.outcome.details[1] == "turn 1: ran out of time: no answer within 0.1 s"


# ---- Light Riders faults are "straight on" ---------------------------------------------------

def lr():
    return lightriders_board(x=2, y=5)


def test_lightriders_faults_go_straight_and_are_noted():
    stop = threading.Event()
    answers = {1: "pass", 2: "banana", 3: "boom", 4: LEFT, 5: "sleep", 6: UP}

    def odd(board, player):
        turn = int(np.count_nonzero(board.cells == 2))
        a = answers.get(turn, UP)
        if a == "boom":
            raise RuntimeError("kaput")
        if a == "sleep":
            stop.wait(1.0)
            return DOWN
        return a
    try:
        rec = play(lr(), [odd, script(DOWN)], rules="lightriders", time_limit=0.05, max_turns=6)
    finally:
        stop.set()
    kinds = [(e["turn"], e["kind"]) for e in rec.events if e["player"] == 0]
    # turn 6: the timeout of turn 5 shut the bot down (games.md): it is not asked again
    assert kinds == [(1, "pass"), (2, "illegal"), (3, "error"), (4, "reverse"), (5, "timeout"),
                     (6, "timeout")]
    assert "shut down" in rec.events[-1]["detail"]
    assert rec.final.head_xy(0) == (2 + 6, 5)       # six turns straight on (right)
    assert rec.outcome.deaths == [None, None]
    assert [m[0] for m in rec.moves] == [None, None, None, LEFT, None, None]
    rec.verify()


def test_lightriders_round_one_reverse_is_real():
    rec = play(lr(), [script(LEFT, UP), script(UP)], rules="lightriders", max_turns=1)
    assert rec.final.head_xy(0) == (1, 5) and rec.events == []


def test_lightriders_engine_ends_on_first_death():
    rec = play(lr(), [script(UP), script(UP)], rules="lightriders")
    assert rec.outcome.turns == 6 and rec.outcome.deaths == ["edge", "edge"]


def test_lightriders_pass_is_read_like_the_protocol_reads_it():
    # the protocol strips the answer and ignores case: " Pass\n" is a pass, not an illegal move
    rec = play(lr(), [script(" Pass\n"), script(DOWN)], rules="lightriders", max_turns=2)
    assert [(e["turn"], e["kind"]) for e in rec.events if e["player"] == 0] == [(1, "pass"),
                                                                              (2, "pass")]
    assert rec.final.head_xy(0) == (4, 5)


class StartTimesOut:
    """A bot whose start_game reports a timeout (as an external program's would)."""

    def __init__(self):
        self.moves = 0

    def start_game(self, board, player, *, rules, time_limit, rng):
        raise BotFault("timeout", "no answer to the settings")

    def __call__(self, board, player):
        self.moves += 1
        return UP


def test_lightriders_timeout_in_start_game_shuts_the_bot_down():
    # a timeout is a timeout wherever it happens: the bot is never asked for a move
    bot = StartTimesOut()
    rec = play(lr(), [bot, script(DOWN)], rules="lightriders", max_turns=3)
    assert bot.moves == 0
    kinds = [(e["turn"], e["kind"]) for e in rec.events if e["player"] == 0]
    assert kinds == [(1, "timeout"), (2, "timeout"), (3, "timeout")]
    assert "shut down" in rec.events[-1]["detail"]
    assert rec.final.head_xy(0) == (2 + 3, 5)


def test_max_turns_zero_plays_no_turn():
    start = B(CORRIDOR)
    rec = play(start, [script(DOWN), script(DOWN)], max_turns=0)
    assert rec.moves == [] and rec.outcome.turns == 0 and rec.outcome.winner is None
    assert rec.outcome.ranking == [[0, 1]] and np.array_equal(rec.final.cells, start.cells)


class TurnLimitListener:
    """Keeps what start_game was told about the turn limit."""

    def __init__(self):
        self.told = "never called"

    def start_game(self, board, player, *, rules, time_limit, rng, max_turns):
        self.told = max_turns

    def __call__(self, board, player):
        return DOWN


@pytest.mark.parametrize("limit", [None, 2])
def test_start_game_is_told_the_turn_limit(limit):
    bot = TurnLimitListener()
    play(B(CORRIDOR), [bot, script(DOWN)], max_turns=limit)
    assert bot.told == limit


def test_think_seconds_add_up_every_move(monkeypatch):
    # a fake clock that only the bot advances, 0.5 s a move: no real timing involved
    import types
    from tronlab.runner import threadcall
    clock = [0.0]
    monkeypatch.setattr(threadcall, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))

    def thinker(board, player):
        clock[0] += 0.5
        return DOWN if clock[0] < 1 else RIGHT
    rec = play(B(CORRIDOR), [thinker, script(DOWN, LEFT, LEFT)], max_turns=3)
    assert rec.outcome.turns == 3
    assert rec.metadata["think_seconds"] == [1.5, 0.0]


def test_an_answer_a_tenth_of_a_millisecond_over_the_limit_is_a_timeout(monkeypatch):
    """The limit on the fake clock: exactly the limit is in time, 0.1 ms more is late.
    The other timeout tests sleep several times the limit, so an engine that let an
    answer run 10 ms over (elapsed > limit + 0.01) passed them all."""
    import types
    from tronlab.runner import threadcall
    clock = [0.0]
    monkeypatch.setattr(threadcall, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    costs, moves = [0.5, 0.25, 0.2501], [DOWN, RIGHT, RIGHT]    # the first move: 0.5 s

    def thinker(board, player):
        clock[0] += costs.pop(0)
        return moves.pop(0)
    rec = play(B(CORRIDOR), [thinker, script(DOWN, LEFT, LEFT)], time_limit=0.25,
               first_time_limit=0.5, max_turns=3)
    assert rec.outcome.deaths[0] == "timeout" and rec.outcome.death_turns[0] == 3
    assert "over the 0.25 s limit" in rec.outcome.details[0], rec.outcome.details


def test_first_time_limit_defaults_to_three_times_the_limit():
    rec = play(B(CORRIDOR), [script(DOWN), script(DOWN)], time_limit=0.25, max_turns=1)
    assert rec.metadata["time_limit"] == 0.25 and rec.metadata["first_time_limit"] == 0.75
    rec = play(B(CORRIDOR), [script(DOWN), script(DOWN)], time_limit=0.25,
               first_time_limit=0.5, max_turns=1)
    assert rec.metadata["first_time_limit"] == 0.5


# ---- CodinGame: sequential sub-moves, trail removal, ranking -----------------------------------

def test_codingame_four_players_ranking():
    board = codingame_board(4, starts=[(0, 0), (29, 0), (0, 19), (29, 19)])
    bots = [script(UP), script(DOWN, RIGHT), script(RIGHT, DOWN), script(LEFT)]
    rec = play(board, bots, rules="codingame")
    o = rec.outcome
    # turn 1: player 0 leaves the grid; turn 2: players 1 and 2 both die, 2 after 1
    assert o.deaths == ["edge", "edge", "edge", None]
    assert o.death_turns == [1, 2, 2, None]
    assert o.ranking == [[3], [2], [1], [0]] and o.winner == 3
    assert rec.moves[0] == [UP, DOWN, RIGHT, LEFT]
    assert rec.moves[1] == [None, RIGHT, DOWN, None]  # game over before player 3's sub-move
    assert rec.final.to_ascii().count("a") == 0 and rec.final.free_count() == 600 - 2


def test_codingame_sees_lower_players_sub_moves():
    seen = {}

    def watcher(board, player):
        seen[player] = board.at(1, 0)
        return DOWN
    board = codingame_board(2, starts=[(0, 0), (2, 0)])
    play(board, [script(RIGHT, DOWN), watcher], rules="codingame", max_turns=1)
    assert seen[1] == 2          # player 0's new head at (1, 0)


def test_codingame_freed_trail_lets_a_later_player_through():
    board = B("""
        2a1#
        ....
        ...3
    """)
    rec = play(board, [script(RIGHT), script(RIGHT, DOWN), script(UP, LEFT)], rules="codingame",
               max_turns=1)
    assert rec.outcome.deaths == ["wall", None, None]
    assert rec.final.to_ascii() == "b2.#\n...3\n...c"


# ---- hooks ----------------------------------------------------------------------------------

class Hooked:
    def __init__(self, move=RIGHT, fail_start=False, fail_end=False):
        self.move, self.fail_start, self.fail_end = move, fail_start, fail_end
        self.log = []

    def start_game(self, board, player, *, rules, time_limit, rng):
        self.log.append(("start", player, rules, time_limit, isinstance(rng, np.random.Generator)))
        if self.fail_start:
            raise RuntimeError("no map for you")

    def __call__(self, board, player):
        self.log.append(("move",))
        if self.move == "boom":
            raise ValueError("bad")
        return self.move

    def end_game(self, record):
        self.log.append(("end", record.outcome.winner))
        if self.fail_end:
            raise OSError("disk full")

    def stderr_text(self):
        return "debug: hello\n"

    def close(self):
        self.log.append(("close",))


def test_hooks_are_called_in_order():
    a, b = Hooked(DOWN), Hooked(UP)
    rec = play(B(CORRIDOR), [a, b], time_limit=0.5, rng=1)
    assert a.log == [("start", 0, "google2010", 0.5, True), ("move",), ("end", 0), ("close",)]
    assert b.log[-2:] == [("end", 0), ("close",)]
    assert rec.stderr == {0: "debug: hello\n", 1: "debug: hello\n"}


def test_failing_start_and_end_hooks_do_not_crash_the_game():
    a, b = Hooked(fail_start=True), Hooked(LEFT, fail_end=True)
    rec = play(B(CORRIDOR), [a, b])
    assert rec.outcome.deaths[0] == "error" and "in start_game: RuntimeError: no map for you" in \
        rec.outcome.details[0]
    assert ("move",) not in a.log and a.log[-1] == ("close",)
    assert {"turn": 1, "player": 1, "kind": "hook-error",
            "detail": "end_game: OSError: disk full"} in rec.events
    assert b.log[-1] == ("close",)


def test_close_runs_after_a_hung_move_and_a_hung_close_is_abandoned():
    stop = threading.Event()

    class Stuck(Hooked):
        def __call__(self, board, player):
            stop.wait()
            return RIGHT

        def close(self):
            self.log.append(("close",))
            stop.wait()
    a = Stuck()
    t0 = time.perf_counter()
    try:
        rec = play(B(CORRIDOR), [a, Hooked(LEFT)], time_limit=0.05, first_time_limit=0.1)
    finally:
        stop.set()
    assert time.perf_counter() - t0 < 2.0
    assert rec.outcome.deaths[0] == "timeout" and a.log[-1] == ("close",)
    assert {"turn": 1, "player": 0, "kind": "hook-error",
            "detail": "close: no answer within 0.1 s"} in rec.events


def test_close_runs_when_the_engine_is_interrupted():
    class Interrupt(Hooked):
        def __call__(self, board, player):
            raise KeyboardInterrupt
    a, b = Interrupt(), Hooked(LEFT)
    with pytest.raises(KeyboardInterrupt):
        play(B(CORRIDOR), [a, b])
    assert a.log[-1] == ("close",) and b.log[-1] == ("close",)


# ---- termination and wall monotonicity on random games -------------------------------------------

def random_game(data, rules):
    seed = data.draw(st.integers(0, 2**32 - 1))
    if rules == "codingame":
        n = data.draw(st.integers(2, 4))
        w, h = data.draw(st.integers(3, 12)), data.draw(st.integers(3, 10))
        board = random_map(w, h, density=0.1, border=False, rng=seed)
        if n > 2:   # add more players on free squares
            free = np.flatnonzero(board.flat == FREE)
            extra = np.random.default_rng(seed).choice(free, size=min(n - 2, len(free)),
                                                       replace=False)
            cells = board.cells.copy()
            for p, sq in enumerate(extra, start=2):
                cells.reshape(-1)[sq] = 2 + p
            board = Board(cells, list(board.heads) + list(extra))
    elif rules == "lightriders":
        board = random_map(data.draw(st.integers(5, 16)), data.draw(st.integers(5, 16)),
                           density=data.draw(st.floats(0, 0.3)), rng=seed)
        board.facing[:] = [1, 3]
    else:
        board = random_map(data.draw(st.integers(5, 20)), data.draw(st.integers(5, 20)),
                           density=data.draw(st.floats(0, 0.3)), rng=seed)
    names = [data.draw(st.sampled_from(["random", "hugger"])) for _ in range(board.n_players)]
    bots = [get_bot(n) for n in names]
    return play(board, bots, rules=rules, rng=seed), board


@settings(max_examples=EXAMPLES)
@given(st.data(), st.sampled_from(["google2010", "lightriders", "codingame"]))
def test_random_games_terminate_and_replay(data, rules):
    rec, board = random_game(data, rules)
    o = rec.outcome
    assert sum(d is None for d in o.deaths) <= 1
    if rules != "codingame":        # squares only fill up; codingame frees dead trails
        assert o.turns <= board.free_count() + 1
    else:
        assert o.winner is not None and all(len(g) == 1 for g in o.ranking)
        if board.n_players == 2:
            assert sorted(sum(o.ranking, [])) == [0, 1]
    rec.verify()


@settings(max_examples=EXAMPLES)
@given(st.data())
def test_google_squares_only_turn_into_walls(data):
    rec, _ = random_game(data, "google2010")
    frames = rec.boards()
    assert len(frames) == rec.outcome.turns + 1
    for before, after in zip(frames, frames[1:]):
        blocked = before.cells != FREE
        assert np.array_equal(after.cells[blocked], before.cells[blocked])
        assert np.count_nonzero(after.cells != before.cells) <= 2


def test_games_on_every_builtin_map_terminate():
    for name in ("arena", "spiral", "open-field"):
        rec = play(load_builtin(name), [get_bot("hugger"), get_bot("random")], rng=3)
        assert rec.outcome.turns > 5
        rec.verify()
