"""Taking the results database's write lock so that Ctrl-C still stops the wait.

SQLite waits for a lock another process holds in its busy handler, in C: Python runs
no signal handler meanwhile, so a Ctrl-C (or the SIGTERM ``arena run`` treats as one)
came only when the whole busy timeout had passed, up to a minute
(:data:`~tronlab.arena.store.LOCK_WAIT`).  :func:`begin_immediate` waits in short
steps instead (a busy timeout of :data:`STEP` seconds a try, tried again from Python
until the wait is over), so a Ctrl-C lands within a step.  SQLite keeps no queue of
waiting connections, so waiting in steps takes the lock as soon as waiting at once did.

>>> import os, sqlite3, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "t.sqlite")
>>> conn = sqlite3.connect(path, isolation_level=None)
>>> begin_immediate(conn, 1.0); conn.in_transaction
True
>>> other = sqlite3.connect(path, isolation_level=None)
>>> begin_immediate(other, 0.05)
Traceback (most recent call last):
  ...
sqlite3.OperationalError: database is locked
"""

from __future__ import annotations

import contextlib
import sqlite3
import time

#: seconds SQLite's own busy handler waits in one try, uninterruptible
STEP = 0.1


def is_locked(err: BaseException) -> bool:
    """Whether ``err`` is SQLite's 'database is locked' (busy), worth waiting out."""
    text = str(err).lower()
    return isinstance(err, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


@contextlib.contextmanager
def busy_timeout(conn, seconds: float):
    """``conn``'s busy timeout set to ``seconds`` for the block, then put back."""
    old = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute(f"PRAGMA busy_timeout = {max(1, int(seconds * 1000))}")
    try:
        yield conn
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(old)}")


def begin_immediate(conn, wait: float) -> None:
    """``BEGIN IMMEDIATE`` on ``conn``, waiting up to ``wait`` seconds for another
    process's write lock, in steps of :data:`STEP`; the last 'database is locked' error
    when the lock is still held then.  Other SQLite errors are raised at once."""
    end = time.monotonic() + wait
    with busy_timeout(conn, min(STEP, wait)):
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as err:
                if not is_locked(err) or time.monotonic() >= end:
                    raise
