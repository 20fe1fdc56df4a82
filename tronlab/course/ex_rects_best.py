"""Exercise B3's last cell: the learner's best rectangle of a small grid against the scan's.

:func:`best_rectangle` scores every rectangle (sides 2 to 16) with the learner's
``score_rectangle`` and names both winners; :mod:`tronlab.course.ex_rects` re-exports it.
:func:`~tronlab.capture.rects_bot.scan_inputs` is what the bot hands the scan.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..capture.rects import scan_rectangles
from ..capture.rects_bot import scan_inputs


class BestRectangle(NamedTuple):
    """:func:`best_rectangle`'s answer: the learner's best rectangle and score, the package's,
    and a sentence about them (``yours`` is None while the function is a stub)."""
    yours: tuple | None
    your_score: float | None
    package: tuple
    package_score: float
    text: str

    @property
    def same(self) -> bool:
        return self.yours == self.package

    def __repr__(self) -> str:
        return self.text


def best_rectangle(score_rectangle, view, player: int = 0) -> BestRectangle:
    """Score every rectangle of a small grid with the learner's ``score_rectangle`` and
    compare the best with the package's scan (sides 2 to 16; among rectangles with the
    same best score the package's own choice counts as yours)."""
    owner = np.asarray(view.owner)
    h, w = owner.shape
    opponents, needed = scan_inputs(view, player)
    ref = scan_rectangles(owner, player, view.positions[player], n_players=view.n_players,
                          opponents=opponents, needed=needed)
    package = (ref.x0, ref.y0, ref.x1, ref.y1)
    rects = [(x0, y0, x0 + rw - 1, y0 + rh - 1) for rh in range(2, min(h, 16) + 1)
             for rw in range(2, min(w, 16) + 1)
             for y0 in range(h - rh + 1) for x0 in range(w - rw + 1)]
    try:
        scores = {r: float(score_rectangle(view, player, r)) for r in rects}
    except NotImplementedError:
        return BestRectangle(None, None, package, ref.score,
                             "score_rectangle is not implemented yet: write it above first")
    yours = max(scores, key=lambda r: (scores[r], r == package))
    text = (f"your best rectangle: {yours} scoring {scores[yours]:.4g}; the package's: "
            f"{package} scoring {ref.score:.4g}"
            + (" - the same" if yours == package else " - they differ"))
    return BestRectangle(yours, scores[yours], package, float(ref.score), text)
