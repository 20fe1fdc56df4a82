"""The stdout reader of contest programs (tronlab.runner.program._LineReader): it reads
what the pipe holds and splits lines itself, so that a timeout can say what a program
wrote without a newline.  The lines it queues are the program's lines, each cut to its
first LINE_CAP bytes (a CutLine, the rest dropped) when longer (the oracle: a
split at each newline and slicing), whatever the chunks the pipe delivers, and it keeps
no more than that."""

import queue
import threading

import numpy as np
import pytest

from tronlab.runner.program import LINE_CAP, QUEUE_CAP, CutLine, _LineReader
from tronlab.tron.protocol import ProtocolError, parse_answer


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
    """(cut?, text) of each line: a line that fits in LINE_CAP bytes with its newline
    (or, the last, without one) as it is, a longer one cut to its first LINE_CAP bytes."""
    out, parts = [], data.split(b"\n")
    for raw in [part + b"\n" for part in parts[:-1]] + [parts[-1]] * bool(parts[-1]):
        fits = len(raw) < LINE_CAP or (len(raw) == LINE_CAP and raw.endswith(b"\n"))
        out.append((not fits, raw[:LINE_CAP].decode("utf-8", errors="replace")))
    return out


def read_all(stream) -> list:
    lines = queue.Queue()
    _LineReader(lines, threading.Event()).run(stream)
    out = []
    while (line := lines.get_nowait()) is not None:
        out.append((isinstance(line, CutLine), line))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_lines_are_the_programs_lines_cut_at_the_cap(seed):
    rng = np.random.default_rng(seed)
    pieces = [b"up\n", b"\n", b"1", "é".encode(), b"x" * int(rng.integers(1, 3 * LINE_CAP)),
              b"\r\n", b"LEFT", b"y" * (LINE_CAP - 1)]
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
    assert reader.written() == (True, b"") and lines.qsize() == 1   # cut, the rest dropped
    cut = lines.get_nowait()
    assert isinstance(cut, CutLine) and cut == "LEFT" + "x" * (LINE_CAP - 4)
    assert reader._split(b"xx\nUP\n") and lines.get_nowait() == "UP\n"   # a line again


def test_a_cut_line_is_said_to_be_longer_than_the_cap_not_its_cut_length():
    # before: "got 'xxx...'... (4096 characters)" of a 10,000-character answer
    lines = queue.Queue()
    _LineReader(lines, threading.Event()).run(Chunked(b"x" * 10_000 + b"\n", [3000] * 4))
    with pytest.raises(ProtocolError) as err:
        parse_answer("codingame", lines.get_nowait())
    assert str(err.value).endswith(f"... (a line longer than {LINE_CAP} bytes, cut there)")
    assert lines.get_nowait() is None       # the rest of the line is no line of its own


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
