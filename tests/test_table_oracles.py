"""The two transposition tables' kernels against dict models written from their
docstrings: the Nash search's (:mod:`tronlab.tron.nash_table`: ``probe_kernel``,
``store_kernel``, ``to_table_kernel``/``from_table_kernel``) and alpha-beta's
(:mod:`tronlab.tron.alphabeta`: ``probe_table``, ``store_table``,
``_to_table``/``_from_table``).

The searches' own tests see the tables only through search values, which a
wrong replacement rule, a lost hint or a bound kept too long does not change
(the search just does more work, or plays another of its equal moves).  Here a
random sequence of stores and probes into a four-slot table, with keys that
collide in a slot, goes to the kernel and to the model alike, and every probe
must answer as the model says.  Won and lost values are modelled as a distance
in turns (plies) from the node, the way the docstrings define them.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

from tronlab.nash.saddle import LOWER, SADDLE, UPPER
from tronlab.tron import alphabeta as ab
from tronlab.tron import nash_table as nt
from tronlab.tron import search_state as ss

SLOTS = 4
#: keys 1, 5, 9 and 2**63 + 1 share slot 1; 2**64 - 1 and 3 share slot 3
KEYS = [1, 5, 9, 2**63 + 1, 2, 6, 3, 2**64 - 1]
PLAIN = [-1.0, 0.0, 0.5, 1.0]


def win_or_loss(value, ply, win, span):
    """``(sign, turns from the node)`` of a won (+1) or lost (-1) ``value`` counted from the
    root at ``ply``, or None for an ordinary value (wins sit within ``span`` of ``win``)."""
    if np.isfinite(value) and abs(value) >= win - span:
        return (1 if value > 0 else -1), win - abs(value) - ply
    return None


def from_node(value, ply, win, span):
    """``value`` (counted from the root, at ``ply``) as the table keeps it: from the node."""
    wl = win_or_loss(value, ply, win, span)
    return value if wl is None else wl[0] * (win - wl[1])


def to_root(kept, ply, win, span):
    """A kept value read back at ``ply``: a win ``d`` turns from the node is ``d + ply``
    turns from the root."""
    wl = win_or_loss(kept, 0, win, span)
    return kept if wl is None else wl[0] * (win - (wl[1] + ply))


# --------------------------------------------------------------------------- the Nash table
NASH = dict(win=nt.WIN, span=2 * nt.MAX_DEPTH)


class NashTableModel:
    """Slot -> ``[key, lo, hi, left, hint]`` (lo, hi counted from the node), per the module
    and ``store_kernel`` docstrings: a new position takes the slot over and forgets the
    hint; a shallower search of the same position changes nothing; the same depth
    intersects the bounds (the new ones alone if they do not meet); a deeper one replaces."""

    def __init__(self):
        self.slots = {}

    def store(self, key, ply, depth, val, kind):
        v = from_node(val, ply, **NASH)
        lo, hi = (-np.inf if kind == UPPER else v), (np.inf if kind == LOWER else v)
        e = self.slots.get(key % SLOTS)
        if e is None or e[0] != key:
            self.slots[key % SLOTS] = [key, lo, hi, depth, (-1, -1)]
        elif e[3] < depth:
            e[1:4] = lo, hi, depth
        elif e[3] == depth and max(lo, e[1]) <= min(hi, e[2]):
            e[1:3] = max(lo, e[1]), min(hi, e[2])
        elif e[3] == depth:
            e[1:3] = lo, hi

    def probe(self, key, ply, need, alpha, beta):
        """``(hit, value, kind, final)``; a miss's value, kind and final are not compared."""
        e = self.slots.get(key % SLOTS)
        if e is None or e[0] != key or e[3] < need:
            return (False,)
        lo, hi = to_root(e[1], ply, **NASH), to_root(e[2], ply, **NASH)
        final = e[3] >= nt.FINAL
        if lo == hi:
            return True, lo, SADDLE, final
        if lo >= beta:
            return True, lo, LOWER, final
        if hi <= alpha:
            return True, hi, UPPER, final
        return (False,)


@st.composite
def nash_values(draw, ply):
    """An ordinary value, or a win or loss ``t >= ply`` turns from the root."""
    if draw(st.integers(0, 3)):
        return draw(st.sampled_from(PLAIN))
    t = draw(st.integers(ply, nt.MAX_DEPTH))
    return draw(st.sampled_from([1.0, -1.0])) * (nt.WIN - t)


