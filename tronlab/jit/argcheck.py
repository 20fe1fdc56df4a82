"""Argument checks for kernels called from Python.

A twin compiled by ``numba.pycc`` trusts its arguments: a float64 array where
it expects int32 is read as garbage, not refused, and can crash the
interpreter; numba's dispatcher answers the same mistake with a long typing
traceback, or quietly compiles a second version.  So a kernel called from
Python (:meth:`tronlab.jit.kernels.Kernel.__call__`) first compares its
arguments with its declared signature and raises one ``TypeError`` naming the
kernel, the argument, what the signature wants and what it got.  Compiled code
calling the kernel never comes through here, nor do the package's wrappers,
which check a :class:`~tronlab.tron.board.Board` and their scratch once and then
call ``_kernels.fast(name)``.  ``TRONLAB_AOT_CHECK=1`` checks those calls too
(the tests run that way).

The check is one generated function per kernel whose common case is a chain
of ``type(x) is ...`` and ``x.dtype is ...`` tests (about 0.1-0.2 us an
argument); anything unusual (an ndarray subclass, a non-native dtype object
equal to the right one) falls through to the slow, exact comparison.  What is
checked: each array's type, dtype, number of dimensions, C-contiguity when the
signature says ``[::1]``, and that it is writeable (a kernel may write into any
array it gets); each scalar's kind (an int for ``i8``, a bool for ``b1``, a
number for ``f8``); each tuple's length and items.  Values (an index inside the
array, sizes that fit) are not in a signature: see ``guard=`` of
:func:`tronlab.jit.kernels.kernel`.  Needs numpy only (:func:`describe` needs
numba, and only the JIT path and the build use it).
"""

from __future__ import annotations

import numpy as np

_INTS = frozenset({int} | {t for t in np.sctypeDict.values()
                           if isinstance(t, type) and issubclass(t, np.integer)})
_FLOATS = _INTS | frozenset({float} | {t for t in np.sctypeDict.values()
                                       if isinstance(t, type) and issubclass(t, np.floating)})
_BOOLS = frozenset({bool, np.bool_})


def describe(t):
    """A JSON description of numba type ``t`` for the argument check (the manifest
    of an AOT build holds these; the JIT path computes them from the ``sig``)."""
    from numba.core import types

    if isinstance(t, types.Array):
        return {"array": str(t.dtype), "ndim": t.ndim, "contiguous": t.layout == "C"}
    if isinstance(t, types.Boolean):
        return "bool"
    if isinstance(t, types.Integer):
        return "int"
    if isinstance(t, types.Float):
        return "float"
    if isinstance(t, types.BaseTuple):
        return {"tuple": [describe(x) for x in t.types]}
    raise TypeError(f"no argument check for numba type {t}")


def _want(spec) -> str:
    """What ``spec`` asks for, in words."""
    if isinstance(spec, str):
        return {"bool": "a bool", "int": "an int", "float": "a number (float)"}[spec]
    if "tuple" in spec:
        return f"a tuple of {len(spec['tuple'])}"
    return (f"a {spec['ndim']}-d {spec['array']} array ("
            + ("C-contiguous, " if spec["contiguous"] else "") + "writeable)")


def _problem(value, spec) -> str | None:
    """What ``value`` should have been for ``spec`` (in words), or None if it fits."""
    if spec == "bool":
        return None if isinstance(value, (bool, np.bool_)) else _want(spec)
    if spec == "int":
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
        return None if ok else _want(spec)
    if spec == "float":
        ok = isinstance(value, (float, int, np.floating, np.integer)) and not isinstance(
            value, (bool, np.bool_))
        return None if ok else _want(spec)
    if "tuple" in spec:
        items = spec["tuple"]
        if not isinstance(value, tuple) or len(value) != len(items):
            return _want(spec)
        for i, (v, s) in enumerate(zip(value, items)):
            p = _problem(v, s)
            if p:
                return f"a tuple whose item {i} is {p} (item {i} is {_got(v)})"
        return None
    if not isinstance(value, np.ndarray) or value.ndim != spec["ndim"] \
            or value.dtype != np.dtype(spec["array"]) or not value.flags.writeable \
            or (spec["contiguous"] and not value.flags.c_contiguous):
        return _want(spec)
    return None


