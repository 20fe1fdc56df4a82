"""The compiled clock (tronlab.jit.clock): kernels and their plain-Python twins read it alike."""

from tronlab.jit import clock


def test_a_plain_twin_reads_the_same_clock_as_the_kernel():
    clock._kernels.compile()            # the kernels read numba's intrinsic, the twins Python
    assert clock.expired_kernel(0) and not clock.expired_kernel(clock.NO_DEADLINE)
    expired = clock._kernels.plain("expired_kernel")
    assert expired(0) and not expired(clock.NO_DEADLINE)
    before = clock.now_ns()
    read = clock._kernels.plain("now_ns_kernel")()
    assert before <= read <= clock.now_ns()
