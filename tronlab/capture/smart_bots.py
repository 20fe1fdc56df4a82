"""The strong Back to the Code bots, registered in the ``capture`` family.

* ``rectangles`` - Recar's rectangles, L-shapes and interference (B3-B5),
  :class:`~tronlab.capture.rects_bot.RectangleBot`;
* ``rectangles-back`` - the same with the winner's BACK rule (B8);
* ``rectangles-block`` - the same with this project's BACK rule (B8).

The path-search bots of B6-B7 are added by :mod:`tronlab.capture.paths_bot`.
``time`` is accepted for the registry's sake; these bots do a fixed amount
of work a turn (well under 100 ms, see benchmarks/capture_paths.py).
"""

from __future__ import annotations

from ..runner.registry import register
from .back import BlockBack, WinnerBack
from .rects_bot import RectangleBot


@register("rectangles", game="capture",
          description="Recar's rectangles: area over turns, his multipliers, L-shapes, interference")
def rectangles(*, rng=None, time=None, **options):
    return RectangleBot(**options)


@register("rectangles-back", game="capture",
          description="rectangles + BACK every 20 rounds when no area was closed (the winner's rule)")
def rectangles_back(*, rng=None, time=None, **options):
    return RectangleBot(back=WinnerBack(), **options)


@register("rectangles-block", game="capture",
          description="rectangles + BACK to before an opponent's large capture, then spoil it")
def rectangles_block(*, rng=None, time=None, **options):
    return RectangleBot(back=BlockBack(), **options)
