"""The arena report's text pieces on tiny hand-made rows (tronlab.arena.report,
tronlab.arena.slow): each expected line worked out by hand."""

from __future__ import annotations

import re
from types import SimpleNamespace

from tronlab.arena.report import clock_text, faults_text, pairs_text, ratings_text, seat_faults


def test_a_games_clock_in_words():
    row = {"time": 0.1, "bank": None, "depth": None}
    assert clock_text(row) == "0.1 s a move"
    assert clock_text(dict(row, depth=4)) == "0.1 s a move, search depth 4"
    assert clock_text(dict(row, time=None)) == "no time limit"
    assert clock_text(dict(row, time=0.2, bank=10.0, depth=3)) == (
        "time bank 10 s, 0.2 s added a move, search depth 3")


def test_a_long_name_widens_the_ratings_column_for_every_line():
    long = "a_bot_with_a_name_of_thirty_ch"
    rows = [{"names": [long, "b"], "ranks": [0, 1]}, {"names": ["b", long], "ranks": [0, 1]}]
    lines = ratings_text(rows).splitlines()
    assert len(lines) == 3 and len({len(line) for line in lines}) == 1, lines
    assert lines[1].index(long) + len(long) < lines[0].index("rating")


def test_a_draw_is_half_a_point_in_the_pairs_table():
    # a v b: 2 wins, 3 draws, no loss (both seats): 3.5 points of 5, a 70% score
    rows = ([{"names": ["a", "b"], "ranks": [0, 1], "map_set": "s"}] * 2
            + [{"names": ["b", "a"], "ranks": [0, 0], "map_set": "s"}] * 3)
    line = pairs_text(rows).splitlines()[1].split()
    assert line[:9] == ["a", "v", "b", "all", "2", "3", "0", "3.5/5", "70%"], line


def test_the_faults_count_only_a_bots_own_mistakes_and_name_its_first_game():
    # ids out of order: a's first timeout is game 2, though game 5 comes first;
    # 'trail' (ran into a wall) is a loss, not a fault
    rows = [{"id": 5, "names": ["a", "b"], "faults": ["timeout", None]},
            {"id": 2, "names": ["b", "a"], "faults": ["trail", "timeout"]},
            {"id": 9, "names": ["a", "b"], "faults": ["error", "trail"]}]
    assert faults_text(rows).splitlines()[1:] == [
        "  a: error in 1 game (first in game 9), timeout in 2 games (first in game 2)"]
    unnumbered = [dict(r, id=None) for r in rows]
    assert faults_text(unnumbered).splitlines()[1:] == ["  a: error in 1 game, timeout in 2 games"]
    clean = [dict(r, faults=[None, "trail"]) for r in rows]
    assert faults_text(clean) == "faults (timeouts, crashes, bad output): none in 3 games"


def test_a_capture_games_faults_are_its_eliminations_with_the_referees_words():
    record = SimpleNamespace(
        events=[(2, 0, 0, "back", "BACK 1"), (3, 1, 1, "timeout", "no answer in 150 ms"),
                (5, 2, 0, "second-back", "BACK 2")],
        notes=[(5, 0, "a second BACK: BACK 2 after BACK 1"), (3, 0, "not player 1's")])
    assert seat_faults(["ann", "bob"], record) == [
        (1, "timeout on turn 3: no answer in 150 ms"),
        (0, "second-back on turn 5: a second BACK: BACK 2 after BACK 1")]


# ---- the contest's own clock over stored games (tronlab.arena.slow) --------------------------

def _row(id_, names, slow, game="lightriders"):
    return {"id": id_, "game": game, "names": names, "slow": slow}


#: five Light Riders games given out of order (under the contest's time bank a drained
#: bank makes a quick answer late, a full one lets a slow one pass); r is a registered
#: bot (no entry)
SLOW_ROWS = [_row(3, ["p", "q"], [[0, 0.09, 4], [0, 0.3, 7]]),
             _row(1, ["q", "p"], [[1, 0.16, 2], [0, 0.12, 9]]),
             _row(5, ["q", "s"], [[2, 0.18, 4], [0, 0.16, 8]]),
             _row(4, ["s", "p"], [[0, 0.05, 3], [0, 0.14, 6]]),
             _row(2, ["p", "r"], [[0, 0.14, 5], None])]


def test_slow_answers_add_up_by_bot_showing_the_slowest_late_one():
    from tronlab.arena.slow import SlowBot, slow_by_bot
    # q's slowest answer (0.3 s in game 3) was in time: the one shown is its slowest
    # late one, 0.18 s in game 5; p's 0.14 s twice: the first game's, game 2
    assert slow_by_bot(SLOW_ROWS) == {
        "p": SlowBot("p", 4, 0, 0, 0.14, 2, 5),
        "q": SlowBot("q", 3, 3, 2, 0.18, 5, 4),
        "s": SlowBot("s", 2, 0, 0, 0.16, 5, 8)}


