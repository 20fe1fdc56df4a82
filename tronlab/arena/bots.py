"""The players of a tournament, named by a string (a *bot spec*).

* ``NAME`` or ``NAME+key=value+...`` - a registered bot of the game's family
  (``tronlab bots``), with options in JSON (``chamber+draw=-500+tt=false``);
* ``py:FILE`` - a Python file with a function ``move(board, player)``, the way
  a student writes a bot: it runs in its own process
  (:mod:`tronlab.arena.pyprogram`) under the game's time limit, so an exception
  or a hang costs that bot its move and nothing else, as in process (a stray
  ``print`` goes to stderr);
* ``cmd:COMMAND`` - an external contest program speaking the game's protocol
  (:class:`tronlab.runner.external.ExternalBot`; for Back to the Code
  :class:`tronlab.capture.external.CaptureProgram`).  ``py:`` files are for the
  Tron games.

A program that crashes, hangs, prints garbage or starts children loses the
game with a fault code, as in ``tronlab match``; its process group is killed
when the game ends.  :func:`bots_in_folder` turns a classroom folder into specs.

>>> bot_name("py:/home/ann/bots/ann.py"), bot_name("cmd:python3 bob.py"), bot_name("cmd:./carl")
('ann', 'bob', 'carl')
>>> bot_name("cmd:tronlab bot nash --protocol lightriders")
'tronlab bot nash'
>>> bot_name("cmd:python3 bob.py --greedy"), bot_name("cmd:./carl -d 3")
('bob --greedy', 'carl -d 3')
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import sys
from typing import NamedTuple

from ..runner.games import get_game
from .common import NOT_UTF8, is_utf8, shown_name
from .stats import by_name

#: registered Tron bots that take a fixed search depth
DEPTH_BOTS = {"minimax", "chamber", "nash"}


def bot_name(spec: str) -> str:
    """The name a bot has in tables: a Python file's stem, a program's file name
    (its ``.py`` script's stem) with the arguments after it, else the spec itself."""
    if spec.startswith("py:"):
        return os.path.splitext(os.path.basename(spec[3:]))[0]
    if spec.startswith("cmd:"):
        try:
            args = _command(spec)
        except ValueError:                # no command line in it: the spec is the name
            return spec
        scripts = [k for k, a in enumerate(args) if a.endswith(".py")]
        if scripts:
            k = scripts[0]
            return _with_args(os.path.splitext(os.path.basename(args[k]))[0], args[k + 1:])
        own = _own_bot(args)
        if own:
            return f"tronlab bot {own}"
        if os.path.basename(args[0]).startswith("python"):
            return spec                   # python -m ...: only the whole line says who it is
        return _with_args(os.path.basename(args[0]), args[1:])
    return spec


def _with_args(name: str, args: list[str]) -> str:
    """A program's name with the arguments it is given, so that one program run two ways
    (``./bot --aggressive`` beside ``./bot``) is two bots in the tables."""
    return shlex.join([name, *args]) if args else name


def _own_bot(args: list[str]) -> str:
    """The bot ``NAME`` of a command line ``tronlab bot NAME ...`` (also through
    ``python -m tronlab``), else ''.  Named after the program alone, two of tronlab's
    own bots run as programs would both be 'tronlab'."""
    words = [os.path.basename(args[0])] + args[1:]
    if words[0].startswith("python") and words[1:3] == ["-m", "tronlab"]:
        words = words[2:]
    if words[0] == "tronlab" and words[1:2] == ["bot"] and len(words) > 2:
        return words[2]
    return ""


def _command(spec: str) -> list[str]:
    try:
        args = shlex.split(spec[4:])
    except ValueError as err:
        raise ValueError(f"cannot read the command in {spec!r}: {err}") from None
    if not args:
        raise ValueError("cmd: needs a command line, e.g. cmd:'python3 mybot.py'")
    return args


def _options(spec: str):
    name, *extra = spec.split("+")
    opts = {}
    for item in extra:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"bot option {item!r} in {spec!r} is not key=value")
        if key in opts:
            raise ValueError(f"bot option {key!r} is given twice in {spec!r}")
        try:
            opts[key] = json.loads(value)
        except json.JSONDecodeError:
            opts[key] = value
    return name, opts


