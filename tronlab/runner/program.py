"""One running contest program and its three pipes, for every game's program bot.

:class:`Program` is what :class:`tronlab.runner.external.ExternalBot` (Tron,
Light Riders) and :class:`tronlab.capture.external.CaptureProgram` (Back to the
Code) share: the process, started in a session of its own with a reaper token
(:mod:`tronlab.runner.reaper`), and three daemon threads so that nothing ever
blocks the game: one writes the lines :meth:`Program.send` queues to stdin, one
reads stdout into a queue of lines, one keeps stderr.  Each bot keeps its own
protocol and its own rules for late or extra lines on top.

Memory stays bounded whatever the program prints: a line is cut at
``LINE_CAP`` bytes (the rest of it dropped), at most ``QUEUE_CAP`` unread lines
wait (the reader then stops reading, and a program that keeps printing blocks on
its full pipe), and stderr keeps its first and last bytes
(:class:`~tronlab.runner.stderrsink.StderrSink`).  The bytes of a line not ended yet
are kept too (fewer than ``LINE_CAP``), so a turn that times out can say what
the program wrote without its newline.
"""

from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref

from . import reaper
from .pipecount import pipe_counter
from .stderrsink import STDERR_CAP, STDERR_TAIL, StderrSink  # noqa: F401  (their home before)
from ..tron.protocol import quote
from ..tron.values import is_real

LINE_CAP = 4 * 1024    # bytes of one answer line; a longer line is cut (and is bad output)
QUEUE_CAP = 64         # unread answer lines kept; then the reader waits
POLL = 0.05            # seconds between checks that the program still runs


def parse_command(command) -> list[str]:
    """``command`` as a list of arguments: a string is split as a shell would
    (:func:`shlex.split`), a list or tuple of str / path-like is kept."""
    if isinstance(command, str):
        args = shlex.split(command)
    elif (isinstance(command, (list, tuple))
          and all(isinstance(a, (str, os.PathLike)) for a in command)):
        args = [os.fspath(a) for a in command]
    else:
        raise TypeError("command must be a str or a list of str")
    if not args:
        raise ValueError("command is empty")
    return args


def check_seconds(what: str, value):
    """``value`` if it is None or a positive number of seconds, else a ValueError; a
    number other than a Python int or float (``np.float32(0.5)``) comes back as a float."""
    if value is not None and (not is_real(value) or not value > 0):
        raise ValueError(f"{what} must be a positive number of seconds, got {value!r}")
    return value if value is None or isinstance(value, (int, float)) else float(value)


#: characters of a program's last stderr line that a fault shows
STDERR_SHOWN = 200
#: characters of an unfinished stdout line that a timeout shows
PARTIAL_SHOWN = 60
#: how a timeout fault goes on when the program wrote nothing all game (a referee of
#: programs that write no answers themselves words that case its own way: pyfilebot)
SILENT = ", nothing on stdout yet"


def _end_program(proc: subprocess.Popen, token: str, stop: threading.Event) -> None:
    """Kill the program, its group and everything carrying its token; reap the program."""
    stop.set()
    reaper.kill_program(token, proc.pid)
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass


def _put(lines: queue.Queue, item, stop: threading.Event) -> bool:
    """Queue ``item``, waiting while the queue is full; False once the game stopped."""
    while not stop.is_set():
        try:
            lines.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False


class CutLine(str):
    """A stdout line the reader cut at ``LINE_CAP`` bytes: its first ``LINE_CAP``
    bytes, decoded, without a newline (the rest of the line is dropped).
    :func:`~tronlab.tron.protocol.quote` says the line was longer and cut, instead of
    giving the length of what was kept as the line's (an answer of 10,000 characters
    was reported as "(4096 characters)")."""

    cut_at = LINE_CAP


