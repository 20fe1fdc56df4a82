"""What the ``tronlab arena`` commands share (run, table and replay in
:mod:`tronlab.arena.cli`, export in :mod:`tronlab.arena.export`, the options in
:mod:`tronlab.arena.parser`): the error of a mistaken command and opening the
results database it names, and the file names it can store."""

from __future__ import annotations

import os


class ArenaError(ValueError):
    """A mistake in the command: one line, exit code 2."""


def _open(path, must_exist=True, read_only=False):
    from .store import Store
    if must_exist and not os.path.isfile(path):
        raise ArenaError(f"no results database {path!r}")
    return Store(path, read_only=read_only)


#: why a bot or map file whose name is not UTF-8 cannot play: its name goes into the game
#: keys, the database and the table, all UTF-8 text
NOT_UTF8 = ("its name is not UTF-8 (unpacked from a zip made on another system?): rename it "
            "with letters a-z, digits and _")


def is_utf8(name: str) -> bool:
    """False for a name with bytes that are not UTF-8 (os.listdir's surrogate escapes)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_name(text: str) -> str:
    """``text`` printable: a byte of a file name that is not UTF-8 shown as U+FFFD."""
    return text if is_utf8(text) else os.fsencode(text).decode("utf-8", "replace")
