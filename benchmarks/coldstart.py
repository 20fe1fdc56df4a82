"""Seconds from process start to a contest program's first answer: cold cache, warm cache, AOT.

    python benchmarks/coldstart.py [--runs 5] [--bots a,b] [--capture-bots a,b]
                                   [--protocols p,q] [--time 0.1] [--modes cold,warm,aot]
                                   [--aot-dir DIR] [--warm-cache DIR] [--json]

Each run starts ``python -m tronlab bot NAME --protocol P --time T`` afresh,
writes the first turn of a game on its stdin (for Light Riders the settings
lines first; for Back to the Code, ``backtothecode``, the opponent count
line, and the bots are the capture bots of ``--capture-bots``, the Tron bots
of ``--bots`` playing the three Tron protocols) and times the first answer
line from the moment the process was
started; then it closes stdin and waits for the program to end.  Three set-ups,
each the median of ``--runs`` fresh processes (the runs of all cells are
interleaved, so a burst of load on the machine hits every cell alike):

* **cold**: ``NUMBA_CACHE_DIR`` a new empty directory for every run and
  ``TRONLAB_AOT=0`` - what ``pip install`` gives before anything ran.  The
  first answer comes from the plain-Python quick bot while the kernels compile
  in the background (:mod:`tronlab.runner.starting`);
* **warm**: numba's cache filled by ``python -m tronlab.jit.warmup`` (once,
  before the runs; or ``--warm-cache DIR``), ``TRONLAB_AOT=0``.  The first
  answer still comes from the quick bot, while the compiled bot loads in a
  worker;
* **AOT**: the ahead-of-time module (built into a temp dir first, or taken
  from ``--aot-dir``) and the warm cache (an empty one with ``--modes aot``, which
  numba never touches then): the bot itself answers, without numba.

``--time`` (default 0.1 s, CodinGame's move time) is a Tron bot's budget a move (the
Back to the Code bots keep to their contest's clock and are started without it);
a search bot thinks a quarter of its budget less a little on a game's first
move (19 ms at 0.1 s), so the AOT column is start-up plus that.  Also shown:
the CPU seconds (user + system, from ``/proc``) the program had used when its
answer arrived - on a loaded machine wall time includes waiting for a CPU, CPU
time much less so - and two floors measured the same way: an empty interpreter
and ``import numpy``.  ``--modes`` picks a subset of the set-ups.  The load
average is printed with the table.  The children run with Python's bytecode
cache (as after ``pip install``): a first untimed run writes it.  Target: every
AOT first answer under 0.3 s.

Back to the Code, cold: the rectangle and path programs answer with the
nearest-neutral rule while a thread loads their kernels
(:mod:`tronlab.capture.warmup`).  That thread began before the first turn was
read, and numba's import held the GIL beside the answer: 0.46/0.34 s wall and
0.31-0.48 s CPU for paths/rectangles against 0.21 s (0.20 CPU) for nearest,
which loads nothing (``--protocols backtothecode --modes cold --runs 5``, load 2.3,
two cores; with two busy loops beside it 0.64/0.62 s wall, 0.32 CPU).  Since the
load begins once the first answer is written: 0.28/0.27 s wall, 0.25-0.26 s CPU
(loaded: 0.43/0.54 s wall, 0.27 CPU).  Since then ``tronlab bot`` loads them in a
worker process (:mod:`tronlab.capture.starting`; the thread held the GIL past
later turns' 100 ms): 0.29 s wall and 0.27 s CPU, cold and warm alike (load 3.8).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
TARGET_S = 0.3
BOTS = ["voronoi", "multivoronoi", "minimax", "chamber", "nash", "hybrid", "filler"]
CAPTURE_BOTS = ["nearest", "paths", "rectangles"]
PROTOCOLS = ["google2010", "codingame", "lightriders", "backtothecode"]
CAPTURE = "backtothecode"
MODES = ["cold", "warm", "aot"]


def _env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TRONLAB_", "NUMBA_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def first_turn(protocol: str) -> str:
    """The server's input up to and including the first turn of a game."""
    from tronlab import codingame_board, load_builtin
    from tronlab.tron.lightriders import lightriders_settings
    from tronlab.tron.mapgen import lightriders_board
    from tronlab.tron.protocol import encode_state

    if protocol == "google2010":
        return encode_state(protocol, load_builtin("arena"), 0)
    if protocol == "codingame":
        return encode_state(protocol, codingame_board(2, rng=3), 0)
    if protocol == CAPTURE:
        from tronlab.capture import reset
        from tronlab.capture.protocol import format_start, format_turn

        return format_start(2) + format_turn(reset(2, rng=3), 0)
    board = lightriders_board(rng=3)
    return (lightriders_settings(board, 0) + "\n"
            + encode_state(protocol, board, 0, time_ms=10000))


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_so_far(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux; else nan)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return float("nan")


