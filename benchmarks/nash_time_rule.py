"""L6, time for important decisions: ``nash`` with and without the rule, under a time bank.

    python benchmarks/nash_time_rule.py [--boards 10] [--bank 2.5] [--per 0.05]

The rule (:mod:`tronlab.tron.bots.nash`): under a time bank, a move where the
two heads are within 6 squares (grid distance) gets twice the planned time
(:func:`tronlab.tron.lightriders.move_time` with ``urgent=2``, a third of the
bank at most).  Both bots are ``nash``; one has ``urgent=1`` (no rule).  Each
plays Light Riders on ``--boards`` seeded starts from both seats under the
engine's time bank (``play(..., time_bank=(bank, per))``, kept the way the
server keeps it: ``--per`` added before each move, capped at ``--bank``, the
bot told the bank before it thinks; an answer after the bank runs out is a
timeout, and the bot goes straight from then on).  The default clock is the
contest's 10 s bank and 200 ms a move scaled by a quarter, to play four times
the games.

Prints W-D-L of the rule, the sign test, and for each bot the mean think time
and search depth on important and other moves, the smallest bank left, and
timeouts.

Measured (2 shared cores under a load of 8-12; 20 boards, both seats, the
default quarter-scale clock: 2.5 s bank, 50 ms a move)::

    rule v no rule, 40 games in 405 s: W18 D11 L11, sign p 0.26, unclear
    urgent=2  important: 1011 moves 109 ms depth 5.6 | other: 1936 moves 54 ms depth 6.3
              least bank 0.13 s, timeouts 0
    urgent=1  important:  977 moves  56 ms depth 4.7 | other: 1879 moves 65 ms depth 6.4
              least bank 1.08 s, timeouts 0

The rule buys about one turn more depth (5.6 v 4.7) on the third of the moves
where the heads are close, for a tenth of a turn less (6.3 v 6.4) elsewhere;
the games lean its way (58% of the points) but 40 games cannot tell that from
chance.  Against ``chamber`` it tells (session 30, ``benchmarks/nash_strength.py``):
on the same 400 Light Riders starts at this clock, ``nash`` with the rule won 55% of
the decided games (161-110-129), without it 44% (104-164-132); z = 2.6, p about 0.01.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from strength import sign_test, verdict  # noqa: E402
from tronlab import get_bot, lightriders_board, play  # noqa: E402


class Noted:
    """A bot played under the engine's time bank; notes think time and depth by kind
    of move, and (after the game) the least its bank held and whether it timed out.
    It passes the bank the engine tells it (``set_clock``) on to the bot: every search
    bot plans from it; one without ``set_clock`` (``random``, ``filler``) keeps its own
    rule whatever the bank holds."""

    def __init__(self, bot):
        self.bot, self.name = bot, bot.name
        self.low, self.timeouts = None, 0
        self.moves = {True: [], False: []}      # important? -> [(seconds, depth)]

    def start_game(self, *args, **kwargs):
        self.bot.start_game(*args, **kwargs)

    def set_clock(self, time_left, time_per_move=None):
        if hasattr(self.bot, "set_clock"):
            self.bot.set_clock(time_left, time_per_move)

    @property
    def last_stats(self):
        return getattr(self.bot, "last_stats", None)

    def __call__(self, board, player):
        important = (hasattr(self.bot, "important") and self.bot.important(board)
                     and len(board.legal_moves(player)) > 1)
        t0 = time.perf_counter()
        move = self.bot(board, player)
        used = time.perf_counter() - t0
        st = self.last_stats or {}
        if st.get("mode") == "nash":
            self.moves[important].append((used, st.get("depth", 0)))
        return move

    def game_over(self, record, player):
        """Note the least bank and a timeout (a timed-out bot is shut down: one a game)."""
        self.low = record.metadata["least_bank"][player]
        self.timeouts += any(e["player"] == player and e["kind"] == "timeout"
                             for e in record.events)


def one_game(seed, seat, bank, per):
    bots = [None, None]
    bots[seat] = Noted(get_bot("nash", time=per))                  # the rule
    bots[1 - seat] = Noted(get_bot("nash", time=per, urgent=1))    # without
    rec = play(lightriders_board(rng=seed), bots, rules="lightriders", rng=seed,
               time_bank=(bank, per))
    for p, bot in enumerate(bots):
        bot.game_over(rec, p)
    w = rec.outcome.winner
    return ("D" if w is None else "W" if w == seat else "L"), bots[seat], bots[1 - seat]


def summary(name, banked):
    out = []
    for important in (True, False):
        xs = [m for b in banked for m in b.moves[important]]
        t = 1000 * np.mean([x[0] for x in xs]) if xs else float("nan")
        d = np.mean([x[1] for x in xs]) if xs else float("nan")
        out.append(f"{len(xs):>5} moves {t:>6.0f} ms depth {d:>4.1f}")
    low = min(b.low for b in banked)
    touts = sum(b.timeouts for b in banked)
    print(f"{name:<12} important: {out[0]} | other: {out[1]} | least bank {low:.2f} s, "
          f"timeouts {touts}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=10)
    ap.add_argument("--bank", type=float, default=2.5)
    ap.add_argument("--per", type=float, default=0.05)
    args = ap.parse_args(argv)
    results, rule, plain = [], [], []
    t0 = time.perf_counter()
    for seed in range(args.boards):
        for seat in (0, 1):
            r, a, b = one_game(seed, seat, args.bank, args.per)
            results.append(r)
            rule.append(a)
            plain.append(b)
            print(f"  board {seed} seat {seat}: {r}", flush=True)
    w, d, l = (results.count(k) for k in "WDL")
    print(f"\nrule v no rule, bank {args.bank} s + {args.per} s a move, {len(results)} games "
          f"in {time.perf_counter() - t0:.0f} s: W{w} D{d} L{l}, sign p {sign_test(w, l):.2g}, "
          f"{verdict(w, d, l)}")
    summary("urgent=2", rule)
    summary("urgent=1", plain)


if __name__ == "__main__":
    main()
