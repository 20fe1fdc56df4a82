"""Value checks of the Tron evaluation and search kernels called from Python
(``@kernel(guard=...)``, built from :mod:`tronlab.grid.guards`).

Each function takes the arguments of its kernel and raises ValueError naming the
argument the kernel cannot take safely: a head off the playing area, a scratch
tuple not made by its ``new_scratch`` for this grid, a depth deeper than the
search frames, a table whose size is not a power of two.  They live here, not
beside their kernels, because those modules are near the size limit; compiled
callers never run them.
"""

from __future__ import annotations

import numpy as np

from ..grid import guards
from . import chamber_build, search_state


def _frames(_size):
    return search_state.new_frames()


def _lines(_size):
    return search_state.new_lines()


def chamber_scratch(flat, cs) -> None:
    guards.sized(cs, flat.size, chamber_build.new_scratch, "chambers.new_scratch", "cs")


def heads(flat, stride, cs=None, **squares) -> None:
    """The grid, the named heads on its playing area and ``cs`` (if given) for it."""
    guards.on_grid(flat, stride, squares)
    if cs is not None:
        chamber_scratch(flat, cs)


def touching(flat, head, other, stride, dist, queue):
    guards.on_grid(flat, stride, {"head": head, "other": other}, dist=dist, queue=queue)


def evaluate(flat, me, opp, stride, code, k1, k2, sep_weight, cs):
    heads(flat, stride, cs, me=me, opp=opp)


def chamber_counts(flat, head0, head1, stride, k1, k2, flags, cs):
    heads(flat, stride, cs, head0=head0, head1=head1)


def chamber_values(count, k1, k2, flags, cs):
    """``cs`` a chamber scratch and ``count`` chambers in it whose parents are chambers."""
    guards.sized(cs, cs.dist.size, chamber_build.new_scratch, "chambers.new_scratch", "cs")
    guards.between("count", count, 0, cs.ch_n.size)
    parents = cs.ch_parent[1:count]
    if parents.size and not 0 <= parents.min() <= parents.max() < count:
        raise ValueError(f"cs.ch_parent[1:{count}] holds {parents.min()}..{parents.max()}, "
                         f"not chambers 0..{count - 1} (build the tree first)")


def filler(flat, head, stride, table, mark, queue, groups, gpar, gpend, cur, cand, best,
           trail=None):
    """The greedy filler's arguments (:class:`tronlab.tron.spacefill.FillerScratch`)."""
    guards.on_grid(flat, stride, {"head": head})
    filler_scratch(flat, table, mark, queue, groups, gpar, gpend, cur, cand, best, trail)


def filler_scratch(flat, table, mark, queue, groups, gpar, gpend, cur, cand, best, trail=None):
    """:func:`filler` without the grid and head, for a guard that has checked them."""
    guards.long_enough(flat.size, mark=mark, queue=queue)
    if trail is not None:
        guards.long_enough(flat.size, trail=trail)
    guards.long_enough(256, table=table)
    guards.long_enough(4, gpar=gpar, gpend=gpend)
    for name, a in (("groups", groups), ("cur", cur), ("cand", cand), ("best", best)):
        guards.shaped(name, a, 4, 2)
    if np.count_nonzero(mark[:flat.size]):
        raise ValueError("mark must be all zero between calls (spacefill.new_scratch makes it so)")


def negamax(flat, me_head, opp_head, stride, depth, code, k1, k2, sep_weight, draw, crash,
            use_tt, use_order, reduce, deadline, zobrist, tt, lines, prev_len, fr, cs, stats):
    heads(flat, stride, cs, me_head=me_head, opp_head=opp_head)
    guards.between("depth", depth, 1, search_state.MAX_DEPTH)
    guards.between("prev_len", prev_len, 0, search_state.MAX_PLY)
    guards.shaped("zobrist", zobrist, 3, flat.size)
    size = tt.key.size
    if size < 1 or size & (size - 1) or any(a.size != size for a in tt):
        raise ValueError("tt must be search_state.new_table(bits): arrays of one power-of-2 size")
    guards.sized(lines, 0, _lines, "search_state.new_lines", "lines")
    guards.sized(fr, 0, _frames, "search_state.new_frames", "fr")
    guards.long_enough(search_state.N_STATS, stats=stats)


def nash_search(new_scratch, max_depth, n_stats, flat, me, opp, stride, depth, code, k1, k2,
                sep_weight, draw, prune, order, hybrid, table, killers, deadline, prior, zobrist,
                hint_key, hint_move, bounds, left, strategy, ns, cs, stats):
    """:func:`tronlab.tron.nash_search.nash_search_kernel`'s arguments (its module
    passes its ``new_scratch``, ``MAX_DEPTH`` and ``N_STATS``)."""
    heads(flat, stride, cs, me=me, opp=opp)
    guards.between("depth", depth, 1, max_depth)
    guards.shaped("zobrist", zobrist, 3, flat.size)
    size = hint_key.size
    if size < 1 or size & (size - 1):
        raise ValueError(f"hint_key holds {size} slots, not a power of two")
    guards.long_enough(size, left=left)
    guards.shaped("hint_move", hint_move, size, 2)
    guards.shaped("bounds", bounds, size, 2)
    guards.shaped("prior", prior, 2, 4)
    guards.shaped("strategy", strategy, 2, 4)
    guards.sized(ns, 0, new_scratch, "nash_search.new_scratch", "ns")
    guards.long_enough(n_stats, stats=stats)
