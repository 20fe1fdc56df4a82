"""Contest protocol codecs (tronlab.tron.protocol) and the stdin/stdout runner
(tronlab.runner.stdio).

Oracles: literal protocol text written by hand from docs/games.md, and small
plain-Python game simulators whose states are encoded by the server side and
read back by the client side.
"""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tronlab.tron.board import FREE, TRAIL, WALL, Board
from tronlab.tron.protocol import (
    PROTOCOLS, ProtocolError, codingame_state, encode_state, format_answer, google2010_state,
    lightriders_field, lightriders_settings, lightriders_state, make_client, parse_answer,
)
from tronlab.runner.stdio import fallback_move, run_stdio

SMALL = """
#######
#1a...#
#..#..#
#...b2#
#######
"""


def feed_all(client, text):
    """Feed text line by line; return the requests produced."""
    out = []
    for line in io.StringIO(text):
        r = client.feed(line)
        if r is not None:
            out.append(r)
    return out


# ---- answers ------------------------------------------------------------------------

@pytest.mark.parametrize("protocol,words", [
    ("google2010", ["1", "2", "3", "4"]),
    ("codingame", ["UP", "RIGHT", "DOWN", "LEFT"]),
    ("lightriders", ["up", "right", "down", "left"]),
])
def test_answers_both_ways(protocol, words):
    for move, word in enumerate(words):
        assert format_answer(protocol, move) == word
        assert parse_answer(protocol, word) == move
        assert parse_answer(protocol, f"  {word}\r\n") == move
        assert parse_answer(protocol, word.swapcase()) == move or protocol == "google2010"


def test_answer_names_and_pass():
    assert format_answer("google2010", "north") == "1"
    assert format_answer("codingame", "left") == "LEFT"
    assert format_answer("lightriders", None) == "pass"
    assert parse_answer("lightriders", "pass") is None
    assert parse_answer("lightriders", "No_Moves") is None    # games.md: read as pass
    with pytest.raises(ValueError, match="no 'pass'"):
        format_answer("google2010", None)


@pytest.mark.parametrize("protocol,text", [
    ("google2010", "5"), ("google2010", "north"), ("google2010", "1 2"), ("google2010", ""),
    ("codingame", "UPP"), ("codingame", "1"),
    ("lightriders", "straight"), ("lightriders", "UP now"),
])
def test_bad_answers_are_quoted(protocol, text):
    with pytest.raises(ProtocolError) as err:
        parse_answer(protocol, text)
    assert repr(text) in str(err.value)


def test_long_bad_answer_is_cut_short():
    with pytest.raises(ProtocolError) as err:
        parse_answer("codingame", "x" * 5000)
    assert len(str(err.value)) < 200 and "5000 characters" in str(err.value)


def test_unknown_protocol():
    with pytest.raises(ValueError, match="unknown protocol 'tron'"):
        make_client("tron")
    with pytest.raises(ValueError, match="unknown protocol"):
        parse_answer("tron", "1")


# ---- Google 2010 --------------------------------------------------------------------

def test_google2010_text_is_what_games_md_says():
    b = Board.from_ascii(SMALL)
    # player 0 reads itself as 1; trails and walls are '#'
    assert google2010_state(b, 0) == "7 5\n#######\n#1#   #\n#  #  #\n#   #2#\n#######\n"
    # player 1 also reads itself as 1
    assert google2010_state(b, 1) == "7 5\n#######\n#2#   #\n#  #  #\n#   #1#\n#######\n"


def test_google2010_client_reader_is_player_0():
    b = Board.from_ascii(SMALL)
    (req,) = feed_all(make_client("google2010"), google2010_state(b, 1))
    assert req.player == 0 and req.turn == 0
    assert req.board.head_xy(0) == b.head_xy(1)
    assert req.board.head_xy(1) == b.head_xy(0)
    assert req.board.to_ascii() == "#######\n#2#...#\n#..#..#\n#...#1#\n#######"


def test_google2010_client_tolerates_stripped_trailing_spaces():
    text = "4 3\n1   \n    \n   2\n"
    stripped = "4 3\n1\n\n   2\n"
    a = feed_all(make_client("google2010"), text)[0].board
    b = feed_all(make_client("google2010"), stripped)[0].board
    assert a == b and a.free_count() == 10


