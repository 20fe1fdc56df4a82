"""Flood fill and connected components of the free squares (technique A3).

* :func:`flood_fill` - how many free squares a head can still reach: a
  depth-first fill from the head's neighbours (the head itself not counted).
* :func:`components` - every connected region at once by two raster passes.
  Pass one visits squares left to right, top to bottom and gives each free
  square the label of its free neighbour above or to the left, or a fresh
  label; when both neighbours carry different labels the two labels are
  recorded as equal in a small union-find table.  Pass two replaces each label
  by its table representative, numbered 1, 2, ... in raster order.
* :class:`Components` - keeps labels up to date while squares fill.  When the
  filled square is not a potential articulation point (A2, :mod:`tronlab.grid.ring`)
  its region cannot split, so the region just shrinks by one square;
  otherwise the labels are recomputed.
"""

from __future__ import annotations

import numpy as np

from . import guards, ring     # ring_code_kernel is linked into fill_square_kernel (_kernels)
from ..jit.kernels import KernelTable, kernel
from ..tron.board import check_board, check_xy, start_square
from .ring import POTENTIAL_ARTICULATION


# ---------------------------------------------------------------------------
# kernels (and the checks of the two the course calls from Python, tronlab.grid.guards)
# ---------------------------------------------------------------------------
def fill_guard(flat, start, stride, seen, stack):
    """The guard of flood_fill_kernel, and of parity.fill_bound_kernel (the same arguments)."""
    guards.padded_grid(flat, stride)
    guards.inside(flat, stride, start, "start")
    guards.long_enough(flat.size, seen=seen, stack=stack)


def _components_guard(flat, stride, labels, sizes, equiv):
    guards.padded_grid(flat, stride)
    guards.long_enough(flat.size, labels=labels, sizes=sizes, equiv=equiv)


def _fill_square_guard(flat, stride, square, table, labels, sizes, equiv, n_labels):
    guards.on_grid(flat, stride, {"square": square}, labels=labels, sizes=sizes, equiv=equiv)
    guards.long_enough(256, table=table)
    if not 0 <= labels[square] < sizes.size:
        raise ValueError(f"labels[{square}] = {labels[square]} is not a label of sizes "
                         f"(0..{sizes.size - 1})")


@kernel(sig="i8(u1[::1], i8, i8, u1[::1], i4[::1])", guard=fill_guard)
def flood_fill_kernel(flat, start, stride, seen, stack):
    """Number of free squares reachable from ``start``'s free neighbours, ``start``
    itself not counted.  ``flat`` uint8[n], ``start`` int64, ``stride`` int64;
    scratch ``seen`` uint8[n] (left marking the region and the start) and
    ``stack`` int32[n]."""
    seen[:] = 0
    offs = (np.uint64(0) - np.uint64(stride), np.uint64(1), np.uint64(stride),
            np.uint64(0) - np.uint64(1))
    seen[start] = 1
    stack[0] = start
    sp = 1
    count = 0
    while sp > 0:
        sp -= 1
        c = np.uint64(stack[sp])
        for k in range(4):
            n = c + offs[k]
            if flat[n] == 0 and seen[n] == 0:
                seen[n] = 1
                count += 1
                stack[sp] = n
                sp += 1
    return count


@kernel(inline="always")
def _find(equiv, label):
    root = label
    while equiv[root] != root:
        root = equiv[root]
    while equiv[label] != root:     # path compression
        nxt = equiv[label]
        equiv[label] = root
        label = nxt
    return root


@kernel(sig="i8(u1[::1], i8, i4[::1], i4[::1], i4[::1])", guard=_components_guard)
def components_kernel(flat, stride, labels, sizes, equiv):
    """Label the connected regions of free squares; return how many there are.

    ``labels`` int32[n] gets 0 on blocked squares and 1..k on free ones, regions
    numbered in raster order of their first square; ``sizes`` int32[n] gets
    ``sizes[j]`` = squares with label j for j = 1..k (``sizes[0]`` = 0).
    ``equiv`` int32[n] is scratch for the label equivalence table.
    """
    size = flat.size
    labels[:stride] = 0
    labels[size - stride:] = 0
    fresh = 1
    # pass 1: provisional labels, equivalences in a union-find over labels
    for i in range(stride, size - stride):
        if flat[i] != 0:
            labels[i] = 0
            continue
        up = labels[i - stride]
        left = labels[i - 1]
        if up == 0 and left == 0:
            equiv[fresh] = fresh
            labels[i] = fresh
            fresh += 1
        elif left == 0:
            labels[i] = up
        elif up == 0 or up == left:
            labels[i] = left
        else:
            a = _find(equiv, up)
            b = _find(equiv, left)
            if a < b:
                equiv[b] = a
                labels[i] = a
            else:
                equiv[a] = b
                labels[i] = b
    # compact: every label points at a smaller one or at itself (a root), so in
    # increasing order a label's parent is already final: roots get -1, -2, ...
    k = 0
    for lab in range(1, fresh):
        parent = equiv[lab]
        if parent == lab:
            k += 1
            equiv[lab] = -k
        else:
            equiv[lab] = equiv[parent]
    sizes[:k + 1] = 0
    # pass 2: final labels and sizes
    for i in range(stride, size - stride):
        lab = labels[i]
        if lab != 0:
            final = -equiv[lab]
            labels[i] = final
            sizes[final] += 1
    return k


