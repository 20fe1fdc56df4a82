"""The leaderboard and the head-to-head table as text, and a stored game as text.

:func:`table_text` is what ``tronlab arena table`` and the end of a run print:
the ratings (best first, with 95% intervals), the pairs table from the
stronger bot's side (per map set and for all maps: W-D-L, points, score with
interval, sign-test p, verdict, and the mean search depths when a bot searched),
the faults, and, when programs played, their answers held against the contest's own
clock (:mod:`tronlab.arena.slow`).  A class (more than :data:`FULL_PAIRS` pairs) reads
the faults and the clock right after the ratings, then a short pairs table: how many
pairs and verdicts there are, each bot against the next one down the ratings and any
upset (:func:`class_pairs`); the page has every pair.
"""

from __future__ import annotations

import textwrap
from collections import defaultdict

from ..capture.rules import ELIMINATIONS
from ..runner.reprs import plural
from .ratings import places, ratings
from .slow import slow_lines
from .stats import ALPHA, by_name, fault_counts, pair_table, sign_test

NOTE = ("(W-D-L from the first bot's side, both seats; score: points a game with a 95% interval; "
        "sign p: the\n chance of a split of the decided games at least this uneven from coin "
        "tosses; verdict\n 'clear' when p < 0.01 and the first bot won more, 'lost' when p < 0.01 "
        "and it lost more)")
#: the note's line for the 'mean depth' column, shown only where a bot of the table searched
DEPTH_NOTE = (";\n mean depth: how deep each bot's search went on average, '-' for a bot that "
              "does not search")


RESULTS_NOTE = ("(points and results: one result against each other bot of a game, so a "
                "game of n players\n gives each of them n - 1 results)")


def maps_phrase(rows) -> str:
    """'1 map' or 'n maps': how many maps ``rows`` were played on."""
    n = len({r["map"] for r in rows})
    return f"{n} map{'' if n == 1 else 's'}"


def clock_text(row) -> str:
    """The clock a stored game was played under: '0.1 s a move', 'time bank 10 s, 0.2 s
    added a move' (Light Riders' contest clock), 'no time limit'; and a fixed search depth."""
    time, bank, depth = row["time"], row.get("bank"), row["depth"]
    if bank is not None:
        text = f"time bank {bank:g} s, {time:g} s added a move"
    else:
        text = "no time limit" if time is None else f"{time:g} s a move"
    return text if depth is None else f"{text}, search depth {depth}"


def clocks_phrase(rows) -> str:
    """'clock: ...' of ``rows``, or 'clocks: ... (n games); ...' when they differ."""
    counts: dict = {}
    for row in rows:
        text = clock_text(row)
        counts[text] = counts.get(text, 0) + 1
    if len(counts) == 1:
        return f"clock: {next(iter(counts))}"
    return "clocks: " + "; ".join(f"{text} ({plural(n, 'game')})"
                                  for text, n in counts.items())


def multiplayer(rows) -> bool:
    """Whether a game of ``rows`` had more than two players."""
    return any(len(row["names"]) > 2 for row in rows)


def _depth(value):
    return "-" if value is None else f"{value:.1f}"


#: after a name in the ratings: the bot never answered a first move (:func:`never_answered`)
HUNG_MARK = " *"
HUNG_NOTE = ("* never answered a first move: its few games are all timeouts, so its rating "
             "says nothing of its play (see the faults)")


def ratings_text(rows, store=None, hung=None) -> str:
    """The ratings table; a bot that never answered a first move is marked
    (:data:`HUNG_MARK`): those of ``hung`` if given, else :func:`never_answered` with
    ``store``."""
    table = ratings(rows)
    hung = set(never_answered(rows, store) if hung is None else hung)
    # a long name (a cmd: line, a long file name) widens the column: cut to fit, two
    # names that differed only after the cut looked the same
    width = max([22] + [len(r.name) + 1 + len(HUNG_MARK) * (r.name in hung) for r in table])
    lines = [f"{'rank':<5}{'bot':<{width}}{'rating':>8}{'95%':>7}{'points':>10}{'results':>9}"]
    for k, r in zip(places(table), table):
        name = r.name + HUNG_MARK * (r.name in hung)
        lines.append(f"{k:<5}{name:<{width}}{round(r.elo):>8d}{'±' + format(r.half, '.0f'):>7}"
                     f"{r.points:>10.1f}{r.games:>9}")
    if not all(r.in_reference for r in table):
        lines.append(f"({reference_note(table)})")
    if hung:
        lines.append(HUNG_NOTE)
    if multiplayer(rows):
        lines.append(RESULTS_NOTE)
    return "\n".join(lines)


