"""Fuzz: odd values for the ``tronlab`` command's options (issue 11).

``main`` runs in-process on argument lists drawn from odd numbers (negative,
huge, ``inf``, ``nan``, non-ASCII digits), unknown names, broken ``cmd:`` lines,
paths to missing folders, odd rule sets and junk.  Every case ends with exit 0
and a result, or exit 2 and exactly one ``tronlab: error:`` line - never a
traceback - within the time bound.  ``tronlab bot`` reads a junk stdin.  See
``tests/fuzz_support.py`` for the number of cases (``TRONLAB_FUZZ=long``).
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time

from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import ODD_NUMBERS, TIME_BOUND, fuzz_settings, junk
from tronlab.cli import main

BOTS = ["random", "hugger", "filler", "nosuchbot", "", "cmd:", "cmd:'unbalanced",
        "cmd:/no/such/program", "cmd:   ", "RANDOM", "random ", "-random"]
RULES = ["google2010", "codingame", "lightriders", "backtothecode", "tron", "", "GOOGLE2010"]
MAPS = ["arena", "ring", "no-such-map", "", ".", "/", "/dev/null", "tronlab"]
SECONDS = ODD_NUMBERS + ["0.05", "0.2", "1e-9", "1e-300", "86400", "86401", "1e300", "-inf",
                         "-0.0", "5e-324"]
DRAW = object()       # marks the place of a value drawn from the option's list


def option_values(tmp):
    saves = [f"{tmp}/g.json", f"{tmp}/missing/g.json", tmp, "", f"{tmp}/\u00e9.json"]
    return {"--time": st.sampled_from(SECONDS), "--seed": st.sampled_from(ODD_NUMBERS),
            "--max-turns": st.sampled_from(ODD_NUMBERS), "--rules": st.sampled_from(RULES),
            "--map": st.sampled_from(MAPS), "--save": st.sampled_from(saves),
            "--json": st.just(None), "--verbose": st.just(None), "--bogus": junk}


@st.composite
def match_argv(draw, tmp):
    bots = draw(st.lists(st.sampled_from(BOTS), min_size=0, max_size=5))
    values = option_values(tmp)
    argv = ["match", *bots, "--max-turns", "3"]     # short games; a drawn --max-turns wins
    for name in draw(st.lists(st.sampled_from(sorted(values)), max_size=5)):
        value = draw(values[name])
        argv += [name] if value is None else [name, value]
    if draw(st.booleans()):
        argv.insert(draw(st.integers(0, len(argv))), draw(junk))
    return argv


@st.composite
def bot_argv(draw):
    argv = ["bot", draw(st.sampled_from(["random", "hugger", "nosuchbot", ""]))]
    if draw(st.booleans()):
        argv += ["--protocol", draw(st.sampled_from(RULES))]
    for name, values in (("--time", SECONDS), ("--seed", ODD_NUMBERS)):
        if draw(st.booleans()):
            argv += [name, draw(st.sampled_from(values))]
    return argv


def run_main(argv, stdin_text=""):
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin_text)
    t0 = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    finally:
        sys.stdin = old_stdin
    assert time.monotonic() - t0 < TIME_BOUND, argv
    return rc, out.getvalue(), err.getvalue()


def check_outcome(argv, rc, out, err):
    assert rc in (0, 2), (argv, rc, err)
    assert "Traceback" not in err, (argv, err)
    if rc == 2:
        assert out == "" and err.startswith("tronlab: error: ") and err.count("\n") == 1, \
            (argv, err)


@fuzz_settings()
@given(st.data())
def test_match_options_end_in_a_result_or_one_error_line(data):
    with tempfile.TemporaryDirectory() as tmp:
        argv = data.draw(match_argv(tmp))
        rc, out, err = run_main(argv)
    check_outcome(argv, rc, out, err)
    if rc == 0:
        assert out.strip(), argv


@fuzz_settings(share=0.5)
@given(bot_argv(), junk)
def test_bot_options_end_in_answers_or_one_error_line(argv, stdin_text):
    rc, out, err = run_main(argv, stdin_text)
    assert rc in (0, 2), (argv, rc, err)
    assert "Traceback" not in err, (argv, err)
    if rc == 2:
        assert err.strip().splitlines()[-1].startswith("tronlab: error: "), (argv, err)