def check_spec(spec: str, game: str) -> None:
    """Raise ValueError naming the problem if ``spec`` cannot play ``game``."""
    family = get_game(game).family
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a bot is a non-empty string, got {spec!r}")
    if not is_utf8(spec):
        raise ValueError(f"{shown_name(spec)!r}: {NOT_UTF8}")
    if spec.startswith("py:"):
        if family != "tron":
            raise ValueError(f"py: bots play the Tron games, not {game}: a {game} bot is a "
                             f"program speaking its protocol (cmd:COMMAND; what it reads and "
                             f"answers: tronlab/capture/protocol.py)")
        _check_python_path(spec)
        from .pycheck import check_python_bot
        check_python_bot(spec[3:])
    elif spec.startswith("cmd:"):
        check_program(spec)
    else:
        from ..runner.registry import bot_names, is_builtin, unknown_bot
        name, opts = _options(spec)
        if name not in bot_names(family):
            raise ValueError(unknown_bot(name, family) + _program_hint(spec, family))
        if opts or not is_builtin(name, game=family):
            _check_bot_options(spec, name, family, opts)


def _check_python_path(spec: str) -> None:
    """A ValueError if the path of a ``py:`` spec is not a file: a folder is named
    as one, with where a folder of bots goes (``--bots-dir``)."""
    path = spec[3:]
    if os.path.isdir(path):
        raise ValueError(f"{path!r} (from {spec!r}) is a folder: py: takes one Python file "
                         f"with move(board, player); a folder of bots plays in "
                         f"'tronlab arena run --bots-dir {shlex.quote(path)}'")
    if not os.path.isfile(path):
        raise ValueError(f"no such Python file: {path!r} (from {spec!r})")


def _program_hint(spec: str, family: str) -> str:
    """For a spec that is a command line or names a file (``python3 mybot.py``,
    ``mybot.py``): how to write it as a bot, '' for anything else."""
    words = spec.split()
    if len(words) < 2 and not os.path.isfile(spec):
        return ""
    command = spec.strip() if len(words) > 1 else (
        f"python3 {spec}" if spec.endswith(".py") else spec if os.sep in spec else f"./{spec}")
    move = (f", or py:{words[-1]} for a file with move(board, player)"
            if family == "tron" and words[-1].endswith(".py") else "")
    return f"; a contest program is cmd:COMMAND (cmd:{command}){move}"


def check_program(spec: str) -> list[str]:
    """The arguments of a ``cmd:`` spec whose program can start, else a ValueError
    naming the problem: a command that cannot be split, a program that is neither
    on PATH nor a file, a file without its x bit, a file of this folder named
    without ``./`` (the system looks for such a name on PATH only), or a Python
    program that does not compile or lacks a top-level import."""
    args = _command(spec)
    program = args[0]
    if shutil.which(program) is not None:
        _check_interpreter(shutil.which(program))
        _check_python_script(args)
        return args
    if not os.path.isfile(program):
        raise ValueError(f"program not found: {program!r} (from {spec!r})")
    if os.sep not in program:
        run = "python3 " if program.endswith(".py") else ""
        raise ValueError(f"{program!r} (from {spec!r}) is a file in this folder, but a "
                         f"program named without a folder is looked up on PATH only: write "
                         f"cmd:./{program}" + (f" or cmd:{run}{program}" if run else ""))
    if not os.access(program, os.X_OK):
        raise ValueError(f"{program} is not executable: chmod +x {shlex.quote(program)}")
    _check_interpreter(program)
    _check_python_script(args)
    return args


def _check_interpreter(program: str) -> None:
    """A ``#!`` script must name an interpreter the system can start: a first line saved
    with Windows line ends names ``'/bin/sh\\r'``, and the program then failed every game
    with 'could not start ...: No such file or directory', its file being there."""
    try:
        with open(program, "rb") as f:
            line = f.readline(256)
    except OSError:
        return
    if not line.startswith(b"#!"):
        return
    if line.endswith(b"\r\n"):
        raise ValueError(f"{program}: its #! line ends in a Windows line end (CR LF), so the "
                         f"system looks for an interpreter whose name ends in CR: save it "
                         f"with Unix line ends (dos2unix {shlex.quote(program)})")
    words = line[2:].split()
    interpreter = os.fsdecode(words[0]) if words else ""
    if interpreter.startswith("/") and not os.access(interpreter, os.X_OK):
        raise ValueError(f"{program}: its #! line names {interpreter}, which this machine "
                         f"does not have: name one it has (#!/usr/bin/env python3)")


