"""Set-up for every pytest run from the repository (tests, and the notebooks under nbval).

The checkers remember results for ``progress()`` in ``~/.tronlab/progress.json``; a test
run, and the notebook kernels it starts (they inherit the environment), keep theirs in a
throw-away file instead, in a folder removed when the run ends.
"""

import atexit
import os
import shutil
import tempfile

if "TRONLAB_PROGRESS" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="tronlab-progress-")
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    os.environ["TRONLAB_PROGRESS"] = os.path.join(_folder, "progress.json")
