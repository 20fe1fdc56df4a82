"""How many bytes a pipe holds, counted from its writing end.

:meth:`tronlab.runner.program.Program.wait_read` holds only a program's stdin, the
writing end of its pipe, and asks it whether the program has read all it was sent.
Platforms answer that differently, so :func:`pipe_counter` tries each way once on a
pipe of its own and keeps the first that tells the truth.
"""

from __future__ import annotations

import functools
import os
import sys


def ioctl_held(fd: int) -> int:
    """The bytes the pipe of ``fd`` holds, by the FIONREAD ioctl (an error where there
    is none: ImportError, AttributeError, OSError)."""
    import fcntl
    import termios
    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, bytes(4)), sys.byteorder)


def fstat_held(fd: int) -> int:
    """The bytes the pipe of ``fd`` holds, as ``fstat`` tells them (its size)."""
    return os.fstat(fd).st_size


@functools.cache
def pipe_counter():
    """A function telling the bytes a pipe holds from its *writing* end, which is all
    a program's stdin is here, or None where nothing tells it.  Linux counts them for
    FIONREAD on either end; macOS's FIONREAD on the writing end always says 0 (the
    bytes wait at the reading end), while its ``fstat`` of that end tells them as the
    size.  So each way is tried once, on a pipe of our own holding one byte, and the
    first that says 1 is used."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        os.write(write_end, b"x")
        for counter in (ioctl_held, fstat_held):
            try:
                if counter(write_end) == 1:
                    return counter
            except (ImportError, AttributeError, OSError):
                pass
        return None
    finally:
        os.close(read_end)
        os.close(write_end)
