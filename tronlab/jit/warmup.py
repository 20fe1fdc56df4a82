"""Fill numba's compile cache once, so no notebook or bot waits for the compiler.

Compiling every kernel from scratch takes half a minute to a minute (32 s on two idle
cores, 61-65 s in CI runs with an empty cache); loading them from numba's cache afterwards takes
about a second.  ``python -m tronlab.jit.warmup`` calls each compiled kernel once,
through the same public functions the notebooks and bots use, on a small board;
``python3 dev.py`` runs it after installing.  The ahead-of-time twins of
:mod:`tronlab.jit.aot` are switched off here so that the numba versions get compiled
too (search code calls those from compiled code).
"""

from __future__ import annotations

import os
import sys
import time

from .cache import mark_warm


def _steps():
    """(name, thunk) pairs, each touching one family of kernels."""
    from ..grid import articulation, flood as fill, multivoronoi, parity, ring, voronoi
    from ..runner import engine
    from ..tron import chambers, endgame, evaluate, mapgen, search, spacefill as filler
    from ..runner.registry import bot_names, get_bot
    from ..capture.warmup import run_every_kernel as capture_kernels
    from ..nash.zero_sum import solve_zero_sum

    board = mapgen.load_builtin("arena")
    cg = mapgen.codingame_board(3, rng=0)

    def bots():
        for name in bot_names():
            rules = "codingame" if name == "multivoronoi" else "google2010"
            start = cg if rules == "codingame" else board
            n = start.n_players
            play(start, [get_bot(name, rng=0, time=0.05)] + [get_bot("random", rng=p) for p in
                                                            range(1, n)],
                 rules=rules, rng=0, max_turns=3)

    play = engine.play
    first_step = board.xy(board.target(0, board.legal_moves(0)[0]))
    return [
        ("territory", lambda: (voronoi.territory(board), voronoi.owner_map(board),
                               voronoi.bfs_distances(board), voronoi.bucket_distances(board))),
        ("flood fill", lambda: (fill.flood_fill(board), fill.components(board),
                                fill.Components(board).fill(*first_step))),
        ("ring table", lambda: ring.potential_articulation(board, 1, 1)),
        ("articulation points", lambda: articulation.articulation_points(board)),
        ("parity", lambda: (parity.fill_bound(board), parity.region_colours(board))),
        ("turn-order territory", lambda: multivoronoi.turn_order_territory(cg)),
        ("chambers", lambda: (chambers.chamber_score(board), chambers.chamber_tree(board))),
        ("filler", lambda: (filler.greedy_move(board), filler.fill_length(board))),
        ("evaluations", lambda: [evaluate.evaluate(board, kind=k) for k in
                                 ("territory", "edges", "linear", "chamber", "chamber-a13")]),
        ("search", lambda: [search.negamax(board, depth=2, evaluation=k) for k in
                            ("territory", "linear", "chamber")]),
        ("endgame", lambda: endgame.solve_endgame(board, time=0.05)),
        ("zero-sum games", lambda: solve_zero_sum([[1.0, -1.0], [-1.0, 1.0]])),
        ("capture", capture_kernels),
        ("bots", bots),
    ]


def warm_up(*, verbose: bool = False) -> float:
    """Compile (or load from the cache) every kernel; return the seconds it took."""
    os.environ["TRONLAB_AOT"] = "0"
    t0 = time.perf_counter()
    for name, step in _steps():
        t = time.perf_counter()
        step()
        if verbose:
            print(f"  {name:<22} {time.perf_counter() - t:6.1f} s", flush=True)
    mark_warm()
    return time.perf_counter() - t0


def warm_bot(name: str) -> float:
    """Compile (or load) the kernels bot ``name`` uses; return the seconds it took."""
    from ..runner.registry import get_bot

    os.environ["TRONLAB_AOT"] = "0"
    t0 = time.perf_counter()
    get_bot(name, time=0.05)       # a search bot's factory runs every kernel it needs once
    mark_warm(name)
    return time.perf_counter() - t0


def sources_digest() -> str:
    """A hash of every module of the package: which code a :func:`signature_report`
    was made with."""
    import hashlib

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                h.update(os.path.relpath(path, root).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()[:16]


def signature_report() -> dict:
    """What this process compiled or loaded: how many kernels, the signatures numba's
    cache gave (``cache_hits``; 0 after a cold compile), each kernel with more than one
    signature (``multi``: a compiled caller passing a bare constant adds a Literal one),
    and the :func:`sources_digest`.  ``python -m tronlab.jit.warmup`` writes it to
    ``$TRONLAB_WARMUP_REPORT``; tests/test_warmup.py reads the one ``dev.py test``'s own
    cold warm-up made instead of compiling everything a second time."""
    from . import kernels

    count, hits, multi = 0, 0, []
    for module, table in kernels.TABLES.items():
        if not table._compiled:
            continue
        for name in table._kernels:
            dispatcher = table._ns[name]
            count += 1
            hits += sum(dispatcher.stats.cache_hits.values())
            if len(dispatcher.signatures) > 1:
                multi.append(f"{module}.{name}: {[str(s) for s in dispatcher.signatures]}")
    return {"kernels": count, "cache_hits": hits, "multi": sorted(multi),
            "sources": sources_digest()}


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tronlab.jit.warmup",
                                 description="Fill numba's cache with tronlab's kernels.")
    ap.add_argument("--bot", help="only the kernels of this registered bot")
    ap.add_argument("--quiet", action="store_true", help="no line per step")
    ap.add_argument("--parent", type=int, help="exit when this process is gone")
    args = ap.parse_args(argv)
    if args.parent:
        from ..runner.orphans import exit_with_parent     # the bot that started this compile
        exit_with_parent(args.parent)
    if args.bot:
        seconds = warm_bot(args.bot)
        print(f"kernels of bot {args.bot!r} compiled or loaded from the cache in {seconds:.1f} s")
        return 0
    seconds = warm_up(verbose=not args.quiet)
    print(f"numba kernels compiled or loaded from the cache in {seconds:.1f} s")
    report = os.environ.get("TRONLAB_WARMUP_REPORT")
    if report:
        import json
        with open(report, "w", encoding="utf-8") as f:
            json.dump(signature_report(), f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
