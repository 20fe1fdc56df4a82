"""A run on a Dask LocalCluster (two worker processes) gives the same games as the
process pool and as playing in this process, at a fixed search depth; a cluster that
cannot be reached or whose scheduler goes away ends the command in one sentence."""

import contextlib

import pytest

from tronlab.arena import Store, dask_executor, process_pool, round_robin, run
from tronlab.cli import main as tronlab_main

distributed = pytest.importorskip("distributed")

BOTS = ["minimax", "voronoi", "filler", "random"]


def _games(db):
    with Store(db) as store:
        return {r["key"]: (r["winner"], r["turns"], tuple(r["ranks"]),
                           store.record_json(r["id"]).split('"metadata"')[0])
                for r in store.rows()}


@pytest.mark.slow
def test_dask_local_cluster_plays_the_same_games_as_the_process_pool(tmp_path):
    # depth 2 ends each search long before its time; the time only cuts one short when the
    # machine stalls (a busy CI run once made one game differ at 0.5 s), so it is generous
    plan = round_robin(BOTS, "arena,random:2:10x10", depth=2, time=5.0)
    assert len(plan) == 36
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            executor, _ = dask_executor(client)
            workers = client.run(lambda: __import__("os").getpid())
            assert len(workers) == 2
            with Store(tmp_path / "dask.sqlite") as store:
                done = run(plan, store, executor=executor, progress=False)
            assert done.played == 36
            # every worker loaded the search kernels once, before its first game
            warm = client.run(lambda: sorted(__import__("tronlab.arena.play").arena.play._warm))
            assert all({("tron", "minimax"), ("tron", "voronoi")} <= set(map(tuple, w))
                       for w in warm.values())
        # the command line's --dask ADDRESS reaches the same cluster
        db = str(tmp_path / "cli.sqlite")
        assert tronlab_main(["arena", "run", "--bots", "random", "hugger", "--maps", "arena",
                             "--dask", cluster.scheduler_address, "--db", db,
                             "--no-progress"]) == 0
        with Store(db) as store:
            assert len(store.rows()) == 2
    pool = process_pool(2, warm=["minimax", "voronoi"])
    try:
        with Store(tmp_path / "pool.sqlite") as store:
            assert run(plan, store, executor=pool, progress=False).played == 36
    finally:
        pool.shutdown()
    with Store(tmp_path / "here.sqlite") as store:
        assert run(plan, store, progress=False).played == 36
    dask_games, pool_games = _games(tmp_path / "dask.sqlite"), _games(tmp_path / "pool.sqlite")
    assert dask_games == pool_games == _games(tmp_path / "here.sqlite")
    assert len({g[0] for g in dask_games.values()}) > 1     # not 36 copies of one result


