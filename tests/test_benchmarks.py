"""The benchmarks run and say what they should: every hot kernel of
``benchmarks/twins.py`` is reported with a ratio against its plain-Python twin,
the twin computes what the kernel computes, and the compiled kernel allocates
nothing when it runs.  Speed is shown by the
benchmarks, never asserted here: ``--tiny`` runs tiny boards with tiny budgets.
"""

import ast
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"

KERNELS = ["chamber_counts", "fill_length", "greedy_move", "endgame", "turn_order_territory",
           "multi_score", "fill_bound", "components", "touching", "enclose", "opponent_paths",
           "rect_scan", "l_scan", "negamax", "nash_search"]
SEARCHES = {"endgame", "negamax", "nash_search"}
# Twins that do not run as plain Python (tronlab/ is not this file's to fix):
# chamber_build._free_degree indexes flat with sq - stride, sq a numpy uint64 and
# stride an int64, which numpy turns into a float.  strict: the day the twin runs,
# this marker must go.
BROKEN_TWINS: dict = {}     # kernel -> why its twin does not run yet (a strict xfail)


def _run(*args, timeout=300):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout)


@pytest.fixture(scope="module")
def twins():
    out = _run(BENCH / "twins.py", "--tiny", "--json")
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert rows, out.stderr[-3000:]
    return {r["kernel"]: r for r in rows}


def test_every_kernel_is_reported_once(twins):
    assert sorted(twins) == sorted(KERNELS)


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=BROKEN_TWINS[n]))
    if n in BROKEN_TWINS else n for n in KERNELS])
def test_the_twin_agrees_and_a_ratio_is_shown(twins, name):
    r = twins[name]
    assert "twin_error" not in r, r["twin_error"]
    assert r["agree"], r
    assert r["numba_us"] > 0 and r["python_us"] > 0
    assert r["ratio"] == pytest.approx(r["python_us"] / r["numba_us"], rel=0.05, abs=0.1)
    if name in SEARCHES:
        assert r["nodes"] == r["twin_nodes"] > 0


@pytest.mark.parametrize("name", ["components", "chamber_counts", "touching", "opponent_paths"])
def test_a_twin_that_writes_nothing_is_reported_as_disagreeing(monkeypatch, name):
    # kernel and twin once shared their output arrays and the kernel ran first, so a
    # "twin" returning the kernel's answer and writing nothing was reported as agreeing
    monkeypatch.syspath_prepend(str(BENCH))
    import twins

    entry = next(e for e in twins.ENTRIES if e.name == name)
    case = entry.case(True)
    answer = entry.module._kernels.jit(entry.kernel)(*case.args)   # its own arrays
    monkeypatch.setattr(twins, "twin_of", lambda e: lambda *args: answer)
    # NRT statistics are off in this process (twins.py turns them on only as a script)
    monkeypatch.setattr(twins, "allocations_per_call", lambda f, c: 0)
    r = twins.measure(entry, tiny=True, budget=0.001)
    assert r["agree"] is False and r["same_arrays"] is False


@pytest.mark.parametrize("name", KERNELS)
def test_no_hot_kernel_allocates_when_it_runs(twins, name):
    # the speed bar: scratch arrays are made once outside and passed in
    assert twins[name]["allocs_per_call"] == 0


def test_the_text_report_has_a_line_per_kernel():
    out = _run(BENCH / "twins.py", "--tiny", "--only", "fill_bound,components")
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()[1:]
    assert [line.split()[0] for line in lines] == ["fill_bound", "components"]
    assert all("python/numba" in line for line in lines)


def test_an_unknown_entry_is_named():
    out = _run(BENCH / "twins.py", "--only", "flood_fil")
    assert out.returncode == 2 and "no entry flood_fil" in out.stderr


def test_without_the_c_reference_vs_c_says_so_in_one_line(tmp_path):
    out = _run(BENCH / "vs_c.py", "--ref", tmp_path / "ref.c")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [
        f"vs_c.py: no C reference at {tmp_path / 'ref.c'} (ref.c lives in the course's "
        f"shared/bench folder, expected beside this checkout): pass --ref PATH/ref.c"]


