"""A time bank for in-process bots: the Light Riders clock, kept by the engine.

``play(board, bots, rules="lightriders", time_bank=(bank, per_move))`` plays
every bot under the clock the riddles.io server kept:

* the bank starts full, at ``bank`` seconds;
* before each move ``per_move`` seconds are added, the bank capped at ``bank``
  (so the first move has the full bank);
* a bot with a ``set_clock(time_left, time_per_move)`` method hears the bank and
  ``per_move`` just before it is asked (the search bots plan from them);
* the seconds it thinks are taken from the bank; a bot that answers after the
  bank ran out (or not at all) has a "timeout" fault, and Light Riders shuts it
  down: it goes straight for the rest of the game.

``time_bank=True`` is the contest's clock, a 10 s bank and 200 ms a move.  A
game without a time bank (google2010, codingame) refuses the option: its clock
is ``time_limit`` a move.

>>> bank = TimeBank(1.0, 0.25)      # 1 s at most, 0.25 s added before a move
>>> bank.refill(), bank.spend(0.75), bank.refill(), bank.spend(0.5)
(1.0, False, 0.5, False)
>>> bank.refill(), bank.spend(0.5), bank.left, bank.least     # 0.25 s is not enough
(0.25, True, 0.0, 0.0)
"""

from __future__ import annotations

from ..tron.values import is_real
from .games import get_game
from .reprs import safe_repr

MAX_SECONDS = 1e6       # as the engine's time limits: a bank must be under a million seconds
GRACE = 0.05            # seconds the engine waits past the bank before abandoning a bot's
                        # call: a contest program's own clock (the same bank) answers first


class TimeBank:
    """One bot's bank: ``size`` seconds at most, ``per_move`` seconds added before a move."""

    def __init__(self, size: float, per_move: float):
        self.size, self.per_move = float(size), float(per_move)
        self.left = self.size           # seconds in the bank now
        self.least = self.size          # the least the bank held after a move

    def refill(self) -> float:
        """Add the time of a move (capped at the bank's size); the seconds the bot may
        now think."""
        self.left = min(self.size, self.left + self.per_move)
        return self.left

    def spend(self, seconds: float) -> bool:
        """Take ``seconds`` of thinking from the bank; True when they overdrew it
        (the bot ran out of time: the bank is then empty)."""
        over = seconds > self.left
        self.left = 0.0 if over else self.left - seconds
        self.least = min(self.least, self.left)
        return over


def check_time_bank(value, rules, time_limit=None, first_time_limit=None):
    """``play``'s ``time_bank``: ``(bank, per_move)`` in seconds, or None (no bank).

    ``True`` is the game's own clock (Light Riders: 10 s and 0.2 s).  A TypeError
    for a value of the wrong kind, a ValueError for numbers out of range, a game
    without a bank, or a bank given together with a time limit a move."""
    if value is None or value is False:
        return None
    game = get_game(rules.name)
    if not game.banked:
        raise ValueError(f"time_bank is for games played with a time bank (lightriders); "
                         f"{rules.name} has a time limit a move: use time_limit")
    if value is True:
        return game.first_move_time, game.move_time
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
        raise TypeError(f"time_bank is (bank seconds, seconds added a move), True for the "
                        f"contest's ({game.first_move_time:g}, {game.move_time:g}), or None; "
                        f"got {safe_repr(value, 197)}")
    bank, per = value
    if not is_real(bank) or not is_real(per):
        raise TypeError(f"time_bank's bank and seconds a move are numbers, "
                        f"got {safe_repr(value, 197)}")
    if not 0 < bank < MAX_SECONDS or not 0 <= per < MAX_SECONDS:
        raise ValueError(f"time_bank is (bank, per_move) with a bank above 0 and seconds "
                         f"added a move >= 0, both under {MAX_SECONDS:g}, got {value!r}")
    if time_limit is not None or first_time_limit is not None:
        raise ValueError("time_bank replaces time_limit and first_time_limit: give the "
                         "bank alone")
    return float(bank), float(per)


def overdrawn(limit: float, seconds: float, answered: bool) -> str:
    """What a timeout under a bank says: the bank the move had, and how late it was."""
    if not answered:
        return f"no answer within its time bank of {limit:.3f} s"
    return (f"answered after {seconds:.3f} s, {seconds - limit:.3f} s after its time bank "
            f"of {limit:.3f} s ran out")
