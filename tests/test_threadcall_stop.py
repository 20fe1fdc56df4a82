"""A timed call that overran is told to stop (tronlab.runner.threadcall.Abandoned): an
endless loop in a learner's Python bot ends instead of spinning until the kernel
restarts and taking half the interpreter from the other bot and every later cell."""

from __future__ import annotations

import ctypes
import threading
import time

import pytest

from tronlab.capture.game import play_capture
from tronlab.runner import threadcall
from tronlab.runner.engine import play
from tronlab.runner.threadcall import Abandoned, Worker, call_in_thread
from tronlab.tron.board import Board


def _spin(flag, seen=None):
    """A learner's endless loop, in Python; ``flag`` ends it when the test is done."""
    try:
        while not flag.is_set():
            pass
    except BaseException as err:
        if seen is not None:
            seen.append(type(err))
        raise


def _swallowing(flag):
    while not flag.is_set():
        try:
            sum(range(100))
        except Exception:       # a bot's catch-all: Abandoned is no Exception
            pass


def test_an_endless_loop_that_overran_is_stopped():
    flag, seen = threading.Event(), []
    try:
        called = call_in_thread(_spin, (flag, seen), wait=0.05)
        assert called.overran
        called.worker.join(5)
        assert not called.worker.is_alive() and seen == [Abandoned]
        called = call_in_thread(_swallowing, (flag,), wait=0.05)
        called.worker.join(5)
        assert not called.worker.is_alive()
    finally:
        flag.set()


def test_stop_false_leaves_it_running():
    flag, worker = threading.Event(), Worker()
    try:
        called = call_in_thread(_spin, (flag,), wait=0.05, stop=False)
        called.worker.join(0.3)
        assert called.worker.is_alive()
        assert worker.call(_spin, (flag,), wait=0.05, stop=False).overran
        assert not worker.settle(0.3) and worker.busy
    finally:
        flag.set()
        worker.stop()


def test_a_worker_whose_call_was_stopped_serves_the_next_call():
    flag, seen, worker = threading.Event(), [], Worker()
    try:
        assert worker.call(_spin, (flag, seen), wait=0.05).overran
        assert worker.settle(5) and not worker.busy and seen == [Abandoned]
        assert worker.call(lambda: "fresh", wait=5.0).value == "fresh"
    finally:
        flag.set()
        worker.stop()


class _LateStop(dict):
    """A call's box that raises Abandoned in its own thread as ``key`` is stored for the
    ``nth`` time: the stop arriving just as the call ended, in threadcall's own code."""

    def __init__(self, key, nth):
        super().__init__(lock=threading.Lock())
        self.key, self.left = key, nth

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        if key == self.key:
            self.left -= 1
            if self.left == 0:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(threading.get_ident()), ctypes.py_object(Abandoned))


def _fails():
    raise ValueError("the bot's own error")


@pytest.mark.parametrize("fn, key, nth", [
    (lambda: 7, "value", 1),            # as fn's value is stored
    (_fails, "error", 1),               # as fn's exception is stored
    (lambda: 7, "running", 2),          # as the call's end is marked, under the lock
], ids=["value", "error", "end"])
def test_a_stop_that_lands_as_the_call_ends_never_breaks_the_thread(monkeypatch, fn, key,
                                                                     nth):
    crashed = []
    monkeypatch.setattr(threading, "excepthook", crashed.append)
    boxes = [_LateStop(key, nth), {"lock": threading.Lock()}]
    monkeypatch.setattr(threadcall, "_box", lambda: boxes.pop(0))
    worker = Worker()
    try:
        first = worker.call(fn, wait=5.0)
        assert not first.overran and boxes and crashed == []
        assert worker.call(lambda: "next", wait=5.0).value == "next"   # still serving
        assert worker.thread.is_alive()
    finally:
        worker.stop()
    boxes[:] = [_LateStop(key, nth)]
    called = call_in_thread(fn, wait=5.0)
    assert not called.overran and crashed == []


ARENA = Board.from_ascii("""
    ##########
    #1.......#
    #........#
    #........#
    #.......2#
    ##########
""")


def _bot_threads():
    return [t for t in threading.enumerate() if t.name.startswith("tronlab-bot-")]


def test_a_bot_in_an_endless_loop_ends_with_its_turn_not_the_kernel():
    flag, seen = threading.Event(), []

    def looping(board, player):
        _spin(flag, seen)

    def steady(board, player):
        return board.legal_moves(player)[0]

    try:
        for rules in ("google2010", "lightriders"):
            before = set(_bot_threads())
            rec = play(ARENA, [looping, steady], rules=rules, time_limit=0.1,
                       first_time_limit=0.1)
            assert rec.outcome.deaths[0] == "timeout" or rules == "lightriders"
            deadline = time.monotonic() + 5
            while set(_bot_threads()) - before and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not set(_bot_threads()) - before, rules
        assert seen == [Abandoned, Abandoned]
    finally:
        flag.set()


def test_a_capture_bot_in_an_endless_loop_is_stopped():
    flag, seen = threading.Event(), []

    def looping(view, player):
        _spin(flag, seen)

    try:
        rec = play_capture([looping, "nearest"], rng=1, width=8, height=5, time_limit=0.05)
        assert rec.actions[0][0] == "timeout"
        deadline = time.monotonic() + 5
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert seen == [Abandoned]
    finally:
        flag.set()
