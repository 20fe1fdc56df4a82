"""Fuzz: malformed Google 2010 map texts (issue 11).

:func:`tronlab.tron.maps.parse_map` either returns a board a game can start from
or raises :class:`~tronlab.tron.board.BoardError` with one line that names the
file; nothing else, within the time bound.  A share of the cases goes through
``tronlab match --map FILE`` (in-process ``main``): exit 0 with a result, or exit
2 with one ``tronlab: error:`` line naming the file.  See ``tests/fuzz_support.py``
for the number of cases (``TRONLAB_FUZZ=long``).
"""

from __future__ import annotations

import contextlib
import io
import tempfile
import time
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from fuzz_support import ODD_NUMBERS, TIME_BOUND, fuzz_settings, junk, mutated
from strategies import boards
from tronlab.cli import main
from tronlab.tron.board import BoardError
from tronlab.tron.maps import format_map, parse_map

MAPS = Path(__file__).resolve().parents[1] / "tronlab" / "tron" / "maps"
BUILTIN = sorted(p.read_text() for p in MAPS.glob("*.txt"))
NAME = "fuzz.txt"


@st.composite
def structured(draw):
    """A header of odd numbers over rows of map characters of odd lengths."""
    w, h = draw(st.sampled_from(ODD_NUMBERS)), draw(st.sampled_from(ODD_NUMBERS))
    header = draw(st.sampled_from([f"{w} {h}", f"{w}  {h}", f"{w}", f"{w} {h} {w}",
                                   f"{w}\t{h}", f" {w} {h} "]))
    rows = draw(st.lists(st.text(alphabet="# 1234.\t\r\u00e9", max_size=14), max_size=12))
    return "\n".join([header] + rows) + draw(st.sampled_from(["", "\n", "\n\n", "\r\n"]))


valid_maps = st.one_of(st.sampled_from(BUILTIN),
                       boards(min_players=2, max_players=2, max_width=14, max_height=10)
                       .map(format_map))
hostile_maps = st.one_of(junk, structured(), valid_maps.flatmap(mutated), valid_maps)


def check_text(text):
    t0 = time.monotonic()
    try:
        board = parse_map(text, name=NAME)
    except BoardError as err:
        message = str(err)
        assert message.startswith(f"{NAME}: ") and "\n" not in message, message
        return None
    finally:
        assert time.monotonic() - t0 < TIME_BOUND
    assert board.n_players == 2 and board.free_count() > 0
    return board


@fuzz_settings()
@given(hostile_maps)
def test_parse_map_reads_a_board_or_names_the_problem(text):
    check_text(text)


@fuzz_settings(share=0.25)
@given(hostile_maps)
def test_tronlab_match_on_a_hostile_map_file(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / NAME
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        out, err = io.StringIO(), io.StringIO()
        t0 = time.monotonic()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(["match", "random", "random", "--map", str(path), "--seed", "1",
                       "--max-turns", "3"])
        assert time.monotonic() - t0 < TIME_BOUND
    if rc == 0:
        assert "after " in out.getvalue() and err.getvalue() == ""
    else:
        assert rc == 2 and out.getvalue() == ""
        line = err.getvalue()
        assert line.startswith("tronlab: error: ") and line.count("\n") == 1, line
        assert NAME in line, line
