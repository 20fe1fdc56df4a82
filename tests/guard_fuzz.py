"""Child process of tests/test_kernel_guards.py (run as a script, so that a kernel that
writes out of bounds kills this process, not pytest).

1. Runs the package's wrappers once each on small boards, recording the arguments of
   the first call of every kernel (``KernelTable.fast`` patched); the kernels only
   compiled code calls get arguments made here.
2. Calls every recorded kernel from Python with those arguments (must not raise),
   then with one argument at a time made wrong: an out-of-range square or
   coordinate, a wrong stride, an array argument cut to one item (a scratch tuple:
   each of its arrays cut), a content the kernel would follow as an index.  Each
   must raise ValueError.  Prints one JSON line: ``{"ok": n, "bad": [...],
   "unrecorded": [...]}``.
"""

import copy
import json
import sys

import numpy as np

SQUARES = {"start", "head", "head0", "head1", "me", "opp", "me_head", "opp_head", "square",
           "other", "seed"}
COORDS = {"x": "y", "px": "py"}
#: array arguments whose size is part of the question, not scratch: cutting them
#: to one item is a smaller, valid question (or, for ``scores``, "no scores")
INPUTS = {"flat", "owner", "payoff", "heads", "alive", "xs", "opp_x", "scores", "tt",
          "hint_key", "counter", "next_stamp"}

RECORDED = {}


def record():
    from tronlab.jit import kernels
    real = kernels.KernelTable.fast

    def fast(self, name):
        target = real(self, name)

        def call(*args):
            RECORDED.setdefault(name, copy.deepcopy(args))
            return target(*args)
        return call
    kernels.KernelTable.fast = fast


def workloads():
    import tronlab as T
    from tronlab.capture import enclosure, lshapes, opponent, paths, rects
    from tronlab.grid import articulation, flood, multivoronoi, parity, voronoi
    from tronlab.nash import zero_sum
    from tronlab.tron import chambers, endgame, evaluate, nash_searcher, search, spacefill

    b = T.parse_ascii("#######\n#1....#\n#.##..#\n#....2#\n#######")
    d = voronoi.bfs_distances(b, 0)
    for f in (voronoi.territory, voronoi.owner_map, voronoi.bucket_distances, flood.flood_fill,
              flood.components, parity.fill_bound, parity.region_colours,
              articulation.articulation_points, multivoronoi.turn_order_territory,
              evaluate.is_separated, chambers.chamber_score, chambers.chamber_tree,
              spacefill.greedy_move, spacefill.fill_length):
        f(b)
    voronoi.territory_from_distances(b, d, voronoi.bfs_distances(b, 1))
    evaluate.evaluate(b, 0, kind="chamber")
    endgame.solve_endgame(b, 0, time=0.05)
    search.negamax(b, 0, depth=2)
    nash_searcher.nash_search(b, 0, depth=1)
    flood.Components(b).fill(2, 1)
    zero_sum.solve_zero_sum(np.array([[3.0, -1.0, 2.0], [-2.0, 1.0, 0.0], [0.0, 2.0, -3.0]]))
    owner = np.full((6, 8), -1, np.int8)
    owner[1, 1:4] = 0
    owner[4, 5:7] = 1
    enclosure.neutral_region(owner, 5, 2)
    enclosure.enclose(owner, 0, 3, 2)
    lshapes.best_l_shape(owner, 0, (3, 1))
    opponent.predict(owner, [((6, 4), (-1, 0), 0), ((2, 4), (1, 0), 0)], rounds=5)
    paths.search_paths(owner, 0, (3, 1), max_nodes=200)
    rects.scan_rectangles(owner, 0, (3, 1))


