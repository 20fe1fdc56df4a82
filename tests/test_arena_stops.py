"""How `tronlab arena run` stops when nobody reads its output any more, or when Ctrl-C
comes while its modules still load."""

import json
import os

from tronlab.arena import Store


class _ClosedAfter:
    """stdout of `arena run --verbose | head -N`: N lines go through, then the reader is
    gone and each write raises BrokenPipeError, until /dev/null is put on its descriptor
    (as the command does, so that what it prints after that goes nowhere)."""

    def __init__(self, lines):
        self.lines, self.text = lines, ""
        reader, self.fd = os.pipe()
        os.close(reader)

    def write(self, text):
        if os.path.samestat(os.fstat(self.fd), os.stat(os.devnull)):
            return len(text)
        if self.text.count("\n") >= self.lines:
            raise BrokenPipeError(32, "Broken pipe")
        self.text += text
        return len(text)

    def flush(self):
        pass

    def fileno(self):
        return self.fd


def test_a_verbose_run_whose_output_nobody_reads_stops_and_says_so_on_stderr(
        tmp_path, capsys, monkeypatch):
    from tronlab.arena.cli import main

    db = tmp_path / "p.sqlite"
    out = _ClosedAfter(2)                                   # the plan line, one game
    monkeypatch.setattr("sys.stdout", out)
    try:
        code = main(["run", "--bots", "random", "hugger", "--maps", "arena,random:1:9x9",
                     "--time", "0.05", "--db", str(db), "--no-progress", "--verbose"])
    finally:
        os.close(out.fd)
    assert code == 141                  # as a command killed by SIGPIPE
    with Store(db) as store:
        assert len(store.done_keys()) == 2
        assert store.conn.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
    err = capsys.readouterr().err
    assert err == ("stopped: nobody reads the output: 2 games finished in this run are "
                   f"stored in {db}; run the same command again to play the other 2\n")



class _CtrlCOnImport:
    """A module finder that raises KeyboardInterrupt when ``name`` is imported, as a
    Ctrl-C while Python loads it would."""

    def __init__(self, name):
        self.name = name

    def find_spec(self, name, path=None, target=None):
        if name == self.name:
            raise KeyboardInterrupt
        return None


def test_ctrl_c_while_the_arena_modules_load_exits_130_without_a_traceback(monkeypatch):
    import sys

    from tronlab.cli import main

    monkeypatch.delitem(sys.modules, "tronlab.arena.cli", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_CtrlCOnImport("tronlab.arena.cli"),
                                           *sys.meta_path])
    assert main(["arena", "run", "--bots", "random", "hugger"]) == 130


def test_a_database_another_process_keeps_locked_stops_the_run_in_one_line(
        tmp_path, capsys, monkeypatch):
    """Another process holds the write lock past the busy timeout (60 s; 0.3 s here) after
    the first game is stored.  Before: sqlite3.OperationalError: database is locked, as a
    traceback.  Now the run stops as when a worker dies: the games stored are kept and
    listed, and stderr gets one line naming the file and what to do."""
    import sqlite3

    from tronlab.arena import store as store_module
    from tronlab.arena.cli import main

    db, holder = tmp_path / "l.sqlite", []
    monkeypatch.setattr(store_module, "LOCK_WAIT", 0.3)
    real_add = store_module.Store.add

    def add_then_lock(store, row):
        stored = real_add(store, row)
        if not holder:          # another process takes the write lock and keeps it
            holder.append(sqlite3.connect(db, isolation_level=None))
            holder[0].execute("BEGIN EXCLUSIVE")
        return stored

    monkeypatch.setattr(store_module.Store, "add", add_then_lock)
    try:
        code = main(["run", "--bots", "random", "hugger", "--maps", "random:1:7x7",
                     "--time", "0.05", "--db", str(db), "--no-progress"])
    finally:
        holder[0].close()
    out, err = capsys.readouterr()
    assert code == 2
    assert err == (f"tronlab arena: error: cannot write {db}: another process held its write "
                   f"lock for more than 0.3 s (another 'tronlab arena run' writing to it?); "
                   f"wait for it to end and run the same command again, or give this run its "
                   f"own --db; the games stored so far are kept\n")
    assert f"stopped: 1 game finished in this run is stored in {db}" in out
    with Store(db) as store:
        assert len(store.done_keys()) == 1 and store.integrity_check() == "ok"
        assert store.conn.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)