@st.composite
def nash_ops(draw, keys):
    key = draw(st.sampled_from(keys))
    ply = draw(st.sampled_from([0, 1, 2, nt.MAX_DEPTH]))
    op = draw(st.sampled_from(["store", "store", "probe", "probe", "hint"]))
    if op == "store":
        depth = draw(st.sampled_from([0, 1, 1, 2, nt.FINAL]))
        return op, key, ply, depth, draw(nash_values(ply)), draw(st.sampled_from(
            [SADDLE, LOWER, UPPER]))
    if op == "probe":
        a, b = sorted(draw(st.lists(st.one_of(nash_values(ply), st.just(np.inf),
                                              st.just(-np.inf)), min_size=2, max_size=2,
                                    unique=True)))
        return op, key, ply, draw(st.integers(0, 3)), a, b
    return op, key, draw(st.integers(0, 3)), draw(st.integers(0, 3))


def _nash_table():
    return (np.zeros(SLOTS, np.uint64), np.zeros((SLOTS, 2), np.int64),
            np.zeros((SLOTS, 2)), np.full(SLOTS, -1, np.int64))


#: a few keys per sequence, so that one position is stored and probed again and again
few_keys = st.lists(st.sampled_from(KEYS), min_size=1, max_size=3, unique=True)


@settings(max_examples=EXAMPLES, deadline=None)
@given(few_keys.flatmap(lambda keys: st.lists(nash_ops(keys), min_size=20, max_size=60)))
def test_nash_table_answers_as_a_dict_model(ops):
    hint_key, hint_move, bounds, left = _nash_table()
    model = NashTableModel()
    for op, key, *args in ops:
        slot = np.uint64(key % SLOTS)
        if op == "hint":            # the search writes its hint into the position's slot
            e = model.slots.get(key % SLOTS)
            if e is not None and e[0] == key:
                hint_move[slot] = e[4] = tuple(args)
        elif op == "store":
            ply, depth, val, kind = args
            nt.store_kernel(hint_key, hint_move, bounds, left, np.uint64(key), slot,
                            np.int64(ply), np.int64(depth), float(val), np.int64(kind))
            model.store(key, ply, depth, val, kind)
            e = model.slots[key % SLOTS]
            assert (int(hint_key[slot]), int(left[slot])) == (key, e[3])
            assert tuple(hint_move[slot]) == e[4]
        else:
            ply, need, alpha, beta = args
            got = nt.probe_kernel(hint_key, bounds, left, np.uint64(key), slot, np.int64(ply),
                                  np.int64(need), float(alpha), float(beta))
            want = model.probe(key, ply, need, alpha, beta)
            assert (got if got[0] else got[:1]) == want, (op, key, args)


def test_nash_values_are_kept_as_turns_from_the_node():
    """A win ``t`` turns from the root found at ``ply`` is kept as ``WIN - (t - ply)`` and
    read back at ``ply2`` as ``WIN - (t - ply + ply2)``; losses mirror it; over the whole
    range (plies 0..MAX_DEPTH, distances 0..MAX_DEPTH), edges included."""
    win, md = nt.WIN, nt.MAX_DEPTH
    for ply in range(md + 1):
        for d in range(md + 1):
            for sign in (1.0, -1.0):
                assert nt.to_table_kernel(sign * (win - (d + ply)), ply) == sign * (win - d)
                assert nt.from_table_kernel(sign * (win - d), ply) == sign * (win - (d + ply))


@settings(max_examples=5 * EXAMPLES, deadline=None)
@given(st.one_of(st.integers(-int(nt.WIN), int(nt.WIN)).map(float),
                st.floats(-nt.WIN / 2, nt.WIN / 2), st.sampled_from(
    [np.inf, -np.inf, nt.WIN, -nt.WIN, nt.WIN - 2 * nt.MAX_DEPTH, nt.WIN - 2 * nt.MAX_DEPTH - 1,
     -(nt.WIN - 2 * nt.MAX_DEPTH), 1e6, -1e6])), st.integers(0, nt.MAX_DEPTH))
def test_nash_table_packing_round_trips(value, ply):
    """from_table(to_table(v, ply), ply) == v for every whole value (wins and losses are
    whole numbers) and every evaluation far from a win, and such an evaluation (or an
    infinite bound) is kept as it is."""
    kept = nt.to_table_kernel(value, ply)
    assert nt.from_table_kernel(kept, ply) == value
    if abs(value) < nt.WIN - 2 * nt.MAX_DEPTH or np.isinf(value):
        assert kept == value


