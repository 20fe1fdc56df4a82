"""With the AOT module built, a bot run as a contest program never imports numba.

Every registered Tron bot that uses compiled kernels is started as a
google2010, codingame and lightriders program (``python -m tronlab bot NAME
--protocol P``, through a small wrapper that records, at exit, which heavy
packages the process imported) and plays 20 turns against the quick bot.  The
google2010 game starts with the heads two squares apart on a small board, so
the bots' close-quarters code runs too (the ``hybrid`` bot's root matrix game,
then the endgame solver once the players are cut off).  The program must have
imported neither numba nor llvmlite nor any plotting or widget package, must not
have fallen back to the quick bot (no cold-cache hint, no
``tronlab.runner.starting``), and every answer must be legal.  The same for every
Back to the Code bot, as a ``backtothecode`` program for 20 rounds (the rectangle
and path bots load their kernels in a background thread: with the build, from it).
"""

import json
import sys
from pathlib import Path

import pytest
from aot_support import child_env

from tronlab import Board, codingame_board, get_bot, play
from tronlab.capture.external import CaptureProgram
from tronlab.capture.game import play_capture
from tronlab.runner.external import ExternalBot
from tronlab.runner.registry import bot_names
from tronlab.runner.starting import NO_KERNELS
from tronlab.tron.mapgen import lightriders_board

ROOT = Path(__file__).resolve().parents[1]
KERNEL_BOTS = [name for name in bot_names() if name not in NO_KERNELS]
CAPTURE_BOTS = bot_names("backtothecode")
PROTOCOLS = ["google2010", "codingame", "lightriders"]
HEAVY = ("numba", "llvmlite", "matplotlib", "ipywidgets", "anywidget", "IPython", "scipy")
CLOSE = """
#########
#.......#
#.......#
#.......#
#..1.2..#
#.......#
#.......#
#.......#
#########
"""

# ``python -c WRAP OUT bot NAME --protocol P``: the tronlab command, recording at exit
WRAP = f"""
import atexit, json, os, sys
out = sys.argv.pop(1)
def record():
    data = {{"heavy": sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r})),
            "starting": "tronlab.runner.starting" in sys.modules,
            "aot": len(sys.modules["tronlab.jit.aot"].loaded_names())
                   if "tronlab.jit.aot" in sys.modules else 0}}
    with open(out + ".tmp", "w") as f:
        json.dump(data, f)
    os.replace(out + ".tmp", out)
class Recorded:
    # the referee may kill the program right after the game, before atexit runs: write the
    # record after every answer too (whole files only: os.replace)
    def __init__(self, stream):
        self.stream = stream
    def write(self, text):
        n = self.stream.write(text)
        if "\\n" in text:
            self.stream.flush()
            record()
        return n
    def __getattr__(self, name):
        return getattr(self.stream, name)
sys.stdout = Recorded(sys.stdout)
atexit.register(record)
from tronlab.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _board(protocol):
    if protocol == "google2010":
        return Board.from_ascii(CLOSE)
    if protocol == "codingame":
        return codingame_board(2, rng=3)
    return lightriders_board(rng=3)


class Legal:
    """Wraps the program: counts answers and collects illegal ones."""

    def __init__(self, inner):
        self.inner, self.answers, self.illegal = inner, 0, []

    def start_game(self, board, player, **kw):
        self.inner.start_game(board, player, **kw)

    def __call__(self, board, player):
        move = self.inner(board, player)
        self.answers += 1
        legal = board.legal_moves(player)
        if legal and move not in legal and move != "pass":
            self.illegal.append((self.answers, move, legal))
        return move

    def close(self):
        self.inner.close()


def test_every_kernel_bot_is_checked():
    assert {"voronoi", "multivoronoi", "minimax", "chamber", "nash", "hybrid",
            "filler"} <= set(KERNEL_BOTS)
    assert {"paths", "rectangles"} <= set(CAPTURE_BOTS)


def _env(aot_build, tmp_path):
    return child_env(TRONLAB_AOT_DIR=aot_build[0], TRONLAB_AOT_CHECK="1",
                     NUMBA_CACHE_DIR=str(tmp_path / "empty-numba-cache"), PYTHONPATH=str(ROOT))


def _recorded(out, stderr):
    seen = json.loads(out.read_text())
    assert seen == {"heavy": [], "starting": False, "aot": seen["aot"]}, (seen, stderr)
    assert seen["aot"] > 0


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("name", KERNEL_BOTS)
def test_protocol_program_with_the_build_never_imports_numba(aot_build, name, protocol,
                                                             tmp_path):
    out = tmp_path / "modules.json"
    env = _env(aot_build, tmp_path)
    # generous limits: this test is about what gets imported, not about time.  Light Riders
    # limits are a time bank that nash and hybrid spend, over the 20 rounds the game is told
    # it lasts (settings max_rounds): a 2 s bank, 0.1 s added a move (10 s took 12 s a game)
    limits = ({"first_time_limit": 2.0, "time_limit": 0.1} if protocol == "lightriders"
              else {"first_time_limit": 60.0, "time_limit": 20.0})
    prog = Legal(ExternalBot([sys.executable, "-c", WRAP, str(out), "bot", name, "--protocol",
                              protocol, "--time", "0.05"], protocol=protocol, env=env, cwd=ROOT,
                             **limits))
    rec = play(_board(protocol), [prog, get_bot("quick")], rules=protocol, rng=0, max_turns=20)
    prog.close()
    stderr = prog.inner.stderr_text()
    assert rec.outcome.deaths[0] not in ("timeout", "exited", "bad-output"), (rec.outcome, stderr)
    assert prog.answers >= min(20, rec.outcome.turns) - 1 and not prog.illegal, prog.illegal
    _recorded(out, stderr)
    assert "cache is cold" not in stderr, stderr


@pytest.mark.parametrize("name", CAPTURE_BOTS)
def test_capture_program_with_the_build_never_imports_numba(aot_build, name, tmp_path):
    out = tmp_path / "modules.json"
    prog = CaptureProgram([sys.executable, "-c", WRAP, str(out), "bot", name, "--protocol",
                           "backtothecode", "--seed", "1"], env=_env(aot_build, tmp_path),
                          cwd=ROOT, first_time_limit=60.0, time_limit=20.0)
    rec = play_capture([prog, "nearest"], rng=3, round_limit=20)
    assert not rec.notes, rec.notes
    _recorded(out, "")
