"""The bot registry: bots by game family and name.

A *factory* makes a bot: ``factory(*, rng=None, time=None, **options) ->
bot``, where ``rng`` is a ``numpy.random.Generator`` (or int seed) and
``time`` a thinking budget in seconds per move for bots that search (a factory
may leave both out: it is then called without them).  What a
bot is depends on the game family (:mod:`tronlab.runner.games`): a Tron bot is a
callable ``bot(board, player) -> move`` (see :mod:`tronlab.runner.engine`), a
capture bot ``bot(view, player) -> action`` (see :mod:`tronlab.capture`).
Names are per family: ``random`` is one bot for Tron and another for capture.
Register a factory under a name, in any module::

    from tronlab.runner.registry import register

    @register("greedy", description="takes the move with the most free neighbours")
    def greedy(*, rng=None, time=None):
        ...

then ``get_bot("greedy")`` builds one (``game="tron"`` is the default; pass a
family or a game name such as ``game="backtothecode"``).  The factory's other
keyword arguments are the bot's options: ``get_bot(name, key=value)``, and
``NAME+key=value`` in ``tronlab match``, ``tronlab arena run`` and ``tronlab bot``
(a wrong one is refused before any game).

The ``tronlab`` command imports only tronlab, so it knows the built-in bots.
A script that imports the module registering yours and calls
``sys.exit(tronlab.cli.main(sys.argv[1:]))`` under ``if __name__ ==
"__main__":`` plays it by name in every command (``match``, ``arena run``,
``bot``); ``arena run --jobs`` starts processes that re-import the script,
which is why the guard is needed.  The modules in
:data:`_BUILTIN_MODULES` register the bots shipped with tronlab; they are
imported on the first look-up by name.
"""

from __future__ import annotations

import importlib
import re
import warnings
from contextlib import contextmanager

from ..tron.values import is_real

_REGISTRY: dict[str, dict[str, tuple[object, str]]] = {}   # family -> name -> entry
_NO_WARM_UP: list = []      # not empty inside no_warm_up()


def _family(game) -> str:
    from .games import family_of
    return family_of(game)


