"""A student's Python bot as a contest program: ``move(board, player)`` on stdin/stdout.

    python -m tronlab.arena.pyprogram FILE --protocol google2010
    python -m tronlab.arena.pyprogram FILE --check    # only load it: one line if that fails

The arena runs every ``py:FILE`` bot this way, in a process of its own, so the
game's clock, a crash or an endless loop in the student's code cost that bot
the game and never the tournament.  ``board`` is a :class:`tronlab.tron.board.Board`
(a copy: scribbling on it is fine) and ``player`` the bot's player number; the
answer is 0-3 or a name such as ``"up"`` (under Light Riders also ``"pass"``).
Under Light Riders a file that also defines ``set_clock(time_left,
time_per_move)`` hears its time bank (seconds) before each ``move``, as the
search bots do (under a limit a move instead of a bank: that limit, as both).  A
file that defines ``start_game(board, player, *, rules,
time_limit, rng)`` has it called once, just before its first ``move``, as an
in-process bot's hook is (:mod:`tronlab.runner.engine`), and on the first move's
clock, where its precomputing is paid for: ``rules`` is the game's name,
``time_limit`` the seconds a later move has (None under a time bank), ``rng`` a
numpy Generator (seeded from the game's seed when the arena runs it), and a
hook that takes ``max_turns``, ``first_time_limit`` or ``time_bank`` keywords is
told those too.  ``move`` alone is all a file needs.

A student's mistake is told in the student's terms, as a bot run in process
has it (:mod:`tronlab.runner.engine`).  An exception in ``move`` (or in
``start_game`` or ``set_clock``) is answered with one line starting with
:data:`RAISED_MARK`, read by the referee as the fault "error" (``move() raised
RuntimeError: oops (bot.py, line 7)``), the traceback going to stderr.  A
``move`` that returns something that is not a move (``None``, ``"sideways"``,
``7``) is answered with a line starting with :data:`NOT_A_MOVE`, the fault
"illegal", quoting the value and saying what a move is.  Either way the
program plays on, so under Light Riders rules, where a bad answer only means
"keep going straight", the bot is asked again next turn, as one in process is.
Only a program that really ends (``exit()``, ``sys.exit``, ``os._exit``, killed) is
"exited"; a hook that called ``exit()`` or ``sys.exit`` says so on stderr, on a last
line starting with :data:`EXITED_MARK`, which the referee words for the file
(:mod:`tronlab.arena.pyfilebot`).
Anything the student's code writes to its standard output goes to stderr, not
to the referee, and its standard input is empty: the protocol runs on copies of
the two file descriptors, so this holds for ``print``, for ``os.system`` and
for a C library alike.
On Linux the file runs in a child of the program, which waits for it and dies with
it (:func:`_shield`): a file that kills its parent process ends its own bot, not the
game's referee.
``--check`` loads the file and stops: a file whose loading raises prints one line
(:data:`CHECK_MARK`, the file, its line and the exception) and exits with 1; the
arena runs it once per bot before a tournament (:func:`tronlab.arena.pycheck.check_bots_load`).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import traceback

#: the start of the line ``--check`` prints when loading the file failed
CHECK_MARK = "py-bot-load-error: "
#: the start of the answer line for a value of ``move`` that is not a move
NOT_A_MOVE = "move() returned "
#: the start of the answer line for a hook of the file (``move``...) that raised
RAISED_MARK = "py-bot-error: "
#: the start of the stderr line of a hook that called ``exit()`` or ``sys.exit()``
EXITED_MARK = "py-bot-exit: "
#: what a move is, for the student who returned something else
MOVES_ARE = "return 0-3 (0 up, 1 right, 2 down, 3 left) or a name such as 'up'"


def load_move(path: str):
    """The ``move`` function of the Python file ``path``; ValueError if it has none
    (:func:`load_bot`)."""
    return load_bot(path)[0]


def load_bot(path: str):
    """``(move, set_clock, start_game)`` of the Python file ``path`` (each hook None when
    the file has none); ValueError if it has no ``move``.
    The file's folder goes last on ``sys.path``, so helper modules beside the bot
    import, while a classmate's bot saved in the same folder as ``random.py`` does
    not replace the standard ``random`` for everyone else."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.append(folder)
    name = "student_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {path!r} as Python")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    move = getattr(module, "move", None)
    if not callable(move):
        raise ValueError(f"{path} has no function move(board, player)")
    hooks = [getattr(module, name, None) for name in ("set_clock", "start_game")]
    return (move, *(hook if callable(hook) else None for hook in hooks))


