"""Record every built-in Tron bot's move on 100 seeded positions at a fixed depth.

    python tests/golden_moves/record.py          # rewrites tests/golden_moves/moves.json
    python tests/golden_moves/record.py quick    # adds (or re-records) one bot's moves

The positions: 2010-style random point-symmetric maps and CodinGame boards, each
played forward a seeded number of turns by two seeded random bots.  The search
bots run at a fixed depth (no clock), so the moves depend only on the code.
``tests/test_golden_moves.py`` checks that the bots still make these moves: a
refactoring that changes a single move fails it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
N_POSITIONS = 100

# name -> options that make the bot deterministic and independent of the clock
# (a fixed depth, and a time budget far above what that depth needs, so a loaded
# machine cannot cut an iteration short).  ``hybrid`` is left out: its root
# matrix deepens until the deadline, so its move depends on the clock.
BOTS = {
    "random": {"rng": 7},
    "hugger": {"rng": 7},
    "filler": {},
    "voronoi": {"time": 30},
    "minimax-contempt": {"depth": 3, "contempt": 0.5, "time": 30},
    "multivoronoi": {},
    "minimax": {"depth": 4, "endgame_depth": 1, "time": 30},
    "chamber": {"depth": 3, "endgame_depth": 3, "time": 30},
    "quick": {},
    "nash": {"depth": 2, "endgame_depth": 3, "time": 30},
}


def positions():
    """Yield (rules, board, player) for the seeded positions."""
    from tronlab import codingame_board, get_rules, random_map

    for i in range(N_POSITIONS):
        rng = np.random.default_rng(1000 + i)
        if i % 5 == 4:
            board, rules = codingame_board(2 + i % 3, rng=rng), "codingame"
        else:
            size = int(rng.integers(8, 16))
            board, rules = random_map(size, size, rng=rng), "google2010"
        r = get_rules(rules)
        for _ in range(int(rng.integers(0, 12))):
            if r.game_over(board):
                break
            nxt = board.copy()
            moves = []
            for p in range(board.n_players):
                legal = board.legal_moves(p) if board.alive[p] else []
                moves.append(int(rng.choice(legal)) if legal else 0)
            r.apply(nxt, moves, turn=1) if rules != "codingame" else _codingame(r, nxt, moves)
            if not nxt.alive.all() or r.game_over(nxt):
                break
            board = nxt
        player = int(rng.integers(0, board.n_players))
        if not board.alive[player]:
            player = int(np.flatnonzero(board.alive)[0])
        yield rules, board, player


def _codingame(r, board, moves):
    for p, m in enumerate(moves):
        if board.alive[p]:
            r.apply_one(board, p, m, turn=1)


def record_bot(name: str) -> list[int]:
    """The moves of bot ``name`` (a key of :data:`BOTS`), a fresh bot per position."""
    from tronlab import get_bot

    moves = []
    for rules, board, player in positions():
        bot = get_bot(name.split("-")[0], **BOTS[name])
        if hasattr(bot, "start_game"):
            bot.start_game(board.copy(), player, rules=rules, time_limit=None,
                           rng=np.random.default_rng(3))
        moves.append(int(bot(board.copy(), player)))
    return moves


def record(rows=None, names=None) -> list[dict]:
    """Rows of moves.json: every bot's moves, or only those of ``names`` added to
    the recorded ``rows`` (a new bot is recorded without touching the others)."""
    if rows is None:
        rows = [{"rules": rules, "board": board.to_ascii(), "player": player, "moves": {}}
                for rules, board, player in positions()]
    for name in names or BOTS:
        for row, move in zip(rows, record_bot(name)):
            row["moves"][name] = move
    return rows


if __name__ == "__main__":
    # python tests/golden_moves/record.py [BOT ...]: all bots, or only the named ones
    sys.path.insert(0, str(HERE.parents[1]))
    names = sys.argv[1:]
    old = json.loads((HERE / "moves.json").read_text()) if names else None
    rows = record(old, names)
    (HERE / "moves.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"recorded {len(rows)} positions x {len(BOTS)} bots")
