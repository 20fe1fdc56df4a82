"""Set-up for every pytest run from the repository (tests, and the notebooks under nbval).

The checkers remember results for ``progress()`` in ``~/.tronlab/progress.json``; a test
run, and the notebook kernels it starts (they inherit the environment), keep theirs in a
throw-away file instead.
"""

import os
import tempfile

if "TRONLAB_PROGRESS" not in os.environ:
    os.environ["TRONLAB_PROGRESS"] = os.path.join(tempfile.mkdtemp(prefix="tronlab-progress-"),
                                                  "progress.json")
