"""The bot registry: bots by name.

A *factory* makes a bot: ``factory(*, rng=None, time=None, **options) ->
bot``, where a bot is a callable ``bot(board, player) -> move`` (see
:mod:`tronlab.engine`), ``rng`` a ``numpy.random.Generator`` (or int seed)
and ``time`` a thinking budget in seconds per move for bots that search.
Register a factory under a name, in any module::

    from tronlab.bots import register

    @register("greedy", description="takes the move with the most free neighbours")
    def greedy(*, rng=None, time=None):
        ...

then ``get_bot("greedy")`` builds one.  The modules in
:data:`_BUILTIN_MODULES` register the bots shipped with tronlab; they are
imported on the first look-up by name.
"""

from __future__ import annotations

import importlib
import warnings

_REGISTRY: dict[str, tuple[object, str]] = {}


def register(name: str, factory=None, *, description: str = ""):
    """Register ``factory`` as ``name``; without ``factory``, a decorator that does it."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a bot name is a non-empty str, got {name!r}")

    def add(fn):
        if not callable(fn):
            raise TypeError(f"bot factory for {name!r} is not callable")
        if name in _REGISTRY and _REGISTRY[name][0] is not fn:
            raise ValueError(f"a bot called {name!r} is already registered")
        doc = description or (fn.__doc__ or "").strip().split("\n")[0]
        _REGISTRY[name] = (fn, doc)
        return fn

    return add if factory is None else add(factory)


def bot_names() -> list[str]:
    """Names of the registered bots, sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def _entry(name):
    if name not in _REGISTRY and name in _BUILTIN_HOMES:
        _load_module(_BUILTIN_HOMES[name])    # only the module that makes this bot
    if name not in _REGISTRY:
        _load_builtins()
    if name not in _REGISTRY:
        known = ", ".join(bot_names()) or "none"
        raise ValueError(f"unknown bot {name!r}; known bots: {known}")
    return _REGISTRY[name]


def describe(name: str) -> str:
    """The one-line description of bot ``name``."""
    return _entry(name)[1]


def get_bot(name: str, **options):
    """A new bot from the factory registered as ``name``, given ``options``."""
    factory, _ = _entry(name)
    bot = factory(**options)
    if not callable(bot):
        raise TypeError(f"the factory of bot {name!r} returned a {type(bot).__name__}, "
                        f"not a callable bot")
    return bot


# Modules that register the built-in bots.  They are imported on the first
# look-up, not with this package: the search bots pull in numba, and
# ``import tronlab`` should stay light.  A look-up of a built-in name imports
# just its own module, so ``random`` or ``hugger`` as a protocol program
# answers its first move without loading numba (about half a second sooner).
_BUILTIN_MODULES = ["basic", "filler", "search_bots", "nash_bot"]
_BUILTIN_HOMES = {"random": "basic", "hugger": "basic", "filler": "filler",
                  "voronoi": "search_bots", "multivoronoi": "search_bots",
                  "minimax": "search_bots", "chamber": "search_bots", "nash": "nash_bot"}
_loaded = False


def _load_module(module: str) -> None:
    try:
        importlib.import_module(f"{__name__}.{module}")
    except Exception as err:  # noqa: BLE001 - one broken module must not hide the others
        warnings.warn(f"tronlab.bots: could not load built-in bots from {module!r}: {err}",
                      RuntimeWarning, stacklevel=3)


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _BUILTIN_MODULES:
        _load_module(module)