def test_google2010_client_reads_rows_with_trailing_blanks_past_the_width():
    # a server (or a map file) that pads its rows: the header says 4, the blanks past
    # column 4 are no squares.  They were refused as 'longer than width' and the turn lost
    padded = "4 3 \n1   \t \n      \n   2  \r\n"
    board = feed_all(make_client("google2010"), padded)[0].board
    assert board.to_ascii() == "1...\n....\n...2"
    with pytest.raises(ProtocolError, match="row 0 is longer than width 4"):
        feed_all(make_client("google2010"), "4 1\n1  2 #\n")     # a square past it


def test_google2010_several_turns_one_client():
    b = Board.from_ascii(SMALL)
    c = make_client("google2010")
    reqs = feed_all(c, google2010_state(b, 0) * 3)
    assert [r.turn for r in reqs] == [0, 1, 2]


@pytest.mark.parametrize("text,message", [
    ("7\n", "header 'W H'"),
    ("a b\n", "header 'W H'"),
    ("3 1\n1 2x\n", "longer than width 3"),
    ("3 1\n1?2\n", "unknown character '?'"),
    ("3 1\n1 1\n", "appears twice"),
    ("3 1\n1  \n", "no player 2 head"),
])
def test_google2010_client_errors(text, message):
    with pytest.raises(ProtocolError, match=message):
        feed_all(make_client("google2010"), text)


def random_two_player_board(seed, width, height):
    """A board with random walls, trails of both players, two heads (plain numpy)."""
    rng = np.random.default_rng(seed)
    inner = rng.choice([FREE, FREE, WALL, TRAIL, TRAIL + 1], size=(height, width))
    squares = rng.choice(width * height, size=2, replace=False)
    cells = np.full((height + 2, width + 2), WALL, np.uint8)
    cells[1:-1, 1:-1] = inner
    heads = []
    for p, s in enumerate(squares):
        y, x = divmod(int(s), width)
        cells[y + 1, x + 1] = TRAIL + p
        heads.append((y + 1) * (width + 2) + x + 1)
    return Board(cells, heads)


@settings(max_examples=60)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 12), st.integers(0, 1))
def test_google2010_round_trip(seed, width, height, player):
    if width * height < 2:
        return
    b = random_two_player_board(seed, width, height)
    text = google2010_state(b, player)
    # oracle: the grid character by character from the original board
    rows = text.split("\n")[1:-1]
    for y in range(height):
        for x in range(width):
            expected = " " if b.at(x, y) == FREE else "#"
            if (x, y) == b.head_xy(player):
                expected = "1"
            elif (x, y) == b.head_xy(1 - player):
                expected = "2"
            assert rows[y][x] == expected
    (req,) = feed_all(make_client("google2010"), text)
    back = req.board
    assert np.array_equal(back.cells == FREE, b.cells == FREE)
    assert back.heads.tolist() == [b.heads[player], b.heads[1 - player]]
    assert google2010_state(back, 0) == text


# ---- CodinGame ----------------------------------------------------------------------

def test_codingame_text_is_what_games_md_says():
    b = Board.from_ascii("""
        ...c...
        .1a..3.
        .......
        ..2b...
    """)
    b.starts[1] = b.index(3, 3)
    b.starts[2] = b.index(3, 0)
    assert codingame_state(b, 2) == "3 2\n1 1 1 1\n3 3 2 3\n3 0 5 1\n"
    b.alive[1] = False
    assert codingame_state(b, 0) == "3 0\n1 1 1 1\n-1 -1 -1 -1\n3 0 5 1\n"


def test_codingame_client_rebuilds_and_removes_trails():
    c = make_client("codingame")
    turns = ["2 1\n0 0 1 0\n5 5 5 5\n",       # p0 already moved right this turn
             "2 1\n0 0 2 0\n5 5 5 4\n",
             "2 1\n0 0 2 1\n5 5 5 3\n",
             "2 1\n-1 -1 -1 -1\n5 5 5 2\n"]
    reqs = feed_all(c, "".join(turns))
    assert [r.player for r in reqs] == [1, 1, 1, 1]
    b2 = reqs[2].board
    assert [b2.at(x, y) for x, y in [(0, 0), (1, 0), (2, 0), (2, 1)]] == [TRAIL] * 4
    assert [b2.at(5, y) for y in (5, 4, 3)] == [TRAIL + 1] * 3
    assert b2.facing.tolist() == [2, 0]
    last = reqs[3].board
    assert not last.alive[0] and last.alive[1]
    assert np.count_nonzero(last.cells == TRAIL) == 0          # p0's trail removed
    assert np.count_nonzero(last.cells == TRAIL + 1) == 4
    assert last.width == 30 and last.height == 20


