"""Deliberately wrong learner functions: each makes one typical mistake.

tests/test_checker.py runs the checkers on these and asserts that the mistake is caught
with the right status and hint.  They are written the way a learner might write them:
plain Python on ``board.flat`` / ``board.cells``.
"""

from collections import deque

import numpy as np

from tronlab.tron.board import FREE, WALL

STRAIGHT = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL = STRAIGHT + ((1, -1), (1, 1), (-1, 1), (-1, -1))


def _reach(board, start, steps=STRAIGHT, ok=lambda code: code == FREE):
    """Squares reachable from ``start`` as (y, x) of board.cells, the start included."""
    h, w = board.cells.shape
    sy, sx = divmod(int(start), board.stride)
    seen = {(sy, sx)}
    todo = [(sy, sx)]
    while todo:
        y, x = todo.pop()
        for dx, dy in steps:
            ny, nx = y + dy, x + dx
            if 0 <= ny < h and 0 <= nx < w and ok(board.cells[ny, nx]) and (ny, nx) not in seen:
                seen.add((ny, nx))
                todo.append((ny, nx))
    return seen


# ---- stubs -------------------------------------------------------------------
def stub_raises(board, player):
    raise NotImplementedError


def stub_pass(board, player):
    """Count the squares."""
    pass


def stub_ellipsis(board, player):
    ...


# ---- flood fill ----------------------------------------------------------------
def flood_counts_head(board, player):
    return len(_reach(board, board.heads[player]))


def flood_flat_rows_of_width(board, player):
    # board.flat walked with board.width as the row length: its rows are board.stride long
    flat, start = board.flat, int(board.heads[player])
    seen, stack = {start}, [start]
    while stack:
        sq = stack.pop()
        for nb in (sq - board.width, sq + 1, sq + board.width, sq - 1):
            if 0 <= nb < flat.size and flat[nb] == 0 and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) - 1


def flood_diagonal(board, player):
    return len(_reach(board, board.heads[player], DIAGONAL)) - 1


def flood_over_trails(board, player):
    return len(_reach(board, board.heads[player], ok=lambda code: code != WALL)) - 1


def flood_returns_list(board, player):
    return sorted(_reach(board, board.heads[player]))[1:]


def flood_returns_float(board, player):
    return float(len(_reach(board, board.heads[player])) - 1)


def flood_divides_by_zero(board, player):
    size = len(_reach(board, board.heads[player])) - 1
    average = size / (size - size)
    return int(average)


def flood_recurses_forever(board, player):
    return flood_recurses_forever(board, player) + 1


def flood_loops_forever(board, player):
    count = 0
    todo = [int(board.heads[player])]
    while todo:                      # never pops: an endless loop
        count += 1
    return count


def flood_marks_board(board, player):
    todo = [int(board.heads[player])]
    count = 0
    while todo:
        square = todo.pop()
        for step in board.offsets:
            nxt = square + int(step)
            if board.flat[nxt] == FREE:
                board.flat[nxt] = WALL       # "visited" written into the board
                count += 1
                todo.append(nxt)
    return count


def flood_missing_return(board, player):
    size = len(_reach(board, board.heads[player])) - 1
    if size > 3:
        return size


def flood_every_free_square(board, player):
    return board.free_count()


# ---- components ------------------------------------------------------------------
def _labels(board, steps=STRAIGHT):
    labels = np.zeros(board.cells.shape, dtype=int)
    label = 0
    for y, x in zip(*np.nonzero(board.cells == FREE)):
        if labels[y, x]:
            continue
        label += 1
        for sq in _reach(board, y * board.stride + x, steps):
            labels[sq] = label
    return labels


def components_right_but_renamed(board):
    labels = _labels(board)
    return np.where(labels > 0, 100 - labels, 0)        # any numbering is fine


def components_negative_labels(board):
    labels = _labels(board)
    return -labels                                      # regions -1, -2, ...: not 1, 2, ...


def components_playing_area(board):
    return _labels(board)[1:-1, 1:-1]


def components_flat(board):
    return _labels(board).reshape(-1)


def components_diagonal(board):
    return _labels(board, DIAGONAL)


def components_one_label(board):
    return (board.cells == FREE).astype(int)


def components_labels_walls(board):
    labels = _labels(board)
    labels[board.cells != FREE] = 7
    return labels


def components_bool(board):
    return board.cells == FREE


# ---- distances -----------------------------------------------------------------
def _bfs(board, player, steps=STRAIGHT, first=0, queue_kind="fifo"):
    dist = np.full(board.cells.shape, -1)
    hy, hx = divmod(int(board.heads[player]), board.stride)
    dist[hy, hx] = first
    todo = deque([(hy, hx)])
    while todo:
        y, x = todo.popleft() if queue_kind == "fifo" else todo.pop()
        for dx, dy in steps:
            ny, nx = y + dy, x + dx
            if board.cells[ny, nx] == FREE and dist[ny, nx] == -1:
                dist[ny, nx] = dist[y, x] + 1
                todo.append((ny, nx))
    return dist


def distances_off_by_one(board, player):
    dist = _bfs(board, player)
    return np.where(dist > 0, dist + 1, dist)


