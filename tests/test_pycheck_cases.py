"""check_python_bot on small files: which a py: bot can be, and what a refused one is told.
Each case is read by Python's own rules: what binds ``move`` at the top level, and which
calls ``move(board, player)`` and ``start_game(board, player, *, rules, time_limit, rng)``
a signature takes."""

import pytest

from tronlab.arena.pycheck import check_python_bot

RET = "    return 0\n"


@pytest.mark.parametrize("source", [
    "def setup():\n    global move\n    move = lambda board, player: 0\nsetup()\n",
    "def move(*args):\n" + RET,
    "def move(board, player, /):\n" + RET,
    "def deco(f):\n    return f\n@deco\ndef move(board):\n" + RET,          # decorated: trusted
    "from helper_zz import *\n",                                             # move from there
    "try:\n    def move(board, player):\n        return 0\nexcept Exception:\n    pass\n",
    "try:\n    import ujson_zz\nexcept ImportError:\n    def move(board, player):\n"
    "        return 0\n",
    "match 1:\n    case 1:\n        def move(board, player):\n            return 0\n",
    "move, other = (lambda board, player: 0), 1\n",
    "from .not_here_zz import x\ndef move(board, player):\n" + RET,           # a package's
    # a walrus in a comprehension binds in the module: the lambda is the move played
    "def move(board):\n" + RET + "[move := (lambda b, p: 0) for _ in (1,)]\n",
    # and so does one in an assignment's value
    "def move(board):\n" + RET + "x = (move := (lambda b, p: 0))\n",
    # a yield in a function defined inside move, or in a lambda there, is not move's own
    "def move(board, player):\n    def moves():\n        yield 0\n    return next(moves())\n",
    "def move(board, player):\n    f = lambda: (yield)\n" + RET,
], ids=["global", "varargs", "posonly", "decorated", "star", "try", "except", "match",
        "tuple", "relative", "walrus-comprehension", "walrus-in-assignment", "inner-yield",
        "lambda-yield"])
def test_files_that_can_be_py_bots(tmp_path, source):
    (tmp_path / "helper_zz.py").write_text("def move(board, player):\n    return 0\n")
    path = tmp_path / "ann.py"
    path.write_text(source)
    check_python_bot(str(path))


@pytest.mark.parametrize("source, words", [
    ("def move(board, player, *, depth):\n" + RET, "ann.py:1: move(board, player, *, depth) "
                                                   "cannot be called as move(board, player)"),
    ("def move(board, player, extra):\n" + RET, "cannot be called as move(board, player)"),
    ("def move(board, player):\n" + RET + "return 1\n", "ann.py:3: SyntaxError: 'return' "
                                                        "outside function"),
    ("import helper_zz\ndef move(board, player):\n" + RET, "ann.py:1: imports 'helper_zz'"),
    ("def move(board, player):\n" + RET + "def start_game(board, player, rules, /, **o):\n"
     "    pass\n", "ann.py:3: start_game(board, player, rules, /, **o) cannot be called"),
    # a walrus inside a lambda binds in the lambda, not the module: one move, checked
    ("def move(board):\n" + RET + "hooks = []\nhooks.append(lambda: (move := 0))\n",
     "ann.py:1: move(board) cannot be called as move(board, player)"),
    # nor one in a function defined in an if block (the block was walked into the def)
    ("def move(board):\n" + RET + "if True:\n    def helper():\n        return (move := 3)\n",
     "ann.py:1: move(board) cannot be called as move(board, player)"),
    # calling these runs none of move's lines: a generator, a coroutine, never a move
    ("def move(board, player):\n    if board:\n        yield 0\n",
     "ann.py:1: move has a yield in it, which makes it a generator"),
    ("def move(board, player):\n    yield from range(4)\n", "return instead of yield"),
    ("async def move(board, player):\n" + RET, "ann.py:1: move is an async def"),
], ids=["keyword-only", "three", "return", "prefix", "posonly-rules", "walrus-in-lambda",
        "walrus-in-nested-def", "yield", "yield-from", "async"])
def test_files_that_cannot_be_py_bots_are_told_why(tmp_path, source, words):
    # helper_zz_old.py is not helper_zz: only 'helper_zz.' starts the module's file name
    (tmp_path / "helper_zz_old.py").write_text("x = 1\n")
    path = tmp_path / "ann.py"
    path.write_text(source)
    with pytest.raises(ValueError) as err:
        check_python_bot(str(path))
    assert words in str(err.value)