def test_without_the_2010_maps_search_uses_the_package_maps_and_says_so(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import search

    boards, note = search.maps_for_reuse(str(tmp_path))
    assert [name for name, _ in boards] == list(search.REUSE_BUILTIN)
    assert str(tmp_path) in note and "--maps DIR" in note
    name, board, note = search.map_for_lateness(str(tmp_path))
    assert board.cells.shape == (27, 27) and "--maps DIR" in note


def test_search_without_the_c_reference_times_numba_and_agrees_with_the_python_twin(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import search

    path = search.DEFAULT_BOARDS[0]
    r = search.numba_only(path, 1)
    value, nodes, _ = search.python_nps(path)
    assert (r["value"], r["nodes"]) == (value, nodes) and r["numba_nps"] > 0


def test_argcheck_times_the_checked_call_against_compiled_code_not_python():
    # its test predecessor compared the checked call with the kernel's plain Python function
    # under numba (a Dispatcher's __wrapped__), so the "extra" was -1400 us and could not fail
    out = _run(BENCH / "argcheck.py", "--tiny", "--json")
    assert out.returncode == 0, out.stderr[-3000:]
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    jit = [r for r in rows if r["mode"] == "jit"]
    assert [r["kernel"] for r in jit] == ["flood_fill_kernel", "components_kernel",
                                          "bfs_distances_kernel"]
    assert {r["unchecked"] for r in jit} == {"numba dispatcher"}
    assert {r["unchecked"] for r in rows if r["mode"] == "aot"} <= {"aot twin"}
    assert all(r["checked_us"] > 0 and r["unchecked_us"] > 0 for r in rows)


def test_coldstart_times_the_backtothecode_protocol_with_the_capture_bots(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import coldstart
    from tronlab.capture.protocol import parse_turn

    assert "backtothecode" in coldstart.PROTOCOLS
    cells = coldstart.pairs(["voronoi"], coldstart.PROTOCOLS)
    assert [b for b, p in cells if p == "backtothecode"] == coldstart.CAPTURE_BOTS
    assert {b for b, p in cells if p != "backtothecode"} == {"voronoi"}
    lines = coldstart.first_turn("backtothecode").splitlines()
    assert lines[0] == "1"                      # one opponent
    view = parse_turn(lines[1:], 2)
    assert view.owner.shape == (20, 35)


def _options_shown(text: str, script: str) -> set:
    """The ``--options`` of the ``benchmarks/<script>`` commands written in ``text``
    (a command's continuation lines included)."""
    found, lines = set(), text.splitlines()
    for i, line in enumerate(lines):
        if not re.search(rf"benchmarks/{re.escape(script)}\b", line):
            continue
        command = [line]
        while command[-1].rstrip().endswith("\\") and i + len(command) < len(lines):
            command.append(lines[i + len(command)])
        found |= set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", " ".join(command)))
    return found


def _options_taken(source: str) -> set:
    taken = set(re.findall(r"add_argument\(\s*\"(--[a-z0-9-]+)\"", source))
    if "import strength" in source:         # hybrid_strength.py passes the rest on
        taken |= _options_taken((BENCH / "strength.py").read_text())
    return taken


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py")))
def test_every_option_a_usage_line_shows_is_one_the_script_takes(script):
    """The usage lines in a benchmark's docstring and in the README name only options
    its parser takes (capture_paths.py showed ``--budget MS``, which it never had)."""
    source = (BENCH / script).read_text()
    shown = _options_shown(ast.get_docstring(ast.parse(source)) or "", script)
    shown |= _options_shown((ROOT / "README.md").read_text(), script)
    assert shown <= _options_taken(source), sorted(shown - _options_taken(source))


def test_hybrid_strength_help_shows_its_own_options_too():
    out = _run(BENCH / "hybrid_strength.py", "--help", timeout=120)
    assert out.returncode == 0, out.stderr
    for option in ("--maps-dir", "--bots", "--random-first"):
        assert option in out.stdout, option     # before: strength.py's help alone
    out = _run(BENCH / "hybrid_strength.py", "--maps-dir", timeout=120)
    assert out.returncode == 2 and "expected one argument" in out.stderr   # before: IndexError


def test_hybrid_strength_passes_maps_on_to_strength(tmp_path):
    # its own parser took strength.py's --maps for an abbreviation of --maps-dir, so the
    # docstring's own "--maps none --random 60" commands stopped at "no 2010 maps at .../none"
    out = _run(BENCH / "hybrid_strength.py", "--bots", "voronoi,random", "--maps", "none",
               "--random", "1", "--table-only", "--results", tmp_path / "s.sqlite",
               timeout=120)
    assert out.returncode == 0, out.stderr
    assert "0 games already played, 2 to play: no results file" in out.stdout
    assert not (tmp_path / "s.sqlite").exists()      # --table-only looks; it made an empty one


def _results_table(script, *args):
    out = _run(BENCH / script, *args, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_separation_table_names_the_bots_of_the_file():
    # before: the pair came from --bots (default chamber,chamber), whatever the file held
    text = _results_table("separation.py", "--table",
                          BENCH / "results" / "separation_nash_chamber_lr_60.jsonl")
    assert text.startswith("nash v chamber: 60 games, 35 decided (15-20 from nash's side)")
    text = _results_table("separation.py", "--table",
                          BENCH / "results" / "separation_chamber_estimates_80.jsonl")
    assert text.startswith("chamber v chamber+time=0.03: 80 games, 47 decided (28-19 from "
                           "chamber's side)")


# W-D-L of the "all" row of each run kept in benchmarks/results as the docstrings quote them
STRENGTH_RUNS = {"chamber_time4x_random_120": ("time4x", "27 68 25"),
                 "chamber_time16x_random_120": ("time16x", "33 70 17"),
                 "chamber_fill_v_chamber_854": ("cf3", "222 430 202"),
                 "chamber_lmr_2010_random": ("lmr-confirm", "112 344 98")}


@pytest.mark.parametrize("name", sorted(STRENGTH_RUNS))
def test_strength_table_only_reprints_a_kept_run(name):
    tag, wdl = STRENGTH_RUNS[name]
    text = _results_table("strength.py", "--table-only", "--tag", tag, "--results",
                          BENCH / "results" / f"{name}.jsonl")
    rows = [line.split() for line in text.splitlines() if " all " in line]
    assert [" ".join(row[row.index("all") + 1:row.index("all") + 4]) for row in rows] == [wdl]


def _nash_table_commands():
    """The (file, options) pairs the nash_strength docstring gives for its kept runs."""
    doc = ast.get_docstring(ast.parse((BENCH / "nash_strength.py").read_text()))
    block = doc[doc.index("print again from the games kept"):]
    found = re.findall(r"^    (\S+\.jsonl): (.*(?:\n        .*)*)", block, re.M)
    return [(f, shlex.split(" ".join(options.split()))) for f, options in found]


# W-D-L of each table the nash_strength docstring quotes, in the order of its list
NASH_RUNS = ["136 162 102", "206 229 205", "247 175 178", "161 110 129", "124 112 124",
             "10 22 13", "79 60 61", "205 256 199", "104 164 132"]


def test_nash_strength_table_only_reprints_every_kept_run():
    commands = _nash_table_commands()
    assert len(commands) == len(NASH_RUNS)
    for (name, options), wdl in zip(commands, NASH_RUNS):
        text = _results_table("nash_strength.py", "--opponents", "chamber", "--table-only",
                              "--results", BENCH / "results" / name, *options)
        row = [line.split() for line in text.splitlines() if line.startswith("nash v")]
        assert [" ".join(r[3:6]) for r in row] == [wdl], (name, options)


def test_nash_strength_table_only_without_the_tag_says_what_the_file_holds():
    out = _run(BENCH / "nash_strength.py", "--opponents", "chamber", "--boards", "200",
               "--first-seed", "400", "--table-only", "--results",
               BENCH / "results" / "nash_v_chamber_lr_400.jsonl", timeout=120)
    assert out.returncode == 2 and "big26|nash|t=0.1|{}" in out.stderr    # before: no rows


def test_coldstart_starts_the_capture_bots_as_tronlab_bot_takes_them():
    # it passed --time to the Back to the Code bots, which "tronlab bot" refuses (exit 2),
    # so the default run stopped at its first capture cell
    sys.path.insert(0, str(BENCH))
    try:
        import coldstart
    finally:
        sys.path.remove(str(BENCH))
    cmd = coldstart._cmd("nearest", "backtothecode", 0.1)
    assert "--time" not in cmd and "--time" in coldstart._cmd("voronoi", "google2010", 0.1)
    out = subprocess.run(cmd, input=coldstart.first_turn("backtothecode"), text=True,
                         capture_output=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0 and out.stdout.strip(), out.stderr[-2000:]


def test_the_benchmarks_readme_has_a_line_for_every_script():
    listed = set(re.findall(r"`([a-z0-9_]+\.py)`", (BENCH / "README.md").read_text()))
    assert {p.name for p in BENCH.glob("*.py")} - listed == set()


def _nothing_timed(*args, **kwargs):
    raise AssertionError("timed before the answers were checked")


def test_kernels_checks_each_kernel_against_its_twin_before_timing(monkeypatch):
    # kernels.py, zero_sum.py and vs_c.py timed kernels whose answers nobody compared
    monkeypatch.syspath_prepend(str(BENCH))
    import kernels

    kernels.Prepared(kernels.DEFAULT_BOARDS[2]).check()     # the real kernels agree
    monkeypatch.setattr(kernels, "per_call", _nothing_timed)
    monkeypatch.setattr(kernels, "flood_fill_kernel", lambda *args: 7)
    with pytest.raises(kernels.Disagreement, match="rand30x20.txt: the flood kernel gives 7"):
        kernels.measure(kernels.DEFAULT_BOARDS[2])


def test_zero_sum_checks_the_kernel_against_python_and_linprog_before_timing(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import numpy as np
    import zero_sum

    py_solve = zero_sum.plain_python_solver()
    monkeypatch.setattr(zero_sum, "best_of", _nothing_timed)
    monkeypatch.setattr(zero_sum, "CHECKED", 5)
    real = zero_sum.solve_kernel
    monkeypatch.setattr(zero_sum, "solve_kernel", lambda a, *args: real(a, *args) + 1e-3)
    with pytest.raises(AssertionError, match="game 0 .* the kernel's value is"):
        zero_sum.measure(3, 20, np.random.default_rng(0), py_solve)


def test_vs_c_checks_the_kernels_against_the_c_reference_before_timing(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import vs_c

    path = vs_c.os.path.join(str(BENCH), "boards", "rand30x20.txt")
    theirs = {"voronoi": [237, 199, 700, 578], "flood": [448], "articulation": [39, 8787]}
    monkeypatch.setattr(vs_c, "c_answers", lambda exe, p: dict(theirs))
    vs_c.check_against_c("ref", path, vs_c.Prepared(path))     # ref.c's printed answers
    theirs["flood"] = [447]
    with pytest.raises(vs_c.Disagreement, match="numba flood kernel gives \\[448\\], the C "
                                                "reference \\[447\\]"):
        vs_c.compare(_UntimedC(), "ref", path, 1)


class _UntimedC:
    """A stand-in for ref.c's library that refuses to time anything."""

    def lib_load(self, path):
        return 0

    lib_bench = staticmethod(_nothing_timed)


def test_capture_strength_table_refuses_a_missing_database(tmp_path):
    # it made an empty database (and its folder) and printed empty tables
    db = tmp_path / "none" / "none.sqlite"
    out = _run(BENCH / "capture_strength.py", "table", "--db", db, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == (f"capture_strength.py: no database at {db}: play the games "
                                  f"first (capture_strength.py run --db {db})")
    assert not (tmp_path / "none").exists()