@pytest.mark.parametrize("text,message", [
    ("2\n", "header 'N P'"),
    ("5 0\n", "bad player count"),
    ("1 0\n0 0 1 0\n", "bad player count or index '1 0'"),   # the game has 2 to 4 players
    ("2 2\n", "bad player count"),
    ("2 0\n1 2 3\n", "X0 Y0 X1 Y1"),
    ("2 0\n0 0 30 0\n1 1 1 1\n", r"\(30, 0\) is off the 30x20 grid"),
    ("2 0\n0 0 1 1\n2 2 2 2\n3 0\n", "player count changed from 2 to 3 \\(header '3 0'\\)"),
    ("2 0\n0 0 1 1\n2 2 2 2\n2 1\n", "own index P changed from 0 to 1 \\(header '2 1'\\)"),
    # before: the new start square was marked as player 0's trail, a wall out of nowhere
    ("2 0\n0 0 1 0\n5 5 5 5\n2 0\n3 3 2 0\n5 5 5 4\n",
     r"player 0's start changed from \(0, 0\) to \(3, 3\)"),
    # before: read as a board whose one square held two living heads (Board refuses that)
    ("2 0\n0 0 3 3\n5 5 3 3\n", r"players 0 and 1 both have their head on \(3, 3\)"),
    # before: the bot was asked to move a dead cycle ('filler' failed: "head 0 is on the
    # border of this 32x22 padded grid")
    ("2 1\n0 0 1 0\n-1 -1 -1 -1\n", r"your own line \(player 1\) is -1 -1 -1 -1, a dead"),
])
def test_codingame_client_errors(text, message):
    with pytest.raises(ProtocolError, match=message):
        feed_all(make_client("codingame"), text)


def test_a_codingame_header_whose_seat_changes_is_a_broken_turn_not_a_new_self():
    """P is the reader's seat for the whole game.  Before, '2 1' after turns read as
    player 0 was taken as is: the bot moved player 1's head, and its answer steered a
    light cycle it does not ride.  Now that turn gets what any bad header gets: no
    answer and one line on stderr; the next good turn is read and answered."""
    good = "2 0\n0 0 1 0\n5 5 5 5\n", "2 0\n0 0 3 0\n5 5 5 3\n"
    n, out, err = run(lambda board, player: "down", "codingame",
                      good[0] + "2 1\n0 0 2 0\n5 5 5 4\n" + good[1])
    assert (n, out) == (2, "DOWN\nDOWN\n")
    assert err.splitlines() == ["tronlab bot: bad input: codingame: own index P changed from "
                                "0 to 1 (header '2 1')"]


def simulate_codingame(seed, n, width=8, height=6, turns=40):
    """Plain-Python CodinGame game with random moves; yield (cells, alive, player)
    each time a player is about to move, cells holding 2+p trails (the truth)."""
    rng = np.random.default_rng(seed)
    grid = [[0] * width for _ in range(height)]
    squares = rng.choice(width * height, size=n, replace=False)
    heads = [divmod(int(s), width)[::-1] for s in squares]
    starts = list(heads)
    alive = [True] * n
    for p, (x, y) in enumerate(heads):
        grid[y][x] = 2 + p
    for _ in range(turns):
        for p in range(n):
            if not alive[p]:
                continue
            if sum(alive) < 2:
                return
            yield [row[:] for row in grid], list(alive), list(heads), list(starts), p
            dx, dy = [(0, -1), (1, 0), (0, 1), (-1, 0)][int(rng.integers(4))]
            x, y = heads[p][0] + dx, heads[p][1] + dy
            if 0 <= x < width and 0 <= y < height and grid[y][x] == 0:
                grid[y][x] = 2 + p
                heads[p] = (x, y)
            else:  # dies: its trail disappears
                alive[p] = False
                grid = [[0 if c == 2 + p else c for c in row] for row in grid]


def board_from(grid, alive, heads, starts):
    h, w = len(grid), len(grid[0])
    cells = np.full((h + 2, w + 2), WALL, np.uint8)
    cells[1:-1, 1:-1] = np.array(grid, np.uint8)
    index = [(y + 1) * (w + 2) + x + 1 for x, y in heads]
    start = [(y + 1) * (w + 2) + x + 1 for x, y in starts]
    return Board(cells, index, alive=alive, starts=start)


