"""The bot registry (tronlab.runner.registry) and the random and hugger bots
(tronlab.tron.bots.basic)."""

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tronlab.arena.bots import check_spec
import tronlab.runner.registry as registry
from strategies import EXAMPLES, boards
from tronlab.tron.board import Board
from tronlab.runner.registry import bot_names, describe, get_bot, register
from tronlab.tron.bots.basic import HuggerBot, RandomBot, wall_count
from tronlab.runner.engine import play
from tronlab.tron.mapgen import lightriders_board

DXY = [(0, -1), (1, 0), (0, 1), (-1, 0)]


@pytest.fixture
def scratch_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", {f: dict(t) for f, t in registry._REGISTRY.items()})


# ---- registry -------------------------------------------------------------------------------

def test_builtin_bots_are_registered():
    assert {"random", "hugger"} <= set(bot_names())
    assert describe("random") == "uniformly random move into a free square"
    assert isinstance(get_bot("random"), RandomBot)
    hugger = get_bot("hugger", random_ties=True, rng=3)
    assert isinstance(hugger, HuggerBot) and hugger.random_ties


def test_unknown_bot_lists_known_names():
    with pytest.raises(ValueError, match="unknown bot 'nobody'; known tron bots: .*hugger.*random"):
        get_bot("nobody")
    with pytest.raises(ValueError, match="unknown bot"):
        describe("nobody")


@pytest.mark.parametrize("call", [
    lambda: get_bot("paths"),
    lambda: check_spec("paths", "google2010"),
])
def test_a_bot_of_the_other_game_is_named_so(call):
    # `tronlab bot paths --protocol google2010` said only "unknown bot 'paths'; known
    # tron bots: ...", leaving the reader to guess that paths plays backtothecode
    with pytest.raises(ValueError, match=r"\(paths is a capture bot, for backtothecode\)$"):
        call()
    with pytest.raises(ValueError, match=r"known capture bots: .*\(chamber is a tron bot, "
                                         r"for google2010, codingame, lightriders\)"):
        get_bot("chamber", game="backtothecode")


def test_register_as_decorator_and_call(scratch_registry):
    @register("first-move", description="always up")
    def first(*, rng=None, time=None):
        return lambda board, player: 0

    def make(*, rng=None, time=None, move=1):
        """Always the same move.

        More text."""
        return lambda board, player: move

    assert register("fixed", make) is make
    assert "first-move" in bot_names() and "fixed" in bot_names()
    assert describe("first-move") == "always up" and describe("fixed") == "Always the same move."
    assert get_bot("fixed", move=3)(None, 0) == 3
    register("fixed", make)                      # the same factory again is fine
    with pytest.raises(ValueError, match="already registered"):
        register("fixed", first)
    with pytest.raises(ValueError, match="non-empty str"):
        register("", make)
    with pytest.raises(TypeError, match="not callable"):
        register("broken", 5)
    register("not-a-bot", lambda **kw: 42)
    with pytest.raises(TypeError, match="returned a int, not a callable bot"):
        get_bot("not-a-bot")
    # before: Python's "make() got an unexpected keyword argument 'colour'", which names
    # the factory (SearchBot.__init__ for chamber), not the bot
    with pytest.raises(TypeError, match="^fixed has no option 'colour'$"):
        get_bot("fixed", colour="red")
    with pytest.raises(TypeError, match="^chamber has no option 'dpth'$"):
        get_bot("chamber", dpth=2)

    def helper():
        return 0

    def clumsy(*, rng=None, time=None, depth=1):   # the factory's own mistake is left as is
        return helper(zz=depth)
    register("clumsy", clumsy)
    with pytest.raises(TypeError, match=r"helper\(\) got an unexpected keyword argument 'zz'"):
        get_bot("clumsy", depth=2)


