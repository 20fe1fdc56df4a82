"""The stdout reader of contest programs (tronlab.runner.program._LineReader): it reads
what the pipe holds and splits lines itself, so that a timeout can say what a program
wrote without a newline.  The lines it queues are the ones ``readline(LINE_CAP)`` gave
(the oracle), whatever the chunks the pipe delivers, and it keeps no more than it did."""

import io
import queue
import threading

import numpy as np
import pytest

from tronlab.runner.program import LINE_CAP, QUEUE_CAP, _LineReader


class Chunked:
    """A stream whose ``read1`` hands out ``data`` in the given chunk sizes."""

    def __init__(self, data: bytes, sizes):
        self.data, self.sizes, self.at = data, list(sizes), 0

    def read1(self, n):
        size = min(n, self.sizes.pop(0) if self.sizes else n)
        out = self.data[self.at:self.at + size]
        self.at += len(out)
        return out


def oracle(data: bytes) -> list:
    stream = io.BufferedReader(io.BytesIO(data))
    out = []
    while raw := stream.readline(LINE_CAP):
        out.append(raw.decode("utf-8", errors="replace"))
    return out


def read_all(stream) -> list:
    lines = queue.Queue()
    _LineReader(lines, threading.Event()).run(stream)
    out = []
    while (line := lines.get_nowait()) is not None:
        out.append(line)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_lines_are_the_ones_readline_gave(seed):
    rng = np.random.default_rng(seed)
    pieces = [b"up\n", b"\n", b"1", "é".encode(), b"x" * int(rng.integers(1, 3 * LINE_CAP)),
              b"\r\n", b"LEFT"]
    data = b"".join(pieces[i] for i in rng.integers(len(pieces), size=int(rng.integers(0, 30))))
    sizes = rng.integers(1, 5000, size=len(data) + 1)
    assert read_all(Chunked(data, sizes)) == oracle(data)


def test_the_unfinished_line_is_kept_and_capped():
    lines, stop = queue.Queue(), threading.Event()
    reader = _LineReader(lines, stop)
    assert reader.written() == (False, b"")
    assert reader._split(b"up\nLE")
    assert lines.get_nowait() == "up\n" and reader.written() == (True, b"LE")
    assert reader._split(b"FT" + b"x" * (2 * LINE_CAP))
    seen, partial = reader.written()
    assert len(partial) < LINE_CAP and lines.qsize() == 2   # two cut pieces queued
    assert lines.get_nowait().startswith("LEFTxx")


def test_a_full_queue_stops_the_reading():
    """At QUEUE_CAP unread lines the reader waits (and stops at the end of the game)."""
    lines, stop = queue.Queue(maxsize=QUEUE_CAP), threading.Event()
    reader = _LineReader(lines, stop)
    stream = Chunked(b"1\n" * (4 * QUEUE_CAP), [])
    t = threading.Thread(target=reader.run, args=(stream,), daemon=True)
    t.start()
    t.join(0.5)
    assert t.is_alive() and lines.qsize() == QUEUE_CAP and stream.at <= 4096
    stop.set()
    t.join(2)
    assert not t.is_alive()
