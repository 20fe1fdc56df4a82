"""Numbers from users, checked: :func:`whole_numbers` (board cells, heads, costs)
refuses what numpy's own cast would silently change."""

from __future__ import annotations

import numpy as np


def whole_numbers(values, name: str, low: int, high: int, dtype, *, error=ValueError,
                  type_error=TypeError) -> np.ndarray:
    """``values`` as a C-contiguous ``dtype`` array if they are whole numbers in
    ``low..high``; else ``type_error`` (not numbers at all) or ``error`` naming
    ``name`` and the first bad value: numpy's own cast would wrap 258 to 2 in
    ``uint8``, cut 0.9 or 1.5 down and turn NaN into 0 without a word.

    >>> whole_numbers([1.0, 2.0], "cost", 1, 255, np.uint8)
    array([1, 2], dtype=uint8)
    >>> whole_numbers([1, 256], "cost", 1, 255, np.uint8)
    Traceback (most recent call last):
    ...
    ValueError: cost must hold whole numbers from 1 to 255, found 256
    """
    try:
        a = np.asarray(values)
    except (TypeError, ValueError) as err:
        raise type_error(f"{name} must hold numbers: {err}") from None
    if a.dtype.kind not in "biuf":
        raise type_error(f"{name} must hold numbers, got an array of {a.dtype}")
    if a.size:
        if a.dtype.kind == "f":
            bad = ~np.isfinite(a) | (a != np.floor(a))
            if bad.any():
                raise error(f"{name} must hold whole numbers, found {a[bad][0].item()!r}")
        top, bottom = a.max(), a.min()
        if top > high or bottom < low:
            value = (top if top > high else bottom).item()
            raise error(f"{name} must hold whole numbers from {low} to {high}, found {value!r}")
    return np.ascontiguousarray(a, dtype)