def test_a_builtin_name_is_refused_before_the_builtins_are_loaded():
    # registering 'random' before any look-up used to succeed: it shadowed the built-in, and
    # the built-in module then failed to load (a RuntimeWarning), losing 'hugger' with it
    code = ("import warnings; warnings.simplefilter('error'); "
            "from tronlab.runner.registry import register, get_bot\n"
            "try:\n    register('random', lambda **o: (lambda b, p: 0))\n"
            "except ValueError as e:\n    assert 'already registered' in str(e), e\n"
            "else:\n    raise SystemExit('registered over the built-in random')\n"
            "assert type(get_bot('random')).__name__ == 'RandomBot'; get_bot('hugger')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_a_broken_builtin_module_only_warns(monkeypatch):
    monkeypatch.setattr(registry, "_BUILTIN_MODULES", ["tronlab.tron.bots.basic", "does_not_exist"])
    monkeypatch.setattr(registry, "_loaded", False)
    with pytest.warns(RuntimeWarning) as caught:
        registry._load_builtins()
    assert [str(w.message) for w in caught] == [
        "tronlab.runner.registry: could not load built-in bots from 'does_not_exist': "
        "No module named 'does_not_exist'"]
    assert "random" in registry.bot_names()


def test_import_tronlab_loads_no_bot_module_until_asked():
    code = ("import sys, tronlab; assert 'tronlab.tron.bots.search' not in sys.modules; "
            "assert 'numba' not in sys.modules; assert 'chamber' in tronlab.bot_names(); "
            "assert 'tronlab.tron.bots.search' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_simple_bot_is_made_without_numba():
    # a protocol program playing random or hugger answers its first move sooner
    code = ("import sys; from tronlab.runner.registry import get_bot; "
            "get_bot('random'); get_bot('hugger'); "
            "assert 'numba' not in sys.modules, 'numba loaded'; "
            "assert 'tronlab.tron.bots.search' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_builtin_home_registers_its_bots():
    registry._load_builtins()
    for (family, name), module in registry._BUILTIN_HOMES.items():
        factory, _ = registry._REGISTRY[family][name]
        assert factory.__module__ == module, name
    builtin = {(family, n) for family, table in registry._REGISTRY.items()
               for n, (f, _) in table.items()
               if f.__module__.startswith(("tronlab.tron.bots.", "tronlab.capture."))}
    assert builtin == set(registry._BUILTIN_HOMES)


# ---- random ---------------------------------------------------------------------------------

@settings(max_examples=EXAMPLES)
@given(boards(), st.integers(0, 2**32 - 1))
def test_random_picks_a_legal_move(board, seed):
    for p in range(board.n_players):
        x, y = board.head_xy(p)
        legal = [m for m, (dx, dy) in enumerate(DXY) if board.is_free(x + dx, y + dy)]
        move = RandomBot(seed)(board, p)
        assert move in (legal or [0, 1, 2, 3])


def test_random_is_seeded_and_uniform():
    board = Board.from_ascii("""
        .....
        ..1..
        .....
        ....2
    """)
    a, b, c = RandomBot(5), RandomBot(5), RandomBot(6)
    runs = [[bot(board, 0) for _ in range(20)] for bot in (a, b, c)]
    assert runs[0] == runs[1] != runs[2]
    bot = RandomBot(np.random.default_rng(0))
    counts = np.bincount([bot(board, 0) for _ in range(4000)], minlength=4)
    assert counts.min() > 850                  # about 1000 each
    boxed = Board.from_ascii("#1#\n###\n..2")
    assert RandomBot(1)(boxed, 0) in range(4)


def test_bot_uses_engine_rng_unless_given_one():
    board = lightriders_board(x=3, y=7)
    games = [play(board, [get_bot("random"), get_bot("random")], rules="lightriders", rng=9)
             for _ in range(2)]
    assert games[0].moves == games[1].moves
    other = play(board, [get_bot("random"), get_bot("random")], rules="lightriders", rng=10)
    assert other.moves != games[0].moves
    fixed = [play(board, [get_bot("random", rng=1), get_bot("random", rng=2)],
                  rules="lightriders", rng=s).moves for s in (1, 2)]
    assert fixed[0] == fixed[1]


# ---- hugger ---------------------------------------------------------------------------------

def blocked_around(board, x, y):
    """Oracle: blocked neighbours of (x, y), off the grid counting as blocked."""
    return sum(1 for dx, dy in DXY if not board.is_free(x + dx, y + dy))


@settings(max_examples=EXAMPLES)
@given(boards())
def test_hugger_matches_oracle(board):
    for p in range(board.n_players):
        x, y = board.head_xy(p)
        legal = [m for m, (dx, dy) in enumerate(DXY) if board.is_free(x + dx, y + dy)]
        move = HuggerBot()(board, p)
        if not legal:
            assert move in range(4)
            continue
        score = {m: blocked_around(board, x + DXY[m][0], y + DXY[m][1]) for m in legal}
        best = max(score.values())
        assert move == min(m for m in legal if score[m] == best)
        assert HuggerBot(rng=1, random_ties=True)(board, p) in [m for m in legal
                                                                 if score[m] == best]
        assert wall_count(board, board.target(p, move)) == best


def test_hugger_follows_the_wall():
    board = Board.from_ascii("""
        #######
        #.....#
        #..1..#
        #.....#
        #....2#
        #######
    """)
    assert HuggerBot()(board, 0) == 0          # up: next to the top wall (2 blocked) beats 1
    board = Board.from_ascii("""
        ..1..
        .....
        ....2
    """)
    assert HuggerBot()(board, 0) == 1          # right and left tie (edge + head): fixed order
    moves = {HuggerBot(rng=s, random_ties=True)(board, 0) for s in range(30)}
    assert moves == {1, 3}


@pytest.mark.parametrize("rules", ["google2010", "lightriders", "codingame"])
def test_basic_bots_play_every_rule_set(rules):
    board = lightriders_board(x=2, y=3)
    rec = play(board, [get_bot("hugger"), get_bot("random")], rules=rules, rng=4)
    assert rec.outcome.turns >= 10
    # neither bot ever chose a reverse after round 1 under Light Riders
    assert not [e for e in rec.events if e["kind"] == "reverse"]
    rec.verify()
