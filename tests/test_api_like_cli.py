"""The Python API accepts and refuses what the ``tronlab`` command does (a reviewer's
findings): bot names the command can reach, bot specs, protocols, Light Riders maps."""

import io

import pytest

import tronlab
from tronlab.arena.bots import check_spec
from tronlab.runner.registry import _REGISTRY, bot_names, get_bot, register
from tronlab.runner.stdio import run_stdio


@pytest.mark.parametrize("name, words", [
    ("my+bot", "holds '\\+'"), ("a=b", "holds '='"), ("my bot", "holds ' '"),
    ("tab\tbot", "holds '\\\\t'"), ("cmd:mine", "starts with 'cmd:'"),
    ("py:mine", "starts with 'py:'"),
])
def test_a_name_no_bot_spec_can_reach_is_refused(name, words):
    with pytest.raises(ValueError, match=f"bot name .* cannot be used in a bot spec .*{words}"):
        register(name, lambda **options: None)
    assert name not in _REGISTRY.get("tron", {})


def test_a_reachable_name_still_registers():
    def factory(**options):
        return get_bot("hugger")
    register("guard_test-bot.2", factory)
    try:
        assert "guard_test-bot.2" in bot_names()
    finally:
        del _REGISTRY["tron"]["guard_test-bot.2"]


def test_a_repeated_bot_option_is_refused():
    with pytest.raises(ValueError, match="bot option 'depth' is given twice"):
        check_spec("chamber+depth=3+depth=4", "google2010")
    check_spec("chamber+depth=3", "google2010")


def test_run_stdio_points_backtothecode_at_the_capture_program():
    with pytest.raises(ValueError, match=r"tronlab\.capture\.cli\.run_program"):
        run_stdio(get_bot("hugger"), "backtothecode", stdin=io.StringIO(""),
                  stdout=io.StringIO())


def test_play_gives_a_builtin_map_the_contest_facings_under_lightriders():
    """``tronlab match --rules lightriders --map arena`` plays; play() did not
    ("player 0 has no facing").  The caller's board keeps no facings."""
    board = tronlab.load_builtin("arena")
    record = tronlab.play(board, [get_bot("hugger"), get_bot("hugger")], rules="lightriders",
                          max_turns=3)
    assert record.rules == "lightriders" and len(record.moves) == 3
    assert list(record.start.facing) == [1, 3]
    assert list(board.facing) == [-1, -1]