def test_a_game_that_finished_as_its_write_failed_is_kept_for_the_next_run(
        tmp_path, capsys, monkeypatch):
    """Another process takes the write lock while the second game is played and keeps it
    past the busy timeout (0.3 s here).  That game was lost (the rerun played it again):
    it is kept beside the database, the 'stopped:' line says where, and the rerun stores
    it first and plays nothing."""
    import sqlite3

    from tronlab.arena import store as store_module
    from tronlab.arena import tournament
    from tronlab.arena.cli import main

    db, holder, played, real_play = tmp_path / "k.sqlite", [], [], tournament.play_spec
    monkeypatch.setattr(store_module, "LOCK_WAIT", 0.3)

    def play_then_lock(spec, *args):
        row = real_play(spec, *args)
        played.append(spec.key)
        if len(played) == 2:        # another process takes the lock while it is played
            holder.append(sqlite3.connect(db, isolation_level=None))
            holder[0].execute("BEGIN EXCLUSIVE")
        return row

    monkeypatch.setattr(tournament, "play_spec", play_then_lock)
    command = ["run", "--bots", "random", "hugger", "--maps", "random:1:7x7", "--time", "0.05",
               "--db", str(db), "--no-progress"]
    try:
        assert main(command) == 2
    finally:
        holder[0].close()
    out, err = capsys.readouterr()
    assert err.startswith(f"tronlab arena: error: cannot write {db}: another process held")
    assert (f"stopped: 1 game finished in this run is stored in {db}; 1 game finished as "
            f"the run stopped could not be stored and is kept in {db}.unstored.jsonl, which "
            f"the next run stores first; run the same command again to play the other 0\n"
            ) in out
    with Store(db) as store:
        first = store.done_keys()
        assert len(first) == 1 and store.integrity_check() == "ok"
    # the table shows the stored game and says the kept one is not in it yet
    assert main(["table", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.endswith(f"\n\n1 finished game kept in {db}.unstored.jsonl is not in this "
                        f"table: the run that played them did not store them (it was stopped "
                        f"or killed, or could not write the database); the next arena run on "
                        f"it stores them first\n"), out
    assert main(command) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"stored 1 game that an earlier run finished but did not store (it "
                          f"was stopped, or could not write the database), from "
                          f"{db}.unstored.jsonl\n2 games planned, 2 already in {db}, "
                          f"0 to play")
    assert not os.path.exists(f"{db}.unstored.jsonl")
    with Store(db) as store:
        assert len(store.done_keys() - first) == 1 and store.integrity_check() == "ok"
    assert main(["table", str(db)]) == 0
    assert "kept in" not in capsys.readouterr().out


def test_a_store_write_that_waits_out_the_lock_is_a_cannot_write_error(tmp_path, monkeypatch):
    import sqlite3

    from tronlab.arena import store as store_module
    from tronlab.arena.claims import Claims

    monkeypatch.setattr(store_module, "LOCK_WAIT", 0.1)
    with Store(tmp_path / "s.sqlite") as store:
        other = sqlite3.connect(store.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            row = {"key": "k", "game": "google2010", "bots": ["a", "b"], "names": ["a", "b"],
                   "map": "m", "map_set": "s", "seed": 1, "winner": 0, "ranks": [0, 1],
                   "turns": 3, "faults": [None, None], "record": "{}"}
            for write in (lambda: store.add(row), lambda: Claims(store).claim(["k"]),
                          lambda: store.delete_tag("t")):
                try:
                    write()
                except store_module.CannotWrite as err:
                    assert f"cannot write {store.path}: another process" in str(err)
                else:
                    raise AssertionError("wrote through another process's lock")
        finally:
            other.close()
        assert not store.conn.in_transaction


def test_dropping_the_claims_waits_seconds_not_the_minute_of_a_game_write(tmp_path, monkeypatch):
    """A run stopped by a locked database still drops its claims at the end; that waited
    the whole busy timeout again (60 s) before the error could be printed."""
    import sqlite3
    import time

    from tronlab.arena import claims as claims_module

    monkeypatch.setattr(claims_module, "RELEASE_WAIT", 0.1)
    with Store(tmp_path / "c.sqlite") as store:        # the busy timeout: LOCK_WAIT, 60 s
        claims = claims_module.Claims(store)
        assert claims.claim(["k"]) == ["k"]
        other = sqlite3.connect(store.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        t0 = time.monotonic()
        try:
            claims.release()        # cannot: the claim lapses when this process ends
        finally:
            other.close()
        assert time.monotonic() - t0 < 5
        assert store.conn.execute("PRAGMA busy_timeout").fetchone() == (60000,)
        claims.release()
        assert store.conn.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)


def test_a_full_disk_is_a_cannot_write_error_and_keeps_the_games_stored(tmp_path):
    """Before: sqlite3.OperationalError: database or disk is full, as a traceback that
    ended the run (PRAGMA max_page_count makes the disk full here)."""
    from tronlab.arena import store as store_module

    def row(key):
        return {"key": key, "game": "google2010", "bots": ["a", "b"], "names": ["a", "b"],
                "map": "m", "map_set": "s", "seed": 1, "winner": 0, "ranks": [0, 1],
                "turns": 3, "faults": [None, None], "record": "x" * 5000}

    with Store(tmp_path / "f.sqlite") as store:
        assert store.add(row("k1"))
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages}")
        try:
            store.add(row("k2"))
        except store_module.CannotWrite as err:
            assert str(err) == f"cannot write {store.path}: SQLite says: database or disk is full"
        else:
            raise AssertionError("a full disk took the game")
        assert store.done_keys() == {"k1"} and not store.conn.in_transaction


def _row(key, record="{}"):
    return {"key": key, "game": "google2010", "bots": ["a", "b"], "names": ["a", "b"],
            "map": "m", "map_set": "s", "seed": 1, "winner": 0, "ranks": [0, 1],
            "turns": 3, "faults": [None, None], "record": record}


def test_ctrl_c_stops_a_wait_for_another_process_s_write_lock_at_once(tmp_path, monkeypatch):
    """SQLite's busy handler runs no Python: a Ctrl-C while another process held the write
    lock came only when the busy timeout (LOCK_WAIT, 60 s; 3 s here) had passed, both when
    a game was stored and when the database was opened.  Now it comes within a step
    (0.1 s), the game is kept beside the database, and the busy timeout is put back."""
    import _thread
    import sqlite3
    import threading
    import time

    from tronlab.arena import store as store_module
    from tronlab.arena.tournament import RunResult
    from tronlab.arena.unstored import add_or_keep, unstored_path

    monkeypatch.setattr(store_module, "LOCK_WAIT", 3.0)
    with Store(tmp_path / "i.sqlite") as store:
        other = sqlite3.connect(store.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        result = RunResult(planned=1, skipped=0)
        try:
            for write in (lambda: add_or_keep(store, _row("k"), result),
                          lambda: Store(store.path)):
                timer = threading.Timer(0.1, _thread.interrupt_main)
                t0 = time.monotonic()
                timer.start()
                try:
                    write()
                except KeyboardInterrupt:
                    waited = time.monotonic() - t0
                else:
                    raise AssertionError("wrote through another process's lock")
                finally:
                    timer.join()
                assert waited < 0.6, waited
        finally:
            other.close()
        assert not store.conn.in_transaction
        assert store.conn.execute("PRAGMA busy_timeout").fetchone() == (3000,)
        assert result.kept == ["k"] and result.played == 0
        with open(unstored_path(store.path), encoding="utf-8") as f:
            assert [json.loads(line)["key"] for line in f] == ["k"]


def test_the_games_kept_beside_the_database_are_stored_once_then_the_file_goes(tmp_path,
                                                                             monkeypatch):
    """What the next run does with the file: each complete line stored (one stored
    meanwhile is not stored twice), a line cut short by a kill -9 passed over; a database
    still locked leaves the file for the run after."""
    import sqlite3

    from tronlab.arena import store as store_module
    from tronlab.arena.unstored import keep, store_kept, unstored_path

    with Store(tmp_path / "u.sqlite") as store:
        path = unstored_path(store.path)
        assert store_kept(store) == 0 and not os.path.exists(path)
        store.add(_row("a"))
        for key in ("a", "b"):
            assert keep(store.path, _row(key, record='{"k": "%s"}' % key))
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(_row("c"))[:40])
        other = sqlite3.connect(store.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            with monkeypatch.context() as patch:
                patch.setattr(store_module, "LOCK_WAIT", 0.05)
                store_kept(store)
        except store_module.CannotWrite:
            pass
        else:
            raise AssertionError("stored through another process's lock")
        finally:
            other.close()
        assert os.path.exists(path) and store.done_keys() == {"a"}
        assert store_kept(store) == 1 and not os.path.exists(path)
        assert store.done_keys() == {"a", "b"}
        b = next(r for r in store.rows() if r["key"] == "b")
        assert store.record_json(b["id"]) == '{"k": "b"}' and b["names"] == ["a", "b"]


class _PlaysAtSubmit:
    """An executor that plays each game when it is handed over: every game of the plan has
    finished before the run reads the first."""

    def submit(self, fn, *args):
        import concurrent.futures as cf
        future = cf.Future()
        future.set_result(fn(*args))
        return future


def test_games_finished_but_not_read_when_a_run_stops_are_stored_or_kept(tmp_path, monkeypatch):
    """With several workers, the others' games finish while the run waits for the write
    lock; when it stops (the lock held too long, Ctrl-C) those rows were dropped with the
    executor.  Now a run that cannot write keeps them beside the database, and one stopped
    by Ctrl-C (here after the first game is stored) stores them."""
    from tronlab.arena import round_robin, run
    from tronlab.arena import store as store_module
    from tronlab.arena.unstored import store_kept

    plan = round_robin(["random", "hugger"], "random:1:7x7", time=None)
    assert len(plan) == 2
    real_add = store_module.Store.add

    def cannot_write(store, row):
        raise store_module.CannotWrite("cannot write")

    def ctrl_c(row):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch, Store(tmp_path / "w.sqlite") as db:
        patch.setattr(store_module.Store, "add", cannot_write)
        result = run(plan, db, executor=_PlaysAtSubmit(), progress=False)
        assert result.failed == "cannot write" and result.played == 0
        assert sorted(result.kept) == sorted(s.key for s in plan)
        patch.setattr(store_module.Store, "add", real_add)
        assert store_kept(db) == 2
        assert db.done_keys() == {s.key for s in plan} and db.integrity_check() == "ok"
    with Store(tmp_path / "c.sqlite") as db:
        result = run(plan, db, executor=_PlaysAtSubmit(), progress=False, on_game=ctrl_c)
        assert result.interrupted and result.kept == [] and result.played == 2
        assert db.done_keys() == {s.key for s in plan} and db.integrity_check() == "ok"