def reference_note(table) -> str:
    """Why the ratings' 0 is not the whole field's mean: the bots of ``table`` (the
    :class:`~tronlab.arena.ratings.Rating` rows) left out of it, those that scored
    nothing against the others (rated below them) and those the others scored nothing
    against.  The bots of the mean are named (up to six), so the sentence cannot be
    read as naming them."""
    outside = [r for r in table if not r.in_reference]
    lost = ", ".join(r.name for r in outside if r.elo < 0)
    won = ", ".join(r.name for r in outside if r.elo >= 0)
    said = " and ".join(([f"{lost} lost every game against them"] if lost else [])
                        + ([f"{won} won every game against them"] if won else []))
    whose = "its rating and interval rest" if len(outside) == 1 else \
        "their ratings and intervals rest"
    inside = sorted((r.name for r in table if r.in_reference), key=by_name)
    group = ", ".join(inside) if len(inside) <= 6 else f"the {len(inside)} bots not named here"
    return f"0 is the mean of {group}; {said}, so {whose} on the prior, not on results"


def _met(rows) -> set:
    return {(a, b) for row in rows for a in row["names"] for b in row["names"] if a != b}


def default_pairs(rows):
    """Every pair of bots that met, the better-rated one first."""
    order = [r.name for r in ratings(rows)]
    met = _met(rows)
    return [(a, b) for i, a in enumerate(order) for b in order[i + 1:] if (a, b) in met]


#: up to this many pairs (those of 8 bots) the printed table shows every pair, after the
#: ratings; a class's hundreds of pairs would put the faults 400 lines down
FULL_PAIRS = 28


def is_class(every) -> bool:
    """Whether ``every`` pair (:func:`default_pairs`) is a class's: more than
    :data:`FULL_PAIRS`, so the table and the page put the faults first and show a few
    pairs (:func:`class_pairs`)."""
    return len(every) > FULL_PAIRS


def class_pairs(rows, every) -> list:
    """The pairs the printed table of a class shows of ``every`` (:func:`default_pairs`):
    each bot against the next one down the ratings (did it earn its place head to head?)
    and each pair whose lower-rated bot clearly won (an upset); in ``every``'s order."""
    order = [r.name for r in ratings(rows)]
    met = _met(rows)
    chosen = {(a, b) for a, b in zip(order, order[1:]) if (a, b) in met}
    chosen |= {(line.a, line.b) for line in pair_table(rows, every) if line.verdict == "lost"}
    return [pair for pair in every if pair in chosen]


def fewest_for_a_verdict(alpha: float = ALPHA) -> int:
    """The fewest decided games a pair needs for a verdict: all won by one bot and the
    sign test's p below ``alpha`` (8 at 0.01)."""
    return next(n for n in range(1, 64) if sign_test(n, 0) < alpha)


def pairs_counts(rows, every) -> str:
    """How many pairs ``every`` holds, the games a pair and the verdicts of all, with the
    games a verdict needs when no pair played them: '406 pairs, 2 games a pair: 0 clear,
    0 lost, 406 unclear (a verdict needs 8 decided games at least: ...)'."""
    alls = [line for line in pair_table(rows, every) if line.maps == "all"]
    counts = {v: sum(line.verdict == v for line in alls) for v in ("clear", "lost", "unclear")}
    games = sorted({line.games for line in alls})
    each = f"{games[0]}" if len(games) == 1 else f"{games[0]}-{games[-1]}"
    fewest = "" if games[-1] >= fewest_for_a_verdict() else (
        f" (a verdict needs {fewest_for_a_verdict()} decided games at least: more --seeds "
        f"or --maps give them)")
    return (f"{len(every)} pairs, {each} game{'' if each == '1' else 's'} a pair: "
            f"{counts['clear']} clear, "
            f"{counts['lost']} lost, {counts['unclear']} unclear{fewest}")


#: which pairs a class's short pairs table shows (:func:`class_pairs`)
CLASS_PAIRS = ("each bot against the next one down the ratings, and any pair the lower-rated "
               "bot clearly won")


def pairs_summary(rows, every, shown) -> str:
    """The paragraph above a class's short pairs table: :func:`pairs_counts`, which pairs
    it shows and where every pair is."""
    return textwrap.fill(f"{pairs_counts(rows, every)}. Below, {len(shown)} of them: "
                         f"{CLASS_PAIRS}; every pair is on the page (--html FILE).", 100)


