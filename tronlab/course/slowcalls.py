"""Telling a right but slow function from one that never returns, in a game or a match.

A learner's function played in a whole game (``play_against``, exercise 10's game and
match cells) runs under one time limit for everything.  When the limit stops it, the
message can only ask about a loop that never ends, which is wrong when the function does
return, just slowly.  :class:`SlowCalls` times each call that returns and says when the
game cannot end in time at that pace: the time so far plus the longest call yet reaches
90% of the limit, and the learner's calls took at least half of that time (else the
time went to the other bots).  The caller then stops with a sentence of its own that
says the function is likely right but slow.
"""

from __future__ import annotations

import time

#: the share of the limit at which a game too slow to finish is stopped
SOFT_SHARE = 0.9


class SlowCalls:
    """The calls of one function during one game or match, under ``limit`` seconds
    (None: no limit, never slow)."""

    def __init__(self, limit: float | None):
        self.limit, self.start = limit, time.monotonic()
        self.calls, self.seconds, self.longest = 0, 0.0, 0.0

    def too_slow(self, took: float) -> bool:
        """Count a call that returned after ``took`` seconds; True when, at this pace,
        the game would not end by :data:`SOFT_SHARE` of the limit."""
        self.calls += 1
        self.seconds += took
        self.longest = max(self.longest, took)
        if self.limit is None:
            return False
        spent = self.spent()
        return spent + self.longest >= SOFT_SHARE * self.limit and self.seconds >= spent / 2

    def spent(self) -> float:
        """Seconds since the game began."""
        return time.monotonic() - self.start

    def stopped(self, what: str, who: str) -> str:
        """The opening of the sentence that stops the ``what`` (``'match'``) for ``who``
        (``'your territory'``): ``'the match was stopped after 54 of its 60 s, but your
        territory does return: 12 calls took 50.1 s, 4.2 s a call'``; the caller goes on
        with where and why."""
        return (f"the {what} was stopped after {self.spent():.2g} of its {self.limit:g} s, "
                f"but {who} does return: {self.calls} calls took {self.seconds:.3g} s, "
                f"{self.seconds / max(1, self.calls):.2g} s a call")
