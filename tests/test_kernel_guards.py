"""Every kernel Python can call refuses argument values it cannot take safely with a
ValueError naming the argument, before it reads or writes out of bounds
(tronlab.grid.guards, tronlab.tron.search_guards, tronlab.capture.kernel_guards).

The calls that could crash run in a child process (tests/guard_fuzz.py): a kernel
that wrote out of bounds there kills the child, and the test fails instead of pytest
dying with it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from aot_support import child_env

from tronlab.jit import aot, kernels

ROOT = Path(__file__).resolve().parents[1]


def _declared():
    for module in aot.kernel_modules():
        __import__(module)
    return kernels.declared()


def test_every_kernel_with_a_signature_has_a_guard():
    """The rule: a kernel declared with ``sig`` is one Python code may call (the AOT
    build exports exactly these, and the README and notebooks show them), and every
    one of them takes a grid, a square, coordinates, scratch arrays or sizes that
    index its arrays, so each must declare a ``guard``.  No exceptions, no list to
    keep up to date."""
    found = _declared()
    assert len(found) >= 30
    missing = [f"{module}.{name}" for name, (module, _) in found.items()
               if kernels.TABLES[module].kernel(name).guard is None]
    assert missing == []


def _child(args, aot_build, timeout=600):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=child_env(TRONLAB_AOT_DIR=aot_build[0]))


def test_wrong_values_raise_value_error_in_every_kernel(aot_build):
    """Each declared kernel, called from Python with the arguments a wrapper gave it
    and then with one of them wrong (a square off the grid or on its border, a wrong
    stride, an array cut to one item, an index stored in an array out of range),
    under the AOT twins, which check no bounds: a ValueError every time, no crash."""
    proc = _child([str(ROOT / "tests" / "guard_fuzz.py")], aot_build)
    last = proc.stderr.strip().splitlines()[-3:]
    assert proc.returncode == 0, f"the child died (last calls: {last}): {proc.stderr[-2000:]}"
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["unrecorded"] == []
    assert result["bad"] == []
    assert result["ok"] >= 300


_REPRODUCED = {}     # the child's output, run once for the four cases
REPRODUCTIONS = """
import numpy as np, tronlab as T, tronlab.grid.voronoi as v
b = T.parse_ascii("#####\\n#1..#\\n#.#.#\\n#..2#\\n#####"); s = v.new_scratch(b.flat.size)
cases = [
    lambda: v.territory_kernel(b.flat, int(b.heads[0]), 10**6, b.stride, *s),
    lambda: v.territory_kernel(b.flat, 16, 40, b.stride, np.zeros(3, np.int32),
                               np.zeros(3, np.uint8), np.zeros(3, np.int32)),
    lambda: v.territory_kernel(b.flat, 16, 40, 1000, *s),
    lambda: v.bfs_distances_kernel(b.flat, 10**7, b.stride, np.zeros(49, np.int32),
                                   np.zeros(49, np.int32)),
]
for case in cases:
    for _ in range(200):
        try:
            case()
        except ValueError as exc:
            message = str(exc)
        else:
            message = "accepted"
    print(message)
"""


@pytest.mark.parametrize("line, expected", [
    (0, "head1 1000000 is outside this 7x7 padded grid"),
    (1, "scratch dist holds 3 items, the kernel needs 49"),
    (2, "stride 1000 does not fit a padded grid of 49 squares"),
    (3, "start 10000000 is outside this 7x7 padded grid"),
])
def test_the_reviewers_reproductions(aot_build, line, expected):
    """The reviewer's four calls (each crashed the interpreter or returned garbage),
    200 times each, in one child process."""
    if "out" not in _REPRODUCED:
        proc = _child(["-c", REPRODUCTIONS], aot_build)
        assert proc.returncode == 0, proc.stderr[-2000:]
        _REPRODUCED["out"] = proc.stdout.splitlines()
    assert _REPRODUCED["out"][line].startswith(expected)