@kernel(sig="Tuple((b1, i8))(u1[::1], i8, i8, u1[::1], i4[::1], i4[::1], i4[::1], i8)",
        guard=_fill_square_guard)
def fill_square_kernel(flat, stride, square, table, labels, sizes, equiv, n_labels):
    """Update ``labels``/``sizes`` after free square ``square`` was filled.

    Call after setting ``flat[square]`` nonzero; ``labels``/``sizes`` describe
    the grid before, with ``n_labels`` labels in use.  ``table`` is the A2 table
    (:data:`tronlab.grid.ring.POTENTIAL_ARTICULATION`).  Returns ``(recomputed,
    n_labels)``: if the square cannot be a cut vertex its region shrinks by one
    (labels keep their numbers; a region may drop to size 0); otherwise all
    labels are recomputed.
    """
    if table[ring_code_kernel(flat, square, stride)] == 0:  # noqa: F821 (KernelTable uses=)
        lab = labels[square]
        labels[square] = 0
        sizes[lab] -= 1
        return False, n_labels
    return True, components_kernel(flat, stride, labels, sizes, equiv)


# the kernels compile on first use; wrappers prefer ahead-of-time twins (tronlab.jit.kernels)
_kernels = KernelTable(globals(), uses={"ring_code_kernel": ring})
__getattr__ = _kernels.module_getattr
__dir__ = _kernels.module_dir


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
def flood_fill(board, player=0, *, start=None) -> int:
    """Free squares reachable from a player's head (or from flat index ``start``),
    not counting the start square.

    >>> from tronlab import Board
    >>> flood_fill(Board.from_ascii('''
    ...     1.#..
    ...     ..#.2
    ... '''))
    3
    """
    start = start_square(board, player, start)
    size = board.flat.size
    fill = _kernels.fast("flood_fill_kernel")
    return int(fill(board.flat, np.int64(start), np.int64(board.stride),
                    np.empty(size, np.uint8), np.empty(size, np.int32)))


class Components:
    """Connected regions of a board's free squares, kept up to date by :meth:`fill`.

    ``labels`` (shaped like ``board.cells``, 0 on blocked squares) and
    ``sizes`` (``sizes[j]`` squares carry label j; labels may go empty after
    fills).  The object holds a *copy* of the grid; :meth:`fill` blocks a
    square in that copy.

    >>> from tronlab import Board
    >>> comps = Components(Board.from_ascii('''
    ...     1....
    ...     ##.##
    ...     2....
    ... '''))
    >>> comps.count, comps.size_at(4, 0)
    (1, 9)
    >>> comps.fill(2, 1), comps.count       # the neck: recomputed, two regions
    (True, 2)
    >>> comps.fill(4, 2), comps.size_at(3, 2)   # a dead end: just shrinks
    (False, 3)
    """

    def __init__(self, board):
        check_board(board)
        self.shape = board.cells.shape
        self.stride = board.stride
        self.flat = board.flat.copy()
        size = self.flat.size
        self._labels = np.empty(size, np.int32)
        self._sizes = np.zeros(size, np.int32)
        self._equiv = np.empty(size, np.int32)
        label = _kernels.fast("components_kernel")
        self.n_labels = int(label(self.flat, np.int64(self.stride), self._labels,
                                  self._sizes, self._equiv))

    @property
    def labels(self) -> np.ndarray:
        return self._labels.reshape(self.shape)

    @property
    def sizes(self) -> np.ndarray:
        return self._sizes[:self.n_labels + 1]

    @property
    def count(self) -> int:
        """Number of non-empty regions."""
        return int(np.count_nonzero(self.sizes))

    def _square(self, x, y) -> int:
        """The flat index of board square (x, y), or a TypeError/ValueError naming it."""
        x, y = check_xy(x, y)
        if not (0 <= x < self.shape[1] - 2 and 0 <= y < self.shape[0] - 2):
            raise ValueError(f"({x}, {y}) is off the board ({self.shape[1] - 2} wide, "
                             f"{self.shape[0] - 2} high)")
        return (y + 1) * self.stride + x + 1

    def size_at(self, x: int, y: int) -> int:
        """Squares in the region of free square (x, y) (0 if it is blocked)."""
        label = self._labels[self._square(x, y)]
        return int(self._sizes[label]) if label else 0

    def fill(self, x: int, y: int) -> bool:
        """Block free square (x, y); return whether the labels were recomputed."""
        square = self._square(x, y)
        if self.flat[square] != 0:
            raise ValueError(f"({x}, {y}) is not free")
        self.flat[square] = 1
        recomputed, self.n_labels = _kernels.fast("fill_square_kernel")(
            self.flat, np.int64(self.stride), np.int64(square), POTENTIAL_ARTICULATION,
            self._labels, self._sizes, self._equiv, np.int64(self.n_labels))
        return bool(recomputed)


def components(board):
    """``(labels, sizes)``: region label of every square (0 blocked, regions 1..k
    in raster order of their first square) shaped like ``board.cells``, and the
    sizes ``sizes[j]`` of region j (``sizes[0]`` is 0)."""
    comps = Components(board)
    return comps.labels.copy(), comps.sizes.copy()
