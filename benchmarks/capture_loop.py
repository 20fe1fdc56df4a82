"""What play_capture's clock costs a call: untimed bots against bots under a time limit.

    python benchmarks/capture_loop.py [--games 7]

Four bots that answer at once (stay, or head for the corner every other round)
play a 35x20 game of Back to the Code in this process, untimed and with
``time_limit=1.0``.  Under a limit each call runs off the game's thread so that
a bot that hangs can be abandoned (:func:`tronlab.capture.game.play_capture`).
Printed: microseconds per call (median of ``--games`` games) and how many
threads the game started.

Measured in session 54 (2026-11-30), 2 cores shared with other jobs, load
about 2, two runs each: a thread started for every call cost 665-912 us a call
against 158-195 us untimed (332 calls, 332 threads); one worker thread a seat
for the whole game (as the Tron engine's ``runner.threadcall.Worker``) costs
216-218 us against 147-205 us (4 threads).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tronlab.capture.game import play_capture  # noqa: E402


def one_game(limit):
    """(microseconds per call, threads started, calls) of one game of four quick bots."""
    calls = [0]

    def quick(view, player):
        calls[0] += 1
        return tuple(view.positions[player]) if view.round % 2 else (0, 0)

    started = [0]
    start = threading.Thread.start

    def counted(thread):
        started[0] += 1
        return start(thread)

    threading.Thread.start = counted
    try:
        t0 = time.perf_counter()
        play_capture([quick] * 4, rng=1, time_limit=limit)
        seconds = time.perf_counter() - t0
    finally:
        threading.Thread.start = start
    return seconds / calls[0] * 1e6, started[0], calls[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=7)
    args = ap.parse_args(argv)
    for limit in (None, 1.0):
        runs = [one_game(limit) for _ in range(args.games)]
        us = statistics.median(r[0] for r in runs)
        print(f"time_limit={limit}: {us:.0f} us a call, {runs[0][1]} threads started "
              f"for {runs[0][2]} calls")


if __name__ == "__main__":
    main()
