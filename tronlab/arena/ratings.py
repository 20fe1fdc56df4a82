"""Ratings of all bots at once: a Bradley-Terry fit with 95% intervals (technique X2).

Bot i beats bot j with chance ``1 / (1 + exp(-(t_i - t_j)))``.  Every stored game
gives one result for every pair of seats held by different bots (a draw counts
half a win each way); the strengths ``t`` maximise the log-likelihood of all of
them, plus a weak normal prior (sd 10 in these units, ~1700 Elo) that keeps a bot
that won or lost every game at a finite value.  Newton's method finds the
maximum (the objective is concave); the inverse of the Hessian there is the
covariance, whose diagonal gives each rating's 95% interval.  Ratings are
shown on the Elo scale (``400 / ln 10`` times ``t``, so 100 points is a 64%
expected score), relative to the mean of the reference group; the intervals are
those of each bot's difference from that mean.  The reference group
(:func:`reference`) is the largest group of bots whose results tie them to each
other both ways (each scored points against the group and lost points to it,
directly or through others): usually the whole field.  A bot that lost every
game (a broken class entry) has no rating of its own, only the prior's: in the
reference it would make the mean, and so every bot's interval, that uncertain.

>>> table = ratings([{"names": ["a", "b"], "ranks": [0, 1]}] * 6 +
...                 [{"names": ["a", "b"], "ranks": [1, 0]}] * 2)
>>> [(r.name, round(r.elo)) for r in table]
[('a', 95), ('b', -95)]
>>> places(ratings([{"names": ["a", "b"], "ranks": [0, 0]}] * 2))      # two draws: a tie
[1, 1]
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

ELO = 400 / math.log(10)
PRIOR_SD = 10.0


class Rating(NamedTuple):
    name: str
    elo: float
    half: float          # half-width of the 95% interval, Elo points
    games: int           # pairwise results (one per seat pair per game)
    points: float
    in_reference: bool = True    # in the group whose mean is 0 (:func:`reference`)


def tallies(rows, names):
    """``(S, N)``: ``S[i, j]`` points bot i scored against bot j, ``N[i, j]`` their results."""
    index = {n: k for k, n in enumerate(names)}
    n = len(names)
    S, N = np.zeros((n, n)), np.zeros((n, n))
    for row in rows:
        seats, ranks = row["names"], row["ranks"]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = index[seats[i]], index[seats[j]]
                if a == b:
                    continue
                s = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                S[a, b] += s
                S[b, a] += 1 - s
                N[a, b] += 1
                N[b, a] += 1
    return S, N


def log_likelihood(theta, S, N, prior_sd=PRIOR_SD) -> float:
    """The objective: sum over ordered pairs of S_ij log p_ij, minus the prior."""
    diff = theta[:, None] - theta[None, :]
    log_p = -np.logaddexp(0.0, -diff)
    return float((S * log_p).sum() - (theta ** 2).sum() / (2 * prior_sd ** 2))


def fit(S, N, prior_sd=PRIOR_SD, tol=1e-10, max_iter=100):
    """``(theta, cov)``: the maximum of :func:`log_likelihood` and the inverse Hessian."""
    n = S.shape[0]
    theta = np.zeros(n)
    best = log_likelihood(theta, S, N, prior_sd)
    for _ in range(max_iter):
        p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (S - N * p).sum(axis=1) - theta / prior_sd ** 2
        w = N * p * (1 - p)
        hess = np.diag(w.sum(axis=1)) - w + np.eye(n) / prior_sd ** 2
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-6:                       # backtrack: never go downhill
            value = log_likelihood(theta + t * step, S, N, prior_sd)
            if value >= best - 1e-12:
                break
            t /= 2
        theta, best = theta + t * step, value
        if np.abs(t * step).max() < tol:
            break
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    w = N * p * (1 - p)
    hess = np.diag(w.sum(axis=1)) - w + np.eye(n) / prior_sd ** 2
    return theta, np.linalg.inv(hess)


def reference(S) -> np.ndarray:
    """The bots (a boolean mask) of the largest group whose results link every member
    to every other both ways: bot i reaches bot j when i scored points against j, and a
    group is closed under reaching in both directions (a strongly connected component;
    ties: the one with more points traded inside it).  The whole field when no group
    has two bots."""
    n = S.shape[0]
    reach = (S > 0) | np.eye(n, dtype=bool)
    for k in range(n):                        # transitive closure (Floyd-Warshall)
        reach |= reach[:, k:k + 1] & reach[k:k + 1, :]
    both = reach & reach.T
    best, key = np.ones(n, bool), (1, 0.0)
    for i in range(n):
        group = both[i]
        size = (int(group.sum()), float(S[np.ix_(group, group)].sum()))
        if size[0] >= 2 and size > key:
            best, key = group, size
    return best


def centred(theta, cov, ref=None):
    """Strengths relative to the mean of the bots in ``ref`` (a boolean mask; all by
    default), and the standard error of each difference."""
    n = len(theta)
    ref = np.ones(n, bool) if ref is None else np.asarray(ref, bool)
    P = np.eye(n) - np.outer(np.ones(n), ref / ref.sum())
    return P @ theta, np.sqrt(np.clip(np.diag(P @ cov @ P.T), 0, None))


def ratings(rows, names=None, prior_sd=PRIOR_SD) -> list[Rating]:
    """Every bot's rating with its 95% interval, best first."""
    if names is None:
        names = sorted({n for row in rows for n in row["names"]})
    if not names:
        return []
    S, N = tallies(rows, names)
    theta, cov = fit(S, N, prior_sd)
    ref = reference(S)
    mid, se = centred(theta, cov, ref)
    table = [Rating(name, float(ELO * mid[k]), float(1.96 * ELO * se[k]), int(N[k].sum()),
                    float(S[k].sum()), bool(ref[k])) for k, name in enumerate(names)]
    return sorted(table, key=lambda r: (-round(r.elo, 6), r.name))


def places(table) -> list[int]:
    """The place of each row of a :func:`ratings` table: 1, 2, ..., a tie (the same
    rating as shown, to the point, and the same points) sharing the place of the first
    of its group (1, 1, 3)."""
    out = []
    for k, r in enumerate(table):
        prev = table[k - 1] if k else None
        tied = prev is not None and round(prev.elo) == round(r.elo) and prev.points == r.points
        out.append(out[-1] if tied else k + 1)
    return out
