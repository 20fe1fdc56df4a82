"""A results database as CSV for a spreadsheet: ``tronlab arena export``.

::

    tronlab arena export class.sqlite --table standings.csv --games games.csv
    tronlab arena export class.sqlite --table -          # to standard output

:func:`standings` is the ratings table that ``tronlab arena table`` prints, a
line a bot (for each contest of the database: google2010, ...): place, bot,
rating, the half-width of its 95% interval, points, results, games, the faults
by kind and, for a program (py:, cmd:), how many of its answers the contest's
own clock would have timed out and its worst answer in ms
(:mod:`tronlab.arena.slow`; blank for a registered bot). :func:`game_lines` is a
line a stored game: its number (the one ``tronlab arena replay`` takes), rules,
tag, map, seed, clock, turns, the winner and, seat by seat, the bot, its place
(1 = first, shared on a tie), its fault and what it did (the replay's line for
it). Both read what the database holds, so an interrupted run exports the games
it finished; like ``arena table``, the games of a changed bot file replace its
older ones.

>>> import os, tempfile
>>> db = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite"))
>>> db.add({"key": "k", "game": "google2010", "bots": ["a", "b"], "names": ["a", "b"],
...         "map": "m", "map_set": "s", "seed": 1, "winner": 0, "ranks": [0, 1], "turns": 3,
...         "faults": [None, "trail"], "time": 0.1, "record": "{}"})
True
>>> [line[:3] for line in standings(db.rows())]
[['rules', 'rank', 'bot'], ['google2010', 1, 'a'], ['google2010', 2, 'b']]
>>> game_lines(db, db.rows())[1][:9]
[1, 'google2010', '', 'm', 1, '0.1 s a move', 3, 'a', 'a']
"""

from __future__ import annotations

import csv
import sys

from ..runner.games import family_of
from ..runner.reprs import plural
from .ratings import places, ratings
from .report import clock_text, seat_faults
from .slow import slow_by_bot
from .stats import fault_codes, fault_counts, seat_places
from .store import Store, record_of  # noqa: F401  (Store: the doctest's)


def fault_kinds(rows) -> tuple:
    """The fault codes a bot of ``rows`` could make: those of the Tron programs and
    clocks, and the capture game's broken rules when a game of ``rows`` is one."""
    from ..tron.rules import FAULTS
    capture = any(family_of(r["game"]) == "capture" for r in rows)
    return fault_codes() if capture else tuple(FAULTS)


def standings(rows) -> list[list]:
    """The header and a line a bot of the ratings table of ``rows``, contest by
    contest: ``rules, rank, bot, rating, interval, points, results, games, faults``,
    a count for each kind of fault, and ``contest_late, contest_worst_ms`` (how many of
    a program's answers the contest's own clock would have timed out, and its worst
    answer; blank for a registered bot).  ``rating`` and ``interval`` (the 95%
    interval is rating +- interval) are rounded as the printed table shows them."""
    kinds = fault_kinds(rows)
    out = [["rules", "rank", "bot", "rating", "interval", "points", "results", "games",
            "faults", *kinds, "contest_late", "contest_worst_ms"]]
    for rules in sorted({r["game"] for r in rows}):
        subset = [r for r in rows if r["game"] == rules]
        table = ratings(subset)
        faults, slow = fault_counts(subset), slow_by_bot(subset)
        for place, r in zip(places(table), table):
            mine = faults.get(r.name, {})
            games = sum(r.name in row["names"] for row in subset)
            late = slow.get(r.name)
            out.append([rules, place, r.name, round(r.elo), round(r.half), r.points, r.games,
                        games, sum(mine.values()), *(mine.get(k, 0) for k in kinds),
                        *(("", "") if late is None else (late.late, round(late.worst * 1000)))])
    return out


def _reasons(store, row) -> list[str]:
    """What each seat of ``row`` did wrong, from the game's record ('' for a seat
    without a fault; the record is read only for a game with one)."""
    codes = fault_codes()
    if not any(f in codes for f in row["faults"]):
        return [""] * len(row["names"])
    said = {}
    for k, text in seat_faults(row["names"], record_of(store.record_json(row["id"]))):
        said.setdefault(k, text)                    # a seat's first line
    return [said.get(k, "") if fault in codes else "" for k, fault in enumerate(row["faults"])]