def test_a_cluster_that_cannot_be_reached_leaves_no_database(tmp_path):
    import os
    import subprocess
    import sys

    db = tmp_path / "never.sqlite"
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    out = subprocess.run([sys.executable, "-m", "tronlab", "arena", "run", "--bots", "random",
                          "hugger", "--maps", "arena", "--dask", "tcp://127.0.0.1:1",
                          "--db", str(db), "--no-progress"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    # the one line says which option was wrong
    assert out.stderr.startswith("tronlab arena: error: --dask tcp://127.0.0.1:1: ")
    assert not db.exists()


def test_a_scheduler_that_goes_away_stops_the_run_keeping_the_stored_games(tmp_path):
    # the cancelled games used to end the run with a bare CancelledError traceback
    plan = round_robin(["random", "hugger", "filler"], "arena,random:2:10x10", time=0.05)
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        executor, _ = dask_executor(client, warm=["random", "hugger", "filler"])

        def stop_scheduler(row):
            if cluster.scheduler.status.name == "running":
                cluster.sync(cluster.scheduler.close)
        with Store(tmp_path / "gone.sqlite") as store:
            result = run(plan, store, executor=executor, progress=False,
                         on_game=stop_scheduler)
            stored = len(store.rows())
    finally:
        client.close()
        with contextlib.suppress(Exception):     # its workers wait 30 s for the scheduler
            cluster.close(timeout=1)
    assert result.failed.startswith("the executor cancelled the game "), result
    assert "the scheduler went away" in result.failed
    assert 1 <= result.played == stored < len(plan)


def test_workers_warm_only_the_tron_bots_the_plan_plays(tmp_path, monkeypatch):
    # before: 'arena run --dask' warmed chamber, minimax, ... on every worker, also for a
    # capture plan (whose bots are other bots) or a plan of two quick bots
    from tronlab.arena import cli, cluster
    from tronlab.arena.play import plan_warm

    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text("def move(board, player):\n    return 0\n")
    tron = round_robin(["chamber", "random", "py:x.py"], "arena")
    capture = round_robin(["random", "nearest"], "random:1", game="backtothecode")
    assert plan_warm(tron) == ["chamber", "random"] and plan_warm(capture) == []
    seen = {}

    def fake(address, warm="the default", files=()):
        seen["warm"] = warm
        raise ValueError("no cluster here")

    monkeypatch.setattr(cluster, "dask_executor", fake)
    code = cli.main(["run", "--game", "backtothecode", "--bots", "random", "nearest",
                     "--maps", "random:1", "--dask", "tcp://127.0.0.1:1"])
    assert code == 2 and seen["warm"] == []


def _cluster(workers=1, **options):
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                                    dashboard_address=":0", **options)


def test_a_game_that_raises_on_a_worker_stops_the_run_in_one_sentence(tmp_path, monkeypatch,
                                                                      caplog):
    # before: the exception's traceback ended the run, and a game that finished just as
    # the run cancelled it made Dask's executor log Tornado's InvalidStateError
    import threading

    from tronlab.arena import play

    both = threading.Barrier(2)
    real = play._play_tron

    def buggy(spec, cwd, start):        # the workers run in this process: they see it
        if spec.names == ("hugger", "filler"):
            both.wait(10)
            raise RuntimeError("kaboom")
        row = real(spec, cwd, start)
        with contextlib.suppress(threading.BrokenBarrierError):
            both.wait(10)               # finish together with the failing game
        return row

    monkeypatch.setattr(play, "_play_tron", buggy)
    plan = round_robin(["random", "hugger", "filler"], "arena", time=0.05)
    with _cluster(2) as cluster, distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=["random"])
        with Store(tmp_path / "r.sqlite") as store:
            result = run(plan, store, executor=executor, progress=False)
            stored = len(store.rows())
    assert result.failed.startswith("the game hugger v filler on arena (key "), result
    assert "failed where it was played: RuntimeError: kaboom (at test_arena_dask.py" \
        in result.failed
    assert 1 <= result.played == stored < len(plan)
    assert not [r for r in caplog.records if "InvalidStateError" in r.getMessage()]


class _Stderr:
    """sys.stderr that a test thread can wait on."""

    def __init__(self):
        import threading
        self.text, self.changed = "", threading.Event()

    def write(self, text):
        self.text += text
        self.changed.set()

    def flush(self):
        pass


def test_a_run_left_without_workers_says_so_and_goes_on_when_one_joins(tmp_path,
                                                                       monkeypatch):
    # before: the run waited silently for workers to come back
    import threading

    err = _Stderr()
    monkeypatch.setattr("sys.stderr", err)
    plan = round_robin(["random", "hugger", "filler"], "arena", time=0.05)
    with _cluster(1) as cluster, distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=[])

        def rejoin():
            deadline = __import__("time").monotonic() + 6
            while "no Dask worker" not in err.text and __import__("time").monotonic() < deadline:
                err.changed.wait(0.2)
            cluster.scale(1)            # a new worker joins

        def kill_the_worker(row):
            if len(store.rows()) == 1:
                worker = next(iter(cluster.workers.values()))
                cluster.sync(worker.close)
                cluster.scale(0)
                threading.Thread(target=rejoin, daemon=True).start()

        with Store(tmp_path / "r.sqlite") as store:
            result = run(plan, store, executor=executor, progress=False,
                         on_game=kill_the_worker)
        back = [w.address for w in cluster.workers.values()]
    assert result.failed is None and result.played == len(plan), result
    address = cluster.scheduler_address
    said = (f"no Dask worker is left on the scheduler at {address}: the run waits for workers "
            f"to join it again (start some with 'dask worker {address}', or press Ctrl-C to "
            f"stop; the games played so far are kept)\n")
    assert said in err.text, err.text
    assert err.text.split(said)[1] == (f"the Dask worker {back[0]} joined and passed the "
                                       f"check: the run goes on\n"), err.text


def _wait_for(err, text, seconds=30):
    import time
    deadline = time.monotonic() + seconds
    while text not in err.text and time.monotonic() < deadline:
        err.changed.clear()
        err.changed.wait(0.2)


def _left_out(address, why):
    import tronlab
    from tronlab.arena.daskgames import LEFT_OUT
    root = __import__("os").path.dirname(tronlab.__file__)
    return LEFT_OUT.format(address=address, why=why, version=tronlab.__version__,
                           root=root) + "\n"


