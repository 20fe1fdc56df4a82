"""``progress()``: which exercise functions pass, across all exercise notebooks.

Every ``check_*`` call remembers its latest result in a small JSON file,
``~/.tronlab/progress.json`` (or the file named by ``TRONLAB_PROGRESS``), so a cell in any
exercise notebook can show the whole course: passed, a wrong answer (with the checker's
status), not implemented yet, or not tried.  Nothing else is stored, and a file that cannot
be written (a read-only home) only means no progress is kept.

The solution notebooks call :func:`solution_notebook` first: the checks of their kernel test
the course's own answers, not the learner's, so they are not recorded, and ``progress()``
there says so and shows the learner's results from the exercise notebooks.
"""

from __future__ import annotations

import functools
import html
import json
import os
import time
from pathlib import Path

__all__ = ["progress", "recorded", "Progress", "EXERCISE_NOTEBOOKS", "progress_path",
           "solution_notebook"]

_NOT_COUNTED = ("This is a solution notebook: its checks test the course's answers and are not "
                "counted here. The rows are your own results from the exercise notebooks.")
_in_solution_notebook = False     # set by solution_notebook(), for the rest of this kernel

#: exercise function -> the exercise notebook that asks for it, in course order
EXERCISE_NOTEBOOKS = {
    "greedy_move": "01_space_filling_exercise.ipynb",
    "fill_bound": "01_space_filling_exercise.ipynb",
    "articulation_points": "01_space_filling_exercise.ipynb",
    "flood_fill": "02_flood_fill_exercise.ipynb",
    "components": "02_flood_fill_exercise.ipynb",
    "bfs_distances": "03_voronoi_exercise.ipynb",
    "territory": "03_voronoi_exercise.ipynb",
    "turn_order_territory": "03_voronoi_exercise.ipynb",
    "negamax": "04_search_exercise.ipynb",
    "separation_sample": "06_learning_exercise.ipynb",
    "fit_weights": "06_learning_exercise.ipynb",
    "solve_game": "09_nash_exercise.ipynb",
    "nearest_target": "10_capture_exercise.ipynb",
    "score_rectangle": "11_rectangles_exercise.ipynb",
}


def progress_path() -> Path:
    return Path(os.environ.get("TRONLAB_PROGRESS") or Path.home() / ".tronlab" / "progress.json")


def _load() -> dict:
    try:
        data = json.loads(progress_path().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(result) -> None:
    data = _load()
    data[result.exercise] = {"passed": bool(result.passed), "status": result.status,
                             "checked": int(result.checked), "time": round(time.time())}
    path = progress_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        tmp.replace(path)
    except OSError:
        pass


def solution_notebook() -> None:
    """Mark this kernel as a solution notebook's: its checks are not recorded for
    :func:`progress`, which keeps showing the learner's own results (and says why)."""
    global _in_solution_notebook
    _in_solution_notebook = True


def recorded(check):
    """Decorate a ``check_*`` function so that its result is remembered for :func:`progress`
    (except in a solution notebook, see :func:`solution_notebook`)."""
    @functools.wraps(check)
    def wrapper(*args, **kwargs):
        result = check(*args, **kwargs)
        if not _in_solution_notebook:
            _save(result)
        return result
    return wrapper


class Progress:
    """One row per exercise function: ``(notebook, function, state)``."""

    def __init__(self, rows: list[tuple[str, str, str]], note: str = ""):
        self.rows = rows
        self.note = note

    @property
    def passed(self) -> list[str]:
        return [f for _, f, state in self.rows if state == "passed"]

    def state(self, function: str) -> str:
        for _, f, state in self.rows:
            if f == function:
                return state
        raise ValueError(f"no exercise called {function!r}")

    def summary(self) -> str:
        return f"{len(self.passed)} of {len(self.rows)} exercise functions pass"

    def __repr__(self) -> str:
        width = max(len(f) for _, f, _ in self.rows)
        lines = ([self.note] if self.note else []) + [self.summary() + ":"]
        lines += [f"  {nb or '(other)':<34} {f:<{width}}  {state}" for nb, f, state in self.rows]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        colour = {"passed": "#1a7f37", "not tried": "#6e7781", "not implemented": "#9a6700"}
        rows = "".join(
            f"<tr><td>{html.escape(nb)}</td><td><code>{html.escape(f)}</code></td>"
            f"<td style='color:{colour.get(state, '#cf222e')}'>{html.escape(state)}</td></tr>"
            for nb, f, state in self.rows)
        note = f"<p><em>{html.escape(self.note)}</em></p>" if self.note else ""
        return (f"{note}<p>{html.escape(self.summary())}</p><table><tr><th>notebook</th>"
                f"<th>function</th><th>state</th></tr>{rows}</table>")


def progress() -> Progress:
    """Which exercise functions pass, by their latest check in any exercise notebook (checks
    run in a solution notebook do not count)."""
    data = _load()
    rows = []
    for function, notebook in EXERCISE_NOTEBOOKS.items():
        entry = data.get(function)
        if not isinstance(entry, dict):
            state = "not tried"
        elif entry.get("passed"):
            state = "passed"
        else:
            state = str(entry.get("status", "failed")).replace("_", " ")
        rows.append((notebook, function, state))
    for function in sorted(set(data) - set(EXERCISE_NOTEBOOKS)):   # checks added since
        entry = data[function]
        if isinstance(entry, dict):
            rows.append(("", function, "passed" if entry.get("passed")
                         else str(entry.get("status", "failed"))))
    return Progress(rows, _NOT_COUNTED if _in_solution_notebook else "")
