"""A bot of the user's own, registered from their code, played by tronlab's tools."""

import io

import pytest

from tronlab import Board
from tronlab.cli import main
from tronlab.jit import aot
from tronlab.runner import registry
from tronlab.runner.stdio import start_bot
from tronlab.tron.protocol import encode_state

BOARD = Board.from_ascii("""
    #######
    #1....#
    #.....#
    #....2#
    #######
""")


class Downward:
    """Goes down while it can, else the first legal move; counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, board, player):
        self.calls += 1
        moves = board.legal_moves(player)
        return 2 if 2 in moves else (moves or [0])[0]


@pytest.fixture
def mine(monkeypatch):
    """``mine`` registered for this test only; the bots it made, in ``made``."""
    registry.bot_names()        # the built-ins first: loaded into the copy, they would go with it
    monkeypatch.setattr(registry, "_REGISTRY",
                        {f: dict(t) for f, t in registry._REGISTRY.items()})
    made = []

    @registry.register("mine")
    def make(*, rng=None, time=None):
        made.append(Downward())
        return made[-1]

    return made


def test_only_the_shipped_bots_are_builtin(mine):
    assert registry.is_builtin("chamber") and registry.is_builtin("random", game="capture")
    assert not registry.is_builtin("mine") and not registry.is_builtin("nobody")


@pytest.mark.parametrize("aot_loaded", [True, False])
def test_tronlab_bot_plays_a_user_registered_bot_itself(mine, monkeypatch, aot_loaded):
    # Without the ahead-of-time module, `tronlab bot` used to hand the name to helper
    # processes that import tronlab alone: they could not make the user's bot, so the
    # quick bot answered every move of the game instead, without a word at first.
    monkeypatch.setattr(aot, "loaded_names", lambda: ["territory_kernel"] if aot_loaded else [])
    bot = start_bot("mine", time=0.1)
    try:
        assert bot is mine[-1]
    finally:
        getattr(bot, "close", lambda: None)()
    monkeypatch.setattr("sys.stdin", io.StringIO(encode_state("google2010", BOARD, 0) * 2))
    monkeypatch.setattr("sys.stdout", out := io.StringIO())
    assert main(["bot", "mine", "--protocol", "google2010", "--time", "0.5"]) == 0
    assert mine[-1].calls == 2
    assert out.getvalue().split() == ["3", "3"]      # down (Google 2010: 1 N, 2 E, 3 S, 4 W)


def test_tronlab_bot_checks_options_as_match_does(mine, capsys):
    # it used to say "unknown bot 'mine+x=1'; known tron bots: ..., mine, ...", then
    # "tronlab bot takes a bot's name without options"
    assert main(["bot", "mine+x=1", "--protocol", "google2010"]) == 2
    err = capsys.readouterr().err
    assert "mine has no option 'x'" in err and "unknown bot" not in err
    assert main(["bot", "paths+max_node=9", "--protocol", "backtothecode"]) == 2
    assert "paths has no option 'max_node'" in capsys.readouterr().err


def test_the_readme_bot_registers_and_plays(mine):
    """The code of the README's "Write your own bot" runs as printed."""
    from pathlib import Path

    from tronlab import get_bot, load_builtin, play

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split("## Write your own bot", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    bot = get_bot("greedy-voronoi", edges=0.5)
    record = play(load_builtin("arena"), [bot, get_bot("hugger")], rng=1)
    assert record.events == [] and record.outcome.turns > 3
    assert record.outcome.deaths[0] in (None, "wall", "trail", "head-on")


@pytest.mark.parametrize("guarded", [False, True])
def test_an_arena_script_without_a_main_guard_is_told_so(tmp_path, guarded):
    """A script of one's own that runs ``arena run --jobs 2``: each worker imports it
    first, so without ``if __name__ == "__main__":`` the pool broke with only 'a worker
    process died ... a bot may have ended the process'. The error now names the guard."""
    import subprocess
    import sys

    call = ('tronlab.cli.main(["arena", "run", "--bots", "random", "hugger", "--maps", '
            f'"arena", "--jobs", "2", "--time", "0.05", "--no-progress", "--db", '
            f'{str(tmp_path / "x.sqlite")!r}])')
    body = ("import tronlab.cli\n\nif __name__ == \"__main__\":\n    " + call if guarded
            else "import tronlab.cli\n" + call) + "\n"
    (tmp_path / "run.py").write_text(body)
    r = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    if guarded:
        assert "2 games" in r.stdout and "worker process died" not in r.stderr, r.stderr
    else:
        assert "a worker process died" in r.stderr, r.stderr
        assert "run.py runs the arena" in r.stderr and "if __name__ ==" in r.stderr, r.stderr
        # each worker's own tournament stops at once, naming the guard: since runs share
        # their games (claims, session 52) it found both games held by the script's run,
        # played nothing and let the unguarded script play on without a word
        assert "the arena started inside a worker process" in r.stderr, r.stderr


@pytest.mark.parametrize("name", ["voronoi", "chamber", "nash", "hybrid"])
def test_no_warm_up_makes_a_search_bot_without_its_warm_up(name, monkeypatch):
    """What ``tronlab bot NAME+key=value`` checks its options with on a cold start."""
    warmed = []
    bot = registry.get_bot(name)
    monkeypatch.setattr(type(bot), "warm_up", lambda self: warmed.append(self))
    with registry.no_warm_up():
        cold = registry.get_bot(name, time=0.1)
    assert warmed == [] and registry.warm_up_wanted()
    assert registry.get_bot(name, time=0.1) is warmed[0] is not cold


class Listening(Downward):
    """Downward, whose start_game keeps the keywords it was told."""

    def start_game(self, board, player, *, rules=None, time_limit=None, rng=None,
                   max_turns=None, first_time_limit=None, time_bank=None):
        self.heard = {"rules": rules, "time_limit": time_limit, "max_turns": max_turns,
                      "first_time_limit": first_time_limit, "time_bank": time_bank}


@pytest.mark.parametrize("protocol", ["lightriders", "google2010"])
def test_tronlab_bot_tells_start_game_what_the_input_says(mine, monkeypatch, protocol):
    # tronlab bot called start_game with rules, time_limit and rng only: a bot whose hook
    # takes time_bank or max_turns (as the engine tells them) heard nothing of the
    # Light Riders settings lines, the bank and the turn limit of the game
    from tronlab.tron.lightriders import lightriders_settings, lightriders_state
    from tronlab.tron.mapgen import lightriders_board

    registry.register("listening", lambda *, rng=None, time=None: mine.append(Listening())
                      or mine[-1])
    if protocol == "lightriders":
        board = lightriders_board(x=2, y=5)
        text = (lightriders_settings(board, 1, timebank_ms=5000, time_per_move_ms=100,
                                     max_rounds=40)
                + lightriders_state(board, 1, round=0, time_ms=5000))
    else:
        text = encode_state("google2010", BOARD, 0)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert main(["bot", "listening", "--protocol", protocol, "--time", "0.5"]) == 0
    told = {"rules": protocol, "time_limit": 0.5, "first_time_limit": None,
            "time_bank": (5.0, 0.1) if protocol == "lightriders" else None,
            "max_turns": 40 if protocol == "lightriders" else None}
    assert mine[-1].calls == 1 and mine[-1].heard == told


def test_an_arena_plan_refuses_a_registered_bot_its_factory_cannot_make(mine):
    # the arena made a registered bot first when it warmed the run's bots up: a factory
    # that needs an option or raises ended the run there with a traceback
    from tronlab.arena.bots import check_spec

    def broken(**options):
        raise RuntimeError("weights.bin is missing")
    registry.register("broken", broken)
    registry.register("needy", lambda *, weights: Downward())
    with pytest.raises(ValueError, match="bot 'broken' could not be made: its factory raised "
                                         "RuntimeError: weights.bin is missing"):
        check_spec("broken", "google2010")
    with pytest.raises(ValueError, match="bot 'needy' needs the option weights"):
        check_spec("needy", "google2010")
    check_spec("needy+weights=3", "google2010")
    check_spec("mine", "google2010")
    assert len(mine) == 1                   # made once, to see that it can be
