"""What play_capture's clock costs a call, and what a bigger grid costs a turn.

    python benchmarks/capture_loop.py [--games 7] [--sizes 35x20,100x100] [--stalls 3]

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

Grid sizes (``--sizes``; the contest's is 35x20, the package plays up to
100x100, :data:`tronlab.capture.state.MAX_SIDE`): seconds to draw a game's
point-symmetric starts (``reset``), to write one turn of the protocol and
to read it back (:class:`~tronlab.capture.protocol.CaptureClient`), and for
the nearest-neutral rule every capture program falls back on.  Measured the
same day, before the cap (``--sizes 100x100,1000x1000``)::

    size          starts    write     read  nearest (s)
    100x100        0.146    0.004    0.002    0.002
    1000x1000      7.552    0.336    0.177    0.243

so at 1000x1000 no program could answer within the contest's 100 ms.  The
rectangle bot's own scan grew faster: 10 ms a turn at 35x20, 60 ms at 50x30,
0.14 s at 70x40, 0.3 s at 100x100 (its first three turns on the starting grid),
until it scanned windows around the player on grids larger than the contest's
(at most 26 ms a turn at 70x40 and 100x100: :mod:`tronlab.capture.rects_window`).

Stalls (``--stalls N``: N fresh processes with ``TRONLAB_AOT=0`` and numba's
cache as the environment gives it, warm for a fair test): one thread loads the
capture kernels (:func:`tronlab.capture.warmup.run_every_kernel`) while another
answers the nearest-neutral rule every millisecond, as a contest program's
thread did; printed are the gaps over 30 ms between two answers, and the same
without the load.  Measured the same day, load average 4 on two cores, four
runs: gaps of 150-380 ms in two of them (289, 380, 153; 196, 142), 100 ms at
most in the other two; without the load 67 ms at most.  At load 1.9 (``--stalls
4``): 73 ms at most, none without the load; the stalls grow with the machine's
load, as the process holding the lock waits for a core.  A Back to the Code
turn has 100 ms and 50 ms of grace, so ``tronlab bot`` loads the kernels in
a worker process instead (:mod:`tronlab.capture.starting`): in a 4-player game
of programs loading at once the slowest answer was 88 ms (the 75 ms wait for
a late worker, then B2); with the thread, four programs compiling on an empty
cache at once timed out 3 times in 4 games (rounds 12-92).
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


def grid_costs(width, height):
    """Seconds for (the starts, writing a turn, reading it, the nearest-neutral rule)."""
    import io

    from tronlab.capture.bots import nearest_target
    from tronlab.capture.protocol import CaptureClient, format_turn
    from tronlab.capture.rules import reset

    t0 = time.perf_counter()
    state = reset(2, rng=3, width=width, height=height)
    t1 = time.perf_counter()
    text = format_turn(state, 0)
    t2 = time.perf_counter()
    client = CaptureClient(io.StringIO("1\n" + text), io.StringIO(), width=width,
                           height=height)
    view = next(iter(client.turns(print)))
    t3 = time.perf_counter()
    nearest_target(view, 0)
    return t1 - t0, t2 - t1, t3 - t2, time.perf_counter() - t3


_STALLS = """
import sys, threading, time
from tronlab.capture import reset
from tronlab.capture.bots import nearest_target
from tronlab.capture.warmup import run_every_kernel
view = reset(2, rng=3).view()
nearest_target(view, 0)
done = threading.Event()
def load():
    run_every_kernel()
    done.set()
if sys.argv[1] == "load":
    threading.Thread(target=load, daemon=True).start()
else:
    threading.Timer(2.0, done.set).start()
t0 = last = time.perf_counter()
gaps = []
while not done.is_set():
    time.sleep(0.001)
    nearest_target(view, 0)
    now = time.perf_counter()
    if now - last > 0.03:
        gaps.append(round(1000 * (now - last)))
    last = now
print(gaps)
"""


def stalls(runs):
    """Gaps over 30 ms between answers, with and without a kernel load beside them."""
    import subprocess

    env = dict(os.environ, TRONLAB_AOT="0",
               PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    for what in ("load", "none"):
        for _ in range(runs):
            out = subprocess.run([sys.executable, "-c", _STALLS, what], env=env,
                                 capture_output=True, text=True)
            print(f"gaps over 30 ms ({'loading' if what == 'load' else 'no load'}): "
                  f"{out.stdout.strip() or out.stderr.strip()[-300:]}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=7)
    ap.add_argument("--sizes", default="35x20,100x100", help="grids WxH, comma-separated")
    ap.add_argument("--stalls", type=int, default=0, help="runs of the stall measurement")
    args = ap.parse_args(argv)
    if args.stalls:
        stalls(args.stalls)
    for limit in (None, 1.0):
        runs = [one_game(limit) for _ in range(args.games)]
        us = statistics.median(r[0] for r in runs)
        print(f"time_limit={limit}: {us:.0f} us a call, {runs[0][1]} threads started "
              f"for {runs[0][2]} calls")
    print(f"{'size':<12} {'starts':>8} {'write':>8} {'read':>8}  nearest (s)")
    for size in args.sizes.split(","):
        width, height = map(int, size.split("x"))
        try:
            print(f"{size:<12} " + " ".join(f"{t:8.3f}" for t in grid_costs(width, height)))
        except ValueError as err:           # over the package's cap
            print(f"{size:<12} refused: {err}")


if __name__ == "__main__":
    main()
