"""The programs' answers held against the contest's own clock, over stored games.

The arena usually allows a program more time than its contest does (a timeout at
twice ``--time``, Back to the Code's referee grace on top), so that machine noise
does not decide games; a ``--time`` whose limit is below the contest's (the
default 0.1 s under google2010's 1 s or Light Riders' 200 ms a move) allows less,
and the arena's own timeout comes first (:func:`allows_more`, :func:`allowance`
say which, for the head line and the page).  Each game row keeps, for every program
seat, how many of its answers the contest's clock would have timed out and its
slowest one (:func:`tronlab.arena.play.slow_answers`); :func:`slow_by_bot` adds
them up by bot and :func:`slow_lines` says it in words, for the printed table, the
page and the export.  Registered bots are not held against it (they are told their
thinking time), nor is a program's first answer (it includes starting the program:
:mod:`tronlab.runner.contestclock`).  An answer the arena timed out never arrived: the
line of a program with ``timeout`` faults says "every answer it gave" and points at
them (:func:`timeouts_by_bot`).

>>> rows = [{"id": 7, "game": "backtothecode", "names": ["me", "you"],
...          "slow": [[3, 0.212, 17], None]},
...         {"id": 8, "game": "backtothecode", "names": ["you", "me"],
...          "slow": [None, [0, 0.04, 5]]}]
>>> for line in slow_lines(rows):
...     print(line)       # doctest: +NORMALIZE_WHITESPACE
the contest's own clock (backtothecode: 150 ms a turn, 100 ms and the referee's
 50 ms of grace; the arena allows more), against the programs' answers after their first:
  me: 3 answers slower than the contest's 150 ms, in 1 of 2 games
 (worst 212 ms: game 7, turn 17): the contest would have timed it out
"""

from __future__ import annotations

from typing import NamedTuple

from ..runner.contestclock import contest_clock_text, later_limit, over_words
from ..runner.games import get_game
from ..runner.reprs import plural
from .stats import by_name


class SlowBot(NamedTuple):
    """One program's answers in ``games`` games of one contest: ``late`` of them the
    contest's clock would have timed out, in ``late_games`` games; ``worst`` seconds
    (the slowest late answer, else the slowest answer) in game ``game`` on ``turn``."""
    name: str
    games: int
    late: int
    late_games: int
    worst: float
    game: int | None
    turn: int


def slow_by_bot(rows) -> dict:
    """``{name: SlowBot}`` of the programs of ``rows`` (games of one contest), from the
    rows' ``slow`` entries; a bot without any (a registered one, games stored by an older
    tronlab) is not in it."""
    found: dict = {}
    for row in sorted(rows, key=lambda r: r.get("id") or 0):
        for name, entry in zip(row["names"], row.get("slow") or []):
            if entry is None:
                continue
            late, worst, turn = entry
            old = found.get(name)
            if old is None:
                found[name] = SlowBot(name, 1, late, int(late > 0), worst, row.get("id"), turn)
                continue
            # the answer shown: the slowest late one, else the slowest
            better = (late > 0, worst) > (old.late > 0, old.worst)
            where = (worst, row.get("id"), turn) if better else (old.worst, old.game, old.turn)
            found[name] = SlowBot(name, old.games + 1, old.late + late,
                                  old.late_games + int(late > 0), *where)
    return found


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _where(bot: SlowBot) -> str:
    return f"game {bot.game}, turn {bot.turn}" if bot.game is not None else f"turn {bot.turn}"


def timeouts_by_bot(rows) -> dict:
    """``{name: games}``: in how many games of ``rows`` the arena's own clock timed each
    bot out (its ``timeout`` faults).  Those answers never arrived, so the contest's clock
    (:func:`slow_by_bot`) does not see them: :func:`slow_line` points at the faults."""
    found: dict = {}
    for row in rows:
        for name, fault in zip(row["names"], row.get("faults") or []):
            if fault == "timeout":
                found[name] = found.get(name, 0) + 1
    return found


def slow_line(bot: SlowBot, game: str, timeouts: int = 0) -> str:
    """One bot's line (without its name) in games of ``game``: its late answers, or that
    all were in time; with ``timeouts`` (games the arena timed it out in), said of the
    answers it gave, and the timeouts pointed at (they are counted under faults)."""
    games = plural(bot.games, "game")
    stopped = (f"; the arena's own timeout stopped it in {plural(timeouts, 'game')} "
               f"(under faults)") if timeouts else ""
    if not bot.late:
        every = "every answer it gave" if timeouts else "every answer"
        return f"{every} in time in {games} (slowest {_ms(bot.worst)}: {_where(bot)}){stopped}"
    answers = plural(bot.late, "answer")
    return (f"{answers} {over_words(game)}, in {bot.late_games} of {games} "
            f"(worst {_ms(bot.worst)}: {_where(bot)}): the contest would have timed it out"
            + stopped)


