"""``tronlab arena``: run tournaments into a results database, print tables, replay games,
export the standings and games as CSV.

::

    tronlab arena run --game google2010 --bots random hugger "cmd:./mybot" \\
        --maps arena,spiral,random:20 --seeds 2 --time 0.1 --jobs 2 --db results.sqlite
    tronlab arena run --bots-dir students/ --bots hugger --db class.sqlite --html board.html
    tronlab arena table results.sqlite [--html FILE]
    tronlab arena replay results.sqlite 17 [--json]
    tronlab arena export results.sqlite --table standings.csv --games games.csv

``run`` plays every game of the plan that the database lacks (so the same
command resumes a stopped run), then prints the table.  ``--seeds N`` plays N
seeded games per group of bots, map and seating.  ``--schedule gauntlet``
plays the first bot against each other one.  ``--depth D`` fixes the search
bots' depth (games between registered bots then replay identically anywhere, when their
endgame is capped too, ``chamber+endgame_depth=2``: :mod:`tronlab.arena.play`).  ``--bank S`` plays
Light Riders under the contest's time bank (S seconds, ``--time`` added a
move).  ``--dask ADDRESS`` plays on a Dask cluster instead of ``--jobs`` local
processes.  Ctrl-C (or SIGTERM) stops cleanly and prints the table of the games finished so far.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from ..runner.reprs import plural
from .common import ArenaError, _open, is_utf8, shown_name
from .export import cmd_export
from .parser import MAX_JOBS, build_parser
from .runtext import played_again, print_run, write_html


def _check_html_path(path) -> None:
    """Fail now, not after the tournament, if the ``--html`` page cannot be written there."""
    from ..cli.parser import file_problem

    problem = None if path is None else file_problem(path)
    if problem:
        raise ArenaError(f"--html {path}: {problem}")


def _check_run_options(args) -> None:
    """Refuse, before any game, a database or page that could not be written, an
    empty ``--bots-dir`` or ``--dask`` (a slip: nothing would say it was ignored), a
    number of ``--jobs`` this machine cannot run, and ``--jobs`` beside ``--dask``
    (the cluster plays the games: it would be ignored)."""
    from ..cli.parser import file_problem

    _check_html_path(args.html)
    problem = file_problem(args.db, database=True)
    if problem:
        raise ArenaError(f"--db {args.db}: {problem}")
    if args.html is not None and os.path.realpath(args.html) == os.path.realpath(args.db):
        raise ArenaError(f"--html and --db are the same file ({args.db}): the page would be "
                         f"written over the results, give it another name")
    for option, value in (("--bots-dir", args.bots_dir), ("--dask", args.dask)):
        if value is not None and not value.strip():
            raise ArenaError(f"{option}: the value is empty")
    if args.tag is not None and not is_utf8(args.tag):     # a Latin-1 terminal's bytes
        raise ArenaError(f"--tag {shown_name(args.tag)!r}: it is not UTF-8, the text the "
                         f"database stores: write it in letters a-z, digits and _")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise ArenaError(f"--jobs is 1 to {MAX_JOBS} (each job is a process with its own "
                         f"bots), got {args.jobs}")
    if args.dask is not None and args.jobs != 1:
        raise ArenaError(f"--jobs {args.jobs} plays on processes of this machine, --dask on "
                         f"the cluster's workers: give one of them")
    from .schedule import check_bank
    check_bank(args.bank, args.game, _time(args), "--bank", "--time")


def _time(args) -> float:
    """``--time``, or its default: a limit a move, or the contest's seconds a move under
    ``--bank``."""
    from .schedule import GAME_TIME, default_time
    return default_time(GAME_TIME if args.time is None else args.time, args.bank)


def make_plan(args, bots=None):
    """The plan of ``tronlab arena run``: ``bots`` (default: ``--bots``, then every bot
    of ``--bots-dir``) by the schedule, maps, seeds and clock (``--time``, ``--bank``)
    of ``args``."""
    from .bots import bots_in_folder
    from .schedule import (check_bank, check_depth, check_players, check_seeds, gauntlet,
                           round_robin)

    check_players(args.game, args.players, "--players")
    check_seeds(args.seeds, "--seeds")          # the options' names, not the API's words
    check_depth(args.depth, "--depth")
    check_bank(args.bank, args.game, _time(args), "--bank", "--time")
    if bots is None:
        bots = list(args.bots) + (bots_in_folder(args.bots_dir) if args.bots_dir else [])
    if len(bots) < 2:
        raise ArenaError("give at least two bots (--bots and/or --bots-dir)")
    opts = dict(game=args.game, players=args.players, seeds=args.seeds, time=_time(args),
                depth=args.depth, tag=args.tag, bank=args.bank)
    if args.schedule == "gauntlet":
        return gauntlet(bots[0], bots[1:], args.maps, **opts)
    return round_robin(bots, args.maps, **opts)


def folder_bots(args) -> tuple[list, dict]:
    """The bots of ``--bots-dir`` as specs, and ``{spec: why}`` for those that cannot
    play (a file that does not compile, has no usable ``move``, imports a missing
    module): in a class, one student's broken file must not stop everybody's
    tournament.  Files that are not bots at all are named on stdout and passed over."""
    from .bots import check_spec, scan_bots_folder
    from .schedule import check_players

    if not args.bots_dir:
        return [], {}
    check_players(args.game, args.players, "--players")
    found = scan_bots_folder(args.bots_dir)
    for path, why in found.skipped:
        print(f"skipped {os.path.basename(path)}: {why}")
    if not found.specs:
        raise ArenaError(f"no bots in {args.bots_dir!r}: expected .py files with "
                         f"move(board, player) or executable programs")
    broken = {}
    for spec in found.specs:
        try:
            check_spec(spec, args.game)
        except ValueError as err:
            broken[spec] = " ".join(str(err).split())
    return found.specs, broken


def _plan_and_store(args):
    """The plan (without the folder's broken bots, each named on stdout), the store if
    the database exists, its finished keys, and ``{name: why}`` of the bots left out."""
    from .bots import bot_name
    from .tournament import plan_load_problems

    folder, broken = folder_bots(args)
    bots = list(args.bots) + [b for b in folder if b not in broken]
    plan = make_plan(args, bots) if len(bots) >= 2 else None
    store = _open(args.db) if os.path.isfile(args.db) else None
    try:
        if store is not None:
            _store_kept(store)
        done_keys = store.done_keys() if store is not None else set()
        problems = plan_load_problems(plan, done_keys) if plan is not None else {}
        for spec in folder:
            path = os.path.abspath(spec[3:]) if spec.startswith("py:") else None
            if path in problems:
                broken[spec] = problems.pop(path)
        if problems:          # a bot named with --bots: the command itself is wrong
            raise ArenaError("; ".join(problems.values()))
        left_out = {bot_name(b): why for b, why in broken.items()}
        for name, why in left_out.items():
            print(f"left out {name}: {why}")
        if len(bots) - len(set(bots) & set(broken)) < 2 and left_out:
            raise ArenaError(f"fewer than two bots can play ({len(left_out)} left out)")
        if plan is None or set(bots) & set(broken):
            plan = make_plan(args, [b for b in bots if b not in broken])
    except BaseException:
        if store is not None:
            store.close()
        raise
    return plan, store, done_keys, left_out


def _store_kept(store) -> None:
    """Store the games an earlier run finished but could not write, and say so."""
    from .unstored import kept_files, store_kept
    files = kept_files(store.path)
    stored = store_kept(store)
    if stored:
        print(f"stored {plural(stored, 'game')} that an earlier run finished but did not "
              f"store (it was stopped, or could not write the database), from "
              f"{', '.join(files)}")


def _executor(args, plan):
    if not args.dask:
        return None, None
    from .cluster import dask_executor, plan_files, quiet_dask_logs
    from .play import plan_warm
    if not os.environ.get("TRONLAB_DEBUG"):
        quiet_dask_logs()
    try:
        return dask_executor(args.dask, warm=plan_warm(plan), files=plan_files(plan))
    except (OSError, ValueError) as err:
        text = str(err)
        raise ArenaError(text if text.startswith("--dask") else f"--dask {args.dask}: {text}") \
            from None


def cmd_run(args) -> int:
    from .giveup import GiveUp, held_back
    from .tournament import run

    from ..runner import reaper

    _check_run_options(args)
    if getattr(args, "command_line", False):
        reaper.become_subreaper()   # a game's escaped processes come back here to be ended
    # every check before the database is made or a game played
    plan, store, done_keys, left_out = _plan_and_store(args)
    try:
        executor, client = _executor(args, plan)   # a cluster that cannot be reached: no db
    except BaseException:
        if store is not None:
            store.close()
        raise
    if store is None:
        store = _open(args.db, must_exist=False)
    from .schedule import plan_note
    done = len({s.key for s in plan} & done_keys)
    quit_ = GiveUp(plan, store, args.give_up_after)     # the stored games read once
    kept, held = held_back(plan, quit_, done_keys)
    print(f"{plural(len(plan), 'game')} planned, {done} already in {args.db}, "
          f"{len(plan) - done - kept} to play{held}"
          + played_again(store, plan, done_keys)
          + plan_note(plan, args.schedule, len(plan) - done - kept), flush=True)
    term = _TermAsCtrlC() if getattr(args, "command_line", False) else None
    closed: list = []           # stdout's reader went away (`arena run --verbose | head`)
    try:
        result = run(plan, store, executor=executor, jobs=args.jobs,
                     progress=not args.no_progress,
                     on_game=_stored_or_stop(closed) if args.verbose else None,
                     check_load=False, give_up=quit_)
    finally:
        if term is not None:
            term.restore()
        if client is not None:
            client.close()
    print_run(args, plan, store, result, left_out, closed)
    store.close()
    if result.failed:
        raise ArenaError(f"{result.failed}; the games stored so far are kept")
    if closed:
        return 128 + signal.SIGPIPE
    if result.interrupted:
        return 128 + signal.SIGTERM if term is not None and term.came else 130
    return 0


def _stored_or_stop(closed):
    """:func:`_stored`, and a stop as Ctrl-C's (``closed`` then says so) when stdout is a
    pipe whose reader has gone (``| head``): playing on for nobody would be time lost."""
    def on_game(row):
        try:
            _stored(row)
        except BrokenPipeError:
            from ..cli.app import silence_stdout
            silence_stdout()
            closed.append(True)
            raise KeyboardInterrupt from None
    return on_game


def _stored(row) -> None:
    """``--verbose``: a line for each game stored, with its number for ``arena replay``."""
    game = f" as game {row['id']}" if "id" in row else ""
    print(f"stored {row['key']}{game}: {' v '.join(row['names'])} on {row['map']}: "
          f"{'draw' if row['winner'] is None else row['names'][row['winner']] + ' wins'}",
          flush=True)


class _TermAsCtrlC:
    """While the games are played, SIGTERM (``kill PID``, ``timeout``) stops the run as
    Ctrl-C does: the pool and the programs are ended, and the finished games' table and
    the 'stopped:' line are printed; the exit code is then 143, a SIGTERM's.  Dying by
    the signal printed none of it, and Python's resource tracker warned of "leaked
    semaphore objects"."""

    def __init__(self):
        self.came = False
        self.old = signal.signal(signal.SIGTERM, self._stop)

    def _stop(self, signum, frame):
        self.came = True
        raise KeyboardInterrupt

    def restore(self) -> None:
        signal.signal(signal.SIGTERM, self.old)


def cmd_table(args) -> int:
    _check_html_path(args.html)
    with _open(args.db, read_only=True) as store:     # closed again: main() may be a call
        return _table(store, args)


def _table(store, args) -> int:
    from .report import table_text
    from .store import latest_versions, none_stored
    rows = store.rows(tag=args.tag, game=args.game)
    if not rows and (args.tag is not None or args.game is not None):
        raise ArenaError(none_stored(store, args.db, args.game, args.tag))
    rows, replaced = latest_versions(rows)
    games = sorted({r["game"] for r in rows})
    if len(games) > 1 and args.html:
        raise ArenaError(f"{args.db} holds games of {', '.join(games)}: a page shows one "
                         f"game's, choose it with --game")
    print("\n\n\n".join(table_text([r for r in rows if r["game"] == g], store=store)
                        for g in games) if games else table_text(rows))
    if replaced:
        print(f"\n{plural(replaced, 'older game')} left out: replaced by games of a changed "
              f"bot file")
    _say_kept(store, args)
    if args.html:
        write_html(store, rows, args.html, args.replays)
    return 0


def _say_kept(store, args) -> None:
    """Say which finished games a run kept beside the database and are not in the table."""
    from .unstored import kept_files, kept_rows
    done = store.done_keys()
    kept = {r["key"] for r in kept_rows(store.path) if r["key"] not in done
            and (args.game is None or r["game"] == args.game)}
    if kept:
        print(f"\n{plural(len(kept), 'finished game')} kept in "
              f"{', '.join(kept_files(store.path))} {'is' if len(kept) == 1 else 'are'} not "
              f"in this table: the run that played them did not store them (it was stopped "
              f"or killed, or could not write the database); the next arena run on it "
              f"stores them first")


def cmd_replay(args) -> int:
    from .report import replay_text
    from .store import record_of
    with _open(args.db, read_only=True) as store:
        text = store.record_json(args.id)
        if args.json:
            print(json.dumps(json.loads(text), indent=1))
            return 0
        row = next(r for r in store.rows() if r["id"] == args.id)
    print(replay_text(row, record_of(text)))
    return 0


COMMANDS = {"run": cmd_run, "table": cmd_table, "replay": cmd_replay, "export": cmd_export}


def main(argv=None, *, command_line=None) -> int:
    """``tronlab arena ...``; errors are one line on stderr and exit code 2.
    ``command_line`` (default: ``argv is None``) says this is the process's own
    command, not a call from Python code: only then does ``run`` adopt the
    processes its games leave behind (a child subreaper, :mod:`tronlab.runner.reaper`)."""
    debug = bool(os.environ.get("TRONLAB_DEBUG"))
    try:
        args = build_parser().parse_args(argv)
        args.command_line = argv is None if command_line is None else command_line
        if args.command is None:
            raise ArenaError("choose a command: run, table, replay or export (see tronlab "
                             "arena --help)")
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:             # `tronlab arena replay ... | head`: not an error
        from ..cli.app import silence_stdout
        silence_stdout()
        return 0
    except (ValueError, OSError) as err:
        if debug:
            raise
        sys.stderr.write(f"tronlab arena: error: {' '.join(str(err).split())}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