def pairs_text(rows, pairs=None) -> str:
    pairs = default_pairs(rows) if pairs is None else pairs
    table = pair_table(rows, pairs)
    # a class of py: bots never searches: a column of '- / -' on every line tells nothing
    depths = any(x is not None for line in table for x in (line.depth_a, line.depth_b))
    width = max([28] + [len(f"{line.a} v {line.b}") + 1 for line in table])
    lines = [f"{'pair':<{width}}{'maps':>11}{'W':>5}{'D':>5}{'L':>5}{'points':>12}"
             f"{'score':>12}{'sign p':>9}  verdict" + ("  mean depth" if depths else "")]
    last = None
    for line in table:
        name = f"{line.a} v {line.b}"
        shown = name if name != last else ""
        last = name
        depth = f" {_depth(line.depth_a)} / {_depth(line.depth_b)}" if depths else ""
        lines.append(f"{shown:<{width}}{line.maps[:10]:>11}{line.wins:>5}{line.draws:>5}"
                     f"{line.losses:>5}{line.wins + line.draws / 2:>7.1f}/{line.games:<4}"
                     f"{100 * line.score:>5.0f}% ±{100 * line.half:>2.0f}"
                     f"{line.p:>9.2g}  {line.verdict:<8}{depth}".rstrip())
    note = NOTE[:-1] + DEPTH_NOTE + ")" if depths else NOTE
    note = note.replace("both seats", "every seat") if multiplayer(rows) else note
    return "\n".join(lines + [note])


def first_faults(rows) -> dict:
    """``{(name, code): row}``: the first stored game in which each bot made each fault,
    the one to replay to see what went wrong."""
    from .stats import fault_codes
    codes = fault_codes()
    first: dict = {}
    for row in sorted(rows, key=lambda r: r.get("id") or 0):
        for name, code in zip(row["names"], row["faults"]):
            if code in codes:
                first.setdefault((name, code), row)
    return first


def first_fault_text(store, row, name, code) -> str:
    """What ``name`` did wrong in ``row``, its first game with fault ``code``, in the
    record's words (``illegal on turn 1: move() returned None; ...``); ``code`` alone
    when the record does not say."""
    from .store import record_of
    record = record_of(store.record_json(row["id"]))
    return next((text for k, text in seat_faults(row["names"], record)
                 if row["names"][k] == name), code)


def fault_count(code: str, games: int) -> str:
    """``"error in 4 games"``: how many games a bot lost to one kind of fault."""
    return f"{code} in {plural(games, 'game')}"


def faults_text(rows, store=None, hung=None, after=None) -> str:
    """The faults of each bot, a line each: how many games it lost to each kind of
    fault and the first game of each, which ``tronlab arena replay`` shows; with the
    ``store`` the rows come from, each first game's line follows, saying what the bot
    did there (as the page does).  ``hung``: :func:`never_answered`'s list, if known."""
    counts = fault_counts(rows)
    if not counts:
        return f"faults (timeouts, crashes, bad output): none in {plural(len(rows), 'game')}"
    first = first_faults(rows)

    def where(name, code):
        game = first[name, code].get("id")
        return "" if game is None else f" (first in game {game})"

    def said(name, c):
        firsts = [(first[name, code], code) for code in sorted(c)]
        return [f"    game {row['id']}: {first_fault_text(store, row, name, code)}"
                for row, code in firsts if store is not None and row.get("id") is not None]
    lines = [line for name, c in sorted(counts.items(), key=lambda item: by_name(item[0]))
             for line in [f"  {name}: " + ", ".join(f"{fault_count(code, n)}{where(name, code)}"
                                                    for code, n in sorted(c.items()))]
             + said(name, c)]
    return "\n".join([f"faults in {plural(len(rows), 'game')} (tronlab arena replay DB GAME "
                      f"says what happened):"] + lines + first_move_note(rows, store, hung, after))


def never_answered(rows, store=None) -> list[str]:
    """The bots that timed out on the first turn of every game they played, two at
    least: a hang at the top of the file or in the first move, or a silent program.
    With the ``store`` the rows come from, the turn is read from each timeout's record,
    so a 3-4 player or Light Riders game that went on without the bot counts too; without
    it, a game that ended on turn 1."""
    from .giveup import first_move_timeouts

    games, hung = defaultdict(int), defaultdict(int)
    for row in rows:
        timeouts = [k for k, code in enumerate(row.get("faults") or ()) if code == "timeout"]
        if store is not None and timeouts:
            first = first_move_timeouts(store.record_json(row["id"]))
        else:
            first = set(timeouts) if row.get("turns", 2) <= 1 else set()
        for seat, name in enumerate(row["names"]):
            games[name] += 1
            hung[name] += seat in first
    return sorted((n for n in games if games[n] >= 2 and hung[n] == games[n]), key=by_name)


