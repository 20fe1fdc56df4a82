"""Checks a ``py:`` bot file before a tournament plays it, without running it.

A ``py:`` bot (:mod:`tronlab.arena.pyprogram`) is a Python file defining
``move(board, player)``.  A file that cannot compile, defines no ``move``, has a
``move`` that cannot take those two arguments (or a ``start_game`` that cannot take
``(board, player, *, rules, time_limit, rng)``), or imports a module that is not
installed would only show in the games as a program that exited; here each is a
ValueError naming the file, the line and the problem, before the first game.
:func:`check_python_bot` reads and parses the file (:mod:`ast`), never imports it.

What only running the file shows (its top-level code raises, or a module it
imports does) is :func:`check_bots_load`'s job: :func:`tronlab.arena.tournament.run`
loads each ``py:`` bot once, in a process of its own, before its first game.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import time


def check_python_bot(path: str) -> None:
    """Raise ValueError naming ``path`` and the problem unless the file can be a ``py:``
    bot: it must compile, define ``move`` at the top level (as
    :func:`tronlab.arena.pyprogram.load_move` needs) taking ``(board, player)``, and
    its unconditional top-level imports must be installed (or sit next to it).
    The file is read, never run: whatever else its code does shows in the games."""
    tree = _parse(path, "the py: bot cannot be loaded")
    moves = _top_level_bindings(tree, "move")
    if not moves and not any(isinstance(n, ast.Global) and "move" in n.names
                             for n in ast.walk(tree)):
        raise ValueError(f"{path} defines no function move(board, player) at the top level: "
                         f"a py: bot is a file with def move(board, player): ... returning "
                         f"its move")
    problem = _move_signature_problem(moves)
    if problem:
        raise ValueError(f"{path}:{moves[0].lineno}: {problem}")
    hooks = _top_level_bindings(tree, "start_game")
    problem = _start_game_problem(hooks)
    if problem:
        raise ValueError(f"{path}:{hooks[0].lineno}: {problem}")
    _check_imports(tree, path, "the bot")


def check_python_program(path: str) -> None:
    """Raise ValueError naming ``path``, the line and the problem if the Python contest
    program ``path`` cannot start: it does not compile, or an unconditional top-level
    import is not installed.  Read, never run (its top-level code plays the game)."""
    _check_imports(_parse(path, "the program cannot start"), path, "the program")


def _parse(path: str, consequence: str):
    """The syntax tree of the Python file ``path``, else a ValueError with its file, line
    and error, ending in ``(consequence)``."""
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as err:
        raise ValueError(f"cannot read the Python file {path!r}: {err.strerror or err}") from None
    try:
        tree = compile(source, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
        compile(tree, path, "exec", dont_inherit=True)     # errors ast alone lets through
    except SyntaxError as err:
        line = f":{err.lineno}" if err.lineno else ""
        raise ValueError(f"{err.filename or path}{line}: {type(err).__name__}: {err.msg} "
                         f"({consequence})") from None
    except ValueError as err:                              # e.g. a null byte in the source
        raise ValueError(f"{path}: cannot compile it: {err}") from None
    return tree


def _check_imports(tree, path: str, who: str) -> None:
    missing = _missing_import(tree, os.path.dirname(os.path.abspath(path)))
    if missing:
        module, lineno = missing
        raise ValueError(f"{path}:{lineno}: imports {module!r}, which is not installed for "
                         f"{sys.executable} (nor a file next to {who})")


def check_bots_load(paths, timeout: float) -> None:
    """Load every ``py:`` bot file of ``paths`` once, each in a process of its own
    (``python -m tronlab.arena.pyprogram FILE --check``, as many at once as there are
    cores), and raise a ValueError naming each file whose loading raised, with its
    line and the exception.  A file still loading after ``timeout`` seconds of its own
    passes: the games' clock judges it."""
    problems = load_problems(paths, timeout)
    if problems:
        raise ValueError("; ".join(problems.values()))