def test_the_slow_lines_name_the_late_programs_and_sum_up_the_others():
    from tronlab.arena.slow import slow_lines
    lines = slow_lines(SLOW_ROWS)
    assert lines[1:] == [
        "  q: 3 answers over the contest's time bank, in 2 of 3 games (worst 180 ms: "
        "game 5, turn 4): the contest would have timed it out",
        "  the other 2 programs: every answer in time (slowest 160 ms, s: game 5, turn 8)"]
    in_time = [r for r in SLOW_ROWS if "q" not in r["names"]]
    assert slow_lines(in_time)[1:] == [
        "  both programs: every answer in time (slowest 140 ms, p: game 2, turn 5)"]
    alone = [_row(4, ["s", "r"], [[0, 0.05, 3], None])]
    assert slow_lines(alone)[1:] == ["  s: every answer in time in 1 game (slowest 50 ms: "
                                     "game 4, turn 3)"]
    assert slow_lines([dict(alone[0], id=None)])[1:] == [
        "  s: every answer in time in 1 game (slowest 50 ms: turn 3)"]
    assert slow_lines([dict(r, slow=None) for r in SLOW_ROWS]) == []


def test_a_program_the_arena_timed_out_is_in_time_only_in_the_answers_it_gave():
    # its timed-out answers never arrived, so they are not among the contest's clock's:
    # 'every answer in time' next to 2 timeouts under faults said something false
    from tronlab.arena.html import _slow
    from tronlab.arena.slow import slow_lines
    rows = [dict(_row(1, ["p", "t"], [[0, 0.09, 4], [0, 0.05, 3]]), faults=[None, "timeout"]),
            dict(_row(2, ["t", "s"], [None, [0, 0.1, 2]]), faults=["timeout", None]),
            dict(_row(3, ["s", "p"], [[0, 0.08, 5], [0, 0.07, 6]]), faults=[None, None])]
    assert slow_lines(rows)[1:] == [
        "  t: every answer it gave in time in 1 game (slowest 50 ms: game 1, turn 3); "
        "the arena's own timeout stopped it in 2 games (under faults)",
        "  the other 2 programs: every answer in time (slowest 100 ms, s: game 2, turn 2)"]
    late = [dict(rows[0], slow=[[0, 0.09, 4], [1, 0.3, 3]]), rows[1]]
    assert slow_lines(late)[1].endswith(
        "the contest would have timed it out; the arena's own timeout stopped it in 2 games "
        "(under faults)")
    assert ("<td>t</td><td>every answer it gave in time in 1 game (slowest 50 ms: game 1, "
            "turn 3); the arena&#x27;s own timeout stopped it in 2 games (under faults)</td>"
            in _slow(rows, {}))


def test_the_slow_lines_of_two_contests_say_which_and_seconds_from_10():
    from tronlab.arena.slow import slow_lines
    rows = [_row(1, ["q", "p"], [[1, 0.16, 2], None], game="backtothecode"),
            _row(6, ["q", "p"], [[1, 10.0, 3], None])]
    assert slow_lines(rows) == [
        "the contest's own clock (backtothecode: 150 ms a turn, 100 ms and the referee's "
        "50 ms of grace; lightriders: its 10 s time bank, 200 ms added a move; the arena "
        "allows more), against the programs' answers after their first:",
        "  backtothecode q: 1 answer slower than the contest's 150 ms, in 1 of 1 game (worst "
        "160 ms: game 1, turn 2): the contest would have timed it out",
        "  lightriders q: 1 answer over the contest's time bank, in 1 of 1 game (worst "
        "10.0 s: game 6, turn 3): the contest would have timed it out"]



def test_the_page_shows_a_program_of_two_contests_in_each():
    # the page kept one entry a bot name, so p's late answers in backtothecode were
    # replaced by its in-time lightriders games; the text table says both
    from tronlab.arena.html import _slow
    rows = [_row(1, ["p", "r"], [[2, 0.16, 2], None], game="backtothecode"),
            _row(6, ["p", "r"], [[0, 0.3, 3], None])]
    page = _slow(rows, {"1": {}})
    assert ('<td>backtothecode p</td><td>2 answers slower than the contest&#x27;s 150 ms, in 1 '
            'of 1 game (worst 160 ms: <a href="#game-1">game 1</a>, turn 2)') in page
    assert "<td>lightriders p</td><td>every answer in time in 1 game (slowest 300 ms: game 6, " \
           "turn 3)</td>" in page
    # one contest: the bot's name alone
    assert "<td>p</td><td>2 answers" in _slow(rows[:1], {})

