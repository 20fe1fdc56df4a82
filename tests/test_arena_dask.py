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
    plan = round_robin(BOTS, "arena,random:2:10x10", depth=2, time=0.5)
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