def load_problem(path: str) -> str | None:
    """None if the file ``path`` loads and defines ``move``, else one line naming the
    file, the line of it that was running and the exception its loading raised."""
    try:
        load_move(path)
    except BaseException as err:   # noqa: BLE001 - whatever loading it does, say it
        frames = traceback.extract_tb(err.__traceback__)
        own = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(path)]
        line = f":{own[-1].lineno}" if own else ""
        deeper = ""
        if own and frames[-1] is not own[-1] and not frames[-1].filename.startswith("<"):
            deeper = f" (in {frames[-1].filename}:{frames[-1].lineno})"
        return f"{path}{line}: loading the py: bot raised {describe_error(err)}{deeper}"
    return None


def describe_error(err: BaseException) -> str:
    """``RuntimeError: oops``: the exception ``err`` on one line, at most 300 characters
    (a student's exception may have a broken or many-line ``__str__``); an EOFError
    (``input()``) also says that there is nothing to read."""
    try:
        text = f"sys.exit({err.code!r})" if isinstance(err, SystemExit) else str(err)
    except Exception:   # noqa: BLE001 - a student's exception may have a broken __str__
        text = ""
    detail = f"{type(err).__name__}: {text}" if text else type(err).__name__
    detail = " ".join(detail.split())[:300]
    if isinstance(err, EOFError):       # input(): the file's stdin is empty, see main
        detail += " (a bot's standard input is empty: input() has nothing to read)"
    return detail


def raised_line(hook: str, err: BaseException, path: str) -> str:
    """The answer line for the file's ``hook`` (``"move"``...) that raised ``err``:
    :data:`RAISED_MARK`, then ``move() raised RuntimeError: oops (bot.py, line 2)``,
    the line being the last one of the file ``path`` the error went through (else
    the last one outside this module, in a helper module of the student's)."""
    frames = [f for f in traceback.extract_tb(err.__traceback__)
              if os.path.abspath(f.filename) != os.path.abspath(__file__)]
    own = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(path)]
    frame = (own or frames or [None])[-1]
    where = "" if frame is None else f" ({os.path.basename(frame.filename)}, line {frame.lineno})"
    return " ".join(f"{RAISED_MARK}{hook}() raised {describe_error(err)}{where}".split())


def _protocol_streams():
    """``(input, output)`` of the protocol, on copies of file descriptors 0 and 1;
    then descriptor 1 is pointed at stderr and 0 at /dev/null (and ``sys.stdout``,
    ``sys.stdin`` with them), so whatever the student's code writes or reads there,
    by Python or not, never touches the referee's lines."""
    sys.stdout.flush()
    stdin = os.fdopen(os.dup(0), "r", encoding=sys.stdin.encoding, errors=sys.stdin.errors)
    out = os.fdopen(os.dup(1), "w", encoding=sys.stdout.encoding, errors=sys.stdout.errors)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull, encoding="utf-8")   # noqa: SIM115 - lives as long as the bot
    return stdin, out


def main(argv=None) -> int:
    from ..tron.protocol import make_client

    parser = argparse.ArgumentParser(prog="python -m tronlab.arena.pyprogram")
    parser.add_argument("file")
    parser.add_argument("--protocol", default="google2010")
    parser.add_argument("--check", action="store_true",
                        help="only load the file; print one line if that fails")
    parser.add_argument("--game", type=json.loads, default={},
                        help="JSON: what start_game is told (time_limit, first_time_limit, "
                             "time_bank, max_turns, seed)")
    args = parser.parse_args(argv)
    stdin, out = _protocol_streams()
    if args.check:
        problem = load_problem(args.file)
        if problem:
            out.write(CHECK_MARK + problem + "\n")
            out.flush()
        return 1 if problem else 0
    try:
        move, set_clock, start_game = load_bot(args.file)
    except BaseException as err:   # noqa: BLE001 - whatever the file does, say it and stop
        traceback.print_exc()
        if isinstance(err, SystemExit):     # said for the file, as a hook's exit is
            print(f"{EXITED_MARK}loading it called {exit_call(err.code)}, which ends the bot",
                  file=sys.stderr)
        return 1
    client = make_client(args.protocol)
    return _play(stdin, out, client, (move, set_clock, start_game), args.game,
                 args.file)


def _play(stdin, out, client, hooks, game, path) -> int:
    """Answer every request of ``stdin`` until it ends (0); a ``sys.exit`` in the
    student's code ends the program as it asked."""
    from ..tron.protocol import ProtocolError

    hooks = dict(zip(("move", "set_clock", "start_game"), hooks))
    for line in stdin:
        try:
            request = client.feed(line)
        except ProtocolError as err:
            print(f"pyprogram: bad input: {err}", file=sys.stderr)
            continue
        if request is not None:
            out.write(_answer(request, client, hooks, game, path) + "\n")
            out.flush()
    return 0


