"""The rules of three Tron games, as move resolution on a :class:`Board` (technique E2).

Each rule set is a small object from :func:`get_rules`:

``google2010`` - Google AI Challenge 2010: 2 players move at the same time.  A
    player dies entering a wall, any trail (both current heads are trail) or
    the outside of the grid; two players entering the same square both die
    ("head-on"), and so do two players swapping squares ("swap").  The square
    a player leaves stays behind as its trail, which is a wall to everyone.
    A player without a usable move (``None``) dies; the engine says why.

``lightriders`` - riddles.io Light Riders: resolved like ``google2010``, but
    a missing or unusable command never kills: ``None`` (a pass, bad text, a
    timeout, an exception) and, from round 2 on, a reverse all mean "keep
    going straight" in ``board.facing``.  In round 1 a reverse is a real
    turn.  Every living player therefore needs a facing (``board.facing``
    not -1); :func:`lightriders_board <tronlab.tron.mapgen.lightriders_board>`
    sets it.  The square of a head-on collision becomes a wall (under
    ``google2010`` it stays free).

``codingame`` - CodinGame Tron Battle: 2-4 players move one after another in
    index order, each seeing the moves already made this turn.  Entering any
    trail (its own too), a wall or the outside of the grid kills, as does no
    usable move.  A dead player's whole trail, head included, becomes free.
    Only one player moves at a time, so deaths never tie.

Turns are numbered from 1 (the first move of the game is turn 1).  A move is
0-3 (up, right, down, left) or ``None``.

Reason codes
------------
Every death is explained by one code from :data:`REASONS` (the only place the
vocabulary is defined); the engine adds a sentence with the details.  The
codes in :data:`FAULTS` are about the bot rather than the board: the engine
hands them to the rules for a player whose move is ``None``.

>>> from tronlab.tron.board import Board
>>> b = Board.from_ascii('''
...     #####
...     #1.2#
...     #####
... ''')
>>> get_rules("google2010").apply(b, [1, 3], turn=1)
{0: 'head-on', 1: 'head-on'}
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from .board import FREE, TRAIL, WALL, Board, in_play, opposite
from .outcome import DeathLog, Outcome, rank_players  # noqa: F401 - part of the rules' API
from .values import is_whole

REASONS = {
    "wall": "hit a wall",
    "trail": "hit a trail",
    "edge": "left the grid",
    "head-on": "entered the same square as another player",
    "swap": "swapped squares with another player",
    "timeout": "ran out of time",
    "error": "the bot raised an exception",
    "illegal": "returned something that is not a move",
    "bad-output": "printed output that is not a move",
    "exited": "the bot's program ended",
}
FAULTS = ("timeout", "error", "illegal", "bad-output", "exited")


def collision(board: Board, target: int) -> str | None:
    """Why entering flat square ``target`` kills ("edge", "wall", "trail"), or None if free."""
    if not in_play(board, target):
        return "edge"
    code = board.flat[target]
    if code == FREE:
        return None
    return "wall" if code == WALL else "trail"


def _check_move(move, player):
    if move is None:
        return None
    if is_whole(move) and 0 <= move <= 3:
        return int(move)
    raise ValueError(f"player {player}: a move given to the rules is 0-3 or None, got {move!r}")


def _check_fault(fault, player):
    if fault not in FAULTS:
        raise ValueError(f"player {player}: fault {fault!r} is not one of {', '.join(FAULTS)}")
    return fault


class Rules(ABC):
    """Common part of the rule sets; use :func:`get_rules`."""

    name = ""
    simultaneous = True
    min_players = 2
    max_players = 2
    description = ""

    def check(self, board: Board) -> None:
        """Raise ValueError if a game under these rules cannot start on ``board``."""
        if not isinstance(board, Board):
            raise TypeError(f"{self.name}: expected a Board, got {type(board).__name__}")
        n = board.n_players
        if not self.min_players <= n <= self.max_players:
            span = (str(self.min_players) if self.min_players == self.max_players
                    else f"{self.min_players} to {self.max_players}")
            raise ValueError(f"{self.name} is played by {span} players; this board has {n}")
        dead = [p for p in range(n) if not board.alive[p]]
        if dead:
            raise ValueError(f"{self.name}: player {dead[0]} is already dead on the start board")
        for p in range(n):
            if board.flat[board.heads[p]] != TRAIL + p:
                raise ValueError(f"{self.name}: player {p}'s head square does not hold its trail")

    def game_over(self, board: Board) -> bool:
        """True once at most one player is alive."""
        return int(np.count_nonzero(board.alive)) <= 1

    def effective_move(self, board: Board, player: int, move, *, turn: int):
        """The move the rules will actually make for ``move`` (or None: no move)."""
        return _check_move(move, player)

    @abstractmethod
    def play_turn(self, board: Board, choose, *, turn: int):
        """Play one whole turn on ``board`` (mutated), asking ``choose`` for the moves.

        ``choose(player, board) -> (move, fault, note)`` gives a player's move
        (0-3 or None), the fault code explaining a None move (or None) and a
        note for people.  Simultaneous rules ask every living player first,
        then move them all; codingame asks and moves one player at a time and
        stops as soon as one player is left.  Returns ``(moves, deaths)``:
        the move received from each player (None if not asked) and
        ``[(player, reason, detail), ...]`` in the order the players died.
        """

    def __repr__(self):
        return f"get_rules({self.name!r})"


def _describe(board: Board, player: int, target: int, code: int, reason: str, *,
              turn: int, others=(), note=None) -> str:
    """A sentence about a death; ``code`` is what ``target`` held before the move."""
    where = board.xy(target) if target >= 0 else None
    if reason == "edge":
        text = f"left the grid at {where}"
    elif reason == "wall":
        text = f"hit a wall at {where}"
    elif reason == "trail":
        owner = int(code) - TRAIL
        whose = "its own trail" if owner == player else f"player {owner}'s trail"
        text = f"hit {whose} at {where}"
    elif reason == "head-on":
        text = f"met player {', '.join(map(str, others))} head-on at {where}"
    elif reason == "swap":
        text = f"swapped squares with player {', '.join(map(str, others))}"
    else:
        text = REASONS[reason] + (f": {note}" if note else "")
    return f"turn {turn}: {text}"


class _Simultaneous(Rules):
    simultaneous = True

    def apply(self, board: Board, moves, *, turn: int, faults=None) -> dict[int, str]:
        """Make one turn of simultaneous moves; mutates ``board``; returns deaths.

        ``moves`` holds one entry per player (ignored for dead players);
        ``faults`` maps a player whose move is None to a code from
        :data:`FAULTS` (default "illegal").  Returns ``{player: reason}``.
        """
        deaths, targets = self._resolve(board, moves, turn, faults or {})
        self._advance(board, deaths, targets)
        return deaths

    def _resolve(self, board, moves, turn, faults):
        """Who dies and where everybody goes: ``(deaths, {player: (target, move)})``."""
        n = board.n_players
        if len(moves) != n:
            raise ValueError(f"{self.name}: {len(moves)} moves for {n} players")
        deaths: dict[int, str] = {}
        targets: dict[int, tuple[int, int]] = {}
        for p in range(n):
            if not board.alive[p]:
                continue
            m = self.effective_move(board, p, moves[p], turn=turn)
            if m is None:
                deaths[p] = _check_fault(faults.get(p, "illegal"), p)
            else:
                targets[p] = (int(board.heads[p] + board.offsets[m]), m)
        for p, (t, _) in targets.items():
            others = [(q, tq) for q, (tq, _) in targets.items() if q != p]
            if any(tq == board.heads[p] and t == board.heads[q] for q, tq in others):
                deaths[p] = "swap"
                continue
            reason = collision(board, t)
            if reason is None and any(tq == t for _, tq in others):
                reason = "head-on"
            if reason is not None:
                deaths[p] = reason
        return deaths, targets

    @staticmethod
    def _advance(board, deaths, targets):
        for p, (t, m) in targets.items():
            if p not in deaths:
                board.flat[t] = TRAIL + p
                board.heads[p] = t
                board.facing[p] = m
        for p in deaths:
            board.alive[p] = False

    def play_turn(self, board: Board, choose, *, turn: int):
        n = board.n_players
        moves, faults, notes = [None] * n, {}, {}
        for p in range(n):
            if board.alive[p]:
                moves[p], fault, notes[p] = choose(p, board)
                if fault is not None:
                    faults[p] = fault
        deaths, targets = self._resolve(board, moves, turn, faults)
        out = []
        for p, reason in sorted(deaths.items()):
            t = targets[p][0] if p in targets else -1
            if reason == "head-on":
                others = [q for q in targets if q != p and targets[q][0] == t]
            else:   # swap partners (empty for other reasons)
                others = [q for q in targets if q != p and targets[q][0] == board.heads[p]
                          and t == board.heads[q]]
            code = int(board.flat[t]) if t >= 0 else 0
            out.append((p, reason, _describe(board, p, t, code, reason, turn=turn,
                                             others=others, note=notes[p])))
        self._advance(board, deaths, targets)
        return moves, out


class Google2010(_Simultaneous):
    name = "google2010"
    description = "Google AI Challenge 2010: 2 players, simultaneous moves, no move = death"


class LightRiders(_Simultaneous):
    name = "lightriders"
    description = ("riddles.io Light Riders: 2 players, simultaneous, a reverse (after round 1), "
                   "pass, bad text or timeout keeps going straight")

    def check(self, board: Board) -> None:
        super().check(board)
        for p in range(board.n_players):
            if not 0 <= board.facing[p] <= 3:
                raise ValueError(f"lightriders: player {p} has no facing (board.facing[{p}] is "
                                 f"{int(board.facing[p])}); 'keep going straight' needs one")

    def _advance(self, board, deaths, targets):
        super()._advance(board, deaths, targets)
        for p, reason in deaths.items():
            if reason == "head-on":     # the square both entered becomes a wall
                board.flat[targets[p][0]] = WALL

    def effective_move(self, board: Board, player: int, move, *, turn: int):
        move = _check_move(move, player)
        facing = int(board.facing[player])
        if facing < 0:
            return move
        if move is None or (turn > 1 and move == opposite(facing)):
            return facing
        return move


class CodinGame(Rules):
    name = "codingame"
    simultaneous = False
    max_players = 4
    description = ("CodinGame Tron Battle: 2-4 players, sub-moves in player order, "
                   "a dead player's trail is removed")

    def apply_one(self, board: Board, player: int, move, *, turn: int, fault=None) -> str | None:
        """Make ``player``'s sub-move; mutates ``board``; returns the death reason or None.

        ``fault`` (one of :data:`FAULTS`, default "illegal") explains a None move.
        """
        if not board.alive[player]:
            raise ValueError(f"codingame: player {player} is dead and cannot move")
        move = _check_move(move, player)
        if move is None:
            reason = _check_fault(fault or "illegal", player)
        else:
            target = int(board.heads[player] + board.offsets[move])
            reason = collision(board, target)
        if reason is not None:
            board.alive[player] = False
            board.cells[board.cells == TRAIL + player] = FREE
            return reason
        board.flat[target] = TRAIL + player
        board.heads[player] = target
        board.facing[player] = move
        return None

    def sub_move(self, board: Board, player: int, move, *, turn: int, fault=None, note=None):
        """:meth:`apply_one` with the death explained: ``(player, reason, detail)`` or None."""
        checked = _check_move(move, player)
        target = -1 if checked is None else int(board.heads[player] + board.offsets[checked])
        code = 0 if target < 0 else int(board.flat[target])
        reason = self.apply_one(board, player, checked, turn=turn, fault=fault)
        if reason is None:
            return None
        return (player, reason, _describe(board, player, target, code, reason, turn=turn,
                                          note=note))

    def play_turn(self, board: Board, choose, *, turn: int):
        moves, out = [None] * board.n_players, []
        for p in range(board.n_players):
            if not board.alive[p] or self.game_over(board):
                continue
            move, fault, note = choose(p, board)
            moves[p] = move
            death = self.sub_move(board, p, move, turn=turn, fault=fault, note=note)
            if death is not None:
                out.append(death)
        return moves, out


_RULES = {r.name: r for r in (Google2010(), LightRiders(), CodinGame())}


def rules_names() -> list[str]:
    return list(_RULES)


def get_rules(name) -> Rules:
    """The rule set called ``name``: 'google2010', 'lightriders' or 'codingame' (or a Rules)."""
    if isinstance(name, Rules):
        return name
    if not isinstance(name, str):
        raise TypeError(f"rules are named by a str, got {type(name).__name__}")
    key = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    if key not in _RULES:
        raise ValueError(f"unknown rules {name!r}; known: {', '.join(_RULES)}")
    return _RULES[key]
