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


# PettingZoo's test functions report several findings only as warnings ("Live agent was not
# given reward", "Agent was given observation but was dead last turn", ...): turned into errors
# here, so that a test passes only when PettingZoo has nothing to say.  api_test's two remarks
# about dict observations are what every env with an action mask hears (its own classic
# games have them on a list of exceptions).
DICT_OBSERVATIONS = ("ignore:Observation space for each agent probably should be:UserWarning",
                     "ignore:Observation is not a NumPy array:UserWarning")


@pytest.mark.filterwarnings("error")
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
    env = parallel_env(rules, **({"size": (20, 20)} if rules == "google2010" else {}))
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


# ---- arguments checked up front -------------------------------------------------------------

@pytest.mark.parametrize("rules", ["google2010", "lightriders"])
def test_a_player_count_the_rules_do_not_allow_is_refused_in_the_constructor(rules):
    with pytest.raises(ValueError, match=f"{rules} is played by 2 players, got n_players=3"):
        parallel_env(rules, n_players=3)
    with pytest.raises(ValueError, match="codingame is played by 2 to 4 players, got n_players=5"):
        parallel_env("codingame", n_players=5)
    with pytest.raises(TypeError, match="n_players is an int"):
        parallel_env("codingame", n_players=2.0)


def test_a_board_and_n_players_must_agree():
    from tronlab.tron.mapgen import codingame_board
    board = Board.from_ascii("#####\n#1.2#\n#####")
    with pytest.raises(ValueError, match="n_players=3 but the board has 2 players"):
        parallel_env("google2010", board=board, n_players=3)
    assert parallel_env("google2010", board=board, n_players=2).possible_agents == [
        "player_0", "player_1"]
    env = parallel_env("codingame", board=codingame_board(3, rng=1))
    assert len(env.possible_agents) == 3
    with pytest.raises(TypeError, match="board is a tronlab Board"):
        parallel_env("google2010", board="#1.2#")


def test_size_is_width_and_height_of_google2010s_random_maps_only():
    env = parallel_env("google2010", size=(20, 10))
    assert env.observation_space("player_0")["observation"].shape == (3, 10, 20)
    env.reset(seed=3)
    assert (env.match.board.width, env.match.board.height) == (20, 10)
    assert parallel_env("google2010").size == (15, 15)
    # size used to be ignored without a word for the fixed contest boards and with board=
    for rules in ("codingame", "lightriders"):
        with pytest.raises(ValueError, match=f"no use for {rules}, whose boards are fixed"):
            parallel_env(rules, size=(20, 20))
    with pytest.raises(ValueError, match="no use with board="):
        parallel_env("google2010", board=Board.from_ascii("#####\n#1.2#\n#####"), size=(5, 3))
    for bad in (15, (15,), (15, 15, 1), (7.5, 10), "15x15"):     # used to be numpy/random_map
        with pytest.raises(TypeError, match=r"size is \(width, height\), two ints"):
            parallel_env("google2010", size=bad)


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-1, ValueError), (2.5, TypeError),
                                        (True, TypeError), ("10", TypeError)])
def test_max_cycles_is_none_or_a_positive_int(bad, error):
    with pytest.raises(error, match=r"max_cycles must be a positive int \(or None\)"):
        parallel_env("google2010", max_cycles=bad)


def test_render_and_state_need_a_reset_like_step():
    env = parallel_env("google2010", render_mode="ansi")
    for method, call in [("step", lambda: env.step({})), ("render", env.render),
                         ("state", env.state)]:
        with pytest.raises(RuntimeError, match=rf"call reset\(\) before {method}\(\)"):
            call()


def test_the_state_is_the_padded_board_and_state_space_says_so():
    env = parallel_env("codingame", n_players=3)
    env.reset(seed=2)
    state = env.state()
    shape = env.observation_space("player_0")["observation"].shape
    assert state.shape == (shape[1] + 2, shape[2] + 2) == env.state_space.shape
    assert env.state_space.contains(state) and env.state_space.dtype == np.uint8
    assert (state[0] == 1).all() and (state[:, -1] == 1).all()          # the wall border


@pytest.mark.parametrize("bad", [1.7, "1", None, 4, -1, True, np.float64(1.0), [1]])
def test_an_action_outside_discrete_4_is_refused_naming_the_agent(bad):
    env = parallel_env("google2010")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="player_1's action must be an element of Discrete"):
        env.step({"player_0": 1, "player_1": bad})
    assert env.match.turns == 0                  # nothing was played


def test_numpy_integer_actions_are_elements_of_the_space():
    env = parallel_env("google2010")
    env.reset(seed=1)
    env.step({"player_0": np.int64(0), "player_1": np.uint8(0)})
    assert env.match.turns == 1


def test_every_agent_in_play_needs_an_action_and_unknown_names_are_refused():
    env = parallel_env("google2010")
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"missing: \['player_1'\]"):
        env.step({"player_0": 0})
    with pytest.raises(ValueError, match=r"unknown: \['player_7'\]"):
        env.step({"player_0": 0, "player_1": 0, "player_7": 0})
    assert env.match.turns == 0


def test_actions_of_agents_already_out_are_ignored():
    env = parallel_env("codingame", board=Board.from_ascii("#######\n#1..2.#\n#.....#\n#..3..#"))
    env.reset()
    env.step({"player_0": 0, "player_1": 1, "player_2": 1})     # player 0 runs into the edge
    assert env.agents == ["player_1", "player_2"]
    env.step({"player_0": 7, "player_1": 2, "player_2": 1})
    assert env.match.turns == 2


@pytest.mark.filterwarnings("error", *DICT_OBSERVATIONS)
def test_pettingzoos_own_tests_pass():
    from pettingzoo.test import api_test, parallel_seed_test
    from pettingzoo.utils.conversions import parallel_to_aec
    for rules, options in SETTINGS:
        api_test(parallel_to_aec(parallel_env(rules, **options)), num_cycles=200)
        parallel_seed_test(lambda: parallel_env(rules, **options), num_cycles=50)
    parallel_api_test(parallel_env("codingame", n_players=3, max_cycles=5), num_cycles=50)
