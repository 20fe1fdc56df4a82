"""Ahead-of-time compiled twins of the kernels, for a fast first result.

A fresh interpreter that computes one territory through numba pays for
importing numba (~0.4 s) and for numba's first dispatch (~0.5-1 s, building
its registries), even when every kernel comes from numba's cache.  This module
compiles the kernels once, ahead of time, into an ordinary C extension module
with ``numba.pycc``; loading that takes milliseconds and does not import numba.

    python -m tronlab.jit.aot build     # compile (10-20 s; needs a C compiler)
    python -m tronlab.jit.aot status    # one line: loaded, or why the JIT kernels are used
    python -m tronlab.jit.aot clean     # delete builds for other versions

The twins are the *same* Python functions as the numba kernels
(:class:`tronlab.jit.kernels.KernelTable` keeps them), compiled for the fixed
signatures in :data:`KERNELS`: C-contiguous arrays of the dtypes the friendly
wrappers pass, int64 scalars.  The wrappers in :mod:`tronlab.grid.voronoi`,
:mod:`~tronlab.grid.flood`, ... call a twin when the module loads and the numba
dispatcher otherwise.  Compiled code elsewhere (search, chambers, ...) keeps
calling the numba kernels.

Where.  ``$TRONLAB_AOT_DIR`` or ``<user cache>/tronlab/aot`` (next to the
numba cache of :mod:`tronlab.jit.cache`), then ``<key>/<module>.so``.  The key
hashes the kernel sources, this file, the numba, llvmlite and numpy versions,
the Python version and the platform, so a build for other sources or versions
is never loaded; it just sits there until ``clean``.

Fallback.  No build, a build that fails to load, or ``TRONLAB_AOT=0`` in the
environment: the wrappers silently use the numba kernels.  :func:`build`
raises :class:`AotError` with the reason when it cannot build (no C compiler,
no ``numba.pycc``, a compile error); nothing else depends on it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import time

from .cache import user_cache_dir

#: kernel name -> (module in tronlab, numba.pycc signature)
KERNELS = {
    "ring_code_kernel": ("grid.ring", "i8(u1[::1], i8, i8)"),
    "flood_fill_kernel": ("grid.flood", "i8(u1[::1], i8, i8, u1[::1], i4[::1])"),
    "components_kernel": ("grid.flood", "i8(u1[::1], i8, i4[::1], i4[::1], i4[::1])"),
    "fill_square_kernel": ("grid.flood", "Tuple((b1, i8))(u1[::1], i8, i8, u1[::1], i4[::1], "
                                   "i4[::1], i4[::1], i8)"),
    "bfs_distances_kernel": ("grid.voronoi", "i8(u1[::1], i8, i8, i4[::1], i4[::1])"),
    "bucket_distances_kernel": ("grid.voronoi", "i8(u1[::1], i8, i8, u1[::1], i4[::1], i4[::1], "
                                           "i4[::1], i4[::1])"),
    "territory_kernel": ("grid.voronoi", "UniTuple(i8, 4)(u1[::1], i8, i8, i8, i4[::1], u1[::1], "
                                    "i4[::1])"),
    "owner_map_kernel": ("grid.voronoi", "UniTuple(i8, 4)(u1[::1], i8, i8, i8, i4[::1], u1[::1], "
                                    "i4[::1])"),
    "territory_from_distances_kernel": ("grid.voronoi", "UniTuple(i8, 4)(u1[::1], i4[::1], i4[::1], "
                                                   "i8)"),
    "articulation_points_kernel": ("grid.articulation", "i8(u1[::1], i8, i4[::1], i4[::1], i4[::1], "
                                                   "u1[::1], i4[::1], u1[::1])"),
    "turn_order_territory_kernel": ("grid.multivoronoi", "i8(u1[::1], i8[::1], b1[::1], i8, i8, "
                                                    "u1[::1], i4[::1], i8[::1])"),
    "fill_bound_kernel": ("grid.parity", "UniTuple(i8, 3)(u1[::1], i8, i8, u1[::1], i4[::1])"),
    "region_colours_kernel": ("grid.parity", "void(i8, i4[::1], i8, i4[:, ::1])"),
}

_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SOURCES = ("jit/kernels.py", "jit/aot.py",
            *sorted({m.replace(".", "/") + ".py" for m, _ in KERNELS.values()}))
_VERSION_FILES = (("numba", "_version.py"), ("llvmlite", "_version.py"))
_OFF = ("0", "off", "no", "false")


class AotError(RuntimeError):
    """The ahead-of-time module cannot be built here; the message says why."""


# ---------------------------------------------------------------------------
# where and which build
# ---------------------------------------------------------------------------
def aot_dir() -> str:
    """Base directory of the builds: ``$TRONLAB_AOT_DIR`` or ``<user cache>/tronlab/aot``."""
    return os.environ.get("TRONLAB_AOT_DIR") or os.path.join(
        os.path.dirname(user_cache_dir()), "aot")


def _version_bytes(package: str, filename: str) -> bytes:
    spec = importlib.util.find_spec(package)      # finds without importing
    if spec is None or not spec.submodule_search_locations:
        return f"{package} missing".encode()
    try:
        with open(os.path.join(spec.submodule_search_locations[0], filename), "rb") as f:
            return f.read()
    except OSError:
        return f"{package} without {filename}".encode()


def key() -> str:
    """16 hex digits naming the build that fits these sources and versions."""
    import numpy

    h = hashlib.sha256()
    for name in _SOURCES:
        with open(os.path.join(_PKG, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read() + b"\0")
    for package, filename in _VERSION_FILES:
        h.update(_version_bytes(package, filename) + b"\0")
    machine = (os.uname().machine if hasattr(os, "uname")
               else os.environ.get("PROCESSOR_ARCHITECTURE", ""))
    for part in (numpy.__version__, sys.version, sys.platform, machine,
                 importlib.machinery.EXTENSION_SUFFIXES[0]):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:16]


def module_name(k: str | None = None) -> str:
    return f"_tronlab_aot_{k or key()}"


def module_path(directory: str | None = None, k: str | None = None) -> str:
    """Where the build for the current key lives (whether or not it exists)."""
    k = k or key()
    return os.path.join(directory or aot_dir(), k,
                        module_name(k) + importlib.machinery.EXTENSION_SUFFIXES[0])


# ---------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------
_loaded = None      # the extension module, once loaded
_checked = False    # whether load() has run in this process
_note = ""          # why there is no module, for status()


def _disabled() -> bool:
    return os.environ.get("TRONLAB_AOT", "").strip().lower() in _OFF


def load(directory: str | None = None):
    """Load the build for the current key (again); return the module or ``None``."""
    global _loaded, _checked, _note
    _loaded, _checked, _note = None, True, ""
    if _disabled():
        _note = "switched off by TRONLAB_AOT=0"
        return None
    path = module_path(directory)
    if not os.path.exists(path):
        _note = f"not built for this version (key {key()})"
        return None
    try:
        spec = importlib.util.spec_from_file_location(module_name(), path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as exc:        # a broken or foreign file: use the JIT kernels
        _note = f"{path} does not load ({type(exc).__name__}: {exc})"
        return None
    missing = [name for name in KERNELS if not hasattr(module, name)]
    if missing:
        _note = f"{path} lacks {', '.join(missing)}"
        return None
    _loaded = module
    return module


def unload() -> None:
    """Forget the loaded module (if any): the next :func:`twin` call loads again,
    reading ``TRONLAB_AOT`` and ``TRONLAB_AOT_DIR`` afresh."""
    global _loaded, _checked, _note
    _loaded, _checked, _note = None, False, ""


def twin(name: str):
    """The compiled twin of kernel ``name``, or ``None`` (not built, not loadable,
    switched off, or not a kernel compiled ahead of time)."""
    if not _checked:
        load()
    return None if _loaded is None else getattr(_loaded, name, None)


def status() -> str:
    """One line: which kernels the wrappers use and why."""
    if not _checked:
        load()
    if _loaded is not None:
        return f"tronlab AOT: {len(KERNELS)} kernels loaded from {_loaded.__file__}"
    hint = ("run `python -m tronlab.jit.aot build`" if _compiler()
            else "no C compiler (gcc/cc) found, so no build is possible")
    return f"tronlab AOT: {_note}; using the numba JIT kernels ({hint})"


# ---------------------------------------------------------------------------
# building
# ---------------------------------------------------------------------------
def _compiler() -> str | None:
    return shutil.which(os.environ.get("CC", "gcc")) or shutil.which("gcc") or shutil.which("cc")


def build(*, directory: str | None = None, verbose: bool = False) -> str:
    """Compile every kernel of :data:`KERNELS` into the build for the current key
    under ``directory`` (default :func:`aot_dir`); return the module's path.

    Replaces an existing build atomically.  Raises :class:`AotError` when there
    is no C compiler or no ``numba.pycc``, or when compiling fails.
    """
    import importlib
    import tempfile
    import warnings

    if not _compiler():
        raise AotError("no C compiler (gcc/cc) found on PATH")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # pycc carries a pending-deprecation warning
        try:
            from numba.pycc import CC
        except ImportError as exc:
            raise AotError(f"numba.pycc is not available: {exc}") from exc
    k = key()
    name = module_name(k)
    target = module_path(directory, k)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".build-", dir=os.path.dirname(target))
    try:
        cc = CC(name)
        cc.output_dir = tmp
        cc.verbose = verbose
        for kernel_name, (module, signature) in KERNELS.items():
            table = importlib.import_module(f"tronlab.{module}")._kernels
            table.compile()      # links the kernels it calls from other modules
            cc.export(kernel_name, signature)(table.py_func(kernel_name))
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
        os.replace(built, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def clean(directory: str | None = None) -> list[str]:
    """Delete builds for other keys; return the directories removed."""
    base = directory or aot_dir()
    current = key()
    removed = []
    if os.path.isdir(base):
        for entry in sorted(os.listdir(base)):
            path = os.path.join(base, entry)
            if entry != current and os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tronlab.jit.aot",
                                 description="Ahead-of-time compiled tronlab kernels.")
    ap.add_argument("command", choices=("build", "status", "clean"))
    ap.add_argument("--dir", default=None,
                    help="where builds go (default: $TRONLAB_AOT_DIR or the user cache)")
    ap.add_argument("--verbose", action="store_true", help="show the compiler's output")
    args = ap.parse_args(argv)
    if args.command == "status":
        load(args.dir)
        print(status())
        return 0
    if args.command == "clean":
        removed = clean(args.dir)
        print(f"removed {len(removed)} old build(s)" + "".join(f"\n  {p}" for p in removed))
        return 0
    t0 = time.perf_counter()
    try:
        path = build(directory=args.dir, verbose=args.verbose)
    except AotError as exc:
        print(f"tronlab AOT build failed: {exc}; tronlab will use the numba JIT kernels")
        return 1
    print(f"built {len(KERNELS)} kernels into {path} in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
