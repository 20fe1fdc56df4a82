"""The Tron games as a multi-agent environment in PettingZoo's Parallel API (X5).

Reinforcement-learning code written for PettingZoo can train on the three Tron
rule sets through :func:`parallel_env`; every step goes through the same
:class:`~tronlab.tron.match.Match` as :func:`tronlab.play`, so the environment
and the engine can never disagree about the rules.

* Agents are ``"player_0"`` ... ``"player_{n-1}"``; an agent leaves
  ``env.agents`` in the step it dies (terminated), and the game's end
  terminates everybody left.
* Observation of an agent: a dict with ``"observation"``, a ``uint8`` array of
  shape ``(3, height, width)`` - plane 0 the blocked squares (walls and every
  trail, heads included), plane 1 the agent's own head, plane 2 the other
  living heads - and ``"action_mask"``, ``int8[4]`` with 1 for each move
  (up, right, down, left) that enters a free square now.
* Actions: ``Discrete(4)``, the move codes of :mod:`tronlab.tron.board`; an action
  that is not an element of the space (``1.7``, ``"1"``, ``None``; numpy integers are
  fine) is refused with a ValueError naming the agent.  :meth:`~TronParallelEnv.step`
  needs one action for every agent in ``env.agents`` (a missing one, or a name that is
  no agent, is a ValueError); actions of agents already out are ignored.
* State: :meth:`~TronParallelEnv.state` is the whole *padded* board - ``uint8`` cell
  codes (0 free, 1 wall, 2+p the trail of player p) of shape ``(height+2, width+2)``,
  the border of walls included - described by ``env.state_space``.
* Rewards come at the end: +1 to the winner, -1 to every other player (in the
  step it dies, or at the end), 0 to everybody in a draw.  ``max_cycles``
  turns without an end truncate the game with reward 0 (``max_cycles`` is None or a
  positive int).
* codingame: the Parallel API asks every living agent at once, so each one
  chooses before seeing the sub-moves made earlier in the same turn (the real
  game shows them); the moves are then made one after another in player
  order, exactly as :class:`~tronlab.tron.match.Match` makes them.

Boards: ``board=`` fixes the start board; otherwise each :meth:`reset` draws one
from its seed - a point-symmetric random map of ``size`` (``(width, height)``, the
wall ring included; default ``(15, 15)``) for google2010, the contest boards for
codingame (``n_players``, 30x20) and lightriders (16x16).  ``size`` is only for
google2010 without ``board=`` (elsewhere it is a ValueError, not silently ignored).
``n_players`` must be a number the rules allow (google2010 and lightriders: 2;
codingame: 2 to 4) and, with ``board=``, the board's own (or left out).
:meth:`~TronParallelEnv.render` and :meth:`~TronParallelEnv.state`, like
:meth:`~TronParallelEnv.step`, need a :meth:`~TronParallelEnv.reset` first.

``pettingzoo`` is an optional dependency: ``pip install tronlab[pettingzoo]``.
"""

from __future__ import annotations

import functools

import numpy as np

from .board import FREE, TRAIL, Board
from .match import Match
from .rules import get_rules
from .values import check_positive, is_whole

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError("tronlab.tron.env needs PettingZoo: pip install 'tronlab[pettingzoo]'") \
        from err

__all__ = ["TronParallelEnv", "parallel_env"]


def parallel_env(rules: str = "google2010", **options) -> "TronParallelEnv":
    """A :class:`TronParallelEnv` for ``rules`` (google2010, codingame or lightriders)."""
    return TronParallelEnv(rules, **options)


def _players(rules, board: Board | None, n_players) -> int:
    """The number of players, checked against the rules and ``board``."""
    if n_players is not None and not is_whole(n_players):
        raise TypeError(f"n_players is an int, got {type(n_players).__name__}")
    if board is not None:
        if not isinstance(board, Board):
            raise TypeError(f"board is a tronlab Board, got {type(board).__name__}")
        if n_players is not None and n_players != board.n_players:
            raise ValueError(f"n_players={n_players} but the board has {board.n_players} "
                             f"players: leave n_players out or give a {n_players}-player board")
        rules.check(board)
        return board.n_players
    n = 2 if n_players is None else int(n_players)
    if not rules.min_players <= n <= rules.max_players:
        span = (str(rules.min_players) if rules.min_players == rules.max_players
                else f"{rules.min_players} to {rules.max_players}")
        raise ValueError(f"{rules.name} is played by {span} players, got n_players={n}")
    return n


def _check_max_cycles(max_cycles):
    if max_cycles is None:
        return None
    return check_positive(max_cycles, "max_cycles", " (or None)")


def _check_size(rules: str, size, board) -> tuple:
    """``(width, height)`` of google2010's random maps; ``size`` is refused where unused."""
    if size is None:
        return (15, 15)
    if board is not None or rules != "google2010":
        where = "with board=" if board is not None else f"for {rules}, whose boards are fixed"
        raise ValueError(f"size is the random map's (width, height) for google2010; it has "
                         f"no use {where}: leave it out")
    if not (isinstance(size, (tuple, list)) and len(size) == 2 and all(map(is_whole, size))):
        raise TypeError(f"size is (width, height), two ints, got {size!r}")
    return int(size[0]), int(size[1])


