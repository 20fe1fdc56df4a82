r"""No timeouts: full 4-player games of the issue-17 bots as contest programs at 100 ms a turn.

    python benchmarks/capture_timing.py [--games 20] \
        [--bots rectangles,paths,rectangles-block,paths-block]

Each bot runs as its own process (``python -m tronlab.cli bot NAME --protocol
backtothecode``), is fed the contest's protocol and gets 5 s for its first
turn (the clock starts with the program: CodinGame gives 1000 ms to a program
already running) and 100 ms (+50 ms grace, as CodinGame's referee) for every later one,
through :class:`tronlab.capture.external.CaptureProgram`.  Seats rotate from
game to game.  Reported: games, timeouts and other eliminations per bot,
and the reasons the games ended.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tronlab.capture.external import CaptureProgram  # noqa: E402
from tronlab.capture.game import play_capture  # noqa: E402

#: the first turn's limit: the clock starts before the program does (Python and numba
#: imports take 1-3 s on a loaded machine; CodinGame starts programs before the first turn)
FIRST = 5.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--bots", default="rectangles,paths,rectangles-block,paths-block")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    names = args.bots.split(",")
    faults, reasons, played = Counter(), Counter(), Counter()
    slowest = {n: [] for n in names}   # answer times after the first turn, per bot
    for g in range(args.games):
        order = names[g % len(names):] + names[:g % len(names)]
        bots = [CaptureProgram([sys.executable, "-m", "tronlab.cli", "bot", n, "--protocol",
                                "backtothecode"], name=n) for n in order]
        rec = play_capture(bots, rng=args.seed + g, time_limit=0.1, first_time_limit=FIRST)
        reasons[rec.outcome["reason"]] += 1
        for turn, rnd, player, kind, detail in rec.events:
            if kind not in ("back", "rewind"):
                faults[(order[player], kind)] += 1
        for n, bot in zip(order, bots):
            played[n] += 1
            slowest[n] += bot.answer_seconds[1:]
        print(f"game {g}: {order} scores {rec.outcome['scores']} {rec.outcome['reason']} "
              f"round {rec.outcome['round']} events "
              f"{[e for e in rec.events if e[3] not in ('rewind',)]}", flush=True)
    print("\n| bot | games | turns | median ms | 99th % ms | max ms | timeouts "
          "| other eliminations |"
          "\n|---|---|---|---|---|---|---|---|")
    for n in names:
        t = faults[(n, "timeout")]
        other = sum(v for (b, k), v in faults.items() if b == n and k != "timeout")
        times = sorted(slowest[n]) or [0.0]
        q = lambda f: 1000 * times[min(len(times) - 1, int(f * len(times)))]  # noqa: E731
        print(f"| {n} | {played[n]} | {len(slowest[n])} | {q(0.5):.0f} | {q(0.99):.0f} | "
              f"{1000 * times[-1]:.0f} | {t} | {other} |")
    print(f"game ends: {dict(reasons)}")


if __name__ == "__main__":
    main()
