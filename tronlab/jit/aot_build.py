"""Building the ahead-of-time module of :mod:`tronlab.jit.aot` (imports numba).

:func:`exports` walks the kernel tables: it imports every module that
:func:`tronlab.jit.aot.kernel_modules` finds and takes each kernel declared
with ``@kernel(sig=...)``.  :func:`build` hands them to ``numba.pycc`` and
writes the manifest beside the module: for each kernel its module, its
signature and a description of every argument (for the optional argument
check of :mod:`tronlab.jit.argcheck`, which needs no numba).
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import shutil
import tempfile
import warnings

from . import aot
from .aot import AotError
from .kernels import TABLES, declared, parse_sig


def exports() -> dict:
    """``{kernel name: (module, sig)}`` for every kernel declared with a signature."""
    for module in aot.kernel_modules():
        importlib.import_module(module)
    return declared()


def describe(t):
    """A JSON description of numba type ``t`` for the argument check
    (:func:`tronlab.jit.argcheck.describe`)."""
    from .argcheck import describe as _describe
    try:
        return _describe(t)
    except TypeError as exc:
        raise AotError(str(exc)) from None


def build(*, directory: str | None = None, verbose: bool = False) -> str:
    """Compile every kernel of :func:`exports` into the build for the current
    key under ``directory`` (default :func:`tronlab.jit.aot.aot_dir`); return the
    module's path.  Replaces an existing build atomically.  Raises
    :class:`~tronlab.jit.aot.AotError` when there is no C compiler or no
    ``numba.pycc``, or when compiling fails."""
    if not aot._compiler():
        raise AotError("no C compiler (gcc/cc) found on PATH")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # pycc carries a pending-deprecation warning
        try:
            from numba.pycc import CC
        except ImportError as exc:
            raise AotError(f"numba.pycc is not available: {exc}") from exc
    wanted = exports()
    if not wanted:
        raise AotError("no kernel declares a signature: nothing to build")
    k = aot.remember_key(directory)
    target = aot.module_path(directory, k)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".build-", dir=os.path.dirname(target))
    try:
        cc = CC(aot.module_name(k))
        cc.output_dir = tmp
        cc.verbose = verbose
        manifest = {}
        for name, (module, sig) in wanted.items():
            table = TABLES[module]
            table.compile()      # links the kernels it calls from other modules
            signature = parse_sig(sig)
            py = table.jit(name).py_func     # its globals: the compiled namespace
            manifest[name] = {"module": module, "sig": sig,
                              "params": list(inspect.signature(py).parameters),
                              "args": [describe(t) for t in signature.args]}
            cc.export(name, signature)(py)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                cc.compile()
            except Exception as exc:
                raise AotError(f"compiling the AOT module failed: {type(exc).__name__}: "
                               f"{exc}") from exc
        built = os.path.join(tmp, os.path.basename(target))
        if not os.path.exists(built):
            raise AotError(f"numba.pycc produced no {os.path.basename(target)} in {tmp}")
        side = os.path.join(tmp, "manifest.json")
        with open(side, "w", encoding="utf-8") as f:
            json.dump({"key": k, "kernels": manifest}, f, indent=1, sort_keys=True)
        os.replace(side, aot.manifest_path(directory, k))
        os.replace(built, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target