def by_contest(rows) -> list[tuple[str, dict]]:
    """``(game, {name: SlowBot})`` for each contest of ``rows``, in name order: a program
    that played two contests has a SlowBot in each."""
    return [(game, slow_by_bot([r for r in rows if r["game"] == game]))
            for game in sorted({r["game"] for r in rows})]


def clocks_text(rows) -> str:
    """The contest's clock of each game of ``rows``: 'codingame: 100 ms a move; ...'."""
    return "; ".join(f"{g}: {contest_clock_text(g)}" for g in sorted({r["game"] for r in rows}))


def allows_more(row) -> bool:
    """Whether the arena let a program's later answer in the game ``row`` take longer
    than the contest's clock does: its limit a move (a program is stopped at
    :data:`~tronlab.arena.bots.MARGIN` of twice ``--time``, a Back to the Code one at
    twice ``--time`` and the referee's grace) above the contest's, or a bank looser
    than the contest's; a game without a clock (no ``time``) allows anything."""
    from .bots import MARGIN

    info, time, bank = get_game(row["game"]), row.get("time"), row.get("bank")
    if time is None:
        return True
    if bank is not None:
        return bank > info.first_move_time or time > info.move_time
    limit = 2 * time + info.grace if info.family == "capture" else MARGIN * 2 * time
    return limit > later_limit(info)


def allowance(rows) -> str:
    """How the arena's limit compared with the contest's clock in the games of ``rows``
    that hold a program's answers: 'the arena allows more', 'the arena's own limit is no
    looser' (its timeout comes first), or 'the arena allows more in 2 of 5 games'."""
    held = [row for row in rows if any(entry is not None for entry in row.get("slow") or [])]
    more = sum(allows_more(row) for row in held)
    if more == len(held):
        return "the arena allows more"
    if not more:
        return "the arena's own limit is no looser"
    return f"the arena allows more in {more} of {len(held)} games"


def clock_head(rows) -> str:
    """The line above the bots' lines: the contest's clock of each game of ``rows``, and
    how the arena's limit compared with it (:func:`allowance`)."""
    return (f"the contest's own clock ({clocks_text(rows)}; {allowance(rows)}), against "
            f"the programs' answers after their first:")


class SlowEntry(NamedTuple):
    """One line of the contest's clock: ``who`` (a program's name, or 'the other 9
    programs' for those always in time), in contest ``game``, ``text`` what its answers
    did, ``bot`` the program whose answer the text points at (the slowest of a group)."""
    game: str
    who: str
    text: str
    bot: SlowBot


#: the programs always in time the page lists each on its own line (each one's slowest
#: answer); more, a class's, are one line as in the printed table
PAGE_EACH = 8


def slow_entries(rows, each: int = 1) -> list[SlowEntry]:
    """The lines of :func:`slow_lines` by contest: each program with a late answer or an
    arena timeout by name, then one for the programs always in time (the slowest of them
    named), or their own lines when there are ``each`` of them at most."""
    entries = []
    for game, found in by_contest(rows):
        # a bot the arena timed out answered in time only when it answered: its own line
        stopped = timeouts_by_bot([r for r in rows if r["game"] == game])
        entries += [SlowEntry(game, name, slow_line(bot, game, stopped.get(name, 0)), bot)
                    for name, bot in sorted(found.items(), key=lambda item: by_name(item[0]))
                    if bot.late or name in stopped]
        fine = [bot for bot in found.values() if not bot.late and bot.name not in stopped]
        if len(fine) <= each:
            entries += [SlowEntry(game, bot.name, slow_line(bot, game), bot)
                        for bot in sorted(fine, key=lambda bot: by_name(bot.name))]
        else:
            top = max(fine, key=lambda bot: bot.worst)
            who = (f"the other {len(fine)}" if len(fine) < len(found) else
                   "both" if len(fine) == 2 else f"all {len(fine)}")
            entries.append(SlowEntry(game, f"{who} programs", f"every answer in time (slowest "
                                     f"{_ms(top.worst)}, {top.name}: {_where(top)})", top))
    return entries


def slow_lines(rows) -> list[str]:
    """The text of the printed table: a head line, a line for each program with a late
    answer, and one for the programs without (the slowest of them named); no lines when
    no program played."""
    entries = slow_entries(rows)
    several = len({r["game"] for r in rows}) > 1
    lines = [f"  {entry.game + ' ' if several else ''}{entry.who}: {entry.text}"
             for entry in entries]
    return [clock_head(rows)] + lines if lines else []
