"""The results of tournaments: one SQLite database, one row per finished game.

Each row holds who played in which seat, where, the result by seat and the
game's full record (JSON, replayable with :func:`record_of`).  A row is written
in one transaction when its game ends, so a run killed at any moment - kill -9
included - loses no finished game and leaves a database that passes
``PRAGMA integrity_check``; an unfinished game is simply not there, and a rerun
of the same plan plays only the games whose key is missing.  The database is
in WAL mode with a busy timeout, so several runs (several processes, several
machines sharing a disk that supports locking) can add to one file; they share the
games through the ``claims`` table (:mod:`tronlab.arena.claims`), and a game two
runs both played anyway is kept once (``INSERT OR IGNORE`` on its key).

>>> import os, tempfile
>>> db = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite"))
>>> db.add({"key": "k1", "game": "google2010", "bots": ["a", "b"], "names": ["a", "b"],
...         "map": "m", "map_set": "s", "seed": 1, "winner": 0, "ranks": [0, 1], "turns": 3,
...         "faults": [None, "crash"], "record": "{}"})
True
>>> db.done_keys(), len(db.rows()), db.integrity_check()
({'k1'}, 1, 'ok')
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import sqlite3
import time

from ..tron.values import is_whole
from .claims import SCHEMA as CLAIMS
from .storelock import STEP, begin_immediate, is_locked as _locked

#: the schema, one statement each: created in one transaction when missing
SCHEMA = ("""
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    key      TEXT NOT NULL UNIQUE,
    tag      TEXT NOT NULL DEFAULT '',
    game     TEXT NOT NULL,
    bots     TEXT NOT NULL,      -- JSON list of bot specs, in seat order
    names    TEXT NOT NULL,      -- JSON list of bot names, in seat order
    map      TEXT NOT NULL,
    map_set  TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    time     REAL,
    depth    INTEGER,
    winner   INTEGER,            -- seat of the winner, NULL for a draw
    ranks    TEXT NOT NULL,      -- JSON list: 0 = first, equal numbers = shared place
    turns    INTEGER NOT NULL,
    faults   TEXT NOT NULL,      -- JSON list: death or fault code by seat, or null
    depths   TEXT,               -- JSON list: mean search depth by seat, or null
    seconds  REAL,
    created  TEXT NOT NULL,
    record   TEXT NOT NULL,      -- the full game record (JSON)
    bank     REAL,               -- Light Riders time bank (s), time then added a move
    slow     TEXT,               -- JSON list by seat: a program's [late, worst s, turn]
                                 -- against the contest's own clock, or null
    taken    INTEGER             -- when a run last took the game as its own, counted with
                                 -- the ids (NULL: its id): latest_versions keeps the last
)""",
          "CREATE INDEX IF NOT EXISTS games_tag ON games (tag)")
_JSON = ("bots", "names", "ranks", "faults", "depths", "slow")
_COLUMNS = ("id", "key", "tag", "game", "bots", "names", "map", "map_set", "seed", "time", "depth",
            "winner", "ranks", "turns", "faults", "depths", "seconds", "created", "bank", "slow",
            "taken")
#: columns added since the first schema, with their type: added to an older database
_ADDED = {"bank": "REAL", "slow": "TEXT", "taken": "INTEGER"}
#: the next value of ``taken``: after every game's, whether a run took it or it was added
_NEXT_TAKEN = "(SELECT coalesce(max(coalesce(taken, id)), 0) + 1 FROM games)"


#: seconds a run waits for another run that holds the database (busy timeout and retries)
LOCK_WAIT = 60.0


class CannotWrite(ValueError):
    """A write to the results database failed (another process held its write lock past
    ``LOCK_WAIT``, the disk is full): a run stops keeping the games stored, a command
    says so in one line."""


def _open(path: str) -> sqlite3.Connection:
    """A connection in WAL mode with the schema in place.

    Two runs opening a new database at the same moment can each get SQLITE_BUSY at once,
    without the busy timeout's wait: SQLite refuses to wait where waiting could deadlock (two
    connections both upgrading a read lock, as switching to WAL or creating a table does).
    The schema is therefore created under ``BEGIN IMMEDIATE`` (the write lock first, which does
    wait), and :class:`Store` retries the whole opening while the database is locked.  Each
    try waits :data:`~tronlab.arena.storelock.STEP` at most, so that Ctrl-C stops the wait
    (SQLite's busy handler runs no Python); the connection then waits ``LOCK_WAIT``."""
    conn = sqlite3.connect(path, timeout=STEP, isolation_level=None)
    try:
        tables = sorted(name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"))
        if tables and "games" not in tables:    # another program's database: not a byte of it
            raise sqlite3.DatabaseError(f"it holds other tables ({', '.join(tables[:5])}) "
                                        f"and no games table")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("BEGIN IMMEDIATE")
        for statement in SCHEMA + (CLAIMS,):
            conn.execute(statement)
        found = _columns(conn)
        for column, kind in _ADDED.items():
            if column not in found:         # a database of an older tronlab
                conn.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
        conn.execute("COMMIT")
        conn.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT * 1000)}")
    except BaseException:
        conn.close()
        raise
    return conn


