"""Kernels compiled when first needed, and their ahead-of-time twins.

Importing numba costs about 0.4 s and the first call of any numba function
another 0.5-1 s (numba builds its target registries), even when the compiled
code comes from the cache.  So the kernel modules (:mod:`tronlab.grid.ring`,
:mod:`~tronlab.grid.flood`, :mod:`~tronlab.grid.voronoi`, :mod:`~tronlab.grid.articulation`,
:mod:`~tronlab.grid.multivoronoi`, :mod:`~tronlab.grid.parity`) do not import numba when
they are imported.  Each writes its kernels as plain functions marked with
:func:`kernel` and ends with::

    _kernels = KernelTable(globals())
    __getattr__ = _kernels.module_getattr

:class:`KernelTable` takes the marked functions out of the module namespace.
The first time anything asks for one of them by name -
``from .voronoi import territory_kernel`` in a module that compiles its own
kernels, ``voronoi.territory_kernel`` in a notebook, or a wrapper that found
no ahead-of-time twin - Python calls the module's ``__getattr__`` (PEP 562);
the table imports numba, wraps *every* marked function of the module in
``njit(cache=True, **options)`` and puts the dispatchers back into the
namespace.  From then on the names are ordinary module globals: kernels
calling each other, other modules' compiled code and ``.py_func`` all see
plain numba dispatchers, exactly as if the module had used ``@njit``.

The friendly wrappers call ``_kernels.fast(name)``: the twin compiled ahead of
time by :mod:`tronlab.jit.aot` when such a module is built and loads (no numba
import at all), else the dispatcher.  The twins are the same Python functions
compiled by ``numba.pycc`` for fixed argument types, and they do no type
checks: a wrong dtype there is a crash, not an error, so wrappers must pass
exactly the documented dtypes (C-contiguous arrays, int64 scalars).
"""

from __future__ import annotations

from . import aot as _aot

_MARK = "_tronlab_njit_options"


def kernel(func=None, /, **options):
    """Mark ``func`` as a numba kernel of its module, compiled on first use with
    ``njit(cache=True, **options)``.  Use as ``@kernel`` or ``@kernel(inline="always")``."""
    def mark(f):
        setattr(f, _MARK, dict(options))
        return f
    return mark if func is None else mark(func)


class KernelTable:
    """The marked kernels of one module; see the module docstring.

    ``uses`` maps names the kernels call from *other* kernel modules to those
    modules, e.g. ``{"ring_code_kernel": ring}``; they are linked into this
    module's namespace when its kernels compile.
    """

    def __init__(self, namespace: dict, *, uses: dict | None = None):
        self._ns = namespace
        self._uses = dict(uses or {})
        self._py = {name: f for name, f in namespace.items()
                    if callable(f) and hasattr(f, _MARK)}
        for name in self._py:
            del namespace[name]
        self._compiled = False

    @property
    def names(self) -> list[str]:
        """Names of this module's kernels, in definition order."""
        return list(self._py)

    def py_func(self, name: str):
        """The plain Python function behind kernel ``name`` (no numba needed)."""
        return self._py[name]

    def compile(self) -> None:
        """Import numba and turn every marked function into a dispatcher (cheap:
        numba compiles, or loads from its cache, at the first call)."""
        if self._compiled:
            return
        from numba import njit

        for name, module in self._uses.items():
            self._ns[name] = getattr(module, name)
        for name, f in self._py.items():
            self._ns[name] = njit(cache=True, **getattr(f, _MARK))(f)
        self._compiled = True

    def jit(self, name: str):
        """The numba dispatcher of kernel ``name``."""
        self.compile()
        return self._ns[name]

    def fast(self, name: str):
        """The ahead-of-time twin of kernel ``name`` if one is loaded, else its dispatcher."""
        twin = _aot.twin(name)
        return twin if twin is not None else self.jit(name)

    def module_getattr(self, name: str):
        if name in self._py:
            return self.jit(name)
        raise AttributeError(f"module {self._ns['__name__']!r} has no attribute {name!r}")

    def module_dir(self) -> list[str]:
        return sorted(set(self._ns) | set(self._py))
