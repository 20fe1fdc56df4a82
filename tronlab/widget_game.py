"""A person against bots, one turn per key press, for the board widget (X1).

:class:`Game` wraps the shared step API (:class:`tronlab.tron.match.Match`): the person is
player 0 and answers through :meth:`Game.step`; the bots are asked in the kernel, and a bot
that raises or returns nonsense loses instead of breaking the widget.
"""

from __future__ import annotations

import numpy as np

from .tron.board import Board, parse_move
from .tron.values import is_whole

__all__ = ["Game", "default_board", "bot_label", "make_bot", "child_rngs", "seed_rng",
           "seed_or_rng"]


def seed_rng(seed) -> np.random.Generator:
    """``seed`` as a Generator: a Generator as it is, a non-negative int seeds a new one."""
    if isinstance(seed, np.random.Generator):
        return seed
    if not is_whole(seed):
        raise TypeError(f"seed is an int or a numpy Generator, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed is a non-negative int or a numpy Generator, got {seed!r}")
    return np.random.default_rng(int(seed))


def seed_or_rng(seed, rng, *, default):
    """The one of ``seed`` and its other name ``rng`` that was given (``seed`` left at
    ``default``); both given is a TypeError."""
    if rng is None:
        return seed
    if seed is not default:
        raise TypeError(f"give seed or rng, not both (rng is seed's other name): got "
                        f"seed={seed!r} and rng={rng!r}")
    return rng


def child_rngs(rng: np.random.Generator, n: int) -> list:
    """``n`` independent Generators drawn from ``rng``: the same streams as
    ``rng.spawn(n)``, which needs numpy 1.25; this works from numpy 1.17 on (every
    BitGenerator keeps its ``SeedSequence`` in ``_seed_seq``, made public as
    ``seed_seq`` in 1.25)."""
    bits = rng.bit_generator
    seq = getattr(bits, "seed_seq", None) or getattr(bits, "_seed_seq", None)
    if not isinstance(seq, np.random.SeedSequence):      # e.g. a legacy-seeded MT19937
        seq = np.random.SeedSequence(int(rng.integers(2**63)))
    return [np.random.Generator(type(bits)(child)) for child in seq.spawn(n)]


def default_board(rules, rng, n_players: int = 2) -> Board:
    """A fresh start board for ``rules`` when the caller gives none."""
    if rules.name == "lightriders":
        from .tron.mapgen import lightriders_board
        return lightriders_board(rng=rng)
    if rules.name == "codingame":
        from .tron.mapgen import codingame_board
        return codingame_board(n_players, rng=rng)
    from .tron.mapgen import load_builtin
    return load_builtin("arena")


def bot_label(bot) -> str:
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "name", None) or getattr(bot, "__name__", None) or type(bot).__name__)


def make_bot(bot, rng):
    if callable(bot):
        return bot
    if isinstance(bot, str):
        from .runner.registry import get_bot
        return get_bot(bot, rng=rng)
    raise TypeError(f"a bot is a registered name (str) or a callable bot(board, player), "
                    f"got {type(bot).__name__}")


class Game:
    """A person-vs-bots game on the shared step API (:class:`tronlab.tron.match.Match`),
    stepped one human move at a time; the person is player 0."""

    def __init__(self, board: Board, bots, rules, rng):
        from .tron.match import Match

        self.match = Match(board, rules)
        self.rules = self.match.rules
        self.names = ["you"] + [bot_label(b) for b in bots]
        rngs = child_rngs(rng, len(bots))
        self.bots = [None] + [make_bot(b, r) for b, r in zip(bots, rngs)]
        self.events: list[dict] = []
        self.pending: dict[int, tuple[str, str]] = {}   # faults raised before the first move
        for p in range(1, board.n_players):
            hook = getattr(self.bots[p], "start_game", None)
            if hook is None:
                continue
            try:
                hook(board.copy(), p, rules=self.rules.name, time_limit=None, rng=rngs[p - 1])
            except Exception as err:  # noqa: BLE001 - the bot loses, the widget carries on
                self.pending[p] = ("error", f"in start_game: {type(err).__name__}: {err}")

    @property
    def board(self) -> Board:
        return self.match.board

    @property
    def moves(self) -> list:
        return self.match.moves

    @property
    def turn(self) -> int:
        return self.match.turns

    def _ask_bot(self, player: int, board: Board):
        """``(move, fault, note)`` for the step API; a bot never breaks the game.

        Bots run in the kernel without a clock: a bot that never returns blocks
        the widget (use :func:`tronlab.runner.engine.play` with ``time_limit`` to race
        untrusted bots).
        """
        turn = self.match.next_turn
        if player in self.pending:
            fault, note = self.pending.pop(player)
            self.events.append({"turn": turn, "player": player, "kind": fault, "detail": note})
            return None, fault, note
        try:
            raw = self.bots[player](board, player)
        except Exception as err:  # noqa: BLE001
            fault, note = "error", f"{type(err).__name__}: {err}"
        else:
            try:
                return parse_move(raw), None, None
            except (TypeError, ValueError) as err:
                fault, note = "illegal", f"returned {raw!r}: {err}"
        self.events.append({"turn": turn, "player": player, "kind": fault, "detail": note})
        return None, fault, note

    def step(self, human_move) -> dict:
        """One turn with the person's move (None once the person is out); returns the deaths."""
        deaths = {}
        turn = self.match.next_turn
        while not self.match.over and self.match.next_turn == turn:
            answers = {p: (human_move, None, None) if p == 0 else
                       self._ask_bot(p, self.match.view(p)) for p in self.match.to_move()}
            deaths.update(self.match.step(answers).deaths)
        return deaths

    @property
    def over(self) -> bool:
        return self.match.over

    def outcome(self):
        return self.match.outcome()

    def record(self):
        return self.match.record(metadata={"names": list(self.names)}, events=self.events)