def _codingame_reader(data, n):
    """A seat drawn among ``n`` and a CodinGame client for the 8x6 games of
    :func:`simulate_codingame`."""
    client = make_client("codingame")
    client.width, client.height = 8, 6
    return data.draw(st.integers(0, n - 1)), client


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.data())
def test_codingame_client_sees_the_true_board(seed, n, data):
    reader, client = _codingame_reader(data, n)
    for grid, alive, heads, starts, p in simulate_codingame(seed, n):
        if p != reader:
            continue
        truth = board_from(grid, alive, heads, starts)
        (req,) = feed_all(client, codingame_state(truth, reader))
        assert req.player == reader
        assert np.array_equal(req.board.cells, truth.cells)
        assert req.board.alive.tolist() == alive
        for q in range(n):
            if alive[q]:
                assert req.board.heads[q] == truth.heads[q]


# ---- Light Riders -------------------------------------------------------------------

def test_lightriders_text_is_what_games_md_says():
    b = Board.from_ascii("""
        ....
        a1.2
        ....
    """)
    assert lightriders_field(b) == ".,.,.,.,x,0,.,1,.,.,.,."
    assert lightriders_state(b, 1, round=4, time_ms=1200) == (
        "update game round 4\nupdate game field .,.,.,.,x,0,.,1,.,.,.,.\naction move 1200\n")
    s = lightriders_settings(b, 1)
    for line in ("settings your_botid 1", "settings field_width 4", "settings field_height 3",
                 "settings timebank 10000", "settings time_per_move 200"):
        assert line + "\n" in s
    assert encode_state("lightriders", b, 0, turn=3, time_ms=5).startswith("update game round 3\n")


def test_lightriders_client_keeps_facing():
    b = Board.from_ascii("""
        ......
        .1..2.
        ......
    """)
    c = make_client("lightriders")
    reqs = feed_all(c, lightriders_settings(b, 1) + lightriders_state(b, 1, round=0, time_ms=900))
    (r1,) = reqs
    assert r1.player == 1 and r1.turn == 0 and r1.time_left == 0.9
    assert r1.board.facing.tolist() == [1, 3]           # the contest's starting facings
    moved = Board.from_ascii("""
        .1..2.
        .a..b.
        ......
    """)
    (r2,) = feed_all(c, lightriders_state(moved, 1, round=1, time_ms=800))
    assert r2.board.head_xy(0) == (1, 0) and r2.board.head_xy(1) == (4, 0)
    assert r2.board.facing.tolist() == [0, 0]           # both turned up
    assert r2.board.at(1, 1) == WALL                    # trails arrive as walls


@pytest.mark.parametrize("text,message", [
    ("update game field .,.\naction move 10\n", "2 tokens, expected 16x16"),
    ("action move 10\n", "before any 'update game field'"),
    ("hello there\n", "unexpected line 'hello there'"),
    ("settings field_width 2\nsettings field_height 1\nupdate game field 0,?\naction move 1\n",
     "unknown token"),
    # int() took these: '1_0' as 10, an Arabic-Indic one as 1, and 5000 digits to be
    # refused by Python's digit limit as 'not a whole number'
    ("settings field_width 1_0\n", r"field_width: expected a whole number \(ASCII digits"),
    ("settings your_botid \u0661\n", "your_botid: expected a whole number"),
    ("settings timebank " + "9" * 5000 + "\n", r"18 at most\), got '999"),
])
def test_lightriders_client_errors(text, message):
    with pytest.raises(ProtocolError, match=message):
        feed_all(make_client("lightriders"), text)


