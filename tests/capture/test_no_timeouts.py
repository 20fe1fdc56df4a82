"""No bot of issue 17 loses on time: full 4-player games as contest programs at 100 ms a turn.

Each bot runs as its own process (``python -m tronlab.cli bot NAME --protocol
backtothecode``) and is fed the contest's protocol; the referee's clock gives
5 s for the first turn, which includes starting the program (``FIRST``), and
100 ms (+50 ms grace, as CodinGame's) for every later one
(:class:`tronlab.capture.external.CaptureProgram`).  Seats rotate from game to
game.  CI plays one game; ``TRONLAB_LONG=1`` plays the
issue's twenty (about 3-7 minutes with the kernels built ahead of time,
``python -m tronlab.jit.aot build``).  ``benchmarks/capture_timing.py`` is the same run
with a printed table of answer times.
"""

import os
import sys

import pytest

from tronlab.capture.external import CaptureProgram
from tronlab.capture.game import play_capture

BOTS = ["rectangles", "paths", "rectangles-block", "paths-block"]
GAMES = 20 if os.environ.get("TRONLAB_LONG") == "1" else 1
#: the first turn's limit: the clock starts before the program does (Python and numba
#: imports take 1-3 s on a loaded machine; CodinGame starts programs before the first turn)
FIRST = 5.0


def program(name, env=None):
    return CaptureProgram([sys.executable, "-m", "tronlab.cli", "bot", name, "--protocol",
                           "backtothecode"], name=name, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("env", [None, {"TRONLAB_AOT": "0"}], ids=["built", "numba-cache"])
def test_no_bot_loses_on_time_in_full_four_player_games(env):
    """With the ahead-of-time build, and without it: numba's cache (filled by
    ``tronlab warmup``, as ``dev.py`` does) must serve every grid the game hands
    a bot, frozen ones included, with no compile in the middle of a game."""
    faults, ends = [], []
    for g in range(GAMES):
        shift = g % 4
        order = BOTS[shift:] + BOTS[:shift]
        rec = play_capture([program(n, env) for n in order], rng=1 + g, time_limit=0.1,
                           first_time_limit=FIRST)
        faults += [(g, order[p], kind, detail) for _turn, _rnd, p, kind, detail in rec.events
                   if kind not in ("back", "rewind")]
        ends.append(rec.outcome["reason"])
        assert rec.outcome["reason"] in ("decided", "round-limit", "idle"), rec.outcome
    assert faults == []
    assert len(ends) == GAMES
