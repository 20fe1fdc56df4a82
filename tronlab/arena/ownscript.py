"""A tournament started from a script of the user's own, with worker processes.

A pool's workers are spawned: each starts by importing the script that made the pool
(``__main__``), so a script that runs the arena without ``if __name__ == "__main__":``
starts the whole tournament again in every worker while it imports.
:func:`check_not_importing` stops that second tournament at once, whatever the plan
(a worker's tournament could otherwise play games, or find them all claimed by the
script's own run and pass), and :func:`own_script_note` is what the script's run says
when its workers died of it.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

GUARD = "its call must sit under 'if __name__ == \"__main__\":'"


def check_not_importing() -> None:
    """A RuntimeError (one line, naming the guard) when this process is a worker still
    importing the script that started the pool: multiprocessing marks such a process
    ``_inheriting`` until the import is over.  The RuntimeError ends the import, so the
    worker dies and the script's own run names the guard (:func:`own_script_note`)."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise RuntimeError(f"the arena started inside a worker process while it imported "
                           f"the script that runs the arena: {GUARD}")


def own_script_note() -> str:
    """The likeliest cause when the arena runs from a script of the user's own: the
    workers start by importing that script, which without a ``__main__`` guard starts
    the tournament again inside them, which stops them (:func:`check_not_importing`)."""
    module = sys.modules.get("__main__")
    spec = getattr(module, "__spec__", None)
    if spec is not None and spec.name.endswith("__main__"):
        return ""       # python -m PACKAGE: the workers do not import it
    main = getattr(module, "__file__", None)
    try:
        with open(main, encoding="utf-8", errors="replace") as f:
            guarded = "__name__" in f.read(1_000_000)
    except (OSError, TypeError):    # a notebook or the interpreter's prompt: no file
        return ""
    if guarded:                     # the tronlab command, a guarded script
        return ""
    return (f"; if it died at once: {os.path.basename(main)} runs the arena, and each worker "
            f"imports it first, so {GUARD}")