def distances_with_stack(board, player):
    return _bfs(board, player, queue_kind="lifo")


def distances_diagonal(board, player):
    return _bfs(board, player, DIAGONAL)


def distances_playing_area(board, player):
    return _bfs(board, player)[1:-1, 1:-1]


# ---- territory -----------------------------------------------------------------
def _split(board, tie):
    d0, d1 = _bfs(board, 0), _bfs(board, 1)
    n0 = n1 = 0
    for y, x in zip(*np.nonzero(board.cells == FREE)):
        a, b = d0[y, x], d1[y, x]
        a = a if a >= 0 else 10**9
        b = b if b >= 0 else 10**9
        if a == b == 10**9:
            continue
        if a < b or (a == b and tie == "player 0"):
            n0 += 1
        elif b < a:
            n1 += 1
    return n0, n1


def territory_ties_to_player_0(board):
    return _split(board, "player 0")


def territory_counts_heads(board):
    n0, n1 = _split(board, "nobody")
    return n0 + 1, n1 + 1


def territory_swapped(board):
    n0, n1 = _split(board, "nobody")
    return n1, n0


def territory_returns_int(board):
    n0, n1 = _split(board, "nobody")
    return n0 - n1


def territory_three_values(board):
    n0, n1 = _split(board, "nobody")
    return n0, n1, 0


# ---- turn-order territory ----------------------------------------------------------
def _expand(board, order, alive):
    owner = {}
    front = {}
    for p in order:
        if alive[p]:
            owner[int(board.heads[p])] = p
            front[p] = [int(board.heads[p])]
    counts = [0] * board.n_players
    while any(front.values()):
        for p in order:
            if p not in front:
                continue
            new = []
            for sq in front[p]:
                for step in board.offsets:
                    nb = sq + int(step)
                    if board.flat[nb] == FREE and nb not in owner:
                        owner[nb] = p
                        new.append(nb)
            counts[p] += len(new)
            front[p] = new
    return counts


def turn_order_ignores_first(board, first):
    return _expand(board, range(board.n_players), board.alive)


def turn_order_dead_expand(board, first):
    n = board.n_players
    return _expand(board, [(first + i) % n for i in range(n)], [True] * n)


def turn_order_frees_dead_heads(board, first):
    """Clears a dead player's head square, as if a dead player left the board."""
    freed = board.copy()
    for p in range(board.n_players):
        if not board.alive[p]:
            freed.flat[int(board.heads[p])] = FREE
    n = board.n_players
    return _expand(freed, [(first + i) % n for i in range(n)], board.alive)


def turn_order_counts_heads(board, first):
    n = board.n_players
    counts = _expand(board, [(first + i) % n for i in range(n)], board.alive)
    return [c + 1 if board.alive[p] else c for p, c in enumerate(counts)]


# ---- parity bound ----------------------------------------------------------------
def _colours(board, player):
    region = _reach(board, board.heads[player])
    hy, hx = divmod(int(board.heads[player]), board.stride)
    region.discard((hy, hx))
    same = sum(1 for (y, x) in region if (y + x) % 2 == (hy + hx) % 2)
    return len(region) - same, same


def bound_region_size(board, player):
    other, same = _colours(board, player)
    return other + same


def bound_counts_head(board, player):
    other, same = _colours(board, player)
    same += 1
    return 2 * min(other, same) + (1 if other > same else 0)


def bound_wrong_colour(board, player):
    other, same = _colours(board, player)
    return 2 * min(other, same) + (1 if same > other else 0)


# ---- greedy move ------------------------------------------------------------------
def greedy_first_legal(board, player):
    return board.legal_moves(player)[0]


def greedy_always_up(board, player):
    return 0


def greedy_most_open(board, player):
    """The opposite of hugging: the move to the square with the most free neighbours."""
    head = int(board.heads[player])

    def open_sides(move):
        target = head + int(board.offsets[move])
        return sum(1 for step in board.offsets if board.flat[target + int(step)] == FREE)
    return max(board.legal_moves(player), key=open_sides)


def greedy_hug_only(board, player):
    """Hugs walls but never looks at the space it leaves: walks into pockets."""
    head = int(board.heads[player])

    def open_sides(move):
        target = head + int(board.offsets[move])
        return sum(1 for step in board.offsets if board.flat[target + int(step)] == FREE)
    return min(board.legal_moves(player), key=open_sides)


def _greedy(board, player, *, parity=True, prefer_whole=True):
    """The greedy ranking, with switches to leave a part out."""
    stride = board.stride
    head = int(board.heads[player])
    best_key, best_move = None, None
    for move in board.legal_moves(player):
        target = head + int(board.offsets[move])
        blocked = board.copy()
        blocked.flat[target] = WALL
        pieces = []
        seen = set()
        for off in board.offsets:
            start = target + int(off)
            if board.flat[start] == FREE and start not in seen:
                piece = {y * stride + x for y, x in _reach(blocked, start)}
                seen |= piece
                pieces.append(piece)
        room = 0
        target_colour = sum(divmod(target, stride)) % 2
        for piece in pieces:
            same = sum(1 for sq in piece if sum(divmod(sq, stride)) % 2 == target_colour)
            other = len(piece) - same
            size = (2 * same + 1 if other > same else 2 * other) if parity else len(piece)
            room = max(room, size)
        open_sides = sum(1 for off in board.offsets if board.flat[target + int(off)] == FREE)
        key = (room, len(pieces) <= 1 if prefer_whole else 0, -open_sides)
        if best_key is None or key > best_key:
            best_key, best_move = key, move
    return best_move