def _answer(request, client, hooks, game, path) -> str:
    """The line answering ``request``: the move, or what the student's code did wrong.
    The hooks run as the engine runs an in-process bot's: ``start_game`` once (a
    failure there costs the first move), ``set_clock`` then ``move`` (a failure in
    ``set_clock`` costs this one); the traceback goes to stderr."""
    hook = "move"
    try:
        start_game = hooks.pop("start_game", None)
        if start_game is not None:
            hook = "start_game"
            call_start_game(start_game, request, client, game)
        if hooks["set_clock"] is not None and request.time_left is not None:
            hook = "set_clock"
            hooks["set_clock"](request.time_left, getattr(client, "time_per_move", None))
        hook = "move"
        answer = hooks["move"](request.board.copy(), request.player)
    except SystemExit as err:       # the student ends the program: it exits, as asked
        print(f"{EXITED_MARK}{hook}() called {exit_call(err.code)}, which ends the bot",
              file=sys.stderr)
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as err:   # noqa: BLE001 - the student's error: say it, play on
        tb = err.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next        # the student's frames only
        traceback.print_exception(type(err), err, tb)
        return raised_line(hook, err, path)
    return answer_line(client, answer)


def exit_call(code) -> str:
    """What the student's code called to end the bot, from the SystemExit's ``code``:
    ``exit()`` and ``sys.exit()`` both raise it with None, so that one names both."""
    return "exit() or sys.exit()" if code is None else f"sys.exit({code!r})"


def call_start_game(hook, request, client, game: dict) -> None:
    """Call the file's ``start_game`` as the engine calls an in-process bot's: the board,
    the player, ``rules``, ``time_limit`` and ``rng`` as keywords, and ``max_turns``,
    ``first_time_limit`` and ``time_bank`` to a hook that takes them.  ``game`` holds
    what the referee said of the game (``--game``); under Light Riders the settings
    fill in the bank and the turn limit it did not give."""
    import numpy as np

    from ..runner.engine import start_keywords

    options = {"time_limit": game.get("time_limit"),
               "first_time_limit": game.get("first_time_limit"),
               "time_bank": game.get("time_bank"), "max_turns": game.get("max_turns")}
    if client.protocol == "lightriders" and "time_bank" not in game:
        options["time_bank"] = client.time_bank
    if client.protocol == "lightriders" and "max_turns" not in game:
        options["max_turns"] = client.max_turns
    if options["time_bank"] is not None:
        options["time_bank"] = tuple(options["time_bank"])
    kwargs = {"rules": client.protocol, "time_limit": options.pop("time_limit"),
              "rng": np.random.default_rng(game.get("seed"))}
    kwargs.update(start_keywords(hook, **options))
    hook(request.board.copy(), request.player, **kwargs)


def answer_line(client, answer) -> str:
    """The protocol's line for ``answer``, the value ``move`` returned.  For a value that
    is not a move, a line saying so (the value cut to 24 characters), which the referee
    reads as the fault "illegal"; the reason goes to stderr.  Under Light Riders
    ``"pass"`` is an answer of its own (keep going straight), as in a game in process."""
    from ..runner.reprs import safe_repr
    from ..tron.board import parse_move

    if (client.protocol == "lightriders" and isinstance(answer, str)
            and answer.strip().lower() == "pass"):
        return client.answer(None)
    try:
        return client.answer(parse_move(answer))
    except Exception as err:    # noqa: BLE001 - whatever move() returned, say it
        shown = " ".join(safe_repr(answer, 24).split())       # one line, whatever __repr__ does
        print(f"pyprogram: {NOT_A_MOVE}{safe_repr(answer, 200)}, which is not a move "
              f"({err}): {MOVES_ARE}", file=sys.stderr)
        return f"{NOT_A_MOVE}{shown}: not a move"     # pyfilebot reads it


def _shield() -> None:
    """Go on in a child process, this one waiting for it and ending as it did (its exit
    code, or killed by the same signal).  The student's code then has this process as
    its parent, not the referee: a file that kills its parent (``os.kill(os.getppid(),
    9)``, at import or in ``move``) ends its own bot, as a crash does, and no longer the
    match or the whole tournament that started it (a rerun died on the same game).  The
    child dies with this process (Linux's ``PR_SET_PDEATHSIG``), so it cannot go on as an
    orphan whose next ``getppid()`` is the arena (its subreaper).  Elsewhere nothing
    changes."""
    import signal

    from ..runner.orphans import can_die_with_parent, die_with_parent
    if not can_die_with_parent():
        return
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:                # the child: the bot
        die_with_parent(signal.SIGKILL, parent, code=1)
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)       # the bot's to handle
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


if __name__ == "__main__":
    _shield()
    sys.exit(main())
