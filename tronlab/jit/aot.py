"""Ahead-of-time compiled twins of the kernels, for a fast first answer.

A fresh interpreter that runs a kernel through numba pays for importing numba
(~0.4 s) and for numba's first dispatch (~0.5-1 s, building its registries),
even when every kernel comes from numba's cache.  This module compiles the
kernels once, ahead of time, into an ordinary C extension module with
``numba.pycc``; loading that takes milliseconds and does not import numba.

    python -m tronlab.jit.aot build     # compile (20-40 s; needs a C compiler)
    python -m tronlab.jit.aot status    # one line: loaded, or why the JIT kernels are used
    python -m tronlab.jit.aot list      # the kernels exported and their signatures
    python -m tronlab.jit.aot clean     # delete builds for other versions

(``tronlab warmup`` builds it too, after filling numba's cache.)

Which kernels.  Every kernel declared with a signature,
``@kernel(sig=...)`` (:mod:`tronlab.jit.kernels`), in every module of the
package that ends with a ``KernelTable``: :func:`kernel_modules` finds those
modules by reading the sources, the build imports them and walks their tables.
There is no second list to keep.  The twins are the *same* Python functions as
the numba kernels, compiled for the declared signature; a :class:`Kernel`
called from Python uses the twin when the build loads, the numba dispatcher
otherwise.  Compiled code calls the numba kernels as always.

Where.  ``$TRONLAB_AOT_DIR`` or ``<user cache>/tronlab/aot`` (next to the
numba cache of :mod:`tronlab.jit.cache`), then ``<key>/<module>.so`` and a
``.json`` beside it naming the kernels and their argument types.  The key
hashes the kernel modules and what they import from the package, the files of
this folder, the numba, llvmlite and numpy versions, the Python version and the
platform, so a build for other sources or versions is never loaded; it just sits
there until ``clean``.

Fallback.  No build, a build that fails to load, or ``TRONLAB_AOT=0`` in the
environment: the kernels silently use numba.  :func:`build` raises
:class:`AotError` with the reason when it cannot build (no C compiler, no
``numba.pycc``, a compile error); nothing else depends on it.
``TRONLAB_AOT_CHECK=1`` wraps every twin in a check of its argument types
(:mod:`tronlab.jit.argcheck`): the twins themselves trust their callers.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
import time

from .cache import user_cache_dir

_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_JIT_SOURCES = ("jit/kernels.py", "jit/aot.py", "jit/aot_build.py", "jit/clock.py",
                "jit/intrinsics.py")
_TABLE_LINE = re.compile(r"^_kernels = KernelTable\(globals\(\)", re.M)
_VERSION_FILES = (("numba", "_version.py"), ("llvmlite", "_version.py"))
_OFF = ("0", "off", "no", "false")
_RELATIVE_IMPORT = re.compile(r"^from (\.+)([\w.]*) import", re.M)


class AotError(RuntimeError):
    """The ahead-of-time module cannot be built here; the message says why."""


# ---------------------------------------------------------------------------
# which kernels, where and which build
# ---------------------------------------------------------------------------
def _package_files() -> list[str]:
    """Paths of the package's modules relative to the package, sorted."""
    out = []
    for root, dirs, files in os.walk(_PKG):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "static"))
        for f in files:
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(root, f), _PKG).replace(os.sep, "/"))
    return sorted(out)


def _read(rel: str) -> str:
    with open(os.path.join(_PKG, rel), encoding="utf-8") as f:
        return f.read()


def kernel_modules() -> list[str]:
    """The package's modules that declare kernels (``tronlab.grid.voronoi``, ...),
    found by reading the sources (nothing is imported)."""
    return [("tronlab/" + rel[:-3]).replace("/", ".").removesuffix(".__init__")
            for rel in _package_files() if _TABLE_LINE.search(_read(rel))]


def _imports(rel: str, text: str) -> set[str]:
    """Package files that module ``rel`` imports with ``from .x import``."""
    here = rel.split("/")[:-1]
    found = set()
    for dots, name in _RELATIVE_IMPORT.findall(text):
        base = here[:len(here) - (len(dots) - 1)] if len(dots) > 1 else here
        parts = base + [p for p in name.split(".") if p]
        for cand in ("/".join(parts) + ".py", "/".join(parts + ["__init__.py"])):
            if os.path.exists(os.path.join(_PKG, cand)):
                found.add(cand)
    return found


