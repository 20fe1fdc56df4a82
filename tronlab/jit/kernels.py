"""One way to declare a kernel: ``@kernel``, compiled when first needed, with an
ahead-of-time twin when it declares a signature.

Importing numba costs about 0.4 s and the first call of any numba function
another 0.5-1 s (numba builds its target registries), even when the compiled
code comes from the cache.  So no kernel module imports numba when it is
imported.  Each writes its kernels as plain functions marked with
:func:`kernel` and ends with one line::

    @kernel(sig="UniTuple(i8, 4)(u1[::1], i8, i8, i8, i4[::1], u1[::1], i4[::1])")
    def territory_kernel(flat, head0, head1, stride, dist, owner, queue):
        ...

    @kernel(inline="always")          # a helper only compiled code calls: no sig
    def _step(...):
        ...

    _kernels = KernelTable(globals())

``@kernel`` returns a :class:`Kernel`: a stand-in that keeps the plain Python
function (``.py_func``), the numba options and the signature.  Other modules
import it like any function (``from ..grid.voronoi import territory_kernel``)
without loading numba.  What a call does:

* from Python: the arguments are checked (see Checks below), then the twin
  compiled ahead of time by :mod:`tronlab.jit.aot` runs when a build for
  these sources loads (no numba import at all), else the numba dispatcher
  (compiled, or loaded from numba's cache, on first use);
* from compiled code: when a module's kernels compile (the first time one of
  them is needed as a dispatcher), its :class:`KernelTable` imports numba,
  copies the module's namespace, wraps *every* kernel of the module in
  ``njit(cache=True, **options)`` with that copy as its globals and puts the
  dispatchers into the copy, replacing the stand-ins of other modules' kernels
  it refers to with their dispatchers.  So the kernels see plain numba
  dispatchers, exactly as if the module had used ``@njit``, while the module
  itself keeps its stand-ins: ``module.some_kernel(...)`` from Python is
  checked before and after the compile alike.  A user's own ``@njit``
  function may call a stand-in too: numba asks it for its type
  (``_numba_type_``) and gets the dispatcher's.

``sig`` is a numba signature string (``i8``, ``u1[::1]``, ``UniTuple(i8, 4)``,
``Tuple((b1, i8))``, ...) that may also name a type registered with
:func:`sig_type` (for example the chamber scratch tuple).  Declare it on every
kernel that Python code calls directly, so that a bot runs without numba when
the twins are built; :mod:`tronlab.jit.aot` builds its export list by walking
the tables (:func:`declared`), there is no second list.

Checks.  The twins themselves do no type checks (a wrong dtype there reads
garbage or crashes the interpreter), so a call of a kernel *from Python*
checks its arguments against ``sig`` first, under the twin and under numba
alike, and raises one TypeError naming the argument, the type the signature
wants and what it got (:mod:`tronlab.jit.argcheck`; about 0.1-0.2 us an
argument).  A kernel without ``sig`` turns numba's typing traceback into one
TypeError.  Value preconditions (a start square inside the padded grid,
scratch at least as long as the grid) are not in a signature: every kernel
with ``sig`` declares them as ``guard=``, run after the type check (see
:mod:`tronlab.grid.guards`; tests/test_kernel_guards.py holds the rule).
Compiled code calls the dispatchers and pays nothing; the package's wrappers
check a board and their scratch once, then call ``_kernels.fast(name)``,
unchecked (``TRONLAB_AOT_CHECK=1`` checks those calls' types too; the tests
run that way).
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable

from . import aot as _aot

#: module name -> its KernelTable, filled as kernel modules are imported
TABLES: dict = {}
#: type name usable in ``sig`` strings -> a function returning a sample value
SIG_TYPES: dict = {}


def sig_type(name: str, sample) -> None:
    """Let ``sig`` strings say ``name`` for the numba type of ``sample()``
    (a function returning an example value, called only when numba is loaded)."""
    if not name.isidentifier():
        raise ValueError(f"a signature type name is an identifier, got {name!r}")
    SIG_TYPES[name] = sample


class Kernel:
    """A kernel declared with :func:`kernel`: see the module docstring."""

    def __init__(self, func, sig, options, guard=None):
        functools.update_wrapper(self, func)
        self.py_func = func
        self.sig = sig
        self.guard = guard
        self.options = dict(options)
        self.table = None
        self._call = None
        self._generation = -1

    def __call__(self, *args):
        if self._generation != _aot.generation:
            self._call = self._python_call()
            self._generation = _aot.generation
        return self._call(*args)

    def _python_call(self):
        """What a call from Python runs: the twin (or the dispatcher) behind the check
        of the arguments against ``sig`` and the ``guard``; without ``sig``, the
        dispatcher with numba's typing errors turned into one TypeError."""
        from . import argcheck

        name = self.__name__
        target = self._bound().fast(name)
        target = getattr(target, "__wrapped__", target) if _aot.twin(name) else target
        if self.sig is None:
            return _typing_errors_as_type_errors(target, name, self.guard)
        entry = _aot.manifest_entry(name)
        if entry is None:           # the JIT path: numba is loaded anyway
            params = list(inspect.signature(self.py_func).parameters)
            entry = {"params": params,
                     "args": [argcheck.describe(t) for t in parse_sig(self.sig).args]}
        return argcheck.guarded(target, name, entry["params"], entry["args"], self.guard)

    def _bound(self):
        if self.table is None:
            raise RuntimeError(f"kernel {self.__module__}.{self.__name__} is not in a KernelTable:"
                               f" end its module with `_kernels = KernelTable(globals())`")
        return self.table

    def dispatcher(self):
        """The numba dispatcher (imports numba and compiles the module's table)."""
        return self._bound().jit(self.__name__)

    @property
    def _numba_type_(self):
        from numba.core import types
        return types.Dispatcher(self.dispatcher())

    def __getattr__(self, attr):
        if attr.startswith("_") or attr in ("table", "py_func", "sig", "options", "guard"):
            raise AttributeError(attr)
        return getattr(self.dispatcher(), attr)

    def __repr__(self) -> str:
        return f"<tronlab kernel {self.__module__}.{self.__name__}>"


