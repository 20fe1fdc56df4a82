"""Giving up on a program that never answers its first move, during a run.

A student's file that hangs (a loop at the top of the file, or in ``move``) costs each
of its games the whole first-move limit (:func:`tronlab.arena.play.program_start`, 5 s),
and loses every one of them on turn 1.  :class:`GiveUp` watches the games as they are
stored: a program (``py:``, ``cmd:``) that timed out on the first move of each of its
first ``after`` games, and answered one in none, is given up on; the run plays none of
its other games (:func:`tronlab.arena.tournament.run` cancels those not started).
Nothing unplayed is stored, so the decision is made again from the stored games at the
start of every run: the same version of the file stays given up on (a resumed run, a
rerun), a changed file (a new version, its games have other keys) starts afresh, and
``after=0`` never gives up.

Registered bots are never given up on: they have no start-up to wait for, and a
timeout of theirs is a load spike, not a hang.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from ..runner.reprs import plural
from .bots import bot_files, bot_name, is_program
from .stats import by_name

#: ``--give-up-after``'s default: one first move lost to a cold start (a busy disk, a
#: load spike) is forgiven, and a hung bot costs two limits, not one a game
GIVE_UP_AFTER = 2


@dataclass(frozen=True)
class GivenUp:
    """A bot the run gave up on: its ``games`` stored that it timed out on the first
    move of, its ``unplayed`` games of the plan, and whether an ``earlier`` run gave up
    on this version of it already."""
    name: str
    bot: str
    games: int
    unplayed: int
    earlier: bool = False
    #: the bots that played it (and scored from its timeouts), and those that did not
    met: tuple = ()
    others: tuple = ()
    #: it answered a first move in a game already under way when the run gave up on it:
    #: a rerun plays its other games (only where games are played at once)
    answered: bool = False


def check_give_up_after(after, name: str = "give_up_after") -> int:
    """``after`` as an int if it is a whole number >= 0, else a ValueError naming ``name``."""
    from ..tron.values import is_whole
    if not is_whole(after) or after < 0:
        raise ValueError(f"{name} is the number of games after which a program that never "
                         f"answered its first move is given up on (0: never), got {after!r}")
    return int(after)


def first_move_timeouts(record_text: str) -> set:
    """The seats that timed out on their first move in a stored game's record (JSON
    text): turn 1 of a Tron game or of a capture game (whose events are ``[turn, round,
    player, kind, detail]``: a BACK on turn 1 plays round 1 again on turn 2, so the round
    does not tell the first move)."""
    data = json.loads(record_text)
    if data.get("format") == "tronlab-capture":
        return {e[2] for e in data.get("events", []) if e[3] == "timeout" and e[0] == 1}
    return {e["player"] for e in data.get("events", [])
            if e.get("kind") == "timeout" and e.get("turn") == 1}


class GiveUp:
    """Which programs of ``plan`` a run gives up on (see the module docstring), from the
    games of the plan already in ``store`` and those :meth:`add` is told of."""

    def __init__(self, plan, store, after: int = GIVE_UP_AFTER):
        self.after = check_give_up_after(after)
        self.games: Counter = Counter()     # bot -> its games stored
        self.hung: Counter = Counter()      # bot -> those it timed out on the first move of
        self.given_up: dict = {}            # bot -> given up in an earlier run
        self.met: dict = {}                 # bot -> names it played, while it never answered
        self.dropped = 0                    # games of the plan not played because of it
        if not self.after:
            return
        keys = {spec.key for spec in plan}
        programs = {b for spec in plan for b in spec.bots if is_program(b)}
        if not programs:
            self.after = 0
            return
        for row in store.rows(keys=keys):
            self._count(row, lambda r=row: store.record_json(r["id"]))
        self.given_up = {b: True for b in self.games if self._hopeless(b)}

    def _hopeless(self, bot) -> bool:
        return self.games[bot] >= self.after and self.hung[bot] == self.games[bot]

    def _count(self, row, record) -> None:
        seats = [k for k, b in enumerate(row["bots"]) if is_program(b)]
        if not seats:
            return
        timed_out = [k for k in seats if row["faults"][k] == "timeout"]
        hung = first_move_timeouts(record()) if timed_out else set()
        for bot in {row["bots"][k] for k in seats}:
            self.games[bot] += 1
            self.hung[bot] += all(k in hung for k in seats if row["bots"][k] == bot)
            if self.hung[bot] == self.games[bot]:
                self.met.setdefault(bot, set()).update(
                    n for b, n in zip(row["bots"], row["names"]) if b != bot)
            else:
                self.met.pop(bot, None)

    def add(self, row) -> list:
        """Count a game just played (a row with its record); the bots given up on now."""
        if not self.after:
            return []
        self._count(row, lambda: row["record"])
        new = [b for b in dict.fromkeys(row["bots"])
               if b not in self.given_up and b in self.games and self._hopeless(b)]
        self.given_up.update({b: False for b in new})
        return new

    def skips(self, spec) -> bool:
        """Whether the game ``spec`` is not played: one of its bots was given up on."""
        return bool(self.given_up) and any(b in self.given_up for b in spec.bots)

    def report(self, plan, done: set) -> list:
        """A :class:`GivenUp` for each bot given up on (in class-list order), its unplayed
        games counted in ``plan`` against ``done`` (the keys stored)."""
        unplayed = Counter(b for spec in {s.key: s for s in plan}.values()
                           if spec.key not in done for b in set(spec.bots))
        names = sorted({n for spec in plan for n in spec.names}, key=by_name)
        out = []
        for b in sorted(self.given_up, key=lambda b: by_name(bot_name(b))):
            earlier = self.given_up[b]
            met = self.met.get(b, ())
            out.append(GivenUp(bot_name(b), b, self.hung[b], unplayed[b], earlier,
                               tuple(n for n in names if n in met),
                               tuple(n for n in names if n not in met and n != bot_name(b)),
                               not self._hopeless(b)))
        return out


def held_back(plan, quit_, done_keys) -> tuple[int, str]:
    """The games of ``plan`` not stored that the run will not play, because an earlier
    run gave up on one of their bots (``quit_``, a :class:`GiveUp` of the stored games),
    and the words for them ('' for none)."""
    held = {s.key: s for s in plan if s.key not in done_keys and quit_.skips(s)}
    if not held:
        return 0, ""
    # those whose games are held back (one may have all its games stored), as a class list
    names = ", ".join(sorted({bot_name(b) for s in held.values() for b in s.bots
                              if b in quit_.given_up}, key=by_name))
    return len(held), (f" ({plural(len(held), 'game')} of {names} not: given up on in an "
                       f"earlier run, see the end)")


def given_up_lines(given_up) -> list[str]:
    """What ``tronlab arena run`` says at its end about the bots it gave up on: which,
    after how many games, how many of their games were not played, how to play them,
    and who scored from the games it did play; none when it gave up on none."""
    lines = []
    for g in given_up:
        if not g.unplayed:
            continue
        if g.answered:
            lines.append(f"gave up on {g.name} when it had not answered its first move in "
                         f"{plural(g.games, 'game')}, but it answered one in a game already "
                         f"under way: its other {plural(g.unplayed, 'game')} "
                         f"{'was' if g.unplayed == 1 else 'were'} not played; run the same "
                         f"command again to play {'it' if g.unplayed == 1 else 'them'}")
            continue
        what = " ".join(bot_files(g.bot)) or g.bot.split(":", 1)[-1]    # the file, not python
        when = " in an earlier run (its file has not changed since)" if g.earlier else ""
        were = "was" if g.unplayed == 1 else "were"
        lines += [f"gave up on {g.name}{when}: it did not answer its first move in any of its "
                  f"{plural(g.games, 'game')}, so its other {plural(g.unplayed, 'game')} "
                  f"{were} not played (each would have waited out the first move's limit)",
                  f"  to play {'it' if g.unplayed == 1 else 'them'}: fix {what} (a loop at the "
                  f"top of the file or in move() that never ends?) and run the same command "
                  f"again; or --give-up-after 0 plays them as it is"]
        if g.met and g.others:
            lines.append(f"  until then the table is uneven: {_names(g.met)} played it and "
                         f"scored from its timeouts, {_names(g.others)} did not")
    return lines


def _names(names, most: int = 4) -> str:
    """'a, b and c', or 'a, b, c and 5 others' past ``most`` names."""
    if len(names) > most:
        return f"{', '.join(names[:most - 1])} and {len(names) - most + 1} others"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
