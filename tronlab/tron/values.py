"""Numbers from users, checked: :func:`whole_numbers` (board cells, heads, costs)
refuses what numpy's own cast would silently change; :func:`is_whole` and
:func:`is_real` are the one test, everywhere, that a single argument is a whole
number or a real number and not a bool; :func:`check_whole`, :func:`check_number`
and :func:`check_choice` check one option against its range or its choices (a
TypeError for the wrong type, a ValueError for a value out of range);
:func:`check_flag` that an on/off option is a bool.

Imports only numpy (``tronlab.jit`` and the runner import it: it must stay light)."""

from __future__ import annotations

import math
import numbers

import numpy as np

_BOOLS = (bool, np.bool_)


def is_whole(x) -> bool:
    """Whether ``x`` is one whole number: a Python int or a numpy integer scalar
    (any :class:`numbers.Integral`), but not ``True``/``False`` or a ``np.bool_``.
    Floats are not whole numbers here, not even ``2.0``; nor are strings or arrays.
    Callers check the range themselves.

    >>> is_whole(3), is_whole(np.int64(3)), is_whole(np.uint8(3))
    (True, True, True)
    >>> is_whole(True), is_whole(np.bool_(True)), is_whole(2.0), is_whole("3")
    (False, False, False, False)
    """
    return isinstance(x, numbers.Integral) and not isinstance(x, _BOOLS)


def is_real(x) -> bool:
    """Whether ``x`` is one real number: an int, a float, a numpy integer or floating
    scalar (any :class:`numbers.Real`, so a :class:`fractions.Fraction` too, but not a
    :class:`decimal.Decimal`), and not ``True``/``False`` or a ``np.bool_``.
    NaN and the infinities are floats, so they count: the caller's own range check
    (``not x > 0``, ``0 <= x <= 1``, ``np.isfinite``) is what refuses them.

    >>> is_real(1), is_real(0.5), is_real(np.float32(0.5)), is_real(np.int64(2))
    (True, True, True, True)
    >>> is_real(float("nan")), is_real(float("inf"))
    (True, True)
    >>> is_real(False), is_real(np.bool_(True)), is_real("1"), is_real(None), is_real(1j)
    (False, False, False, False, False)
    """
    return isinstance(x, numbers.Real) and not isinstance(x, _BOOLS)


def check_flag(value, name: str) -> bool:
    """``value`` as a bool if it is ``True`` or ``False`` (a ``np.bool_`` too), else a
    TypeError naming the option ``name``: by truthiness ``None`` would switch an
    option off and ``'no'`` or ``2`` on without a word.

    >>> check_flag(np.bool_(False), "tt")
    False
    >>> check_flag(None, "tt")
    Traceback (most recent call last):
    ...
    TypeError: tt must be True or False, got NoneType None
    """
    if isinstance(value, _BOOLS):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")


def check_whole(value, name: str, low: int, high: int | None = None, unit: str = "") -> int:
    """``value`` as an int if it is a whole number (a numpy integer too) from ``low``
    to ``high`` (``None``: no upper bound); else a TypeError (a float, a bool, a str)
    or a ValueError naming ``name`` (``unit`` says what it counts).

    >>> check_whole(2.0, "max_nodes", 1, 10)
    Traceback (most recent call last):
    ...
    TypeError: max_nodes must be an int from 1 to 10, got float 2.0
    >>> check_whole(-1, "rounds", 0)
    Traceback (most recent call last):
    ...
    ValueError: rounds must be an int >= 0, got -1
    """
    what = f"an int >= {low}" if high is None else f"an int from {low} to {high}"
    what += f" ({unit})" if unit else ""
    if not is_whole(value):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    if not (low <= value and (high is None or value <= high)):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return int(value)


def check_positive(value, name: str, unit: str = "") -> int:
    """``value`` as an int if it is a whole number of at least 1; else a TypeError
    (a float, a bool, a str, None) or a ValueError (0 or less) saying ``name`` must
    be a positive int (``unit``, e.g. ``" (turns)"``, follows those words).

    >>> check_positive(2.5, "max_depth", " (turns)")
    Traceback (most recent call last):
    ...
    TypeError: max_depth must be a positive int (turns), got float 2.5
    """
    if not is_whole(value):
        raise TypeError(f"{name} must be a positive int{unit}, got {type(value).__name__} "
                        f"{value!r}")
    if value < 1:
        raise ValueError(f"{name} must be a positive int{unit}, got {value!r}")
    return int(value)


def check_number(value, name: str, low: float = 0.0, unit: str = "", *,
                 high: float | None = None) -> float:
    """``value`` as a float if it is a finite real number (a numpy scalar too) of at
    least ``low`` (``None``: any) and at most ``high`` (``None``: any); else a
    TypeError or a ValueError (NaN, an infinity, out of range) naming ``name``.

    >>> check_number(2, "late", high=1)
    Traceback (most recent call last):
    ...
    ValueError: late must be a number from 0 to 1, got 2
    """
    if high is None:
        what = "a finite number" if low is None else f"a number >= {low:g}"
    else:
        what = f"a number <= {high:g}" if low is None else f"a number from {low:g} to {high:g}"
    what += f" ({unit})" if unit else ""
    if not is_real(value):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    if (not math.isfinite(value) or (low is not None and value < low)
            or (high is not None and value > high)):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return float(value)


def check_choice(value, name: str, choices) -> str:
    """``value`` if it is one of the strings ``choices``; else a TypeError (not a str)
    or a ValueError naming ``name`` and the choices."""
    what = f"one of {', '.join(repr(c) for c in choices)}"
    if not isinstance(value, str):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    if value not in choices:
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return value


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
