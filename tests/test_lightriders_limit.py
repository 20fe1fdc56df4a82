"""Light Riders programs under a limit per move (``arena run`` and ``match`` without a
bank): what they are told fits the limit the game enforces (:mod:`tronlab.runner.external`)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tronlab.arena.bots import make_bot
from tronlab.runner.engine import play
from tronlab.runner.registry import get_bot
from tronlab.tron.mapgen import lightriders_board

FIXTURES = Path(__file__).parent / "fixtures"


def _arena_game(spec, limit, first, turns):
    """One game of ``spec`` as ``tronlab arena run --game lightriders`` without --bank plays
    it (tronlab.arena.play._play_tron): the program made with the engine's limits."""
    bot = make_bot(spec, "lightriders", limits=(limit, first))
    try:
        return play(lightriders_board(x=3, y=3), [bot, get_bot("hugger")], rules="lightriders",
                    rng=1, time_limit=limit, first_time_limit=first, max_turns=turns)
    finally:
        bot.close()


def test_an_arena_program_is_told_the_limit_of_a_move_not_a_bank():
    """Before: 'settings timebank 4500' and 'action move 4500' each move (a bank of nine
    tenths of the first move's 5 s), while the game timed each move out at 0.4 s."""
    rec = _arena_game(f"cmd:{sys.executable} {FIXTURES / 'lr_echo.py'}", 0.4, 5.0, 3)
    lines = rec.stderr[0].splitlines()
    assert "settings timebank 360" in lines and "settings time_per_move 360" in lines
    assert [x for x in lines if x.startswith("action move")] == ["action move 360"] * 3


def test_a_program_planning_from_its_bank_keeps_to_the_limit_of_a_move():
    """Before: told a bank of 900 ms under a 0.2 s limit a move, it planned 0.45 s and more
    and was timed out (which shuts a Light Riders bot down)."""
    rec = _arena_game(f"cmd:{sys.executable} {FIXTURES / 'lr_planner.py'}", 0.2, 1.0, 4)
    assert [e for e in rec.events if e["player"] == 0 and e["kind"] == "timeout"] == []


def test_a_py_file_hears_the_limit_of_a_move_in_round_seconds(tmp_path):
    """Before: its start_game heard a bank of (4.5, 0.18000000000000002), and set_clock the
    bank; now the limits its own clock keeps, as an in-process bot hears them."""
    path = tmp_path / "ann.py"
    path.write_text(
        "import sys\n\n"
        "def start_game(board, player, *, rules, time_limit, rng, first_time_limit=None,\n"
        "               time_bank=None):\n"
        "    print('start', repr((time_limit, first_time_limit, time_bank)), file=sys.stderr)\n\n"
        "def set_clock(time_left, time_per_move):\n"
        "    print('clock', repr((time_left, time_per_move)), file=sys.stderr)\n\n"
        "def move(board, player):\n"
        "    return 'pass'\n")
    rec = _arena_game(f"py:{path}", 0.2, 5.0, 2)
    heard = [ln.split(" ", 1) for ln in rec.stderr[0].splitlines()]
    assert [ast.literal_eval(text) for kind, text in heard if kind == "start"] == [
        (0.18, 4.5, None)], rec.stderr[0]
    assert [ast.literal_eval(text) for kind, text in heard if kind == "clock"] == [
        (0.18, 0.18)] * 2, rec.stderr[0]


def _planned(settings_ms, told_ms, **options):
    """The budget ``tronlab bot nash --protocol lightriders`` plans for its second move
    when the settings say ``settings_ms`` = (timebank, time_per_move) and each ``action
    move`` a bank of ``told_ms``."""
    import io

    from tronlab.runner.stdio import run_stdio
    from tronlab.tron.lightriders import lightriders_settings, lightriders_state

    board = lightriders_board(x=3, y=3)
    text = lightriders_settings(board, 0, timebank_ms=settings_ms[0],
                                time_per_move_ms=settings_ms[1])
    text += "".join(lightriders_state(board, 0, round=r, time_ms=told_ms) for r in (0, 1))
    bot, planned = get_bot("nash", **options), []
    budget = bot.budget
    bot.budget = lambda: planned.append(budget()) or planned[-1]
    run_stdio(bot, "lightriders", stdin=io.StringIO(text), stdout=io.StringIO(),
              stderr=io.StringIO())
    return planned[1]


def test_a_search_bot_told_its_limit_as_a_bank_plans_all_of_it():
    """Before: a bank that cannot grow (timebank no more than time_per_move: how the arena
    tells a program its limit a move) was planned like the contest's, never more than half
    of it: 0.85 * (0.09 - 0.02) = 0.06 s of a 0.18 s limit.  Now four fifths of all of it
    less the margin, 0.105 s; the contest's 10 s bank is planned as before."""
    assert abs(_planned((180, 180), 180) - 0.85 * (0.8 * 0.18 - 0.02)) < 1e-9
    assert _planned((180, 180), 180, focus=8) == _planned((180, 180), 180)
    contest = _planned((10000, 200), 10000)    # 128 rounds left: half the free squares, plus one
    assert abs(contest - 0.85 * (0.2 + (10 - 0.2) / 128 - 0.02)) < 1e-9, contest


@pytest.mark.parametrize("keyword, told, clock", [("time_bank", (0.18, 0.18), (0.18, 0.18)),
                                                  ("max_turns", 7, None)])
def test_a_starting_bots_worker_hears_the_game_when_its_bot_takes_it(monkeypatch, tmp_path,
                                                                     keyword, told, clock):
    """Before: StartingBot.start_game took no time_bank (nor, until session 52, max_turns),
    so the compiled bot of a program started cold never heard the whole bank (it planned
    a bank that cannot grow as half of it) or the game's turn limit; a bot whose
    start_game does not take the keyword is not given it."""
    import io

    from tronlab.jit import cache
    from tronlab.runner import registry, starting

    class Heard:
        last_stats = None

        def __call__(self, board, player):
            return 0

        def start_game(self, board, player, *, rules=None, time_limit=None, rng=None,
                       time_bank="not told", max_turns="not told"):
            self.last_stats = {keyword: {"time_bank": time_bank, "max_turns": max_turns}[keyword]}

    class Deaf(Heard):
        def start_game(self, board, player, *, rules=None, time_limit=None, rng=None):
            self.last_stats = {keyword: "not told"}

    board = lightriders_board(x=3, y=3)
    for kind, heard in ((Heard, told), (Deaf, "not told")):
        proxy = starting.StartingBot("heard")
        proxy.start_game(board, 0, rules="lightriders", time_limit=None, **{keyword: told})
        messages = io.BytesIO()
        starting.send(messages, ("start_game", *proxy._game))
        starting.send(messages, ("move", board, 0, clock, None))
        monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": io.BytesIO(
            messages.getvalue())})())
        monkeypatch.setattr(registry, "make_spec_bot", lambda spec, kind=kind, **kw: kind())
        monkeypatch.setattr(cache, "mark_warm", lambda name: None)
        with open(tmp_path / "out", "wb+") as out:
            monkeypatch.setattr(sys, "stdout", out)
            assert starting.worker_main(["heard"]) == 0
            out.seek(0)
            assert starting.receive(out)[0] == "ready"
            assert starting.receive(out)[2] == {keyword: heard}