def sources() -> list[str]:
    """The files whose contents name the build: this folder's, the kernel modules
    and the package modules they import from."""
    files = set(_JIT_SOURCES)
    for rel in _package_files():
        text = _read(rel)
        if _TABLE_LINE.search(text):
            files.add(rel)
            files |= _imports(rel, text)
    return sorted(files)


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


def _platform_bytes() -> bytes:
    """The numba, llvmlite and numpy versions, Python's, the platform and machine."""
    import numpy

    parts = [_version_bytes(package, filename) for package, filename in _VERSION_FILES]
    machine = (os.uname().machine if hasattr(os, "uname")
               else os.environ.get("PROCESSOR_ARCHITECTURE", ""))
    parts += [part.encode() for part in (numpy.__version__, sys.version, sys.platform, machine,
                                         importlib.machinery.EXTENSION_SUFFIXES[0])]
    return b"\0".join(parts) + b"\0"


def content_key() -> str:
    """The key computed from the sources' contents (reads every package module)."""
    h = hashlib.sha256()
    for name in sources():
        with open(os.path.join(_PKG, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read() + b"\0")
    h.update(_platform_bytes())
    return h.hexdigest()[:16]


def _fingerprint() -> str:
    """A cheap stand-in for the sources' contents: the package's path and each
    module's name, size and modification time (what Python's own ``.pyc`` check
    trusts), and the versions of :func:`_platform_bytes`."""
    h = hashlib.sha256(_PKG.encode() + b"\0" + _platform_bytes())
    for rel in _package_files():
        st = os.stat(os.path.join(_PKG, rel))
        h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:32]


_keys: dict = {}    # fingerprint -> key, in this process


def _memo_path(fp: str, directory: str | None = None) -> str:
    return os.path.join(directory or aot_dir(), "keys", fp)


def key() -> str:
    """16 hex digits naming the build that fits these sources and versions.

    Reading and hashing every kernel module costs 0.05-0.1 s, a third of a
    contest program's start-up budget, so :func:`remember_key` (called by the
    build) files the key under the :func:`_fingerprint` of the files, in
    ``<aot dir>/keys``; while no file changes size or time the key is read
    from there, else recomputed from the contents (:func:`content_key`)."""
    fp = _fingerprint()
    if fp in _keys:
        return _keys[fp]
    k = None
    try:
        with open(_memo_path(fp), encoding="ascii") as f:
            k = f.read().strip()
    except OSError:
        pass
    if not (k and len(k) == 16 and all(c in "0123456789abcdef" for c in k)):
        k = content_key()
    _keys[fp] = k
    return k


def remember_key(directory: str | None = None) -> str:
    """Compute the key from the contents and file it under the fingerprint in the
    builds' base ``directory`` (best effort); return it."""
    fp, k = _fingerprint(), content_key()
    _keys[fp] = k
    memo = _memo_path(fp, directory)
    try:
        os.makedirs(os.path.dirname(memo), exist_ok=True)
        tmp = f"{memo}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="ascii") as f:
            f.write(k + "\n")
        os.replace(tmp, memo)
    except OSError:
        pass
    return k


def module_name(k: str | None = None) -> str:
    return f"_tronlab_aot_{k or key()}"


def module_path(directory: str | None = None, k: str | None = None) -> str:
    """Where the build for the current key lives (whether or not it exists)."""
    k = k or key()
    return os.path.join(directory or aot_dir(), k,
                        module_name(k) + importlib.machinery.EXTENSION_SUFFIXES[0])


def manifest_path(directory: str | None = None, k: str | None = None) -> str:
    """The ``.json`` beside the build: kernel name -> module, signature, arguments."""
    path = module_path(directory, k)
    return path[:-len(importlib.machinery.EXTENSION_SUFFIXES[0])] + ".json"


# ---------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------
_loaded = None      # the extension module, once loaded
_manifest: dict = {}
_twins: dict = {}   # name -> callable (checked when TRONLAB_AOT_CHECK is on)
_checked = False    # whether load() has run in this process
_note = ""          # why there is no module, for status()
generation = 0      # bumped by load() and unload(): kernels re-resolve their target


def _flag(name: str) -> str:
    return os.environ.get(name, "").strip().lower()