NICE = 0     # --nice: the children's niceness (negative needs root)


def time_first_answer(cmd, text: str, env) -> tuple[float, float, str]:
    """Start ``cmd``, write ``text``; (seconds to the first answer line, CPU
    seconds the program had used when it answered, the answer)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=ROOT, text=True,
                            preexec_fn=(lambda: os.nice(NICE)) if NICE else None)
    proc.stdin.write(text)
    proc.stdin.flush()
    line = proc.stdout.readline()
    wall = time.perf_counter() - t0
    cpu = _cpu_so_far(proc.pid)
    proc.stdin.close()
    proc.wait()
    if not line.strip():
        raise RuntimeError(f"{' '.join(cmd[2:])} gave no answer (exit {proc.returncode})")
    return wall, cpu, line.strip()


def _run_quiet(cmd, env, what):
    out = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{what} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")


def pairs(bots, protocols, capture_bots=CAPTURE_BOTS):
    """The (bot, protocol) cells: the capture bots for Back to the Code, ``bots`` for the rest."""
    return [(b, p) for p in protocols for b in (capture_bots if p == CAPTURE else bots)]


def measure(bots, protocols, runs, bot_time, aot_dir=None, warm_cache=None, log=print,
            modes=MODES, capture_bots=CAPTURE_BOTS):
    with tempfile.TemporaryDirectory() as tmp:
        if warm_cache is None and "warm" in modes:
            warm_cache = os.path.join(tmp, "warm-cache")
            log("filling a numba cache (python -m tronlab.jit.warmup) ...")
            t = time.perf_counter()
            _run_quiet([sys.executable, "-m", "tronlab.jit.warmup", "--quiet"],
                       _env(NUMBA_CACHE_DIR=warm_cache, TRONLAB_AOT="0"), "the warm-up")
            log(f"  {time.perf_counter() - t:.0f} s")
        if aot_dir is None and "aot" in modes:
            aot_dir = os.path.join(tmp, "aot")
            log("building the AOT module ...")
            t = time.perf_counter()
            _run_quiet([sys.executable, "-m", "tronlab.jit.aot", "build", "--dir", aot_dir],
                       _env(), "the AOT build")
            log(f"  {time.perf_counter() - t:.0f} s")
        cache = {} if warm_cache == "default" else {"NUMBA_CACHE_DIR": warm_cache or ""}
        envs = {"warm": _env(TRONLAB_AOT="0", **cache),
                "aot": _env(**(cache if warm_cache else
                               {"NUMBA_CACHE_DIR": os.path.join(tmp, "no-cache")}),
                            TRONLAB_AOT_DIR=aot_dir or "")}
        if "aot" in modes:
            status = subprocess.run([sys.executable, "-m", "tronlab.jit.aot", "status"],
                                    env=envs["aot"], cwd=ROOT, capture_output=True,
                                    text=True).stdout
            if "kernels loaded" not in status:
                raise RuntimeError(f"the AOT set-up would not use the build: {status}")
        texts = {p: first_turn(p) for p in protocols}
        floors = {"empty interpreter": [sys.executable, "-c", "print(1)"],
                  "import numpy": [sys.executable, "-c", "import numpy; print(1)"]}
        cells = [(b, p, m) for b, p in pairs(bots, protocols, capture_bots) for m in modes]
        walls = {c: [] for c in cells}
        cpus = {c: [] for c in cells}
        floor_walls = {k: [] for k in floors}
        floor_cpus = {k: [] for k in floors}
        # untimed: write the bytecode caches, and check the AOT set-up answers without numba
        time_first_answer(_cmd(cells[0][0], cells[0][1], bot_time), texts[cells[0][1]],
                          envs[modes[-1]] if modes[-1] != "cold" else _env(TRONLAB_AOT="0"))
        load = [os.getloadavg()]
        for r in range(runs):
            for k, cmd in floors.items():
                wall, cpu, _ = time_first_answer(cmd, "", _env())
                floor_walls[k].append(wall)
                floor_cpus[k].append(cpu)
            for (b, p, m) in cells:
                env = envs.get(m) or _env(NUMBA_CACHE_DIR=os.path.join(tmp, f"cold-{b}-{p}-{r}"),
                                          TRONLAB_AOT="0")
                wall, cpu, _ = time_first_answer(_cmd(b, p, bot_time), texts[p], env)
                walls[b, p, m].append(wall)
                cpus[b, p, m].append(cpu)
            log(f"  run {r + 1}/{runs} done (load {os.getloadavg()[0]:.1f})")
            load.append(os.getloadavg())
    rows = []
    for b, p in pairs(bots, protocols, capture_bots):
        row = {"bot": b, "protocol": p}
        for m in modes:
            row[m] = statistics.median(walls[b, p, m])
            row[m + "_cpu"] = statistics.median(cpus[b, p, m])
        rows.append(row)
    return {"runs": runs, "time": bot_time, "rows": rows, "nice": NICE,
            "floors": {k: statistics.median(v) for k, v in floor_walls.items()},
            "floor_cpu": {k: statistics.median(v) for k, v in floor_cpus.items()},
            "load": [round(x[0], 2) for x in load], "target_s": TARGET_S, "modes": list(modes),
            "aot_meets_target": all(r["aot"] < TARGET_S for r in rows) if "aot" in modes
            else None}


def _cmd(bot, protocol, bot_time):
    """The contest program's command; the Back to the Code bots keep to the contest's
    clock and take no ``--time`` (``tronlab bot`` refuses one)."""
    clock = [] if protocol == "backtothecode" else ["--time", str(bot_time)]
    return [sys.executable, "-m", "tronlab", "bot", bot, "--protocol", protocol, *clock,
            "--seed", "0"]


def report(r) -> str:
    modes = r.get("modes", MODES)
    lines = [f"first answer from process start, median of {r['runs']} fresh processes "
             f"(wall s, then the program's CPU s when it answered; bot --time {r['time']}"
             + (f"; programs at nice {r['nice']}" if r.get("nice") else "") + ")",
             f"{'bot':<13} {'protocol':<13} " + " ".join(f"{m:>6}" for m in modes) + "  "
             + " ".join(f"{m + ' cpu':>9}" for m in modes)]
    for row in r["rows"]:
        lines.append(f"{row['bot']:<13} {row['protocol']:<13} "
                     + " ".join(f"{row[m]:6.2f}" for m in modes) + "  "
                     + " ".join(f"{row[m + '_cpu']:9.2f}" for m in modes))
    lines.append("floors (wall / CPU): " + ", ".join(
        f"{k} {v:.2f} / {r.get('floor_cpu', {}).get(k, float('nan')):.2f} s"
        for k, v in r["floors"].items()))
    lines.append(f"load average (1 min) before and after each run: {r['load']}")
    if "aot" in modes:
        worst = max(row["aot"] for row in r["rows"])
        lines.append(f"AOT target < {r['target_s']} s: "
                     f"{'met' if r['aot_meets_target'] else 'MISSED'} (worst {worst:.2f} s)")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--bots", default=",".join(BOTS), help="Tron bots (the Tron protocols)")
    ap.add_argument("--capture-bots", default=",".join(CAPTURE_BOTS),
                    help="Back to the Code bots (protocol backtothecode)")
    ap.add_argument("--protocols", default=",".join(PROTOCOLS))
    ap.add_argument("--time", type=float, default=0.1, help="the bot's budget a move (s)")
    ap.add_argument("--aot-dir", default=None, help="use this AOT build dir instead of building")
    ap.add_argument("--warm-cache", default=None,
                    help="use this filled numba cache instead of filling one ('default': "
                         "numba's own place, beside the sources, as `tronlab warmup` left it)")
    ap.add_argument("--modes", default=",".join(MODES), help="a subset of cold,warm,aot")
    ap.add_argument("--nice", type=int, default=0,
                    help="run the timed programs at this niceness (e.g. -15 as root: ahead of "
                         "the other jobs on a shared machine, close to an idle machine's times)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    global NICE
    NICE = args.nice
    r = measure(args.bots.split(","), args.protocols.split(","), args.runs, args.time,
                args.aot_dir, args.warm_cache,
                log=(lambda *a: print(*a, file=sys.stderr, flush=True)),
                modes=args.modes.split(","), capture_bots=args.capture_bots.split(","))
    print(json.dumps(r) if args.json else report(r))


if __name__ == "__main__":
    main()
