"""The contests' own clocks, held against answer times measured elsewhere.

``tronlab arena run`` can let a program think longer than its contest would (a
timeout at twice ``--time``, Back to the Code's referee grace on top), so that
machine noise does not decide games (a small ``--time`` allows less: then the
arena's own timeout comes first, :func:`tronlab.arena.slow.allows_more`).  A
program that passes there can still time out in the contest; :func:`late_answers`
says which of its answers the contest's own clock (:mod:`tronlab.runner.games`:
the one place the limits are written) would have timed out, and the arena's report
says so.

* a game with a limit a move (google2010: 1 s, codingame: 100 ms, backtothecode:
  100 ms and the referee's 50 ms of grace): an answer slower than the limit;
* Light Riders: an answer that overdrew the contest's time bank (10 s, 200 ms
  added before each move), kept over the answers as the server kept it.

The first answer is not held against the clock: measured from outside it
includes starting the program (Python and its imports), which the contests did
not count (CodinGame starts the program before the first turn's clock).

>>> late_answers("backtothecode", [0.9, 0.12, 0.16, None, 0.151])
[(3, 0.16), (5, 0.151)]
>>> late_answers("lightriders", [0.0, 9.0, 1.5])     # the 10 s bank: 10, then 1.2 left
[(3, 1.5)]
>>> contest_clock_text("backtothecode")
"150 ms a turn, 100 ms and the referee's 50 ms of grace"
"""

from __future__ import annotations

from .games import get_game
from .timebank import TimeBank


def later_limit(game) -> float:
    """The seconds a later answer of ``game`` had in the contest before it timed out
    (its advertised limit and its referee's grace); for a banked game the seconds
    added a move."""
    info = get_game(game)
    return info.move_time + info.grace


def late_answers(game, seconds) -> list[tuple[int, float]]:
    """``(turn, seconds)`` of each answer the contest's clock of ``game`` would have
    timed out.  ``seconds[k]`` is the wall time of the bot's answer on its turn
    ``k + 1`` (None for a turn it gave no answer on: a fault, which costs nothing
    here); the first is not checked (see the module docstring)."""
    info = get_game(game)
    bank = TimeBank(info.first_move_time, info.move_time) if info.banked else None
    limit = later_limit(info)
    late = []
    for k, spent in enumerate(seconds):
        if k == 0 or spent is None:
            if bank is not None:
                bank.refill()
            continue
        if bank is not None:
            bank.refill()
            over = bank.spend(spent)
        else:
            over = spent > limit
        if over:
            late.append((k + 1, spent))
    return late


def clock_summary(game, seconds) -> list | None:
    """``[late, worst, turn]`` of one bot's answers in one game: how many the contest's
    clock would have timed out (:func:`late_answers`), and the slowest of those (else the
    slowest answer checked) in seconds with its turn; None when no answer was checked."""
    late = late_answers(game, seconds)
    checked = late or [(k + 1, s) for k, s in enumerate(seconds) if k > 0 and s is not None]
    if not checked:
        return None
    turn, worst = max(checked, key=lambda pair: pair[1])
    return [len(late), round(worst, 4), turn]


def contest_clock_text(game) -> str:
    """The contest's clock for a later answer of ``game``, in words."""
    info = get_game(game)
    if info.banked:
        return (f"its {info.first_move_time:g} s time bank, {info.move_time * 1000:.0f} ms "
                f"added a move")
    limit = f"{later_limit(info) * 1000:.0f} ms a {'move' if info.family == 'tron' else 'turn'}"
    if info.grace:
        limit += (f", {info.move_time * 1000:.0f} ms and the referee's "
                  f"{info.grace * 1000:.0f} ms of grace")
    return limit


def over_words(game) -> str:
    """What a late answer of ``game`` was: 'slower than the contest's 150 ms', 'over the
    contest's time bank'."""
    info = get_game(game)
    if info.banked:
        return "over the contest's time bank"
    return f"slower than the contest's {later_limit(info) * 1000:.0f} ms"