def simulate_lightriders(seed, size=8, rounds=30):
    """Plain-Python Light Riders with random turns; yield (board, facings) each round."""
    rng = np.random.default_rng(seed)
    y = int(rng.integers(1, size - 1))
    x = int(rng.integers(1, size // 2 - 1))
    pos = [(x, y), (size - 1 - x, y)]
    facing = [1, 3]
    walls = set()
    step = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    for _ in range(rounds):
        cells = np.full((size + 2, size + 2), WALL, np.uint8)
        cells[1:-1, 1:-1] = FREE
        for wx, wy in walls:
            cells[wy + 1, wx + 1] = WALL
        for p, (hx, hy) in enumerate(pos):
            cells[hy + 1, hx + 1] = TRAIL + p
        yield Board(cells, [(hy + 1) * (size + 2) + hx + 1 for hx, hy in pos]), list(facing)
        new = []
        for p in range(2):
            turn = int(rng.integers(3)) - 1  # left, straight, right
            facing[p] = (facing[p] + turn) % 4
            walls.add(pos[p])
            new.append((pos[p][0] + step[facing[p]][0], pos[p][1] + step[facing[p]][1]))
        if new[0] == new[1] or any(not (0 <= a < size and 0 <= b < size) or (a, b) in walls
                                   for a, b in new):
            return
        pos = new


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(0, 1))
def test_lightriders_client_tracks_true_facing(seed, reader):
    client = make_client("lightriders")
    first = True
    for r, (board, facing) in enumerate(simulate_lightriders(seed)):
        text = lightriders_state(board, reader, round=r, time_ms=200)
        if first:
            text = lightriders_settings(board, reader) + text
            first = False
        (req,) = feed_all(client, text)
        assert req.player == reader and req.turn == r
        assert req.board.facing.tolist() == facing
        assert req.board.heads.tolist() == board.heads.tolist()
        assert np.array_equal(req.board.cells == FREE, board.cells == FREE)


# ---- the stdio runner ---------------------------------------------------------------

def run(bot, protocol, text):
    out, err = io.StringIO(), io.StringIO()
    n = run_stdio(bot, protocol, stdin=io.StringIO(text), stdout=out, stderr=err)
    return n, out.getvalue(), err.getvalue()


def test_stdio_answers_each_turn_and_calls_hooks():
    calls = []

    class Bot:
        def start_game(self, board, player, *, rules, time_limit, rng):
            calls.append(("start", player, rules))

        def __call__(self, board, player):
            calls.append(("move", board.head_xy(player)))
            return "right"

        def close(self):
            calls.append(("close",))

    b = Board.from_ascii(SMALL)
    n, out, err = run(Bot(), "google2010", google2010_state(b, 1) * 2)
    assert n == 2 and out == "2\n2\n" and err == ""
    assert calls == [("start", 0, "google2010"), ("move", (5, 3)), ("move", (5, 3)), ("close",)]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_stdio_bot_that_raises_still_answers(protocol):
    def bot(board, player):
        raise RuntimeError("kaboom")

    b = Board.from_ascii("""
        #####
        #1.2#
        #####
    """)
    text = {"google2010": google2010_state(b, 0), "codingame": codingame_state(b, 0),
            "lightriders": lightriders_settings(b, 0) + lightriders_state(b, 0, round=0, time_ms=9)}
    n, out, err = run(bot, protocol, text[protocol])
    assert n == 1
    # google2010/lightriders: the only free square is to the right; codingame: the client's
    # 30x20 board has nothing but the heads, and up is the first free square
    assert out == {"google2010": "2", "codingame": "UP", "lightriders": "right"}[protocol] + "\n"
    assert "kaboom" in err and "bot failed" in err


def test_stdio_bad_return_value_and_bad_input_are_logged():
    b = Board.from_ascii(SMALL)
    n, out, err = run(lambda board, player: "sideways", "google2010",
                      "what is this\n" + google2010_state(b, 0))
    assert n == 1 and out in {"2\n", "3\n"}
    assert "bad input" in err and "sideways" in err


def test_fallback_never_reverses_in_lightriders():
    b = Board.from_ascii("""
        .....
        .1..2
        .....
    """)
    b.facing[0] = 1
    assert fallback_move(b, 0, "lightriders") == 0       # up, not left (a reverse)
    b.facing[0] = 2
    assert fallback_move(b, 0, "lightriders") == 1
    boxed = Board.from_ascii("""
        ###
        #1#
        #2#
    """)
    boxed.facing[0] = 2
    assert fallback_move(boxed, 0, "lightriders") == 2   # no free square: straight on


def test_module_docstring_examples():
    import doctest

    import tronlab.tron.protocol

    result = doctest.testmod(tronlab.tron.protocol)
    assert result.attempted >= 5 and result.failed == 0


@pytest.mark.parametrize("bot, protocol, time_limit, error, words", [
    (5, "google2010", None, TypeError, "bot must be callable .* got int"),
    (lambda b, p: 0, "tron", None, ValueError, "unknown protocol 'tron'"),
    (lambda b, p: 0, 5, None, TypeError, "protocol must be a str"),
    (lambda b, p: 0, "codingame", -1, ValueError, "time must be a positive number"),
    (lambda b, p: 0, "codingame", "1", ValueError, "time must be a positive number"),
])
def test_stdio_checks_its_arguments_before_reading(bot, protocol, time_limit, error, words):
    stdin = io.StringIO("2 0\n1 1 1 1\n5 5 5 5\n")
    with pytest.raises(error, match=words):
        run_stdio(bot, protocol, stdin=stdin, stdout=io.StringIO(), time_limit=time_limit)
    assert stdin.tell() == 0


@pytest.mark.parametrize("streams, words", [
    # before: a str was read a character at a time ('bad input: ... got '5''), bytes
    # streams failed inside the client with "a bytes-like object is required, not 'str'"
    ({"stdin": "5 3\n#####\n#1 2#\n#####\n"}, "stdin must be a text stream, not the text "
                                                r"itself: stdin=io\.StringIO\(text\)"),
    ({"stdin": io.BytesIO(b"5 3\n")}, "stdin must be a text stream .* got a binary BytesIO"),
    ({"stdout": io.BytesIO()}, "stdout must be a text stream .* got a binary BytesIO"),
    ({"stdout": []}, "stdout must be a text stream .* got list"),
])
def test_stdio_refuses_streams_that_carry_no_text(streams, words):
    said = io.StringIO()
    with pytest.raises(TypeError, match=words):
        run_stdio(lambda b, p: 0, "google2010", stderr=said,
                  **{"stdin": io.StringIO("5 3\n"), "stdout": io.StringIO(), **streams})
    assert said.getvalue() == ""


def test_stdio_bot_failure_is_one_line_counted_from_turn_1_traceback_when_verbose():
    def bot(board, player):
        raise RuntimeError("kaboom")

    text = codingame_state(Board.from_ascii("1.2"), 0)
    n, out, err = run(bot, "codingame", text)
    assert n == 1 and err.splitlines() == [
        "tronlab bot: turn 1: bot failed, answering RIGHT instead (RuntimeError: kaboom)"]
    err = io.StringIO()
    run_stdio(bot, "codingame", stdin=io.StringIO(text), stdout=io.StringIO(), stderr=err,
              verbose=True)
    assert "Traceback" in err.getvalue() and 'raise RuntimeError("kaboom")' in err.getvalue()


def _missed_squares_the_reader_cannot_know(before, after, n):
    """Oracle for a turn the reader did not read: the squares of the truth ``after``
    that a reader who saw ``before`` (each (grid, alive, heads)) cannot place - a
    head that moved diagonally with both corners possibly free (free, or the trail
    of a player that died)."""
    (grid0, alive0, heads0), (grid1, alive1, heads1) = before, after
    dying = {2 + q for q in range(n) if alive0[q] and not alive1[q]}
    unknown = set()
    for p in range(n):
        if not (alive0[p] and alive1[p]):
            continue
        (ox, oy), (nx, ny) = heads0[p], heads1[p]
        if abs(nx - ox) + abs(ny - oy) <= 1 or ox == nx or oy == ny:
            continue            # straight: the square between is certain
        corners = [(nx, oy), (ox, ny)]
        if all(grid0[y][x] == 0 or grid0[y][x] in dying for x, y in corners):
            unknown |= {(x, y) for x, y in corners if grid1[y][x] == 2 + p}
    return unknown


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.data())
def test_codingame_client_after_a_broken_turn_keeps_every_trail_it_can_know(seed, n, data):
    # a garbled turn was dropped whole, so each head's square in it was never marked: the
    # reader later took it for free and could run into it.  Now the square between two
    # heads two apart is marked when only one square can be it
    reader, client = _codingame_reader(data, n)
    views = [v for v in simulate_codingame(seed, n) if v[4] == reader]
    if len(views) < 3:
        return
    broken = data.draw(st.integers(1, len(views) - 2))
    for k, (grid, alive, heads, starts, _) in enumerate(views):
        truth = board_from(grid, alive, heads, starts)
        text = codingame_state(truth, reader)
        if k == broken:         # the last player line garbled: the whole turn is dropped
            with pytest.raises(ProtocolError):
                feed_all(client, text.rsplit(" ", 1)[0] + " x\n")
            continue
        (req,) = feed_all(client, text)
        if k == broken + 1:
            before = views[broken - 1]
            unknown = _missed_squares_the_reader_cannot_know(
                (before[0], before[1], before[2]), (grid, alive, heads), n)
            for y in range(6):
                for x in range(8):
                    seen, true = req.board.cells[y + 1, x + 1], grid[y][x]
                    assert seen == true or ((x, y) in unknown and seen == FREE), (x, y)
