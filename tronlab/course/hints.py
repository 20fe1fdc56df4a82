"""``hint("territory")``: help on an exercise before a wrong answer, one step at a time.

Each exercise function has three hints, from a nudge to nearly the plan: ``hint(name)``
gives the first, ``hint(name, 2)`` the second, and so on.  ``name`` is the function's name
(or the function itself).  The checkers' own hints, which name the mistake they recognise,
come with a wrong answer; these come on request.
"""

from __future__ import annotations

from ..tron.values import is_whole

__all__ = ["hint", "HINTS", "Hint"]

#: function -> hints, gentlest first
HINTS = {
    "greedy_move": (
        "Try each legal move on its own and ask how much room it leaves you.",
        "Room is not the number of free squares but the longest path the parity bound "
        "allows behind the target square; on equal room, prefer a move that keeps your "
        "region in one piece, then the square with the fewest free neighbours (hug walls).",
        "For each legal move compute the key (1 + best parity bound behind the target, "
        "region stays whole, -free neighbours) and return a move with the largest key; any "
        "of several tied moves passes. With no legal move at all, return 0.",
    ),
    "fill_bound": (
        "Colour the squares like a chessboard: each move goes to the other colour.",
        "Count the free squares of each colour that the head can reach; a path alternates "
        "colours, so it can use at most one more of one colour than of the other.",
        "Flood from the head, count reachable free squares per colour (x + y even or odd), "
        "and bound the path by twice the smaller count, plus one if the colour the first "
        "step lands on has more.",
    ),
    "flood_fill": (
        "Start at the head and spread to free neighbours, never visiting a square twice.",
        "Keep a stack (or queue) of squares to visit and a separate 'seen' array; the head "
        "itself is not free, so do not count it.",
        "Push the head's free neighbours, pop until empty, count each newly seen free square "
        "and push its unseen free neighbours: the count is the answer.",
    ),
    "components": (
        "A component is everything one flood fill reaches.",
        "Go over every square; when you meet a free square with no label yet, start a new "
        "label and flood from it.",
        "An int array shaped like board.cells, 0 everywhere; for each unlabelled free square "
        "run a stack-based fill writing the next label (1, 2, ...); blocked squares keep 0. "
        "Any numbering passes as long as the regions are right.",
    ),
    "bfs_distances": (
        "Breadth-first search visits squares in order of distance from the head.",
        "Use a queue (collections.deque): the head has distance 0, each free neighbour of a "
        "square at distance d gets d + 1 the first time it is reached.",
        "Fill an array with -1, set the head to 0, pop from the left, push to the right; only "
        "free squares are entered, so blocked squares stay -1 (the head keeps 0).",
    ),
    "territory": (
        "A square belongs to whoever reaches it first.",
        "Compute each player's distances from their head (bfs_distances), then compare them "
        "square by square.",
        "For every free square reachable by someone: strictly nearer to player 0 counts for "
        "0, strictly nearer to player 1 for 1, a tie for nobody; unreachable for one player "
        "means the other is nearer. Heads are not counted.",
    ),
    "turn_order_territory": (
        "With turns, a tie is not a tie: the player who moves first gets there first.",
        "Let every player grow one layer of squares per round, in turn order starting "
        "with player 'first'; a square is claimed by whoever reaches it first.",
        "Keep one frontier per player; each round, each player in turn (first, first + 1, "
        "...) claims the unclaimed free neighbours of its frontier, which become its next "
        "frontier; stop when no frontier grows and return one count per player.",
    ),
    "negamax": (
        "The value of a position for the player to move is minus the best value for the "
        "opponent after your move.",
        "At depth 0 return game.score(), with no legal move game.LOSS; otherwise try every "
        "move with game.play(move), recurse with (-beta, -alpha), negate, and undo.",
        "Keep the best value and move, changing them only on a strictly better value; raise "
        "alpha to the best value; stop trying moves once alpha >= beta (a cut-off). Every "
        "game.play needs a game.undo before you return.",
    ),
    "articulation_points": (
        "A cut square is one whose removal splits its region in two.",
        "Number squares in depth-first order (disc) and compute low: the smallest disc "
        "reachable from the subtree by one back edge.",
        "A non-root square u is a cut when some child v has low[v] >= disc[u]; the DFS root "
        "is a cut only with two or more children. Use an explicit stack, only up/right/"
        "down/left neighbours, and only free squares.",
    ),
    "separation_sample": (
        "Find the first board of record.boards() on which both players are alive and can no "
        "longer reach each other (none: return None).",
        "On that board compute the features (differences of reachable squares and of "
        "edges, player 0 minus player 1) and count how many moves each player made after it.",
        "The fatal move is not a move made: do not count it. The survivor's remaining moves "
        "are estimated by fill_length on the final board.",
    ),
    "fit_weights": (
        "Each game gives one equation: k1 * dn + k2 * de should equal the move difference.",
        "Collect the samples (skip games with no separation) into a matrix with two columns "
        "and a vector of move differences.",
        "Solve the least-squares problem without an intercept (numpy.linalg.lstsq) and return "
        "(k1, k2); with no samples at all there is nothing to solve: return None.",
    ),
    "solve_game": (
        "Look for a saddle point first: an entry that is the smallest of its row and the "
        "largest of its column. Then neither player mixes, and that entry is the value.",
        "A 2x2 game without a saddle point: the row player mixes p, 1 - p so that the column "
        "player gains nothing by picking either column, p*a + (1-p)*c = p*b + (1-p)*d for "
        "payoff [[a, b], [c, d]]; solve for p, and the value is what either column then pays.",
        "Whatever you compute, the strategy must guarantee the value: row_strategy @ payoff is "
        "at least the value in every column, and the probabilities are >= 0 and add up to 1. "
        "For 3x3, drop dominated rows and columns, guess which lines are used, solve the "
        "indifference equations on them and keep the guess that passes that test.",
    ),
    "nearest_target": (
        "List the neutral squares and walk to the closest one: the distance is the number of "
        "moves, |dx| + |dy|.",
        "Leave out the square you stand on; once at most half the grid is neutral, also leave "
        "out squares strictly nearer an active opponent (unless nothing is left); a neutral "
        "square without a neutral orthogonal neighbour costs 3 more.",
        "Sort the candidates by (cost, distance, -neutral neighbours, y, x) and take the first; "
        "with no neutral square at all, return where you stand.",
    ),
    "score_rectangle": (
        "A rectangle is worth what it brings per turn: its neutral squares over the turns "
        "needed to walk its border, then a few multipliers applied one after another.",
        "For the turns, try every border square as the start and both directions: the walk is "
        "as long as the farthest border square not yet yours, counted along the cycle "
        "(border_cycle) from the start; the approach counts twice, then add the closing turn "
        "and CONSTANT[n].",
        "Zero when an opponent owns any square of it (border included) or none is neutral; "
        "points = min(neutral, needed); score = points "
        "/ turns (thin: 1 / (1 + d to the upper-left corner) / turns); then x 2 win bonus, / 2 "
        "size, x 2 middle column (2 players), x 1.1 edge (3-4 players), / 2 per opponent "
        "nearer than 2.",
    ),
}