def by_hand():
    """Arguments for the kernels only compiled code calls."""
    import tronlab as T
    from tronlab.grid.ring import POTENTIAL_ARTICULATION
    from tronlab.tron import chamber_build

    from tronlab.tron import chambers, evaluate

    b = T.parse_ascii("#######\n#1....#\n#.##..#\n#....2#\n#######")
    n, sq = b.flat.size, int(b.heads[0]) + 1
    h0, h1 = int(b.heads[0]), int(b.heads[1])
    RECORDED.setdefault("ring_code_kernel", (b.flat.copy(), sq, b.stride))
    RECORDED.setdefault("chamber_score_kernel", (b.flat.copy(), h0, h1, b.stride, 1.0, 0.0, 0,
                                                 chambers.new_scratch(n)))
    RECORDED.setdefault("multi_score_kernel", (
        b.flat.copy(), b.heads.astype(np.int64), np.ones(2, bool), 0, b.stride,
        np.zeros(n, np.uint8), np.zeros(n, np.int32), np.zeros(2, np.int64),
        np.zeros(n, np.int32)))
    assert evaluate.multi_score_kernel is not None
    cs = chamber_build.new_scratch(n)
    cs.ch_parent[:] = 0
    RECORDED.setdefault("chamber_values_kernel", (3, 1.0, 0.0, 0, cs))
    labels = np.zeros(n, np.int32)
    RECORDED.setdefault("fill_square_kernel", (b.flat.copy(), b.stride, sq,
                                               POTENTIAL_ARTICULATION.copy(), labels,
                                               np.zeros(n, np.int32), np.zeros(n, np.int32), 1))


def cut(value):
    """``value`` with every array cut to one item (a scratch tuple: each of its arrays)."""
    if isinstance(value, tuple):
        return type(value)(*(cut(a) for a in value))
    return np.ascontiguousarray(value[(slice(0, 1),) * value.ndim])


def wrong(params, args):
    """``(what, args)`` pairs, each with one argument made wrong."""
    args = list(args)
    named = dict(zip(params, args))
    size = named["flat"].size if "flat" in named else named.get("owner", np.empty(0)).size

    def with_(i, v):
        return args[:i] + [v] + args[i + 1:]
    for i, p in enumerate(params):
        a = args[i]
        if p in SQUARES and not (p == "me" and "heads" in named):     # there: a player
            for v in (10**6, -1, 10**12, size):
                yield f"{p}={v}", with_(i, v)
            if "flat" in named:
                yield f"{p}=0 (border)", with_(i, 0)
        elif p == "stride":
            for v in (1000, 1, 0, -5, size):
                yield f"stride={v}", with_(i, v)
        elif p in COORDS or p in COORDS.values():
            for v in (-1, 10**9):
                yield f"{p}={v}", with_(i, v)
        elif p in ("depth", "count", "n_rows", "n_cols", "max_nodes", "me"):
            for v in (-1, 10**6):
                yield f"{p}={v}", with_(i, v)
        elif p not in INPUTS and (isinstance(a, tuple) or (isinstance(a, np.ndarray)
                                                           and a.size > 1)):
            yield f"{p} cut to one item", with_(i, cut(a))


def contents(name, args):
    """Cases where an array holds a value the kernel would follow as an index."""
    args = copy.deepcopy(list(args))
    if name == "fill_square_kernel":
        args[4][args[2]] = 10**6
        yield "labels[square] = 10**6", args
    elif name == "chamber_values_kernel":
        args[4].ch_parent[1] = 10**6
        yield "cs.ch_parent[1] = 10**6", args
    elif name in ("greedy_move_kernel", "fill_length_kernel"):
        args[4][:] = 200
        yield "mark not cleared", args
    elif name == "region_colours_kernel":
        args[1][5] = 10**6
        yield "labels[5] = 10**6", args
        for v in (-1, 10**6):
            yield f"n_labels={v}", args[:2] + [v] + args[3:]


def main():
    from tronlab.jit import aot, kernels
    from tronlab.jit.kernels import TABLES
    for module in aot.kernel_modules():
        __import__(module)
    record()
    workloads()
    by_hand()
    declared = kernels.declared()
    ok, bad = 0, []
    for name in sorted(set(RECORDED) & set(declared)):
        k = TABLES[declared[name][0]].kernel(name)
        code = k.py_func.__code__
        params = list(code.co_varnames[:code.co_argcount])
        try:
            k(*copy.deepcopy(RECORDED[name]))
        except Exception as exc:        # noqa: BLE001 - reported, not hidden
            bad.append(f"{name}: the recorded call raised {type(exc).__name__}: {exc}")
            continue
        cases = list(wrong(params, RECORDED[name])) + list(contents(name, RECORDED[name]))
        for what, args in cases:
            print(name, what, file=sys.stderr, flush=True)   # the last line names a crash
            try:
                k(*args)
            except ValueError:
                ok += 1
            except Exception as exc:    # noqa: BLE001
                bad.append(f"{name} with {what}: {type(exc).__name__}: {exc}")
            else:
                bad.append(f"{name} with {what}: accepted")
    print(json.dumps({"ok": ok, "bad": bad, "unrecorded": sorted(set(declared) - set(RECORDED))}))


if __name__ == "__main__":
    main()