def _other_code_worker(tmp_path, address):
    """``(process, folder)``: a 'dask worker' of ``address`` that imports a copy of
    this tronlab with one file changed (another commit), from ``folder``."""
    import os
    import shutil
    import subprocess
    import sys

    import tronlab

    copy = tmp_path / "other"
    shutil.copytree(os.path.dirname(tronlab.__file__), copy / "tronlab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    with open(copy / "tronlab" / "arena" / "report.py", "a") as f:
        f.write("# another commit\n")
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nthreads", "1", "--no-dashboard"], cwd=copy,
                              env={**os.environ, "PYTHONPATH": str(copy)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return worker, copy


def test_a_worker_with_other_code_that_joins_late_is_left_out_and_the_run_goes_on(
        tmp_path, monkeypatch):
    # before: the late worker's refusal of its first game stopped the whole run; now it
    # is named in one line and retired, and the run waits for (then plays on) a good one
    import threading

    import tronlab

    err = _Stderr()
    plan = round_robin(["random", "hugger"], "arena", time=0.05)
    with _cluster(1, protocol="tcp") as cluster, distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=[])
        cluster.sync(next(iter(cluster.workers.values())).close)
        cluster.scale(0)
        late, copy = _other_code_worker(tmp_path, cluster.scheduler_address)
        try:
            client.wait_for_workers(1, timeout=60)
            bad = next(iter(client.nthreads()))
            monkeypatch.setattr("sys.stderr", err)

            def good_worker_joins():
                _wait_for(err, "no Dask worker is left")
                cluster.scale(1)
            threading.Thread(target=good_worker_joins, daemon=True).start()
            with Store(tmp_path / "r.sqlite") as store:
                result = run(plan, store, executor=executor, progress=False)
                stored = len(store.rows())
            assert result.failed is None and result.played == stored == len(plan), result
            late.wait(30)                   # retired: its 'dask worker' ends
        finally:
            late.terminate()
            late.wait(30)
    said = _left_out(bad, f"has other code of tronlab {tronlab.__version__} "
                          f"(in {copy / 'tronlab'})")
    assert err.text.count(said) == 1, err.text
    assert "no Dask worker is left" in err.text.split(said)[1]


def test_a_worker_with_other_code_there_at_the_start_is_left_out_as_a_late_one(
        tmp_path, monkeypatch):
    # before: a bad worker among those connected at the start refused the whole run
    # (the good ones played nothing), while one that joined later was only left out
    import tronlab

    err = _Stderr()
    plan = round_robin(["random", "hugger"], "arena", time=0.05)
    with _cluster(1, protocol="tcp") as cluster, distributed.Client(cluster) as client:
        bad, copy = _other_code_worker(tmp_path, cluster.scheduler_address)
        try:
            client.wait_for_workers(2, timeout=60)
            good = {w.address for w in cluster.workers.values()}
            left = (set(client.nthreads()) - good).pop()
            monkeypatch.setattr("sys.stderr", err)
            executor, _ = dask_executor(client, warm=["random"])
            assert set(client.nthreads()) == good      # retired before the first game
            with Store(tmp_path / "r.sqlite") as store:
                result = run(plan, store, executor=executor, progress=False)
            assert result.failed is None and result.played == len(plan), result
            bad.wait(30)                    # retired: its 'dask worker' ends
        finally:
            bad.terminate()
            bad.wait(30)
    assert err.text == _left_out(left, f"has other code of tronlab {tronlab.__version__} "
                                       f"(in {copy / 'tronlab'})"), err.text


def _one_file_plan(tmp_path, monkeypatch):
    """``(bot file, plan)``: a py: bot written in ``tmp_path`` (the run's folder) that
    plays the hugger on the arena map (0.5 s a move: neither bot uses its time, and a
    busy CI machine once made a 0.05 s move of one of them a timeout)."""
    bot = tmp_path / "mine.py"
    bot.write_text("def move(board, player):\n    return 0\n")
    monkeypatch.chdir(tmp_path)
    return bot, round_robin(["py:mine.py", "hugger"], "arena", time=0.5)


def test_a_late_worker_without_a_bots_file_plays_none_of_its_games(tmp_path, monkeypatch):
    # before: a worker that joined after the run's check of the files played games whose
    # py: bot it could not read (each scored as the bot's fault)
    import re
    import threading

    from tronlab.arena.cluster import plan_files

    bot, plan = _one_file_plan(tmp_path, monkeypatch)
    err = _Stderr()
    with _cluster(1) as cluster, distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=[], files=plan_files(plan))
        # the workers share this process and its folder: the file goes away, this side
        # of the run is told it is still here, and the one worker stands for a late one
        # that cannot see it
        bot.rename(tmp_path / "aside")
        monkeypatch.setattr("tronlab.arena.daskgames._present", tuple)
        monkeypatch.setattr("sys.stderr", err)
        first = next(iter(client.nthreads()))

        def file_back_and_a_worker_joins():
            _wait_for(err, "no Dask worker is left")
            (tmp_path / "aside").rename(bot)
            cluster.scale(2)            # the cluster still counts the retired one
        threading.Thread(target=file_back_and_a_worker_joins, daemon=True).start()
        with Store(tmp_path / "r.sqlite") as store:
            result = run(plan, store, executor=executor, progress=True, check_load=False)
            rows = store.rows()
    assert result.failed is None and result.played == len(rows) == len(plan), result
    assert {f for r in rows for f in r["faults"]} == {None, "wall"}, rows     # it moved
    # each note is a line of its own, not glued to the progress bar's (as they were)
    lines = re.split("[\r\n]", err.text)
    assert _left_out(first, f"lacks {bot}")[:-1] in lines, err.text
    assert any(line.startswith("no Dask worker is left") for line in lines), err.text


