"""Chamber trees with battlefronts (techniques A12 and A13).

Voronoi territory (A4) counts every square a player reaches first, as if it
could have all of them.  It cannot when its territory is cut into *chambers*:
a bot that walks through a one-square doorway into one room leaves the other
rooms behind for good.  a1k0n (Google AI Challenge 2010 post-mortem) counted
only the space along the best route through the chambers, and added one more
twist, the *battlefront*: a chamber that borders the opponent's space must be
fought for now.  Filling a quiet chamber first and visiting the front later is
not an option: by then the opponent has taken it.

The construction, step by step, for one player ``p`` (the other is ``q``):

1. **Ownership.**  One BFS from both heads (:func:`tronlab.grid.voronoi.territory_kernel`):
   a free square is *p's* when p's head is strictly nearer.  Squares nearer q,
   and ties (neutral), are not p's.
2. **Cut vertices.**  The graph of p's squares (everything else, p's head
   included, treated as wall) and its articulation points
   (:func:`tronlab.grid.articulation.articulation_points_kernel`).  A cut vertex is
   a *gate*.
3. **Chambers.**  Chamber 0 is p's head (no space of its own).  A *gate
   chamber* is a single cut vertex; a *room* is a connected set of p's squares
   that are not cut vertices.  The tree is grown by a depth-first walk from the
   head.  The head and every gate look at their unclaimed neighbours owned by
   p - rooms first, then gates, each in move order (up, right, down, left) -
   and each becomes a child that is explored to the end before the next
   neighbour is looked at.  A new room is grown at once, breadth-first from
   the square where it was entered; every unclaimed gate next to it becomes
   its child, and those are explored in the order the room found them.  A
   square belongs to the first chamber that claims it, so a region reachable
   two ways hangs under the first one found (the structure is a tree, and a
   ring of gates round the head is followed as one long line).
4. **Size and edges.**  A chamber's ``N`` is its number of squares, ``E`` the
   sum of their free neighbours (any owner; the A7 edge count).
5. **Steps.**  How much of the parent is used on the way into a child: zero
   from the head; the gate square itself (1, its free neighbours) from a gate;
   from a room, the squares on a shortest path from the room's entrance to the
   square next to the child gate, both ends included, with the fewest edges
   among the shortest paths.
6. **Front.**  A chamber *touches the front* when one of its squares has a
   free neighbour that is not p's (q's or neutral).  A chamber's best line is
   a *battlefront* line when the chamber touches the front or its chosen child
   line is a battlefront line.
7. **Values** (children before parents).  The options of a chamber ``C``:
   stay (``N, E`` of ``C``), or go on into a child ``K``:

   * K's line is quiet: fill ``C`` first, then go: ``C + value(K)``;
   * K's line is a battlefront: go now, giving up the rest of ``C``:
     ``steps(C -> K) + value(K)``; with ``penalize_battlefront`` (A13, an idea
     a1k0n never tried) the part of ``C`` given up is also subtracted, since
     the opponent is free to take it.

   Options are compared by ``K1*N + K2*E`` (the same linear model the score
   uses); the best wins, ties go to staying, then to the lowest chamber id.
   The player's ``(N, E)`` is the value of chamber 0.

The score from ``p``'s point of view is a1k0n's linear form
``K1*(N_p - N_q) + K2*(E_p - E_q)`` (defaults 0.055 and 0.194).  When a
player's territory is in one piece without any cut vertex, its ``(N, E)`` is
exactly its Voronoi count (the whole territory is one room).

The a1k0n v. ecv257 game of the write-up in miniature (``tests/test_chambers.py``)::

    ##################      Voronoi: blue (1) 18, red (2) 22.
    #......#...#..#..#      Red cannot have both sides of its doorway:
    #...1......2.....#      the front room (9) or the two quiet rooms on
    #......#...#..#..#      the right (6 + 1 + 6 = 13).  Chambers: blue 16,
    ##################      red 13 - blue is ahead.

Where this differs from the write-up.  a1k0n describes his rule in a few
sentences and says it was roughly formed; four choices here go beyond or
against the literal reading.  ``literal=`` (an OR of the ``LITERAL_*`` flags,
or their names, :func:`literal_bits`; the bot option ``chamber+literal=F``)
switches each back; the default 0 is the package's reading.

* **Ties are walls** for the cut-vertex search (``LITERAL_TIES`` = 1: only
  the opponent's squares are walls, so equidistant squares are both players').
* **A battlefront travels up the chosen line** (``LITERAL_FRONT`` = 2: a child
  is a battlefront only when it touches the front itself), so a quiet room in
  front of a contested one is treated as contested.
* **Staying is an option** (``LITERAL_NO_STAY`` = 4: a chamber with children
  is worth its best child), which matters when every child is a battlefront
  reached by a long walk.
* **Options are compared by K1*N + K2*E** (``LITERAL_N_ONLY`` = 8: by N), so
  edges break ties between equally large lines.

Each literal reading alone against the default, in games
(``benchmarks/chambers_literal.py``: depth 3, endgame 2 plies, random 20x20
maps x 2 seats; W-D-L from the literal side, sign test of the decided games):
100 maps, 400 other maps, 200 open maps (density 0.1), the arena's 100
random maps, and all 1600 games together (W-D-L, then p)::

    reading   100 maps      400 maps         200 open maps    arena 100 maps  all 1600 games
    ties      78-58-64 .28  289-231-280 .74  143-122-135 .68  81-57-62 .13    591-468-541 .15
    front     60-52-88 .026 242-207-351 9e-6 107-113-180 2e-5 47-50-103 6e-6  456-422-722 9e-15
    no_stay   72-54-74 .93  268-234-298 .22  134-112-154 .26  44-63-93 3e-5   518-463-619 .003
    n_only    66-62-72 .67  280-232-288 .77  159-99-142 .36   64-70-66 .93    569-463-568 1

So the defaults stay: the travelling battlefront plays clearly better, the
option to stay better too (every run leans that way; clear in the arena and
over all games), and ties and the edge count make no difference 1600 games
can see.  (A13 likewise: 74-54-72 against plain A12, p = 0.93,
``benchmarks/chambers_a13.py``.)

Two layers, as everywhere in tronlab: compiled kernels that take the flat grid,
heads and one :class:`ChamberScratch` and never allocate (steps 2-6 in
:mod:`tronlab.tron.chamber_build`; step 7 and the score here:
:func:`chamber_values_kernel`, :func:`chamber_counts_kernel`,
:func:`chamber_score_kernel`, meant to be called from search), and the
friendly :func:`chamber_tree` / :func:`chamber_score` that take a
:class:`~tronlab.tron.board.Board`.  Like
:func:`~tronlab.grid.voronoi.territory_kernel`, the counts kernel returns
``(n0, n1, e0, e1)``: both sizes, then both edge counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..grid import guards
from . import search_guards
from ..grid.voronoi import territory_kernel
from ..jit.kernels import KernelTable, kernel
from .values import is_real
from .board import check_board, check_head
from .chamber_build import (GATE, HEAD, KIND_NAMES, ROOM, ChamberScratch,  # noqa: F401
                            LITERAL_FRONT, LITERAL_N_ONLY, LITERAL_NAMES, LITERAL_NO_STAY,
                            LITERAL_TIES, _F_FRONT, _F_N_ONLY, _F_NO_STAY, _F_PENALIZE, _F_TIES,
                            chamber_flags, chamber_tree_kernel, literal_bits, new_scratch)

K1_DEFAULT = 0.055
K2_DEFAULT = 0.194

# ---------------------------------------------------------------------------
# kernels: step 7 and the score
# ---------------------------------------------------------------------------
@kernel(sig="UniTuple(i4, 2)(i8, f8, f8, i8, ChamberScratch)", guard=search_guards.chamber_values)
def chamber_values_kernel(count, k1, k2, flags, cs):
    """Step 7: the value ``(cs.val_n, cs.val_e)`` of every chamber, whether its
    best line is a battlefront line (``cs.val_front``) and the child it goes on
    to (``cs.choice``, -1 = stay).  ``flags`` (int64) is the word of
    :func:`chamber_flags`: A13 and the literal readings.  Children have larger
    ids than their parent, so one pass from the last chamber to the first sees
    every child before its parent.  Returns the value of chamber 0 as ``(N, E)``.
    """
    ch_n, ch_e, val_n, val_e, choice = cs.ch_n, cs.ch_e, cs.val_n, cs.val_e, cs.choice
    w1, w2 = (1.0, 0.0) if flags & _F_N_ONLY else (k1, k2)
    for c in range(count):
        val_n[c] = ch_n[c]
        val_e[c] = ch_e[c]
        cs.val_front[c] = cs.ch_front[c]
        choice[c] = -1
    for c in range(count - 1, 0, -1):
        p = cs.ch_parent[c]
        front = cs.ch_front[c] if flags & _F_FRONT else cs.val_front[c]
        if front != 0:
            n = cs.ch_step_n[c] + val_n[c]
            e = cs.ch_step_e[c] + val_e[c]
            if flags & _F_PENALIZE:
                n -= ch_n[p] - cs.ch_step_n[c]
                e -= ch_e[p] - cs.ch_step_e[c]
        else:
            n = ch_n[p] + val_n[c]
            e = ch_e[p] + val_e[c]
        score = w1 * n + w2 * e
        best = w1 * val_n[p] + w2 * val_e[p]
        # children come in descending id: on a tie a later (lower) child
        # replaces an earlier one, but never the "stay" option - unless
        # staying is no option (literal), then the first child replaces it
        if (score > best or (score == best and choice[p] >= 0)
                or (choice[p] < 0 and (flags & _F_NO_STAY) != 0)):
            val_n[p] = n
            val_e[p] = e
            cs.val_front[p] = 1 if (cs.ch_front[p] != 0 or cs.val_front[c] != 0) else 0
            choice[p] = c
    return val_n[0], val_e[0]


@kernel(sig="UniTuple(i8, 4)(u1[::1], i8, i8, i8, f8, f8, i8, ChamberScratch)",
        guard=search_guards.chamber_counts)
def chamber_counts_kernel(flat, head0, head1, stride, k1, k2, flags, cs):
    """``(n0, n1, e0, e1)``, the order of
    :func:`~tronlab.grid.voronoi.territory_kernel`: the chamber-tree value of
    each player, for the linear form.  ``flat`` uint8[n] padded grid,
    ``head0``/``head1`` flat indices, ``stride``, weights ``k1``/``k2``
    (float64, used to compare options), ``flags`` (int64,
    :func:`chamber_flags`: A13 and the literal readings), ``cs`` a
    :class:`ChamberScratch`.  No allocation: callable millions of times from a
    compiled search.
    """
    territory_kernel(flat, head0, head1, stride, cs.dist, cs.owner, cs.queue)
    for i in range(flat.size):
        if cs.dist[i] < 0:
            cs.owner[i] = 255
    n0 = e0 = n1 = e1 = 0
    for who in range(2):                  # the same scratch serves both trees in turn
        head = head0 if who == 0 else head1
        count = chamber_tree_kernel(flat, np.int64(head), np.int64(who), stride,
                                    (flags & _F_TIES) != 0, cs)
        n, e = chamber_values_kernel(count, k1, k2, flags, cs)
        if who == 0:
            n0, e0 = n, e
        else:
            n1, e1 = n, e
    return n0, n1, e0, e1


@kernel(sig="f8(u1[::1], i8, i8, i8, f8, f8, i8, ChamberScratch)",
        guard=search_guards.chamber_counts)
def chamber_score_kernel(flat, head0, head1, stride, k1, k2, flags, cs):
    """a1k0n's linear form on the chamber values, for the player at ``head0``:
    ``k1 * (n0 - n1) + k2 * (e0 - e1)`` (float64).  Same arguments as
    :func:`chamber_counts_kernel`."""
    n0, n1, e0, e1 = chamber_counts_kernel(flat, head0, head1, stride, k1, k2, flags, cs)
    return k1 * (n0 - n1) + k2 * (e0 - e1)


# ---------------------------------------------------------------------------
# friendly wrappers
# ---------------------------------------------------------------------------
class ChamberScore(NamedTuple):
    """Chamber-tree values of a player and its opponent and the linear score,
    in the order of :class:`~tronlab.grid.voronoi.Territory`: sizes, then edges."""
    n_me: int
    n_opp: int
    e_me: int
    e_opp: int
    score: float


@dataclass(frozen=True, eq=False)
class ChamberTree:
    """One player's chamber tree, for notebooks and pictures.

    Per square (shaped like ``board.cells``): ``chamber_of`` (chamber id, -1
    for none), ``cut_mask`` (the gates), ``owner`` (0 the player, 1 the
    opponent, 2 neutral, 255 nobody).  Per chamber (arrays indexed by id,
    chamber 0 is the head): ``parent`` (-1 for the head), ``entrance`` (flat
    square where it is entered), ``kind`` (``"head"``, ``"gate"``, ``"room"``),
    ``size`` and ``edges`` (N and E of its own squares), ``touches_front``,
    ``step`` (N, E spent in the parent on the way in), ``value`` (N, E of the
    best line from here), ``battlefront`` (that line is a battlefront line) and
    ``choice`` (the child it goes on to, -1 = stays).  ``path`` lists the
    chambers of the chosen line from the head; ``n``, ``e`` are its value.
    """
    player: int
    opponent: int
    chamber_of: np.ndarray
    cut_mask: np.ndarray
    owner: np.ndarray
    parent: np.ndarray
    entrance: np.ndarray
    kind: tuple
    size: np.ndarray
    edges: np.ndarray
    touches_front: np.ndarray
    step: np.ndarray
    value: np.ndarray
    battlefront: np.ndarray
    choice: np.ndarray
    path: tuple
    n: int
    e: int

    def __len__(self) -> int:
        return len(self.parent)

    @property
    def links(self) -> list:
        """Tree edges ``(parent, child, via)``: ``via`` is the flat index of the
        cut vertex crossed (the child's entrance when the child is a gate, the
        parent's when a room hangs off a gate) or -1 for children of the head."""
        out = []
        for c in range(1, len(self)):
            p = int(self.parent[c])
            if self.kind[c] == "gate":
                via = int(self.entrance[c])
            elif self.kind[p] == "gate":
                via = int(self.entrance[p])
            else:
                via = -1
            out.append((p, c, via))
        return out

    def children(self, chamber: int) -> list:
        return [int(c) for c in np.flatnonzero(self.parent == chamber)]

    def table(self) -> str:
        """A plain-text table of the chambers (id, kind, parent, N, E, front, value)."""
        rows = ["  id kind parent    N    E front  step     value  line"]
        for c in range(len(self)):
            rows.append(f"{c:4d} {self.kind[c]:>4} {int(self.parent[c]):6d} {int(self.size[c]):4d} "
                        f"{int(self.edges[c]):4d} {'yes' if self.touches_front[c] else 'no':>5} "
                        f"{int(self.step[c, 0]):2d},{int(self.step[c, 1]):3d} "
                        f"{int(self.value[c, 0]):4d},{int(self.value[c, 1]):4d}  "
                        f"{'front' if self.battlefront[c] else 'quiet'}"
                        + (" *" if c in self.path else ""))
        return "\n".join(rows)


def _check(board, player, opponent):
    check_board(board)
    check_head(board, player)
    if opponent is not None:
        check_head(board, opponent, "opponent")
    if opponent is None:
        if board.n_players != 2:
            raise ValueError(f"a {board.n_players}-player board: say which opponent "
                             "(chamber trees compare two players)")
        opponent = 1 - int(player)
    if int(opponent) == int(player):
        raise ValueError(f"player and opponent must differ, got {player} twice")
    return int(player), int(opponent)


def _weights(k1, k2):
    for name, value in (("k1", k1), ("k2", k2)):
        if not is_real(value):
            raise TypeError(f"{name} must be a number, got {type(value).__name__}")
        if not np.isfinite(float(value)) or value < 0:
            raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    if k1 == 0 and k2 == 0:
        raise ValueError("k1 and k2 are both 0: every line would be worth nothing")
    return float(k1), float(k2)


def _scratch(board, scratch):
    return guards.scratch(scratch, board.flat.size, new_scratch, "chambers.new_scratch")


def chamber_score(board, player=0, *, opponent=None, k1=K1_DEFAULT, k2=K2_DEFAULT,
                  penalize_battlefront=False, literal=0, scratch=None) -> ChamberScore:
    """Chamber-tree values ``(N, E)`` of ``player`` and ``opponent`` and the
    score ``k1*(N_me - N_opp) + k2*(E_me - E_opp)`` (see the module docstring).
    ``literal`` switches choices back to the write-up's literal reading
    (:func:`literal_bits`; 0, the default, is the package's A12).

    >>> from tronlab import Board
    >>> chamber_score(Board.from_ascii('''
    ...     ...#...
    ...     .1.....
    ...     ...#.2.
    ... '''))
    ChamberScore(n_me=7, n_opp=6, e_me=14, e_opp=14, score=0.055)
    """
    me, opp = _check(board, player, opponent)
    k1, k2 = _weights(k1, k2)
    flags = chamber_flags(penalize_battlefront, literal)
    s = _scratch(board, scratch)
    n0, n1, e0, e1 = chamber_counts_kernel(board.flat, board.heads[me], board.heads[opp],
                                           np.int64(board.stride), k1, k2,
                                           np.int64(flags), s)
    n0, e0, n1, e1 = int(n0), int(e0), int(n1), int(e1)
    return ChamberScore(n0, n1, e0, e1, round(k1 * (n0 - n1) + k2 * (e0 - e1), 12))


def chamber_tree(board, player=0, *, opponent=None, k1=K1_DEFAULT, k2=K2_DEFAULT,
                 penalize_battlefront=False, literal=0) -> ChamberTree:
    """The whole chamber tree of ``player`` against ``opponent`` (A12; A13 with
    ``penalize_battlefront=True``), built by the same kernels as
    :func:`chamber_score` (``literal`` as there)."""
    me, opp = _check(board, player, opponent)
    k1, k2 = _weights(k1, k2)
    flags = chamber_flags(penalize_battlefront, literal)
    s = new_scratch(board.flat.size)
    flat, stride = board.flat, np.int64(board.stride)
    territory_kernel(flat, board.heads[me], board.heads[opp], stride, s.dist, s.owner, s.queue)
    s.owner[s.dist < 0] = 255
    count = chamber_tree_kernel(flat, np.int64(board.heads[me]), np.int64(0), stride,
                                (flags & _F_TIES) != 0, s)
    n, e = chamber_values_kernel(count, k1, k2, np.int64(flags), s)
    path = [0]
    while s.choice[path[-1]] >= 0:
        path.append(int(s.choice[path[-1]]))
    shape = board.cells.shape
    return ChamberTree(
        player=me, opponent=opp,
        chamber_of=s.chamber_of.reshape(shape).copy(),
        cut_mask=s.is_cut.reshape(shape).astype(bool),
        owner=s.owner.reshape(shape).copy(),
        parent=s.ch_parent[:count].copy(),
        entrance=s.ch_entrance[:count].astype(np.int64),
        kind=tuple(KIND_NAMES[k] for k in s.ch_kind[:count]),
        size=s.ch_n[:count].copy(), edges=s.ch_e[:count].copy(),
        touches_front=s.ch_front[:count].astype(bool),
        step=np.stack([s.ch_step_n[:count], s.ch_step_e[:count]], axis=1),
        value=np.stack([s.val_n[:count], s.val_e[:count]], axis=1),
        battlefront=s.val_front[:count].astype(bool),
        choice=s.choice[:count].copy(),
        path=tuple(path), n=int(n), e=int(e))


# the kernels compile on first use; Python calls prefer ahead-of-time twins
_kernels = KernelTable(globals())
