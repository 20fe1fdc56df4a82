"""Exercise of notebook 04, search (A5): negamax with alpha-beta on a :class:`TurnGame`,
checked against plain minimax for the value and by counting nodes for the pruning."""

from __future__ import annotations

import numpy as np

from ..runner.reprs import safe_repr
from ..tron.board import MOVE_NAMES, Board
from ..tron.values import is_whole
from .answers import as_count, as_move, reject_text, reject_unordered
from .boards import TINY_SEARCH, random_cases, tiny_cases
from .checker import Case, Exercise, Failure, WrongType
from .game import INF, TurnGame


#: boards with at most this many free squares are searched to the end of the game to
#: recognise a search that never lowers its depth (a bigger tree would take too long)
FULL_TREE_FREE = 12


def minimax(game: TurnGame, depth: int, *, stuck=None, leaf: int = 1) -> int:
    """Plain negamax without pruning, the same rules as the exercise (the oracle).
    ``stuck`` and ``leaf`` make two typical mistakes for the hints: a side with no
    move worth ``stuck`` instead of ``game.LOSS``, the leaf score times ``leaf``."""
    if depth == 0:
        return leaf * game.score()
    best = None
    for move in game.moves():
        game.play(move)
        value = -minimax(game, depth - 1, stuck=stuck, leaf=leaf)
        game.undo()
        best = value if best is None else max(best, value)
    if best is None:
        return game.LOSS if stuck is None else stuck
    return best


def alphabeta(game: TurnGame, depth: int, alpha: int, beta: int, *, swap: bool = False) -> int:
    """Fail-soft alpha-beta on the same rules (for the expected node count).  ``swap=True``
    is the mistake of giving the child the window ``(-alpha, -beta)``."""
    if depth == 0:
        return game.score()
    best = None
    for move in game.moves():
        game.play(move)
        if swap:
            value = -alphabeta(game, depth - 1, -alpha, -beta, swap=True)
        else:
            value = -alphabeta(game, depth - 1, -beta, -alpha)
        game.undo()
        if best is None or value > best:
            best = value
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return game.LOSS if best is None else best


def search_counts(board: Board, depth: int, search) -> tuple[int, int]:
    """(value, nodes) of ``search(game, depth, ...)`` from player 0 on ``board``."""
    game = TurnGame(board)
    value = search(game, depth) if search is minimax else search(game, depth, -INF, INF)
    return value, game.nodes


#: a board where player 0, to move first, has no legal move
BOXED_IN = """
    #1#
    .#.
    ..2
"""


