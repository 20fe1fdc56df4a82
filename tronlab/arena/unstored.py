"""Finished games a run could not store, kept beside the database for the next run.

A game can finish just as its row cannot be written: another process held the write
lock past :data:`~tronlab.arena.store.LOCK_WAIT`, the disk is full, or Ctrl-C came
while the run waited for the lock.  The run then stops, and the game was lost: a rerun
played it again.  :func:`add_or_keep` appends such a row to a JSON-lines file beside
the database (:func:`unstored_path`: ``results.sqlite.unstored.jsonl``), and the next
run on that database stores the rows found there before anything else
(:func:`store_kept`), then removes the file.  A line cut short (a kill -9 while it was
written) is passed over: that game is played again.

A process pool's worker also writes each game it finished to a file of its own
(:func:`journal_path`) before handing the row back: a run killed with the row still in
the pool's pipe (kill -9, the machine going down) loses no finished game either.  The
run stores what its workers wrote and removes their files when it ends
(:func:`store_journals`); after a kill the next run finds them with the others
(:func:`kept_files`).

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


def journal_path(db, run: int, worker: int) -> str:
    """The file where worker process ``worker`` of the run of process ``run`` writes the
    games it finished (:func:`keep`) for the database ``db``."""
    return f"{os.fspath(db)}.unstored.{run}.{worker}.jsonl"


def kept_files(db, run: int | None = None) -> list[str]:
    """The files beside the database ``db`` that hold finished games no live run will
    store: the :func:`unstored_path` (first, when it exists) and the :func:`journal_path`
    files of runs that ended (:func:`run_alive`); or, given ``run``, only the journals of
    the run of that process (:func:`store_journals`)."""
    folder, name = os.path.split(os.fspath(db))
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return []
    head = f"{name}.unstored."
    journals, alive = [], {}
    for entry in names:
        pids = entry[len(head):-len(".jsonl")].split(".")
        if not (entry.startswith(head) and entry.endswith(".jsonl") and len(pids) == 2
                and all(p.isdigit() for p in pids)):
            continue
        if run is None:
            if pids[0] not in alive:
                alive[pids[0]] = run_alive(db, int(pids[0]))
            if not alive[pids[0]]:
                journals.append(os.path.join(folder, entry))
        elif pids[0] == str(run):
            journals.append(os.path.join(folder, entry))
    main = [] if run is not None or name + ".unstored.jsonl" not in names \
        else [unstored_path(db)]
    return main + sorted(journals)


def _marker(db, run: int) -> str:
    return f"{os.fspath(db)}.unstored.{run}.run"


def hold_run(db):
    """Mark this process as a run whose pool workers write journals for ``db``: a file
    locked for as long as the process lives (the system drops the lock at a kill -9).
    Another run then leaves this one's journals alone (:func:`kept_files`).  The open
    file, for :func:`end_run`; None where files cannot be locked (not POSIX)."""
    try:
        import fcntl
        f = open(_marker(db, os.getpid()), "w")
    except (ImportError, OSError):
        return None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        return None
    return f


def end_run(db, held) -> None:
    """Drop the mark :func:`hold_run` made."""
    if held is not None:
        try:
            os.remove(_marker(db, os.getpid()))
        except OSError:
            pass
        held.close()


def run_alive(db, run: int) -> bool:
    """Whether the run of process ``run`` still holds its mark (:func:`hold_run`) for
    ``db``, so its journals are its own to store.  A run that ended or was killed holds
    none; a mark it left (a kill -9) is removed here, where it is found unlocked."""
    if run == os.getpid():
        return False            # a mark left by an earlier process with this pid
    try:
        import fcntl
        f = open(_marker(db, run), "r")
    except (ImportError, OSError):
        return False
    try:
        fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        f.close()
    try:
        os.remove(_marker(db, run))
    except OSError:
        pass
    return False


def keep(db, row, path=None) -> bool:
    """Append ``row`` (its stored columns and record) to ``path`` (default: the
    :func:`unstored_path` of ``db``), on disk before this returns; False if the file
    cannot be written either (a full disk)."""
    try:
        line = json.dumps({k: v for k, v in row.items() if k in _COLUMNS or k == "record"})
        with open(unstored_path(db) if path is None else path, "a", encoding="utf-8") as f:
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
    """Store the games kept beside ``store``'s database (:func:`kept_files`) by a run that
    could not write them or was killed (one transaction each), then remove the files;
    how many were stored now (a game stored meanwhile is not stored twice).
    :class:`~tronlab.arena.store.CannotWrite` when the database still cannot be written:
    the files stay for the next run."""
    stored = 0
    for path in kept_files(store.path):
        stored += _store_file(path, store.add)
    return stored


def store_journals(store, result) -> None:
    """At the end of a run: store what the run's pool workers wrote (:func:`journal_path`)
    and the run did not (a game that finished as the run stopped), counted in ``result``
    as :func:`add_or_keep` counts, and remove their files.  When the database cannot be
    written the files stay, and the next run stores them."""
    def add(row):
        if row["key"] in done:
            return False
        add_or_keep(store, row, result)
        return True

    done = store.done_keys()
    try:
        for path in kept_files(store.path, run=os.getpid()):
            _store_file(path, add)
    except (KeyboardInterrupt, CannotWrite):
        pass


def _store_file(path, add) -> int:
    """``add(row)`` for each row of the file ``path``, then remove it unless it grew
    meanwhile (a worker still writing: the next run); how many ``add`` stored."""
    data = _read(path)
    if data is None:            # gone meanwhile, or not readable: left alone
        return 0
    stored = sum(bool(add(row)) for row in _rows(data))
    try:
        if os.path.getsize(path) == len(data):
            os.remove(path)     # else a run that stopped meanwhile kept another: next time
    except OSError:
        pass
    return stored


def kept_rows(db) -> list[dict]:
    """The rows kept beside the database ``db`` (:func:`kept_files`; none when there are
    no such files), for ``arena table`` to say that the next run stores them."""
    rows = []
    for path in kept_files(db):
        data = _read(path)
        rows += [] if data is None else list(_rows(data))
    return rows


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
