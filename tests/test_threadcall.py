"""The timed call both game loops share (tronlab.runner.threadcall), and each loop's own
policy for what a bot raises: the Tron engine records any exception but Ctrl-C as the
bot's fault (the course's duel stops a game with its own BaseException and reads the
record); the capture loop records Exception and SystemExit and lets any other
BaseException end the game (exercise 10 stops a game with one)."""

from __future__ import annotations

import threading

import pytest

from tronlab.capture.game import play_capture
from tronlab.runner.engine import _Seat, play
from tronlab.runner.threadcall import Worker, call_in_thread
from tronlab.tron.board import Board


class Stop(BaseException):
    """A caller's own stop signal, as the course raises one from inside a bot."""


def test_a_call_gives_its_value_its_time_and_runs_in_a_named_daemon_thread():
    seen = {}

    def where(a, *, b):
        seen["thread"] = threading.current_thread()
        return a + b

    called = call_in_thread(where, (2,), {"b": 3}, wait=5.0, name="tronlab-test-call")
    assert (called.value, called.error, called.worker, called.overran) == (5, None, None, False)
    assert seen["thread"] is not threading.current_thread()
    assert seen["thread"].name == "tronlab-test-call" and seen["thread"].daemon
    assert 0 <= called.seconds < 5.0


def test_without_a_wait_the_call_runs_here():
    called = call_in_thread(threading.current_thread, wait=None)
    assert called.value is threading.current_thread() and not called.overran


@pytest.mark.parametrize("wait", [None, 5.0])
@pytest.mark.parametrize("error", [ValueError("v"), SystemExit(3), KeyboardInterrupt(), Stop()])
def test_whatever_the_call_raises_comes_back_and_is_not_raised(wait, error):
    def raises():
        raise error

    called = call_in_thread(raises, wait=wait)
    assert called.error is error and called.value is None and not called.overran


def test_a_call_still_running_after_the_wait_is_handed_back_running():
    release = threading.Event()
    called = call_in_thread(release.wait, (10,), wait=0.02)
    try:
        assert called.overran and called.worker.is_alive()
        assert (called.value, called.error, called.seconds) == (None, None, 0.02)
    finally:
        release.set()
    called.worker.join(5)
    assert not called.worker.is_alive()


def test_a_worker_runs_its_calls_on_one_thread_and_stops():
    worker = Worker("tronlab-test-worker")
    try:
        first = worker.call(threading.current_thread, wait=5.0)
        second = worker.call(threading.current_thread, wait=None)
        assert first.value is second.value is worker.thread
        assert worker.thread.name == "tronlab-test-worker" and worker.thread.daemon
        assert type(worker.call(int, ("x",), wait=5.0).error) is ValueError
    finally:
        worker.stop()
    worker.thread.join(5)
    assert not worker.thread.is_alive()


def test_a_worker_busy_with_an_overrun_call_takes_no_other_and_drops_its_late_answer():
    release, worker = threading.Event(), Worker()
    try:
        late = worker.call(lambda: release.wait(10) and "late", wait=0.02)
        assert late.overran and late.value is None and late.seconds == 0.02 and worker.busy
        with pytest.raises(RuntimeError, match="busy"):
            worker.call(int, wait=1.0)
        release.set()
        for _ in range(500):                    # the overrun call ends soon after
            if not worker.busy:
                break
            threading.Event().wait(0.01)
        assert not worker.busy
        assert worker.call(lambda: "fresh", wait=5.0).value == "fresh"
    finally:
        release.set()
        worker.stop()


def test_a_seat_still_busy_times_out_at_once_but_its_hooks_still_run():
    release, seat = threading.Event(), _Seat(None, 0, None)
    try:
        assert seat.call(release.wait, (10,), {}, 0.02)[1] == "timeout"
        assert seat.call(int, ("1",), {}, 5.0) == (
            None, "timeout", "still busy with an earlier call that ran over its time")
        assert seat.call(int, ("1",), {}, 5.0, force=True) == (1, None, None)
    finally:
        release.set()
        seat.worker.stop()


def test_a_timed_bot_thinks_on_one_thread_that_ends_with_the_game():
    threads = {0: set(), 1: set()}

    def bot(board, player):
        threads[player].add(threading.current_thread())
        return 2

    rec = play(CORRIDOR, [bot, bot], time_limit=5.0)
    assert rec.outcome.turns == 2 and [len(t) for t in threads.values()] == [1, 1]
    for (thread,) in threads.values():
        thread.join(5)
        assert thread is not threading.current_thread() and not thread.is_alive()


CORRIDOR = Board.from_ascii("""
    #######
    #1...2#
    #.....#
    #######
""")


@pytest.mark.parametrize("time_limit", [None, 1.0])
def test_the_engine_records_a_callers_stop_signal_as_the_bots_fault(time_limit):
    def stops(board, player):
        raise Stop("enough")

    rec = play(CORRIDOR, [stops, lambda board, player: 2], time_limit=time_limit)
    assert rec.outcome.deaths[0] == "error"
    assert rec.events[0]["detail"] == "Stop: enough"


@pytest.mark.parametrize("time_limit", [None, 1.0])
def test_the_capture_loop_lets_a_callers_stop_signal_end_the_game(time_limit):
    def stops(view, player):
        raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        play_capture([stops, "nearest"], rng=1, width=8, height=5, time_limit=time_limit)
