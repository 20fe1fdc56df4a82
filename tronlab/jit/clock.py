"""A clock that compiled code can read (techniques A6, H5).

A search that must answer within a second has to look at the time *while it
searches*, deep inside a numba kernel.  numba's nopython mode has no
``time.perf_counter``, and calling back into Python would cost microseconds, so
this module teaches numba to call the C library's ``clock_gettime`` directly.

How: :func:`clock_ns` is a numba *intrinsic*
(:mod:`tronlab.jit.intrinsics`; kernel modules import the stand-in here, which
does not load numba).  At compile time it emits an LLVM
declaration of the C function ``int clock_gettime(int, struct timespec *)``
and a call to it with ``CLOCK_MONOTONIC``; the symbol is found by name in the
running process (the C library is always loaded), so the compiled code holds no
raw addresses and can be cached with ``cache=True``.  A call costs about 30 ns
(the kernel answers it without a system call), so a search can afford to look
every few hundred nodes.

The same clock is readable from Python with :func:`now_ns`; on Linux it is
also ``time.monotonic_ns()``.  Deadlines are *absolute*: a moment on this
clock, in nanoseconds, computed once when the bot is asked for a move
(:func:`deadline_after`) and handed to the kernels, which stop when
``clock_ns() >= deadline``.  A deadline of :data:`NO_DEADLINE` never arrives.

Works where the C library has ``clock_gettime`` (Linux, macOS 10.12+, the BSDs).
"""

from __future__ import annotations

import sys
import time as _time

from .kernels import KernelTable, kernel
from ..tron.values import is_real

# CLOCK_MONOTONIC differs between systems; this value is frozen into the
# compiled code (the cache lives on the machine that compiled it).
CLOCK_MONOTONIC = 6 if sys.platform == "darwin" else 1
NO_DEADLINE = (1 << 62)  # far beyond any reading of the clock


class _LazyIntrinsic:
    """``clock_ns`` for kernel modules that must not import numba: a kernel
    table swaps it for the intrinsic of :mod:`tronlab.jit.intrinsics` when
    it compiles, and a plain-Python twin reads the same clock through Python."""

    def _tronlab_lazy_global(self):
        from .intrinsics import clock_ns as intrinsic
        return intrinsic

    def __call__(self):
        """Called from Python (a kernel's plain twin): the same clock, by :func:`now_ns`."""
        return now_ns()

    def __repr__(self) -> str:
        return "<tronlab.jit.clock.clock_ns: the compiled clock; now_ns() from Python>"


clock_ns = _LazyIntrinsic()


@kernel
def now_ns_kernel():
    """The clock as compiled code sees it (nanoseconds)."""
    return clock_ns()


@kernel
def expired_kernel(deadline):
    """True once the clock has reached ``deadline`` (nanoseconds)."""
    return clock_ns() >= deadline


_kernels = KernelTable(globals())

# Python reads the same clock through the C library without numba where it can
# (``time.clock_gettime_ns`` with the same clock id); else through the kernel.
_py_clock = getattr(_time, "clock_gettime_ns", None)
if _py_clock is not None and getattr(_time, "CLOCK_MONOTONIC", None) != CLOCK_MONOTONIC:
    _py_clock = None


def now_ns() -> int:
    """The compiled code's clock, read from Python (nanoseconds)."""
    if _py_clock is not None:
        return _py_clock(CLOCK_MONOTONIC)
    return int(now_ns_kernel())


def deadline_after(seconds) -> int:
    """The absolute deadline ``seconds`` from now on the compiled clock;
    ``None`` (or a budget too long to ever run out, ``float("inf")``) means no
    deadline (:data:`NO_DEADLINE`)."""
    if seconds is None:
        return NO_DEADLINE
    if not is_real(seconds):
        raise TypeError(f"a time budget is a number of seconds, got {type(seconds).__name__}")
    if seconds != seconds or seconds < 0:
        raise ValueError(f"a time budget must be >= 0 seconds, got {seconds}")
    if float(seconds) * 1e9 >= NO_DEADLINE:
        return NO_DEADLINE
    return min(now_ns() + int(float(seconds) * 1e9), NO_DEADLINE)


def check_deadline(deadline) -> int:
    """``deadline`` (an absolute time on the compiled clock, nanoseconds, as
    :func:`deadline_after` and :func:`now_ns` give) as an int the kernels take;
    ``None`` means :data:`NO_DEADLINE`, and so does anything later than it."""
    if deadline is None:
        return NO_DEADLINE
    if not is_real(deadline):
        raise TypeError(f"deadline is an absolute time in nanoseconds (deadline_after(seconds) "
                        f"or now_ns() + ns), got {type(deadline).__name__} {deadline!r}")
    if deadline != deadline:
        raise ValueError("deadline is an absolute time in nanoseconds, got nan")
    if deadline >= NO_DEADLINE:
        return NO_DEADLINE
    return max(int(deadline), 0)


def search_deadline(time, deadline) -> int:
    """A search's deadline from ``time`` (seconds from now, :func:`deadline_after`)
    or ``deadline`` (absolute, :func:`check_deadline`), not both; neither: none."""
    if deadline is None:
        return deadline_after(time)
    if time is not None:
        raise ValueError("give time or deadline, not both")
    return check_deadline(deadline)


def seconds_left(deadline: int) -> float:
    """Seconds until ``deadline`` (negative once it has passed)."""
    return (int(deadline) - now_ns()) / 1e9