def register(name: str, factory=None, *, description: str = "", game: str = "tron"):
    """Register ``factory`` as ``name`` for a game family (or a game's family);
    without ``factory``, a decorator that does it.  A name already taken in the family
    (a built-in bot's too, loaded or not yet) by another factory is a ValueError.
    ``factory(*, rng=None, time=None, **options)`` returns a bot; the module docstring
    (``help(tronlab.runner.registry)``) says what a bot is and how to play yours by name."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a bot name is a non-empty str, got {name!r}")
    _check_reachable(name)
    family = _family(game)

    def add(fn):
        if not callable(fn):
            raise TypeError(f"bot factory for {name!r} is not callable")
        table = _REGISTRY.setdefault(family, {})
        if name not in table and (family, name) in _BUILTIN_HOMES:
            # a built-in name registered before its module was loaded: load it now, so the
            # name is refused below (instead of shadowing the built-in and breaking the
            # module's later import, which lost its other bots)
            _load_module(_BUILTIN_HOMES[family, name])
        if name in table and table[name][0] is not fn:
            raise ValueError(f"a {family} bot called {name!r} is already registered")
        doc = description or (fn.__doc__ or "").strip().split("\n")[0]
        table[name] = (fn, doc)
        return fn

    return add if factory is None else add(factory)


def _check_reachable(name: str) -> None:
    """Refuse a name no bot spec can reach: in ``name+key=value`` the ``+`` starts the
    options and ``=`` gives a value, a command line splits at whitespace, and ``cmd:``
    and ``py:`` start a program or a file, not a registered name."""
    bad = sorted({ch for ch in name if ch in "+=" or ch.isspace()})
    if bad or name.startswith(("cmd:", "py:")):
        why = (f"it holds {', '.join(repr(ch) for ch in bad)}" if bad else
               f"it starts with {name[:name.index(':') + 1]!r}, which names a program")
        raise ValueError(f"bot name {name!r} cannot be used in a bot spec ({why}; '+' "
                         f"starts options, '=' gives their values): choose another name")


def bot_names(game: str = "tron") -> list[str]:
    """Names of the registered bots of a game family (or a game's family), sorted."""
    family = _family(game)
    _load_builtins()
    return sorted(_REGISTRY.get(family, {}))


def _entry(name, game="tron"):
    if not isinstance(name, str):
        raise TypeError(f"a bot name is a str like 'minimax', got {type(name).__name__} "
                        f"{name!r}")
    family = _family(game)
    table = _REGISTRY.setdefault(family, {})
    if name not in table and (family, name) in _BUILTIN_HOMES:
        _load_module(_BUILTIN_HOMES[family, name])    # only the module that makes this bot
    if name not in table:
        _load_builtins()
    if name not in table:
        raise ValueError(unknown_bot(name, family))
    return table[name]


def unknown_bot(name: str, game="tron") -> str:
    """The message for a bot ``name`` that ``game`` (or family) has not: the known ones,
    and ``(paths is a capture bot, for backtothecode)`` when another family has a bot
    of that name (the wrong game was chosen)."""
    family = _family(game)
    known = ", ".join(bot_names(family)) or "none"
    text = f"unknown bot {name!r}; known {family} bots: {known}"
    for other, table in _REGISTRY.items():
        if other != family and name in table:
            from .games import game_names
            return text + f" ({name} is a {other} bot, for {', '.join(game_names(other))})"
    return text


def describe(name: str, *, game: str = "tron") -> str:
    """The one-line description of bot ``name``."""
    return _entry(name, game)[1]


def is_builtin(name: str, *, game: str = "tron") -> bool:
    """Whether ``name`` is a bot shipped with tronlab (not one registered by other code),
    so that a fresh process that imports tronlab alone can make it."""
    return (_family(game), name) in _BUILTIN_HOMES


@contextmanager
def no_warm_up():
    """Inside, the built-in search bots' factories make their bot without warming it up
    (:func:`warm_up_wanted`): no kernel is compiled or loaded, so checking a spec's options
    by making the bot (:func:`tronlab.arena.bots.check_spec`) takes milliseconds, not the
    compiler's tens of seconds (``tronlab bot NAME+key=value`` on a cold start)."""
    _NO_WARM_UP.append(True)
    try:
        yield
    finally:
        _NO_WARM_UP.pop()


def warm_up_wanted() -> bool:
    """Whether a factory should warm its bot up (false inside :func:`no_warm_up`)."""
    return not _NO_WARM_UP


def check_time(time):
    """``time`` (seconds per move) as a float, or None; a ValueError for anything but a
    positive number, whether or not the bot searches."""
    if time is None:
        return None
    if not is_real(time) or not time > 0:
        raise ValueError(f"time must be a positive number of seconds per move, got {time!r}")
    return float(time)


def get_bot(name: str, *, game: str = "tron", **options):
    """A new bot from the factory registered as ``name`` for ``game``'s family.
    ``time`` is checked here, so a bot that does not search refuses a bad one too."""
    factory, _ = _entry(name, game)
    if options.get("time") is not None:
        options["time"] = check_time(options["time"])
    options = _fit(name, factory, options)
    try:
        bot = factory(**options)
    except TypeError as err:    # Python's "SearchBot.__init__() got an unexpected keyword"
        unknown = re.search(r"unexpected keyword argument '(\w+)'", str(err))
        if unknown is None or unknown.group(1) not in options:
            raise
        raise TypeError(f"{name} has no option {unknown.group(1)!r}") from None
    if not callable(bot):
        raise TypeError(f"the factory of bot {name!r} returned a {type(bot).__name__}, "
                        f"not a callable bot")
    return bot


def _fit(name: str, factory, options: dict) -> dict:
    """``options`` for ``factory``: without ``rng`` and ``time`` when it takes neither
    them nor ``**options`` (every caller passes them: a bot that neither draws nor
    searches needs neither, as the built-in ones ignore them).  A factory with a
    parameter no option gives is a TypeError saying so: most often the bot itself
    was registered, not its factory."""
    import inspect

    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):     # a callable Python cannot look into: call it
        return options
    if not any(p.kind is p.VAR_KEYWORD for p in params):
        taken = {p.name for p in params}
        options = {k: v for k, v in options.items() if k in taken or k not in ("rng", "time")}
    missing = [p for p in params if p.default is p.empty and p.name not in options
               and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if not missing:
        return options
    names = ", ".join(p.name for p in missing)
    positional = [p for p in missing if p.kind is not p.KEYWORD_ONLY]
    if len(positional) == 2:        # bot(board, player) or bot(view, player)
        raise TypeError(f"bot {name!r} was registered with a callable that needs {names}: "
                        f"register() takes a factory that makes the bot, factory(*, "
                        f"rng=None, time=None, **options) -> bot, not the bot itself (for "
                        f"a bot function: register({name!r}, lambda **options: bot))")
    raise TypeError(f"bot {name!r} needs the option{'s' * (len(missing) > 1)} {names} "
                    f"({name}+{missing[0].name}=VALUE, or get_bot({name!r}, "
                    f"{missing[0].name}=...))")


def make_spec_bot(spec: str, *, time=None, rng=None, game: str = "google2010"):
    """A bot of ``game`` (any Tron game by default: its family) from its name, or from
    ``NAME+key=value`` as ``tronlab match`` reads it (:func:`tronlab.arena.bots.make_bot`:
    JSON values; a ``time=`` option is the bot's thinking time and wins over ``time``,
    as in ``match``)."""
    if "+" not in spec:         # a bare name: no need to import the arena
        return get_bot(spec, game=game, rng=rng, **({} if time is None else {"time": time}))
    from ..arena.bots import make_bot
    return make_bot(spec, game, time=time, rng=rng)


# Modules that register the built-in bots.  They are imported on the first
# look-up, not with this package: the search bots pull in numba, and
# ``import tronlab`` should stay light.  A look-up of a built-in name imports
# just its own module, so ``random`` or ``hugger`` as a protocol program
# answers its first move without loading numba (about half a second sooner).
_BUILTIN_MODULES = ["tronlab.tron.bots.basic", "tronlab.tron.bots.filler",
                    "tronlab.tron.bots.search", "tronlab.tron.bots.nash",
                    "tronlab.tron.bots.quick", "tronlab.capture.bots",
                    "tronlab.tron.bots.hybrid", "tronlab.capture.smart_bots"]
_BUILTIN_HOMES = {("tron", "random"): _BUILTIN_MODULES[0], ("tron", "hugger"): _BUILTIN_MODULES[0],
                  ("tron", "filler"): _BUILTIN_MODULES[1], ("tron", "voronoi"): _BUILTIN_MODULES[2],
                  ("tron", "multivoronoi"): _BUILTIN_MODULES[2],
                  ("tron", "minimax"): _BUILTIN_MODULES[2],
                  ("tron", "chamber"): _BUILTIN_MODULES[2],
                  ("tron", "nash"): _BUILTIN_MODULES[3], ("tron", "quick"): _BUILTIN_MODULES[4],
                  **{("capture", name): _BUILTIN_MODULES[5]
                     for name in ("random", "random-back", "nearest")},
                  ("tron", "hybrid"): _BUILTIN_MODULES[6],
                  **{("capture", name): _BUILTIN_MODULES[7]
                     for name in ("rectangles", "rectangles-back", "rectangles-block", "paths",
                                  "paths-same", "paths-back", "paths-block")}}
_loaded = False


def _load_module(module: str) -> None:
    try:
        importlib.import_module(module)
    except Exception as err:  # noqa: BLE001 - one broken module must not hide the others
        warnings.warn(f"tronlab.runner.registry: could not load built-in bots from "
                      f"{module!r}: {err}",
                      RuntimeWarning, stacklevel=3)


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _BUILTIN_MODULES:
        _load_module(module)

