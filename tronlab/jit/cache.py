"""Where numba keeps its compile cache.

Kernels use ``@njit(cache=True)``; numba writes the cache next to the source in
``__pycache__``.  When the package directory is read-only (a system install, a
shared class machine) we point ``NUMBA_CACHE_DIR`` at a per-user directory
before numba is imported, so caching keeps working; when that one cannot be made
either (an unwritable HOME) a directory under the system's temporary folder is used.
"""

from __future__ import annotations

import os
import sys

_PKG = os.path.dirname(os.path.abspath(__file__))


def _writable(path: str) -> bool:
    if os.path.isdir(path):
        return os.access(path, os.W_OK | os.X_OK)
    return _writable(os.path.dirname(path)) if os.path.dirname(path) != path else False


def user_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tronlab", "numba")


def _first_writable(*dirs: str) -> str:
    """The first of ``dirs`` that can be made and written (HOME may be read-only), else a
    fresh temporary directory."""
    import tempfile     # not at the top: a contest program's start-up skips it

    for path in dirs:
        try:
            os.makedirs(path, exist_ok=True)
        except OSError:
            continue
        if _writable(path):
            return path
    return tempfile.mkdtemp(prefix="tronlab-numba-")


def configure_numba_cache() -> str | None:
    """Pick a writable numba cache dir if the package's own is not; return it."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    if _writable(os.path.join(_PKG, "__pycache__")):
        return None
    import tempfile

    target = _first_writable(user_cache_dir(), os.path.join(
        tempfile.gettempdir(), f"tronlab-{getattr(os, 'getuid', lambda: 'user')()}", "numba"))
    os.environ["NUMBA_CACHE_DIR"] = target
    if "numba" in sys.modules:  # numba already read its config: tell it directly
        import numba.core.config as cfg
        cfg.CACHE_DIR = target
    return target


def _marker_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        return base
    here = os.path.join(_PKG, "__pycache__")
    return here if _writable(here) else user_cache_dir()


def _marker(bot: str) -> str:
    from .aot import key
    return os.path.join(_marker_dir(), f"tronlab-warm-{bot}-{key()}")


def mark_warm(bot: str = "all") -> None:
    """Note that numba's cache now holds the kernels of ``bot`` ("all": every
    kernel) for these sources and versions (see :func:`is_warm`)."""
    try:
        os.makedirs(_marker_dir(), exist_ok=True)
        with open(_marker(bot), "w") as f:
            f.write("numba's cache was filled for this bot\n")
    except OSError:
        pass


def is_warm(bot: str) -> bool:
    """Whether numba's cache was filled for ``bot`` (or for every kernel) with
    these sources and versions: by ``tronlab warmup``, ``python -m
    tronlab.jit.warmup --bot``, or a bot that loaded once.  Never imports numba."""
    return any(os.path.exists(_marker(b)) for b in (bot, "all"))