def _start_board(rules: str, size, n_players: int, rng) -> Board:
    from .mapgen import codingame_board, lightriders_board, random_map
    if rules == "codingame":
        return codingame_board(n_players, rng=rng)
    if rules == "lightriders":
        return lightriders_board(rng=rng)
    return random_map(*size, rng=rng)


class TronParallelEnv(ParallelEnv):
    """See the module docstring."""

    metadata = {"name": "tronlab_tron_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, rules: str = "google2010", *, board: Board | None = None,
                 size=None, n_players: int | None = None, max_cycles: int | None = None,
                 render_mode: str | None = None):
        self.rules = get_rules(rules).name
        n_players = _players(get_rules(self.rules), board, n_players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', got {render_mode!r}")
        self._fixed = None if board is None else board.copy()
        self.size = _check_size(self.rules, size, board)
        self.render_mode = render_mode
        self.max_cycles = _check_max_cycles(max_cycles)
        self.possible_agents = [f"player_{p}" for p in range(n_players)]
        probe = self._fixed or _start_board(self.rules, self.size, n_players,
                                            np.random.default_rng(0))
        self._shape = (3, probe.height, probe.width)
        self.state_space = spaces.Box(0, TRAIL + n_players - 1, dtype=np.uint8,
                                      shape=(probe.height + 2, probe.width + 2))
        self._rng = np.random.default_rng()
        self.match: Match | None = None
        self.agents: list[str] = []

    # ---- spaces (one object per agent, as the API asks) ----------------------------------------
    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return spaces.Dict({
            "observation": spaces.Box(0, 1, shape=self._shape, dtype=np.uint8),
            "action_mask": spaces.Box(0, 1, shape=(4,), dtype=np.int8),
        })

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return spaces.Discrete(4)

    # ---- observations -------------------------------------------------------------------------
    def observe(self, agent) -> dict:
        board = self.match.board
        p = self.possible_agents.index(agent)
        planes = np.zeros(self._shape, np.uint8)
        planes[0] = board.cells[1:-1, 1:-1] != FREE
        if board.alive[p]:
            planes[1][board.head_xy(p)[::-1]] = 1
        for q in range(board.n_players):
            if q != p and board.alive[q]:
                planes[2][board.head_xy(q)[::-1]] = 1
        mask = np.zeros(4, np.int8)
        if board.alive[p]:
            mask[board.legal_moves(p)] = 1
        return {"observation": planes, "action_mask": mask}

    def _observations(self):
        return {a: self.observe(a) for a in self.agents}

    # ---- the API ------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        board = self._fixed if self._fixed is not None else _start_board(
            self.rules, self.size, len(self.possible_agents), self._rng)
        self.match = Match(board, self.rules)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _game(self, method: str) -> Match:
        if self.match is None:
            raise RuntimeError(f"call reset() before {method}()")
        return self.match

    def _answers(self, actions) -> dict:
        """``{player: move}`` for the agents in play; see the module docstring."""
        if not isinstance(actions, dict):
            raise TypeError(f"actions is a dict {{agent: action}}, got {type(actions).__name__}")
        unknown = [a for a in actions if a not in self.possible_agents]
        missing = [a for a in self.agents if a not in actions]
        if unknown or missing:
            raise ValueError(f"actions must name every agent in play ({', '.join(self.agents)})"
                             f"; unknown: {unknown or 'none'}, missing: {missing or 'none'}")
        answers = {}
        for a in self.agents:
            if isinstance(actions[a], bool) or not self.action_space(a).contains(actions[a]):
                raise ValueError(f"{a}'s action must be an element of Discrete(4), an int "
                                 f"0-3 (up, right, down, left), got {actions[a]!r}")
            answers[self.possible_agents.index(a)] = int(actions[a])
        return answers

    def step(self, actions):
        self._game("step")
        before = list(self.agents)
        answers = self._answers(actions)
        turn = self.match.next_turn
        while not self.match.over and self.match.next_turn == turn:
            self.match.step({p: answers.get(p, (None, "illegal", "no action given"))
                             for p in self.match.to_move()})
        return self._after_turn(before)

    def _after_turn(self, before):
        board, over = self.match.board, self.match.over
        truncated = (not over and self.max_cycles is not None
                     and self.match.turns >= self.max_cycles)
        winner = self.match.outcome().winner if over else None
        rewards, terms, truncs, infos = {}, {}, {}, {}
        for a in before:
            p = self.possible_agents.index(a)
            dead = not board.alive[p]
            if over:
                rewards[a] = 0.0 if winner is None else (1.0 if p == winner else -1.0)
            else:
                rewards[a] = -1.0 if dead else 0.0
            terms[a] = bool(dead or over)
            truncs[a] = bool(truncated and not terms[a])
            infos[a] = {}
        observations = {a: self.observe(a) for a in before}
        self.agents = [a for a in before if not (terms[a] or truncs[a])]
        if self.render_mode == "ansi":
            self.render()
        return observations, rewards, terms, truncs, infos

    def render(self):
        board = self._game("render").board
        return None if self.render_mode is None else board.to_ascii()

    def state(self) -> np.ndarray:
        """The whole padded board as a ``uint8`` grid of cell codes, shape ``(height+2,
        width+2)`` (see :mod:`tronlab.tron.board` and ``state_space``)."""
        return self._game("state").board.cells.copy()

    def close(self):
        pass
