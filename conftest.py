"""Set-up for every pytest run from the repository (tests, and the notebooks under nbval).

The checkers remember results for ``progress()`` in ``~/.tronlab/progress.json``; a test
run, and the notebook kernels it starts (they inherit the environment), keep theirs in a
throw-away file instead, in a folder removed when the run ends.

The processes a run starts (notebook kernels, servers, contest programs) get their own
temporary folder (``TMPDIR``), also removed when the run ends: nbval kills its kernels, so
a notebook's ``TemporaryDirectory`` would otherwise outlive it.
"""

import atexit
import os
import shutil
import tempfile

if "TRONLAB_PROGRESS" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="tronlab-progress-")
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    os.environ["TRONLAB_PROGRESS"] = os.path.join(_folder, "progress.json")

if "TRONLAB_TEST_TMPDIR" not in os.environ:
    _scratch = tempfile.mkdtemp(prefix="tronlab-tmp-")
    atexit.register(shutil.rmtree, _scratch, ignore_errors=True)
    os.environ["TRONLAB_TEST_TMPDIR"] = os.environ["TMPDIR"] = _scratch