def game_lines(store, rows) -> list[list]:
    """The header and a line a game of ``rows`` (of ``store``): ``game`` (its number),
    ``rules, tag, map, seed, clock, turns, winner`` ('' for a draw) and, for each seat
    k from 0, ``seatK_bot, seatK_place, seatK_fault, seatK_reason`` (empty for the
    seats a smaller game lacks)."""
    seats = max((len(r["names"]) for r in rows), default=2)
    codes = fault_codes()
    out = [["game", "rules", "tag", "map", "seed", "clock", "turns", "winner"]
           + [f"seat{k}_{what}" for k in range(seats)
              for what in ("bot", "place", "fault", "reason")]]
    for row in rows:
        names = row["names"]
        line = [row["id"], row["game"], row["tag"], row["map"], row["seed"], clock_text(row),
                row["turns"], "" if row["winner"] is None else names[row["winner"]]]
        places = seat_places(row["ranks"])
        for k, reason in enumerate(_reasons(store, row)):
            fault = row["faults"][k]
            line += [names[k], places[k], fault if fault in codes else "", reason]
        out.append(line + [""] * (4 * (seats - len(names))))
    return out


#: a spreadsheet runs a cell that starts with one of these as a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def as_text(cell):
    """``cell``, a text a spreadsheet would run as a formula (a bot named after a
    student's file '=1+2.py') behind a ' that keeps it text: CSV injection."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_START) else cell


def write_csv(lines, path) -> None:
    """``lines`` as CSV to the file ``path``, or to standard output for ``-``; texts a
    spreadsheet would run as formulas are written as text (:func:`as_text`)."""
    lines = [[as_text(cell) for cell in line] for line in lines]
    if path == "-":
        csv.writer(sys.stdout).writerows(lines)
        sys.stdout.flush()
        return
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(lines)


def add_parser(sub) -> None:
    """``tronlab arena export``'s options, on the subcommands ``sub`` of ``tronlab arena``."""
    e = sub.add_parser("export", help="write the standings and the games as CSV, for "
                                      "grading in a spreadsheet",
                       description="Write what a results database holds as CSV: the "
                                   "standings, a line a bot, and the games, a line a game. "
                                   "An interrupted run exports the games it finished.")
    e.add_argument("db", help="the results database (arena run --db)")
    e.add_argument("--table", metavar="FILE",
                   help="the standings: rules, rank, bot, rating, interval (the 95%% interval "
                        "is rating +- interval), points, results, games, faults, a column "
                        "for each kind of fault, and for a program (py:, cmd:) how many of "
                        "its answers the contest's own clock would have timed out "
                        "(contest_late) and its worst (contest_worst_ms); - for standard output")
    e.add_argument("--games", metavar="FILE",
                   help="the games: their number (arena replay takes it), rules, tag, map, "
                        "seed, clock, turns, winner, and for each seat K from 0 the bot, its "
                        "place (1 = first), its fault and what it did; - for standard output")
    e.add_argument("--tag", help="only games of this tag")
    e.add_argument("--game", help="only games of this game (google2010, codingame, "
                                  "lightriders, backtothecode)")


def cmd_export(args) -> int:
    """``tronlab arena export``: the CSV files, each written only once all is read."""
    from ..cli.parser import file_problem
    from .common import ArenaError, _open
    from .store import latest_versions, none_stored

    targets = [(option, path) for option, path in (("--table", args.table),
                                                    ("--games", args.games)) if path]
    if not targets:
        raise ArenaError("say what to export: --table FILE (the standings) and/or --games "
                         "FILE (a line a game); - writes to standard output")
    if args.table == args.games:
        raise ArenaError(f"--table and --games are both {args.table!r}: give two files "
                         f"(- is standard output for one of them)")
    for option, path in targets:
        problem = None if path == "-" else file_problem(path)
        if problem:
            raise ArenaError(f"{option} {path}: {problem}")
    store = _open(args.db, read_only=True)
    try:
        rows = store.rows(tag=args.tag, game=args.game)
        if not rows and (args.tag is not None or args.game is not None):
            raise ArenaError(none_stored(store, args.db, args.game, args.tag))
        rows, replaced = latest_versions(rows)
        lines = {"--table": standings(rows) if args.table else None,
                 "--games": game_lines(store, rows) if args.games else None}
    finally:
        store.close()
    say = sys.stderr if "-" in (args.table, args.games) else sys.stdout
    if not rows:
        print(f"{args.db} holds no games yet: each file gets its header line only", file=say)
    for option, path in targets:
        write_csv(lines[option], path)
        if path != "-":
            n = len(lines[option]) - 1
            print(f"standings ({plural(n, 'line')}, a bot each) written to {path}"
                  if option == "--table" else f"{plural(n, 'game')} written to {path}",
                  file=say)
    if replaced:
        print(f"{plural(replaced, 'older game')} left out: replaced by games of a changed bot "
              f"file", file=say)
    return 0