def kernel(func=None, /, *, sig: str | None = None, guard=None, **options):
    """Declare ``func`` a numba kernel of its module, compiled on first use with
    ``njit(cache=True, **options)``; ``sig`` also exports it ahead of time and
    makes calls from Python check their argument types against it.  ``guard`` is
    a plain Python function of the same arguments, run on calls from Python after
    the type check, that raises ValueError for values the kernel cannot take
    safely (an index outside the array, a scratch array too small).
    Use as ``@kernel``, ``@kernel(inline="always")`` or ``@kernel(sig="i8(u1[::1], i8)")``."""
    if sig is not None and not isinstance(sig, str):
        raise TypeError(f"sig is a numba signature string, got {type(sig).__name__}")
    if guard is not None and not callable(guard):
        raise TypeError(f"guard is a function of the kernel's arguments, got "
                        f"{type(guard).__name__}")

    def mark(f):
        return Kernel(f, sig, options, guard)
    return mark if func is None else mark(func)


def _typing_errors_as_type_errors(dispatcher, name, guard):
    """``dispatcher`` (of a kernel without ``sig``) whose numba typing errors, the
    answer to arguments it cannot compile for, come out as one short TypeError."""
    def call(*args):
        if guard is not None:
            guard(*args)
        try:
            return dispatcher(*args)
        except Exception as exc:
            if type(exc).__name__ != "TypingError" or not type(exc).__module__.startswith("numba"):
                raise
            got = ", ".join(_type_name(a) for a in args)
            message = (f"{name} cannot take arguments of types ({got}): numba found no way to "
                       f"compile it for them (see its docstring for what each argument holds)")
        raise TypeError(message)
    call.__wrapped__ = dispatcher
    call.__name__ = call.__qualname__ = name
    return call


def _type_name(value) -> str:
    if hasattr(value, "dtype") and hasattr(value, "ndim"):
        return f"{value.ndim}-d {value.dtype} array"
    return type(value).__name__


def plain(func, _spaces=None):
    """A copy of ``func`` (a kernel's Python function) whose module namespace has every
    kernel in it, whether a stand-in or the numba dispatcher that replaced it when the
    module compiled, swapped for that kernel's own plain copy, module by module; the
    kernels its table ``uses`` from other modules are added first (the namespace holds
    them only once the module compiled).  Calling ``py_func`` alone would still call the
    compiled helpers."""
    spaces = {} if _spaces is None else _spaces
    module = func.__globals__.get("__name__")
    ns = spaces.get(module)
    if ns is None:
        ns = spaces[module] = dict(func.__globals__)
        table = TABLES.get(module)
        for name, home in (table._uses.items() if table is not None else ()):
            ns[name] = getattr(home, name)      # linked only when the module compiles
        for key, value in list(ns.items()):
            inner = _python_of(value)
            if inner is not None:
                ns[key] = plain(inner, spaces)
    return types.FunctionType(func.__code__, ns, func.__name__, func.__defaults__,
                              func.__closure__)


def _python_of(value):
    """The Python function of a kernel stand-in or of a numba dispatcher, else None."""
    if isinstance(value, Kernel):
        return value.py_func
    if type(value).__module__.startswith("numba") and isinstance(
            getattr(value, "py_func", None), types.FunctionType):
        return value.py_func
    return None


def _resolve(value):
    """The dispatcher behind a stand-in (other names unchanged)."""
    return value.dispatcher() if isinstance(value, Kernel) else value


