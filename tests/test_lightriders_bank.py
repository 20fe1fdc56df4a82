"""play(..., time_bank=(bank, per_move)): the Light Riders clock for in-process bots."""

import json
import sys
import time
import types
from pathlib import Path

import pytest

from tronlab.runner import threadcall
from tronlab.runner.engine import play
from tronlab.runner.external import ExternalBot
from tronlab.runner.records import GameRecord
from tronlab.runner.registry import get_bot
from tronlab.tron.mapgen import codingame_board, lightriders_board

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


def board():
    return lightriders_board(x=2, y=3)    # both ride down: 12 rows before the wall


@pytest.fixture
def clock(monkeypatch):
    """A fake perf_counter (the timed call's) that only the bots advance: exact arithmetic."""
    now = [0.0]
    monkeypatch.setattr(threadcall, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    return now


class Spender:
    """Thinks ``costs[i]`` fake seconds on its i-th move and notes what it hears."""

    def __init__(self, clock, costs):
        self.clock, self.costs, self.heard, self.asked = clock, list(costs), [], 0

    def set_clock(self, time_left, time_per_move=None):
        self.heard.append((time_left, time_per_move))

    def __call__(self, board, player):
        self.clock[0] += self.costs[self.asked]
        self.asked += 1
        return DOWN


def down(board, player):
    return DOWN


def faults(rec, player):
    return [(e["turn"], e["kind"], e["detail"]) for e in rec.events if e["player"] == player]


def test_the_bank_is_refilled_capped_and_spent_exactly(clock):
    # bank 1 s, 0.25 s a move: 1 - 0.75 = 0.25, then +0.25 each move up to the cap again
    bot = Spender(clock, [0.75, 0.0, 0.0, 0.0, 0.5, 0.75])
    rec = play(board(), [bot, down], rules="lightriders", time_bank=(1.0, 0.25), max_turns=6)
    assert [left for left, _ in bot.heard] == [1.0, 0.5, 0.75, 1.0, 1.0, 0.75]
    assert all(per == 0.25 for _, per in bot.heard)
    assert faults(rec, 0) == []                     # the last move spent all 0.75 s: in time
    assert rec.metadata["least_bank"] == [0.0, 1.0]
    assert rec.metadata["think_seconds"] == [2.0, 0.0]


def test_a_bank_overdrawn_by_a_millisecond_is_overdrawn_and_left_empty():
    """TimeBank alone, as the contest clock uses it (spend's answer decides a timeout).
    The games above overdraw by 0.25 s or not at all, so a spend that let a bot run
    0.05 s past its bank (and left the bank negative) passed them."""
    from tronlab.runner.timebank import TimeBank

    bank = TimeBank(1.0, 0.25)
    assert bank.refill() == 1.0                     # capped at the size
    assert bank.spend(0.75) is False and bank.left == 0.25
    assert bank.refill() == 0.5
    assert bank.spend(0.501) is True and bank.left == 0.0 and bank.least == 0.0
    assert bank.refill() == 0.25
    assert bank.spend(0.25) is False and bank.left == 0.0     # all of it, in time


def test_running_out_is_a_timeout_and_shuts_the_bot_down(clock):
    bot = Spender(clock, [0.75, 0.75, 0.0, 0.0])
    rec = play(board(), [bot, down], rules="lightriders", time_bank=(1.0, 0.25), max_turns=5)
    assert bot.asked == 2                           # never asked again after the timeout
    assert [left for left, _ in bot.heard] == [1.0, 0.5]
    got = faults(rec, 0)
    assert got[0] == (2, "timeout", "answered after 0.750 s, 0.250 s after its time bank "
                                    "of 0.500 s ran out")
    assert [(turn, kind) for turn, kind, _ in got[1:]] == [(3, "timeout"), (4, "timeout"),
                                                            (5, "timeout")]
    assert all(detail.startswith("shut down") for _, _, detail in got[1:])
    assert rec.outcome.deaths == [None, None] and rec.metadata["least_bank"][0] == 0.0
    # it went straight on from its last move (down), as Light Riders' timeout rule says
    rec.verify()


def test_an_answer_that_uses_the_whole_bank_is_in_time(clock):
    bot = Spender(clock, [1.0, 0.25, 0.25])
    rec = play(board(), [bot, down], rules="lightriders", time_bank=(1.0, 0.25), max_turns=3)
    assert faults(rec, 0) == [] and [h[0] for h in bot.heard] == [1.0, 0.25, 0.25]


def test_a_bot_without_set_clock_plays_under_the_bank_too(clock):
    def slow(board, player):
        clock[0] += 0.5
        return DOWN
    # 1.0 -> 0.5, +0.25 -> 0.25, +0.25 -> 0.0; the fourth move's bank is 0.25 s: too little
    rec = play(board(), [slow, down], rules="lightriders", time_bank=(1.0, 0.25), max_turns=3)
    assert faults(rec, 0) == [] and rec.metadata["least_bank"][0] == 0.0
    rec = play(board(), [slow, down], rules="lightriders", time_bank=(1.0, 0.25), max_turns=5)
    assert [(t, k) for t, k, _ in faults(rec, 0)] == [(4, "timeout"), (5, "timeout")]


def test_a_bot_that_hangs_past_its_bank_is_abandoned():
    def sleeper(board, player):
        time.sleep(0.5)
        return DOWN
    t0 = time.perf_counter()
    rec = play(board(), [sleeper, down], rules="lightriders", time_bank=(0.1, 0.05),
               max_turns=3)
    assert time.perf_counter() - t0 < 0.45
    got = faults(rec, 0)
    assert got[0] == (1, "timeout", "no answer within its time bank of 0.100 s")
    assert len(got) == 3


def test_start_game_is_told_the_bank_and_the_record_keeps_it():
    class Listener:
        told = "never"

        def start_game(self, board, player, *, rules, time_limit, rng, time_bank=None):
            self.told = (time_limit, time_bank)

        def __call__(self, board, player):
            return DOWN
    bot = Listener()
    rec = play(board(), [bot, down], rules="lightriders", time_bank=True, max_turns=2)
    assert bot.told == (None, (10.0, 0.2))
    assert rec.metadata["time_bank"] == [10.0, 0.2] and rec.metadata["time_limit"] is None
    again = GameRecord.from_dict(json.loads(json.dumps(rec.to_dict())))
    assert again.metadata["time_bank"] == [10.0, 0.2]
    again.verify()
    plain = play(board(), [down, down], rules="lightriders", max_turns=1)
    assert plain.metadata["time_bank"] is None and "least_bank" not in plain.metadata


def test_nash_against_chamber_under_a_small_bank_has_no_timeout():
    bots = [get_bot("nash"), get_bot("chamber")]
    rec = play(lightriders_board(rng=1), bots, rules="lightriders", rng=1,
               time_bank=(0.5, 0.02))
    assert rec.outcome.deaths.count(None) < 2       # played to the end
    assert [e for e in rec.events if e["kind"] == "timeout"] == []
    assert all(0 < least <= 0.5 for least in rec.metadata["least_bank"])
    rec.verify()


def test_a_program_is_told_the_engines_bank():
    echo = Path(__file__).parent / "fixtures" / "lr_echo.py"
    bot = ExternalBot([sys.executable, str(echo), "down"], protocol="lightriders")
    rec = play(board(), [bot, down], rules="lightriders", time_bank=(3.0, 0.5), max_turns=3)
    assert faults(rec, 0) == []
    lines = rec.stderr[0].splitlines()
    assert "settings timebank 3000" in lines and "settings time_per_move 500" in lines
    told = [int(x.split()[2]) for x in lines if x.startswith("action move")]
    assert told[0] == 3000 and len(told) == 3 and all(2000 < ms <= 3000 for ms in told)


def test_a_program_that_overdraws_the_engines_bank_times_out_on_its_own_clock():
    # answers the first move at once (after starting up), then after 0.3 s a move: 0.5 s
    # -> about 0.2 (+0.02) -> out on move 3 (sooner if starting up took long)
    slowpoke = str(Path(__file__).parent / "fixtures" / "slowpoke.py")
    bot = ExternalBot([sys.executable, slowpoke, "lightriders", "0.3", "1"],
                      protocol="lightriders")
    rec = play(board(), [bot, down], rules="lightriders", time_bank=(0.5, 0.02), max_turns=4)
    got = [e for e in faults(rec, 0) if e[1] != "pass"]
    assert got and all(kind == "timeout" for _, kind, _ in got) and got[-1][0] == 4
    # said as the engine says it of an in-process bot that overdrew its bank
    assert got[0][2].startswith("no answer within its time bank of 0.")
    assert all(detail.startswith("shut down") for _, _, detail in got[1:])
    assert rec.stderr[0].split()[0] == "500"


def test_a_program_timing_out_under_the_engines_bank_gets_its_own_diagnosis():
    # an answer written without its newline: the program's own clock (the bank the
    # engine told it) fires first, so the fault says what it wrote, and names the bank
    partial = str(Path(__file__).parent / "fixtures" / "unfinished.py")
    bot = ExternalBot([sys.executable, partial, "partial", "up"], protocol="lightriders")
    rec = play(board(), [bot, down], rules="lightriders", time_bank=(0.6, 0.1), max_turns=2)
    got = faults(rec, 0)
    assert [kind for _, kind, _ in got] == ["timeout", "timeout"]
    assert got[0][2] == ("no complete answer line within its time bank of 0.600 s: it wrote "
                         "'up' without a newline (end each answer with \\n and flush stdout)")
    assert got[1][2].startswith("shut down")


@pytest.mark.parametrize("rules, start", [
    ("google2010", lambda: lightriders_board(x=2, y=3)),
    ("codingame", lambda: codingame_board(2, starts=[(0, 0), (29, 19)]))])
def test_games_without_a_bank_refuse_it(rules, start):
    with pytest.raises(ValueError, match=f"time_bank is for games played with a time bank.*"
                                         f"{rules} has a time limit a move: use time_limit"):
        play(start(), [down, down], rules=rules, time_bank=(1.0, 0.2))


@pytest.mark.parametrize("value, error", [
    ("10", TypeError), (10.0, TypeError), ((1.0,), TypeError), ((1.0, 0.2, 3), TypeError),
    ((1.0, "0.2"), TypeError), ((True, 0.2), TypeError), ((1.0, None), TypeError),
    ((0, 0.2), ValueError), ((-1.0, 0.2), ValueError), ((1.0, -0.2), ValueError),
    ((float("nan"), 0.2), ValueError), ((1.0, float("inf")), ValueError), ((1e6, 0.2), ValueError),
])
def test_bad_banks_are_named(value, error):
    with pytest.raises(error, match="time_bank"):
        play(board(), [down, down], rules="lightriders", time_bank=value)


@pytest.mark.parametrize("limits", [{"time_limit": 0.2}, {"first_time_limit": 1.0}])
def test_a_bank_is_not_given_with_a_time_limit(limits):
    with pytest.raises(ValueError, match="time_bank replaces time_limit and first_time_limit"):
        play(board(), [down, down], rules="lightriders", time_bank=(1.0, 0.2), **limits)


def test_no_bank_is_no_bank():
    for value in (None, False):
        rec = play(board(), [down, down], rules="lightriders", time_bank=value, max_turns=1)
        assert rec.metadata["time_bank"] is None


# ---- tronlab match --bank ------------------------------------------------------------

def match(capsys, tmp_path, *options):
    from tronlab.cli import main as tronlab_main
    save = tmp_path / "game.json"
    code = tronlab_main(["match", "--rules", "lightriders", "random", "hugger", "--seed", "3",
                         "--json", "--save", str(save), *options])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    return GameRecord.load(save)


def test_match_bank_plays_under_the_engines_bank(capsys, tmp_path):
    rec = match(capsys, tmp_path, "--bank", "10", "--max-turns", "2")    # the contest's
    assert rec.metadata["time_bank"] == [10.0, 0.2] and rec.metadata["time_limit"] is None
    rec = match(capsys, tmp_path, "--bank", "1.5", "--time", "0.05", "--max-turns", "2")
    assert rec.metadata["time_bank"] == [1.5, 0.05] and len(rec.metadata["least_bank"]) == 2
    rec = match(capsys, tmp_path, "--max-turns", "2")        # without --bank: as before
    assert rec.metadata["time_bank"] is None and rec.metadata["time_limit"] is None
    rec = match(capsys, tmp_path, "--max-turns", "2", "--time", "0.5")
    assert rec.metadata["time_bank"] is None and rec.metadata["time_limit"] == 0.5


@pytest.mark.parametrize("argv, words", [
    (["match", "random", "hugger", "--bank", "10"],
     "--bank is for --rules lightriders (the only game played with a time bank); google2010 "
     "takes --time"),
    (["match", "--rules", "codingame", "random", "hugger", "--bank", "10"], "codingame takes"),
    (["match", "--rules", "backtothecode", "random", "random", "--bank", "10"],
     "backtothecode takes"),
    (["match", "--rules", "lightriders", "random", "hugger", "--bank", "0"],
     "argument --bank: expected a positive number of seconds"),
    (["match", "--rules", "lightriders", "random", "hugger", "--bank", "lots"],
     "argument --bank: expected a number of seconds")])
def test_match_bank_is_checked(capsys, argv, words):
    from tronlab.cli import main as tronlab_main
    assert tronlab_main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tronlab: error: ") and words in err and err.count("\n") == 1


class FakeProgram:
    """A program on a fake clock: each answer takes ``cost`` fake seconds; notes the
    ``action move`` banks it is told and the deadlines it is given."""

    def __init__(self, now, cost):
        self.now, self.cost, self.told, self.deadlines = now, cost, [], []

    def send(self, text):
        self.told += [int(line.split()[2]) for line in text.splitlines()
                      if line.startswith("action move")]

    def unread_lines(self):
        return iter(())

    def next_line(self, deadline):
        self.deadlines.append(deadline - self.now[0])
        self.now[0] += self.cost
        return "up\n"


def test_a_programs_own_bank_is_kept_to_the_microsecond_not_in_whole_ms(monkeypatch):
    """Before: ExternalBot's own bank took int(ms) of each move, so a program that thinks
    0.9 ms more than the 200 ms a move adds was charged 200 ms and its bank never went
    down (1000 ms told every move); over a 300-round game that is 0.27 s it never had."""
    from tronlab.runner import external

    now = [0.0]
    monkeypatch.setattr(external, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    bot = ExternalBot(["unused"], protocol="lightriders", time_limit=0.2, first_time_limit=1.0)
    bot._program = program = FakeProgram(now, 0.2009)
    bot._failure, bot._moves, bot._answers = None, 0, 0
    bot._set_clock(None)
    for _ in range(11):
        assert bot(board(), 0) == UP
    # the bank after move k (k >= 1): 1 - 0.0009 k; the told bank is its floor in ms
    assert program.told == [1000] + [int(1000 - 0.9 * k) for k in range(1, 11)]
    assert program.deadlines[-1] == pytest.approx(1.0 - 0.009)     # the bank itself, exact
    assert bot._bank == pytest.approx(1.0 - 0.0099 - 0.2)        # after its last move


def test_both_seats_start_their_programs_off_the_bank():
    """Before: the seats are asked in turn, so the first seat's program paid its whole
    start-up (here 1 s before it reads its input) from its bank while the second one
    started in the meantime and paid almost nothing.  Now a program's bank starts once
    it has read its settings, as an in-process bot's start_game is off the bank."""
    slow = [sys.executable, str(Path(__file__).parent / "fixtures" / "slow_start.py"), "1.0"]
    bots = [ExternalBot(slow, protocol="lightriders") for _ in range(2)]
    try:
        rec = play(board(), bots, rules="lightriders", time_bank=(5.0, 0.0), max_turns=1)
    finally:
        for bot in bots:
            bot.close()
    assert faults(rec, 0) == faults(rec, 1) == []
    spent = [5.0 - left for left in rec.metadata["least_bank"]]
    assert max(spent) < 0.6, spent          # each answered at once once it was up


def test_waiting_for_a_program_to_start_stays_within_the_hooks_limit(monkeypatch):
    """The wait for a program to read its settings is start_game's: under a first-move
    limit of 0.5 s it must end in time, or the engine takes start_game for a timeout
    and shuts the bot down before its first move.  The deadline start_game hands the
    wait is checked against the moment of the call (a loaded machine's scheduling
    cannot move it), and the wait must end long before the program's 3 s start-up."""
    from tronlab.runner import program as program_module
    waits = []
    real_wait = program_module.Program.wait_read

    def wait_read(self, deadline):
        called = time.monotonic()
        ready = real_wait(self, deadline)
        waits.append((deadline - called, ready, time.monotonic() - deadline))
        return ready

    monkeypatch.setattr(program_module.Program, "wait_read", wait_read)
    slow = [sys.executable, str(Path(__file__).parent / "fixtures" / "slow_start.py"), "3.0"]
    bot = ExternalBot(slow, protocol="lightriders")
    t0 = time.monotonic()
    try:
        bot.start_game(board(), 0, rules="lightriders", first_time_limit=0.5)
        waited = time.monotonic() - t0
    finally:
        bot.close()
    assert len(waits) == 1, waits
    allowed, ready, overrun = waits[0]
    assert 0 < allowed <= 0.9 * 0.5, allowed   # nine tenths of the hook's limit
    assert not ready                            # the program was still starting
    assert overrun < 1.0, overrun               # it gave up at its deadline, not at start-up
    assert waited < 2.5, waited
