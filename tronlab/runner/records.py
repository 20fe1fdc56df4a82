"""Game records: what happened in a game, saved as JSON and replayed exactly (technique E4).

A :class:`GameRecord` holds the start board, the move every player gave in
every turn, the events (faults and substitutions), the outcome and some
metadata.  Replaying the moves through the rules gives back every board of
the game; :meth:`GameRecord.verify` checks that the replay reaches the same
final board and outcome as the game did.

JSON schema (``format`` "tronlab-game", ``version`` 1)
-------------------------------------------------------
::

    {
      "format": "tronlab-game", "version": 1,
      "rules": "google2010" | "lightriders" | "codingame",
      "start": BOARD,
      "moves": [[m0, m1, ...], ...],   # one list per turn, one entry per player:
                                       # 0-3, or null = no move (dead, not asked, or a fault)
      "events": [{"turn": t, "player": p, "kind": k, "detail": "..."}, ...],
      "outcome": {"winner": p | null, "ranking": [[p, ...], ...], "turns": n,
                  "deaths": [code | null, ...], "death_turns": [t | null, ...],
                  "details": [text | null, ...]},
      "metadata": {"names": [...], "seed": int | null, "time_limit": s | null,
                   "first_time_limit": s | null, "max_turns": n | null,
                   "tronlab": version, "date": ISO-8601 UTC, "think_seconds": [...], ...},
      "stderr": {"p": text, ...},      # per player, only for bots that had any
      "final": BOARD | null            # the board at the end, to check replays against
    }

    BOARD = {"width": W, "height": H,
             "rows": ["#1..#", ...],   # H strings of W characters, as Board.to_ascii():
                                       # '#' wall, '.' free, a-d / 1-4 / A-D a square of player 0-3
             "heads": [[x, y], ...], "alive": [true, ...], "facing": [-1..3, ...],
             "starts": [[x, y], ...]}

Turns are numbered from 1; ``moves[t - 1]`` is turn ``t``.  Event kinds: the
fault codes of :data:`tronlab.tron.rules.FAULTS` (the replay hands them back to
the rules with the null move, so deaths are reproduced with their reasons),
"pass" and "reverse" (Light Riders commands that became "straight on") and
"hook-error" (``end_game``/``close`` raised; the game was already over).
"""

from __future__ import annotations

import json
import os


from ..tron.ascii import check_trail_owners, grid_cells
from ..tron.board import Board
from ..tron.rules import FAULTS, Outcome, get_rules
from .reprs import plural

FORMAT = "tronlab-game"
VERSION = 1


def board_to_dict(board: Board) -> dict:
    """An exact JSON-able description of ``board``."""
    return {"width": board.width, "height": board.height,
            "rows": board.to_ascii().split("\n"),
            "heads": [list(board.xy(h)) for h in board.heads],
            "alive": [bool(a) for a in board.alive],
            "facing": [int(f) for f in board.facing],
            "starts": [list(board.xy(s)) for s in board.starts]}


def board_from_dict(data: dict) -> Board:
    """Inverse of :func:`board_to_dict`; raises ValueError naming what is wrong."""
    try:
        width, height, rows = int(data["width"]), int(data["height"]), list(data["rows"])
        heads, starts = data["heads"], data.get("starts", data["heads"])
        alive, facing = data["alive"], data["facing"]
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"not a board dict: {err!r}") from None
    if len(rows) != height or any(len(r) != width for r in rows):
        raise ValueError(f"board rows do not make a {width}x{height} grid")
    cells, _ = grid_cells(rows, what="board rows")
    if isinstance(heads, list):     # else Board names the problem
        check_trail_owners(rows, cells, len(heads), "board rows")
    stride = width + 2

    def flat(squares):
        return [(int(y) + 1) * stride + int(x) + 1 for x, y in squares]

    return Board(cells, flat(heads), alive, facing, flat(starts))