def test_a_tron_games_faults_are_each_seats_first_with_what_it_did():
    record = SimpleNamespace(moves=[], events=[
        {"player": 1, "kind": "trail", "turn": 2},
        {"player": 1, "kind": "timeout", "turn": 4, "detail": "no move in 0.2 s"},
        {"player": 1, "kind": "error", "turn": 5, "detail": "ValueError"},
        {"player": 0, "kind": "exited", "turn": 6}])
    assert seat_faults(["ann", "bob"], record) == [
        (0, "exited on turn 6"), (1, "timeout on turn 4: no move in 0.2 s")]


def test_three_programs_all_in_time_are_all_3():
    from tronlab.arena.slow import slow_lines
    rows = [_row(1, ["p", "q"], [[0, 0.09, 4], [0, 0.03, 2]]),
            _row(2, ["q", "s"], [[0, 0.05, 3], [0, 0.12, 6]])]
    assert slow_lines(rows)[1:] == [
        "  all 3 programs: every answer in time (slowest 120 ms, s: game 2, turn 6)"]


def test_an_arena_timeout_in_one_contest_is_not_told_under_another():
    from tronlab.arena.slow import slow_lines
    rows = [dict(_row(1, ["t", "p"], [[0, 0.05, 3], [0, 0.02, 2]], game="google2010"),
                 faults=["timeout", None]),
            dict(_row(2, ["t", "p"], [[0, 0.04, 5], [0, 0.03, 4]]), faults=[None, None])]
    lines = slow_lines(rows)[1:]
    assert lines[0].startswith("  google2010 t: every answer it gave in time in 1 game"), lines
    assert lines[0].endswith("stopped it in 1 game (under faults)"), lines
    assert lines[2:] == ["  lightriders both programs: every answer in time (slowest 40 ms, "
                         "t: game 2, turn 5)"], lines


def test_a_class_lists_its_bots_alphabetically_whatever_their_capitals(monkeypatch):
    # before: 'ALICE', 'Paul Smith' and 'Zed' came before 'alice', 'bob' and 'carl' (the
    # capitals sort first), so in a class of thirty a teacher looked for Paul after 'nothing'
    from tronlab.arena.html import _faults, _slow
    from tronlab.arena.slow import slow_lines
    names = ["carl", "Paul Smith", "alice", "Zed", "bob", "ALICE"]
    rows = [{"id": k + 1, "game": "google2010", "names": [a, "bob"],
             "faults": ["timeout", None], "slow": [[0, 2.5, 3], [0, 0.01, 3]]}
            for k, a in enumerate(n for n in names if n != "bob")]
    want = ["ALICE", "alice", "carl", "Paul Smith", "Zed"]
    text = faults_text(rows)
    assert [line.split(":")[0].strip() for line in text.splitlines()[1:]] == want
    assert [line.split(":")[0].strip() for line in slow_lines(rows)[1:-1]] == want
    monkeypatch.setattr("tronlab.arena.html.first_fault_text", lambda *args: "it hung")
    for page in _faults(None, rows, {}), _slow(rows, {}):
        found = [page.index(f"<tr><td>{name}</td>") for name in want]
        assert found == sorted(found)


def test_bots_that_never_answer_a_first_move_are_named_with_the_time_they_cost(monkeypatch):
    # before: in the 29-bot class run three such bots (a loop in move, a loop at the top
    # of the file, a silent program) took 914 s of the games' 2299 s, each game waiting
    # out the 4.5 s first move, and nothing said so or how to find them sooner
    from tronlab.arena.html import _faults

    def game(k, names, faults, turns, seconds):
        return {"id": k, "game": "google2010", "names": names, "faults": faults,
                "turns": turns, "seconds": seconds}
    rows = [game(1, ["hang", "ann"], ["timeout", None], 1, 5.0),
            game(2, ["ann", "hang"], [None, "timeout"], 1, 5.0),
            game(3, ["hang", "quiet"], ["timeout", "timeout"], 1, 5.0),
            game(4, ["quiet", "ann"], ["timeout", None], 1, 5.0),
            game(5, ["ann", "slow"], [None, "timeout"], 1, 5.0),     # once in two: noise
            game(6, ["slow", "late"], [None, "timeout"], 9, 1.0),
            game(7, ["late", "slow"], ["timeout", None], 9, 1.0),    # late: turn 9
            game(8, ["once", "ann"], ["timeout", None], 1, 5.0)]     # a single game
    lines = faults_text(rows).splitlines()
    assert lines[-2] == ("  hang, quiet never answered a first move: their 4 games each "
                         "waited out its limit (20 s of the 32 s all games took);")
    # a run gives up on such a program: how to play its other games (tests/test_arena_giveup)
    assert "--give-up-after" in lines[-1] and lines[-1].endswith(
        "fix their files and run the same command again")
    fine = [r for r in rows if not {"hang", "quiet"} & set(r["names"])]
    assert "never answered" not in faults_text(fine)
    monkeypatch.setattr("tronlab.arena.html.first_fault_text", lambda *args: "it hung")
    assert "hang, quiet never answered a first move" in _faults(None, rows, {})
    alone = [r for r in rows if "quiet" not in r["names"]]
    assert "  hang never answered a first move: its 2 games each" in faults_text(alone)