def _got(value) -> str:
    if isinstance(value, np.ndarray):
        layout = "" if value.flags.c_contiguous else ", not C-contiguous"
        ro = "" if value.flags.writeable else ", read-only"
        return f"a {value.ndim}-d {value.dtype} array{layout}{ro}"
    if isinstance(value, (bool, np.bool_, int, float, np.number)):
        return f"{type(value).__name__} {value!r}"
    return type(value).__name__


def problems(name: str, params, specs, args) -> str | None:
    """The message for the first argument of ``args`` that does not fit, or None."""
    if len(args) != len(specs):
        return f"{name} takes {len(specs)} arguments ({', '.join(params)}), got {len(args)}"
    for i, (value, spec) in enumerate(zip(args, specs)):
        p = _problem(value, spec)
        if p:
            return f"{name}: argument {i + 1} {params[i]!r} must be {p}, got {_got(value)}"
    return None


def _fast_test(expr: str, spec, consts: dict) -> str:
    """A Python expression true when ``expr`` surely fits ``spec`` (False may still fit)."""
    if spec == "int":
        return f"__type({expr}) in __INTS"
    if spec == "float":
        return f"__type({expr}) in __FLOATS"
    if spec == "bool":
        return f"__type({expr}) in __BOOLS"
    if "tuple" in spec:
        items = spec["tuple"]
        inner = [_fast_test(f"{expr}[{i}]", s, consts) for i, s in enumerate(items)]
        return (f"(__isinstance({expr}, __tuple) and __len({expr}) == {len(items)} and "
                + " and ".join(inner or ["True"]) + ")")
    dtype = f"__D{len(consts)}"
    consts[dtype] = np.dtype(spec["array"])
    flags = (f"{expr}.flags.c_contiguous and {expr}.flags.writeable" if spec["contiguous"]
             else f"{expr}.flags.writeable")
    return (f"(__type({expr}) is __ND and {expr}.dtype is {dtype} and {expr}.ndim == "
            f"{spec['ndim']} and {flags})")


def guarded(target, name: str, params, specs, guard=None):
    """``target`` (a twin or a dispatcher) behind the type check of ``specs`` (one
    description per argument, see :func:`describe`), then ``guard(*args)`` (value
    checks, if given).  The result is named like the kernel; ``__wrapped__`` is
    ``target``."""
    consts = {"__ND": np.ndarray, "__INTS": _INTS, "__FLOATS": _FLOATS, "__BOOLS": _BOOLS,
              "__type": type, "__isinstance": isinstance, "__tuple": tuple, "__len": len}
    names = list(params)        # the kernel's own names: Python's arity errors name them
    if len(names) != len(specs) or not all(n.isidentifier() and not n.startswith("__")
                                           for n in names):
        names = [f"a{i}" for i in range(len(specs))]
    test = " and ".join(_fast_test(a, s, consts) for a, s in zip(names, specs)) or "True"
    args = ", ".join(names)
    call = (f"    if __guard is not None:\n        __guard({args})\n"
            f"    return __target({args})\n")
    src = (f"def {name}({args}{', /' if names else ''}):\n"
           f"    if not ({test}):\n"
           f"        __slow(({args}{',' if len(names) == 1 else ''}))\n" + call)
    consts.update(__target=target, __guard=guard,
                  __slow=lambda got: _refuse(name, params, specs, got))
    namespace = dict(consts)
    exec(compile(src, f"<argument check of {name}>", "exec"), namespace)  # noqa: S102
    call = namespace[name]
    call.__wrapped__ = target
    call.__doc__ = getattr(target, "__doc__", None)
    return call


def _refuse(name, params, specs, args) -> None:
    """Raise the TypeError for ``args``, if any argument does not fit."""
    message = problems(name, params, specs, args)
    if message:
        raise TypeError(message) from None


def checked(twin, name: str, entry: dict):
    """``twin`` behind a check of its arguments against manifest ``entry``
    (``TRONLAB_AOT_CHECK=1``, :func:`tronlab.jit.aot.twin`)."""
    return guarded(twin, name, entry["params"], entry["args"])
