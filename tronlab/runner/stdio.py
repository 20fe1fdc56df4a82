"""Run a tronlab bot as a contest program on stdin/stdout (technique E3).

One process plays one game: it reads the server's turns line by line with a
:mod:`tronlab.tron.protocol` client, asks the bot for a move and prints the answer,
flushing after every line.  Diagnostics go to stderr only: a line that breaks
the protocol is reported (``tronlab bot: bad input: ...``) and skipped, and input
that ends in the middle of a turn is reported too.  A broken turn whose end is known
is still answered, since the server waits for it: Light Riders ``pass`` at its
``action`` line; Google 2010 and CodinGame a guess at its last line (the client's
``fallback``: a free square next to the head as the turn's lines showed it).  At end
of input the program stops cleanly; ``tronlab bot`` exits with code 2 when the input
ended on a broken turn (no good turn after the last bad line, or a turn cut short), 0
otherwise.

A bot that raises or returns something that is not a move must not lose the
game by silence: the runner logs the problem to stderr in one line (with the
traceback under ``verbose``) and answers a fallback
move instead (the first move into a free square, never a Light Riders
reverse).  This is what ``python -m tronlab bot NAME --protocol P`` runs.

Starting without waiting for the compiler (:func:`start_bot`).  A search bot's
kernels come from the ahead-of-time module (milliseconds), from numba's cache
(a second or so) or from numba's compiler (tens of seconds on an empty cache).
Contests give one to three seconds for the first move, so ``tronlab bot``
never waits: without the AOT module it plays a
:class:`~tronlab.runner.starting.StartingBot`, which answers from the
plain-Python ``quick`` bot until the compiled bot, loading in other processes,
is ready (see :mod:`tronlab.runner.starting`).
"""

from __future__ import annotations

import sys
import time
import traceback

import numpy as np

from ..jit.clock import now_ns
from ..tron.board import opposite, parse_move
from ..tron.protocol import ProtocolError, check_protocol, make_client
from .registry import check_time


def fallback_move(board, player: int, protocol: str):
    """A legal-looking move when the bot failed: a free square, else straight on."""
    facing = int(board.facing[player]) if board.n_players > player else -1
    legal = board.legal_moves(player)
    if protocol == "lightriders" and facing >= 0:
        legal = [m for m in legal if m != opposite(facing)]
    if legal:
        return legal[0]
    if facing >= 0:
        return facing
    return 0


def run_stdio(bot, protocol: str, *, stdin=None, stdout=None, stderr=None,
              time_limit: float | None = None, rng=None, verbose: bool = False,
              problems: list | None = None, passed: list | None = None) -> int:
    """Play one game of ``protocol`` as a contest program; return the number of the
    bot's answers (the answers written for broken turns not counted: ``passed``).

    ``bot`` is a callable ``bot(board, player) -> move`` with the optional
    ``start_game``/``close`` hooks of :func:`tronlab.runner.engine.play`; a ``start_game``
    that takes ``time_bank`` or ``max_turns`` hears what the Light Riders settings lines
    say of them (None under the other protocols, which never say), and one that takes
    ``first_time_limit`` hears None (no protocol tells it).  When
    the server says how long the bot has (the Light Riders time bank), a bot
    with a ``set_clock(time_left, time_per_move)`` method hears it before the
    move (seconds until the answer's deadline; seconds added a move, or None).  A bot
    with a ``set_turn_start(start_ns)`` method hears when the turn's first input line
    was read (:func:`tronlab.jit.clock.now_ns`; Light Riders' ``settings`` lines, sent
    once before the game, are no turn's): its clock starts there, and it knows it
    is a contest program (the search bots then keep a margin that survives a busy
    machine, :data:`tronlab.tron.bots.base.CONTEST_SHARE`).
    ``problems``, a list, receives why the input ended on a broken turn (a bad line
    with no good turn after it, or a turn cut short), if it did; ``passed``, a list,
    why each turn the bot was not asked was answered all the same (its input was
    broken: ``pass`` under Light Riders, the client's guess under the others).
    """
    _check_arguments(bot, protocol, time_limit)
    stdin = sys.stdin if stdin is None else check_stream("stdin", stdin)
    stdout = sys.stdout if stdout is None else check_stream("stdout", stdout)
    log = _logger(sys.stderr if stderr is None else stderr)
    client = make_client(protocol)
    answers = 0
    turn_start = None       # now_ns() when the turn's first line was read: its clock's start
    broken = None           # the last bad input since the last good turn
    between_turns = getattr(client, "between_turns", lambda line: False)   # LR settings
    try:
        for line in stdin:
            if turn_start is None and line.strip() and not between_turns(line):
                turn_start = now_ns()
            try:
                request = client.feed(line)
            except ProtocolError as err:
                turn_start = None
                broken = _bad_line(err, line, protocol, stdout, log, passed)
                _answer_broken_turn(client, stdout, broken, passed)
                continue
            if request is None:
                if _answer_broken_turn(client, stdout, broken, passed):
                    turn_start = None
                continue
            _brief(bot, request, client, turn_start)
            turn_start = broken = None
            if answers == 0:    # the first turn starts the game
                _start_game(bot, request, client, time_limit, rng, log, verbose)
            _write_line(stdout, _answer(bot, client, request, protocol, verbose, log, answers + 1))
            answers += 1
        _end_of_input(client, broken, log, problems)
    except BrokenPipeError:
        pass  # the server went away: the game is over for us
    finally:
        _close(bot, log, verbose)
    return answers


