"""The rules of Back to the Code (CodinGame 2015), technique B1.

:func:`reset` starts a game, :func:`step` plays one round: every active
player's action is read first, then all are applied together.  An action is
a target ``(x, y)``, ``("BACK", n)``, or a fault code of
:data:`~tronlab.capture.state.FAULTS`.

The game.  Two to four players on a grid (35x20 by default), every square
neutral at the start but the players' start squares.  Each round every active
player names a target and walks one square toward it, changing x first, then
y.  A player standing alone on a neutral square at the end of a round takes
it.  A player whose new square is next (up, down, left, right) to a square it
stood on two or more rounds ago looks for enclosures: every neutral region
around it, flooded with diagonal steps too, becomes its own unless the region
reaches the grid's outer ring or touches, diagonals included, a square owned
by another player (:mod:`~tronlab.capture.enclosure`).  Once a game each
player may play ``BACK n`` (n from 1 to 25): the whole game goes back n
rounds.  A player's score is the number of squares it owns; the game lasts
at most 350, 300 or 250 rounds for 2, 3 or 4 players
(:data:`~tronlab.capture.state.ROUND_LIMITS`) and ends sooner as listed at
the end of this text.  These are the contest's rules, as its statement on
CodinGame gives them; the points that statement leaves open are settled here:

* **Order inside a round.**  Eliminations first (the player neither moves
  nor stands anywhere this round), then all moves, then captures player by
  player in id order: player 0's standing capture, player 0's enclosures,
  player 1's standing capture, ...  "Alone on a square" is judged on the
  positions after all moves.  This is the reading under which the id order
  matters as the contest's statement says: a lower id standing alone inside a higher id's
  region takes its square first and so spoils the region, while a higher id
  standing inside a lower id's region is too late (the region, its square
  included, is already taken).  Enclosures alone could not spoil each other:
  a region taken is a whole 8-connected component, so it touches no other
  region.  A player eliminated in a round that a ``BACK`` throws away stays
  eliminated.
* **Enclosure trigger.**  Player ``p`` looks for enclosures in round ``r``
  when its new square is orthogonally next to a square it stood on at the end
  of a round ``k <= r - 2`` of the current timeline; its start square counts
  as round 0.  ``BACK`` rewinds these squares too.
* **BACK.**  In round ``r`` the n of all valid BACKs add up and the game
  goes back ``m = min(sum, r - 1)`` rounds: owners, positions and the
  squares stood on become those at the end of round ``r - m - 1`` and
  ``round`` becomes ``r - m``.  Eliminations and BACKs used stay as they
  are, and the idle count restarts.
* **Errors in actions.**  ``("BACK", n)`` from a player with no BACK left
  eliminates it ("second-back"); ``n`` outside 1..25 eliminates it
  ("back-range"); a target off the grid eliminates it ("off-grid"); anything
  that is neither a target, a BACK nor a fault code is "bad-output".  An
  eliminating BACK does not count toward the rewind.
* **Idle rounds.**  A round counts as idle when no player active at its end
  changed square and nobody used BACK (players eliminated in it do not count
  as moving).  Any turn with a valid BACK resets the count.
* **Ranking decided.**  Score intervals as the contest's statement says; two intervals
  overlap when they share a value, two equal single values too (two players tied
  for good keep the game going, as the contest's rule reads).  The check runs
  after every round actually played (not after a turn that went back in time);
  when it succeeds the next turn is played, whatever it does, and the game ends
  after it.
* **Which ending.**  After a turn the first that applies of: nobody active
  ("no-active-player"), the decided game's extra turn ("decided"), round
  ``round_limit`` completed without a rewind ("round-limit"), 25 idle
  rounds ("idle").  Ranks: 1 + the number of players with a higher score.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

import numpy as np

from ..runner.reprs import safe_repr
from . import enclosure
from .checks import check_view
from ..tron.values import check_flag, is_whole
from .starts import as_rng, random_starts, symmetric_starts
from .state import (FAULTS, IDLE_ROUNDS, MAX_BACK, NEUTRAL, Snapshot, State, frozen,
                    initial_state, make_config)

SHOWN = 117  # characters of a value shown in a note (at most 120 with the "...")

#: event kinds that eliminate a player: the fault codes and the rule breaches
ELIMINATIONS = FAULTS + ("second-back", "back-range", "off-grid")
REASONS = ("no-active-player", "decided", "round-limit", "idle")


class Event(NamedTuple):
    """Something that happened in a turn: ``kind`` is one of
    :data:`ELIMINATIONS`, "back" (``detail`` = the n asked) or "rewind"."""
    round: int
    player: int | None
    kind: str
    detail: str


class Outcome(NamedTuple):
    """How a game ended; ``round`` is the last in-game round completed.

    ``scores[p]`` is the squares player ``p`` owns and ``ranks[p]`` its place, 1 the
    best, tied players sharing one (:func:`ranks_of`).  Not the shape of the Tron
    game's :class:`tronlab.Outcome`, whose ``ranking`` lists groups of players best
    first and ``winner`` names one; a :class:`~tronlab.capture.game.CaptureRecord`
    keeps this one as a dict (``record.outcome["ranks"]``)."""
    reason: str
    scores: tuple
    ranks: tuple
    round: int
    turns: int


class StepResult(NamedTuple):
    state: State
    events: list
    outcome: Outcome | None


def reset(n_players: int, *, rng=None, width: int = 35, height: int = 20, starts=None,
          symmetric: bool = True, round_limit: int | None = None) -> State:
    """A new game: explicit ``starts``, else point-symmetric (or random
    distinct, ``symmetric=False``) starts drawn with ``rng``.

    >>> s = reset(2, rng=7)
    >>> s.round, s.positions, s.scores()
    (1, ((31, 18), (3, 1)), (1, 1))
    """
    config = make_config(n_players, width=width, height=height, round_limit=round_limit)
    symmetric = check_flag(symmetric, "symmetric")      # 'no' drew symmetric starts
    if starts is None:
        starts = (symmetric_starts if symmetric else random_starts)(config, as_rng(rng))
    return initial_state(config, starts)


def read_action(action, state: State, player: int):
    """``(kind, value)``: ("move", (x, y)), ("back", n), or an elimination
    kind of :data:`ELIMINATIONS` with a text saying why.

    >>> s = reset(2, rng=7)
    >>> read_action([3, 4], s, 0), read_action(("BACK", 3), s, 0)
    (('move', (3, 4)), ('back', 3))
    >>> print(read_action("BACK 3", s, 0)[1])      # doctest: +ELLIPSIS
    not an action: 'BACK 3' (that is the contest's text form; ...: here ("BACK", 3))
    """
    player = check_view(state, player, "state")
    if isinstance(action, str):
        if action in FAULTS:
            return action, f"fault: {action}"
        return "bad-output", (f"not an action: {safe_repr(action, SHOWN)}"
                              f"{_text_form_hint(action)}")
    if isinstance(action, np.ndarray):
        return "bad-output", (f"not an action: {safe_repr(action, SHOWN)} (a numpy array of "
                              f"{action.dtype} shaped {action.shape}; a target is a tuple (x, y) "
                              f"of two ints)")
    if not isinstance(action, (tuple, list)) or len(action) != 2:
        return "bad-output", f"not an action: {safe_repr(action, SHOWN)}"
    a, b = action
    if not is_whole(b):
        return "bad-output", f"not an action: {safe_repr(action, SHOWN)}"
    if isinstance(a, str) and a.upper() == "BACK":
        if state.backs_left[player] < 1:
            return "second-back", f"BACK {b} with no BACK left"
        if not 1 <= b <= MAX_BACK:
            return "back-range", f"BACK {b}: n must be 1 to {MAX_BACK}"
        return "back", int(b)
    if not is_whole(a):
        return "bad-output", f"not an action: {safe_repr(action, SHOWN)}"
    if not (0 <= a < state.width and 0 <= b < state.height):
        return "off-grid", (f"target ({a}, {b}) is off the {state.width}x{state.height} grid "
                            f"(x 0 to {state.width - 1}, y 0 to {state.height - 1})")
    return "move", (int(a), int(b))


_TEXT_BACK = re.compile(r"\s*BACK\s+(-?\d+)\s*", re.IGNORECASE)
_TEXT_TARGET = re.compile(r"\s*(-?\d+)\s+(-?\d+)\s*")


def _text_form_hint(text: str) -> str:
    """For an action in the contest's text form ("BACK 3", "3 4"), what to write in Python."""
    if m := _TEXT_BACK.fullmatch(text):
        here = f'("BACK", {int(m[1])})'
    elif m := _TEXT_TARGET.fullmatch(text):
        here = f"({int(m[1])}, {int(m[2])})"
    else:
        return ""
    return (" (that is the contest's text form; in Python an action is "
            f'("BACK", n) or (x, y): here {here})')


def step_toward(x: int, y: int, tx: int, ty: int) -> tuple:
    """One step from ``(x, y)`` toward ``(tx, ty)``, x first.

    >>> step_toward(2, 2, 5, 0), step_toward(5, 2, 5, 0), step_toward(5, 0, 5, 0)
    ((3, 2), (5, 1), (5, 0))
    """
    if x != tx:
        return x + (1 if tx > x else -1), y
    if y != ty:
        return x, y + (1 if ty > y else -1)
    return x, y


def step(state: State, actions) -> StepResult:
    """Play one turn.  ``actions[p]`` is read for every active player (entries
    of eliminated players are ignored); ``actions`` is a sequence with one
    entry per player or a dict {player: action} (a missing active player is
    "bad-output").  Returns the new state, the turn's events and the
    :class:`Outcome` once the game is over.  ``state`` is not changed."""
    if not isinstance(state, State):
        raise TypeError(f"step expects a State (from reset), got {type(state).__name__} "
                        f"{safe_repr(state, SHOWN)}")
    if state.over:
        raise ValueError("the game is over")
    if isinstance(actions, dict):
        unknown = [k for k in actions if not (is_whole(k) and 0 <= k < state.n_players)]
        if unknown:
            raise ValueError(f"actions: {safe_repr(unknown[0], SHOWN)} is not a player of this "
                             f"game (players 0 to {state.n_players - 1})")
        actions = [actions.get(p) for p in range(state.n_players)]
    if isinstance(actions, (str, bytes)) or not hasattr(actions, "__len__") \
            or not hasattr(actions, "__getitem__"):
        raise TypeError(f"actions must be a list with one action per player or a dict "
                        f"{{player: action}}, got {type(actions).__name__} "
                        f"{safe_repr(actions, SHOWN)}")
    if len(actions) != state.n_players:
        raise ValueError(f"need {state.n_players} actions, got {len(actions)}")
    r = state.round
    events = []
    eliminated = list(state.eliminated)
    backs = list(state.backs_left)
    targets, asked = {}, 0
    backed = False
    for p in state.active:
        kind, value = read_action(actions[p], state, p)
        if kind == "move":
            targets[p] = value
        elif kind == "back":
            backs[p] -= 1
            asked += value
            backed = True
            events.append(Event(r, p, "back", str(value)))
        else:
            eliminated[p] = True
            events.append(Event(r, p, kind, value))
    if backed:
        new = _rewind(state, asked, eliminated, backs, events)
    else:
        new = _play_round(state, targets, eliminated, backs)
    return _finish(state, new, events, played=not backed)


def _rewind(state, asked, eliminated, backs, events) -> State:
    r = state.round
    n = min(asked, r - 1)
    back_to = r - n
    snap = state.history[back_to - 1]
    positions = tuple(None if eliminated[p] else snap.positions[p]
                      for p in range(state.n_players))
    history = state.history[:back_to - 1] + (Snapshot(snap.owner, positions),)
    events.append(Event(r, None, "rewind", f"{n} rounds back: round {back_to} is next"))
    return State(state.config, snap.owner, positions, tuple(eliminated), tuple(backs),
                 back_to, history, 0, state.turns + 1)


def touches_old_square(state: State, player: int, square) -> bool:
    """Whether ``square`` is orthogonally next to a square ``player`` stood on
    at the end of a round two or more rounds before the one being played."""
    player = check_view(state, player, "state")
    x, y = square
    for snap in state.history[:-1]:
        old = snap.positions[player]
        if old is not None and abs(old[0] - x) + abs(old[1] - y) == 1:
            return True
    return False


def _play_round(state, targets, eliminated, backs) -> State:
    positions = []
    for p in range(state.n_players):
        if eliminated[p]:
            positions.append(None)
        else:
            positions.append(step_toward(*state.positions[p], *targets[p]))
    owner = np.array(state.owner, dtype=np.int8, copy=True)
    crowd = Counter(pos for pos in positions if pos is not None)
    flat = owner.reshape(-1)
    w, h = np.int64(state.width), np.int64(state.height)
    (stamp, next_stamp), region = enclosure.new_stamps(flat.size), np.empty(flat.size, np.int32)
    take = enclosure._kernels.fast("enclose_kernel")
    for p, pos in enumerate(positions):     # in id order: stand, then enclose
        if pos is None:
            continue
        if crowd[pos] == 1 and owner[pos[1], pos[0]] == NEUTRAL:
            owner[pos[1], pos[0]] = p
        if touches_old_square(state, p, pos):
            take(flat, w, h, np.int64(p), np.int64(pos[0]), np.int64(pos[1]), True, stamp,
                 next_stamp, region)
    moved = any(pos is not None and pos != state.positions[p] for p, pos in enumerate(positions))
    owner = frozen(owner)
    positions = tuple(positions)
    return State(state.config, owner, positions, tuple(eliminated), tuple(backs),
                 state.round + 1, state.history + (Snapshot(owner, positions),),
                 0 if moved else state.idle + 1, state.turns + 1)


def ranks_of(scores) -> tuple:
    """Rank of each score: 1 + how many scores are higher (ties share a rank).

    >>> ranks_of((5, 9, 5, 2))
    (2, 1, 2, 4)
    """
    return tuple(1 + sum(o > s for o in scores) for s in scores)


def ranking_decided(state: State) -> bool:
    """Whether no BACK and no future round can change the ranking any more
    (the contest's statement: score intervals from round R, see the module docstring)."""
    r = state.round - 1
    unused = sum(state.backs_left[p] for p in state.active)
    if unused * MAX_BACK > r:
        return False
    past = state.history[r - unused * MAX_BACK].owner
    free = state.width * state.height - int(np.count_nonzero(past >= 0))
    now = state.scores()
    spans = []
    for p in range(state.n_players):
        low = int(np.count_nonzero(past == p))
        spans.append((now[p] if state.eliminated[p] else low + free, low))
    spans.sort()
    for (high1, low1), (high2, low2) in zip(spans, spans[1:]):
        if low2 <= high1:
            return False
    return True


def _finish(before: State, state: State, events, *, played: bool) -> StepResult:
    reason = None
    if not state.active:
        reason = "no-active-player"
    elif before.last_round:
        reason = "decided"
    elif played and before.round == state.config.round_limit:
        reason = "round-limit"
    elif state.idle >= IDLE_ROUNDS:
        reason = "idle"
    if reason is None:
        if played and ranking_decided(state):
            state = _replace(state, last_round=True)
        return StepResult(state, events, None)
    state = _replace(state, over=True)
    scores = state.scores()
    outcome = Outcome(reason, scores, ranks_of(scores), state.round - 1, state.turns)
    return StepResult(state, events, outcome)


def _replace(state: State, **changes) -> State:
    from dataclasses import replace
    return replace(state, **changes)