def _check_python_script(args: list[str]) -> None:
    """A contest program that is a Python file (``python FILE.py ...`` or ``./FILE.py``)
    must compile and find its top-level imports (:func:`~tronlab.arena.pycheck.
    check_python_program`): a typo there would lose every game at its first turn."""
    run_by_python = os.path.basename(args[0]).startswith("python") and len(args) > 1
    script = args[1] if run_by_python else args[0]
    if script.endswith(".py") and os.path.isfile(script):
        from .pycheck import check_python_program
        check_python_program(script)


def _check_bot_options(spec: str, name: str, family: str, opts: dict) -> None:
    """Make the bot once with its options (a bot of one's own registering even without):
    a wrong option, or a factory that cannot make its bot, is refused with the plan, not
    found as a traceback when the run warms its bots up or in every game as an 'error'
    fault (the bots check their options when made)."""
    from ..runner.registry import get_bot, is_builtin
    try:
        get_bot(name, game=family, **opts)
    except (TypeError, ValueError) as err:   # get_bot names an unknown option itself
        raise ValueError(f"bot {spec!r}: {err}") from None
    except Exception as err:  # noqa: BLE001 - a factory of one's own: said in one line
        if is_builtin(name, game=family):
            raise
        raise ValueError(f"bot {spec!r} could not be made: its factory raised "
                         f"{type(err).__name__}: {err}") from None


def bot_files(spec: str, cwd=None, python=None) -> list[str]:
    """The files a ``py:`` or ``cmd:`` bot runs, as named: the ``py:`` file; the
    program and every argument of a ``cmd:`` line that is a file here (not the Python
    running tronlab: ``python``, default this process's); [] for a registered bot.
    ``cwd``: the folder relative names are read from, joined to them (None: this
    process's, names as they are)."""
    def here(name):
        return name if cwd is None else os.path.join(cwd, name)

    if spec.startswith("py:"):
        return [here(spec[3:])]
    if spec.startswith("cmd:"):
        python = os.path.realpath(python or sys.executable)
        return [here(a) for a in _command(spec)
                if os.path.isfile(here(a)) and os.path.realpath(here(a)) != python]
    return []


def bot_files_hash(spec: str, cwd=None, python=None) -> str:
    """A short hash of the contents of :func:`bot_files`, '' for a registered bot or a
    program found on the PATH only.  Modules such a file imports are not read: a
    changed helper module alone does not change the hash."""
    paths = bot_files(spec, cwd, python)
    digest = hashlib.sha1()
    for path in paths:
        try:
            with open(path, "rb") as f:
                digest.update(f.read())
        except OSError:
            continue
    return digest.hexdigest()[:12] if paths else ""


#: the share of the engine's limits a program's own clock waits (its clock must answer first)
MARGIN = 0.9


def make_bot(spec: str, game: str, *, time=None, depth=None, rng=None, limits=(None, None),
             cwd=None):
    """A fresh bot for one game of ``game``.  ``limits`` are the engine's
    ``(time_limit, first_time_limit)``, for the clock of programs.  ``cwd`` is the
    folder a program runs in and a relative ``py:`` path is read from: the folder of
    the run that planned the game, which a Dask worker does not share (None, or a
    folder this machine lacks: this process's)."""
    from ..runner.external import ExternalBot

    if cwd is not None and not os.path.isdir(cwd):
        cwd = None
    if get_game(game).family == "capture":
        return _capture_bot(spec, rng, limits, cwd)
    if is_program(spec):
        if spec.startswith("cmd:"):
            args = _command(spec)
        else:
            args = [sys.executable, "-m", "tronlab.arena.pyprogram",
                    os.path.abspath(os.path.join(cwd or os.getcwd(), spec[3:])),
                    "--protocol", game]
        later, first = (None if v is None else MARGIN * v for v in limits)
        if spec.startswith("py:"):
            from .pyfilebot import PythonFileBot as kind
        else:
            kind = ExternalBot
        return kind(args, protocol=game, name=bot_name(spec), time_limit=later,
                    first_time_limit=first, cwd=cwd)
    from ..runner.registry import get_bot
    name, opts = _options(spec)
    opts.setdefault("time", time)
    if depth is not None and name in DEPTH_BOTS:
        opts.setdefault("depth", depth)
    return get_bot(name, rng=rng, **opts)


