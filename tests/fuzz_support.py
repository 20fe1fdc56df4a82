"""Shared pieces of the fuzz suite (``tests/test_fuzz_*.py``, issue 11).

Every fuzz test feeds the package hostile input - malformed map texts, protocol
streams of the three Tron protocols and of Back to the Code, command-line option
values - and requires a clear message (one line, or the package's own error type
naming the problem) or a legal answer within :data:`TIME_BOUND` seconds: never a
traceback, a hang or a process left behind (the process census of
``tests/census.py`` watches every test).

How many cases: :data:`EXAMPLES` per target, ~200 by default (the whole suite
runs in well under a minute); ``TRONLAB_FUZZ=long`` raises it to 5000 for a
local run (``TRONLAB_FUZZ=<number>`` sets it).  The examples are the same every
run under the ``ci`` hypothesis profile (``CI`` set), random otherwise.

Strategies: :func:`mutated` turns a valid text into a hostile one (truncated,
lines dropped, duplicated, swapped, numbers replaced by out-of-range or
non-ASCII ones, random junk inserted); :func:`junk` is random text or random
bytes decoded leniently.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st


def _examples() -> int:
    mode = os.environ.get("TRONLAB_FUZZ", "")
    if mode == "long":
        return 5000
    if mode.isdigit() and int(mode) > 0:
        return int(mode)
    return 200


EXAMPLES = _examples()
TIME_BOUND = 10.0     # seconds one case may take (a loaded machine); cases take milliseconds


def fuzz_settings(share: float = 1.0):
    """Hypothesis settings for one fuzz target (``share`` of :data:`EXAMPLES`)."""
    return settings(max_examples=max(1, int(EXAMPLES * share)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


#: numbers a hostile stream might put where a count, size or coordinate goes
ODD_NUMBERS = ["-1", "0", "-0", "1", "2", "3", "4", "7", "16", "99", "256", "2000", "2001",
               "99999999999999999999", str(2**63), str(-2**63 - 1), "1e9", "0x10", "1.5",
               "nan", "inf", "\u0663", "\u00b3", "\uff11", "1_0", "+3", " 5", "", "abc"]

junk = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300).map(lambda b: b.decode("utf-8", "replace")),
    st.lists(st.sampled_from(ODD_NUMBERS + ["#", ".", " ", "\n", "\r\n", "\t", ",", "x",
                                            "settings", "update", "action", "move", "game",
                                            "field", "round", "your_botid", "1", "2"]),
             max_size=60).map("".join),
)


def _replace_number(line: str, data_draw) -> str:
    words = line.split(" ")
    idx = [i for i, w in enumerate(words) if w.lstrip("-").isdigit()]
    if not idx:
        return line
    i = data_draw(st.sampled_from(idx))
    words[i] = data_draw(st.sampled_from(ODD_NUMBERS))
    return " ".join(words)


@st.composite
def mutated(draw, valid: str, *, max_steps: int = 4) -> str:
    """``valid`` text after 1 to ``max_steps`` hostile edits."""
    lines = valid.split("\n")
    for _ in range(draw(st.integers(1, max_steps))):
        kind = draw(st.sampled_from(["truncate", "drop", "dup", "swap", "number", "insert",
                                     "char", "shuffle"]))
        if not lines:
            lines = [""]
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "truncate":
            text = "\n".join(lines)
            lines = text[:draw(st.integers(0, len(text)))].split("\n")
        elif kind == "drop":
            del lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "number":
            lines[i] = _replace_number(lines[i], draw)
        elif kind == "insert":
            lines.insert(i, draw(junk))
        elif kind == "char" and lines[i]:
            k = draw(st.integers(0, len(lines[i]) - 1))
            ch = draw(st.sampled_from(list("#. 12345abx,\t\u0663\u00e9\x00") + [""]))
            lines[i] = lines[i][:k] + ch + lines[i][k + 1:]
        elif kind == "shuffle":
            lines = draw(st.permutations(lines))
    return "\n".join(lines)
