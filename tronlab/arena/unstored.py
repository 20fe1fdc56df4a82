"""Finished games a run could not store, kept beside the database for the next run.

A game can finish just as its row cannot be written: another process held the write
lock past :data:`~tronlab.arena.store.LOCK_WAIT`, the disk is full, or Ctrl-C came
while the run waited for the lock.  The run then stops, and the game was lost: a rerun
played it again.  :func:`add_or_keep` appends such a row to a JSON-lines file beside
the database (:func:`unstored_path`: ``results.sqlite.unstored.jsonl``), and the next
run on that database stores the rows found there before anything else
(:func:`store_kept`), then removes the file.  A line cut short (a kill -9 while it was
written) is passed over: that game is played again.

>>> import os, tempfile
>>> from tronlab.arena.store import Store
>>> db = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite"))
>>> row = {"key": "k1", "game": "google2010", "bots": ["a", "b"], "names": ["a", "b"],
...        "map": "m", "map_set": "s", "seed": 1, "winner": 0, "ranks": [0, 1], "turns": 3,
...        "faults": [None, None], "record": "{}"}
>>> keep(db.path, row)
True
>>> store_kept(db), db.done_keys(), os.path.exists(unstored_path(db.path))
(1, {'k1'}, False)
"""

from __future__ import annotations

import json
import os

from .store import _COLUMNS, CannotWrite

#: what a kept row must hold to be stored (the games table's NOT NULL columns)
_NEEDED = frozenset(("key", "game", "bots", "names", "map", "map_set", "seed", "ranks",
                     "turns", "faults", "record"))


def unstored_path(db) -> str:
    """The file beside the database ``db`` holding the finished games not stored in it."""
    return os.fspath(db) + ".unstored.jsonl"


def keep(db, row) -> bool:
    """Append ``row`` (its stored columns and record) to :func:`unstored_path` of ``db``,
    on disk before this returns; False if the file cannot be written either (a full disk)."""
    try:
        line = json.dumps({k: v for k, v in row.items() if k in _COLUMNS or k == "record"})
        with open(unstored_path(db), "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
    except (OSError, TypeError, ValueError):   # no room, or a value JSON cannot hold
        return False
    return True


def add_or_keep(store, row, result) -> None:
    """``store.add(row)``, counted in ``result`` (``played``, ``rows``) unless it was
    stored already.  When it raises (:class:`~tronlab.arena.store.CannotWrite`, a Ctrl-C),
    a row the database has (a Ctrl-C that came after the COMMIT) still counts (the run's
    summary must match the database), and one it has not is kept beside it (:func:`keep`)
    and its key put in ``result.kept``; then the exception goes on."""
    added = False
    try:
        added = store.add(row)
    except (KeyboardInterrupt, CannotWrite):
        added = row["key"] in store.done_keys()
        if not added and keep(store.path, row):
            result.kept.append(row["key"])
        raise
    finally:
        if added:
            result.played += 1
            result.rows.append(row)


def store_kept(store) -> int:
    """Store the games kept beside ``store``'s database by a run that could not write them
    (one transaction each), then remove the file; how many were stored now (a game stored
    meanwhile is not stored twice).  :class:`~tronlab.arena.store.CannotWrite` when the
    database still cannot be written: the file stays for the next run."""
    path = unstored_path(store.path)
    data = _read(path)
    if data is None:            # none (the usual case), or not readable: left alone
        return 0
    stored = 0
    for row in _rows(data):
        stored += store.add(row)
    try:
        if os.path.getsize(path) == len(data):
            os.remove(path)     # else a run that stopped meanwhile kept another: next time
    except OSError:
        pass
    return stored


def kept_rows(db) -> list[dict]:
    """The rows kept beside the database ``db`` (none when there is no such file), for
    ``arena table`` to say that the next run stores them."""
    data = _read(unstored_path(db))
    return [] if data is None else list(_rows(data))


def _read(path) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _rows(data: bytes):
    """The whole rows of a kept file's ``data``."""
    for line in data.splitlines():
        try:
            row = json.loads(line)
        except ValueError:      # cut short by a kill -9 while it was written
            continue
        if isinstance(row, dict) and _NEEDED <= row.keys():
            yield row


def file_changed(row, result) -> bool:
    """Whether ``row`` holds no game because a bot's file changed since the plan
    (:func:`~tronlab.arena.play.play_spec`); counted in ``result.changed``."""
    for name in row.get("changed", ()):
        result.changed[name] = result.changed.get(name, 0) + 1
    return "changed" in row


def finished(futures) -> list:
    """The rows of the games of ``futures`` that finished (not cancelled, raised nothing)."""
    return [f.result() for f in futures
            if f.done() and not f.cancelled() and f.exception() is None]


def store_or_keep(store, rows, result, write=True) -> None:
    """The rows of games that finished while a stopped run was not reading them (another
    worker's game, while this one waited for the write lock): stored when ``write`` (the
    run did not stop because the database cannot be written, nor while it waited for the
    lock: ``result.kept``) and it works, else kept beside the database (:func:`keep`),
    never lost: a stopped run does not wait for the lock again.  A bot's changed file: no
    game."""
    write = write and not result.kept
    for row in rows:
        if file_changed(row, result):
            continue
        if write:
            try:
                add_or_keep(store, row, result)
            except (KeyboardInterrupt, CannotWrite):
                write = False   # a second Ctrl-C, the lock taken meanwhile: keep the rest
            continue
        if keep(store.path, row):
            result.kept.append(row["key"])
