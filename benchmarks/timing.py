"""Per-call times that hold still on a shared machine: batches under a time budget.

Other jobs on the machine only ever add time to a batch, so the fastest of
several batches is the figure least disturbed by them; the median is kept
beside it to show the spread.  :func:`per_call` sizes the batches from one
warm call, so a kernel of 1 us and a search of 1 s both get a few dozen
batches, or at least ``min_batches`` when a single call outlasts the budget.
"""

from __future__ import annotations

import statistics
import time
from typing import NamedTuple


class Timing(NamedTuple):
    best: float       # seconds per call in the fastest batch
    median: float     # seconds per call, median over the batches
    batches: int
    reps: int         # calls per batch


def per_call(batch, *, budget: float, min_batches: int = 3, max_batches: int = 1001,
             share: float = 0.05) -> Timing:
    """Time ``batch(reps)`` (which returns seconds per call over ``reps`` calls):
    one untimed call (compiles, warms caches), batches of about ``share *
    budget`` seconds until ``budget`` seconds are spent, and at least
    ``min_batches`` of them."""
    batch(1)
    one = batch(1)
    reps = max(1, int(budget * share / max(one, 1e-9)))
    times = []
    end = time.perf_counter() + budget
    while len(times) < min_batches or (time.perf_counter() < end and len(times) < max_batches):
        times.append(batch(reps))
    return Timing(min(times), statistics.median(times), len(times), reps)
