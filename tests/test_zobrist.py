"""The transposition tables' keys against a plain-Python splitmix64."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tronlab.tron.zobrist import splitmix64, zobrist_keys

MASK = 2**64 - 1


def splitmix64_reference(seed, n):
    out, state = [], seed & MASK
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


def test_the_published_first_output_for_seed_zero():
    assert int(splitmix64(0, 1)[0]) == 0xE220A8397B1DCDAF


@settings(max_examples=60, deadline=None)
@given(st.integers(0, MASK), st.integers(0, 40))
def test_splitmix64_matches_the_reference(seed, n):
    assert splitmix64(seed, n).tolist() == splitmix64_reference(seed, n)


def test_keys_are_fixed_distinct_and_shaped_per_board_size():
    a, b = zobrist_keys(0x7E0E + 400, 400), zobrist_keys(0x7E0E + 400, 400)
    assert a.shape == (3, 400) and a.dtype.name == "uint64"
    assert (a == b).all()
    assert len(set(a.ravel().tolist())) == a.size