def _bad_line(err, line, protocol, stdout, log, passed=None) -> str:
    """Log an input line that breaks the protocol and return what it broke.  Under
    Light Riders an ``action`` line still wants an answer: ``pass``, going straight
    (why is noted in ``passed``, a list, if given)."""
    broken = f"bad input: {err}"
    log(f"tronlab bot: {broken}")
    if protocol == "lightriders" and line.split()[:1] == ["action"]:
        _write_line(stdout, "pass")
        if passed is not None:
            passed.append(broken)
    return broken


def _answer_broken_turn(client, stdout, broken, passed=None) -> bool:
    """Answer a turn whose lines all came but broke the protocol (Google 2010, CodinGame):
    the server waits for that answer, and silence loses on time.  The client's guess
    (its ``fallback``, set on the turn's last line) is written and ``broken`` noted in
    ``passed``; True if it was."""
    move = getattr(client, "fallback", None)
    if move is None:
        return False
    _write_line(stdout, client.answer(move))
    if passed is not None:
        passed.append(broken)
    return True


def _write_line(stdout, text: str) -> None:
    """One line to the server, flushed at once (it waits for the whole line)."""
    stdout.write(text + "\n")
    stdout.flush()


def _end_of_input(client, broken, log, problems) -> None:
    """Report a turn the input cut short; note in ``problems`` a broken last turn."""
    cut = getattr(client, "finish", lambda: None)()
    if cut:
        broken = cut
        log(f"tronlab bot: {cut}")
    if broken is not None and problems is not None:
        problems.append(broken)


def _close(bot, log, verbose) -> None:
    """The bot's ``close`` hook, if it has one (a failure is logged)."""
    close = getattr(bot, "close", None)
    if close is not None:
        try:
            close()
        except Exception:
            _failure(log, verbose, "tronlab bot: close raised")


def _brief(bot, request, client, turn_start) -> None:
    """Tell ``bot`` what the turn's input says besides the board: when the turn began
    (``set_turn_start``) and the server's clock (``set_clock``), where it listens."""
    set_turn_start = getattr(bot, "set_turn_start", None)
    if set_turn_start is not None:
        set_turn_start(turn_start)
    set_clock = getattr(bot, "set_clock", None)
    if request.time_left is not None and set_clock is not None:
        set_clock(request.time_left, getattr(client, "time_per_move", None))


def _check_arguments(bot, protocol, time_limit) -> None:
    """run_stdio's preconditions, each a clear error before any input is read."""
    if not callable(bot):
        raise TypeError(f"bot must be callable as bot(board, player) -> move, got "
                        f"{type(bot).__name__}")
    if not isinstance(protocol, str):
        raise TypeError(f"protocol must be a str, got {type(protocol).__name__}")
    if protocol == "backtothecode":     # the CLI's `bot --protocol backtothecode` goes there
        raise ValueError("run_stdio plays the Tron protocols; backtothecode is the capture "
                         "game's: use tronlab.capture.cli.run_program(bot), what `tronlab bot "
                         "NAME --protocol backtothecode` runs")
    check_protocol(protocol)
    if time_limit is not None:
        check_time(time_limit)


def check_stream(name: str, stream, need: str | None = None):
    """``stream`` if it can carry the protocol's text, else a TypeError naming ``name``:
    a str or bytes read line by line would be read a character at a time, and a binary
    stream hands out bytes where the clients read text.  ``need``: the method it must
    have (default: ``write`` for stdout and stderr, ``__iter__`` for stdin)."""
    if isinstance(stream, (str, bytes)):
        raise TypeError(f"{name} must be a text stream, not the text itself: "
                        f"{name}=io.StringIO(text)")
    import io

    binary = isinstance(stream, (io.RawIOBase, io.BufferedIOBase)) or "b" in str(
        getattr(stream, "mode", ""))
    wanted = need or ("__iter__" if name == "stdin" else "write")
    if binary or not hasattr(stream, wanted):
        raise TypeError(f"{name} must be a text stream (io.StringIO, sys.{name}, a file "
                        f"opened in text mode), got {'a binary ' if binary else ''}"
                        f"{type(stream).__name__}")
    return stream