def greedy_counts_squares(board, player):
    return _greedy(board, player, parity=False)


def greedy_ignores_cuts(board, player):
    return _greedy(board, player, prefer_whole=False)


def greedy_move_name(board, player):
    return ("up", "right", "down", "left")[board.legal_moves(player)[0]]


def greedy_none_when_boxed_in(board, player):
    """The right ranking, but None when no move is legal (the loop never sets a move)."""
    return _greedy(board, player)


def greedy_max_of_no_moves(board, player):
    """The right ranking with max(): raises on an empty list of legal moves."""
    from tronlab.course import variants
    return max(board.legal_moves(player), key=lambda m: variants.move_key(board, player, m))


def greedy_minus_one_when_boxed_in(board, player):
    """The right ranking, but -1 when boxed in, as tronlab.tron.spacefill.greedy_move does."""
    move = _greedy(board, player)
    return -1 if move is None else move


# ---- negamax ----------------------------------------------------------------------
def negamax_right(game, depth, alpha, beta):
    return _negamax_with(game, depth, alpha, beta, stop=0)


def _negamax_with(game, depth, alpha, beta, *, stop, stuck=None, leaf=1):
    """Negamax with alpha-beta, and knobs for the planted mistakes below: the depth it
    stops at, the value of a side with no move and the sign of the leaf score."""
    if depth == stop:
        return leaf * game.score(), None
    best, best_move = None, None
    for move in game.moves():
        game.play(move)
        value = -_negamax_with(game, depth - 1, -beta, -alpha, stop=stop, stuck=stuck,
                               leaf=leaf)[0]
        game.undo()
        if best is None or value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    if best is None:
        return (game.LOSS if stuck is None else stuck), None
    return best, best_move


def negamax_no_pruning(game, depth, alpha, beta):
    if depth == 0:
        return game.score(), None
    best, best_move = None, None
    for move in game.moves():
        game.play(move)
        value = -negamax_no_pruning(game, depth - 1, -beta, -alpha)[0]
        game.undo()
        if best is None or value > best:
            best, best_move = value, move
    return (game.LOSS, None) if best is None else (best, best_move)


def negamax_no_negation(game, depth, alpha, beta):
    if depth == 0:
        return game.score(), None
    best, best_move = None, None
    for move in game.moves():
        game.play(move)
        value = negamax_no_negation(game, depth - 1, -beta, -alpha)[0]
        game.undo()
        if best is None or value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return (game.LOSS, None) if best is None else (best, best_move)


def negamax_forgets_undo_on_cut(game, depth, alpha, beta):
    if depth == 0:
        return game.score(), None
    best, best_move = None, None
    for move in game.moves():
        game.play(move)
        value = -negamax_forgets_undo_on_cut(game, depth - 1, -beta, -alpha)[0]
        if best is None or value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break                      # the undo below is skipped here
        game.undo()
    return (game.LOSS, None) if best is None else (best, best_move)


def negamax_value_only(game, depth, alpha, beta):
    return negamax_right(game, depth, alpha, beta)[0]


def negamax_stuck_first(game, depth, alpha, beta):
    moves = game.moves()
    if not moves:
        return game.LOSS, None
    if depth == 0:
        return game.score(), None
    best, best_move = None, None
    for move in moves:
        game.play(move)
        value = -negamax_stuck_first(game, depth - 1, -beta, -alpha)[0]
        game.undo()
        if best is None or value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best, best_move


def negamax_last_move(game, depth, alpha, beta):
    """Right value, but returns the last move tried instead of the best one."""
    value, _ = negamax_right(game, depth, alpha, beta)
    moves = game.moves()
    return value, (moves[-1] if moves else None)


def negamax_peeks_first(game, depth, alpha, beta):
    """Right value and move, but the root first plays and takes back its first move to look
    at it: one node more than needed, more than plain minimax where nothing can be cut."""
    moves = game.moves()
    if moves:
        game.play(moves[0])
        game.undo()
    return negamax_right(game, depth, alpha, beta)


def negamax_leaves_a_mark(game, depth, alpha, beta):
    """Right value and move, every move taken back, but the root then writes a wall into
    a free square of game.board: the caller's game is no longer where it started."""
    result = negamax_right(game, depth, alpha, beta)
    if game.depth_played == 0:
        free = np.flatnonzero(game.board.flat == FREE)
        if free.size:
            game.board.flat[free[-1]] = WALL
    return result


def negamax_window_not_swapped(game, depth, alpha, beta):
    if depth == 0:
        return game.score(), None
    best, best_move = None, None
    for move in game.moves():
        game.play(move)
        value = -negamax_window_not_swapped(game, depth - 1, -alpha, -beta)[0]
        game.undo()
        if best is None or value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return (game.LOSS, None) if best is None else (best, best_move)


