"""What the ``tronlab arena`` commands share (run, table and replay in
:mod:`tronlab.arena.cli`, export in :mod:`tronlab.arena.export`, the options in
:mod:`tronlab.arena.parser`): the error of a mistaken command and opening the
results database it names."""

from __future__ import annotations

import os


class ArenaError(ValueError):
    """A mistake in the command: one line, exit code 2."""


def _open(path, must_exist=True, read_only=False):
    from .store import Store
    if must_exist and not os.path.isfile(path):
        raise ArenaError(f"no results database {path!r}")
    return Store(path, read_only=read_only)
