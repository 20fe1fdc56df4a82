"""Argument checks for the ahead-of-time twins (``TRONLAB_AOT_CHECK=1``).

A twin compiled by ``numba.pycc`` trusts its arguments: an int64 array where
it expects int32 is read as garbage, not refused.  With the check on, every
twin call first compares its arguments with the manifest written by the build
(:mod:`tronlab.jit.aot_build`) and raises a ``TypeError`` naming the kernel,
the argument and what was expected.  The tests run this way; bots do not (it
costs a few microseconds a call).  Needs numpy only.
"""

from __future__ import annotations

import functools

import numpy as np


def _problem(value, spec) -> str | None:
    """What is wrong with ``value`` for ``spec``, or None."""
    if spec == "bool":
        return None if isinstance(value, (bool, np.bool_)) else "a bool"
    if spec == "int":
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
        return None if ok else "an int"
    if spec == "float":
        ok = isinstance(value, (float, int, np.floating, np.integer)) and not isinstance(
            value, (bool, np.bool_))
        return None if ok else "a float"
    if "tuple" in spec:
        items = spec["tuple"]
        if not isinstance(value, tuple) or len(value) != len(items):
            return f"a tuple of {len(items)}"
        for i, (v, s) in enumerate(zip(value, items)):
            p = _problem(v, s)
            if p:
                return f"item {i} to be {p}"
        return None
    want = f"a {spec['ndim']}-d {spec['array']} array" + (
        " (C-contiguous)" if spec["contiguous"] else "")
    if not isinstance(value, np.ndarray) or value.ndim != spec["ndim"] \
            or value.dtype != np.dtype(spec["array"]) \
            or (spec["contiguous"] and not value.flags.c_contiguous):
        return want
    return None


def _got(value) -> str:
    if isinstance(value, np.ndarray):
        return f"a {value.ndim}-d {value.dtype} array"
    return type(value).__name__


def checked(twin, name: str, entry: dict):
    """``twin`` behind a check of its arguments against manifest ``entry``."""
    params, specs = entry["params"], entry["args"]

    @functools.wraps(twin)
    def call(*args):
        if len(args) != len(specs):
            raise TypeError(f"{name} takes {len(specs)} arguments, got {len(args)}")
        for i, (value, spec) in enumerate(zip(args, specs)):
            p = _problem(value, spec)
            if p:
                raise TypeError(f"{name}: argument {params[i]!r} must be {p}, got {_got(value)}")
        return twin(*args)
    return call
