"""A clock that compiled code can read (techniques A6, H5).

A search that must answer within a second has to look at the time *while it
searches*, deep inside a numba kernel.  numba's nopython mode has no
``time.perf_counter``, and calling back into Python would cost microseconds, so
this module teaches numba to call the C library's ``clock_gettime`` directly.

How: :func:`clock_ns` is a numba *intrinsic*.  At compile time it emits an LLVM
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

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# CLOCK_MONOTONIC differs between systems; this value is frozen into the
# compiled code (the cache lives on the machine that compiled it).
CLOCK_MONOTONIC = 6 if sys.platform == "darwin" else 1
NO_DEADLINE = (1 << 62)  # far beyond any reading of the clock


@intrinsic
def clock_ns(typingctx):
    """Nanoseconds on the monotonic clock, callable only from compiled code."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        i64 = ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])  # (tv_sec, tv_nsec) on 64-bit systems
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        module = builder.module
        fn = module.globals.get("clock_gettime")
        if fn is None:
            fn = ir.Function(module, fnty, name="clock_gettime")
        with builder.goto_entry_block():
            ts = builder.alloca(timespec)
        builder.call(fn, [ir.Constant(i32, CLOCK_MONOTONIC), ts])
        zero = ir.Constant(i32, 0)
        sec = builder.load(builder.gep(ts, [zero, zero]))
        nsec = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return sig, codegen


@njit(cache=True)
def now_ns_kernel():
    """The clock as compiled code sees it (nanoseconds)."""
    return clock_ns()


@njit(cache=True)
def expired_kernel(deadline):
    """True once the clock has reached ``deadline`` (nanoseconds)."""
    return clock_ns() >= deadline


def now_ns() -> int:
    """The compiled code's clock, read from Python (nanoseconds)."""
    return int(now_ns_kernel())


def deadline_after(seconds) -> int:
    """The absolute deadline ``seconds`` from now on the compiled clock;
    ``None`` means no deadline (:data:`NO_DEADLINE`)."""
    if seconds is None:
        return NO_DEADLINE
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"a time budget is a number of seconds, got {type(seconds).__name__}")
    if seconds != seconds or seconds < 0:
        raise ValueError(f"a time budget must be >= 0 seconds, got {seconds}")
    return now_ns() + int(seconds * 1e9)


def seconds_left(deadline: int) -> float:
    """Seconds until ``deadline`` (negative once it has passed)."""
    return (int(deadline) - now_ns()) / 1e9
