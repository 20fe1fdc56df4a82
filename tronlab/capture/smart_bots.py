"""The strong Back to the Code bots, registered in the ``capture`` family.

* ``rectangles`` - Recar's rectangles, L-shapes and interference (B3-B5),
  :class:`~tronlab.capture.rects_bot.RectangleBot` (his terms, but no size
  penalty with 2 players: measured against ``paths``, see ``BOT_TERMS``);
* ``rectangles-back`` - the same with the winner's BACK rule (B8);
* ``rectangles-block`` - the same with this project's BACK rule (B8).

* ``paths`` - Olaf69's path search with his opponent model (B6, B7),
  :class:`~tronlab.capture.paths_bot.PathBot` (the score's constant 40, not
  his 20: measured against ``rectangles``); ``paths-same`` with the other
  turn order in the model; ``paths-back`` and ``paths-block`` with the two
  BACK rules.
``time`` is accepted for the registry's sake: these bots bound their work
otherwise.  On the contest's 35x20 grid the rectangle bot's scans take about
10 ms a turn.  The path bot searches up to ``max_nodes`` (30,000) nodes: in a
2-player game against ``rectangles`` in-process that took 2 ms a turn at the
median but 80 ms at the 90th percentile and 160 ms at most (2 slow cores), so
``play_capture(..., time_limit=0.1)`` can time it out.  As a contest program
(``tronlab bot paths --protocol backtothecode``) it stops each search after
50 ms (:meth:`~tronlab.capture.paths_bot.PathBot.prepare_for_protocol`).
Nodes per 100 ms: benchmarks/capture_paths.py.
"""

from __future__ import annotations

from ..runner.registry import register
from .back import BlockBack, WinnerBack
from .paths_bot import PathBot
from .rects_bot import RectangleBot


@register("rectangles", game="capture",
          description="Recar's rectangles: area over turns, his multipliers, L-shapes, "
                      "interference")
def rectangles(*, rng=None, time=None, **options):
    return RectangleBot(**options)


@register("rectangles-back", game="capture",
          description="rectangles + BACK every 20 rounds when no area was closed "
                      "(the winner's rule)")
def rectangles_back(*, rng=None, time=None, **options):
    return RectangleBot(back=WinnerBack(), **options)


@register("rectangles-block", game="capture",
          description="rectangles + BACK to before an opponent's large capture, then spoil it")
def rectangles_block(*, rng=None, time=None, **options):
    return RectangleBot(back=BlockBack(), **options)


@register("paths", game="capture",
          description="Olaf69's path search: 3-square steps, (extra+c)/(steps+c) with c 40 "
                      "(his 20 measured weaker), opponent model")
def paths(*, rng=None, time=None, **options):
    return PathBot(**options)


@register("paths-same", game="capture",
          description="paths, the opponent model turning the same way again first (B7 variant)")
def paths_same(*, rng=None, time=None, **options):
    return PathBot(order="same", **options)


@register("paths-back", game="capture",
          description="paths + BACK every 20 rounds when no area was closed (the winner's rule)")
def paths_back(*, rng=None, time=None, **options):
    return PathBot(back=WinnerBack(), **options)


@register("paths-block", game="capture",
          description="paths + BACK to before an opponent's large capture, then spoil it")
def paths_block(*, rng=None, time=None, **options):
    return PathBot(back=BlockBack(), **options)
