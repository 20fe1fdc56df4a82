"""L4, the write-up's longest-path search for separated players, against brute force
(every path on tiny boards) and a plain recursive twin of the depth-limited value."""

from hypothesis import given, settings, strategies as st
from strategies import EXAMPLES, small_boards

from tronlab import Board
from tronlab.grid.parity import fill_bound
from tronlab.tron.longest_path import longest_path


def brute_longest(board, player, first=None):
    """The longest path by trying every one (recursion: tiny boards only); with
    ``first``, the longest that starts with that move."""
    flat = board.flat.copy()
    offs = board.offsets

    def go(h, moves=offs):
        best = 0
        for o in moves:
            t = h + o
            if flat[t] == 0:
                flat[t] = 1
                best = max(best, 1 + go(t))
                flat[t] = 0
        return best
    return go(int(board.heads[player]), offs if first is None else offs[first:first + 1])


def twin_value(board, player, depth, first=None):
    """Depth-limited value: moves so far, plus the parity bound at the cutoff; with
    ``first``, the value of the lines that start with that move."""
    flat = board.flat.copy()
    offs = board.offsets

    def go(h, k):
        best = None
        for o in (offs[first:first + 1] if k == 0 and first is not None else offs):
            t = h + o
            if flat[t] == 0:
                flat[t] = 1
                if k + 1 == depth:
                    b = board.copy()
                    b.flat[:] = flat
                    v = depth + fill_bound(b, start=int(t)).bound
                else:
                    v = go(t, k + 1)
                flat[t] = 0
                best = v if best is None else max(best, v)
        return k if best is None else best
    return go(int(board.heads[player]), 0)


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(max_players=2, max_density=0.4), st.integers(0, 1))
def test_exact_length_is_the_brute_force_longest_path(board, player):
    r = longest_path(board, player, max_depth=64)
    assert r.exact and r.length == brute_longest(board, player)
    if r.length:
        # the move starts a longest path (before, any free square passed: notebook 09
        # plays this move)
        assert board.flat[board.heads[player] + board.offsets[r.move]] == 0
        assert brute_longest(board, player, first=r.move) == r.length
    else:
        assert r.move == -1


@settings(max_examples=EXAMPLES, deadline=None)
@given(small_boards(max_players=2, max_density=0.3, max_width=6, max_height=5), st.integers(0, 1),
       st.integers(1, 4))
def test_depth_limited_value_equals_the_twin(board, player, depth):
    r = longest_path(board, player, max_depth=depth)
    assert r.length == twin_value(board, player, r.depth)
    if r.length:
        assert twin_value(board, player, r.depth, first=r.move) == r.length


def test_never_longer_than_the_parity_bound():
    b = Board.from_ascii("""
        1.....
        ......
        ......
        #####2
    """)
    r = longest_path(b, 0, max_depth=4)
    assert not r.exact and r.depth == 4 and r.length <= fill_bound(b, 0).bound
