"""Claims: which run is playing which game, so that runs sharing one database share its games.

A run claims each game just before it plays it (one ``BEGIN IMMEDIATE`` transaction: the
game is not stored and no live run holds it), and :meth:`~tronlab.arena.store.Store.add`
drops the claim in the transaction that stores the game.  A second run on the same
database (a second terminal for more cores, a rerun while the first still runs) skips the
games a live run holds and plays the others.  A run that ends drops the claims it still
holds (:meth:`Claims.release`), and a claim never blocks a game for ever:

* a claimant on this host is alive only if its pid runs *and* started when the claimant
  did (the boot and the start tick of ``/proc/PID/stat``: a pid reused after a ``kill -9``
  is another process); without ``/proc``, if its pid runs;
* a claimant on another host (a disk shared by several machines) renews its claims each
  time it claims a game; claims not renewed for :data:`STALE` seconds lapse;
* a claim of this very process (a run in a notebook interrupted while it dropped its
  claims) is this run's own.

The claimant is the process that runs the tournament, also where a pool or a Dask cluster
plays the games.

>>> import os, tempfile
>>> from tronlab.arena.store import Store
>>> db = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite"))
>>> mine, other = Claims(db), Claims(db, me=("elsewhere", 1, "x"))
>>> mine.claim(["k1", "k2"]), other.claim(["k1", "k3"]), list(other.held)
(['k1', 'k2'], ['k3'], ['k1'])
"""

from __future__ import annotations

import os
import socket
import time

from ..runner.reprs import plural

#: created when a database is opened for writing (an older database gets it then)
SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (
    key      TEXT PRIMARY KEY,   -- the game's key
    host     TEXT NOT NULL,      -- the claimant: its host, pid and start (see claims.py)
    pid      INTEGER NOT NULL,
    started  TEXT NOT NULL,
    renewed  REAL NOT NULL       -- unix time the claimant last claimed a game
)"""

#: seconds after which the claim of a run on another host lapses when not renewed
STALE = 3600.0
#: seconds a run that ends waits for the write lock to drop its claims
RELEASE_WAIT = 5.0


def process_start(pid: int) -> str | None:
    """What tells process ``pid`` from a later one with the same pid: the boot's id and the
    start tick (``/proc``); '' where that is not known, None when no process ``pid`` runs."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            stat = f.read()
    except FileNotFoundError:
        return None if os.path.isdir("/proc/self") else ""
    except OSError:
        return ""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
    except OSError:         # a container without it: the start tick alone
        boot = ""
    return f"{boot}:{stat[stat.rindex(')') + 2:].split()[19]}"     # field 22, starttime


def _runs(pid: int, started: str) -> bool:
    """Whether the process that made a claim on this host still runs."""
    now = process_start(pid)
    if now is None:
        return False
    if now or started:
        return now == started
    if os.name == "nt":             # os.kill would end it: trust the claim
        return True
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def this_process() -> tuple:
    """The claimant this process is: (host, pid, start)."""
    return socket.gethostname(), os.getpid(), process_start(os.getpid()) or ""


class Claims:
    """The claims of one run on ``store``'s database; ``held`` maps each game it left to a
    live run to that run's pid (host-qualified when another host's)."""

    def __init__(self, store, *, me=None):
        self.store, self.conn = store, store.conn
        self.me = tuple(me or this_process())
        self.held: dict = {}
        self.passed = 0         # games not claimed: held by another run, or stored by it

    def _live(self, host, pid, started, renewed) -> bool:
        if (host, pid, started) == self.me:
            return False
        if host == self.me[0]:
            return _runs(pid, started)
        return time.time() - renewed < STALE

    def claim(self, keys) -> list:
        """Claim the games ``keys`` not stored and held by no live run (one transaction);
        the keys claimed.  Those a live run holds go to :attr:`held`."""
        got = []
        with self.store.writing() as conn:      # CannotWrite: another process kept it...
            for key in keys:
                if conn.execute("SELECT 1 FROM games WHERE key = ?", (key,)).fetchone():
                    self.passed += 1        # another run played it meanwhile
                    continue
                found = conn.execute("SELECT host, pid, started, renewed FROM claims "
                                     "WHERE key = ?", (key,)).fetchone()
                if found is not None and self._live(*found):
                    self.held[key] = found[1] if found[0] == self.me[0] \
                        else f"{found[1]} on {found[0]}"
                    self.passed += 1
                    continue
                conn.execute("INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?, ?)",
                             (key, *self.me, time.time()))
                got.append(key)
            conn.execute("UPDATE claims SET renewed = ? WHERE host = ? AND pid = ? AND "
                         "started = ?", (time.time(), *self.me))
        return got

    def release(self) -> None:
        """Drop the claims this run still holds (games it did not finish), waiting at most
        :data:`RELEASE_WAIT` for the write lock: a run that stopped because another
        process kept the database locked says so a minute sooner."""
        from .store import CannotWrite, LOCK_WAIT
        try:
            with self.store.writing(min(LOCK_WAIT, RELEASE_WAIT)) as conn:
                conn.execute("DELETE FROM claims WHERE host = ? AND pid = ? AND started = ?",
                             self.me)
        except CannotWrite:
            pass            # left behind: they lapse when this process has ended

    def still_held(self, done) -> dict:
        """:attr:`held` without the games in ``done`` (stored keys) since."""
        return {k: v for k, v in self.held.items() if k not in done}


def held_line(held) -> str:
    """One line for the games (key -> pid) left to other runs that are playing them."""
    pids = sorted(set(map(str, held.values())))
    runs = f"another run (pid {pids[0]})" if len(pids) == 1 else \
        f"other runs (pids {', '.join(pids)})"
    return (f"{plural(len(held), 'game')} {'is' if len(held) == 1 else 'are'} being played "
            f"by {runs}: not in the table above yet")
