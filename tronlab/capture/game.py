"""A game loop for Back to the Code and its records (JSON save/load, exact replay).

:func:`play_capture` asks every active bot for its action (all of them
first, then :func:`~tronlab.capture.rules.step` applies them together), turns
a bot's exception into the fault "error", and returns a :class:`CaptureRecord`.
Bots here run in-process (about 0.3 ms a turn for four random bots, 0.7 ms for
four nearest bots); under a ``time_limit`` each bot's calls run on its own worker
thread, waited for with the limit, so a bot that never answers times out.
"timeout" and "exited" also come from runners of external programs, which record
them like any other action.

JSON schema (``format`` "tronlab-capture", ``version`` 1)::

    {"format": "tronlab-capture", "version": 1,
     "width": 35, "height": 20, "n_players": n, "round_limit": 350,
     "starts": [[x, y], ...],
     "actions": [[a0, a1, ...], ...],   # one list per turn (step), one entry per player:
                                        # [x, y], ["BACK", n], a fault code, or null when
                                        # the player was eliminated and not asked
     "events": [[turn, round, player, kind, detail], ...],
     "outcome": {"reason": ..., "scores": [...], "ranks": [...], "round": r, "turns": t},
     "final": ["..01", ...],            # the owners at the end (ascii.format_grid rows)
     "notes": [[turn, player, text], ...],   # bot exceptions, as text
     "metadata": {...}}

An action a bot returns that is neither a target, a BACK nor a fault code is
recorded as "bad-output" (why goes to the notes), so every record is plain
JSON and replays to the same game.  A numpy array of two ints counts as the
target ``(x, y)``.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field


from .ascii import format_grid
from ..runner.reprs import safe_repr
from ..runner.threadcall import Worker
from .bots import BOTS, get_bot
from .protocol import first_turn_default
from .actions import _recorded, action_from_json, action_to_json, plain_action  # noqa: F401
from .rules import SHOWN, read_action, reset, step
from .starts import as_rng
from .state import FAULTS
from ..tron.values import is_real, is_whole

FORMAT = "tronlab-capture"
VERSION = 1


@dataclass
class CaptureRecord:
    """What happened in one game; see the module docstring for the JSON form."""
    width: int
    height: int
    n_players: int
    round_limit: int
    starts: list
    actions: list = field(default_factory=list)
    events: list = field(default_factory=list)
    outcome: dict | None = None
    final: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    metadata: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, **asdict(self)}

    @classmethod
    def from_dict(cls, data: dict) -> CaptureRecord:
        """The record of :meth:`to_dict`'s dict; a ValueError for any other (a Tron
        game's record included: :meth:`tronlab.runner.records.GameRecord.load` reads it)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else None
            hint = ("; it is a Tron game record: tronlab.GameRecord.load reads it"
                    if found == "tronlab-game" else "")
            raise ValueError(f"not a {FORMAT} record, version {VERSION} (expected format "
                             f"{FORMAT!r}, got {safe_repr(found, SHOWN)}){hint}")
        if data.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} record, version {VERSION}: capture record "
                             f"version {data.get('version')!r} is not supported")
        fields = {k: v for k, v in data.items() if k not in ("format", "version")}
        names = cls.__dataclass_fields__
        unknown = [k for k in fields if k not in names]
        missing = [k for k in ("width", "height", "n_players", "round_limit", "starts")
                   if k not in fields]
        if unknown or missing:
            raise ValueError(f"capture record has no {missing[0]!r} field" if missing else
                             f"capture record has an unknown field {unknown[0]!r}")
        return cls(**fields)

    @classmethod
    def from_json(cls, text: str) -> CaptureRecord:
        """The record of :meth:`to_json`'s text (as ``GameRecord.from_json`` reads a Tron
        game's); a ValueError for text that is not such a record."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"capture record is not valid JSON: {err}") from None
        return cls.from_dict(data)

    def to_json(self) -> str:
        """The record as JSON text, one turn (or grid row, or event) a line."""
        parts = []
        for key, value in self.to_dict().items():
            if isinstance(value, list) and value:
                items = ",\n  ".join(json.dumps(v) for v in value)
                parts.append(f"{json.dumps(key)}: [\n  {items}\n ]")
            else:
                parts.append(f"{json.dumps(key)}: {json.dumps(value)}")
        return "{\n " + ",\n ".join(parts) + "\n}\n"

    def save(self, path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    @classmethod
    def load(cls, path) -> CaptureRecord:
        with open(path, encoding="utf-8") as f:
            return cls.from_json(f.read())

    def start_state(self):
        return reset(self.n_players, width=self.width, height=self.height,
                     starts=self.starts, round_limit=self.round_limit)

    def replay(self):
        """Every state of the game, from the start to the end, by replaying
        the recorded actions through the rules: the same list as :meth:`states`.
        (A Tron :class:`~tronlab.runner.records.GameRecord`'s ``replay()`` returns
        only the final board, its ``boards()`` every board.)"""
        states = [self.start_state()]
        for turn, actions in enumerate(self.actions, 1):
            states.append(step(states[-1], [action_from_json(a, f"capture record, turn {turn}, "
                                                             f"player {p}: ")
                                            for p, a in enumerate(actions)]).state)
        return states

    def states(self) -> list:
        """Every state of the game, the start first: :meth:`replay`, under the name of a
        Tron record's ``boards()``."""
        return self.replay()

    def verify(self) -> None:
        """Replay and check the final owners, the events and the outcome;
        raises ValueError naming the first difference."""
        fresh = _record_from_replay(self)
        for name in ("final", "events", "outcome"):
            if getattr(fresh, name) != getattr(self, name):
                raise ValueError(f"the replay gives different {name}")