class Hint:
    """One hint, shown as text (and as a short block in a notebook)."""

    def __init__(self, name: str, level: int, text: str):
        self.name, self.level, self.text = name, level, text
        self.total = len(HINTS[name])

    def __repr__(self) -> str:
        more = (f" (hint({self.name!r}, {self.level + 1}) for the next)"
                if self.level < self.total else " (that was the last one)")
        return f"Hint {self.level} of {self.total} for {self.name}: {self.text}{more}"

    def _repr_html_(self) -> str:
        import html
        return (f"<div style='border-left:4px solid #0969da;padding:0.2em 0.8em'>"
                f"{html.escape(repr(self))}</div>")


def hint(exercise, level: int = 1) -> Hint:
    """Hint number ``level`` (1 = gentlest) for the exercise function ``exercise``
    (its name, or the function itself)."""
    name = getattr(exercise, "__name__", exercise)
    if not isinstance(name, str):
        raise TypeError(f"hint needs the name of an exercise function (a str), got "
                        f"{type(exercise).__name__}")
    if name not in HINTS:
        raise ValueError(f"no exercise called {name!r}; exercises: {', '.join(sorted(HINTS))}")
    total = len(HINTS[name])
    if not is_whole(level):
        raise TypeError(f"{name} has hints 1 to {total}: the level is an int, got "
                        f"{type(level).__name__} {level!r}")
    if not 1 <= level <= total:
        raise ValueError(f"{name} has hints 1 to {total}, got level {level!r}")
    return Hint(name, int(level), HINTS[name][level - 1])
