"""Build ``../shared/bench/ref.c`` (the C speed limit) for the benchmarks.

``build_library`` compiles it as a shared library and loads it with ctypes, so
C and numba batches can be timed alternately in one process; ``build_program``
compiles the standalone ``ref`` for its own ``--bench`` figures.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REF = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "bench", "ref.c"))
FLAGS = ["-O2", "-march=native"]


def missing(ref_c: str) -> str | None:
    """Why ``ref_c`` cannot be built here, in one line (how to fix it), or None."""
    if not os.path.isfile(ref_c):
        return (f"no C reference at {ref_c} (ref.c lives in the course's shared/bench folder, "
                f"expected beside this checkout): pass --ref PATH/ref.c")
    if shutil.which("gcc") is None:
        return "no gcc on PATH: ref.c cannot be built here"
    return None


def build_library(ref_c: str, tmp: str) -> ctypes.CDLL:
    """``ref.c`` as a shared library with ``lib_load``, ``lib_bench`` and ``lib_nodes`` typed."""
    lib = os.path.join(tmp, "libref.so")
    subprocess.run(["gcc", *FLAGS, "-DLIB", "-shared", "-fPIC", "-o", lib, ref_c], check=True)
    c = ctypes.CDLL(lib)
    c.lib_load.argtypes = [ctypes.c_char_p]
    c.lib_load.restype = ctypes.c_int
    c.lib_bench.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
    c.lib_bench.restype = ctypes.c_double
    c.lib_nodes.restype = ctypes.c_long
    return c


def build_program(ref_c: str, tmp: str) -> str:
    """The standalone ``ref`` executable; returns its path."""
    exe = os.path.join(tmp, "ref")
    subprocess.run(["gcc", *FLAGS, "-o", exe, ref_c], check=True)
    return exe
