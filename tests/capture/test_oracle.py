"""Random games of random bots (BACKs and faults included) played by the engine and by
the slow coordinate-level oracle must agree turn by turn: grids, positions,
eliminations, BACKs, rounds, endings, scores and ranks."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

from tronlab.capture import reset, step

from .oracle import SlowGame

JUNK = ["timeout", "bad-output", "error", "exited", "jump", None, (1, 2, 3), ("BACK", "3"),
        (2.0, 1), ("back", True)]


class FuzzBot:
    """Walks around random rectangles, corner to corner (so loops close and regions
    get taken), stays put sometimes, and now and then asks for BACK or misbehaves."""

    def __init__(self, rng, w, h, stay, back, fault):
        self.rng, self.w, self.h = rng, w, h
        self.stay, self.back, self.fault = stay, back, fault
        self.corners = []

    def __call__(self, position):
        rng = self.rng
        u = rng.random()
        if u < self.fault:
            if rng.random() < 0.5:
                return (int(rng.integers(-2, self.w + 2)), int(rng.integers(-2, self.h + 2)))
            return JUNK[int(rng.integers(len(JUNK)))]
        if u < self.fault + self.back:
            return (str(rng.choice(["BACK", "back", "Back"])), int(rng.integers(-1, 28)))
        if rng.random() < self.stay:
            return position
        if self.corners and self.corners[0] == position:
            self.corners.pop(0)
        if not self.corners or rng.random() < 0.02:
            x0, y0 = int(rng.integers(self.w)), int(rng.integers(self.h))
            x1 = min(self.w - 1, x0 + int(rng.integers(2, 6)))
            y1 = min(self.h - 1, y0 + int(rng.integers(2, 5)))
            self.corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
            if rng.random() < 0.5:
                self.corners.reverse()
        return self.corners[0]


@st.composite
def games(draw):
    n = draw(st.integers(2, 4))
    w = draw(st.integers(2, 11))
    h = draw(st.integers(max(1, -(-n // w)), 9))
    return dict(n=n, w=w, h=h, seed=draw(st.integers(0, 2**32 - 1)),
                limit=draw(st.integers(1, 120)),
                stay=draw(st.sampled_from([0.0, 0.3, 0.95])),
                back=draw(st.sampled_from([0.0, 0.02, 0.1])),
                fault=draw(st.sampled_from([0.0, 0.002, 0.02])))


def agree(state, slow):
    assert state.owner.tolist() == slow.grid()
    assert list(state.positions) == slow.where
    assert list(state.eliminated) == slow.out
    assert [b == 1 for b in state.backs_left] == slow.back_unused
    assert state.round == slow.round
    assert state.over == slow.finished
    assert state.over or state.last_round == slow.final_round_next


def play_both(g):
    """Play one game in the engine and in the oracle, checking every turn; return
    the engine's outcome."""
    rng = np.random.default_rng(g["seed"])
    state = reset(g["n"], rng=rng, width=g["w"], height=g["h"], symmetric=False,
                  round_limit=g["limit"])
    slow = SlowGame(g["w"], g["h"], state.positions, g["limit"])
    bots = [FuzzBot(rng, g["w"], g["h"], g["stay"], g["back"], g["fault"])
            for _ in range(g["n"])]
    agree(state, slow)
    outcome = None
    for _ in range(2000):
        actions = [None if state.eliminated[p] else bots[p](state.positions[p])
                   for p in range(g["n"])]
        result = step(state, actions)
        state, outcome = result.state, result.outcome
        slow.play(actions)
        agree(state, slow)
        if outcome is not None:
            break
    assert outcome is not None
    assert outcome.reason == slow.reason
    assert list(outcome.scores) == slow.scores() and list(outcome.ranks) == slow.ranks()
    return outcome


@settings(max_examples=EXAMPLES, deadline=None)
@given(games())
def test_engine_agrees_with_the_slow_oracle(g):
    play_both(g)


def test_engine_agrees_with_the_slow_oracle_on_longer_seeded_games():
    """Hypothesis favours tiny grids and short games; these are mid-sized and long,
    and between them they reach every ending."""
    reasons = set()
    for seed in range(24):
        rng = np.random.default_rng(seed)
        g = dict(n=2 + seed % 3, w=int(rng.integers(6, 15)), h=int(rng.integers(5, 11)),
                 seed=seed, limit=int(rng.integers(40, 160)),
                 stay=[0.0, 0.3, 0.9][seed % 3], back=[0.0, 0.01, 0.05][seed // 3 % 3],
                 fault=[0.0, 0.001, 0.01][seed // 9 % 3])
        reasons.add(play_both(g).reason)
    assert reasons == {"round-limit", "decided", "idle", "no-active-player"}
