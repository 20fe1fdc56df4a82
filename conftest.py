"""Set-up for every pytest run from the repository (tests, and the notebooks under nbval).

A run gets one temporary folder of its own, removed when the run ends, and the processes
it starts (notebook kernels, servers, contest programs) inherit it as ``TMPDIR``: nbval
kills its kernels, so a notebook's ``TemporaryDirectory`` would otherwise outlive it.

The checkers remember results for ``progress()`` in ``~/.tronlab/progress.json``; a test
run, and the notebook kernels it starts (they inherit the environment), keep theirs in a
throw-away file in that folder instead.
"""

import atexit
import os
import shutil
import tempfile

if "TRONLAB_TEST_TMPDIR" not in os.environ:
    _scratch = tempfile.mkdtemp(prefix="tronlab-tmp-")
    atexit.register(shutil.rmtree, _scratch, ignore_errors=True)
    os.environ["TRONLAB_TEST_TMPDIR"] = os.environ["TMPDIR"] = _scratch
os.environ.setdefault("TRONLAB_PROGRESS",
                      os.path.join(os.environ["TRONLAB_TEST_TMPDIR"], "progress.json"))

#: the slowest test files, slowest first (seconds in one process on two slow cores,
#: 2026-11-30; the exercise-checker files and test_widgets dropped out later that day, when
#: the checkers stopped replaying their games on every call and the widget test its clock).
#: pytest-xdist (``dev.py test``: whole files to a worker, in collection order) starts
#: them first and fills in with the many short files, so the run does not end with one
#: worker alone on a long file; xdist's own order (most tests first) put test_warmup,
#: one test of 117 s, near the end.
SLOW_FIRST = (
    "tests/test_warmup.py", "tests/browser/test_jupyterlab.py", "tests/test_arena_bots.py",
    "tests/browser/test_map_editor.py", "tests/test_arena_class.py",
    "tests/browser/test_course.py", "tests/test_coldstart.py", "tests/browser/test_stepper.py",
    "tests/test_checker.py", "tests/test_benchmarks.py", "tests/test_aot_protocol.py",
    "tests/browser/test_capture_widget.py", "tests/test_arena_dask.py", "tests/test_cli.py",
)


def slow_first(paths, root) -> list:
    """The order in which a pytest-xdist run's files start: those of :data:`SLOW_FIRST`
    first, in its order, then the others as collected (a stable sort: each file's tests
    keep their order, so nbval still runs a notebook's cells top to bottom)."""
    rank = {path: k for k, path in enumerate(SLOW_FIRST)}
    order = [rank.get(os.path.relpath(str(p), str(root)).replace(os.sep, "/"), len(rank))
             for p in paths]
    return sorted(range(len(paths)), key=order.__getitem__)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PYTEST_XDIST_WORKER"):         # only where files go to workers
        order = slow_first([item.path for item in items], config.rootpath)
        items[:] = [items[k] for k in order]