def first_move_note(rows, store=None, names=None, after=None) -> list[str]:
    """Lines saying what the bots of :func:`never_answered` (``names``, if known) cost the
    run (each of their games waited out the first move's limit, which starting a program
    needs), that a run gives up on such a program (after ``after`` games: the run's
    ``--give-up-after``, None for the default's words) and how to play its other games;
    none when there are none."""
    from .giveup import GIVE_UP_AFTER

    names = never_answered(rows, store) if names is None else names
    if not names:
        return []
    theirs = [r for r in rows if set(r["names"]) & set(names)]
    waited = sum(r.get("seconds") or 0.0 for r in theirs)
    whose = "its" if len(names) == 1 else "their"
    return [f"  {', '.join(names)} never answered a first move: {whose} "
            f"{plural(len(theirs), 'game')} each waited out its limit ({waited:.0f} s of the "
            f"{sum(r.get('seconds') or 0.0 for r in rows):.0f} s all games took);",
            _give_up_words(after, GIVE_UP_AFTER) + f"fix {whose} "
            f"file{'' if len(names) == 1 else 's'} and run the same command again"]


def _give_up_words(after, default) -> str:
    """The start of the note's second line, for the run's ``--give-up-after``."""
    if after == 0:
        return ("  this run did not give up on such a program (--give-up-after 0) and waited "
                "in every game; to play those games anew, ")
    when = "its first games (--give-up-after, " + \
        (f"{default} by default)" if after is None else f"{after} in this run)")
    return f"  arena run gives up on such a program after {when} and plays none of its " \
        f"others: to play those, "


def table_text(rows, pairs=None, store=None, give_up_after=None) -> str:
    """The whole report of ``rows`` (stored games); with the ``store`` they come from,
    the faults say what each bot did wrong the first time; ``give_up_after``: the run's
    (:func:`first_move_note`)."""
    if not rows:
        return "no games stored yet"
    games = sorted({r["game"] for r in rows})
    head = f"{plural(len(rows), 'game')} ({', '.join(games)}), {maps_phrase(rows)}"
    head += "\n" + clocks_phrase(rows)
    slow = "\n".join(slow_lines(rows))
    every = default_pairs(rows) if pairs is None else pairs
    hung = never_answered(rows, store)      # read once: the ratings and the faults name them
    ranked, faults = ratings_text(rows, hung=hung), faults_text(rows, store, hung, give_up_after)
    if pairs is not None or not is_class(every):
        return "\n\n".join(filter(None, [head, ranked, pairs_text(rows, every), faults, slow]))
    # a class: what to fix before how the pairs went, and only the pairs worth reading
    shown = class_pairs(rows, every)
    return "\n\n".join(filter(None, [head, ranked, faults, slow,
                                     pairs_summary(rows, every, shown)
                                     + ("\n" + pairs_text(rows, shown) if shown else "")]))


def replay_text(row, record) -> str:
    """A stored game as text: who played where, under which clock, the final board,
    the result."""
    names = row["names"]
    head = (f"game {row['id']}: {row['game']} on {row['map']}, seed {row['seed']}, "
            + " v ".join(f"{n} (seat {k})" for k, n in enumerate(names))
            + f"; clock: {clock_text(row)}")
    if hasattr(record, "replay") and hasattr(record, "moves"):
        from ..cli import match_text
        return head + "\n" + match_text(record, row["map"], clock=False)
    lines = [head] + list(record.final)
    out = record.outcome
    lines.append(f"after {out['turns']} turn{'' if out['turns'] == 1 else 's'}: scores "
                 f"{out['scores']}, ranks {out['ranks']} ({out['reason']})")
    return "\n".join(lines + fault_lines(names, record))


def fault_lines(names, record) -> list[str]:
    """A line for each bot's first fault in ``record`` (a Tron or capture game): who, what,
    on which turn and what it did (``slow (seat 1): timeout on turn 8: ...``)."""
    return [f"{names[p]} (seat {p}): {text}" for p, text in seat_faults(names, record)]


def seat_faults(names, record) -> list[tuple[int, str]]:
    """``(seat, what)`` for each fault of :func:`fault_lines`, in its order, ``what`` the
    line after the seat (``timeout on turn 8: ...``)."""
    if hasattr(record, "moves"):                    # Tron: the events are dicts
        from ..cli.match import first_fault
        first = [(p, first_fault(record, p)) for p in range(len(names))]
        return [(p, f"{e['kind']} on turn {e['turn']}: {e.get('detail') or ''}".rstrip(": "))
                for p, e in first if e is not None]
    notes = {(turn, player): text for turn, player, text in record.notes}
    return [(player, f"{kind} on turn {turn}: {notes.get((turn, player), detail)}")
            for turn, _round, player, kind, detail in record.events if kind in ELIMINATIONS]

