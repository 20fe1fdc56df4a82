"""The tiny grids of exercise B2 (:mod:`tronlab.course.ex_capture`): each isolates one
part of the rule of :func:`tronlab.capture.bots.nearest_target` (distance, clusters,
which neighbours count, ties, the own square, the late-game filter, an eliminated player,
nothing neutral), so that a learner's target that differs there names the part that is
off."""

__all__ = ["TINY_GRIDS"]

#: tiny grids, each isolating one part of the rule: (label, grid, player, options)
TINY_GRIDS = [
    ("the nearest square", """
        0000000
        00A0...
        0000000
        .000000
     """, 0, {"positions": {1: (6, 3)}}),
    # (4, 0) is 3 across and 3 up: max(|dx|, |dy|) = 3, but 6 moves; (5, 3) is 4 moves
    # (the straight line, 4 against 4.24, agrees with Manhattan here, not on the next grid)
    ("Manhattan distance, not the larger of |dx| and |dy|", """
        0000.00
        0000000
        0000000
        0A000.0
        0000000
     """, 0, {"positions": {1: (0, 4)}}),
    ("Manhattan distance: steps along x and y", """
        000000
        0A00..
        000000
        000..0
        000000
     """, 0, {"positions": {1: (0, 4)}}),
    ("a cluster is worth a longer walk", """
        0000000
        0A.0...
        0000000
        0000000
     """, 0, {"positions": {1: (0, 3)}}),
    ("a lone square close by beats a cluster far away", """
        00000000
        A.000000
        00000000
        00000...
        00000...
     """, 0, {"positions": {1: (7, 0)}}),
    # (1, 0) is lone; (3, 1) and (4, 2) touch only diagonally, so they are lone too
    ("neighbours are the four squares beside, not the diagonal ones", """
        0.00000
        0A0.000
        0000.00
        0000000
        0..0000
     """, 0, {"positions": {1: (6, 4)}}),
    # all on one row, so every metric counts the same distance: only the tie-break differs
    ("equal cost: the shorter distance", """
        00000000
        0A0.00..
        00000000
        00000000
     """, 0, {"positions": {1: (0, 3)}}),
    ("equal cost and distance: more neutral neighbours", """
        000..00
        0000000
        000A000
        0000000
        00...00
     """, 0, {"positions": {1: (0, 4)}}),
    ("a full tie: the first square in reading order", """
        000.000
        0000000
        0.0A0.0
        0000000
        000.000
     """, 0, {"positions": {1: (0, 4)}}),
    ("never the square you stand on", """
        00000
        00..0
        00000
        0....
     """, 0, {"positions": {0: (2, 1), 1: (2, 1)}}),
    ("late in the game: leave squares nearer the opponent", """
        000000000
        ...0A000.
        000000000
        000000000
     """, 0, {"positions": {1: (2, 2)}}),
    ("late: a square as near to both is kept", """
        00000000
        0A0.0000
        00000000
        .0000000
     """, 0, {"positions": {1: (5, 1)}}),
    ("late: every square nearer the opponent - keep them all", """
        000000000
        0A00000..
        000000000
        000000000
     """, 0, {"positions": {1: (8, 3)}}),
    ("late already at exactly half the grid neutral", """
        0A0.b.
        .000..
     """, 0, {}),
    # the one nearest square, straight up, has the opponent on it: no tie-break decides
    ("early in the game the opponent does not matter", """
        .........
        .000A000.
        000000000
        .........
     """, 0, {"positions": {1: (4, 0)}}),
    ("late: an eliminated player stands nowhere", """
        000000
        0A0..0
        000000
        222222
     """, 0, {"positions": {1: (5, 0)}, "eliminated": (2,)}),
    ("nothing neutral: stay", """
        0000
        0A00
        0011
        001B
     """, 0, {}),
]