# ---- mistakes whose first hint used to point elsewhere ----------------------------
def flood_from_player_0(board, player):
    """Ignores ``player``: always fills from player 0's head."""
    return len(_reach(board, board.heads[0])) - 1


def greedy_player_0(board, player):
    """The right ranking, but always from player 0's head (``player`` ignored)."""
    from tronlab.course import variants
    return variants.greedy_choices(board, 0)[0]


def negamax_move_value(game, depth, alpha, beta):
    """Right search, but the pair comes back as (move, value)."""
    value, move = negamax_right(game, depth, alpha, beta)
    return move, value


def negamax_too_deep(game, depth, alpha, beta):
    """Stops at depth -1 instead of 0: one ply deeper than asked."""
    return _negamax_with(game, depth, alpha, beta, stop=-1)


def negamax_depth_never_shrinks(game, depth, alpha, beta):
    """Passes depth, not depth - 1, to each child: searches to the end of the game."""
    if depth == 0:
        return game.score(), None
    best, best_move = None, None
    for move in game.moves():
        game.play(move)
        value = -negamax_depth_never_shrinks(game, depth, -beta, -alpha)[0]
        game.undo()
        if best is None or value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return (game.LOSS, None) if best is None else (best, best_move)


def negamax_stuck_is_zero(game, depth, alpha, beta):
    """A side with no move is worth 0 instead of game.LOSS."""
    return _negamax_with(game, depth, alpha, beta, stop=0, stuck=0)


def negamax_stuck_is_a_win(game, depth, alpha, beta):
    """A side with no move is worth -game.LOSS, a win, instead of game.LOSS."""
    return _negamax_with(game, depth, alpha, beta, stop=0, stuck=-game.LOSS)


def negamax_negates_leaf(game, depth, alpha, beta):
    """Returns -game.score() at the horizon."""
    return _negamax_with(game, depth, alpha, beta, stop=0, leaf=-1)


# ---- mistakes the checkers explained with a generic or misleading hint -----------------
def flood_cells_x_y(board, player):
    """Walks board.cells with x and y swapped: [x + 1, y + 1] instead of [y + 1, x + 1]."""
    x, y = board.xy(int(board.heads[player]))
    seen = {(x + 1, y + 1)}
    todo = [(x + 1, y + 1)]
    while todo:
        a, b = todo.pop()
        for da, db in STRAIGHT:
            nxt = (a + da, b + db)
            if board.cells[nxt] == FREE and nxt not in seen:   # IndexError off a wide board
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) - 1


def flood_one_path(board, player):
    """Follows one path (the first free neighbour each time) instead of spreading: on the
    first board it fails on, its count happens to be player 0's flood fill."""
    at, seen = int(board.heads[player]), set()
    while True:
        steps = [at + int(o) for o in board.offsets
                 if board.flat[at + int(o)] == FREE and at + int(o) not in seen]
        if not steps:
            return len(seen)
        at = steps[0]
        seen.add(at)


def components_transposed(board):
    return _labels(board).T


def distances_transposed(board, player):
    return _bfs(board, player).T


def distances_through_heads(board, player):
    """Steps onto the other heads as if they were free squares (their trails stay blocked)."""
    heads = {divmod(int(h), board.stride) for h in board.heads}
    dist = np.full(board.cells.shape, -1)
    hy, hx = divmod(int(board.heads[player]), board.stride)
    dist[hy, hx] = 0
    todo = deque([(hy, hx)])
    while todo:
        y, x = todo.popleft()
        for dx, dy in STRAIGHT:
            ny, nx = y + dy, x + dx
            if (board.cells[ny, nx] == FREE or (ny, nx) in heads) and dist[ny, nx] == -1:
                dist[ny, nx] = dist[y, x] + 1
                todo.append((ny, nx))
    return dist


def territory_skips_one_sided(board):
    """Leaves out every square one player cannot reach (-1 taken as 'skip this square')."""
    d0, d1 = _bfs(board, 0), _bfs(board, 1)
    n0 = n1 = 0
    for y, x in zip(*np.nonzero(board.cells == FREE)):
        a, b = d0[y, x], d1[y, x]
        if a == -1 or b == -1:
            continue
        n0, n1 = n0 + (a < b), n1 + (b < a)
    return n0, n1


def territory_rest_to_player_1(board):
    """Player 1 gets every free square player 0 does not: ties and unreachable squares too."""
    n0, _ = _split(board, "neutral")
    return n0, board.free_count() - n0


def negamax_negates_the_pair(game, depth, alpha, beta):
    """Forgets that negamax returns a pair: -negamax(...) without [0]."""
    if depth == 0:
        return game.score(), None
    best, best_move = None, None
    for move in game.moves():
        game.play(move)
        value = -negamax_negates_the_pair(game, depth - 1, -beta, -alpha)
        game.undo()
        if best is None or value > best:
            best, best_move = value, move
    return (game.LOSS, None) if best is None else (best, best_move)


