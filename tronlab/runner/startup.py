"""Process settings a contest program needs before numpy loads.

numpy's OpenBLAS starts a thread per core when it is imported; on a two-core
machine that costs about 80 ms of CPU, a quarter of the 0.3 s a bot program
should take to answer its first move, and the threads then compete with the bot
(and, in a tournament, with every other bot process).  A bot program does no
linear algebra, so when ``tronlab`` is started as a program that plays
(``tronlab bot ... --protocol ...`` or ``python -m tronlab bot ...``) and numpy is
not loaded yet, :func:`one_blas_thread_for_programs` asks for one BLAS thread.
Library users (notebooks, scripts that ``import tronlab``) keep numpy's defaults;
a value the user set is never changed.
"""

from __future__ import annotations

import os
import sys

#: the variables the BLAS builds numpy ships with read at load time
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def is_bot_program(argv=None) -> bool:
    """Whether this process is ``tronlab bot NAME ...`` (the console script or ``-m``)."""
    argv = sys.argv if argv is None else argv
    if len(argv) < 2 or argv[1] != "bot":
        return False
    first = os.path.basename(argv[0])
    return argv[0] == "-m" or first in ("tronlab", "tronlab.exe", "__main__.py")


def one_blas_thread_for_programs(argv=None, environ=None, loaded=None) -> bool:
    """Set one BLAS thread for a bot program started before numpy; return whether it did.

    >>> one_blas_thread_for_programs(["-m", "bot", "chamber"], {}, loaded=set())
    True
    >>> one_blas_thread_for_programs(["-m", "arena", "run"], {}, loaded=set())
    False
    >>> one_blas_thread_for_programs(["-m", "bot", "chamber"], {}, loaded={"numpy"})
    False
    """
    environ = os.environ if environ is None else environ
    loaded = sys.modules if loaded is None else loaded
    if "numpy" in loaded or not is_bot_program(argv):
        return False
    for name in BLAS_THREADS:
        environ.setdefault(name, "1")
    return True
