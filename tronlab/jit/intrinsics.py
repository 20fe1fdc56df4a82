"""The numba intrinsic behind :data:`tronlab.jit.clock.clock_ns` (imports numba).

Kernel modules name ``clock_ns`` from :mod:`tronlab.jit.clock`, a stand-in that
does not load numba; their :class:`~tronlab.jit.kernels.KernelTable` swaps in
this intrinsic when they compile.  See :mod:`tronlab.jit.clock` for how it works.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .clock import CLOCK_MONOTONIC


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
