"""When a bot uses its one ``BACK`` (B8).

A rule is an object with ``decide(bot, view, player) -> n`` (0: not now); the
bot asks it at the start of every turn and answers ``("BACK", n)`` when n >
0.  After the rewind the bot's :class:`~tronlab.capture.memory.Memory` holds
the thrown-away future, which the bots use as the write-up's winner did:
assume the opponents will do the same again (the rectangle bot divides the
score of rectangles holding squares the opponents took in that future by
10; the path bot moves the opponents along their future positions instead
of its model).

* :class:`WinnerBack` - Recar's rule: every 20 rounds, if the last 20 rounds
  closed no area (no round gained the bot more than one square), go back 20
  rounds.
* :class:`BlockBack` - this project's rule: when an opponent has just closed a
  large area, go back to some rounds before it and spoil it: the bot knows
  where the area is and when it closes (:func:`spoil_target`).
"""

from __future__ import annotations

import numpy as np

from .checks import check_whole
from .state import MAX_BACK, MAX_SIDE


class WinnerBack:
    """Every ``every`` rounds: BACK ``every`` when no area was closed meanwhile."""

    def __init__(self, every: int = 20):
        self.every = check_whole(every, "every", 1, MAX_BACK, "rounds")

    def decide(self, bot, view, player) -> int:
        r = view.round
        if view.backs_left[player] < 1 or r <= self.every or r % self.every:
            return 0
        gains = bot.memory.gains(player, self.every)
        if len(gains) < self.every or max(gains) > 1:
            return 0
        return min(self.every, r - 1)


class BlockBack:
    """BACK to ``lead`` rounds before an opponent's capture of ``min_gain`` or
    more squares, when that capture is recent enough (at most 25 rounds
    back in all); the bot then heads for the captured area to spoil it
    (:func:`spoil_target`)."""

    def __init__(self, min_gain: int = 15, lead: int = 8):
        self.min_gain = check_whole(min_gain, "min_gain", 1, MAX_SIDE * MAX_SIDE, "squares")
        self.lead = check_whole(lead, "lead", 1, MAX_BACK - 1, "rounds")

    def decide(self, bot, view, player) -> int:
        if view.backs_left[player] < 1:
            return 0
        now = view.round - 1             # the last round played
        for k, _ in reversed(bot.memory.big_gains(player, self.min_gain)):
            n = now - k + 1 + self.lead  # resume at round k - lead
            if n <= MAX_BACK and k - self.lead >= 1:
                return min(n, view.round - 1)
        return 0


def check_back(back):
    """``back`` if it is None or a BACK rule (an object with ``decide(bot, view,
    player)``), else a TypeError."""
    if back is not None and not callable(getattr(back, "decide", None)):
        raise TypeError(f"back must be None or a BACK rule with decide(bot, view, player) "
                        f"(WinnerBack(), BlockBack()), got {type(back).__name__} {back!r}")
    return back


def spoil_target(memory, view, player, min_gain: int = 15):
    """After a rewind: the nearest neutral square of an area an opponent
    captured in the thrown-away future, if the player can stand on it at
    least one round before that capture; else None."""
    me = view.positions[player]
    best = None
    for k, _, got in memory.future_captures(player, min_gain):
        ys, xs = np.nonzero(got & (view.owner == -1))
        if xs.size == 0:
            continue
        d = np.abs(xs - me[0]) + np.abs(ys - me[1])
        i = int(np.argmin(d))
        if view.round + int(d[i]) - 1 < k and (best is None or d[i] < best[0]):
            best = (int(d[i]), (int(xs[i]), int(ys[i])))
    return None if best is None else best[1]