def negamax_best_from_loss(game, depth, alpha, beta):
    """Starts the best value at game.LOSS: where every move loses, no move is ever kept."""
    if depth == 0:
        return game.score(), None
    best, best_move = game.LOSS, None
    for move in game.moves():
        game.play(move)
        value = -negamax_best_from_loss(game, depth - 1, -beta, -alpha)[0]
        game.undo()
        if value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best, best_move


# ---- exercise 01, a second round: more of the mistakes a learner makes -------------------------
def _bound(other, same):
    return 2 * same + 1 if other > same else 2 * other


def _region(board, player, steps=STRAIGHT, ok=lambda code: code == FREE):
    """The (y, x) squares of board.cells the player's head reaches, the head left out."""
    region = _reach(board, board.heads[player], steps, ok)
    region.discard(divmod(int(board.heads[player]), board.stride))
    return region


def bound_flat_parity(board, player):
    """Colours squares by the parity of their flat index: wrong when the stride is even."""
    head = int(board.heads[player])
    region = [y * board.stride + x for y, x in _region(board, player)]
    same = sum(1 for i in region if i % 2 == head % 2)
    return _bound(len(region) - same, same)


def bound_absolute_colour(board, player):
    """Counts the even squares as the head's colour, whatever the head's colour."""
    region = _region(board, player)
    even = sum(1 for y, x in region if (x + y) % 2 == 0)
    return _bound(len(region) - even, even)


def bound_diagonal(board, player):
    region = _region(board, player, DIAGONAL)
    hy, hx = divmod(int(board.heads[player]), board.stride)
    same = sum(1 for y, x in region if (y + x) % 2 == (hy + hx) % 2)
    return _bound(len(region) - same, same)


def bound_over_trails(board, player):
    region = _region(board, player, ok=lambda code: code != WALL)
    hy, hx = divmod(int(board.heads[player]), board.stride)
    same = sum(1 for y, x in region if (y + x) % 2 == (hy + hx) % 2)
    return _bound(len(region) - same, same)


def bound_every_free_square(board, player):
    """No flood fill: every free square of the board, reachable or not."""
    hy, hx = divmod(int(board.heads[player]), board.stride)
    squares = list(zip(*np.nonzero(board.cells == FREE)))
    same = sum(1 for y, x in squares if (y + x) % 2 == (hy + hx) % 2)
    return _bound(len(squares) - same, same)


def bound_player_0(board, player):
    return _bound(*_colours(board, 0))


def bound_larger_formula(board, player):
    other, same = _colours(board, player)
    return max(2 * same + 1, 2 * other)


def bound_no_extra_square(board, player):
    other, same = _colours(board, player)
    return 2 * min(other, same)


def _sides(board, target):
    """The pieces around ``target`` with it blocked, as sets of flat indices."""
    blocked = board.copy()
    blocked.flat[target] = WALL
    pieces, seen = [], set()
    for off in board.offsets:
        start = target + int(off)
        if board.flat[start] == FREE and start not in seen:
            piece = {y * board.stride + x for y, x in _reach(blocked, start)}
            seen |= piece
            pieces.append(piece)
    return pieces


def _greedy_by(board, player, room):
    """The greedy ranking with ``room(target, pieces)`` for the first key."""
    head = int(board.heads[player])
    best_key, best_move = None, 0
    for move in board.legal_moves(player):
        target = head + int(board.offsets[move])
        pieces = _sides(board, target)
        open_sides = sum(1 for off in board.offsets if board.flat[target + int(off)] == FREE)
        key = (room(target, pieces), len(pieces) <= 1, -open_sides)
        if best_key is None or key > best_key:
            best_key, best_move = key, move
    return best_move


def _piece_bound(board, piece, start):
    colour = sum(divmod(int(start), board.stride)) % 2
    same = sum(1 for sq in piece if sum(divmod(sq, board.stride)) % 2 == colour)
    return _bound(len(piece) - same, same)


def greedy_all_sides(board, player):
    """Measures a cutting move by all its sides together, as if it could visit every one."""
    return _greedy_by(board, player, lambda t, pieces: _piece_bound(
        board, set().union(*pieces), t))


def greedy_smallest_side(board, player):
    return _greedy_by(board, player, lambda t, pieces: min(
        (_piece_bound(board, p, t) for p in pieces), default=0))


def greedy_head_colour(board, player):
    """Counts each side's colours relative to the head instead of the target square."""
    head = int(board.heads[player])
    return _greedy_by(board, player, lambda t, pieces: max(
        (_piece_bound(board, p, head) for p in pieces), default=0))


def greedy_into_trails(board, player):
    """The right ranking over its own list of moves: any square that is not a wall (trails
    and heads too)."""
    head = int(board.heads[player])
    best_key, best_move = None, 0
    for move in range(4):
        target = head + int(board.offsets[move])
        if board.flat[target] == WALL:
            continue
        pieces = _sides(board, target)
        open_sides = sum(1 for off in board.offsets if board.flat[target + int(off)] == FREE)
        key = (max((_piece_bound(board, p, target) for p in pieces), default=0),
               len(pieces) <= 1, -open_sides)
        if best_key is None or key > best_key:
            best_key, best_move = key, move
    return best_move