class _LineReader:
    """Reads a program's stdout into a queue of lines (``None`` at the end of the
    output), cutting a line at ``LINE_CAP`` bytes (a :class:`CutLine`; the rest of
    the line is dropped), and keeps the bytes of the line being written, so that a
    turn that times out can say what the program wrote without a newline
    (:meth:`Program.timeout_detail`)."""

    def __init__(self, lines: queue.Queue, stop: threading.Event):
        self.lines, self.stop = lines, stop
        self.lock = threading.Lock()    # guards partial, seen and dropping
        self.partial = bytearray()      # bytes since the last newline, fewer than LINE_CAP
        self.seen = False               # any byte read at all
        self.dropping = False           # reading the rest of a cut line, to drop it

    def run(self, stream) -> None:
        try:
            while not self.stop.is_set():
                chunk = stream.read1(4096)  # what the pipe holds: waits only when it is empty
                if not chunk or not self._split(chunk):
                    break
        except (OSError, ValueError):
            pass
        with self.lock:
            rest, self.partial = bytes(self.partial), bytearray()
        if not rest or _put(self.lines, rest.decode("utf-8", errors="replace"), self.stop):
            _put(self.lines, None, self.stop)  # end of output

    def _split(self, chunk: bytes) -> bool:
        """Queue the lines ``chunk`` ends (keeping the rest); False once the game stopped.
        A line cut at ``LINE_CAP`` bytes is queued then, and the rest of it is dropped:
        it is no line of its own (a Back to the Code answer with a long message was
        answered, then its tail was read as a line printed unasked and eliminated it)."""
        start = 0
        while start < len(chunk):
            with self.lock:
                self.seen = True
                if self.dropping:       # the rest of a line cut already
                    end = chunk.find(b"\n", start)
                    self.dropping = end < 0
                    start = len(chunk) if end < 0 else end + 1
                    continue
                room = LINE_CAP - len(self.partial)
                end = chunk.find(b"\n", start, start + room)
                cut = start + room if end < 0 else end + 1
                self.partial += chunk[start:cut]
                start = min(cut, len(chunk))
                if end < 0 and len(self.partial) < LINE_CAP:
                    return True        # the line goes on in a later chunk
                line, self.partial = bytes(self.partial), bytearray()
                self.dropping = end < 0
            text = line.decode("utf-8", errors="replace")
            if not _put(self.lines, text if end >= 0 else CutLine(text), self.stop):
                return False
        return True

    def written(self) -> tuple[bool, bytes]:
        """Whether the program wrote anything on stdout, and its unfinished line."""
        with self.lock:
            return self.seen, bytes(self.partial)


def _write_lines(stream, pending: queue.Queue, written: list) -> None:
    """Write what ``pending`` queues until None; ``written[0]`` counts the texts done."""
    while True:
        text = pending.get()
        if text is None:
            break
        try:
            stream.write(text.encode("utf-8"))
            stream.flush()
        except (OSError, ValueError):  # the program closed stdin or died: EOF tells the reader
            break
        written[0] += 1
    try:
        stream.close()
    except OSError:
        pass


