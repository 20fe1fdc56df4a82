"""Zobrist keys for the transposition tables: fixed pseudo-random 64-bit numbers.

The keys come from the splitmix64 mixer applied to a counter, computed with
numpy's wrapping uint64 arithmetic, so a bot process needs no ``numpy.random``
(its import is about a tenth of a contest program's start-up budget).  The same
``seed`` and ``size`` give the same keys on every machine.

>>> keys = zobrist_keys(7, 5)
>>> keys.shape, keys.dtype.name
((3, 5), 'uint64')
>>> bool((zobrist_keys(7, 5) == keys).all()), len(set(keys.ravel().tolist()))
(True, 15)
"""

from __future__ import annotations

import numpy as np

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def splitmix64(seed: int, n: int) -> np.ndarray:
    """The first ``n`` outputs of splitmix64 started at ``seed``, as uint64."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed & 0xFFFFFFFFFFFFFFFF) + _GAMMA * np.arange(1, n + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


def zobrist_keys(seed: int, size: int) -> np.ndarray:
    """``uint64[3, size]``: keys for a filled square, my head and the opponent's head."""
    return splitmix64(seed, 3 * size).reshape(3, size)
