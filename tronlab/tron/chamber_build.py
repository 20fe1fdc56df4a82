"""Building a player's chamber tree: steps 2-6 of :mod:`tronlab.tron.chambers`
(technique A12) - cut vertices, chambers grown from the head, their sizes,
edges, steps and whether they touch the front.

Every kernel here takes the scratch arrays as one argument, a
:class:`ChamberScratch` made by :func:`new_scratch` (numba reads it as a
tuple), writes its results into them and never allocates.  The values of
the tree (step 7) and the friendly wrappers are in :mod:`tronlab.tron.chambers`.
Here too: the options word of the chamber kernels (:func:`chamber_flags`).

>>> new_scratch(12).ch_parent.size     # a chamber per square at most, plus the head
13
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..grid.articulation import articulation_points_kernel
from ..jit.kernels import KernelTable, kernel, sig_type
from .values import check_flag, is_whole
from ..grid import guards

HEAD, GATE, ROOM = 0, 1, 2
KIND_NAMES = ("head", "gate", "room")

#: the write-up's literal readings, one bit each (the ``literal`` option)
LITERAL_TIES, LITERAL_FRONT, LITERAL_NO_STAY, LITERAL_N_ONLY = 1, 2, 4, 8
LITERAL_NAMES = {"ties": LITERAL_TIES, "front": LITERAL_FRONT, "no_stay": LITERAL_NO_STAY,
                 "n_only": LITERAL_N_ONLY}
# the kernels' flags word: bit 0 A13, then the literal bits shifted by one
_F_PENALIZE, _F_TIES, _F_FRONT, _F_NO_STAY, _F_N_ONLY = 1, 2, 4, 8, 16


def literal_bits(literal) -> int:
    """The ``literal`` option as bits: an int 0-15 (an OR of the ``LITERAL_*``
    flags) or names joined by ``,`` (``"ties,front"``; ``"all"``, ``"none"``).

    >>> literal_bits("ties,n_only"), literal_bits(LITERAL_FRONT), literal_bits("all")
    (9, 2, 15)
    """
    if isinstance(literal, str):
        bits = 0
        for name in filter(None, (w.strip().lower() for w in literal.split(","))):
            if name in ("all", "none"):
                bits |= 15 if name == "all" else 0
            elif name in LITERAL_NAMES:
                bits |= LITERAL_NAMES[name]
            else:
                raise ValueError(f"unknown literal reading {name!r}; use an int 0-15 or "
                                 f"names from {sorted(LITERAL_NAMES)} joined by ','")
        return bits
    if not is_whole(literal):
        raise TypeError(f"literal must be an int 0-15 or names, got {type(literal).__name__}")
    if not 0 <= literal <= 15:
        raise ValueError(f"literal must be an int 0-15 (LITERAL_* flags), got {literal}")
    return int(literal)


def chamber_flags(penalize_battlefront=False, literal=0) -> int:
    """The kernels' ``flags`` word: bit 0 is A13, bits 1-4 the literal readings.

    >>> chamber_flags(), chamber_flags(True), chamber_flags(literal="ties")
    (0, 1, 2)
    """
    a13 = check_flag(penalize_battlefront, "penalize_battlefront")
    return int(a13) | (literal_bits(literal) << 1)


class ChamberScratch(NamedTuple):
    """Scratch arrays for the kernels here; make with :func:`new_scratch`.

    Square-sized (``size`` = ``board.flat.size``): ``dist``, ``queue``,
    ``rqueue``, ``rdist``, ``resum``, ``chamber_of``, ``disc``, ``low``,
    ``parent``, ``stack`` (int32), ``owner``, ``region``, ``it``, ``is_cut``
    (uint8).  Chamber-sized (``size + 1``, one chamber per square at most plus
    the head): the ``ch_*``, ``val_*`` and ``fr_*`` arrays and ``choice``
    (int32).  ``dist``/``owner``/``queue`` are what
    :func:`tronlab.grid.voronoi.territory_kernel` needs, so one scratch serves both.
    """
    dist: np.ndarray
    owner: np.ndarray
    queue: np.ndarray
    region: np.ndarray
    disc: np.ndarray
    low: np.ndarray
    parent: np.ndarray
    it: np.ndarray
    stack: np.ndarray
    is_cut: np.ndarray
    chamber_of: np.ndarray
    rqueue: np.ndarray
    rdist: np.ndarray
    resum: np.ndarray
    ch_parent: np.ndarray
    ch_entrance: np.ndarray
    ch_kind: np.ndarray
    ch_n: np.ndarray
    ch_e: np.ndarray
    ch_front: np.ndarray
    ch_step_n: np.ndarray
    ch_step_e: np.ndarray
    val_n: np.ndarray
    val_e: np.ndarray
    val_front: np.ndarray
    choice: np.ndarray
    ch_end: np.ndarray
    fr_chamber: np.ndarray
    fr_next: np.ndarray


def new_scratch(size: int) -> ChamberScratch:
    """Scratch for a flat grid of ``size`` squares (``board.flat.size``)."""
    i32 = [np.empty(size, np.int32) for _ in range(10)]
    u8 = [np.empty(size, np.uint8) for _ in range(4)]
    ch = [np.empty(size + 1, np.int32) for _ in range(15)]
    dist, queue, disc, low, parent, stack, chamber_of, rqueue, rdist, resum = i32
    owner, region, it, is_cut = u8
    return ChamberScratch(dist, owner, queue, region, disc, low, parent, it, stack, is_cut,
                          chamber_of, rqueue, rdist, resum, *ch)


sig_type("ChamberScratch", lambda: new_scratch(1))   # for kernel signatures


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------
@kernel(inline="always")
def _free_degree(flat, sq, stride):
    sq = np.int64(sq)       # a uint64 square less an int64 stride is a float in numpy
    return (np.int32(flat[sq - stride] == 0) + np.int32(flat[sq + 1] == 0)
            + np.int32(flat[sq + stride] == 0) + np.int32(flat[sq - 1] == 0))


@kernel
def _new_chamber(cs, kind, entrance, parent, step_n, step_e, count):
    """Open chamber ``count`` (empty, quiet); returns ``count + 1``."""
    cs.ch_parent[count] = parent
    cs.ch_entrance[count] = entrance
    cs.ch_kind[count] = kind
    cs.ch_n[count] = 0
    cs.ch_e[count] = 0
    cs.ch_front[count] = 0
    cs.ch_step_n[count] = step_n
    cs.ch_step_e[count] = step_e
    return count + 1


@kernel
def _new_gate(flat, sq, who, stride, cs, parent, step_n, step_e, count):
    """Claim cut vertex ``sq`` as gate chamber ``count``; returns ``count + 1``."""
    cs.chamber_of[sq] = count
    _new_chamber(cs, np.int64(1), sq, parent, step_n, step_e, count)
    cs.ch_n[count] = 1
    cs.ch_e[count] = _free_degree(flat, sq, stride)
    for u in (sq - stride, sq + 1, sq + stride, sq - 1):
        if flat[u] == 0 and cs.region[u] != 0:
            cs.ch_front[count] = 1
    return count + 1


@kernel
def _grow_room(flat, start, who, stride, cs, room, count):
    """Grow room ``room`` breadth-first from ``start`` over unclaimed non-cut
    squares of ``who``; every unclaimed cut vertex next to it becomes a child
    gate, its steps the shortest (then fewest-edge) way there.  Returns the new
    chamber count (the room's gates are ids ``room + 1`` up to it)."""
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    chamber_of, rdist, resum = cs.chamber_of, cs.rdist, cs.resum
    chamber_of[start] = room
    rdist[start] = 0
    resum[start] = 0
    cs.rqueue[0] = start
    qh = 0
    qt = 1
    n = 0
    e = 0
    front = 0
    while qh < qt:
        s = np.uint64(cs.rqueue[qh])
        qh += 1
        # resum held the cheapest path up to s, s excluded; now add s itself
        deg = _free_degree(flat, s, stride)
        here = resum[s] + deg
        resum[s] = here
        n += 1
        e += deg
        ds = rdist[s] + 1
        for j in range(4):
            u = s + offs[j]
            if flat[u] != 0:
                continue
            if cs.region[u] != 0:     # free but not the player's: the front
                front = 1
                continue
            cu = chamber_of[u]
            if cs.is_cut[u] != 0:
                if cu < 0:
                    count = _new_gate(flat, np.int64(u), who, stride, cs, np.int64(room),
                                      np.int64(ds), np.int64(here), np.int64(count))
                elif (cs.ch_parent[cu] == room and cs.ch_kind[cu] == 1
                      and cs.ch_step_n[cu] == ds and here < cs.ch_step_e[cu]):
                    cs.ch_step_e[cu] = here
            elif cu < 0:
                chamber_of[u] = room
                rdist[u] = ds
                resum[u] = here
                cs.rqueue[qt] = u
                qt += 1
            elif cu == room and rdist[u] == ds and here < resum[u]:
                resum[u] = here   # another shortest way in (u not yet dequeued)
    cs.ch_n[room] = n
    cs.ch_e[room] = e
    cs.ch_front[room] = front
    return count


def _tree_guard(flat, head, who, stride, ties, cs):
    guards.on_grid(flat, stride, {"head": head})
    guards.sized(cs, flat.size, new_scratch, "chambers.new_scratch", "cs")


@kernel(sig="i8(u1[::1], i8, i8, i8, b1, ChamberScratch)", guard=_tree_guard)
def chamber_tree_kernel(flat, head, who, stride, ties, cs):
    """Build the chamber tree of the player whose owner code is ``who`` (steps
    2-6 of :mod:`tronlab.tron.chambers`); returns the number of chambers.

    ``cs.owner`` holds 0/1/2 ownership codes (anything else, e.g. 255 for
    unreached squares, is nobody's).  The player's squares are those of code
    ``who``, and with ``ties`` (bool; the write-up's literal reading) the
    neutral ones (code 2) too.  Fills ``cs.region`` (0 = the player's
    square), ``cs.is_cut``, ``cs.chamber_of`` (-1 for squares in no chamber)
    and the ``cs.ch_*`` arrays: parent, entrance square, kind (0 head, 1 gate,
    2 room), N, E, touches-front flag, steps taken in the parent on the way in.

    The exploration is a depth-first walk on an explicit stack of frames
    (``cs.fr_chamber``, ``cs.fr_next``): a head or gate frame looks at its four
    neighbours twice (rooms, then gates) and descends into each new child at
    once; a room frame descends into its gates in the order the room found
    them (ids ``room + 1`` to ``cs.ch_end[room] - 1``).
    """
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    w = np.uint8(who)
    region, chamber_of, is_cut, fr_chamber, fr_next = (cs.region, cs.chamber_of, cs.is_cut,
                                                       cs.fr_chamber, cs.fr_next)
    for i in range(flat.size):
        o = cs.owner[i]
        region[i] = 0 if (flat[i] == 0 and (o == w or (ties and o == 2))) else 1
        chamber_of[i] = -1
    articulation_points_kernel(region, stride, cs.disc, cs.low, cs.parent, cs.it, cs.stack,
                               is_cut)
    zero = np.int64(0)
    count = _new_chamber(cs, zero, np.int64(head), np.int64(-1), zero, zero, zero)
    fr_chamber[0] = 0
    fr_next[0] = 0
    sp = 1
    while sp > 0:
        c = fr_chamber[sp - 1]
        k = fr_next[sp - 1]
        if cs.ch_kind[c] == 2:                    # a room: descend into its next gate
            if k < cs.ch_end[c]:
                fr_next[sp - 1] = k + 1
                fr_chamber[sp] = k
                fr_next[sp] = 0
                sp += 1
            else:
                sp -= 1
            continue
        if k >= 8:                                # a head or gate with nothing left
            sp -= 1
            continue
        fr_next[sp - 1] = k + 1
        want_cut = k // 4                         # rooms first, then gates
        t = np.uint64(cs.ch_entrance[c]) + offs[k % 4]
        if region[t] != 0 or chamber_of[t] >= 0 or is_cut[t] != want_cut:
            continue
        step_n = cs.ch_n[c]                       # 0 from the head, the gate square from a gate
        step_e = cs.ch_e[c]
        child = count
        if want_cut == 1:
            count = _new_gate(flat, np.int64(t), w, stride, cs, np.int64(c), np.int64(step_n),
                              np.int64(step_e), np.int64(count))
            fr_next[sp] = 0
        else:
            count = _new_chamber(cs, np.int64(2), np.int64(t), np.int64(c), np.int64(step_n),
                                 np.int64(step_e), np.int64(count))
            count = _grow_room(flat, np.int64(t), w, stride, cs, child, count)
            cs.ch_end[child] = count
            fr_next[sp] = child + 1
        fr_chamber[sp] = child
        sp += 1
    return count


# the kernels compile on first use
_kernels = KernelTable(globals())