class GameRecord:
    """A played game; see the module docstring for the fields and the JSON form."""

    def __init__(self, rules: str, start: Board, moves, outcome: Outcome, *, metadata=None,
                 events=None, stderr=None, final: Board | None = None):
        self.rules = get_rules(rules).name
        self.start = start
        self.moves = [list(turn) for turn in moves]
        self.outcome = outcome
        self.metadata = dict(metadata or {})
        self.events = list(events or [])
        self.stderr = {int(p): str(t) for p, t in (stderr or {}).items()}
        self.final = final

    def __repr__(self):
        names = self.metadata.get("names")
        who = " vs ".join(names) if names else f"{self.start.n_players} players"
        w = self.outcome.winner      # players count from 0; the board draws player p as p + 1
        result = ("draw" if w is None else f"{names[w]} (player {w}, drawn {w + 1}) wins"
                  if names else f"player {w} (drawn {w + 1}) wins")
        return f"<GameRecord {self.rules}: {who}, {plural(self.outcome.turns, 'turn')}, {result}>"

    # ---- replay -----------------------------------------------------------------------------
    def _faults(self):
        return {(e["turn"], e["player"]): (e["kind"], e.get("detail"))
                for e in self.events if e.get("kind") in FAULTS}

    def simulate(self):
        """Replay the moves: ``(boards, outcome)``, boards = start + one per turn."""
        from ..tron.match import Match

        match = Match(self.start, self.rules)
        n = self.start.n_players
        faults = self._faults()
        boards = [match.board.copy()]
        for turn, turn_moves in enumerate(self.moves, start=1):
            if len(turn_moves) != n:
                raise ValueError(f"turn {turn}: {plural(len(turn_moves), 'move')} for {n} players")
            if match.over:
                raise ValueError(f"the record has moves after the game ended (turn {turn})")
            while match.next_turn == turn and not match.over:
                match.step({p: (turn_moves[p], *faults.get((turn, p), (None, None)))
                            for p in match.to_move()})
            boards.append(match.board.copy())
        return boards, match.outcome()

    def replay(self) -> Board:
        """The final board, recomputed from the start board and the moves (a capture
        record's ``replay()`` gives every state; :meth:`boards` is its twin here)."""
        return self.simulate()[0][-1]

    def boards(self) -> list[Board]:
        """The start board and the board after every turn."""
        return self.simulate()[0]

    def verify(self) -> None:
        """Raise ValueError unless replaying reproduces the recorded final board and outcome."""
        boards, outcome = self.simulate()
        if self.final is not None and boards[-1] != self.final:
            raise ValueError("replay does not reproduce the recorded final board:\n"
                             f"replayed\n{boards[-1].to_ascii()}\n"
                             f"recorded\n{self.final.to_ascii()}")
        mine, theirs = self.outcome.to_dict(), outcome.to_dict()
        for key in ("winner", "ranking", "turns", "deaths", "death_turns"):
            if mine[key] != theirs[key]:
                raise ValueError(f"replay gives {key} {theirs[key]!r}, "
                                 f"the record says {mine[key]!r}")

    # ---- JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "rules": self.rules,
                "start": board_to_dict(self.start),
                "moves": [[None if m is None else int(m) for m in turn] for turn in self.moves],
                "events": [dict(e) for e in self.events],
                "outcome": self.outcome.to_dict(),
                "metadata": dict(self.metadata),
                "stderr": {str(p): t for p, t in sorted(self.stderr.items())},
                "final": None if self.final is None else board_to_dict(self.final)}

    @classmethod
    def from_dict(cls, data: dict) -> "GameRecord":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            hint = ("; it is a Back to the Code record: tronlab.capture.CaptureRecord.load "
                    "reads it" if isinstance(data, dict)
                    and data.get("format") == "tronlab-capture" else "")
            raise ValueError(f"not a tronlab game record (expected format {FORMAT!r}){hint}")
        if data.get("version") != VERSION:
            raise ValueError(f"game record version {data.get('version')!r} is not supported "
                             f"(this tronlab reads version {VERSION})")
        problem = _shape_problem(data)
        if problem:
            raise ValueError(f"game record: {problem} (was the file edited by hand?)")
        try:
            final = data.get("final")
            return cls(data["rules"], board_from_dict(data["start"]), data["moves"],
                       Outcome.from_dict(data["outcome"]), metadata=data.get("metadata"),
                       events=data.get("events"), stderr=data.get("stderr"),
                       final=None if final is None else board_from_dict(final))
        except KeyError as err:
            raise ValueError(f"game record has no {err.args[0]!r} field") from None

    def to_json(self, *, indent: int | None = None) -> str:
        try:
            return json.dumps(self.to_dict(), indent=indent)
        except TypeError as err:
            raise TypeError(f"game record cannot be written as JSON (check metadata): "
                            f"{err}") from None

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"game record is not valid JSON: {err}") from None
        return cls.from_dict(data)

    def save(self, path) -> None:
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(self.to_json(indent=1))
            f.write("\n")

    @classmethod
    def load(cls, path) -> "GameRecord":
        with open(os.fspath(path), encoding="utf-8") as f:
            return cls.from_json(f.read())


def _shape_problem(data: dict) -> str | None:
    """Which field of a record's JSON has the wrong shape (moves a list of turns, each a
    list of moves; events a list of objects; metadata and stderr objects), or None: a
    record edited by hand should fail in one line, not deep in a replay."""
    moves, events = data.get("moves", []), data.get("events")
    if not isinstance(moves, list) or not all(isinstance(t, list) for t in moves):
        return "moves must be a list of turns, each a list of the players' moves"
    if events is not None and (not isinstance(events, list)
                               or not all(isinstance(e, dict) for e in events)):
        return "events must be a list of objects"
    for key in ("metadata", "stderr"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            return f"{key} must be an object"
    return None
