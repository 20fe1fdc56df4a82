"""The longer help texts of ``tronlab arena run`` (the examples, ``--maps``,
``--time`` and ``--bank``), kept out of :mod:`tronlab.arena.parser`."""

from __future__ import annotations

RUN_EXAMPLES = """\
Run the same command again to resume a stopped or killed run: it plays only the
games the database lacks (and again those of a bot whose file changed).  A run
with another clock (--time, --bank, --depth) plays games of its own: it never
takes the games played under another clock for its own.  A program that never
answers its first move is given up on after its first games (--give-up-after):
fix its file and run the same command again to play the rest of its games.

examples:
  tronlab arena run --bots random hugger "cmd:./mybot" --maps arena,spiral --seeds 2
  tronlab arena run --bots-dir students/ --bots hugger --db class.sqlite --html board.html
  tronlab arena run --game codingame --players 3 --bots-dir students/ --bots hugger
  tronlab arena run --game lightriders --bank 10 --bots-dir students/ --bots nash
  tronlab arena run --schedule gauntlet --bots chamber minimax voronoi --depth 4
  tronlab arena run --bots-dir students/ --bots hugger --dask tcp://HOST:8786
    (a cluster started with 'dask scheduler' and 'dask worker tcp://HOST:8786
    --nthreads 1' where this tronlab and the students/ folder are at the same paths)
"""

#: ``--time`` when it is not given: a limit a move, or the seconds a move under ``--bank``
DEFAULT_TIME = 0.1


def maps_default() -> str:
    from .maps import DEFAULT_MAPS
    return "; ".join(f"{m} for {g}" for g, m in DEFAULT_MAPS.items())


def bank_move_time() -> float:
    """``--time``'s default under ``--bank``: the Light Riders contest's seconds a move."""
    from ..runner.games import get_game
    return get_game("lightriders").move_time


def contest_limits() -> str:
    """The contests' own limit a later move, from the registry: 'google2010 1000 ms, ...'."""
    from ..runner.contestclock import later_limit
    from ..runner.games import games
    return ", ".join(f"{g.name} its {g.first_move_time:g} s bank" if g.banked else
                     f"{g.name} {later_limit(g) * 1000:.0f} ms" for g in games())


def time_help() -> str:
    from ..capture.external import GRACE
    from .bots import MARGIN
    from .play import PROGRAM_START
    return (f"thinking time a move (default {DEFAULT_TIME:g}); the game times out at 2 S, the "
            f"first move at 6 S or, when a program plays, at least {PROGRAM_START:g} s "
            f"(TRONLAB_PROGRAM_START); a program of the Tron games (py:, cmd:) is stopped at "
            f"{MARGIN:g} of these ({2 * MARGIN:g} S, {PROGRAM_START * MARGIN:g} s), so its own "
            f"clock names the fault (a lightriders program is told {2 * MARGIN:g} S as its "
            f"bank, each move: planning from it keeps to the limit); a backtothecode program "
            f"(cmd:) is stopped at 2 S + "
            f"{GRACE * 1000:g} ms (the contest's grace) and at the full first-move limit. "
            f"So, when these are above its contest's limit, a program may answer slower "
            f"than the contest allows ({contest_limits()}) and play on: the table, the page "
            f"and the export count, per program, the answers "
            f"after its first that the contest's own clock would have timed out. "
            f"With --bank: the seconds added to the bank before each move (default "
            f"{bank_move_time():g}, the contest's)")


def bank_help() -> str:
    from ..runner.games import get_game
    from .play import PROGRAM_START
    bank = get_game("lightriders").first_move_time
    return (f"lightriders only: play under the contest's time bank instead of a limit per "
            f"move, registered bots and programs alike: each bot's bank starts at S seconds, "
            f"--time is added before each move (capped at S), a search bot plans from its "
            f"bank, and an answer after the bank ran out is a timeout that shuts the bot "
            f"down (the contest: --bank {bank:g}, {bank_move_time():g} s a move). A program's "
            f"(py:, cmd:) bank starts once it has read its settings, so starting up is off "
            f"the bank; the {PROGRAM_START:g} s first-move floor (TRONLAB_PROGRAM_START) does "
            f"not apply. Games under a bank are other games "
            f"than those under a limit per move or another bank: a run never reuses the "
            f"ones for the others. Default: no bank, --time a move")


def give_up_help() -> str:
    from .giveup import GIVE_UP_AFTER
    from .play import PROGRAM_START
    return (f"give up on a program (py:, cmd:) that timed out on the first move of each of its "
            f"first K games, answering none (a loop at the top of the file or in move()): its "
            f"other games are not played nor stored, where each would wait out the first "
            f"move's limit ({PROGRAM_START:g} s, TRONLAB_PROGRAM_START) for nothing; the end of "
            f"the run names it and how many games it missed. Once its file is fixed, the same "
            f"command plays them; so does --give-up-after 0 (never give up). A file unchanged "
            f"since a run gave up on it stays given up on (default {GIVE_UP_AFTER}: one slow "
            f"start is forgiven)")
