"""A contest program's stderr, kept within bounds: :class:`StderrSink` reads it in a
thread of its own (:class:`tronlab.runner.program.Program`), keeps the first
``STDERR_CAP`` bytes and the last ``STDERR_TAIL``, and counts those dropped between."""

from __future__ import annotations

import threading

STDERR_CAP = 64 * 1024
STDERR_TAIL = 4 * 1024  # bytes of the end of a longer stderr kept too (the crash's words)


class StderrSink:
    """Collects a program's stderr, keeping the first ``STDERR_CAP`` bytes and the last
    ``STDERR_TAIL``: the end is where a crash says why (a program that logged 200 KiB
    and then raised was reported with "last stderr line: '[tronlab: ... dropped]'")."""

    def __init__(self):
        self.data = bytearray()
        self.tail = bytearray()     # the last bytes past the first STDERR_CAP
        self.dropped = 0            # bytes past the first STDERR_CAP, the tail's included
        self.lock = threading.Lock()

    def run(self, stream) -> None:
        try:
            while True:
                chunk = stream.read1(4096)
                if not chunk:
                    break
                with self.lock:
                    room = max(STDERR_CAP - len(self.data), 0)
                    self.data += chunk[:room]
                    if len(chunk) > room:
                        self.dropped += len(chunk) - room
                        self.tail = (self.tail + chunk[room:])[-STDERR_TAIL:]
        except (OSError, ValueError):
            pass

    def text(self) -> str:
        with self.lock:
            text = self.data.decode("utf-8", errors="replace")
            skipped = self.dropped - len(self.tail)
            if skipped:
                text += f"\n[tronlab: {skipped} more bytes of stderr dropped]\n"
            return text + self.tail.decode("utf-8", errors="replace")
