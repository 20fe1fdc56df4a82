"""The search path's ahead-of-time twins: same answers as numba, checked arguments.

The kernels a bot calls from Python (search, evaluation, endgame, filler) are
compared through their wrappers and through whole games: with the twins loaded
(every call's argument types checked, ``TRONLAB_AOT_CHECK=1``) and without
(numba), on random boards and seeded games, the values, moves and records must be
equal.  A fresh bot process with the build must never import numba.
"""

import json
import subprocess
import sys
from pathlib import Path

from aot_support import child_env
from aot_support import with_and_without as _with_and_without
from hypothesis import given, settings
from strategies import EXAMPLES, boards

from tronlab import get_bot, load_builtin, play
from tronlab.tron.endgame import solve_endgame
from tronlab.tron.evaluate import evaluate, is_separated
from tronlab.tron.nash_searcher import nash_search
from tronlab.tron.search import negamax
from tronlab.tron.spacefill import fill_length, greedy_move

ROOT = Path(__file__).resolve().parents[1]
BOTS = ["voronoi", "multivoronoi", "minimax", "chamber", "nash", "filler"]


def _values(board):
    out = [is_separated(board)]
    for kind in ("territory", "linear", "chamber", "chamber-a13"):
        out.append(evaluate(board, 0, kind=kind))
        out.append(negamax(board, 0, depth=2, evaluation=kind))
    out.append(nash_search(board, 0, depth=2))
    for p in (0, 1):
        out += [greedy_move(board, p), fill_length(board, p), solve_endgame(board, p, max_depth=3)]
    return out


@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(board=boards(max_players=2, min_players=2))
def test_search_wrappers_agree_with_and_without_twins(aot_build, board):
    fast, slow = _with_and_without(aot_build, lambda: _values(board))
    assert fast == slow


def _game(name, rules):
    board = load_builtin("arena") if rules != "codingame" else None
    if board is None:
        from tronlab import codingame_board
        board = codingame_board(3, rng=5)
    others = [get_bot("filler") for _ in range(board.n_players - 1)]
    # fixed depth where the bot searches, so the clock cannot change the moves
    opts = {"depth": 3, "endgame_depth": 4} if name in ("minimax", "chamber") else {}
    if name == "nash":
        opts = {"depth": 2}
    rec = play(board, [get_bot(name, rng=0, time=5.0, **opts)] + others, rules=rules, rng=0,
               max_turns=40)
    return rec.moves if hasattr(rec, "moves") else str(rec)


def test_bots_play_the_same_games_with_and_without_twins(aot_build):
    for name in BOTS:
        for rules in ("google2010", "codingame"):
            fast, slow = _with_and_without(aot_build, lambda: _game(name, rules))
            assert fast == slow, (name, rules)


CHILD = r"""
import json, sys
from tronlab import get_bot, load_builtin, play
rec = play(load_builtin("arena"), [get_bot(sys.argv[1], time=0.05), get_bot("filler")],
           rules="google2010", rng=0, max_turns=12)
from tronlab.jit import aot
print(json.dumps({"numba": "numba" in sys.modules, "status": aot.status()}))
"""


def test_a_bot_process_with_the_build_never_imports_numba(aot_build):
    for name in BOTS:
        proc = subprocess.run([sys.executable, "-c", CHILD, name], cwd=ROOT, capture_output=True,
                              text=True, timeout=300,
                              env=child_env(TRONLAB_AOT_DIR=aot_build[0], TRONLAB_AOT_CHECK="1"))
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        assert out["numba"] is False, (name, out)
        assert "kernels loaded from" in out["status"]
