"""Shared pytest set-up for the whole suite: hypothesis profiles.

``ci``  - derandomized (the same examples every run), no deadline: used when the
          environment variable ``CI`` is set (``.ci/run`` and most CI services set it).
``dev`` - the default elsewhere: random examples, no deadline either, because the
          first call of a numba kernel compiles it and would trip any deadline.

Pick one explicitly with ``pytest --hypothesis-profile=ci``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The fixture programs are external bots that read stdin when run: pytest's
# --doctest-modules must not import them.
collect_ignore = ["fixtures"]

# fixtures for the ahead-of-time twins: aot_build, twins, no_twins; the process census
# (an autouse fixture: a test that leaves a process of its own running fails)
pytest_plugins = ["aot_support", "census"]

import pytest  # noqa: E402

#: variables that decide which compiled kernels a child process uses: a test that changes
#: one and leaves it changed slows or changes every later test's children
_WATCHED_ENV = ("NUMBA_CACHE_DIR", "TRONLAB_AOT", "TRONLAB_AOT_DIR", "TRONLAB_AOT_CHECK",
                "NUMBA_DISABLE_JIT", "XDG_CACHE_HOME")


@pytest.fixture(autouse=True)
def _environment_unchanged():
    """Fail the test that leaves one of :data:`_WATCHED_ENV` changed (and put it back)."""
    before = {k: os.environ.get(k) for k in _WATCHED_ENV}
    yield
    after = {k: os.environ.get(k) for k in _WATCHED_ENV}
    for k, v in before.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    changed = {k: (before[k], after[k]) for k in _WATCHED_ENV if before[k] != after[k]}
    assert not changed, f"the test left the environment changed (before, after): {changed}"


@pytest.fixture(autouse=True)
def _not_a_solution_notebook():
    """A test that runs a solution notebook's set-up cell calls ``solution_notebook()``, which
    stops checks from being recorded for the rest of the process: undo it after each test."""
    yield
    import sys

    module = sys.modules.get("tronlab.course.progress")
    if module is not None:
        module._in_solution_notebook = False