class KernelTable:
    """The kernels of one module (the :class:`Kernel` objects it defines).

    ``uses`` maps names the kernels call but the module does not hold to the
    modules that define them, e.g. ``{"next_cell_kernel": saddle}``; they are
    linked into this module's namespace when its kernels compile.
    """

    def __init__(self, namespace: dict, *, uses: dict | None = None):
        self._module_ns = self._ns = namespace     # _ns: a copy once compiled (compile())
        self.module = namespace["__name__"]
        self._uses = dict(uses or {})
        self._kernels = {name: k for name, k in namespace.items()
                         if isinstance(k, Kernel) and k.__module__ == self.module}
        for name, k in self._kernels.items():
            if k.__name__ != name:
                raise ValueError(f"kernel {k.__name__} is bound to another name {name!r}")
            k.table = self
        self._compiled = False
        TABLES[self.module] = self

    @property
    def names(self) -> list[str]:
        """Names of this module's kernels, in definition order."""
        return list(self._kernels)

    def kernel(self, name: str) -> Kernel:
        return self._kernels[name]

    def py_func(self, name: str):
        """The plain Python function behind kernel ``name`` (no numba needed)."""
        return self._kernels[name].py_func

    def plain(self, name: str):
        """Kernel ``name`` as plain Python all the way down (see :func:`plain`): the
        ``jit=False`` twin the oracle tests compare the compiled kernel with."""
        return plain(self._kernels[name].py_func)

    def compile(self) -> None:
        """Import numba and turn every kernel into a dispatcher (cheap: numba
        compiles, or loads from its cache, at the first call)."""
        if self._compiled:
            return
        from numba import njit

        # the kernels compile in a copy of the module's namespace, where every kernel
        # is a dispatcher; the module keeps its stand-ins, so a call from Python is
        # always checked (Kernel.__call__) and compiled code never is
        self._ns = ns = dict(self._module_ns)
        # own dispatchers first: kernel modules may refer to each other
        for name, k in self._kernels.items():
            f = k.py_func
            ns[name] = njit(cache=True, **k.options)(functools.update_wrapper(
                types.FunctionType(f.__code__, ns, f.__name__, f.__defaults__, f.__closure__),
                f))
        self._compiled = True
        for name, module in self._uses.items():
            self._ns[name] = getattr(module, name)
        for name, value in list(self._ns.items()):
            if isinstance(value, Kernel):
                self._ns[name] = _resolve(value)
            elif isinstance(getattr(type(value), "_tronlab_lazy_global", None), Callable):
                self._ns[name] = value._tronlab_lazy_global()

    def jit(self, name: str):
        """The numba dispatcher of kernel ``name``."""
        self.compile()
        return self._ns[name]

    def fast(self, name: str):
        """The ahead-of-time twin of kernel ``name`` if one is loaded, else its dispatcher."""
        twin = _aot.twin(name)
        return twin if twin is not None else self.jit(name)

    def module_getattr(self, name: str):
        """For ``__getattr__ = _kernels.module_getattr`` (kept for older modules)."""
        if name in self._kernels:
            return self._kernels[name]
        raise AttributeError(f"module {self.module!r} has no attribute {name!r}")

    def module_dir(self) -> list[str]:
        return sorted(set(self._ns) | set(self._kernels))


def declared() -> dict:
    """Every kernel with a signature in the tables imported so far:
    ``{name: (module, sig)}``; a name declared twice is an error."""
    out = {}
    for module, table in sorted(TABLES.items()):
        for name, k in table._kernels.items():
            if k.sig is None:
                continue
            if name in out:
                raise ValueError(f"kernel name {name!r} is declared with a signature in both "
                                 f"{out[name][0]} and {module}: AOT exports need unique names")
            out[name] = (module, k.sig)
    return out


def compiled_versions(prefix: str = "tronlab.") -> dict:
    """``{(module, kernel): n}``: how many compiled versions numba's dispatcher of
    each kernel holds (0 before its module compiled), for the tables imported so
    far whose module starts with ``prefix``.  Compare two readings with
    :func:`versions_added`."""
    out = {}
    for module, table in TABLES.items():
        if module.startswith(prefix):
            for name in table.names:
                dispatcher = table._ns.get(name) if table._compiled else None
                out[(module, name)] = len(getattr(dispatcher, "signatures", ()))
    return out


def versions_added(before: dict, prefix: str = "tronlab.") -> dict:
    """The kernels that gained compiled versions since ``before`` (a
    :func:`compiled_versions` reading): ``{(module, kernel): (then, now)}``.  A
    kernel that gains one during a game was compiled, or loaded from numba's cache,
    in the middle of it."""
    return {k: (before.get(k, 0), n) for k, n in compiled_versions(prefix).items()
            if n > before.get(k, 0)}


def parse_sig(sig: str):
    """The numba signature of a ``sig`` string (imports numba)."""
    from numba import typeof, types
    from numba.core import typing

    namespace = {k: v for k, v in vars(types).items() if not k.startswith("_")}
    namespace.update({name: typeof(sample()) for name, sample in SIG_TYPES.items()})
    try:
        parsed = eval(sig, {"__builtins__": {}}, namespace)   # noqa: S307 - our own strings
    except Exception as exc:
        raise ValueError(f"bad kernel signature {sig!r}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(parsed, typing.Signature):
        raise ValueError(f"bad kernel signature {sig!r}: not of the form ret(args)")
    return parsed