def test_only_a_worker_that_passed_the_check_is_said_to_have_joined(tmp_path, monkeypatch):
    # before: a worker that came to a run left without workers was said to have joined
    # ('1 Dask worker joined: the run goes on') as soon as the run saw it, and was left
    # out a moment later; now a worker is said to have joined when a game it played comes
    # back, and the run says again that it waits when the one that came is left out
    import re
    import threading
    import time

    from tronlab.arena import daskgames
    from tronlab.arena.cluster import plan_files
    from tronlab.arena.daskgames import JOINED, NO_WORKERS

    bot, plan = _one_file_plan(tmp_path, monkeypatch)
    err = _Stderr()
    real, slowed = daskgames._refusal, []

    def slow_refusal(task):             # the run sees the worker before its refusal
        refused = real(task)
        if refused and not slowed:
            slowed.append(refused)
            time.sleep(1)
        return refused

    with _cluster(1) as cluster, distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=[], files=plan_files(plan))
        executor._poll = 0.05
        cluster.sync(next(iter(cluster.workers.values())).close)
        cluster.scale(0)
        # the workers share this process and its folder: the file goes away, this side
        # of the run is told it is still here, and the next worker cannot see it
        bot.rename(tmp_path / "aside")
        monkeypatch.setattr(daskgames, "_present", tuple)
        monkeypatch.setattr(daskgames, "_refusal", slow_refusal)
        monkeypatch.setattr("sys.stderr", err)

        def a_bad_then_a_good_worker_join():
            _wait_for(err, "no Dask worker is left")
            cluster.scale(1)
            deadline = time.monotonic() + 30
            while err.text.count("no Dask worker is left") < 2 and time.monotonic() < deadline:
                err.changed.clear()
                err.changed.wait(0.2)
            (tmp_path / "aside").rename(bot)
            cluster.scale(2)            # the cluster still counts the retired one
        threading.Thread(target=a_bad_then_a_good_worker_join, daemon=True).start()
        with Store(tmp_path / "r.sqlite") as store:
            result = run(plan, store, executor=executor, progress=False, check_load=False)
        good = list(client.nthreads())  # the retired one is gone
    assert result.failed is None and result.played == len(plan), result
    lines = err.text.splitlines()
    bad = next((m.group(1) for line in lines
                if (m := re.match(r"the Dask worker (\S+) lacks ", line))), None)
    none = NO_WORKERS.format(address=cluster.scheduler_address)
    assert lines == [none, _left_out(bad, f"lacks {bot}")[:-1], none,
                     JOINED.format(address=good[0])], err.text
    assert bad not in good


def test_a_bots_file_gone_from_this_machine_too_retires_no_worker(tmp_path, monkeypatch):
    # a file gone everywhere is no fault of the workers: the game is played (the bot
    # cannot be loaded, as in a run on this machine) and no worker is retired
    import threading

    from tronlab.arena.cluster import plan_files

    bot, plan = _one_file_plan(tmp_path, monkeypatch)
    err = _Stderr()
    with _cluster(1) as cluster, distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=[], files=plan_files(plan))
        bot.unlink()
        monkeypatch.setattr("sys.stderr", err)

        def rescue():                   # (a worker retired: let the run end)
            _wait_for(err, "no Dask worker is left")
            bot.write_text("def move(board, player):\n    return 0\n")
            cluster.scale(2)
        threading.Thread(target=rescue, daemon=True).start()
        with Store(tmp_path / "r.sqlite") as store:
            result = run(plan, store, executor=executor, progress=False, check_load=False)
            rows = store.rows()
    assert "the Dask worker" not in err.text, err.text
    assert result.failed is None and result.played == len(rows) == len(plan), result
    assert "exited" in {f for r in rows for f in r["faults"]}, rows


