"""A program's stderr kept within bounds (tronlab.runner.stderrsink): the first
STDERR_CAP bytes and the last STDERR_TAIL, whatever the chunks the pipe delivers.  The
oracle is the whole text, sliced."""

import io

import pytest

from tronlab.runner.program import Program
from tronlab.runner.stderrsink import STDERR_CAP, STDERR_TAIL, StderrSink


class Chunked(io.RawIOBase):
    """A stream whose ``read1`` hands out ``data`` ``size`` bytes at a time."""

    def __init__(self, data: bytes, size: int):
        self.data, self.size, self.at = data, size, 0

    def read1(self, n=-1):
        out = self.data[self.at:self.at + min(n, self.size)]
        self.at += len(out)
        return out


@pytest.mark.parametrize("total, size", [(10, 3), (STDERR_CAP, 4096),
                                         (STDERR_CAP + STDERR_TAIL, 1000),
                                         (STDERR_CAP + STDERR_TAIL + 1, 4096),
                                         (3 * STDERR_CAP + 17, 777)])
def test_the_first_and_the_last_bytes_are_kept(total, size):
    data = bytes(65 + i % 26 for i in range(total))
    sink = StderrSink()
    sink.run(Chunked(data, size))
    head, tail = data[:STDERR_CAP], data[STDERR_CAP:][-STDERR_TAIL:]
    skipped = total - len(head) - len(tail)
    note = f"\n[tronlab: {skipped} more bytes of stderr dropped]\n" if skipped else ""
    assert sink.text() == head.decode() + note + tail.decode()


def test_a_crash_after_a_flood_of_logs_is_named_by_its_own_last_line():
    """Before: only the first 64 KiB were kept, so a program that logged 200 KiB and then
    raised was said to have 'last stderr line: '[tronlab: 143360 more bytes of stderr
    dropped]'', the error itself lost."""
    data = b"debug line\n" * 20_000 + b"Traceback...\nZeroDivisionError: division by zero\n"
    program = Program.__new__(Program)          # its stderr only: no process
    program.sink = StderrSink()
    program.sink.run(Chunked(data, 4096))
    assert program._stderr_tail() == " (last stderr line: 'ZeroDivisionError: division by zero')"
