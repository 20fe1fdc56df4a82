"""Loading the numba kernels of the capture bots without missing the first turn's clock.

A contest program starts when its first turn is written, and that turn has
1000 ms.  Importing numba and loading the cached kernels takes about that
long on an idle machine, longer on a busy one.  :class:`Warmup` runs every
kernel the rectangle and path bots use once, on a tiny grid, in a background
thread; until it is done the bots answer with the nearest-neutral rule of B2
(numpy only).  :func:`tronlab.capture.cli.run_program` calls a bot's
``prepare_for_protocol`` hook, which makes the Warmup, and lets its thread
:meth:`~Warmup.begin` once the first answer is written: importing numba and
compiling hold the GIL most of the time, and a load running beside the first
turn slowed that answer down (0.34-0.46 s from the program's start instead of
0.27 s, benchmarks/coldstart.py, with two busy loops beside it 0.62 s instead of
0.43-0.54 s).  The later turns still answer beside the load, which can hold
the GIL past their 100 ms on a busy machine, so ``tronlab bot`` and
``python -m tronlab.capture.program`` load in a worker process instead
(:mod:`tronlab.capture.starting`, whose worker uses a Warmup).  With the
ahead-of-time module built (``tronlab warmup``) there is nothing to wait for: the
twins are loaded and run at once, before the first turn, and the bot plays its
own search from turn one.
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


#: seconds a Warmup's thread waits for :meth:`Warmup.begin` before it starts on its own
#: (the contest's first turn: a driver that never calls begin() still gets the kernels)
BEGIN_BY = 1.0


class Warmup:
    """A background thread that runs :func:`run_every_kernel`; ``ready`` says when it is done.

    The thread waits (without the GIL) until :meth:`begin` is called, or
    ``begin_by`` seconds at most (:data:`BEGIN_BY` by default), so that the first
    answer is worked out and written before numba's import and compiler compete
    with it for the GIL."""

    def __init__(self, *, begin_by: float | None = None):
        from ..jit import aot

        self.ready = threading.Event()
        self.error = None
        self.thread = None
        self._go = threading.Event()
        if aot.loaded_names():      # compiled twins, no numba: milliseconds, so wait here
            self._run()
            return
        wait = BEGIN_BY if begin_by is None else begin_by
        self.thread = threading.Thread(target=self._wait_then_run, args=(wait,),
                                       daemon=True, name="tronlab-warmup")
        self.thread.start()

    def begin(self) -> None:
        """Let the load start now (it waits for this, or ``begin_by`` seconds)."""
        self._go.set()

    def _wait_then_run(self, begin_by):
        self._go.wait(begin_by)
        self._run()

    def _run(self):
        try:
            run_every_kernel()
        except Exception as err:  # noqa: BLE001 - run_program says so; the bot stays on B2
            self.error = err
        finally:
            self.ready.set()

    @property
    def done(self) -> bool:
        return self.ready.is_set() and self.error is None
