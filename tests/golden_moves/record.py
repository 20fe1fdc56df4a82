"""Record every built-in Tron bot's move on 100 seeded positions at a fixed depth.

    python tests/golden_moves/record.py       # rewrites tests/golden_moves/moves.json

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
# (``time``: a minute a move, so a loaded machine never cuts a search short: with the
# rules' default time a first CodinGame move has ~19 ms, and chamber then reached only
# depth 2 on some runs)
BOTS = {
    "random": {"rng": 7},
    "hugger": {"rng": 7},
    "filler": {},
    "voronoi": {"time": 60.0},
    "minimax-contempt": {"depth": 3, "contempt": 0.5, "time": 60.0},
    "multivoronoi": {},
    "minimax": {"depth": 4, "endgame_depth": 1, "time": 60.0},
    "chamber": {"depth": 3, "endgame_depth": 3, "time": 60.0},
}


def positions():
    """Yield (rules, board, player) for the seeded positions."""
    from tronlab import Board, codingame_board, get_rules, random_map

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


def record() -> list[dict]:
    rows = [{"rules": rules, "board": board.to_ascii(), "player": player, "moves": {}}
            for rules, board, player in positions()]
    for name in BOTS:
        for row, move in zip(rows, record_bot(name)):
            row["moves"][name] = move
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))
    rows = record()
    (HERE / "moves.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"recorded {len(rows)} positions x {len(BOTS)} bots")