def _cuts_by_removal(board, nodes):
    """Cut vertices as (x, y) by brute force: remove each node, count the pieces."""
    def pieces(left):
        left, n = set(left), 0
        while left:
            n += 1
            todo = [left.pop()]
            while todo:
                y, x = todo.pop()
                for dx, dy in STRAIGHT:
                    if (y + dy, x + dx) in left:
                        left.remove((y + dy, x + dx))
                        todo.append((y + dy, x + dx))
        return n
    base = pieces(nodes)
    return {(int(x) - 1, int(y) - 1) for y, x in nodes if pieces(nodes - {(y, x)}) > base
            and board.cells[y, x] == FREE}


def _free_nodes(board):
    return {(int(y), int(x)) for y, x in zip(*np.nonzero(board.cells == FREE))}


def cuts_right_by_removal(board):
    """Right, written another way: one flood fill per square."""
    return _cuts_by_removal(board, _free_nodes(board))


def cuts_right_by_neighbours(board):
    """Right, written another way and fast enough for the deep room: a square is a cut
    vertex when its free neighbours no longer reach each other without it (a search from
    one of them that stops once it has met all the others).  Breadth first, so that in an
    open room the others turn up within a few squares: a depth-first walk wanders off and
    took 3.7 s on the 50x50 room under load, a flake risk against the 10 s limit."""
    nodes = _free_nodes(board)
    cuts = set()
    for y, x in nodes:
        around = [(y + dy, x + dx) for dx, dy in STRAIGHT if (y + dy, x + dx) in nodes]
        if len(around) < 2:
            continue
        missing, seen, todo = set(around[1:]), {(y, x), around[0]}, deque([around[0]])
        while todo and missing:
            cy, cx = todo.popleft()
            for dx, dy in STRAIGHT:
                n = (cy + dy, cx + dx)
                if n in nodes and n not in seen:
                    seen.add(n)
                    missing.discard(n)
                    todo.append(n)
        if missing:
            cuts.add((x - 1, y - 1))
    return cuts


def cuts_with_heads(board):
    """Puts the heads in the graph as if they were free squares."""
    heads = {divmod(int(h), board.stride) for h in board.heads}
    return _cuts_by_removal(board, _free_nodes(board) | heads)


def cuts_flat_indices(board):
    return {(y + 1) * board.stride + x + 1 for x, y in cuts_right_by_removal(board)}


def cuts_padded(board):
    """The board.cells indices of the squares, (x + 1, y + 1)."""
    return {(x + 1, y + 1) for x, y in cuts_right_by_removal(board)}


def cuts_how_many(board):
    return len(cuts_right_by_removal(board))


def cuts_one_region(board):
    """Searches from the first free square only: the other regions are never looked at."""
    nodes = _free_nodes(board)
    first = min(nodes)
    region = {(y - 1, x - 1) for y, x in _reach(board, first[0] * board.stride + first[1])}
    return {(x, y) for x, y in cuts_right_by_removal(board) if (y, x) in region}


def cuts_and_dead_ends(board):
    """Adds the squares with one free neighbour, as if a dead end cut something off."""
    nodes = _free_nodes(board)
    ends = {(x - 1, y - 1) for y, x in nodes
            if sum((y + dy, x + dx) in nodes for dx, dy in STRAIGHT) == 1}
    return cuts_right_by_removal(board) | ends


def cuts_back_edge_low(board):
    """Hopcroft-Tarjan with low[w] for a back edge to w, not disc[w]."""
    free = board.cells == FREE
    disc, low, cuts = {}, {}, set()
    for root in zip(*np.nonzero(free)):
        if root in disc:
            continue
        disc[root] = low[root] = len(disc)
        children, stack = 0, [(root, None, iter(STRAIGHT))]
        while stack:
            sq, parent, steps = stack[-1]
            for dx, dy in steps:
                nb = (sq[0] + dy, sq[1] + dx)
                if not free[nb]:
                    continue
                if nb not in disc:
                    disc[nb] = low[nb] = len(disc)
                    stack.append((nb, sq, iter(STRAIGHT)))
                    children += sq == root
                    break
                if nb != parent:
                    low[sq] = min(low[sq], low[nb])
            else:
                stack.pop()
                if stack:
                    up = stack[-1][0]
                    low[up] = min(low[up], low[sq])
                    if low[sq] >= disc[up] and up != root:
                        cuts.add(up)
        if children > 1:
            cuts.add(root)
    return {(int(x) - 1, int(y) - 1) for y, x in cuts}


def bound_width_divmod(board, player):
    """Rows and columns from divmod by board.width, not board.stride."""
    region = [y * board.stride + x for y, x in _region(board, player)]

    def colour(i):
        return sum(divmod(i, board.width)) % 2
    head = int(board.heads[player])
    same = sum(1 for i in region if colour(i) == colour(head))
    return _bound(len(region) - same, same)


