"""Loading the numba kernels of the capture bots without missing the first turn's clock.

A contest program starts when its first turn is written, and that turn has
1000 ms.  Importing numba and loading the cached kernels takes about that
long on an idle machine, longer on a busy one.  :class:`Warmup` runs every
kernel the rectangle and path bots use once, on a tiny grid, in a background
thread; until it is done the bots answer with the nearest-neutral rule of B2
(numpy only).  :func:`tronlab.capture.cli.run_program` calls a bot's
``prepare_for_protocol`` hook, which starts it.  With the ahead-of-time module
built (``tronlab warmup``) there is nothing to wait for: the twins are loaded and
run at once, before the first turn, and the bot plays its own search from turn one.
"""

from __future__ import annotations

import threading

import numpy as np


def run_every_kernel() -> None:
    """Call each kernel of the issue-17 bots, and the enclosure rule the game
    itself runs, once (compiles them or loads numba's cache)."""
    from .enclosure import enclose
    from .lshapes import best_l_shape, closed_gain
    from .opponent import predict
    from .paths import search_paths
    from .rects import scan_rectangles

    owner = np.full((5, 6), -1, np.int8)
    owner[2, 2] = 0
    scan_rectangles(owner, 0, (2, 2))
    best_l_shape(owner, 0, (2, 2))
    closed_gain(owner, 0, 2, 2)
    enclose(owner, 0, 2, 2)
    predict(owner, [((4, 4), (1, 0), 0)], rounds=3)
    search_paths(owner, 0, (2, 2), max_nodes=50)


class Warmup:
    """A background thread that runs :func:`run_every_kernel`; ``ready`` says when it is done."""

    def __init__(self):
        from ..jit import aot

        self.ready = threading.Event()
        self.error = None
        self.thread = None
        if aot.loaded_names():      # compiled twins, no numba: milliseconds, so wait here
            self._run()
            return
        self.thread = threading.Thread(target=self._run, daemon=True, name="tronlab-warmup")
        self.thread.start()

    def _run(self):
        try:
            run_every_kernel()
        except Exception as err:  # noqa: BLE001 - reported by the bot, which then stays on B2
            self.error = err
        finally:
            self.ready.set()

    @property
    def done(self) -> bool:
        return self.ready.is_set() and self.error is None
