"""The leaderboard as one self-contained HTML page (technique X6).

:func:`leaderboard_html` writes the ratings (table and a plot with the 95%
intervals, as inline SVG), the head-to-head scores, the per-pair table, each
bot's faults (timeouts, crashes, bad answers, broken rules) with what it did the
first time, the programs' answers held against the contest's own clock
(:mod:`tronlab.arena.slow`), the bots of a class folder that could not play
(``left_out``) and a list of the games; for a class (more than
:data:`~tronlab.arena.report.FULL_PAIRS` pairs) the faults, the clock and the bots left
out come right after the ratings, then the pairs of the printed table, every pair folded
under them. Each game's link opens its replay in the page (board as text, a key to
which characters are which bot, a slider, play and step buttons, arrow keys).
Everything - data, style and script - is inside the file: it opens offline, from a USB
stick or an e-mail, with no server and no network.

A replay is stored as the start board's rows and, for each turn, the squares
that changed (``[x, y, character]``), so a long tournament's page stays small;
at most ``max_replays`` games (the first ones) carry a replay.
"""

from __future__ import annotations

import html
import json
import math
import os

from ..runner.reprs import plural
from .ratings import places, ratings
from .report import (CLASS_PAIRS, HUNG_MARK, HUNG_NOTE, RESULTS_NOTE, class_pairs,
                     clocks_phrase, default_pairs, fault_count, fault_lines, first_fault_text,
                     first_faults, first_move_note, is_class, maps_phrase, multiplayer,
                     never_answered, pairs_counts, reference_note)
from .slow import PAGE_EACH, allowance, clocks_text, slow_entries
from .stats import (by_name, fault_codes, fault_counts, head_to_head, pair_table,
                    seat_places)
from .store import record_of

STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:70em}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{padding:.15em .6em;text-align:right}
th{border-bottom:1px solid #888}td:first-child,th:first-child{text-align:left}
pre{font-size:14px;line-height:1.05;background:#f4f4f4;padding:.5em;display:inline-block}
#viewer{display:none;border:1px solid #aaa;padding:.6em;margin:1em 0;background:#fff}
#faults{white-space:pre-line;color:#a00}
.faults td,.faults th{text-align:left}.counts td:nth-child(2){white-space:nowrap}
.clear{color:#075}.lost{color:#a00}.h2h td{text-align:center;min-width:2.8em;padding:.15em .25em}
.h2h th{text-align:center}.scroll{overflow-x:auto;max-width:100%}
.h2h td:first-child,.h2h th:first-child{position:sticky;left:0;background:#fff;
text-align:left;white-space:nowrap}
.ratings td:nth-child(2),.ratings th:nth-child(2),.games td:nth-child(-n+4),
.games th:nth-child(-n+4){text-align:left}
summary{cursor:pointer;margin-bottom:.5em}
"""

SCRIPT = """
const GAMES = JSON.parse(document.getElementById('games-data').textContent);
let cur = null, timer = null;
function frame(g, t) {
  const rows = g.start.map(r => r.split(''));
  for (let k = 0; k < t; k++) for (const [x, y, c] of g.steps[k]) rows[y][x] = c;
  return rows.map(r => r.join('')).join('\\n');
}
function draw() {
  const g = GAMES[cur], t = +document.getElementById('turn').value;
  document.getElementById('board').textContent = frame(g, t);
  document.getElementById('turn-label').textContent = 'turn ' + t + ' of ' + g.steps.length;
}
function show(id) {
  if (!(id in GAMES)) return;
  cur = id; stop();
  const g = GAMES[id], s = document.getElementById('turn');
  document.getElementById('viewer').style.display = 'block';
  document.getElementById('title').textContent = g.title;
  document.getElementById('result').textContent = g.result;
  document.getElementById('faults').textContent = g.faults.join('\\n');
  s.max = g.steps.length; s.value = g.steps.length; draw();
  document.getElementById('viewer').scrollIntoView();
}
function step(d) {
  const s = document.getElementById('turn');
  s.value = Math.max(0, Math.min(+s.max, +s.value + d)); draw();
}
function stop() { if (timer) { clearInterval(timer); timer = null; } }
function play() {
  stop(); const s = document.getElementById('turn');
  if (+s.value >= +s.max) s.value = 0;
  timer = setInterval(() => { step(1); if (+s.value >= +s.max) stop(); }, 80);
}
document.getElementById('turn').addEventListener('input', draw);
document.addEventListener('keydown', e => {
  if (cur === null) return;
  if (e.key === 'ArrowRight') step(1); else if (e.key === 'ArrowLeft') step(-1);
});
function fromHash() { const m = location.hash.match(/^#game-(\\d+)$/); if (m) show(m[1]); }
window.addEventListener('hashchange', fromHash); fromHash();
"""


def _diff(before: list[str], after: list[str]) -> list:
    return [[x, y, c] for y, (r0, r1) in enumerate(zip(before, after))
            for x, (a, c) in enumerate(zip(r0, r1)) if a != c]


def replay_frames(record) -> tuple[list[str], list]:
    """``(start rows, changes per turn)`` of a Tron or capture record."""
    if hasattr(record, "boards"):
        frames = [b.to_ascii().split("\n") for b in record.boards()]
    else:
        from ..capture.ascii import format_grid
        frames = [format_grid(s.owner, s.positions).split("\n") for s in record.replay()]
    return frames[0], [_diff(a, b) for a, b in zip(frames, frames[1:])]


def _result(row) -> str:
    names, ranks = row["names"], row["ranks"]
    if row["winner"] is not None:
        text = f"{names[row['winner']]} wins"
    elif len(names) == 2:
        text = "draw"
    else:
        text = "places " + ", ".join(f"{n} {r}" for n, r in zip(names, seat_places(ranks)))
    codes = fault_codes()
    faults = [f"{n}: {f}" for n, f in zip(names, row["faults"]) if f in codes]
    return text + (f" ({'; '.join(faults)})" if faults else "")


def _ticks(lo: float, hi: float) -> list:
    """Round values for the rating axis between ``lo`` and ``hi``: steps of 1, 2 or 5 times
    a power of ten, three to seven of them."""
    span = max(hi - lo, 1.0)
    hi = lo + span                            # the plot's own range when all ratings are equal
    step = 10 ** math.floor(math.log10(span / 3))
    step *= next(m for m in (1, 2, 5, 10) if span / (step * m) <= 7)
    first = math.ceil(lo / step) * step
    return [round(first + k * step, 9) for k in range(int((hi - first) // step + 1e-9) + 1)]


def _rating_svg(table) -> str:
    if not table:
        return ""
    lo = min(r.elo - r.half for r in table)
    hi = max(r.elo + r.half for r in table)
    span = max(hi - lo, 1.0)
    width, left, row_h = 640, 150, 22
    height = row_h * len(table) + 44

    def x(v):
        return left + (v - lo) / span * (width - left - 20)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'role="img" aria-label="ratings with 95% intervals">',
             f'<line x1="{x(0):.1f}" y1="0" x2="{x(0):.1f}" y2="{height - 32}" stroke="#bbb" '
             f'stroke-dasharray="3,3"/>']
    for k, r in enumerate(table):
        y = 15 + k * row_h
        parts += [f'<text x="{left - 8}" y="{y + 4}" text-anchor="end" font-size="13">'
                  f'{html.escape(r.name)}</text>',
                  f'<line x1="{x(r.elo - r.half):.1f}" y1="{y}" x2="{x(r.elo + r.half):.1f}" '
                  f'y2="{y}" stroke="#47a" stroke-width="3"/>',
                  f'<circle cx="{x(r.elo):.1f}" cy="{y}" r="5" fill="#124"/>']
    for v in _ticks(lo, hi):
        parts.append(f'<text x="{x(v):.1f}" y="{height - 18}" text-anchor="middle" '
                     f'font-size="11" fill="#666">{v:g}</text>')
    parts.append(f'<text x="{left}" y="{height - 3}" font-size="12">rating (Elo scale, '
                 f'0: the mean), dot and 95% interval</text></svg>')
    return "\n".join(parts)


def _table(head, body, cls="") -> str:
    out = [f'<table class="{cls}"><tr>' + "".join(f"<th>{html.escape(h)}</th>" for h in head)
           + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body]
    return "\n".join(out + ["</table>"])


def _h2h(rows, names) -> str:
    """The head-to-head matrix in a box of its own that scrolls sideways, the row names
    staying in view; its columns are numbered as the rows are (a name on hover), so
    thirty students fit where thirty names did not."""
    matrix = head_to_head(rows, names)
    body = []
    for k, (a, line) in enumerate(zip(names, matrix), 1):
        cells = []
        for v in line:
            if v is None:
                cells.append("")
            else:
                shade = int(255 - 120 * abs(v - 0.5) * 2)
                color = f"rgb({shade},255,{shade})" if v >= 0.5 else f"rgb(255,{shade},{shade})"
                cells.append(f'<span style="background:{color};padding:0 .3em">{100 * v:.0f}%'
                             f'</span>')
        body.append([f"{k} {html.escape(a)}"] + cells)
    heads = "".join(f'<th title="{html.escape(a)}">{k}</th>' for k, a in enumerate(names, 1))
    table = _table(["row v column"], body, "h2h").replace("</th></tr>", f"</th>{heads}</tr>", 1)
    return f'<div class="scroll">{table}</div>'


def _seats(row, record) -> str:
    """The players of a replay by seat, each with the characters it is drawn with: a Tron
    bot's head and trail (``ann (1/a)``), a capture bot's position and squares
    (``ann (a/0)``)."""
    tron = hasattr(record, "boards")
    return " v ".join(f"{name} ({k + 1}/{chr(97 + k)})" if tron else f"{name} ({chr(97 + k)}/{k})"
                      for k, name in enumerate(row["names"]))


def _replays(store, rows, max_replays) -> dict:
    games = {}
    for row in rows[:max_replays]:
        record = record_of(store.record_json(row["id"]))
        start, steps = replay_frames(record)
        games[str(row["id"])] = {"title": f"game {row['id']}: {_seats(row, record)} on "
                                          f"{row['map']} ({row['game']}, seed {row['seed']})",
                                 "start": start, "steps": steps, "result": _result(row),
                                 "faults": fault_lines(row["names"], record)}
    return games


def _replays_note(n_rows, n_replays, db) -> str:
    if n_replays >= n_rows:
        return "<p>Click a game's number to replay it.</p>"
    return (f"<p>Click a game's number to replay it. To keep the page small only the first "
            f"{n_replays} of the {plural(n_rows, 'game')} carry a replay (<code>--replays N</code> "
            f"changes that); <code>tronlab arena replay {html.escape(os.path.basename(db))} "
            f"ID</code> shows any game.</p>")


def _results_note(rows) -> str:
    """What a result is, where games had more than two players."""
    return f"<p>{html.escape(' '.join(RESULTS_NOTE.strip('()').split()))}.</p>" if multiplayer(
        rows) else ""


def _first_fault(store, row, name, code, games) -> str:
    """What ``name`` did wrong in ``row``, its first game with fault ``code``: the game
    (a link when it carries a replay) and the record's line for it (``illegal on
    turn 1: ... move() returned None ...``)."""
    said = first_fault_text(store, row, name, code)
    game = (f'<a href="#game-{row["id"]}">game {row["id"]}</a>' if str(row["id"]) in games
            else f"game {row['id']}")
    return f"{game}: {html.escape(said)}"


def _faults(store, rows, games, hung=None, after=None) -> str:
    """The faults of each bot over ``rows``, as the printed table's faults lines give them,
    each with the first game it happened in and what the bot did there (``hung``:
    :func:`~tronlab.arena.report.never_answered`'s list, if known)."""
    counts = fault_counts(rows)
    if not counts:
        these = "this game" if len(rows) == 1 else f"these {len(rows)} games"
        return f"<p>No bot timed out, crashed, answered badly or broke a rule in {these}.</p>"
    first = first_faults(rows)
    lines = [[html.escape(name), html.escape(fault_count(code, n)),
              _first_fault(store, first[name, code], name, code, games)]
             for name, c in sorted(counts.items(), key=lambda item: by_name(item[0]))
             for code, n in sorted(c.items())]
    note = " ".join(line.strip() for line in first_move_note(rows, store, hung, after))
    return (f"<p>Games in which a bot timed out, crashed, answered badly or broke a rule, "
            f"out of {len(rows)}, and what it did the first time.</p>"
            + _table(["bot", "faults", "the first time"], lines, "faults counts")
            + (f"<p>{html.escape(note)}.</p>" if note else ""))


def _slow(rows, games) -> str:
    """The programs' answers against the contest's own clock, a line a program and contest
    (the late ones first) or, for more than slow.PAGE_EACH always in time, one line for
    those as in the printed table; the game of each worst answer a link when it carries a
    replay; '' when no program played."""
    entries = slow_entries(rows, PAGE_EACH)
    if not entries:
        return ""
    several = len({r["game"] for r in rows}) > 1
    # a program by name, the late ones first; then the programs always in time
    order = sorted(entries, key=lambda e: (e.who != e.bot.name, -e.bot.late, by_name(e.who),
                                           e.game))
    lines = []
    for entry in order:
        text, game = html.escape(entry.text), entry.bot.game
        if str(game) in games:
            text = text.replace(f"game {game},", f'<a href="#game-{game}">game {game}</a>,', 1)
        lines.append([html.escape(f"{entry.game} {entry.who}" if several else entry.who), text])
    return ("<h2>The contest's clock</h2><p>Unless --time (or --bank) is tighter than the "
            "contest's clock, the arena allows a program more time, so that machine noise "
            "does not decide games. Here its answers after the first (which includes "
            f"starting the program) are held against the contest's own clock "
            f"({html.escape(clocks_text(rows))}; {html.escape(allowance(rows))}).</p>"
            + _table(["program", "answers"], lines, "faults"))


def _left_out(left_out) -> str:
    """The bots of a class folder that could not play, with the reason of each."""
    if not left_out:
        return ""
    lines = [[html.escape(name), html.escape(why)]
             for name, why in sorted(left_out.items(), key=lambda item: by_name(item[0]))]
    return ("<h2>Left out</h2><p>These bots could not play: they are in no game above.</p>"
            + _table(["bot", "why"], lines, "faults"))


def _reference_note(table) -> str:
    """The bots left out of the ratings' 0, when there are any (report.reference_note)."""
    if all(r.in_reference for r in table):
        return ""
    return f"<p>{html.escape(reference_note(table))}.</p>"


def _rating_rows(table, hung=()) -> list:
    """The cells of the ratings table: place (a tie shares it), bot (marked if it is in
    ``hung``, :func:`~tronlab.arena.report.never_answered`), rating, interval, points,
    results."""
    return [[str(k), html.escape(r.name + HUNG_MARK * (r.name in hung)), str(round(r.elo)),
             f"±{r.half:.0f}", f"{r.points:.1f}", str(r.games)]
            for k, r in zip(places(table), table)]


PAIRS_HEAD = ("<h2>Pairs</h2><p>W-D-L from the first bot's side; verdict 'clear' when the "
              "exact sign test of the decided games gives p &lt; 0.01 and the first bot won "
              "more, 'lost' when p &lt; 0.01 and it lost more.</p>")


def _pairs_table(rows, pairs) -> str:
    lines = [[html.escape(f"{p.a} v {p.b}"), html.escape(p.maps), str(p.wins), str(p.draws),
              str(p.losses), f"{100 * p.score:.0f}% ±{100 * p.half:.0f}", f"{p.p:.2g}",
              f'<span class="{p.verdict}">{p.verdict}</span>'] for p in pair_table(rows, pairs)]
    return _table(["pair", "maps", "W", "D", "L", "score", "sign p", "verdict"], lines)


def _pairs(rows) -> str:
    """The pairs section: every pair's table; for a class (more than report.FULL_PAIRS
    pairs), how many and their verdicts, the pairs of the printed table, and every pair
    folded under them (a click opens it)."""
    every = default_pairs(rows)
    if not is_class(every):
        return PAIRS_HEAD + "\n" + _pairs_table(rows, every)
    shown = class_pairs(rows, every)
    return "\n".join([PAIRS_HEAD, f"<p>{html.escape(pairs_counts(rows, every))}. Here "
                      f"{len(shown)} of them: {html.escape(CLASS_PAIRS)}; every pair under "
                      f"them.</p>", _pairs_table(rows, shown) if shown else "",
                      f"<details><summary>every pair ({len(every)})</summary>",
                      _pairs_table(rows, every), "</details>"])


def _middle(store, rows, games, left_out, names, hung, after=None) -> list[str]:
    """The sections between the ratings and the games: head to head and the pairs, then
    the faults, the contest's clock and the bots left out; for a class, what to fix
    first (as the printed table)."""
    duels = ["<h2>Head to head</h2><p>Score of the row's bot against the column's (the "
             "columns are numbered as the rows are).</p>", _h2h(rows, names), _pairs(rows)]
    fix = ["<h2>Faults</h2>", _faults(store, rows, games, hung, after), _slow(rows, games),
           _left_out(left_out)]
    return fix + duels if is_class(default_pairs(rows)) else duels + fix


def leaderboard_html(store, rows, *, title="tronlab arena leaderboard",
                     max_replays: int = 500, left_out=None, give_up_after=None) -> str:
    """The whole page for ``rows`` of ``store`` (see the module docstring); ``left_out``
    is ``{name: why}`` of the bots of a class folder that could not play;
    ``give_up_after``: the run's, for the faults' note (None: the default's words)."""
    table = ratings(rows)
    names = [r.name for r in table]
    hung = never_answered(rows, store)
    rating_rows = _rating_rows(table, hung)
    games = _replays(store, rows, max_replays)
    game_rows = [[f'<a href="#game-{r["id"]}">{r["id"]}</a>' if str(r["id"]) in games
                  else str(r["id"]), html.escape(" v ".join(r["names"])), html.escape(r["map"]),
                  html.escape(_result(r)), str(r["turns"])] for r in rows]
    data = json.dumps(games, separators=(",", ":")).replace("</", "<\\/")
    kinds = ", ".join(sorted({r["game"] for r in rows}))
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{plural(len(rows), 'game')} ({html.escape(kinds)}) on {maps_phrase(rows)}, "
        f"{'every seat' if multiplayer(rows) else 'both seats'}; "
        f"{html.escape(clocks_phrase(rows))}. Ratings: Bradley-Terry fit over "
        f"all games, 95% intervals.</p>",
        '<div id="viewer"><b id="title"></b><br><pre id="board"></pre><br>'
        '<button onclick="step(-1)">&lt;</button> <button onclick="play()">play</button> '
        '<button onclick="step(1)">&gt;</button> <input type="range" id="turn" min="0" value="0"> '
        '<span id="turn-label"></span><p id="result"></p><p id="faults"></p></div>',
        "<h2>Ratings</h2>", _results_note(rows),
        _table(["rank", "bot", "rating", "95%", "points", "results"], rating_rows, "ratings"),
        _reference_note(table), f"<p>{html.escape(HUNG_NOTE)}</p>" if hung else "",
        _rating_svg(table),
        *_middle(store, rows, games, left_out, names, hung, give_up_after),
        "<h2>Games</h2>", _replays_note(len(rows), len(games), store.path),
        _table(["game", "bots (by seat)", "map", "result", "turns"], game_rows, "games"),
        f'<script type="application/json" id="games-data">{data}</script>',
        f"<script>{SCRIPT}</script></body></html>"])
