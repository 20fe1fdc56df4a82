"""``tronlab maps``, ``tronlab bots``, ``tronlab bot`` and ``tronlab warmup``."""

from __future__ import annotations

import os


def cmd_maps(args) -> int:
    from ..tron.mapgen import builtin_maps, load_builtin

    for name in builtin_maps():
        board = load_builtin(name)
        print(f"{name:<16} {board.width}x{board.height}")
    return 0


def cmd_bots(args) -> int:
    from ..runner.registry import bot_names, describe

    for name in bot_names(args.game):
        print(f"{name:<16} {describe(name, game=args.game)}")
    return 0


def cmd_bot(args) -> int:
    if "+" in args.name or args.name.startswith(("py:", "cmd:")):
        _check_spec(args.name, args.protocol)
    if args.protocol == "backtothecode":
        from ..capture.cli import cmd_bot as capture_bot
        return capture_bot(args)
    if getattr(args, "width", None) is not None or getattr(args, "height", None) is not None:
        from .parser import CLIError
        raise CLIError(f"--width/--height are for --protocol backtothecode, whose input never "
                       f"gives the grid's size; the {args.protocol} input gives it")
    from ..runner.stdio import run_stdio, start_bot

    if args.verbose:
        import sys
        blas = os.environ.get("OPENBLAS_NUM_THREADS", "numpy's default")
        print(f"tronlab bot {args.name}: BLAS threads {blas}", file=sys.stderr, flush=True)

    # the seed itself, not a Generator: bots that draw make one (as_rng), the others never
    # import numpy.random (a tenth of the start-up budget)
    bot = start_bot(args.name, rng=args.seed, time=args.time)     # never waits for the compiler
    problems, passed = [], []
    answers = run_stdio(bot, args.protocol, time_limit=args.time, rng=args.seed,
                        verbose=args.verbose, problems=problems, passed=passed)
    if problems:        # garbage in: a contest program says so by its exit code
        from .parser import CLIError
        raise CLIError(f"the {args.protocol} input ended on a broken turn (see the line "
                       f"above); {answered(answers, len(passed), args.protocol)}")
    return 0


def answered(answers: int, passes: int = 0, protocol: str = "lightriders") -> str:
    """How many turns a contest program answered, in words: ``answers`` by the bot and
    ``passes`` answered for a broken turn (Light Riders ``pass``, else a guess), answers too.

    >>> print(answered(1)); print(answered(3, 1)); print(answered(0, 2))
    1 turn was answered
    4 turns were answered, 1 of them with pass because its input was broken
    2 turns were answered, all with pass because their input was broken
    >>> print(answered(1, 1, "google2010"))
    2 turns were answered, 1 of them with a guess because its input was broken
    """
    total = answers + passes
    words = f"{total} turn{'s were' if total != 1 else ' was'} answered"
    if not passes:
        return words
    which = "" if total == 1 else "all " if passes == total else f"{passes} of them "
    whose = "its" if passes == 1 else "their"
    how = "pass" if protocol == "lightriders" else "a guess"
    return f"{words}, {which}with {how} because {whose} input was broken"


def _check_spec(spec: str, protocol: str) -> None:
    """``NAME+key=value`` checked as ``tronlab match`` checks it, before any input is
    read: a wrong option is one CLIError naming it.  The check makes the bot once
    without its warm-up, so no kernel compiles or loads before the first answer."""
    from ..arena.bots import is_program
    from ..runner.registry import no_warm_up
    from .match import check_bot_spec
    from .parser import CLIError

    if is_program(spec):
        raise CLIError(f"tronlab bot runs a registered bot, got {spec!r}: py: files and "
                       f"cmd: programs play in tronlab match and arena run")
    with no_warm_up():
        check_bot_spec(spec, protocol)


# ---- warmup ---------------------------------------------------------------------------


def cmd_warmup(args) -> int:
    """Fill numba's cache, then build the ahead-of-time module; say what a bot will use."""
    from ..jit import aot
    from ..jit.warmup import warm_up

    print("compiling tronlab's kernels into numba's cache (30-60 s the first time)",
          flush=True)
    seconds = warm_up(verbose=not args.quiet)
    print(f"numba's cache is ready ({seconds:.1f} s)", flush=True)
    os.environ.pop("TRONLAB_AOT", None)
    aot.unload()
    if not args.no_aot and aot.load() is not None:     # this version's build loads: keep it
        print("the ahead-of-time module is up to date (`python -m tronlab.jit.aot build` "
              "builds it again)")
    elif not args.no_aot:
        print("building the ahead-of-time module (no numba needed when a bot starts)",
              flush=True)
        try:
            path = aot.build()
            print(f"built {path}")
        except aot.AotError as exc:
            print(f"no ahead-of-time module: {exc}; bots load numba's cache instead")
    aot.unload()
    print(aot.status())
    return 0
