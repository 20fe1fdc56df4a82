"""End every program a game started, on any exit (technique E3's clean-up).

An external contest program runs in its own session (process group), and a
group kill ends it with everything it started - unless a child of it called
``setsid`` and left the group, or tronlab itself was stopped by a signal
before it could kill anything.  This module closes both holes:

* **a token in the environment.**  :func:`child_env` adds
  ``TRONLAB_PROGRAM_TOKEN=<random>`` to the program's environment; its children
  inherit it, in whatever session they end up.  :func:`kill_program` kills the
  program's group, then every process whose ``/proc/PID/environ`` carries the
  token (Linux; elsewhere the group kill is all there is), until none is left.
* **every exit.**  Live programs are registered here; :func:`kill_all` ends them
  and runs at interpreter exit (``atexit``) and, once
  :func:`install_signal_handlers` has run, on SIGTERM and SIGHUP: the handler
  kills the programs, then lets the signal do what it would have done (the
  previous Python handler, or the default: the process ends by that signal).

* **a kill -9 of tronlab itself.**  Then nothing of this process runs any more,
  so before its first program it starts a *watchdog*: a tiny Python
  process that blocks reading a pipe from this one.  When the pipe closes - this
  process ended, however it ended - the watchdog kills every process whose token
  starts with this process's prefix (:data:`PREFIX`), then exits (at once after a
  normal exit, whose hook killed them already and says so on the pipe).

* **a process that clears its environment and leaves the group.**  It carries
  neither the token nor the group, so only its parentage gives it away.  The
  arena's command line makes itself a *child subreaper*
  (:func:`become_subreaper`, Linux): when such a process's parent ends, the
  process is handed to the arena instead of to init, and :func:`sweep_orphans`,
  run after every game, kills every child of the arena it did not start itself.

>>> env = child_env("abc", {"PATH": "/bin"})
>>> env[TOKEN_VAR], env["PATH"]
('abc', '/bin')
"""

from __future__ import annotations

import atexit
import os
import secrets
import signal
import threading
import time

TOKEN_VAR = "TRONLAB_PROGRAM_TOKEN"
_ROUNDS = 20           # kill rounds before giving up on a process that keeps forking

_live: dict[str, int] = {}     # token -> pid of the program
_previous: dict[int, object] = {}
_atexit_done = False
_lock = threading.Lock()


#: the start of every token this process hands out (its watchdog kills by it)
PREFIX = secrets.token_hex(4)
#: an argument of the watchdog's command line that names it (for ``ps`` and the test census)
WATCHDOG_MARK = "tronlab-reaper-watchdog"
_watchdog = None
_watchdog_owner = None      # the pid that started it (a forked child inherits the object)
#: what a process that exits normally writes to its watchdog, all its programs killed
CLEAN = b"clean exit\n"

# the watchdog's command: this module from the same package as this process (its folder
# first on the path; the working directory left out, where a student's random.py may lie)
_WATCH = ("import sys; sys.path[:] = [sys.argv[1]] + [p for p in sys.path if p]; "
          "from tronlab.runner.reaper import watch; watch(sys.argv[2])")


def new_token() -> str:
    """A fresh random token for one program (it starts with :data:`PREFIX`)."""
    return f"{PREFIX}.{secrets.token_hex(8)}"


def _start_watchdog() -> None:
    """Start this process's watchdog once (Linux only: it reads ``/proc``)."""
    global _watchdog, _watchdog_owner
    if _watchdog is not None or not os.path.isdir("/proc"):
        return
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != TOKEN_VAR}
    try:
        package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        _watchdog = subprocess.Popen([sys.executable, "-c", _WATCH, package, PREFIX,
                                      WATCHDOG_MARK], stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=env, start_new_session=True)
        _watchdog_owner = os.getpid()
    except OSError:
        _watchdog = False            # no watchdog: the other clean-ups still run


def child_env(token: str, env=None) -> dict:
    """The environment for a program: ``env`` (default: ours) plus its token."""
    out = dict(os.environ if env is None else env)
    out[TOKEN_VAR] = token
    return out


def prepare() -> None:
    """Make ready for a first program, before it starts: :func:`kill_all` at exit and the
    watchdog.  Then a kill -9 while the program is starting still ends it."""
    global _atexit_done
    with _lock:
        if not _atexit_done:
            atexit.register(_at_exit)
            _atexit_done = True
        _start_watchdog()


