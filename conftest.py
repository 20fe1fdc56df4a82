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