# ---- a class of thirty: the printed table and the page --------------------------------------

def _class_rows(names, upset=()):
    """A round robin of ``names`` on one map, both seats, the first name of a pair winning
    (so the ratings keep the names' order); ``upset`` a pair (a, b) that also played 14
    games b won; the last name timed out in the games it lost."""
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    games = [(a, b, a) for a, b in pairs for _seat in range(2)]
    games += [(*upset, upset[1])] * 14 if upset else []
    rows = []
    for k, (a, b, won) in enumerate(games, 1):
        seats = [a, b] if k % 2 else [b, a]
        rows.append({"id": k, "game": "google2010", "map": "m", "map_set": "s", "time": 0.1,
                     "bank": None, "depth": None, "names": seats, "turns": 9, "seconds": 1.0,
                     "ranks": [0 if n == won else 1 for n in seats],
                     "winner": seats.index(won),
                     "faults": ["timeout" if n == names[-1] and n != won else None
                                for n in seats]})
    return rows


def _sections(text):
    return [part.splitlines()[0] for part in text.split("\n\n")]


def test_a_class_reads_its_faults_before_a_short_pairs_table():
    # before: a class of 29 printed its 406 pairs between the ratings and the faults, so a
    # teacher scrolled 400 lines to find whose file was broken
    from tronlab.arena.ratings import ratings
    from tronlab.arena.report import table_text
    names = [f"bot{k}" for k in range(9)]           # 36 pairs: more than 8 bots' 28
    rows = _class_rows(names, upset=("bot0", "bot8"))
    text = table_text(rows)
    heads = _sections(text)
    assert heads[2].startswith("faults in 86 games") and heads[3].startswith("36 pairs, "), heads
    said = " ".join(text.split("\n\n")[3].split("\npair ")[0].split())
    # bot0 v bot8: 2 wins, 14 losses, sign p 0.004; the others 2 games, p 0.5 at best
    assert said.startswith("36 pairs, 2-16 games a pair: 0 clear, 1 lost, 35 unclear. Below, "
                           "9 of them: each bot against the next one down the ratings"), said
    order = [r.name for r in ratings(rows)]
    assert order.index("bot0") < order.index("bot8") - 1, order
    shown = [tuple(line.split()[:3:2]) for line in text.splitlines()[-12:] if " v " in line]
    want = sorted([*zip(order, order[1:]), ("bot0", "bot8")],
                  key=lambda p: (order.index(p[0]), order.index(p[1])))
    assert shown == want, shown
    assert "(a verdict needs 8 decided games" not in said           # 16 games were played
    two = table_text(_class_rows(names))
    assert (
        "36 pairs, 2 games a pair: 0 clear, 0 lost, 36 unclear (a verdict needs 8 decided "
        "games at least: more --seeds or --maps give them). Below, 8 of them") in " ".join(
        two.split())


def test_up_to_eight_bots_keep_every_pair_before_the_faults():
    from tronlab.arena.report import table_text
    text = table_text(_class_rows([f"bot{k}" for k in range(8)]))
    heads = _sections(text)
    assert heads[2].startswith("pair ") and heads[3].startswith("faults in 56 games"), heads
    assert sum(" v " in line for line in text.splitlines()) == 28


def _page(rows, monkeypatch):
    from tronlab.arena.html import leaderboard_html
    monkeypatch.setattr("tronlab.arena.html.first_fault_text", lambda *args: "it hung")
    # no record says a bot timed out on its first move: the first-move note stays out
    store = SimpleNamespace(path="c.sqlite", record_json=lambda game_id: '{"events": []}')
    return leaderboard_html(store, rows, max_replays=0)


def _pair_cells(page):
    return re.findall(r"<tr><td>(bot\d) v (bot\d)</td>", page)


