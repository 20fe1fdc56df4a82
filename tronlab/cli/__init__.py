"""The ``tronlab`` command (also ``python -m tronlab`` and ``python -m tronlab.cli``).

::

    tronlab match [--rules R] [--map MAP] BOT BOT [BOT BOT] [--seed N] [--time S]
                  [--max-turns N] [--json] [--save FILE]
    tronlab maps                       list the built-in maps
    tronlab bots [--game G]            list the registered bots (of Tron, or of game G)
    tronlab bot NAME --protocol P [--time S] [--seed N] [--verbose]
    tronlab arena run|table|replay ...  tournaments (see tronlab.arena.cli)
    tronlab warmup [--no-aot] [--quiet]   compile every kernel once (numba's cache and
                                          the ahead-of-time module): bots start fast

A BOT is a registered bot name or ``cmd:<command line>``, an external contest
program that speaks the protocol of ``--rules``.  ``--map`` is a Google 2010
map file or a built-in map name; without it google2010 plays on the built-in
``arena``, codingame on an empty 30x20 board with one start per BOT, and
lightriders on the 16x16 board with mirrored starts (both drawn with --seed).
A map file under lightriders gets the contest's facings: player 0 right,
player 1 left.

While a match runs and stderr is a terminal, one line there shows the turn and
each player's time for its last move.

Every error prints one line, ``tronlab: error: ...``, on stderr and exits with
code 2 (set ``TRONLAB_DEBUG=1`` to see the traceback instead).

Modules: :mod:`.parser` (the options, their checks, the help), :mod:`.match`
(``tronlab match`` and its text and JSON results), :mod:`.progress` (the progress
line), :mod:`.commands` (maps, bots, bot, warmup), :mod:`.app` (``main``: one line
and exit code 2 for every error).
"""

from .app import COMMANDS, main
from .match import match_summary, match_text
from .parser import EXIT_ERROR, CLIError, build_parser

__all__ = ["main", "build_parser", "CLIError", "EXIT_ERROR", "COMMANDS", "match_summary",
           "match_text"]