class Negamax(Exercise):
    function = "negamax"
    parameters = ("game", "depth", "alpha", "beta")
    returns = "a pair (value, move)"
    hint = ("at depth 0 return game.score(); otherwise try each move: play it, value = "
            "-negamax(game, depth - 1, -beta, -alpha), undo it; keep the best; raise alpha; stop "
            "when alpha >= beta; with no move at all return game.LOSS")

    def __init__(self):
        self._pruned = 0
        self._could_prune = 0

    def cases(self):
        self._pruned = self._could_prune = 0
        warm = TurnGame(Board.from_ascii("1.2"))
        warm.score()        # compile (or load) the territory kernel now, not on the learner's clock
        out = []
        for c in tiny_cases(TINY_SEARCH):
            for depth in (1, 2, 3, 4):
                out.append(Case(f"{c.label}, depth {depth}", c.board, (depth,)))
        # player 0 cannot move at all: the answer is (game.LOSS, None)
        out.append(Case("tiny: boxed in, depth 2", Board.from_ascii(BOXED_IN), (2,)))
        rng = np.random.default_rng(104)
        for c in random_cases(104, 24, sizes=((3, 2), (5, 4)), density=(0.0, 0.3), trail=(0, 2),
                              keep=lambda b: bool(b.legal_moves(0))):
            depth = int(rng.integers(1, 6))
            out.append(Case(f"{c.label}, depth {depth}", c.board, (depth,)))
        return out

    def describe_case(self, case):
        return f"negamax(TurnGame(board), {case.args[0]}, -INF, INF)"

    def call(self, student, case, context):
        game = TurnGame(context["board"])
        context["game"] = game
        context["check_board"] = False
        return student(game, case.args[0], -INF, INF)

    def convert(self, value, case):
        reject_text(value, "a pair (value, move)")
        reject_unordered(value, "the pair (value, move)")
        if isinstance(value, (int, np.integer, float)):
            raise WrongType("return a pair (value, move): the best value and the move that gets "
                            "it (None when there is no move to make)")
        try:
            items = list(value)
        except TypeError:
            raise WrongType(f"return a pair (value, move), not a {type(value).__name__}") from None
        if len(items) != 2:
            raise WrongType(f"return a pair (value, move), not {len(items)} values")
        val = as_count(items[0], "the value", many="the pair is (value, move), the value alone "
                       "first", whole="scores are whole numbers, so start the best value from "
                       "None or game.LOSS, not float('-inf')")
        move = items[1]
        if move is not None:
            try:
                move = as_move(move)
            except WrongType:
                if is_whole(items[0]) and 0 <= items[0] <= 3 and is_whole(move):
                    raise WrongType(f"return the pair in the order (value, move): yours looks "
                                    f"like (move, value), {safe_repr(value, 40)}") from None
                raise
        return val, move

    def crash_hint(self, case, err):
        if isinstance(err, TypeError) and "unary -" in str(err) and "tuple" in str(err):
            return ("negamax returns a pair (value, move), and a pair cannot be negated: take "
                    "the child's value out of it, value = -negamax(game, depth - 1, -beta, "
                    "-alpha)[0]")
        return None

    def judge(self, case, got, context):
        b, depth = case.board, case.args[0]
        game = context["game"]
        if game.depth_played:
            return Failure("the game back where it started", f"{game.depth_played} move(s) not "
                           f"taken back", "every game.play(move) needs a game.undo() after the "
                           "child's value is known, also before a cut-off `break`")
        if not np.array_equal(game.board.cells, b.cells):
            return Failure("the game's board as it was", "game.board changed, with no move "
                           "left to take back", "change the game only with game.play(move) and "
                           "game.undo(), never by writing into game.board")
        want, full_nodes = search_counts(b, depth, minimax)
        _, ab_nodes = search_counts(b, depth, alphabeta)
        value, move = got
        legal = TurnGame(b).moves()
        if value != want and move == want and value in legal:
            return Failure(f"(value, move) = ({want}, ...)", f"({value}, {move})",
                           "the pair comes in the order (value, move): yours looks like "
                           "(move, value)")
        if value != want:
            return Failure(f"value {want}", f"value {value}",
                           self._why_value(b, depth, value, want))
        if not legal and move is not None:
            return Failure("move None (player 0 has no legal move here)",
                           f"move {move} ({MOVE_NAMES[move]})",
                           "with no legal move there is nothing to play: return (game.LOSS, None), "
                           "as the exercise asks, so that a caller can tell")
        if legal:
            if move not in legal:
                shown = "None" if move is None else f"{move} ({MOVE_NAMES[move]})"
                why = "return the move whose value is the best (a legal move of the root)"
                if move is None and value == TurnGame.LOSS:
                    why = ("every move loses here (each is worth game.LOSS), but player 0 can "
                           "still move and must say which: start the best value from None "
                           "(or below game.LOSS), so that the first move is always kept")
                return Failure(f"one of the moves {legal}", shown, why)
            child = TurnGame(b)
            child.play(move)
            reached = -minimax(child, depth - 1)
            if reached != value:
                return Failure(f"a move worth {value}", f"{move} ({MOVE_NAMES[move]}), worth "
                               f"{reached}", "remember the move together with the best value, "
                               "updating both only when a child is strictly better")
        if game.nodes > full_nodes:
            return Failure(f"at most {full_nodes} nodes (plain minimax)", f"{game.nodes} nodes",
                           "you visit more positions than minimax: play each move once per node, "
                           "and at depth 0 return game.score() without playing a move (a depth-d "
                           "search plays at most d moves along each line)")
        if ab_nodes < full_nodes:
            self._could_prune += 1
            if game.nodes < full_nodes:
                self._pruned += 1
        return None

    def finish(self, checked):
        if self._could_prune and not self._pruned:
            return Failure(f"fewer nodes than plain minimax on some of the {self._could_prune} "
                           f"boards where alpha-beta can cut", "as many nodes as plain minimax on "
                           "every board: nothing was pruned",
                           "pass (-beta, -alpha) to the child, raise alpha to the best value so "
                           "far, and break out of the loop when alpha >= beta")
        return None

    def _why_value(self, b, depth, value, want):
        negate = ("a child's value is seen from the opponent's side: negate it, "
                  "value = -negamax(game, depth - 1, -beta, -alpha)")
        if value == minimax(TurnGame(b), depth, stuck=-TurnGame.LOSS):
            # on a board where both give this value, a missing negation is named too
            return (f"a side with no legal move has lost, and negamax scores it for that side "
                    f"itself: return game.LOSS ({TurnGame.LOSS}), not -game.LOSS; the parent "
                    f"negates it into a win for the side that moved"
                    + (f". If yours does, then {negate}" if value == -want else ""))
        if value == -want:
            return negate
        if value == _stuck_first(TurnGame(b), depth):
            return ("the horizon comes first: at depth 0 return game.score() even if the side to "
                    "move has no move (a stuck side is found one ply deeper)")
        if value == minimax(TurnGame(b), depth, stuck=0):
            return ("a side with no legal move has lost: return game.LOSS for it, not 0 (check "
                    "the depth first, then whether there is any move)")
        if value == minimax(TurnGame(b), depth, leaf=-1):
            return ("at depth 0 return game.score() as it is: it is already the value for the "
                    "side to move there, and the parent negates it")
        for d in (depth - 1, depth + 1):
            if d >= 0 and value == search_counts(b, d, minimax)[0]:
                return f"off by one in depth: that is the value of a depth-{d} search"
        if b.free_count() <= FULL_TREE_FREE and value == minimax(TurnGame(b), b.free_count() + 2):
            return ("your search never stops at the horizon: it went on to the end of the game. "
                    "Pass depth - 1 to each child, so that depth 0 is reached")
        if value == alphabeta(TurnGame(b), depth, -INF, INF, swap=True):
            return ("the child's window is (-beta, -alpha): both negated and swapped, because "
                    "what is good for one side is bad for the other")
        return ("compare with plain minimax (no pruning) on this board; if that is right, check "
                "the window: the child gets (-beta, -alpha)")


def _stuck_first(game, depth):
    moves = game.moves()
    if not moves:
        return game.LOSS
    if depth == 0:
        return game.score()
    best = None
    for move in moves:
        game.play(move)
        v = -_stuck_first(game, depth - 1)
        game.undo()
        best = v if best is None else max(best, v)
    return best