def test_ctrl_c_cancels_the_queued_games_in_one_call_and_the_run_resumes(tmp_path,
                                                                        monkeypatch):
    # before: each queued game was cancelled with a round trip to the scheduler of its
    # own, so stopping a run of thousands of games took minutes
    import threading

    from tronlab.arena import play

    release, started = threading.Event(), []
    real = play._play_tron

    def slow(spec, cwd, start):         # the workers run in this process: they see it
        started.append(spec.key)
        if len(started) > 1:
            release.wait(20)            # the worker's one thread is busy until released
        return real(spec, cwd, start)

    monkeypatch.setattr(play, "_play_tron", slow)
    plan = round_robin(["random", "hugger", "quick"], "arena", time=0.05)

    def stop(row):
        raise KeyboardInterrupt
    with _cluster(1) as cluster, distributed.Client(cluster) as client:
        executor, _ = dask_executor(client, warm=[])
        calls = []
        real_cancel = client.cancel
        monkeypatch.setattr(client, "cancel",
                            lambda futures, **kw: calls.append(len(futures))
                            or real_cancel(futures, **kw))
        with Store(tmp_path / "r.sqlite") as store:
            first = run(plan, store, executor=executor, progress=False, on_game=stop)
            release.set()
            assert len(store.rows()) == first.played == 1 and first.interrupted, first
            assert calls == [len(plan) - 1], calls
            again = run(plan, store, executor=executor, progress=False)
            assert again.played == len(plan) - 1 and again.failed is None, again
            assert len(store.rows()) == len(plan)


def test_a_checkout_that_only_touches_the_files_needs_no_worker_restart(monkeypatch):
    # before: a module file newer than the worker's import of tronlab was enough to
    # refuse it, so 'git checkout' of the same content asked for a restart
    import os

    import tronlab
    from tronlab.arena.cluster import check_dask_workers

    with _cluster(1) as cluster, distributed.Client(cluster) as client:
        check_dask_workers(client)      # notes the content of the files it loaded
        monkeypatch.setattr(os.path, "getmtime", lambda path: 4e9)    # all touched
        check_dask_workers(client)
        monkeypatch.setitem(tronlab._loaded_files, "arena/cluster.py", "an older content")
        with pytest.raises(ValueError, match=r"but \S+ runs code of tronlab that its files no "
                                             r"longer hold \(restart it\)$"):
            check_dask_workers(client)


def test_a_game_cancelled_as_it_finished_is_still_told_cancelled():
    # before: the run cancelled a game whose Dask task had just finished (so the task was
    # not cancelled) and the outcome could not be handed over: the future stayed
    # 'cancelled' without notifying its waiters, and concurrent.futures.wait() on it
    # waited for ever
    import concurrent.futures as cf

    from tronlab.arena.daskgames import _hand_over

    class Finished:
        status = "finished"

        def result(self):
            return "tcp://10.0.0.2:4000", {"key": "k"}

    future = cf.Future()
    assert future.cancel()
    _hand_over(Finished(), future)
    done, _ = cf.wait([future], timeout=0)
    assert done == {future} and future.cancelled()


def test_a_game_cancelled_while_a_refused_one_is_sent_again_is_still_told_cancelled():
    # a worker refused a game of a bot; while the run left that worker out, it gave up on
    # the bot and cancelled the game (mid-run, as_completed still waiting): the game was
    # not sent again, and nothing told the future's waiters, so the run waited for ever
    import concurrent.futures as cf
    import threading

    from tronlab.arena.daskgames import DaskGames

    class DaskWorkerRefused(RuntimeError):
        pass

    class Refused:
        status = "error"

        def exception(self):
            return DaskWorkerRefused("tcp://10.0.0.3:4000", "lacks hang.py")

    games = DaskGames.__new__(DaskGames)
    games._lock, games._tasks, games._pending, games._batch = threading.Lock(), {}, set(), None
    future = cf.Future()
    future.add_done_callback(games._done)
    games._tasks[future] = Refused()

    def retire(address, why):       # the run gives up on the bot meanwhile
        assert future.cancel()

    games._retire = retire
    games._returned(Refused(), future, None, ())
    done, _ = cf.wait([future], timeout=0)
    assert done == {future} and future.cancelled()
