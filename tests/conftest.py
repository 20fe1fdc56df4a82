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