def _capture_bot(spec, rng, limits, cwd=None):
    if spec.startswith("cmd:"):
        from ..capture.external import CaptureProgram
        later, first = limits
        return CaptureProgram(_command(spec), name=bot_name(spec), time_limit=later,
                              first_time_limit=first, cwd=cwd)
    from ..capture.bots import get_bot
    name, opts = _options(spec)
    if opts:
        from ..runner.registry import get_bot as registry_bot
        return registry_bot(name, game="capture", rng=rng, **opts)
    return get_bot(name, rng)


def is_program(spec: str) -> bool:
    """True for bots that run in a process of their own (py: and cmd:)."""
    return spec.startswith(("py:", "cmd:"))


class FolderBots(NamedTuple):
    """What :func:`scan_bots_folder` found: bot specs, and ``(file, why)`` for each file
    that looked like it could be a bot but is not one."""
    specs: list
    skipped: list


def scan_bots_folder(folder) -> FolderBots:
    """The bots in a classroom folder, sorted by file name.

    * a ``.py`` file with a top-level ``def move(`` is a ``py:`` bot;
    * a ``.py`` file without one is a contest program (``cmd:``, run with this
      Python) if it reads its input or has a ``#!`` line, else it is skipped as a
      helper module (the bots beside it may import it);
    * any other executable file is a contest program if it has a ``#!`` line or is
      a compiled program; an executable text file without one (a README copied off
      a USB stick keeps its x bit) is skipped;
    * a ``#!`` script or compiled program without its x bit (lost in an e-mail or
      a zip) is a program too: :func:`check_spec` leaves it out, naming the
      ``chmod +x`` that lets it play.

    Names starting with ``.`` or ``_``, folders and other files are passed over
    without a word."""
    folder = os.fspath(folder)
    if os.path.isfile(folder):
        raise ValueError(f"--bots-dir: {folder!r} is a file, not a folder: a single bot goes in "
                         f"--bots as py:FILE (move(board, player)) or cmd:PROGRAM")
    if not os.path.isdir(folder):
        raise ValueError(f"--bots-dir: no such folder {folder!r}")
    specs, skipped = [], []
    for entry in sorted(os.listdir(folder), key=by_name):     # as a class list reads
        path = os.path.abspath(os.path.join(folder, entry))
        if entry.startswith((".", "_")) or not os.path.isfile(path):
            continue
        if not is_utf8(entry):
            skipped.append((shown_name(path), NOT_UTF8))
            continue
        if entry.endswith(".py"):
            with open(path, encoding="utf-8-sig", errors="replace") as f:    # Notepad's BOM
                text = f.read()
            if "\ndef move(" in "\n" + text:
                specs.append(f"py:{path}")
            elif text.startswith("#!") or any(w in text for w in _READS_INPUT):
                specs.append(f"cmd:{shlex.join([sys.executable, path])}")
            else:
                skipped.append((path, "no move(board, player) and reads no input: a helper "
                                      "module, not a bot"))
        else:
            with open(path, "rb") as f:
                head = f.read(4)
            if head.startswith(b"#!") or head == b"\x7fELF":
                specs.append(f"cmd:{shlex.quote(path)}")      # check_spec: is it executable?
            elif os.access(path, os.X_OK):
                skipped.append((path, "executable but not a program (no #! line)"))
    return FolderBots(specs, skipped)


#: words in a Python file that show it reads the referee's lines
_READS_INPUT = ("__main__", "input(", "stdin")


def bots_in_folder(folder) -> list[str]:
    """Specs of the bots in a classroom folder, sorted by file name: the ``specs`` of
    :func:`scan_bots_folder`, which also says which files it skipped."""
    specs = scan_bots_folder(folder).specs
    if not specs:
        raise ValueError(f"no bots in {os.fspath(folder)!r}: expected .py files with "
                         f"move(board, player) or executable programs")
    return specs