def _columns(conn) -> set:
    """The columns the ``games`` table has."""
    return {row[1] for row in conn.execute("PRAGMA table_info(games)")}


def _open_read_only(path: str) -> sqlite3.Connection:
    """A connection that never writes, for reading a database this process may not
    write (a copy handed round a class, a file on read-only media).  SQLite reads a
    WAL database read-only only if it may still write the shared-memory file beside
    it; where it may not, the file is opened as immutable: fine for a database no run
    is writing to, which is the case when nobody may write its folder."""
    from urllib.parse import quote

    uri = "file:" + quote(os.path.abspath(path))
    last = None
    for extra in ("?mode=ro", "?mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(uri + extra, uri=True, timeout=LOCK_WAIT,
                                   isolation_level=None)
        except sqlite3.DatabaseError as err:
            last = err
            continue
        try:
            found = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                 "AND name = 'games'").fetchone()
        except sqlite3.DatabaseError as err:
            conn.close()
            if "not a database" in str(err) or "malformed" in str(err):
                raise
            last = err
            continue
        if found is None:
            conn.close()
            raise sqlite3.DatabaseError("it has no games table")
        return conn
    raise last


class Store:
    """A results database at ``path`` (created when missing).  ``read_only=True``
    opens an existing one for reading only (tables, replays): it needs no write
    permission to the file and never changes it."""

    def __init__(self, path, *, read_only: bool = False):
        self.path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(self.path))
        if read_only:
            if not os.path.isfile(self.path):
                raise ValueError(f"no results database {self.path!r}")
            try:
                self.conn = _open_read_only(self.path)
            except sqlite3.DatabaseError as err:
                raise ValueError(f"{self.path} is not a tronlab results database: {err}"
                                 ) from None
            return
        if not os.path.isdir(folder):
            raise ValueError(f"cannot open the results database {self.path!r}: "
                             f"no folder {folder!r}")
        start = time.monotonic()
        while True:
            try:
                self.conn = _open(self.path)
                return
            except sqlite3.DatabaseError as err:
                if not _locked(err):
                    raise ValueError(f"{self.path} is not a tronlab results database: {err}"
                                     ) from None
                waited = time.monotonic() - start
                if waited >= LOCK_WAIT:
                    raise ValueError(f"cannot open the results database {self.path}: another "
                                     f"process kept it locked for {waited:.0f} s") from None
                time.sleep(0.05)

    def close(self) -> None:
        self.conn.close()

    @contextlib.contextmanager
    def writing(self, wait: float | None = None):
        """One write transaction: ``BEGIN IMMEDIATE`` (the write lock, waited for up to
        ``wait`` seconds, ``LOCK_WAIT`` by default, in steps that Ctrl-C can stop:
        :mod:`~tronlab.arena.storelock`), then ``COMMIT``, or ``ROLLBACK`` on any
        error.  A SQLite error (the lock still held by another process, a full disk) is
        :class:`CannotWrite` naming the file and what to do."""
        wait = LOCK_WAIT if wait is None else wait
        try:
            begin_immediate(self.conn, wait)
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as err:
            # a Ctrl-C can land after COMMIT has returned: then there is nothing to undo
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            if not isinstance(err, sqlite3.Error):
                raise
            why = (f"another process held its write lock for more than {wait:g} s "
                   f"(another 'tronlab arena run' writing to it?); wait for it to end and run "
                   f"the same command again, or give this run its own --db") if _locked(err) \
                else f"SQLite says: {err}"
            raise CannotWrite(f"cannot write {self.path}: {why}") from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def add(self, row: dict) -> bool:
        """Write one finished game in one transaction; False if its key was there already.
        A game written gets its ``id`` in ``row`` (``arena replay DB ID`` shows it)."""
        values = {c: row.get(c) for c in _COLUMNS if c not in ("id", "created", "taken")}
        for c in _JSON:
            values[c] = None if values[c] is None else json.dumps(values[c])
        values["tag"] = values["tag"] or ""
        values["record"] = row["record"]
        values["created"] = datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds")
        cols = ", ".join(values) + ", taken"
        marks = ", ".join(f":{c}" for c in values) + f", {_NEXT_TAKEN}"
        with self.writing() as conn:
            cur = conn.execute(f"INSERT OR IGNORE INTO games ({cols}) VALUES ({marks})", values)
            conn.execute("DELETE FROM claims WHERE key = ?", (values["key"],))
        if cur.rowcount == 1:
            row["id"] = cur.lastrowid
        return cur.rowcount == 1

    def take(self, keys) -> int:
        """Make the stored games of ``keys`` the ones :func:`latest_versions` keeps again
        (one transaction), where a later version's game of the same slot stood: a run
        whose plan holds them again (a student went back to an earlier file) counts them,
        and so must ``arena table`` and ``arena export``.  Returns how many were taken."""
        keys = set(keys)

        def stale():
            rows = self.rows()
            standing = {r["id"] for r in latest_versions(rows)[0]}
            return [r["id"] for r in rows if r["key"] in keys and r["id"] not in standing]

        if not stale():                 # the usual case: no write lock taken
            return 0
        with self.writing() as conn:
            ids = stale()
            for game_id in ids:
                conn.execute(f"UPDATE games SET taken = {_NEXT_TAKEN} WHERE id = ?", (game_id,))
        return len(ids)

    def done_keys(self) -> set:
        return {k for (k,) in self.conn.execute("SELECT key FROM games")}

    def rows(self, *, tag=None, game=None, keys=None) -> list[dict]:
        """The games (without records), oldest first; filtered by tag, game or keys."""
        where, args = [], []
        if tag is not None:
            where.append("tag = ?")
            args.append(tag)
        if game is not None:
            where.append("game = ?")
            args.append(game)
        # a database of an older tronlab opened read-only lacks the columns added since
        have = _columns(self.conn)
        sql = f"SELECT {', '.join(c if c in have else 'NULL' for c in _COLUMNS)} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        out = []
        for values in self.conn.execute(sql + " ORDER BY id", args):
            row = dict(zip(_COLUMNS, values))
            for c in _JSON:
                row[c] = None if row[c] is None else json.loads(row[c])
            out.append(row)
        if keys is not None:
            keys = set(keys)
            out = [r for r in out if r["key"] in keys]
        return out

    def record_json(self, game_id: int) -> str:
        """The record of game ``game_id`` as its JSON text."""
        if not is_whole(game_id) or not 0 <= game_id < 2**63:       # what SQLite can hold
            raise ValueError(f"no game {game_id!r} in {self.path}: ids are whole numbers "
                             f"from 1")
        found = self.conn.execute("SELECT record FROM games WHERE id = ?",
                                  (int(game_id),)).fetchone()
        if found is None:
            raise ValueError(f"no game {game_id} in {self.path}")
        return found[0]

    def delete_tag(self, tag: str) -> int:
        """Forget every game of ``tag`` (one transaction); returns how many."""
        with self.writing() as conn:
            cur = conn.execute("DELETE FROM games WHERE tag = ?", (tag,))
        return cur.rowcount

    def tags(self) -> list[str]:
        return [t for (t,) in self.conn.execute("SELECT DISTINCT tag FROM games ORDER BY tag")]

    def games(self) -> list[str]:
        """The games (google2010, ...) of which games are stored, sorted."""
        return [g for (g,) in self.conn.execute("SELECT DISTINCT game FROM games ORDER BY game")]

    def integrity_check(self) -> str:
        return "; ".join(r[0] for r in self.conn.execute("PRAGMA integrity_check"))


