"""The checker runs the learner's function where it cannot hurt the notebook (issue 11,
defect 3): a bare ``except:`` cannot swallow the time limit, ``sys.exit()`` and
``os._exit()`` end only the checker's child, an answer whose ``__repr__`` raises is
reported in a sentence, and an answer that cannot be sent back is named."""

from __future__ import annotations

import os
import sys
import time

import pytest

from tronlab.course import exercises, timelimit
from tronlab.course.checker import CRASH, PASSED, TIMEOUT, WRONG_TYPE

needs_fork = pytest.mark.skipif(not timelimit.can_fork(), reason="isolation needs fork")


def check(name, fn, **kw):
    return getattr(exercises, f"check_{name}")(fn, **kw)


@needs_fork
def test_a_bare_except_in_a_loop_cannot_swallow_the_time_limit():
    def flood_fill(board, player):
        while True:
            try:
                while True:
                    pass
            except:                     # noqa: E722 - what a learner might write
                continue
    t0 = time.monotonic()
    result = check("flood_fill", flood_fill, time_limit=0.3)
    assert result.status == TIMEOUT
    assert "did not finish within 0.3 s" in result.message
    assert time.monotonic() - t0 < 10


@needs_fork
def test_sys_exit_in_the_learners_function_does_not_end_the_notebook():
    pid = os.getpid()

    def flood_fill(board, player):
        sys.exit(3)
    result = check("flood_fill", flood_fill)          # this process must still be here
    assert os.getpid() == pid
    assert result.status == CRASH
    assert "called sys.exit() (SystemExit: 3)" in result.message
    assert "return the answer instead" in result.hint


@needs_fork
def test_os_exit_is_reported_as_the_program_ending():
    def flood_fill(board, player):
        os._exit(7)
    result = check("flood_fill", flood_fill)
    assert result.status == CRASH
    assert "exit code 7" in result.message


class _Shy:
    """An answer whose repr raises: the checker must still explain it."""

    def __repr__(self):
        raise ValueError("I will not be shown")


def test_an_answer_whose_repr_raises_gives_a_clear_message():
    def flood_fill(board, player):
        return _Shy()
    result = check("flood_fill", flood_fill)
    assert result.status == WRONG_TYPE              # it used to be a ValueError traceback
    assert "Got:\n    _Shy\n" in result.message and "not a _Shy" in result.hint


def test_a_wrong_kind_of_answer_whose_repr_raises_is_explained():
    class Strange:
        def __repr__(self):
            raise RuntimeError("boom")

        def __int__(self):
            raise TypeError("no number here")
    result = check("flood_fill", lambda board, player: Strange())
    assert result.status in (WRONG_TYPE, CRASH)
    assert "Traceback" not in result.message
    assert "flood_fill" in result.message


@needs_fork
def test_an_answer_that_cannot_be_sent_back_is_named():
    outcome = timelimit.call_with_time_limit(lambda: (x for x in range(3)), 5)
    assert outcome.kind == "unsendable" and "generator" in outcome.detail


@needs_fork
def test_an_exception_that_cannot_be_pickled_keeps_its_name_and_line():
    class Odd(Exception):
        def __init__(self, a, b):
            super().__init__(f"{a}-{b}")

    def flood_fill(board, player):
        raise Odd(1, 2)
    result = check("flood_fill", flood_fill)
    assert result.status == CRASH
    assert "crashed with Odd: 1-2" in result.message
    assert "raise Odd(1, 2)" in result.message


@needs_fork
def test_the_forked_call_passes_values_errors_and_times_out():
    assert timelimit.call_with_time_limit(lambda: {"a": [1, 2]}, 5).value == {"a": [1, 2]}
    raised = timelimit.call_with_time_limit(lambda: 1 / 0, 5)
    assert raised.kind == "raised" and isinstance(raised.error, ZeroDivisionError)
    assert raised.frames and raised.frames[-1].name == "<lambda>"
    assert timelimit.call_with_time_limit(lambda: time.sleep(30), 0.2).kind == "timeout"


def test_a_right_answer_still_passes():
    from tronlab import flood_fill

    def mine(board, player):
        return flood_fill(board, player)
    assert check("flood_fill", mine).status == PASSED
