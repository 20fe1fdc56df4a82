"""One Tron game in progress, advanced one step at a time (the step API).

:class:`Match` is the single game loop of the Tron rule sets: :func:`tronlab.play`,
the board widget, record replay and the PettingZoo environment all drive one.
It knows the rules, not the bots: the caller asks :meth:`Match.to_move` who must
move now, shows each of them :meth:`Match.view`, and hands the answers to
:meth:`Match.step`, which applies them and returns what happened.

* Simultaneous rules (google2010, lightriders): a step is a whole turn; every
  living player moves in it.
* codingame: a step is one player's sub-move, in player order; the players
  later in the turn see the earlier sub-moves.  A turn ends after the last
  living player's sub-move, or as soon as one player is left.

An answer is a move (0-3, a name such as ``"up"``, or None) or a tuple
``(move, fault, note)``: ``fault`` is a code from
:data:`tronlab.tron.rules.FAULTS` that explains a None move ("timeout",
"error", ...), ``note`` a sentence for people.

>>> from tronlab.tron.board import Board
>>> m = Match(Board.from_ascii('''
...     #######
...     #1...2#
...     #######
... '''))
>>> m.to_move()
[0, 1]
>>> m.step({0: "right", 1: "left"}).deaths
[]
>>> m.step({0: "right", 1: "left"}).deaths      # both enter the middle square
[(0, 'head-on'), (1, 'head-on')]
>>> m.over, m.outcome().winner, m.turns
(True, None, 2)
"""

from __future__ import annotations

from typing import NamedTuple

from .board import Board, check_player, parse_move
from .rules import DeathLog, get_rules
from .values import is_whole


class Step(NamedTuple):
    """What one step did: the turn it belongs to, the players that moved, the
    deaths as ``(player, reason)`` and their sentences, and whether the game is over."""
    turn: int
    players: list[int]
    deaths: list[tuple[int, str]]
    details: list[str]
    over: bool


def _answer(value):
    """``(move, fault, note)`` from a bare move or a triple; a move name becomes 0-3."""
    triple = isinstance(value, tuple) and len(value) == 3
    move, fault, note = value if triple else (value, None, None)
    return (None if move is None else parse_move(move)), fault, note


class Match:
    """A game under ``rules`` from ``board`` (not changed), stepped from outside."""

    def __init__(self, board: Board, rules="google2010"):
        self.rules = get_rules(rules)
        self.rules.check(board)
        self.start = board.copy()
        self.board = board.copy()
        self.moves: list[list] = []          # one list per finished turn, None = not asked
        self.log = DeathLog(board.n_players, simultaneous=self.rules.simultaneous)
        self._turn_moves: list | None = None  # codingame: the turn in progress
        self._turn_deaths: list = []
        self._next = 0                        # codingame: the next seat to consider

    # ---- where we are -----------------------------------------------------------------------
    @property
    def turns(self) -> int:
        """Finished turns."""
        return len(self.moves)

    @property
    def next_turn(self) -> int:
        """The number of the turn the next step belongs to (turns count from 1)."""
        return len(self.moves) + 1

    @property
    def over(self) -> bool:
        """True once at most one player is alive (and its turn is finished)."""
        return self._turn_moves is None and bool(self.rules.game_over(self.board))

    def to_move(self) -> list[int]:
        """The players whose answers the next :meth:`step` needs, in player order."""
        if self.over:
            return []
        alive = [p for p in range(self.board.n_players) if self.board.alive[p]]
        if self.rules.simultaneous:
            return alive
        return [next(p for p in alive if p >= self._next)]

    def view(self, player: int) -> Board:
        """A copy of the board as ``player`` sees it before its move."""
        check_player(self.board, player)
        return self.board.copy()

    def effective_move(self, player: int, move):
        """The move the rules will make for ``move`` this turn (lightriders keeps straight)."""
        return self.rules.effective_move(self.board, player, move, turn=self.next_turn)

    # ---- moving -----------------------------------------------------------------------------
    def step(self, answers) -> Step:
        """Apply the answers (a dict ``{player: answer}`` or a list by player) of
        every player in :meth:`to_move`; see the module docstring.  Answers of the
        board's other players are ignored; a key that is no player of the board (or a
        list longer than the players) is a ValueError."""
        players = self.to_move()
        if not players:
            raise ValueError("the game is over: no player is to move")
        if not isinstance(answers, dict):
            answers = dict(enumerate(answers))
        strangers = [p for p in answers if not (is_whole(p) and 0 <= p < self.board.n_players)]
        if strangers:
            raise ValueError(f"turn {self.next_turn}: an answer for {strangers[0]!r}, which is "
                             f"no player of this board (players 0..{self.board.n_players - 1})")
        missing = [p for p in players if p not in answers]
        if missing:
            raise ValueError(f"turn {self.next_turn}: no answer for player {missing[0]} "
                             f"(players to move: {players})")
        turn = self.next_turn
        triples = {p: _answer(answers[p]) for p in players}
        if self.rules.simultaneous:
            moves, deaths = self.rules.play_turn(self.board, lambda p, _b: triples[p], turn=turn)
            self._finish_turn(turn, moves, deaths)
        else:
            deaths = self._sub_move(players[0], triples[players[0]], turn)
        return Step(turn, players, [(p, r) for p, r, _ in deaths], [d for _, _, d in deaths],
                    self.over)

    def _sub_move(self, player, triple, turn):
        if self._turn_moves is None:
            self._turn_moves, self._turn_deaths = [None] * self.board.n_players, []
        move, fault, note = triple
        self._turn_moves[player] = move
        death = self.rules.sub_move(self.board, player, move, turn=turn, fault=fault, note=note)
        deaths = [] if death is None else [death]
        self._turn_deaths += deaths
        self._next = player + 1
        later = [p for p in range(self._next, self.board.n_players) if self.board.alive[p]]
        if not later or self.rules.game_over(self.board):
            self._finish_turn(turn, self._turn_moves, self._turn_deaths)
        return deaths

    def _finish_turn(self, turn, moves, deaths):
        self.moves.append(list(moves))
        self.log.add(turn, deaths)
        self._turn_moves, self._turn_deaths, self._next = None, [], 0

    # ---- results ----------------------------------------------------------------------------
    def outcome(self):
        """The :class:`~tronlab.tron.rules.Outcome` so far (final once :attr:`over`)."""
        return self.log.outcome(self.turns)

    def record(self, *, metadata=None, events=None):
        """The game so far as a :class:`~tronlab.runner.records.GameRecord`."""
        from ..runner.records import GameRecord
        return GameRecord(self.rules.name, self.start.copy(), [list(m) for m in self.moves],
                          self.outcome(), metadata=dict(metadata or {}),
                          events=list(events or []), final=self.board.copy())