def cuts_low_not_passed_up(board):
    """Hopcroft-Tarjan updating the parent's low when a child is pushed (when the child's
    low is still its disc) instead of when the child's search is done."""
    free = board.cells == FREE
    disc, low, cuts = {}, {}, set()
    for root in zip(*np.nonzero(free)):
        if root in disc:
            continue
        disc[root] = low[root] = len(disc)
        children, stack = 0, [(root, None, iter(STRAIGHT))]
        while stack:
            sq, parent, steps = stack[-1]
            for dx, dy in steps:
                nb = (sq[0] + dy, sq[1] + dx)
                if not free[nb]:
                    continue
                if nb not in disc:
                    disc[nb] = low[nb] = len(disc)
                    low[sq] = min(low[sq], low[nb])
                    stack.append((nb, sq, iter(STRAIGHT)))
                    children += sq == root
                    break
                if nb != parent:
                    low[sq] = min(low[sq], disc[nb])
            else:
                stack.pop()
                if stack and low[sq] >= disc[stack[-1][0]] and stack[-1][0] != root:
                    cuts.add(stack[-1][0])
        if children > 1:
            cuts.add(root)
    return {(int(x) - 1, int(y) - 1) for y, x in cuts}


def greedy_sides_through_corners(board, player):
    """Floods each side through corners too: two sides that touch diagonally run together."""
    s = board.stride
    steps = [int(o) for o in board.offsets] + [-s - 1, -s + 1, s - 1, s + 1]

    def pieces_of(target):
        seen, pieces = {target}, []
        for off in board.offsets:
            start = target + int(off)
            if board.flat[start] != FREE or start in seen:
                continue
            piece, todo = {start}, [start]
            seen.add(start)
            while todo:
                sq = todo.pop()
                for step in steps:
                    if board.flat[sq + step] == FREE and sq + step not in seen:
                        seen.add(sq + step)
                        piece.add(sq + step)
                        todo.append(sq + step)
            pieces.append(piece)
        return pieces
    head = int(board.heads[player])
    best_key, best_move = None, 0
    for move in board.legal_moves(player):
        target = head + int(board.offsets[move])
        pieces = pieces_of(target)
        open_sides = sum(1 for off in board.offsets if board.flat[target + int(off)] == FREE)
        key = (max((_piece_bound(board, p, target) for p in pieces), default=0),
               len(pieces) <= 1, -open_sides)
        if best_key is None or key > best_key:
            best_key, best_move = key, move
    return best_move


def greedy_counts_the_target(board, player):
    """Counts the target square in each side before taking its bound."""
    return _greedy_by(board, player, lambda t, pieces: max(
        (_piece_bound(board, p | {t}, t) for p in pieces), default=0))


def cuts_root_children_shared(board):
    """Hopcroft-Tarjan with one count of the root's children for every search: it is not
    reset when a new region's search starts, so a later root with one child is a cut."""
    free = board.cells == FREE
    disc, low, cuts = {}, {}, set()
    children = 0
    for root in zip(*np.nonzero(free)):
        if root in disc:
            continue
        disc[root] = low[root] = len(disc)
        stack = [(root, None, iter(STRAIGHT))]
        while stack:
            sq, parent, steps = stack[-1]
            for dx, dy in steps:
                nb = (sq[0] + dy, sq[1] + dx)
                if not free[nb]:
                    continue
                if nb not in disc:
                    disc[nb] = low[nb] = len(disc)
                    stack.append((nb, sq, iter(STRAIGHT)))
                    children += sq == root
                    break
                if nb != parent:
                    low[sq] = min(low[sq], disc[nb])
            else:
                stack.pop()
                if stack:
                    up = stack[-1][0]
                    low[up] = min(low[up], low[sq])
                    if low[sq] >= disc[up] and up != root:
                        cuts.add(up)
        if children > 1:
            cuts.add(root)
    return {(int(x) - 1, int(y) - 1) for y, x in cuts}


# ---- round three: the edge of the board, and the head found by its number ------------------
def _reach_short(board, player):
    """The squares of the playing area the head reaches, (x, y), with a bounds check that
    stops one short of the bottom row (``y < board.height - 1``); the head left out."""
    hx, hy = board.xy(int(board.heads[player]))
    seen, todo = {(hx, hy)}, [(hx, hy)]
    while todo:
        x, y = todo.pop()
        for dx, dy in STRAIGHT:
            nx, ny = x + dx, y + dy
            if (0 <= nx < board.width and 0 <= ny < board.height - 1 and (nx, ny) not in seen
                    and board.is_free(nx, ny)):
                seen.add((nx, ny))
                todo.append((nx, ny))
    seen.discard((hx, hy))
    return seen, (hx + hy) % 2


def flood_stops_short(board, player):
    return len(_reach_short(board, player)[0])


def bound_stops_short(board, player):
    region, head = _reach_short(board, player)
    same = sum(1 for x, y in region if (x + y) % 2 == head)
    return _bound(len(region) - same, same)


def _trail_first(board, player):
    """The first square holding 2 + player: the head, unless the trail comes before it."""
    return int(np.flatnonzero(board.flat == 2 + player)[0])


def flood_from_first_two(board, player):
    return len(_reach(board, _trail_first(board, player))) - 1