def checks_at_once() -> int:
    """How many files :func:`load_problems` loads at once: one a core, at least two.
    All of a class's thirty at once on two cores took each past its timeout, and a
    file whose top-level code raised passed unseen.  (dev.py's ``_cores`` counts the
    cores the same way, apart: it runs before tronlab is installed.)"""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:                                 # not on Linux
        cores = os.cpu_count() or 1
    return max(2, cores)


def load_problems(paths, timeout: float) -> dict:
    """:func:`check_bots_load`'s findings without raising: absolute path -> one line
    (the file, its line and the exception) for each file whose loading raised.
    Each file's ``timeout`` counts from the start of its own process."""
    from ..runner import reaper

    waiting = list(dict.fromkeys(os.path.abspath(p) for p in paths))
    running, problems, at_once = [], {}, checks_at_once()
    try:
        while waiting or running:
            while waiting and len(running) < at_once:
                path = waiting.pop(0)
                running.append((path, *_start_check(path, reaper), time.monotonic() + timeout))
            path, proc, token, deadline = running.pop(0)
            try:
                out, _ = proc.communicate(timeout=max(0.0, min(0.05, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                if time.monotonic() < deadline:
                    running.append((path, proc, token, deadline))
                else:                                      # still loading: it passes
                    _end_check(proc, token, reaper)
                continue
            _end_check(proc, token, reaper)
            if proc.returncode:
                problems[path] = _load_problem(path, proc.returncode, out)
    finally:
        for _, proc, token, _ in running:
            _end_check(proc, token, reaper)
    return problems


def _start_check(path, reaper):
    """Start ``pyprogram FILE --check`` for ``path``: its process and reaper token."""
    token = reaper.new_token()
    reaper.prepare()
    proc = subprocess.Popen([sys.executable, "-m", "tronlab.arena.pyprogram", path,
                             "--check"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, errors="replace", env=reaper.child_env(token),
                            start_new_session=True)
    reaper.register(token, proc.pid)
    return proc, token


def _end_check(proc, token, reaper) -> None:
    reaper.kill_program(token, proc.pid)
    proc.stdout.close()
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass


def _load_problem(path, code, out) -> str:
    """The line for a file whose ``--check`` ended with ``code``, having printed ``out``."""
    from .pyprogram import CHECK_MARK

    said = [line[len(CHECK_MARK):] for line in out.splitlines() if line.startswith(CHECK_MARK)]
    if said:
        return said[-1]
    if code < 0:            # os.kill(os.getppid(), 9) at import ends the check so
        import signal
        name = signal.Signals(-code).name if -code in signal.valid_signals() else -code
        how = f"was killed by signal {name}"
    else:
        how = f"ended with exit code {code}"
    return f"{path}: loading the py: bot ended its process: it {how}"


def _top_level_statements(body):
    """The statements run when a module is loaded, into if/try/with blocks, not into
    functions or classes."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody"):
            if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)) \
                    or type(node).__name__ == "TryStar":
                yield from _top_level_statements(getattr(node, field, []) or [])
        for handler in getattr(node, "handlers", []) or []:
            yield from _top_level_statements(handler.body)
        for case in getattr(node, "cases", []) or []:          # match statements
            yield from _top_level_statements(case.body)


def _top_level_bindings(tree, name):
    """The statements that bind ``name`` at the top level of ``tree``."""
    found = []
    for node in _top_level_statements(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            hit = node.name == name
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            hit = any((a.asname or a.name.split(".")[0]) == name or a.name == "*"
                      for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [i.optional_vars for i in node.items] if isinstance(node, ast.With)
                       else [node.target])
            hit = any(isinstance(n, ast.Name) and n.id == name
                      for t in targets if t is not None for n in ast.walk(t))
        else:
            hit = False
        if not hit and not isinstance(node, _SCOPES + (ast.Import, ast.ImportFrom)):
            hit = any(isinstance(n, ast.NamedExpr) and n.target.id == name   # x = (move := f)
                      for n in _walk_this_scope(node))
        if hit:
            found.append(node)
    return found


#: the nodes whose body is a scope of its own: a walrus in it does not bind in the module
_SCOPES = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _walk_this_scope(node):
    """The nodes under ``node`` (itself too) that are not inside a lambda, function or
    class (a def in an if block, say): a walrus there binds there, one elsewhere in a
    statement (a comprehension too) binds in the module."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, _SCOPES))


def _move_signature_problem(moves):
    """A sentence if the only ``def move`` cannot take ``(board, player)`` or cannot
    return a move (``async def``, or a ``yield`` in its body: calling it runs none of it)."""
    if len(moves) != 1 or getattr(moves[0], "decorator_list", None):
        return None                       # bound some other way, or decorated: trust it
    node = moves[0]
    if isinstance(node, ast.AsyncFunctionDef):
        return ("move is an async def, so calling it only makes a coroutine and runs none of "
                "its lines: a py: bot's move is a plain def that returns its move")
    if not isinstance(node, ast.FunctionDef):
        return None
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _walk_this_scope(node)):
        return ("move has a yield in it, which makes it a generator: calling it runs none of "
                "its lines and hands back a generator, not a move. Give the move back with "
                "return instead of yield")
    a = node.args
    positional = len(a.posonlyargs) + len(a.args)
    required = positional - len(a.defaults)
    required_kw = sum(d is None for d in a.kw_defaults)
    if (positional >= 2 or a.vararg) and required <= 2 and not required_kw:
        return None
    params = ast.unparse(a)
    return (f"move({params}) cannot be called as move(board, player): a py: bot's move "
            f"takes the two arguments board and player")


def _start_game_problem(hooks):
    """A sentence if the only ``def start_game`` cannot take ``(board, player, *, rules,
    time_limit, rng)``, the call :mod:`tronlab.arena.pyprogram` makes."""
    if len(hooks) != 1 or not isinstance(hooks[0], ast.FunctionDef) or hooks[0].decorator_list:
        return None
    from ..runner.engine import START_KEYWORDS

    told = {"rules", "time_limit", "rng"}
    named = told | set(START_KEYWORDS)      # told when named
    a = hooks[0].args
    params = a.posonlyargs + a.args
    required = params[:len(params) - len(a.defaults)]
    keywords = {x.arg for x in a.args + a.kwonlyargs}
    fits = ((len(params) >= 2 or a.vararg)
            and all(x.arg in named and x not in a.posonlyargs for x in required[2:])
            and (a.kwarg is not None or told <= keywords)
            and all(d is not None or k.arg in named for k, d in zip(a.kwonlyargs, a.kw_defaults)))
    if fits:
        return None
    return (f"start_game({ast.unparse(a)}) cannot be called as start_game(board, player, *, "
            f"rules, time_limit, rng): a py: bot's start_game takes those (**options "
            f"takes the ones it does not use)")


def _missing_import(tree, folder):
    """``(module, line)`` of the first unconditional top-level import that cannot be
    found, else None.  Only looked up (importlib.util.find_spec), never imported."""
    for node in tree.body:                # only imports that always run
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        else:
            continue
        for module in names:
            top = module.split(".")[0]
            if top == "__future__" or _findable(top, folder):
                continue
            return top, node.lineno
    return None


def _findable(top, folder):
    if top in sys.builtin_module_names or top in sys.modules:
        return True
    for where in (folder, os.getcwd()):   # the bot's folder; the cwd its process starts in
        if os.path.isdir(os.path.join(where, top)) or any(
                n.startswith(top + ".") for n in _listdir(where)):
            return True
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return True                       # cannot tell: let the game say


def _listdir(folder):
    try:
        return os.listdir(folder)
    except OSError:
        return []