def _at_exit() -> None:
    """Interpreter exit: :func:`kill_all`, then end the watchdog (nothing is left for it
    to kill, :data:`CLEAN` tells it so) and reap it: a watchdog left running made Python
    warn "subprocess ... is still running" and "unclosed file" as it shut down.  A second
    Ctrl-C meanwhile is ignored: it would stop this in the middle, with a traceback."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)     # the process is ending anyway
    kill_all()
    watchdog = _watchdog
    if not watchdog or _watchdog_owner != os.getpid():   # a forked child's copy: not ours
        return
    import subprocess
    try:
        watchdog.stdin.write(CLEAN)
        watchdog.stdin.close()
        watchdog.wait(timeout=2)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        pass        # it exits when this process does (its pipe closes)


def register(token: str, pid: int) -> None:
    """Remember a live program so that :func:`kill_all` ends it."""
    prepare()
    with _lock:
        _live[token] = pid


def _environ_has(pid: int, needle: bytes, prefix: bool = False) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            data = f.read()
    except OSError:
        return False
    items = data.split(b"\0")
    return any(i.startswith(needle) for i in items) if prefix else needle in items


def pids_with_token(token: str, *, prefix: bool = False) -> list[int]:
    """Processes (other than this one) whose environment carries ``token`` (with
    ``prefix``: a token starting with it); [] off Linux."""
    needle = f"{TOKEN_VAR}={token}".encode()
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    me = os.getpid()
    return [int(n) for n in names if n.isdigit() and int(n) != me
            and _environ_has(int(n), needle, prefix)]


def _kill(pid: int, how=signal.SIGKILL) -> None:
    try:
        os.kill(pid, how)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def kill_program(token: str, pid: int | None = None) -> None:
    """Kill program ``pid``'s process group and every process carrying ``token``.

    Processes that stopped are left to their parents to reap (the program itself
    is reaped by its ``Popen``); the loop stops once no live process has the token.
    """
    if pid is not None:
        _kill_group(pid)
        _kill(pid)
    _kill_carriers(token)
    with _lock:
        _live.pop(token, None)


def _kill_carriers(token: str, prefix: bool = False) -> None:
    """Kill every live process carrying ``token`` (or a token starting with it), round
    after round until none is left (a process may fork while it is being killed)."""
    for _ in range(_ROUNDS):
        found = [p for p in pids_with_token(token, prefix=prefix) if not _is_zombie(p)]
        if not found:
            break
        _stop_and_kill(found)
        time.sleep(0.01)


def _stop_and_kill(pids) -> None:
    """Stop every process of ``pids`` first (no more forking), then kill each, with its
    group when it leads one."""
    for p in pids:
        _kill(p, signal.SIGSTOP)
    for p in pids:
        if _is_group_leader(p):
            _kill_group(p)
        _kill(p)


def watch(prefix: str) -> None:
    """The watchdog's body (:func:`_start_watchdog`): wait until the process that started
    it closes the pipe on stdin - it ended, however it ended - then kill the programs
    whose tokens start with ``prefix``."""
    import sys
    if sys.stdin.buffer.read() == CLEAN:
        return      # the process ended normally and killed its programs itself
    _kill_carriers(prefix + ".", prefix=True)
    time.sleep(0.2)     # a program forked just before the end gets its token at exec
    _kill_carriers(prefix + ".", prefix=True)


def _stat_fields(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", "replace")
    except OSError:
        return []
    return text.rsplit(")", 1)[-1].split()


def _is_zombie(pid: int) -> bool:
    fields = _stat_fields(pid)
    return not fields or fields[0] in ("Z", "X")


def _is_group_leader(pid: int) -> bool:
    fields = _stat_fields(pid)
    return len(fields) > 2 and fields[2] == str(pid)


def kill_all() -> None:
    """End every registered program (at exit, on a signal, or when asked), then every
    process carrying a token of this one's: a program another thread was starting when
    the signal came has its token before :func:`register` knows it."""
    for token, pid in list(_live.items()):
        kill_program(token, pid)
    _kill_carriers(PREFIX + ".", prefix=True)


def live_programs() -> dict[str, int]:
    """A copy of the registry: token -> pid of each program not yet ended."""
    return dict(_live)


def _on_signal(signum, frame):
    kill_all()
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)
        return
    signal.signal(signum, signal.SIG_DFL)   # die by the signal, as without this handler
    os.kill(os.getpid(), signum)


def install_signal_handlers(signals=("SIGTERM", "SIGHUP")) -> bool:
    """Kill every live program on these signals before the usual action; True if installed.

    Only the main thread may install handlers; a signal that is ignored
    (``nohup``) stays ignored.  Safe to call more than once.
    """
    if threading.current_thread() is not threading.main_thread():
        return False
    for name in signals:
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        current = signal.getsignal(signum)
        if current is _on_signal or current == signal.SIG_IGN:
            continue
        _previous[signum] = current if current is not None else signal.SIG_DFL
        signal.signal(signum, _on_signal)
    return True


_subreaper = False


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``): a
    process whose parent dies, anywhere below this one, is handed to this process
    instead of to init, where :func:`sweep_orphans` finds it.  For a command-line
    run only (a notebook kernel must not adopt its users' orphans); True if it took."""
    global _subreaper
    try:
        import ctypes
        _subreaper = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


def is_subreaper() -> bool:
    """Whether :func:`become_subreaper` took in this process."""
    return _subreaper


def _own_children() -> set[int]:
    out: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{os.getpid()}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{os.getpid()}/task/{tid}/children") as f:
                out.update(int(c) for c in f.read().split())
        except OSError:
            continue
    return out


def sweep_orphans(keep=()) -> list[int]:
    """Kill (and reap) every live child of this subreaper that it did not start: its
    programs, its watchdog, multiprocessing's resource tracker and the pids in ``keep``
    (pool workers) are its own; anything else was handed to it as an orphan.  Returns
    the pids killed; does nothing unless :func:`become_subreaper` took."""
    if not _subreaper:
        return []
    mine = set(keep) | set(_live.values())
    if _watchdog:
        mine.add(_watchdog.pid)
    try:
        from multiprocessing import resource_tracker
        tracker = getattr(resource_tracker._resource_tracker, "_pid", None)
    except (ImportError, AttributeError):
        tracker = None
    if tracker:
        mine.add(tracker)
    # a zombie ended already: whoever started it reaps it
    killed = [pid for pid in sorted(_own_children() - mine) if not _is_zombie(pid)]
    _stop_and_kill(killed)
    for pid in killed:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    return killed