def load(directory: str | None = None):
    """Load the build for the current key (again); return the module or ``None``."""
    global _loaded, _manifest, _twins, _checked, _note, generation
    _loaded, _manifest, _twins, _checked, _note = None, {}, {}, True, ""
    generation += 1
    if _flag("TRONLAB_AOT") in _OFF:
        _note = "switched off by TRONLAB_AOT=0"
        return None
    k = key()
    path = module_path(directory, k)
    if not os.path.exists(path):
        _note = f"not built for this version (key {k})"
        return None
    try:
        with open(manifest_path(directory, k), encoding="utf-8") as f:
            manifest = json.load(f)["kernels"]
        spec = importlib.util.spec_from_file_location(module_name(k), path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as exc:        # a broken or foreign file: use the JIT kernels
        _note = f"{path} does not load ({type(exc).__name__}: {exc})"
        return None
    missing = [name for name in manifest if not hasattr(module, name)]
    if missing:
        _note = f"{path} lacks {', '.join(missing)}"
        return None
    _loaded, _manifest = module, manifest
    return module


def unload() -> None:
    """Forget the loaded module (if any): the next :func:`twin` call loads again,
    reading ``TRONLAB_AOT``, ``TRONLAB_AOT_DIR`` and ``TRONLAB_AOT_CHECK`` afresh."""
    global _loaded, _manifest, _twins, _checked, _note, generation
    _loaded, _manifest, _twins, _checked, _note = None, {}, {}, False, ""
    generation += 1


def twin(name: str):
    """The compiled twin of kernel ``name``, or ``None`` (not built, not loadable,
    switched off, or not a kernel with a declared signature)."""
    if not _checked:
        load()
    if _loaded is None or name not in _manifest:
        return None
    f = _twins.get(name)
    if f is None:
        f = getattr(_loaded, name)
        if _flag("TRONLAB_AOT_CHECK") not in ("", *_OFF):
            from .argcheck import checked
            f = checked(f, name, _manifest[name])
        _twins[name] = f
    return f


def manifest_entry(name: str) -> dict | None:
    """Kernel ``name``'s entry in the loaded manifest (parameters, argument types) or None
    (call after :func:`twin`, which loads)."""
    return _manifest.get(name) if _loaded is not None else None


def loaded_names() -> list[str]:
    """The kernels of the loaded build (empty when none is loaded)."""
    if not _checked:
        load()
    return sorted(_manifest) if _loaded is not None else []


def status() -> str:
    """One line: which kernels Python calls use and why."""
    if not _checked:
        load()
    if _loaded is not None:
        return f"tronlab AOT: {len(_manifest)} kernels loaded from {_loaded.__file__}"
    hint = ("run `tronlab warmup` or `python -m tronlab.jit.aot build`" if _compiler()
            else "no C compiler (gcc/cc) found, so no build is possible")
    return f"tronlab AOT: {_note}; using the numba JIT kernels ({hint})"


def _compiler() -> str | None:
    import shutil

    return shutil.which(os.environ.get("CC", "gcc")) or shutil.which("gcc") or shutil.which("cc")


def build(*, directory: str | None = None, verbose: bool = False) -> str:
    """Compile every declared kernel into the build for the current key; see
    :func:`tronlab.jit.aot_build.build`."""
    from .aot_build import build as _build
    return _build(directory=directory, verbose=verbose)


def clean(directory: str | None = None) -> list[str]:
    """Delete builds for other keys; return the directories removed."""
    import shutil

    base = directory or aot_dir()
    current = key()
    removed = []
    keys = os.path.join(base, "keys")
    if os.path.isdir(keys):         # the remembered keys: keep the current one
        for entry in os.listdir(keys):
            if entry != _fingerprint():
                try:
                    os.remove(os.path.join(keys, entry))
                except OSError:
                    pass
    if os.path.isdir(base):
        for entry in sorted(os.listdir(base)):
            path = os.path.join(base, entry)
            if entry not in (current, "keys") and os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tronlab.jit.aot",
                                 description="Ahead-of-time compiled tronlab kernels.")
    ap.add_argument("command", choices=("build", "status", "list", "clean"))
    ap.add_argument("--dir", default=None,
                    help="where builds go (default: $TRONLAB_AOT_DIR or the user cache)")
    ap.add_argument("--verbose", action="store_true", help="show the compiler's output")
    args = ap.parse_args(argv)
    if args.command == "status":
        load(args.dir)
        print(status())
        return 0
    if args.command == "list":
        from .aot_build import exports
        for name, (module, sig) in exports().items():
            print(f"{module}.{name}  {sig}")
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
    with open(manifest_path(args.dir), encoding="utf-8") as f:
        n = len(json.load(f)["kernels"])
    print(f"built {n} kernels into {path} in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":      # run the package's module, not a copy named __main__
    from tronlab.jit.aot import main as _main
    sys.exit(_main())