def game_slot(row) -> tuple:
    """What a game played again for a changed bot file has of the old one (a row, or a
    plan's :class:`~tronlab.arena.schedule.GameSpec`): all but the files' hash."""
    if not isinstance(row, dict):
        row = {"tag": row.tag, "game": row.game, "names": row.names, "map": row.map_label,
               "seed": row.seed, "time": row.time, "depth": row.depth, "bank": row.bank}
    return (row["tag"] or "", row["game"], tuple(row["names"]), row["map"], row["seed"],
            row["time"], row["depth"], row.get("bank"))


def _unseeded(row) -> tuple:
    """:func:`game_slot` without the seed, and the bots' specs by seat."""
    slot = game_slot(row)
    return slot[:4] + slot[5:], tuple(row["bots"])


def latest_versions(rows) -> tuple[list, int]:
    """``rows`` without the games that a changed bot file made a run play again, and how
    many were left out.  A game played again has everything of the old one (tag, game,
    bots' names by seat, map, seed, clock (time and bank), depth) but the files' hash,
    which only its key holds: of the rows alike in all of that, the one a run took last
    stands (:meth:`Store.take`: its ``taken``, else its id).  Names,
    not specs: the tables know a bot by its name, and a class folder moved or copied
    (``cap/`` to ``cap2/``) changes every spec's path but is the same class.  Its
    seeds change too (a game's seed comes from its bots' specs), so a seed is compared
    by its place among the seeds of the games of the same bots (specs) by seat, map and
    clock: the k-th seed of the moved folder's games replaces the k-th of the old one."""
    unseeded = [_unseeded(row) for row in rows]
    seeds: dict = {}
    for row, slot in zip(rows, unseeded):
        seeds.setdefault(slot, set()).add(row["seed"])
    place = {slot: {seed: k for k, seed in enumerate(sorted(found))}
             for slot, found in seeds.items()}
    latest = {}
    for row, (slot, specs) in zip(rows, unseeded):
        slot = slot + (place[slot, specs][row["seed"]],)
        order = (row.get("taken") or row["id"], row["id"])
        latest[slot] = max(latest.get(slot, order), order)
    standing = {game_id for _, game_id in latest.values()}
    kept = [r for r in rows if r["id"] in standing]
    return kept, len(rows) - len(kept)


def record_of(text: str):
    """A stored record as a GameRecord (Tron) or CaptureRecord (Back to the Code)."""
    data = json.loads(text)
    if data.get("format") == "tronlab-capture":
        from ..capture.game import CaptureRecord
        return CaptureRecord.from_dict(data)
    from ..runner.records import GameRecord
    return GameRecord.from_dict(data)


def none_stored(store, db, game, tag) -> str:
    """Why ``table --game/--tag`` has nothing to show: what is stored instead."""
    what = " ".join(filter(None, [f"of game {game!r}" if game is not None else "",
                                  f"with tag {tag!r}" if tag is not None else ""]))
    games, tags = store.games(), store.tags()
    if not games:
        return f"no games {what} are stored in {db}: it holds no games yet"
    return (f"no games {what} are stored in {db}; it holds games of "
            f"{', '.join(map(repr, games))} with tags "
            f"{', '.join(repr(t) if t else '(no tag)' for t in tags)}")