def test_a_class_page_puts_the_faults_first_and_folds_every_pair_away(monkeypatch):
    # before: the page of 29 bots listed its 406 pairs above the faults, 7000 pixels down
    from tronlab.arena.ratings import ratings
    rows = _class_rows([f"bot{k}" for k in range(9)], upset=("bot0", "bot8"))
    page = _page(rows, monkeypatch)
    at = [page.index(f"<h2>{h}</h2>") for h in ("Ratings", "Faults", "Head to head", "Pairs",
                                                  "Games")]
    assert at == sorted(at), at
    pairs = page[at[3]:at[4]]
    assert "36 pairs, 2-16 games a pair: 0 clear, 1 lost, 35 unclear. Here 9 of them" in pairs
    short, every = pairs.split("<details>")
    order = [r.name for r in ratings(rows)]
    want = sorted([*zip(order, order[1:]), ("bot0", "bot8")],
                  key=lambda p: (order.index(p[0]), order.index(p[1])))
    assert _pair_cells(short) == want
    assert len(_pair_cells(every)) == 36 and every.startswith("<summary>every pair (36)")
    few = _page(_class_rows([f"bot{k}" for k in range(8)]), monkeypatch)
    at = [few.index(f"<h2>{h}</h2>") for h in ("Head to head", "Pairs", "Faults")]
    assert at == sorted(at) and "<details>" not in few and len(_pair_cells(few)) == 28


def _text_align(style, cls, column):
    """The text-align of a ``td`` in ``column`` (from 1) of a table of class ``cls`` under
    ``style``, by CSS's rules: the most specific selector wins, a later one on a tie."""
    best = (-1, "start")
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", style):
        align = re.search(r"text-align:(\w+)", body)
        for sel in (s.strip() for s in selectors.split(",")) if align else ():
            m = re.fullmatch(r"(?:\.([\w-]+) )?td(?::first-child|:nth-child\((-n\+)?(\d+)\))?",
                             sel)
            if not m or m.group(1) not in (None, cls):
                continue
            if ":" in sel:
                last = 1 if sel.endswith("first-child") else int(m.group(3))
                if column > last or (not m.group(2) and column != last):
                    continue
            weight = sel.count(".") + sel.count(":")
            best = max(best, (weight, align.group(1)), key=lambda b: b[0])
    return best[1]


def test_names_on_the_page_read_from_the_left(monkeypatch):
    # before: the ratings' bot names and the games' bots and results were right-aligned,
    # a ragged left edge down a class of thirty
    from tronlab.arena.html import STYLE
    page = _page(_class_rows(["ann", "bob", "cy"]), monkeypatch)
    assert '<table class="ratings"><tr><th>rank</th><th>bot</th>' in page
    assert '<table class="games"><tr><th>game</th><th>bots (by seat)</th>' in page
    assert [_text_align(STYLE, "ratings", k) for k in range(1, 7)] == [
        "left", "left", "right", "right", "right", "right"]
    assert [_text_align(STYLE, "games", k) for k in range(1, 6)] == [
        "left", "left", "left", "left", "right"]


def test_the_page_lists_the_left_out_as_a_class_list():
    from tronlab.arena.html import _left_out
    page = _left_out({"zed": "z", "Bob": "b", "amy": "a"})
    assert re.findall(r"<tr><td>(\w+)</td>", page) == ["amy", "Bob", "zed"]


def test_a_class_page_puts_its_programs_always_in_time_on_one_line():
    # before: the page gave 28 lines 'every answer in time' where the text gave one
    from tronlab.arena.html import _slow
    rows = [_row(k, [f"p{k:02d}", "late"], [[0, 0.01 * k, 2], [1, 0.3, 3]]) for k in
            range(1, 11)]
    page = _slow(rows, {})
    assert re.findall(r"<tr><td>([\w ]+)</td>", page) == ["late", "the other 10 programs"]
    assert "every answer in time (slowest 100 ms, p10: game 10, turn 2)" in page
    few = _slow(rows[:8], {})              # up to 8: each with its own slowest answer
    assert re.findall(r"<tr><td>([\w ]+)</td>", few) == ["late"] + [
        f"p{k:02d}" for k in range(1, 9)]


def test_a_class_whose_pairs_met_once_reads_1_game_a_pair():
    # 4-player games (or one seat a pair) can meet each pair once: not '1 games a pair'
    from tronlab.arena.report import default_pairs, pairs_counts
    rows = _class_rows([f"bot{k}" for k in range(9)])[::2]      # one game of each pair
    assert pairs_counts(rows, default_pairs(rows)).startswith(
        "36 pairs, 1 game a pair: 0 clear, 0 lost, 36 unclear")
