"""The PettingZoo Parallel environment (tronlab.tron.env): PettingZoo's own API
test for the three rule sets, and a seeded rollout equal to tronlab.play."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import parallel_api_test  # noqa: E402

from tronlab import Board, play  # noqa: E402
from tronlab.tron.env import parallel_env  # noqa: E402

SETTINGS = [("google2010", {}), ("lightriders", {}), ("codingame", {"n_players": 2}),
            ("codingame", {"n_players": 4})]


@pytest.mark.parametrize("rules,options", SETTINGS)
def test_parallel_api_test_passes(rules, options):
    parallel_api_test(parallel_env(rules, **options), num_cycles=300)


def _scripted(seed, n_players, turns=400):
    """Per player, a fixed list of moves (legal or not) drawn from ``seed``."""
    return np.random.default_rng(seed).integers(0, 4, size=(n_players, turns)).tolist()


class _Script:
    def __init__(self, moves):
        self.moves, self.t = moves, 0

    def __call__(self, board, player):
        self.t += 1
        return self.moves[self.t - 1]


@pytest.mark.parametrize("rules,options", SETTINGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_rollout_equals_play(rules, options, seed):
    env = parallel_env(rules, **options)
    obs, _ = env.reset(seed=seed)
    start = env.match.board.copy()
    script = _scripted(seed, len(env.possible_agents))
    t, total = 0, {a: 0.0 for a in env.possible_agents}
    while env.agents:
        actions = {a: script[int(a.split("_")[1])][t] for a in env.agents}
        obs, rewards, terms, truncs, _ = env.step(actions)
        for a, r in rewards.items():
            total[a] += r
        t += 1
    record = play(start, [_Script(m) for m in script], rules=rules)
    assert env.match.board == record.final
    assert env.match.outcome().to_dict()["ranking"] == record.outcome.ranking
    winner = record.outcome.winner
    for p, a in enumerate(env.possible_agents):
        want = 0.0 if winner is None else (1.0 if p == winner else -1.0)
        assert total[a] == want, (a, total, winner)


def test_observation_planes_and_mask_on_a_tiny_board():
    board = Board.from_ascii("""
        1.#
        ..2
    """)
    env = parallel_env("google2010", board=board)
    obs, _ = env.reset(seed=0)
    me = obs["player_0"]
    assert me["observation"].shape == (3, 2, 3)
    assert me["observation"][0].tolist() == [[1, 0, 1], [0, 0, 1]]   # walls and heads
    assert me["observation"][1].tolist() == [[1, 0, 0], [0, 0, 0]]
    assert me["observation"][2].tolist() == [[0, 0, 0], [0, 0, 1]]
    assert me["action_mask"].tolist() == [0, 1, 1, 0]                # right and down
    assert obs["player_1"]["action_mask"].tolist() == [0, 0, 0, 1]    # only left (edge, wall)


def test_a_head_on_crash_is_a_draw_with_zero_rewards():
    board = Board.from_ascii("#####\n#1.2#\n#####")
    env = parallel_env("google2010", board=board)
    env.reset()
    _, rewards, terms, _, _ = env.step({"player_0": 1, "player_1": 3})
    assert rewards == {"player_0": 0.0, "player_1": 0.0}
    assert all(terms.values()) and env.agents == []


class _LegalRandom:
    """Picks a random legal move with its own seeded generator."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def __call__(self, board, player):
        legal = board.legal_moves(player)
        return int(self.rng.choice(legal)) if legal else 0


@pytest.mark.parametrize("rules", ["google2010", "lightriders"])
@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_a_long_seeded_rollout_of_legal_random_players_equals_play(rules, seed):
    env = parallel_env(rules, size=(20, 20))
    env.reset(seed=seed)
    start = env.match.board.copy()
    mine = [_LegalRandom(seed * 10 + p) for p in range(2)]
    turns = 0
    while env.agents:
        env.step({a: mine[int(a[-1])](env.match.view(int(a[-1])), int(a[-1])) for a in env.agents})
        turns += 1
    record = play(start, [_LegalRandom(seed * 10 + p) for p in range(2)], rules=rules)
    assert turns == record.outcome.turns > 5
    assert env.match.board == record.final
