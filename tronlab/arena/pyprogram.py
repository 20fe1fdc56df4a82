"""A student's Python bot as a contest program: ``move(board, player)`` on stdin/stdout.

    python -m tronlab.arena.pyprogram FILE --protocol google2010

The arena runs every ``py:FILE`` bot this way, in a process of its own, so the
game's clock, a crash or an endless loop in the student's code cost that bot
the game and never the tournament.  ``board`` is a :class:`tronlab.tron.board.Board`
(a copy: scribbling on it is fine) and ``player`` the bot's player number; the
answer is 0-3 or a name such as ``"up"``.

Unlike ``tronlab bot`` (which answers a fallback move when its bot fails), a
student's exception ends the program with the traceback on stderr: the game
records it as "exited" with the error's last line, which is what a student
needs to see.  Anything the student prints goes to stderr, not to the referee.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import traceback


def load_move(path: str):
    """The ``move`` function of the Python file ``path``; ValueError if it has none."""
    name = "student_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {path!r} as Python")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    move = getattr(module, "move", None)
    if not callable(move):
        raise ValueError(f"{path} has no function move(board, player)")
    return move


def main(argv=None) -> int:
    from ..tron.board import parse_move
    from ..tron.protocol import ProtocolError, make_client

    parser = argparse.ArgumentParser(prog="python -m tronlab.arena.pyprogram")
    parser.add_argument("file")
    parser.add_argument("--protocol", default="google2010")
    args = parser.parse_args(argv)
    out = sys.stdout
    sys.stdout = sys.stderr            # a student's print() must not reach the referee
    try:
        move = load_move(args.file)
    except BaseException:   # noqa: BLE001 - whatever the file does, say it and stop
        traceback.print_exc()
        return 1
    client = make_client(args.protocol)
    for line in sys.stdin:
        try:
            request = client.feed(line)
        except ProtocolError as err:
            print(f"pyprogram: bad input: {err}", file=sys.stderr)
            continue
        if request is None:
            continue
        try:
            answer = move(request.board.copy(), request.player)
            text = client.answer(parse_move(answer))
        except BaseException:   # noqa: BLE001 - the student's error, shown as it is
            traceback.print_exc()
            return 1
        out.write(text + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