def bound_from_first_two(board, player):
    start = _trail_first(board, player)
    region = _reach(board, start)
    sy, sx = divmod(start, board.stride)
    region.discard((sy, sx))
    same = sum(1 for (y, x) in region if (y + x) % 2 == (sy + sx) % 2)
    return _bound(len(region) - same, same)


def distances_from_zeros(board, player):
    """Distances started from np.zeros: unreached and blocked squares stay 0, not -1."""
    dist = _bfs(board, player)
    return np.where(dist < 0, 0, dist)


def distances_stop_short(board, player):
    # the bottom row of the playing area is never entered (a bounds check one short)
    short = board.copy()
    row = short.cells[-2]
    row[row == FREE] = WALL
    return _bfs(short, player)


def distances_from_player_0(board, player):
    return _bfs(board, 0)


def distances_from_first_two(board, player):
    """The BFS started from the first square holding 2 + player, a trail square here."""
    moved = board.copy()
    moved.heads[player] = _trail_first(board, player)
    return _bfs(moved, player)


def territory_one_head_twice(board):
    d0, d1 = _bfs(board, 0), _bfs(board, 0)      # the second map from the wrong head
    free = board.cells == FREE
    near0 = (d0 >= 0) & ((d1 < 0) | (d0 < d1))
    near1 = (d1 >= 0) & ((d0 < 0) | (d1 < d0))
    return int((free & near0).sum()), int((free & near1).sum())


def territory_stops_short(board):
    short = board.copy()
    column = short.cells[:, -2]
    column[column == FREE] = WALL
    return _split(short, "nobody")


def turn_order_turns_go_down(board, first):
    n = board.n_players
    return _expand(board, [(first - i) % n for i in range(n)], board.alive)


def turn_order_one_square_a_turn(board, first):
    n = board.n_players
    order = [(first + i) % n for i in range(n) if board.alive[(first + i) % n]]
    owner = {int(board.heads[p]) for p in order}
    queues = {p: deque([int(board.heads[p])]) for p in order}
    counts = [0] * n
    while any(queues.values()):
        for p in order:
            if queues[p]:
                sq = queues[p].popleft()
                for step in board.offsets:
                    nb = sq + int(step)
                    if board.flat[nb] == FREE and nb not in owner:
                        owner.add(nb)
                        queues[p].append(nb)
                        counts[p] += 1
    return counts


def turn_order_stops_with_the_first_stuck(board, first):
    n = board.n_players
    order = [(first + i) % n for i in range(n) if board.alive[(first + i) % n]]
    owner = {int(board.heads[p]) for p in order}
    fronts = {p: [int(board.heads[p])] for p in order}
    counts = [0] * n
    while all(fronts.values()):
        for p in order:
            new = []
            for sq in fronts[p]:
                for step in board.offsets:
                    nb = sq + int(step)
                    if board.flat[nb] == FREE and nb not in owner:
                        owner.add(nb)
                        new.append(nb)
            counts[p] += len(new)
            fronts[p] = new
    return counts


def cuts_stop_short(board):
    """Every square but those of the last column: a scan that stops one column short."""
    return _cuts_by_removal(board, {(y, x) for y, x in _free_nodes(board) if x < board.width})


def greedy_sides_never_merged(board, player):
    """Counts one side per free neighbour of the target, even where two of them meet again:
    every target with two free neighbours looks like a cut vertex."""
    head = int(board.heads[player])
    best_key, best_move = None, None
    for move in board.legal_moves(player):
        target = head + int(board.offsets[move])
        blocked = board.copy()
        blocked.flat[target] = WALL
        starts = [target + int(off) for off in board.offsets
                  if board.flat[target + int(off)] == FREE]
        room = 0
        colour = sum(divmod(target, board.stride)) % 2
        for start in starts:
            piece = {y * board.stride + x for y, x in _reach(blocked, start)}
            same = sum(1 for sq in piece if sum(divmod(sq, board.stride)) % 2 == colour)
            room = max(room, _bound(len(piece) - same, same))
        key = (1 + room, len(starts) < 2, -len(starts))
        if best_key is None or key > best_key:
            best_key, best_move = key, move
    return best_move


def territory_right_by_search_per_square(board):
    """Right, written the slow way: for every free square a breadth-first search from each
    head (a list as the queue, `in` on a list of seen squares) to find how far it is."""
    heads = [divmod(int(h), board.stride) for h in board.heads[:2]]

    def how_far(start, goal):
        seen, todo = [start], [(start, 0)]
        while todo:
            (y, x), d = todo.pop(0)
            if (y, x) == goal:
                return d
            for dx, dy in STRAIGHT:
                n = (y + dy, x + dx)
                if board.cells[n] == FREE and n not in seen:
                    seen.append(n)
                    todo.append((n, d + 1))
        return None

    counts = [0, 0]
    for y, x in zip(*np.nonzero(board.cells == FREE)):
        d0, d1 = (how_far(h, (int(y), int(x))) for h in heads)
        if d0 is not None and (d1 is None or d0 < d1):
            counts[0] += 1
        elif d1 is not None and (d0 is None or d1 < d0):
            counts[1] += 1
    return tuple(counts)