def _record_from_replay(record: CaptureRecord) -> CaptureRecord:
    state = record.start_state()
    out = CaptureRecord(record.width, record.height, record.n_players, record.round_limit,
                        record.starts)
    for turn, actions in enumerate(record.actions, 1):
        if state.over:
            raise ValueError(f"the replay ends at turn {turn - 1}: different outcome")
        result = step(state, [action_from_json(a, f"capture record, turn {turn}, player {p}: ")
                              for p, a in enumerate(actions)])
        _log(out, state, actions, result)
        state = result.state
    return out


def _log(record: CaptureRecord, before, actions, result) -> None:
    turn = before.turns + 1
    record.actions.append(list(actions))
    record.events += [[turn, e.round, e.player, e.kind, e.detail] for e in result.events]
    record.final = format_grid(result.state.owner).split("\n")
    if result.outcome is not None:
        o = result.outcome
        record.outcome = {"reason": o.reason, "scores": list(o.scores), "ranks": list(o.ranks),
                          "round": o.round, "turns": o.turns}


def play_capture(bots, *, n_players: int | None = None, rng=None, width: int = 35,
                 height: int = 20, starts=None, symmetric: bool = True,
                 round_limit: int | None = None, metadata: dict | None = None,
                 time_limit: float | None = None,
                 first_time_limit: float | None = None) -> CaptureRecord:
    """Play one game.  ``bots`` are callables ``bot(view, player)`` or names of
    capture bots (:data:`tronlab.capture.bots.BOTS` or the registry's, each
    seeded from ``rng``); ``rng`` (a Generator or a seed) also draws the starts.

    Time limits (seconds): a bot with a ``start_game`` hook (an external program,
    :class:`~tronlab.capture.external.CaptureProgram`) is handed ``time_limit`` and
    ``first_time_limit`` and keeps its own clock; any other bot is timed only when
    ``time_limit`` is given: an answer later than the limit (``first_time_limit`` on
    the first turn), or none by then (the call runs in a thread), is a "timeout".
    ``first_time_limit`` defaults to three times ``time_limit``, at least the
    contest's 1 s (as ``tronlab match --rules backtothecode`` sets it;
    :func:`tronlab.play` takes three times too), so the first turn is never the
    shorter.  Bots with a ``close`` hook are closed when their player is
    eliminated and at the end of the game.

    The arguments are checked before the game starts (a TypeError or
    ValueError naming the one that is wrong).

    >>> rec = play_capture(["nearest", "nearest"], rng=1, width=8, height=5)
    >>> rec.outcome["reason"], sum(rec.outcome["scores"])
    ('idle', 40)
    """
    bots = _checked_bots(bots, n_players)
    n = len(bots) if n_players is None else n_players
    time_limit = _checked_seconds("time_limit", time_limit)
    first_time_limit = _checked_seconds("first_time_limit", first_time_limit)
    first = first_time_limit if first_time_limit is not None or time_limit is None \
        else first_turn_default(time_limit)
    rng = _checked_grid_and_rng(width, height, rng)
    state = reset(n, rng=rng, width=width, height=height, starts=starts, symmetric=symmetric,
                  round_limit=round_limit)
    bots = [get_bot(b, rng.integers(2**63)) if isinstance(b, str) else b for b in bots]
    record = CaptureRecord(width, height, n, state.config.round_limit,
                           [list(s) for s in state.positions], metadata=dict(metadata or {}))
    clocks = [None if hasattr(b, "start_game") or time_limit is None
              else (first, time_limit) for b in bots]
    workers = [None if clock is None else Worker(f"tronlab-capture-bot-{p}")
               for p, clock in enumerate(clocks)]
    try:
        for p, bot in enumerate(bots):
            if hasattr(bot, "start_game"):
                bot.start_game(n, p, first_time_limit=first_time_limit, time_limit=time_limit)
        _play_out(state, bots, record, clocks, workers)
    finally:
        for bot, worker in zip(bots, workers):
            _close(bot)
            if worker is not None:
                worker.stop()       # one still in an overrun call (in C code) is abandoned
    return record


def _play_out(state, bots, record, clocks, workers) -> None:
    """Ask, step and log until the game is over; close a bot once its player is out."""
    n = len(bots)
    while not state.over:
        view = state.view()
        actions = [None if state.eliminated[p] else _ask(bots[p], view, p, record, state,
                                                          clocks[p], workers[p])
                   for p in range(n)]
        result = step(state, [action_from_json(a) for a in actions])
        _log(record, state, actions, result)
        for p in range(n):
            if result.state.eliminated[p] and not state.eliminated[p]:
                _close(bots[p])
        state = result.state


