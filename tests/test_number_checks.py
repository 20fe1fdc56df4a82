"""One test for "a whole number, not a bool" and "a real number, not a bool":
``tronlab.tron.values.is_whole`` / ``is_real``, and the entry points that use them.

Numpy integer and floating scalars (``np.int64(3)`` from an array, ``np.float32(0.5)``)
are accepted wherever a Python int or float is; ``np.bool_`` is refused wherever ``bool``
is, with the message a Python bool gets.  Decided for the predicates: a
:class:`~fractions.Fraction` is a real number (``numbers.Real``, as the registry's time
check always took it), a :class:`~decimal.Decimal` is not; NaN and the infinities are
real numbers, and each caller's own range check refuses them where it did before.
"""

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from tronlab.tron.values import is_real, is_whole

INTS = [0, 7, -3, 2**70] + [t(5) for t in (np.int8, np.int16, np.int32, np.int64,
                                         np.uint8, np.uint16, np.uint32, np.uint64)]
FLOATS = [0.5, -2.0, float("nan"), float("inf"), np.float16(1.5), np.float32(0.25),
          np.float64(3.0), np.longdouble(1.0), Fraction(1, 3)]
NEITHER = [True, False, np.bool_(True), np.bool_(False), "3", b"3", None, 1j,
           np.complex128(1), Decimal("1"), np.array(3), np.array([3]), [3], (3,)]


@pytest.mark.parametrize("x", INTS, ids=repr)
def test_whole_numbers_are_whole_and_real(x):
    assert is_whole(x) is True and is_real(x) is True


@pytest.mark.parametrize("x", FLOATS, ids=repr)
def test_floats_are_real_not_whole(x):
    assert is_real(x) is True and is_whole(x) is False


@pytest.mark.parametrize("x", NEITHER, ids=repr)
def test_bools_strings_and_the_rest_are_neither(x):
    assert is_whole(x) is False and is_real(x) is False


# ---- entry points that refused numpy scalars before ----------------------------------------

def test_bots_take_numpy_options():
    from tronlab.tron.bots.nash import NashBot
    from tronlab.tron.bots.search import ChamberBot
    bot = NashBot(focus=np.int64(8), urgent=np.float32(1.5))
    assert bot.focus == 8 and type(bot.focus) is int and bot.urgent == 1.5
    assert ChamberBot(contempt=np.float32(0.5)).contempt == 0.5
    for bad in (True, np.bool_(True)):
        with pytest.raises(ValueError, match="focus must be an int >= 0"):
            NashBot(focus=bad)
        with pytest.raises(ValueError, match="urgent must be a number >= 1"):
            NashBot(urgent=bad)
        with pytest.raises(ValueError, match="contempt must be a number from 0 to 1"):
            ChamberBot(contempt=bad)
    with pytest.raises(ValueError, match="contempt must be a number from 0 to 1"):
        ChamberBot(contempt=np.float32("nan"))        # NaN: refused by the range, as before