# --------------------------------------------------------------------------- alpha-beta's
AB = dict(win=int(ss.WIN), span=ss.MAX_PLY)


class AlphaBetaTableModel:
    """Slot -> ``(key, value from the node, depth, flag, move)``: the newest store always
    takes the slot; the flag is UPPER when the value did not raise alpha, LOWER when it
    reached beta, else EXACT.  A probe of the same key gives the move (a table hit), and a
    cut below the root when the entry searched deep enough settles the window."""

    def __init__(self):
        self.slots = {}
        self.hits = self.cuts = 0

    def store(self, key, ply, depth, value, move, alpha0, beta):
        flag = ss.UPPER if value <= alpha0 else ss.LOWER if value >= beta else ss.EXACT
        self.slots[key % SLOTS] = (key, from_node(value, ply, **AB), depth, flag, move)

    def probe(self, key, ply, depth, alpha, beta):
        e = self.slots.get(key % SLOTS)
        if e is None or e[0] != key:
            return -1, False, 0
        self.hits += 1
        v = to_root(e[1], ply, **AB)
        settles = {ss.EXACT: True, ss.LOWER: v >= beta, ss.UPPER: v <= alpha}[e[3]]
        if ply > 0 and e[2] >= depth and settles:
            self.cuts += 1
            return e[4], True, v
        return e[4], False, 0


@st.composite
def ab_values(draw, ply):
    """An ordinary value, or a win or loss ``p >= ply`` plies from the root."""
    if draw(st.booleans()):
        return draw(st.integers(-50, 50))
    p = draw(st.integers(ply, ply + ss.MAX_DEPTH))
    return draw(st.sampled_from([1, -1])) * (int(ss.WIN) - p)


@st.composite
def ab_ops(draw):
    key = draw(st.sampled_from(KEYS))
    ply = draw(st.sampled_from([0, 1, 2, 6, ss.MAX_DEPTH]))
    depth = draw(st.integers(0, 4))
    a, b = sorted(draw(st.lists(ab_values(ply), min_size=2, max_size=2, unique=True)))
    if draw(st.booleans()):
        # a value on the window's edge too: fail-hard alpha-beta returns alpha itself
        value = draw(st.one_of(ab_values(ply), st.sampled_from([a, b])))
        return "store", key, ply, depth, value, draw(st.integers(-1, 3)), a, b
    return "probe", key, ply, depth, a, b


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(ab_ops(), min_size=20, max_size=60))
def test_alphabeta_table_answers_as_a_dict_model(ops):
    tt, stats = ss.new_table(2), np.zeros(ss.N_STATS, np.int64)
    model = AlphaBetaTableModel()
    for op, key, ply, depth, *args in ops:
        i8 = [np.int64(x) for x in (ply, depth, *args)]
        if op == "store":
            ab.store_table(tt, np.uint64(key), *i8)
            model.store(key, ply, depth, *args)
        else:
            got = ab.probe_table(tt, np.uint64(key), *i8, stats)
            assert got == model.probe(key, ply, depth, *args), (op, key, ply, depth, args)
            assert (stats[ss.S_TT_HITS], stats[ss.S_TT_CUTS]) == (model.hits, model.cuts)


def test_alphabeta_values_are_kept_as_plies_from_the_node():
    """Alpha-beta counts in plies: a win ``p`` plies from the root found at ``ply`` is kept
    as ``WIN - (p - ply)``; over the plies a search reaches (0..MAX_PLY in all)."""
    win = int(ss.WIN)
    for ply in range(ss.MAX_DEPTH + 1):
        for d in range(ss.MAX_PLY - ply + 1):
            for sign in (1, -1):
                assert ab._to_table(np.int64(sign * (win - (d + ply))), ply) == sign * (win - d)
                assert ab._from_table(np.int64(sign * (win - d)), ply) == sign * (win - (d + ply))


@settings(max_examples=5 * EXAMPLES, deadline=None)
@given(st.one_of(st.integers(-int(ss.INF), int(ss.INF)), st.sampled_from(
    [int(ss.INF), -int(ss.INF), int(ss.WIN), -int(ss.WIN), int(ss.WIN) - ss.MAX_PLY,
     int(ss.WIN) - ss.MAX_PLY - 1, 0])), st.integers(0, ss.MAX_PLY))
def test_alphabeta_table_packing_round_trips(value, ply):
    kept = ab._to_table(np.int64(value), ply)
    assert ab._from_table(kept, ply) == value
    if abs(value) < int(ss.WIN) - ss.MAX_PLY:
        assert kept == value
