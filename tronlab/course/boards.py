"""The boards each exercise checker runs: tiny hand-made ones first, then seeded random ones.

Tiny boards come first because a failure on a 5x3 board is easy to follow by hand; each
one is there to catch a particular mistake (a wall touching a head only diagonally, a tie
square, a dead end...).  Random boards follow, from :func:`random_board` with fixed
seeds, so that every learner sees the same boards in the same order.

The random generator is plain numpy on purpose (not hypothesis): a checker must be
deterministic and fast, and must not depend on test-only packages.
"""

from __future__ import annotations

import numpy as np

from ..tron.board import FREE, TRAIL, WALL, Board
from .checker import Case

# ---------------------------------------------------------------------------
# tiny boards, as ASCII; each name says what it is there for
# ---------------------------------------------------------------------------
TINY = {
    "a bit of everything": """
        .2.1a..
        .b.#...
        ##.####
    """,
    "ties and trails": """
        ..2b#.
        ...1..
        ...aa#
        ..#.#.
    """,
    "corridor": """
        #######
        #1...2#
        #######
    """,
    "open room": """
        1....
        .....
        ....2
    """,
    "diagonal gap": """
        1.#..
        ##...
        ...#2
    """,
    "walled in": """
        #.###
        #1#..
        ###.2
    """,
    "two rooms": """
        ..#...
        1.#..2
        ..#...
    """,
    "tie line": """
        1...
        ....
        ...2
    """,
    "dead end": """
        ####...
        1......
        ####..2
    """,
    "trails": """
        aa1....
        .......
        ....2bb
    """,
    "pocket": """
        .1.#.
        .###.
        .....
        ##.##
        ...2.
    """,
    "no wall border": """
        ..1..
        .#.#.
        ..2..
    """,
}

#: three- and four-player boards for the multi-player exercises
TINY_MULTI = {
    "three in a row": """
        1.....
        ...2..
        .....3
    """,
    "four corners": """
        1...2
        .....
        .....
        3...4
    """,
    "crowded": """
        1.2
        ...
        3.4
    """,
    "one dead": """
        1....
        .#.#.
        ....B
        3....
    """,
    "three tied": """
        ..1..
        .....
        2...3
    """,
}

#: a trail above its head, in a pocket of its own: the first square holding 2 (reading order)
#: is player 0's trail, and from there a flood reaches 2 squares, not the head's 7
TINY_TRAIL_FIRST = {
    "trail before the head": """
        .#...
        .a#..
        #1..2
    """,
}

#: tiny boards for game-tree search: few squares so that full minimax is quick
TINY_SEARCH = {
    "corridor": """
        1...2
    """,
    "square": """
        1..
        ...
        ..2
    """,
    "room": """
        1...
        ....
        ...2
    """,
    "split": """
        1.#.
        ..#.
        ...2
    """,
    "nearly stuck": """
        #1#.
        ....
        ..#2
    """,
    "trap": """
        1.#..
        ..#..
        .....
        ...2.
    """,
    # player 0 has a move but no way out: from depth 3 on every line ends in game.LOSS
    "lost anyway": """
        1.#2..
    """,
}


def tiny_cases(boards: dict[str, str], *, args=()) -> list[Case]:
    """Cases from a dict of ASCII boards, labelled ``"tiny: <name>"``."""
    return [Case(f"tiny: {name}", Board.from_ascii(text), tuple(args))
            for name, text in boards.items()]


# ---------------------------------------------------------------------------
# random boards
# ---------------------------------------------------------------------------
def random_board(rng: np.random.Generator, width: int, height: int, *, players: int = 2,
                 density: float = 0.2, trail: int = 0, border: bool = False) -> Board:
    """A random board: walls with probability ``density``, ``players`` heads on distinct free
    squares, and behind each head a random-walk trail of up to ``trail`` squares.  With
    ``border=True`` the outer ring of the playing area is wall.  Pure numpy; the same
    generator state gives the same board."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if width < 1 or height < 1 or width * height < players:
        raise ValueError(f"a {width}x{height} board has no room for {players} players")
    cells = np.full((height + 2, width + 2), WALL, dtype=np.uint8)
    inner = np.where(rng.random((height, width)) < density, WALL, FREE).astype(np.uint8)
    if border and width > 2 and height > 2:
        inner[0, :] = inner[-1, :] = WALL
        inner[:, 0] = inner[:, -1] = WALL
    cells[1:-1, 1:-1] = inner
    stride = width + 2
    flat = cells.reshape(-1)
    free = np.flatnonzero(flat == FREE)
    if len(free) < players:          # too many walls: clear a few squares for the heads
        spots = rng.choice(width * height, players, replace=False)
        free = np.array([(s // width + 1) * stride + s % width + 1 for s in spots])
        flat[free] = FREE
    heads = rng.choice(free, players, replace=False).astype(np.int64)
    offsets = (-stride, 1, stride, -1)
    for p, h in enumerate(heads):
        flat[h] = TRAIL + p
    for p in range(players):
        # walk backwards from the head: the squares behind it become its trail
        at = int(heads[p])
        for _ in range(trail):
            steps = [at + o for o in offsets if flat[at + o] == FREE]
            if not steps:
                break
            at = steps[int(rng.integers(len(steps)))]
            flat[at] = TRAIL + p
    return Board(cells, heads)


def random_cases(seed: int, count: int, *, sizes=((3, 3), (12, 9)), players=(2, 2),
                 density=(0.0, 0.35), trail=(0, 6), border_every: int = 4,
                 keep=None, args=()) -> list[Case]:
    """``count`` random cases from ``seed``: width and height drawn between ``sizes[0]`` and
    ``sizes[1]``, players, density and trail length from the given ranges.  ``keep(board)``
    filters boards (e.g. "player 0 has a legal move"); rejected boards are redrawn."""
    rng = np.random.default_rng(seed)
    (w0, h0), (w1, h1) = sizes
    cases = []
    tries = 0
    while len(cases) < count:
        tries += 1
        if tries > 50 * count:
            raise RuntimeError("random_cases: the filter rejects almost every board")
        w = int(rng.integers(w0, w1 + 1))
        h = int(rng.integers(h0, h1 + 1))
        n = int(rng.integers(players[0], players[1] + 1))
        if w * h < n + 1:
            continue
        d = float(rng.uniform(*density))
        t = int(rng.integers(trail[0], trail[1] + 1))
        border = border_every > 0 and len(cases) % border_every == border_every - 1
        board = random_board(rng, w, h, players=n, density=d, trail=t, border=border)
        if keep is not None and not keep(board):
            continue
        cases.append(Case(f"random {len(cases) + 1}, seed {seed}, {w}x{h}", board, tuple(args)))
    return cases
