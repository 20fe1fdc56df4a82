"""Program.wait_read: a Light Riders program's bank starts once it has read its settings.
How the wait ends for a program that never reads, and where a pipe cannot tell what it
holds."""

import sys
import time

import pytest

from tronlab.runner import pipecount
from tronlab.runner import program as program_module
from tronlab.runner.external import ExternalBot
from tronlab.runner.pipecount import ioctl_held, pipe_counter
from tronlab.runner.program import Program
from tronlab.tron.mapgen import lightriders_board

# answers at once and never reads its input
ANSWERS_UNREAD = [sys.executable, "-c", "import time; print('pass', flush=True); time.sleep(30)"]
# neither reads nor answers
NEVER_READS = [sys.executable, "-c", "import time; time.sleep(30)"]


@pytest.fixture
def fresh_probe():
    """The pipe probe runs again in the test, and once more after it."""
    pipe_counter.cache_clear()
    yield
    pipe_counter.cache_clear()


def _unread_wait(args, seconds):
    """How long wait_read waits (seconds) for ``args`` with ``seconds`` to go, and
    what it says."""
    prog = Program(args)
    try:
        prog.send("settings timebank 10000\n" * 20)
        t0 = time.monotonic()
        read = prog.wait_read(t0 + seconds)
        return time.monotonic() - t0, read
    finally:
        prog.close()


def test_a_program_that_answers_without_reading_is_not_waited_for():
    # it used to hold the game up to nine tenths of the bank (9 s of the contest's 10 s
    # bank) before its first move, as though it were still starting up
    bot = ExternalBot(ANSWERS_UNREAD, protocol="lightriders")
    t0 = time.monotonic()
    try:
        bot.start_game(lightriders_board(x=2, y=3), 0, rules="lightriders",
                       time_bank=(4.0, 0.1))
        waited = time.monotonic() - t0
    finally:
        bot.close()
    assert waited < 2.0, waited


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's FIONREAD")
def test_linux_counts_a_pipe_from_its_writing_end_by_fionread(fresh_probe):
    assert pipe_counter() is ioctl_held
    waited, read = _unread_wait(NEVER_READS, 0.3)
    assert not read and waited >= 0.3       # it did wait: the program never read


def test_without_a_pipe_count_the_wait_ends_at_once(monkeypatch, fresh_probe):
    """Where FIONREAD raises (no such ioctl) and fstat says nothing, wait_read returns
    False at once rather than wait its whole time for nothing."""
    def no_ioctl(fd):
        raise OSError(25, "Inappropriate ioctl for device")

    monkeypatch.setattr(pipecount, "ioctl_held", no_ioctl)
    monkeypatch.setattr(pipecount, "fstat_held", lambda fd: 0)
    assert pipe_counter() is None
    waited, read = _unread_wait(NEVER_READS, 5.0)
    assert not read and waited < 0.5, waited


def test_a_fionread_that_always_says_0_is_not_trusted(monkeypatch, fresh_probe):
    """macOS answers FIONREAD on a pipe's writing end with 0, whatever the pipe holds
    (the bytes wait at the reading end); wait_read took that for 'the program has read
    its settings' and returned True at once for a program that never read.  Its fstat
    tells the count instead (the size), which the probe then picks."""
    monkeypatch.setattr(pipecount, "ioctl_held", lambda fd: 0)
    monkeypatch.setattr(pipecount, "fstat_held", lambda fd: 0)
    waited, read = _unread_wait(NEVER_READS, 5.0)
    assert not read and waited < 0.5, waited
    pipe_counter.cache_clear()
    monkeypatch.setattr(pipecount, "fstat_held", lambda fd: 1)
    assert pipe_counter() is pipecount.fstat_held


# reads everything it is sent, never answers
READS_ALL = [sys.executable, "-c", "import sys, time\nfor _ in sys.stdin: pass\ntime.sleep(30)"]
# reads 3 bytes of its input, then sleeps
READS_3 = [sys.executable, "-c", "import os, time; os.read(0, 3); time.sleep(30)"]


def _wait(args, text, seconds):
    prog = Program(args)
    try:
        prog.send(text)
        t0 = time.monotonic()
        read = prog.wait_read(t0 + seconds)
        return time.monotonic() - t0, read
    finally:
        prog.close()


@pytest.mark.skipif(pipe_counter() is None, reason="no way to count what a pipe holds here")
def test_a_program_that_read_all_it_was_sent_is_waited_for_no_longer():
    waited, read = _wait(READS_ALL, "settings timebank 10000\n" * 20, 10.0)
    assert read and waited < 5.0, waited
    # one byte of 'abc\n' still in the pipe: not read yet, so the whole 0.5 s
    waited, read = _wait(READS_3, "abc\n", 0.5)
    assert not read and waited >= 0.5


def test_a_program_that_ended_is_not_waited_for():
    waited, read = _wait([sys.executable, "-c", "pass"], "abc\n", 10.0)
    assert not read and waited < 5.0, waited


def test_a_pipe_count_that_fails_midway_ends_the_wait_as_not_read(monkeypatch):
    def broken(fd):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(program_module, "pipe_counter", lambda: broken)
    waited, read = _wait(READS_ALL, "abc\n", 5.0)
    assert not read and waited < 2.5, waited