def _failure(log, verbose: bool, what: str) -> None:
    """Log ``what`` and the exception being handled in one line (its traceback too when
    ``verbose``)."""
    kind, err, _ = sys.exc_info()
    log(f"{what} ({kind.__name__}: {err})"
        + (":\n" + traceback.format_exc() if verbose else ""))


def _logger(stderr):
    """``log(msg)``: one line to ``stderr``, never an error (the stream may be gone)."""
    def log(msg: str) -> None:
        try:
            stderr.write(msg.rstrip("\n") + "\n")
            stderr.flush()
        except (OSError, ValueError):
            pass
    return log


def _start_game(bot, request, client, time_limit, rng, log, verbose=False):
    """The bot's ``start_game`` hook on the first request (a failure is logged).  As the
    engine does, a hook that takes ``max_turns``, ``first_time_limit`` or ``time_bank`` is
    told what the input said of them: under Light Riders the bank and the turn limit of
    the settings lines; the first move's limit no protocol tells (None)."""
    from .engine import start_keywords

    hook = getattr(bot, "start_game", None)
    if hook is not None:
        options = start_keywords(hook, max_turns=getattr(client, "max_turns", None),
                                 first_time_limit=None,
                                 time_bank=getattr(client, "time_bank", None))
        try:
            hook(request.board.copy(), request.player, rules=client.protocol,
                 time_limit=time_limit, rng=rng, **options)
        except Exception:
            _failure(log, verbose, "tronlab bot: start_game raised")


def _answer(bot, client, request, protocol, verbose, log, turn=None) -> str:
    """The protocol's answer line for the bot's move (a safe move if the bot fails).
    ``turn`` counts the answers from 1, as the rules count turns."""
    turn = request.turn + 1 if turn is None else turn
    board, player = request.board, request.player
    t0 = time.perf_counter()
    try:
        move = bot(board, player)
        if protocol == "lightriders" and (move is None or (
                isinstance(move, str) and move.strip().lower() == "pass")):
            move = None
        else:
            move = parse_move(move)
    except Exception:
        move = fallback_move(board, player, protocol)
        _failure(log, verbose, f"tronlab bot: turn {turn}: bot failed, answering "
                               f"{client.answer(move)} instead")
    text = client.answer(move)
    if verbose:
        stats = getattr(bot, "last_stats", None)
        log(f"turn {turn}: player {player} answers {text} "
            f"({(time.perf_counter() - t0) * 1000:.1f} ms)"
            + (f" search: {_format_stats(stats)}" if stats else "")
            + f"\n{board.to_ascii()}")
    return text


def _format_stats(stats) -> str:
    """One line from a bot's ``last_stats`` (a dict or any object with attributes)."""
    items = stats.items() if isinstance(stats, dict) else vars(stats).items()
    return " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in items)


def start_bot(spec: str, *, time=None, rng=None, stderr=None):
    """The bot ``tronlab bot SPEC`` plays: the registered bot itself when it can
    answer at once (its kernels come from the loaded ahead-of-time module, or
    it has none), else a :class:`tronlab.runner.starting.StartingBot` that
    answers from the quick bot until the compiled one is ready.  ``spec`` is a
    name, or ``NAME+key=value`` with the bot's options
    (:func:`tronlab.runner.registry.make_spec_bot`); the caller checks them first
    (:func:`tronlab.arena.bots.check_spec`).

    A bot registered by the caller's own code (not a built-in) is always the bot
    itself: the StartingBot's helper processes could not make it, as they import
    tronlab only.  Its kernels then load in this process, the first move's clock
    running (its ``start_game`` is the place to warm them up)."""
    from ..jit import aot
    from .registry import describe, is_builtin, make_spec_bot

    name = spec.partition("+")[0]
    describe(name)                  # an unknown name is an error now, not in the background
    if aot.loaded_names():          # the twins answer at once: no helper processes needed
        return make_spec_bot(spec, rng=rng, time=time)
    from .starting import NO_KERNELS, StartingBot

    if name in NO_KERNELS or not is_builtin(name):
        return make_spec_bot(spec, rng=rng, time=time)
    seed = None if rng is None else int(np.random.default_rng(rng).integers(2**31))
    bot = StartingBot(spec, time=time, seed=seed, stderr=stderr)
    bot.start()
    return bot