class Program:
    """``args`` running with its pipes (see the module docstring); raises
    OSError when it cannot start.  ``env`` is the whole environment (None:
    this process's), to which the reaper adds its token."""

    def __init__(self, args, *, cwd=None, env=None):
        self.sink = StderrSink()
        token = reaper.new_token()
        reaper.prepare()    # the watchdog first: a kill -9 while this starts still ends it
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd,
                                     env=reaper.child_env(token, env), start_new_session=True)
        reaper.register(token, self.proc.pid)
        stop = threading.Event()
        # kills the program if its bot is dropped without close()
        self._finalizer = weakref.finalize(self, _end_program, self.proc, token, stop)
        self._lines: queue.Queue = queue.Queue(maxsize=QUEUE_CAP)
        self._pending: queue.Queue = queue.Queue()
        self._reader = _LineReader(self._lines, stop)
        self._sent, self._written = 0, [0]     # texts queued for stdin, and written
        self._threads = [
            threading.Thread(target=self._reader.run, args=(self.proc.stdout,), daemon=True),
            threading.Thread(target=_write_lines,
                             args=(self.proc.stdin, self._pending, self._written), daemon=True),
            threading.Thread(target=self.sink.run, args=(self.proc.stderr,), daemon=True),
        ]
        for t in self._threads:
            t.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, text: str) -> None:
        """Queue ``text`` for the program's stdin (the writer thread writes it)."""
        self._sent += 1
        self._pending.put(text)

    def wait_started(self, limit: float) -> None:
        """Before the first turn's clock starts: wait until the program has read what was
        sent (it is up; starting Python and its imports is no thinking), for at most
        :func:`~tronlab.arena.play.program_start` less the first turn's ``limit``, so a
        program that never reads is given up on after the longer of the two."""
        from ..arena.play import program_start

        wait = program_start() - limit
        if wait > 0:
            self.wait_read(time.monotonic() + wait)

    def wait_read(self, deadline: float) -> bool:
        """Wait until the program has read all that was sent to it (it started up and
        reads its input), or until ``deadline`` (a ``time.monotonic()`` time); whether
        it did.  False as soon as the program wrote on stdout without reading (it is up
        and answering: waiting longer would only hold the game up), and at once where
        a pipe cannot say what it holds (:func:`~tronlab.runner.pipecount.pipe_counter`)."""
        counter = pipe_counter()
        try:
            fd = self.proc.stdin.fileno()
        except (ValueError, OSError):
            return False
        if counter is None:
            return False
        writer = self._threads[1]
        while time.monotonic() < deadline and self.proc.poll() is None and writer.is_alive():
            if self._reader.written()[0]:
                return False
            if self._written[0] >= self._sent:
                try:
                    held = counter(fd)
                except OSError:
                    return False
                if held == 0:
                    return True
            time.sleep(0.002)
        return False

    def unread_lines(self):
        """The lines printed and not read yet, at most ``QUEUE_CAP`` of them (this
        runs on a move's clock; a program that never stops printing is caught by
        the clock), up to the end of the output if it came."""
        for _ in range(QUEUE_CAP):
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return
            yield line

    def next_line(self, deadline: float) -> str | None:
        """The next line printed before ``deadline`` (a ``time.monotonic()``
        time), blank lines too; None once the output ended (the program exited or
        closed it); TimeoutError at the deadline."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            try:  # short waits: a program can die while a child of it holds stdout open
                line = self._lines.get(timeout=min(remaining, POLL))
            except queue.Empty:
                if self.proc.poll() is None:
                    continue
                try:  # it has ended: take a last line it may have printed
                    line = self._lines.get(timeout=POLL)
                except queue.Empty:
                    line = None
            if line is None:
                self._lines.put(None)     # every later read sees the end too
            return line

    def timeout_detail(self, within: str) -> str:
        """The fault of a turn with no answer line ``within`` its limit (``"100 ms"``),
        saying what the program wrote: an answer without its newline (or not yet
        flushed after its first bytes) is the commonest mistake of a first contest
        program.  Silence is a hint only while stdout got nothing all game: a
        program that answered before and is slow now is just slow."""
        seen, partial = self._reader.written()
        if partial:
            text = quote(partial.decode("utf-8", errors="replace"), PARTIAL_SHOWN)
            return (f"no complete answer line within {within}: it wrote {text} without a "
                    f"newline (end each answer with \\n and flush stdout)")
        if not seen:        # what it said on stderr may say why (a wrong grid size, ...)
            return (f"no answer within {within}{SILENT} (too slow, or did it print without "
                    f"flushing?){self._stderr_tail()}")
        return f"no answer within {within}"

    def exit_detail(self, deadline: float | None = None) -> str:
        """How the program ended, for a fault: ``program exited with code 3
        (last stderr line: ...)``, ``... was killed by signal SIGKILL``, or
        ``... closed its output`` while it still runs.  The stderr line is cut
        at :data:`STDERR_SHOWN` characters: long enough for a Python error's
        last line, which is what a student needs to read.  Its stderr is read to the end
        first.  No wait passes a second or ``deadline``, the move's (the engine's clock
        would call a program that closed its output a timeout)."""
        def wait(least):
            left = 1.0 if deadline is None else deadline - time.monotonic()
            return min(max(left, least), 1.0)
        try:
            code = self.proc.wait(timeout=wait(0.01))   # 0.01 s: an exiting program's code
        except subprocess.TimeoutExpired:
            code = None
        if code is not None:  # its last line may still be in the pipe (a child can hold it)
            self._threads[2].join(timeout=wait(0.0))
        if code is None:
            what = "closed its output"
        elif code < 0:
            try:
                what = f"was killed by signal {signal.Signals(-code).name}"
            except ValueError:
                what = f"was killed by signal {-code}"
        else:
            what = f"exited with code {code}"
        return f"program {what}{self._stderr_tail()}"

    def _stderr_tail(self) -> str:
        """`` (last stderr line: '...')``, cut at :data:`STDERR_SHOWN` characters; ''
        when the program wrote nothing on stderr."""
        last = [ln for ln in self.sink.text().splitlines() if ln.strip()]
        if not last:
            return ""
        line = last[-1]
        cut = f"... ({len(line)} characters)" if len(line) > STDERR_SHOWN else ""
        return f" (last stderr line: {line[:STDERR_SHOWN]!r}{cut})"

    def close(self) -> None:
        """Close stdin (a polite program exits by itself), then kill the program,
        its group and every process carrying its token; safe to call twice."""
        if self._finalizer is None:
            return
        self._pending.put(None)
        try:
            self.proc.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass
        self._finalizer()  # kills group and token (even if the program already exited)
        self._finalizer = None
        reader, _, collector = self._threads
        for t in self._threads:
            t.join(timeout=1)
        # a stream is closed only once its thread is done with it (closing a buffered
        # stream under a blocked reader would wait for that reader); a process that
        # escaped the group and still holds the pipe leaves it to the garbage collector
        for stream, t in ((self.proc.stdout, reader), (self.proc.stderr, collector)):
            if not t.is_alive():
                try:
                    stream.close()
                except OSError:
                    pass
