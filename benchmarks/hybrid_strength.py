"""The ``hybrid`` bot against ``chamber`` (or any pairs) on the 2010 maps and random maps.

    python benchmarks/hybrid_strength.py [--maps-dir DIR] [strength.py options...]

A thin wrapper around ``benchmarks/strength.py`` (same games, both seats,
results file, sign test and verdict) that defaults to ``--bots hybrid,chamber
--pairs all --random 60 --time 0.1``, finds the 2010 maps also when the
repository is a git worktree (``--maps-dir``, or ``$TRONLAB_2010_MAPS``), and
counts the search depth of the ``hybrid`` and ``nash`` moves too.

Measured (2 shared cores under a load of 6-8, 0.1 s a move, the engine allows
0.2 s): see the table at the end of this docstring once a run has finished.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

import strength  # noqa: E402

DEFAULTS = ["--bots", "hybrid,chamber", "--pairs", "all", "--random", "60", "--time", "0.1"]
SEARCH_MODES = ("search", "hybrid", "nash")


class _Recorder(strength._Recorder):
    def __call__(self, board, player):
        move = self.bot(board, player)
        stats = getattr(self.bot, "last_stats", None) or {}
        if stats.get("mode") in SEARCH_MODES:
            self.depths.append(stats.get("depth", 0))
        return move


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    maps_dir = os.environ.get("TRONLAB_2010_MAPS")
    if "--maps-dir" in argv:
        k = argv.index("--maps-dir")
        maps_dir = argv[k + 1]
        del argv[k:k + 2]
    if maps_dir:
        strength.MAPS = os.path.abspath(maps_dir)
    if not os.path.isdir(strength.MAPS):
        raise SystemExit(f"no 2010 maps at {strength.MAPS}: give --maps-dir DIR")
    strength._Recorder = _Recorder
    given = {a for a in argv if a.startswith("--")}
    for k in range(0, len(DEFAULTS), 2):
        if DEFAULTS[k] not in given:
            argv = [DEFAULTS[k], DEFAULTS[k + 1]] + argv
    strength.main(argv)


if __name__ == "__main__":
    main()
