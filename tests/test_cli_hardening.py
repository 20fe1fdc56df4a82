"""The tronlab command refuses odd option values before playing, names the option,
plays Light Riders on map files, shows defaults and examples in --help, and draws a
progress line when stderr is a terminal (issue 11 defects 9-11, issue 12's CLI point)."""

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"


def tronlab(*args, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([PY, "-m", "tronlab", *map(str, args)], text=True, env=env,
                          capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, message", [
    (["match", "random", "random", "--time", "inf"], "argument --time: expected a positive "
                                                     "number of seconds up to 86400"),
    (["match", "random", "random", "--time", "1e300"], "argument --time: expected a positive"),
    (["match", "random", "random", "--time", "nan"], "argument --time: expected a positive"),
    (["bot", "random", "--protocol", "google2010", "--time", "inf"], "argument --time"),
    (["match", "random", "random", "--seed", "-5"],
     "argument --seed: expected a whole number, 0 or more, got '-5'"),
    (["match", "random", "random", "--seed", "\u0663"], "argument --seed"),
    (["bot", "random", "--protocol", "google2010", "--seed", "-1"], "argument --seed"),
])
def test_odd_option_values_are_refused_naming_the_option(args, message):
    r = tronlab(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("tronlab: error: ") and r.stderr.count("\n") == 1, r.stderr
    assert message in r.stderr


def test_save_to_a_missing_folder_is_refused_before_the_game(tmp_path):
    sleeper = f"cmd:{PY} {FIXTURES / 'sleeper.py'}"
    t0 = time.monotonic()
    r = tronlab("match", "random", sleeper, "--time", "20", "--save", tmp_path / "no" / "g.json")
    assert time.monotonic() - t0 < 20          # the game (60 s for the first move) never started
    assert r.returncode == 2
    assert f"no folder {tmp_path / 'no'}" in r.stderr


def test_lightriders_on_a_map_file_gets_the_contest_facings(tmp_path):
    r = tronlab("match", "--rules", "lightriders", "--map", "arena", "hugger", "hugger",
                "--seed", 1, "--json")
    assert r.returncode == 0, r.stderr
    assert '"rules": "lightriders"' in r.stdout


def test_help_shows_defaults_and_examples():
    r = tronlab("match", "--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert "(default: google2010)" in text and "search bots then think 1 s a move" in text
    assert "examples:" in text and "tronlab match chamber minimax --map ring" in text
    assert "examples:" in tronlab("--help").stdout


def _run_on_a_terminal(args, timeout=120):
    """Run tronlab with stderr on a pseudo-terminal; return (stdout, terminal text)."""
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([PY, "-m", "tronlab", *args], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    seen = b""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:     # the other side closed
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        out = proc.stdout.read()
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        os.close(master)
    return out.decode(), seen.decode(errors="replace")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a pty")
def test_match_shows_progress_on_a_terminal_only():
    out, term = _run_on_a_terminal(["match", "random", "hugger", "--seed", "4"])
    assert "wins" in out or "draw" in out
    assert "\rturn 1: last move random " in term and " ms, hugger " in term
    assert term.endswith("\r")                      # the line is wiped at the end
    piped = tronlab("match", "random", "hugger", "--seed", "4")
    assert piped.stderr == "" and piped.stdout == out.replace("\r\n", "\n")


def test_the_command_package_keeps_its_entry_points():
    """tronlab/cli is a package now: the console script's ``tronlab.cli:main``, ``python -m
    tronlab`` and ``python -m tronlab.cli`` are the same command."""
    import importlib
    import re

    # pyproject's [project.scripts] entry, read without tomllib (Python 3.11+ only)
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    module, _, attr = re.search(r'^tronlab\s*=\s*"([^"]+)"', section, re.M)[1].partition(":")
    main = getattr(importlib.import_module(module), attr)
    assert callable(main) and main(["maps"]) == 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    via_cli = subprocess.run([PY, "-m", "tronlab.cli", "maps"], text=True, env=env,
                             capture_output=True, timeout=120)
    assert via_cli.returncode == 0 and via_cli.stdout == tronlab("maps").stdout != ""


def test_arena_run_help_gives_every_default_and_examples():
    """A teacher reads ``tronlab arena run --help``: each option that has a default says
    it (the maps' differ by game), and the help shows how to run a class contest."""
    from tronlab.arena.parser import build_parser
    from tronlab.arena.maps import DEFAULT_MAPS

    run = build_parser()._subparsers._group_actions[0].choices["run"]
    for action in run._actions:
        if action.option_strings and action.default not in (None, False, [], "==SUPPRESS=="):
            assert "default" in (action.help or ""), action.option_strings
    maps = next(a.help for a in run._actions if "--maps" in a.option_strings)
    for game, default in DEFAULT_MAPS.items():
        assert default in maps and game in maps
    text = " ".join(run.format_help().split())
    assert "examples:" in text and "--bots-dir students/" in text
    assert "the same command again" in text     # how a stopped run resumes


def test_arena_run_help_gives_the_timeouts_a_program_meets():
    """A hanging student program is reported with 'no answer within 4.5 s' and a slow one
    at 1.8 S: the numbers of --help are the ones in those messages."""
    from tronlab.arena.bots import MARGIN
    from tronlab.arena.parser import build_parser
    from tronlab.arena.play import PROGRAM_START

    run = build_parser()._subparsers._group_actions[0].choices["run"]
    text = " ".join(next(a.help for a in run._actions if "--time" in a.option_strings).split())
    assert "times out at 2 S" in text
    assert f"at least {PROGRAM_START:g} s" in text
    assert f"({2 * MARGIN:g} S, {PROGRAM_START * MARGIN:g} s)" in text
    assert "a backtothecode program (cmd:) is stopped at 2 S + 50 ms" in text


def test_arena_run_help_gives_the_backtothecode_program_limits():
    """What the help says of a backtothecode program is its clock: the game's limits,
    no Tron-style margin, plus the contest's grace on the moves after the first."""
    from tronlab.arena.bots import make_bot
    from tronlab.arena.play import PROGRAM_START

    prog = make_bot("cmd:true", "backtothecode", limits=(2 * 0.1, PROGRAM_START))
    assert prog.time_limit + prog.grace == pytest.approx(0.25)
    assert prog.first_time_limit == PROGRAM_START


def test_bot_help_says_what_protocol_is_and_that_lightriders_plans_from_the_bank():
    # --protocol had no help at all, and --time promised "0.2 s lightriders" while the
    # search bots plan from the bank of each 'action move' line there, whatever --time says
    from tronlab.runner.registry import get_bot, no_warm_up
    from tronlab.tron.mapgen import lightriders_board

    text = " ".join(tronlab("bot", "--help").stdout.split())
    assert "the contest whose input the program reads on stdin" in text
    assert "0.2 s lightriders" not in text
    assert "under lightriders the search bots plan from the time bank" in text
    budgets = []
    with no_warm_up():
        for seconds in (0.05, 2.0):
            bot = get_bot("chamber", time=seconds)
            bot.start_game(lightriders_board(x=2, y=3), 0, rules="lightriders", time_limit=seconds)
            bot._first, bot._rounds_left = False, 40
            bot.set_clock(3.0, 0.2)
            budgets.append(bot.budget())
    assert budgets[0] == budgets[1]


def _closing(fd):
    return lambda: os.close(fd)


def test_a_run_started_with_stderr_closed_plays_every_game(tmp_path):
    # before: `tronlab arena run ... 2>&-` died at its progress bar ('NoneType' object has
    # no attribute 'write') with exit code 1, no game played and nowhere to say so
    db = tmp_path / "r.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([PY, "-m", "tronlab", "arena", "run", "--bots", "random", "hugger",
                        "--maps", "random:1", "--db", str(db)], env=env, text=True,
                       stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       preexec_fn=_closing(2), timeout=120)
    assert r.returncode == 0 and "2 games planned" in r.stdout and "rank bot" in r.stdout
    r = tronlab("arena", "table", db)
    assert r.stdout.startswith("2 games (google2010)"), r.stdout + r.stderr



@pytest.fixture
def own_bots(monkeypatch):
    """Register, in a scratch registry: a factory that takes no rng or time (a bot that
    neither draws nor searches) and, by mistake, a bot function itself."""
    import io

    from tronlab.runner import registry

    registry.bot_names()        # every built-in registered first: the copy keeps them
    monkeypatch.setattr(registry, "_REGISTRY", {f: dict(t) for f, t in
                                                registry._REGISTRY.items()})

    def first_free(board, player):
        return (board.legal_moves(player) or [0])[0]

    registry.register("plain-factory", lambda: first_free)
    registry.register("the-bot-itself", first_free)
    monkeypatch.setattr("sys.stdin", io.StringIO("5 3\n#####\n#1 2#\n#####\n"))


def test_a_factory_without_rng_or_time_plays_in_every_command(own_bots, capsys):
    # before: 'tronlab: error: TypeError: plain-factory has no option 'rng'' in match and
    # bot, though no option was given (the commands pass the seed and thinking time)
    from tronlab.cli import main

    assert main(["match", "plain-factory", "random", "--seed", "1", "--json"]) == 0
    assert main(["bot", "plain-factory", "--protocol", "google2010", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert '"winner"' in out[0] and out[-1] == "2"


def test_registering_the_bot_itself_is_named_with_the_fix(own_bots, capsys):
    # before: 'the-bot-itself has no option 'rng'' from the commands and Python's
    # "first_free() missing 2 required positional arguments" from get_bot
    from tronlab import get_bot
    from tronlab.cli import main

    said = ("bot 'the-bot-itself' was registered with a callable that needs board, player: "
            "register() takes a factory that makes the bot")
    with pytest.raises(TypeError) as error:
        get_bot("the-bot-itself")
    assert str(error.value).startswith(said)
    assert main(["bot", "the-bot-itself", "--protocol", "google2010"]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_factory_option_without_a_default_is_named_as_an_option(own_bots):
    from tronlab import get_bot
    from tronlab.runner import registry

    registry.register("needs-depth", lambda depth, *, rng=None, time=None:
                      (lambda board, player: depth))
    with pytest.raises(TypeError, match=r"^bot 'needs-depth' needs the option depth "
                                        r"\(needs-depth\+depth=VALUE"):
        get_bot("needs-depth")
    assert get_bot("needs-depth", depth=2)(None, 0) == 2
