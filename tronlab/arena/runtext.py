"""What ``tronlab arena run`` prints after its games (:mod:`tronlab.arena.cli`): why it
stopped, the table, the bots given up on, the games another run holds, the bots not in
its plan or whose file changed while it played, those left out; and the page."""

from __future__ import annotations

import sys

from ..runner.reprs import plural
from .stats import by_name


def print_run(args, plan, store, result, left_out, closed) -> None:
    """What ``arena run`` says after its games: why it stopped (on stderr when nobody
    reads stdout any more: ``closed``), the table, the bots given up on, the games other
    runs are playing, the bots whose file changed meanwhile, the bots not in the plan and
    those left out; and the page."""
    from .claims import held_line
    from .giveup import given_up_lines
    from .report import table_text

    rows = store.rows(keys={s.key for s in plan})
    if result.interrupted or result.failed:
        print(("" if closed else "\n") + f"stopped{': nobody reads the output' if closed else ''}: "
              f"{plural(result.played, 'game')} finished in this run "
              f"{'is' if result.played == 1 else 'are'} stored in {args.db}; "
              + kept_text(store, result.kept) +
              f"run the same command again to play the other {to_play(plan, rows, result)}",
              file=sys.stderr if closed else sys.stdout)
    print(table_text(rows, store=store, give_up_after=args.give_up_after))
    given_up = given_up_lines(result.given_up)
    if given_up:
        print("\n" + "\n".join(given_up))
    if result.held:
        print("\n" + held_line(result.held))
    if result.changed:
        print("\n" + changed_line(result.changed))
    print(not_in_plan(store, plan, args.db), end="")
    if left_out:
        print(f"\nleft out, cannot play: {', '.join(left_out)}")
        for name, why in left_out.items():
            print(f"  {name}: {why}")
    if args.html:
        write_html(store, rows, args.html, args.replays, left_out, args.give_up_after)


def kept_text(store, kept) -> str:
    """What the 'stopped:' line says of the finished games the run could not store
    (``kept``: their keys), kept beside the database for the next run; '' for none."""
    if not kept:
        return ""
    from .unstored import unstored_path
    return (f"{plural(len(kept), 'game')} finished as the run stopped could not be "
            f"stored and {'is' if len(kept) == 1 else 'are'} kept in "
            f"{unstored_path(store.path)}, which the next run stores first; ")


def to_play(plan, rows, result) -> int:
    """The games of ``plan`` a rerun would play: not in ``rows`` (those stored) nor kept
    beside the database, and without a bot the run gave up on (one that answered in a
    game under way plays again)."""
    stored = {r["key"] for r in rows} | set(result.kept)
    gone = {g.bot for g in result.given_up if not g.answered}
    return len({s.key for s in plan if s.key not in stored and not gone & set(s.bots)})


def not_in_plan(store, plan, db) -> str:
    """A line (after a newline) naming the bots with games of the plan's contest in
    ``db`` that are not in ``plan`` (a student's file removed since an earlier run): the
    run's table leaves them out, ``arena table`` and ``arena export`` count them; ''
    when there are none."""
    if not plan:
        return ""
    planned = {name for spec in plan for name in spec.names}
    others = sorted({name for row in store.rows(game=plan[0].game) for name in row["names"]}
                    - planned, key=by_name)
    if not others:
        return ""
    return (f"\n{db} also holds games of {', '.join(others)}, not in this run's plan: "
            f"arena table and arena export count them too\n")


def write_html(store, rows, path, replays, left_out=None, after=None):
    from .html import leaderboard_html
    with open(path, "w", encoding="utf-8") as f:
        f.write(leaderboard_html(store, rows, max_replays=replays, left_out=left_out,
                                 give_up_after=after))
    print(f"leaderboard written to {path}")


def changed_line(changed: dict) -> str:
    """What the run says of the bots whose file changed while it played (name -> the
    games it did not store): the table counts their old file's games, a rerun plays
    the new one's."""
    lines = [f"{name}'s file changed while this run played: {plural(n, 'game')} of {name} "
             f"{'was' if n == 1 else 'were'} not stored (a game is kept only when the file "
             f"it played is the one the run began with), so the table counts the games of "
             f"its old file" for name, n in sorted(changed.items(), key=lambda i: by_name(i[0]))]
    new = "file" if len(changed) == 1 else "files"
    return "\n".join(lines + [f"  run the same command again to play every game of the new {new}"])


def played_again(store, plan, done: set) -> str:
    """An indented line (after a newline) naming the ``py:`` and ``cmd:`` bots whose
    games the run plays again because their file changed since those were stored
    (a bot all of whose games stored before are to play again), and how many games;
    '' when there are none."""
    if not plan:
        return ""
    from .bots import is_program
    from .store import game_slot

    # the same bots by path too: a class folder moved changes no file, only the paths
    stored = {(game_slot(row), tuple(row["bots"])) for row in store.rows(game=plan[0].game)}
    again = {s.key for s in plan if s.key not in done and (game_slot(s), s.bots) in stored}
    if not again:
        return ""
    games: dict = {}
    stored_keys = again | done
    for spec in plan:
        for bot, name in zip(spec.bots, spec.names):
            if is_program(bot) and spec.key in stored_keys:
                games.setdefault(name, []).append(spec.key in again)
    changed = [n for n, replays in games.items() if all(replays)]
    names = ", ".join(sorted(changed, key=by_name))
    whose = (f"the file of {names} changed since its" if len(changed) == 1 else
             f"the files of {names} changed since their" if changed else
             "a bot's file changed since their")
    return (f"\n  {len(again)} of them {'is' if len(again) == 1 else 'are'} played again: "
            f"{whose} games were stored")
