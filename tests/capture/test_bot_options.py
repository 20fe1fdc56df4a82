"""The capture bots' options, checked when the bot is made: a TypeError naming the
option and what it takes for a wrong type, a ValueError for a wrong value.  Before,
none was checked: a bad one failed at the first move (an IndexError or a numba
typing error, each turn an 'error' fault), or was taken and changed the play
without a word (``model="false"`` switched the model on, ``wary=nan`` off)."""

import re

import numpy as np
import pytest

from tronlab.arena.bots import check_spec, make_bot
from tronlab.capture import play_capture
from tronlab.capture.back import BlockBack, WinnerBack
from tronlab.capture.opponent import NEVER
from tronlab.capture.paths_bot import PathBot, reach_arrival
from tronlab.capture.rects_bot import RectangleBot
from tronlab.capture.rects_terms import RectTerms
from tronlab.runner.registry import get_bot

NAN, INF = float("nan"), float("inf")

PATH_TYPES = [("max_nodes", 5000.0, "max_nodes must be an int from 1 to 10000000"),
              ("max_nodes", True, "max_nodes must be an int"),
              ("max_nodes", "5000", "max_nodes must be an int"),
              ("steps", "321", r"steps must be a sequence of ints \(squares a step"),
              ("steps", 3, "steps must be a sequence of ints"),
              ("steps", (3, 2.5), r"steps\[1\] must be an int from 1 to 100 "),
              ("max_steps", 60.0, "max_steps must be an int from 1"),
              ("order", 1, "order must be one of 'writeup', 'same', got int 1"),
              ("back", "winner", r"back must be None or a BACK rule with decide\(bot, view"),
              ("wary", "1", r"wary must be a number >= 0 \(0: off\), got str"),
              ("constant", "20", "constant must be a number >= 0, got str"),
              ("keep", None, "keep must be a number >= 0"),
              ("spoil", 1.5, "spoil must be an int from 0"),
              *[(flag, value, f"{flag} must be True or False, got")
                for flag in ("model", "interfere", "enough", "rival")
                for value in ("false", None, 1)]]

PATH_VALUES = [("max_nodes", 0, "max_nodes must be an int from 1 to 10000000 .nodes a search"),
               ("max_nodes", -5, "max_nodes must be an int from 1"),
               ("max_nodes", 10**9, "max_nodes must be an int from 1 to 10000000"),
               ("steps", (), "steps must hold at least one step length"),
               ("steps", (3, 0), r"steps\[1\] must be an int from 1 to 100 \(squares a step\)"),
               ("max_steps", 0, "max_steps must be an int from 1"),
               ("order", "left", "order must be one of 'writeup', 'same', got 'left'"),
               ("spoil", -1, "spoil must be an int from 0"),
               *[(name, value, f"{name} must be a number >= 0")
                 for name in ("wary", "constant", "keep") for value in (NAN, INF, -0.5)]]


@pytest.mark.parametrize("name, value, match", PATH_TYPES)
def test_the_path_bot_refuses_an_option_of_the_wrong_type(name, value, match):
    with pytest.raises(TypeError, match=match):
        PathBot(**{name: value})


@pytest.mark.parametrize("name, value, match", PATH_VALUES)
def test_the_path_bot_refuses_a_wrong_option_value(name, value, match):
    with pytest.raises(ValueError, match=match):
        PathBot(**{name: value})


@pytest.mark.parametrize("name, value, error, match", [
    ("terms", {"approach": 1.0}, TypeError, "terms must be None or a RectTerms, got dict"),
    ("l_shapes", "no", TypeError, "l_shapes must be True or False, got str"),
    ("project", 0, TypeError, "project must be True or False, got int"),
    ("interfere", True, TypeError, "interfere must be one of 'two', 'all', 'none', got bool"),
    ("interfere", "never", ValueError, "interfere must be one of 'two', 'all', 'none'"),
    ("back", 3, TypeError, "back must be None or a BACK rule"),
    ("fallback_below", "1", TypeError, "fallback_below must be a finite number, got str"),
    ("fallback_below", NAN, ValueError, "fallback_below must be a finite number, got nan"),
])
def test_the_rectangle_bot_checks_its_options(name, value, error, match):
    with pytest.raises(error, match=match):
        RectangleBot(**{name: value})


def test_the_back_rules_check_their_options():
    with pytest.raises(TypeError, match="every must be an int from 1 to 25 .rounds., got str"):
        WinnerBack("20")                     # before: a TypeError from '<=' on a str
    with pytest.raises(ValueError, match="every must be an int from 1 to 25"):
        WinnerBack(0)
    with pytest.raises(TypeError, match="min_gain must be an int from 1"):
        BlockBack(min_gain=2.5)              # before: taken
    with pytest.raises(ValueError, match="min_gain must be an int from 1"):
        BlockBack(min_gain=0)                # before: taken, a BACK at the first chance
    with pytest.raises(ValueError, match="lead must be an int from 1 to 24"):
        BlockBack(lead=25)


