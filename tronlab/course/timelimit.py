"""Run a learner's function under a time limit it cannot escape.

:func:`call_with_time_limit` runs ``fn()`` and says how it went as an :class:`Outcome`:
``"value"`` (it returned), ``"raised"`` (with the exception and its frames),
``"timeout"``, ``"exited"`` (the process running it ended without an answer) or
``"unsendable"`` (its answer could not be sent back).

Where the system has ``fork`` (Linux, macOS) the call runs in a **forked child**: the
child inherits everything the notebook has defined, runs the function and sends the
answer back through a pipe (pickled); when the time is up the parent kills it with
SIGKILL.  Nothing the learner writes can stop that: a bare ``except:`` around a loop,
``sys.exit()``, ``os._exit()`` or a crash of a compiled extension all end the child
only, never the notebook's process.  What the function changes in memory stays in
the child, so ``fn`` returns everything the caller needs to see.

Elsewhere (or with ``isolate=False``) the call runs in this process, stopped by an
interval timer in the main thread (:func:`_alarm`) or a watchdog thread that raises
in the calling thread (:func:`_watchdog`).  Both raise :class:`TimeUp`, a
``BaseException``, which ``except Exception`` does not catch but a bare ``except:``
can: that is why the fork is the default.

>>> call_with_time_limit(lambda: 6 * 7, 5).value
42
>>> def stubborn():
...     while True:
...         try:
...             while True:
...                 pass
...         except:               # noqa: E722 - what a learner might write
...             continue
>>> call_with_time_limit(stubborn, 0.2).kind
'timeout'
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
import traceback
import warnings
from typing import Any, NamedTuple

from ..runner.threadcall import raise_in_thread
from ..tron.values import is_real


class TimeUp(BaseException):
    """Raised inside learner code run in this process when its time is up (a
    BaseException, so that a learner's ``except Exception`` cannot swallow it)."""


class Outcome(NamedTuple):
    kind: str                    # "value", "raised", "timeout", "exited", "unsendable"
    value: Any = None
    error: BaseException | None = None
    frames: tuple = ()           # traceback.FrameSummary of the error, innermost last
    detail: str = ""             # "exited": how the process ended; "unsendable": why


_HEADER = struct.Struct("!Q")
_GRACE = 1.0    # seconds a child that sent its answer gets to exit before it is killed


def can_fork() -> bool:
    """True where :func:`call_with_time_limit` isolates the call in a forked child."""
    return hasattr(os, "fork") and sys.platform != "win32"


def call_with_time_limit(fn, seconds: float | None, *, isolate: bool | None = None,
                         use_alarm: bool | None = None) -> Outcome:
    """Run ``fn()``; stop it after ``seconds`` (no limit when 0 or None).

    ``isolate`` (default: where the system can fork) runs it in a forked child;
    otherwise ``use_alarm`` picks SIGALRM or the watchdog (default: SIGALRM in the
    main thread where it exists)."""
    with contextlib.closing(call_each([fn], seconds, isolate=isolate,
                                      use_alarm=use_alarm)) as outcomes:
        return next(outcomes)


#: limits longer than this (about 30 years) mean no limit (the clocks cannot wait that long)
_FOREVER = 1e9


def check_time_limit(value, name: str = "time_limit", *, zero_means_none: bool = False):
    """``value`` as seconds (a float), or None for no limit; else a TypeError or
    ValueError naming ``name``.  A limit is None or a positive number (not a bool);
    an infinite one is no limit, and with ``zero_means_none`` so is 0.

    >>> check_time_limit(2), check_time_limit(None), check_time_limit(float("inf"))
    (2.0, None, None)
    >>> check_time_limit(-1)
    Traceback (most recent call last):
    ...
    ValueError: time_limit must be a positive number of seconds (or None for no limit), got -1
    """
    if value is None:
        return None
    if not is_real(value):
        raise TypeError(f"{name} must be a positive number of seconds (or None for no limit), "
                        f"got {value!r} of type {type(value).__name__}")
    seconds = float(value)
    if seconds == 0 and zero_means_none:
        return None
    if not seconds > 0:        # also NaN
        raise ValueError(f"{name} must be a positive number of seconds (or None for no limit), "
                         f"got {value!r}")
    return None if seconds > _FOREVER else seconds


def call_each(fns, seconds: float | None, *, isolate: bool | None = None,
              use_alarm: bool | None = None):
    """Yield an :class:`Outcome` for each of ``fns``, called in order, each under ``seconds``
    (no limit when 0 or None; anything else but a positive number is a TypeError or
    ValueError, raised here, before any call).

    Isolated, all of them run in **one** forked child, one at a time when the parent
    asks for the next (so each has its own clock, and a compiled kernel the
    learner's function calls is compiled once, not once a call).  The child ends
    after a timeout or when the caller stops asking (close the generator, or let
    it go: :func:`contextlib.closing` is the tidy way)."""
    seconds = check_time_limit(seconds, zero_means_none=True)
    return _call_each(fns, seconds, isolate, use_alarm)


def _call_each(fns, seconds, isolate, use_alarm):
    if isolate is None:
        isolate = can_fork()
    if not isolate:
        for fn in fns:
            yield call_in_process(fn, seconds, use_alarm=use_alarm)
        return
    fns = list(fns)
    go_read, go_write = os.pipe()
    out_read, out_write = os.pipe()
    with warnings.catch_warnings():
        # the "multi-threaded fork" warning: the child execs nothing
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(go_write)
        os.close(out_read)
        _child(fns, go_read, out_write)
    os.close(go_read)
    os.close(out_write)
    status = None
    try:
        for _ in fns:
            data = None
            try:
                os.write(go_write, b"g")
            except BrokenPipeError:
                data = b""
            if data is None:
                deadline = None if not seconds else time.monotonic() + seconds
                data = _receive(out_read, deadline)
            if data is None:
                status = _end_child(pid, grace=0)   # the hard kill
                yield Outcome("timeout")
                return
            if not data:
                status = _end_child(pid, grace=_GRACE)
                yield Outcome("exited", detail=_how_it_ended(status))
                return
            yield _decode(data)
    finally:   # also on KeyboardInterrupt: the child never outlives the calls
        os.close(go_write)   # the child reads end of input and exits
        os.close(out_read)
        if status is None:
            _end_child(pid, grace=_GRACE)


# ---- in a forked child --------------------------------------------------------------

def _frames_of(err: BaseException) -> tuple:
    return tuple(traceback.extract_tb(err.__traceback__))


def _portable(err: BaseException) -> BaseException:
    """``err`` itself if it survives pickling, else a stand-in of the same name, the
    nearest base class the checker cares about, and the same message.  ``SystemExit``
    always travels as its code: a pickling hook some libraries install (tblib, with
    dask's distributed) brings it back with ``code`` None."""
    if isinstance(err, SystemExit):
        code = err.code
        return _Exit(code if code is None or isinstance(code, (int, str)) else repr(code))
    try:
        clone = pickle.loads(pickle.dumps(err))
        if type(clone) is type(err):
            return clone
    except Exception:  # noqa: BLE001 - any exception object may be odd
        pass
    return _StandIn(type(err).__name__, _base_name(err), _safe_str(err))


def _base_name(err) -> str:
    for base in (NotImplementedError, RecursionError, SystemExit, ArithmeticError,
                 LookupError, ValueError, TypeError, Exception):
        if isinstance(err, base):
            return base.__name__
    return "Exception"


def _safe_str(err) -> str:
    try:
        return str(err)
    except Exception as inner:  # noqa: BLE001 - a learner's __str__ may raise
        return f"<its message could not be shown: {type(inner).__name__}>"


class _Exit(NamedTuple):
    code: object

    def rebuild(self) -> BaseException:
        return SystemExit(self.code)


class _StandIn(NamedTuple):
    name: str
    base: str
    message: str

    def rebuild(self) -> BaseException:
        import builtins
        base = getattr(builtins, self.base, Exception)
        return type(self.name, (base,), {"__module__": "learner"})(self.message)


def _child(fns, go_fd: int, out_fd: int) -> None:
    """In the forked child: run each function when asked, send its outcome; then end
    the process at once (no atexit handler, no finalizer of the parent's runs here)."""
    try:
        for fn in fns:
            if os.read(go_fd, 1) != b"g":
                break
            payload = _encode(fn)
            view = memoryview(_HEADER.pack(len(payload)) + payload)
            while view:
                view = view[os.write(out_fd, view):]
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        os._exit(0)


def _encode(fn) -> bytes:
    try:
        payload = ("value", fn(), None, ())
    except BaseException as err:  # noqa: BLE001 - SystemExit too: it ends the child only
        frames = tuple((f.filename, f.lineno, f.name, f.line) for f in _frames_of(err))
        payload = ("raised", None, _portable(err), frames)
    try:
        return pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException as err:  # noqa: BLE001
        return pickle.dumps(("unsendable", None, None, f"{type(err).__name__}: "
                                                       f"{_safe_str(err)}"))


def _decode(data: bytes) -> Outcome:
    kind, value, error, extra = pickle.loads(data)
    if kind == "raised":
        if isinstance(error, (_StandIn, _Exit)):
            error = error.rebuild()
        frames = tuple(traceback.FrameSummary(f, n, name, line=line, lookup_line=False)
                       for f, n, name, line in extra)
        return Outcome("raised", error=error, frames=frames)
    if kind == "unsendable":
        return Outcome("unsendable", detail=extra)
    return Outcome("value", value)


def _receive(fd: int, deadline) -> bytes | None:
    """The child's message; b"" if it ended without one, None if the time ran out."""
    buf = bytearray()
    need = None
    while need is None or len(buf) < need:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b""
        buf += chunk
        if need is None and len(buf) >= _HEADER.size:
            need = _HEADER.size + _HEADER.unpack_from(buf)[0]
    return bytes(buf[_HEADER.size:need])


def _end_child(pid: int, grace: float) -> int:
    """Wait up to ``grace`` seconds for the child, then SIGKILL it; its wait status."""
    end = time.monotonic() + grace
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() >= end:
            break
        time.sleep(0.002)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    return os.waitpid(pid, 0)[1]


def _how_it_ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return f"the process running it was killed by signal {name}"
    return f"the process running it ended with exit code {os.WEXITSTATUS(status)}"


# ---- in this process ----------------------------------------------------------------

def call_in_process(fn, seconds, *, use_alarm: bool | None = None) -> Outcome:
    """Run ``fn()`` here, stopped by SIGALRM (main thread) or a watchdog thread."""
    seconds = check_time_limit(seconds, zero_means_none=True)
    if use_alarm is None:
        use_alarm = (hasattr(signal, "setitimer")
                     and threading.current_thread() is threading.main_thread())
    limit = contextlib.nullcontext if not seconds else _alarm if use_alarm else _watchdog
    try:
        with limit(seconds):
            return Outcome("value", fn())
    except TimeUp:
        return Outcome("timeout")
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # noqa: BLE001 - anything the learner raises is reported
        return Outcome("raised", error=err, frames=_frames_of(err))


@contextlib.contextmanager
def _alarm(seconds: float):
    """Raise :class:`TimeUp` in the main thread after ``seconds`` (SIGALRM).  An alarm
    already set by someone else (pytest-timeout, say) is put back afterwards with the time
    it had left."""
    def on_alarm(signum, frame):
        raise TimeUp()
    old_handler = signal.signal(signal.SIGALRM, on_alarm)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay > 0:
            left = old_delay - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), old_interval)


@contextlib.contextmanager
def _watchdog(seconds: float):
    """Raise :class:`TimeUp` in this thread after ``seconds``, from a timer thread
    (CPython's ``PyThreadState_SetAsyncExc``).  The exception arrives between two Python
    bytecodes, which is where a learner's endless loop spends its time; code blocked inside
    one long C call (``time.sleep``, a compiled kernel) sees it only when that call returns."""
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def fire():
        with lock:
            if not state["done"]:
                state["fired"] = True
                raise_in_thread(target, TimeUp)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
        timer.cancel()
        if state["fired"]:      # a TimeUp may still be on its way: withdraw it
            raise_in_thread(target, None)
