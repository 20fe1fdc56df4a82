"""Exercise B3's last cell: the learner's best rectangle of a small grid against the scan's.

:func:`best_rectangle` scores every rectangle (sides 2 to 16) with the learner's
``score_rectangle`` and names both winners; :mod:`tronlab.course.ex_rects` re-exports it.
:func:`~tronlab.capture.rects_bot.scan_inputs` is what the bot hands the scan.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ..capture.rects import scan_rectangles
from ..capture.rects_bot import scan_inputs
from .checker import WrongType
from .learner import crash_phrase, is_stub, where
from .timelimit import call_with_time_limit, check_time_limit


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


def best_rectangle(score_rectangle, view, player: int = 0, *,
                   time_limit: float = 20.0) -> BestRectangle:
    """Score every rectangle of a small grid with the learner's ``score_rectangle`` and
    compare the best with the package's scan (sides 2 to 16; among rectangles with the
    same best score the package's own choice counts as yours).

    The learner's function runs like a checked one: in a child process, under
    ``time_limit`` seconds for the whole grid; a crash, an endless loop or an answer that
    is not a number gives a one-paragraph ``text`` (and ``yours`` None), never a
    traceback."""
    opponents, needed = scan_inputs(view, player)     # checks view and player first
    owner = np.asarray(view.owner)
    h, w = owner.shape
    ref = scan_rectangles(owner, player, view.positions[player], n_players=view.n_players,
                          opponents=opponents, needed=needed)
    package = (ref.x0, ref.y0, ref.x1, ref.y1)
    rects = [(x0, y0, x0 + rw - 1, y0 + rh - 1) for rh in range(2, min(h, 16) + 1)
             for rw in range(2, min(w, 16) + 1)
             for y0 in range(h - rh + 1) for x0 in range(w - rw + 1)]
    ref_score = float(ref.score)
    if is_stub(score_rectangle):
        return BestRectangle(None, None, package, ref_score, NOT_YET)
    limit = check_time_limit(time_limit, "time_limit")
    outcome = call_with_time_limit(
        functools.partial(_score_all, score_rectangle, view, player, rects), limit)
    problem = _problem(outcome, len(rects), limit)
    if problem is not None:
        return BestRectangle(None, None, package, ref_score,
                             f"{problem} The package's best: {package} scoring {ref_score:.4g}.")
    scores = outcome.value[1]
    yours = max(scores, key=lambda r: (scores[r], r == package))
    tied = sum(score == scores[yours] for score in scores.values())
    if tied == len(scores) > 1:
        return BestRectangle(None, scores[yours], package, ref_score, (
            f"score_rectangle gives all {tied} rectangles the same score, "
            f"{scores[yours]:.4g}, so it cannot choose between them. The package's best: "
            f"{package} scoring {ref_score:.4g}. check_score_rectangle above names the term "
            f"that is off."))
    text = (f"your best rectangle: {yours} scoring {scores[yours]:.4g}; the package's: "
            f"{package} scoring {ref_score:.4g}"
            + (" - the same" if yours == package else " - they differ"))
    if tied > 1:
        text += (f" ({tied} rectangles share your best score"
                 + ("; the package's choice among them counts as yours)"
                    if yours == package else ")"))
    return BestRectangle(yours, scores[yours], package, ref_score, text)


NOT_YET = "score_rectangle is not implemented yet: write it above first."


def _score_all(score_rectangle, view, player, rects):
    """Every rectangle's score, ``("value", {rect: float})``, or ``("problem", sentence)``
    naming the first rectangle where the learner's function crashed or returned something
    that is not a score.  Runs in the checker's child process, where the traceback is."""
    from .ex_rects import ScoreRectangle       # ex_rects imports this module

    convert = ScoreRectangle().convert
    scores = {}
    for rect in rects:
        try:
            value = score_rectangle(view, player, rect)
        except NotImplementedError:
            return "problem", NOT_YET
        except BaseException as err:  # noqa: BLE001 - sys.exit too: this is the child process
            at = where(err)
            return "problem", (f"score_rectangle {crash_phrase(err)} on rect = {rect}"
                               + (f", at {at}." if at else ".")
                               + " Run check_score_rectangle above: it names the term that is "
                                 "off on a drawn grid.")
        try:
            scores[rect] = convert(value, None)
        except WrongType as err:
            missing = " (is a `return` missing?)" if value is None else ""
            return "problem", f"score_rectangle gives no score for rect = {rect}: {err}{missing}."
    return "value", scores


def _problem(outcome, n_rects: int, limit) -> str | None:
    """A sentence when the scan did not give a score for every rectangle, else None."""
    if outcome.kind == "timeout":
        return (f"score_rectangle did not score the {n_rects} rectangles of this grid within "
                f"{limit:g} s: is there a loop that never ends? check_score_rectangle above "
                f"tries it one rectangle at a time.")
    if outcome.kind == "exited":
        return f"score_rectangle ended the program running it: {outcome.detail}."
    if outcome.kind == "unsendable":
        return f"the scores could not be sent back to the notebook ({outcome.detail})."
    if outcome.kind == "raised":      # a mistake of this module's, not the learner's
        raise outcome.error
    kind, value = outcome.value
    return value if kind == "problem" else None