def test_numpy_scalars_are_taken_as_python_numbers():
    bot = PathBot(max_nodes=np.int64(5000), steps=np.array([3, 1]), max_steps=np.int32(40),
                  wary=np.float32(1.5), constant=np.int64(20), keep=np.float64(1.1),
                  spoil=np.uint8(5), model=np.bool_(False), back=WinnerBack(np.int64(10)))
    assert (bot.max_nodes, bot.steps, bot.max_steps, bot.spoil, bot.model) == \
        (5000, (3, 1), 40, 5, False)
    assert type(bot.max_nodes) is int and all(type(k) is int for k in bot.steps)
    assert (bot.wary, bot.constant, bot.keep) == (1.5, 20.0, 1.1)
    rect = RectangleBot(terms=RectTerms(), l_shapes=np.bool_(True), fallback_below=np.int64(0))
    assert rect.l_shapes is True and rect.fallback_below == 0.0
    rec = play_capture([bot, rect], rng=2, width=8, height=5, round_limit=30)
    assert rec.notes == [] and rec.outcome is not None


def test_a_huge_wary_means_never_not_a_wrapped_round():
    arrival = reach_arrival((1, 3), [((0, 0), (1, 0), 0)], 1e300)
    assert arrival.tolist() == [[0, NEVER, NEVER]]      # before: -2**63, taken already


def test_the_registry_and_the_arena_specs_pass_options_and_refuse_bad_ones():
    assert get_bot("paths", game="capture", max_nodes=np.int64(500)).max_nodes == 500
    with pytest.raises(ValueError, match="max_nodes must be an int from 1"):
        get_bot("paths-back", game="backtothecode", max_nodes=-5)
    spec = "paths+max_nodes=5000+steps=[3,1]+model=false+order=same"
    check_spec(spec, "backtothecode")
    bot = make_bot(spec, "backtothecode")
    assert (bot.max_nodes, bot.steps, bot.model, bot.order) == (5000, (3, 1), False, "same")
    assert make_bot("rectangles+interfere=all", "backtothecode").interfere == "all"
    # before: check_spec passed these and every game of the plan ended in an 'error' fault
    for bad, match in (("paths+max_nodes=-5", "max_nodes must be an int from 1"),
                       ("paths+max_nodes=1e4", "max_nodes must be an int .*, got float"),
                       ("paths+constant=NaN", "constant must be a number >= 0, got nan"),
                       ("rectangles+interfere=false", "interfere must be one of"),
                       ("paths+bogus=1", "paths has no option 'bogus'")):
        with pytest.raises(ValueError, match=re.escape(f"bot '{bad}': ") + match):
            check_spec(bad, "backtothecode")


@pytest.mark.parametrize("terms, error, match", [
    (dict(proximity_divisor=0), ValueError, r"proximity_divisor must be a number > 0 \(1: off\)"),
    (dict(size_divisor=NAN), ValueError, "size_divisor must be a number >= 0, got nan"),
    (dict(win_bonus=-1), ValueError, "win_bonus must be a number >= 0"),
    (dict(approach="2"), TypeError, "approach must be a number >= 0, got str"),
    (dict(cap_to_win=1), TypeError, "cap_to_win must be True or False"),
    (dict(max_side=1), ValueError, "max_side must be an int from 2 to 100 "),
    (dict(max_side=4.0), TypeError, "max_side must be an int from 2 to 100 "),
    (dict(proximity=-1), ValueError, "proximity must be an int from 0"),
    (dict(size_limit=14), TypeError, r"size_limit must be 3 numbers \(for 2, 3 and 4 players\)"),
    (dict(size_limit=(14, 13)), ValueError, "size_limit must be 3 numbers"),
    (dict(player_constant=(10, 6, -1)), ValueError, r"player_constant\[2\] must be a number >= 0"),
])
def test_the_rectangle_terms_are_checked_when_made(terms, error, match):
    # before: taken; proximity_divisor=0 a ZeroDivisionError in the scan every turn
    with pytest.raises(error, match=match):
        RectTerms(**terms)


def test_switched_off_and_numpy_terms_are_taken():
    off = RectTerms().only()
    assert off.player_constant == (0.0, 0.0, 0.0) and off.size_divisor == 1.0
    terms = RectTerms(max_side=np.int64(4), size_limit=np.array([5, 4, 3]))
    assert terms.size_limit == (5, 4, 3) and all(type(v) is int for v in terms.size_limit)
    assert RectTerms(player_constant=[10, 6, 4]).params(3)[4] == 6.0