def _checked_grid_and_rng(width, height, rng):
    """``rng`` as a Generator, after checking that ``width`` and ``height`` are ints."""
    for name, value in (("width", width), ("height", height)):
        if not is_whole(value):
            raise TypeError(f"{name} must be an int, got {safe_repr(value, SHOWN)}")
    return as_rng(rng)       # whatever numpy.random.default_rng takes, else an error naming rng


def _checked_bots(bots, n_players) -> list:
    """``bots`` as a list, checked: 2-4 (or ``n_players``), each a name or a callable."""
    if isinstance(bots, (str, bytes, dict, set, frozenset)) or not hasattr(bots, "__iter__"):
        raise TypeError(f"bots must be a list of 2-4 bots (registered names or callables), "
                        f"got {safe_repr(bots, SHOWN)}")
    bots = list(bots)
    if n_players is None and not 2 <= len(bots) <= 4:
        raise ValueError(f"bots must be a list of 2-4 bots, got {len(bots)}: "
                         f"{safe_repr(bots, SHOWN)}")
    if n_players is not None and len(bots) != n_players:
        raise ValueError(f"{len(bots)} bots for {n_players} players")
    for i, bot in enumerate(bots):
        if isinstance(bot, str):
            if bot not in BOTS:
                from ..runner.registry import describe
                try:
                    describe(bot, game="capture")
                except ValueError as err:
                    raise ValueError(f"bots[{i}]: {err}") from None
        elif not callable(bot):
            raise TypeError(f"bots[{i}] must be a registered bot name or a callable "
                            f"bot(view, player), got {safe_repr(bot, SHOWN)}")
    return bots


def _checked_seconds(name, value):
    if value is None:
        return None
    if not is_real(value):
        raise TypeError(f"{name} must be None or a positive number of seconds, "
                        f"got {safe_repr(value, SHOWN)}")
    if not value > 0:
        raise ValueError(f"{name} must be None or a positive number of seconds, got {value!r}")
    return value


def _is_fault(action) -> bool:
    return isinstance(action, str) and action in FAULTS


def _error_text(err, fault: bool) -> str:
    try:
        text = str(err)
    except Exception:           # even str() of a bot's exception may fail
        text = f"<str() of the {type(err).__name__} raised>"
    return text if fault else f"{type(err).__name__}: {text}"


class _Hung(Exception):
    """A timed bot still running at its limit (told to stop, as tronlab.play tells one)."""
    reason = "timeout"


#: seconds a timed bot may overrun its limit and still have its late answer noted as such
GRACE = 1.0


def _call(bot, view, p, limit, worker=None):
    """``bot(view, p)``; with a ``limit`` (seconds) on the seat's ``worker`` thread (one a
    game: a thread a call cost 0.5-0.7 ms, benchmarks/capture_loop.py), waited for with
    it plus :data:`GRACE`, so a bot stuck in a loop cannot hang the game (:class:`_Hung`:
    its player is eliminated, never asked again).  What the bot raised is raised here."""
    if limit is None:
        return bot(view, p)
    called = worker.call(bot, (view, p), wait=limit + GRACE)
    if called.overran:
        raise _Hung(f"no answer {(limit + GRACE) * 1000:.0f} ms after it was asked, "
                    f"limit {limit * 1000:.0f} ms")
    if called.error is not None:
        raise called.error
    return called.value


def _ask(bot, view, p, record, state, clock, worker=None):
    """Bot ``p``'s action in recorded form; faults and exceptions (``sys.exit`` too)
    become fault codes, and whatever the bot returns that is not an action
    "bad-output" (the notes say why)."""
    turn = state.turns + 1
    limit = None if clock is None else clock[0] if state.turns == 0 else clock[1]
    t0 = time.perf_counter()
    try:
        action = plain_action(_call(bot, view, p, limit, worker))
    except (Exception, SystemExit) as err:  # a bot's bug (sys.exit too) is its fault;
        # other BaseExceptions (Ctrl-C, a caller's own stop signal) end the game
        code = getattr(err, "reason", None)
        fault = _is_fault(code)
        action = code if fault else "error"
        record.notes.append([turn, p, _error_text(err, fault)])
    if clock is not None and not _is_fault(action):
        spent = time.perf_counter() - t0
        if spent > limit:
            record.notes.append([turn, p, f"answered after {spent * 1000:.0f} ms, "
                                          f"limit {limit * 1000:.0f} ms"])
            action = "timeout"
    try:
        kind, why = read_action(action, state, p)
        item = _recorded(action, kind)
    except Exception as err:    # an object whose len() or unpacking raises
        item = "bad-output"
        why = f"not an action: {safe_repr(action, SHOWN)} ({type(err).__name__})"
    if item == "bad-output" and not _is_fault(action):
        record.notes.append([turn, p, why[:200]])
    return item


def _close(bot) -> None:
    close = getattr(bot, "close", None)
    if close is not None:
        close()
