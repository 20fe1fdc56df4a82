"""Learning the evaluation's weights from game records (technique A9).

a1k0n (Google AI Challenge 2010 post-mortem) scored a position by
``K1*(N1 - N2) + K2*(E1 - E2)``: the difference of the two players' Voronoi
squares ``N`` and of their edge counts ``E`` (A4, A7), weighted.  He did not
guess the weights: he read thousands of finished games, found in each the
turn where the two players had walled themselves apart, and asked how well
the territory counts at that turn predicted how many more moves each player
then managed.  A least-squares line through those points gave his
``K1 = 0.055`` and ``K2 = 0.194``.

The same steps here, each a function you can test alone:

1. :func:`separation_turn` - the first board of a game on which both players
   are alive and can never meet again (``None`` when they never separate,
   for example a head-on crash).
2. :func:`moves_after` - how many moves each player made from that board on.
   A player that crashed made its moves up to the crash.  The game stops as
   soon as one player is out, so the survivor's remaining moves are not in
   the record: they are estimated by running the greedy filler (A1) from the
   final board, a lower bound on what a good bot would have made.
3. :func:`sample_from_record` - the features ``N0 - N1`` and ``E0 - E1`` on the
   separation board and the target ``moves0 - moves1``, as a :class:`Sample`.
4. :func:`fit_weights` - least squares without an intercept (swapping the
   players negates features and target alike, so the line must pass through
   the origin): ``(k1, k2)`` and the root-mean-square error of the fit.

>>> from tronlab import Board
>>> b = Board.from_ascii('''
...     1..#...
...     ...#..2
... ''')
>>> separation_turn([b])
0
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .board import check_two_player_board


class Sample(NamedTuple):
    """One separated game reduced to a point of the regression."""
    turn: int          # index of the separation board (0 = the start board)
    dn: int            # N0 - N1 on that board (Voronoi squares, heads left out)
    de: int            # E0 - E1 on that board (edge counts)
    moves0: int        # moves player 0 made (or would have made) from that board on
    moves1: int        # likewise for player 1

    @property
    def target(self) -> int:
        """What the evaluation should predict: ``moves0 - moves1``."""
        return self.moves0 - self.moves1


def separation_turn(boards) -> int | None:
    """Index of the first board where both players are alive and separated.

    ``boards`` is the start board followed by the board after each turn (as
    :meth:`~tronlab.runner.records.GameRecord.boards` gives it).
    """
    from .evaluate import is_separated

    for i, board in enumerate(boards):
        check_two_player_board(board, "separation_turn", f" at index {i}")
        if not (board.alive[0] and board.alive[1]):
            return None
        if is_separated(board):
            return i
    return None


def moves_after(record, turn: int, boards=None) -> tuple[int, int]:
    """Moves each player made after board ``turn`` of ``record`` (see the module doc).

    A player that died on turn ``t`` made ``t - 1 - turn`` moves; a survivor of
    a game that ended on turn ``T`` made ``T - turn`` moves and then, by the
    greedy filler's estimate, ``fill_length`` more from the final board.
    """
    from .spacefill import fill_length

    outcome = record.outcome
    if not 0 <= turn <= outcome.turns:
        raise ValueError(f"turn must be from 0 to {outcome.turns}, got {turn!r}")
    final = (boards or record.boards())[-1]
    out = []
    for p in (0, 1):
        died = outcome.death_turns[p]
        if died is not None:
            out.append(max(died - 1 - turn, 0))
        else:
            out.append(outcome.turns - turn + fill_length(final, p))
    return out[0], out[1]


def sample_from_record(record) -> Sample | None:
    """The regression point of one 2-player game, or None if it never separated."""
    from ..grid.voronoi import territory

    if record.start.n_players != 2:
        raise ValueError("A9 samples come from 2-player games")
    boards = record.boards()
    turn = separation_turn(boards)
    if turn is None:
        return None
    t = territory(boards[turn])
    m0, m1 = moves_after(record, turn, boards)
    return Sample(turn, t.n0 - t.n1, t.e0 - t.e1, m0, m1)


def samples_from_records(records) -> list[Sample]:
    """:func:`sample_from_record` over many records, games that never separated left out."""
    out = []
    for record in records:
        s = sample_from_record(record)
        if s is not None:
            out.append(s)
    return out


class Fit(NamedTuple):
    """Least-squares weights of ``K1*dn + K2*de`` and how well they predict."""
    k1: float
    k2: float
    rmse: float        # root-mean-square error on the samples fitted
    n: int             # number of samples


def design_matrix(samples) -> tuple[np.ndarray, np.ndarray]:
    """The features ``[dn, de]`` as an ``(n, 2)`` float array, and the targets."""
    samples = list(samples)
    x = np.array([[s.dn, s.de] for s in samples], dtype=float).reshape(-1, 2)
    y = np.array([s.target for s in samples], dtype=float)
    return x, y


def fit_weights(samples) -> Fit:
    """Fit ``moves0 - moves1 ~ K1*(N0 - N1) + K2*(E0 - E1)`` by least squares."""
    x, y = design_matrix(samples)
    if len(y) < 2 or np.linalg.matrix_rank(x) < 2:
        raise ValueError(f"need at least 2 samples whose features are not all proportional "
                         f"to fit two weights, got {len(y)}")
    (k1, k2), *_ = np.linalg.lstsq(x, y, rcond=None)
    return Fit(float(k1), float(k2), prediction_error(samples, k1, k2), len(y))


def prediction_error(samples, k1: float, k2: float) -> float:
    """Root-mean-square error of ``k1*dn + k2*de`` against the targets."""
    x, y = design_matrix(samples)
    if len(y) == 0:
        raise ValueError("no samples")
    return float(np.sqrt(np.mean((x @ np.array([k1, k2]) - y) ** 2)))


def draw_fit(samples, weights: dict, *, size: float = 4.0):
    """Two panels: the features ``dN`` against ``dE`` (coloured by the target), and
    each weight pair's prediction against what happened.  ``weights`` maps a label to
    ``(k1, k2)``.  Returns the matplotlib Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import CenteredNorm

    x, y = design_matrix(samples)
    fig, (left, right) = plt.subplots(1, 2, figsize=(2.2 * size, size))
    # a diverging map: white must be a level game (0), not the middle of the data's range
    dots = left.scatter(x[:, 0], x[:, 1], c=y, cmap="coolwarm", norm=CenteredNorm(0), s=10)
    fig.colorbar(dots, ax=left, label="moves0 - moves1")
    left.set_xlabel("N0 - N1 (squares)")
    left.set_ylabel("E0 - E1 (edges)")
    left.set_title("the two features at separation")
    for label, (k1, k2) in weights.items():
        right.scatter(y, x @ np.array([k1, k2]), s=10, alpha=0.6,
                      label=f"{label}: K1={k1:.3f}, K2={k2:.3f}")
    lo, hi = float(y.min()), float(y.max())
    right.plot([lo, hi], [lo, hi], color="grey", lw=1)
    right.set_xlabel("moves0 - moves1 (what happened)")
    right.set_ylabel("K1*dN + K2*dE (predicted)")
    right.set_title("prediction against outcome")
    right.legend(fontsize="small")
    fig.tight_layout()
    return fig
