"""Numeric samplers the value and degree generators share: Zipf ranks, Poisson counts,
power-law weights. Each takes the caller's ``random.Random`` so streams stay separate."""

from __future__ import annotations

import math
import random
from array import array
from bisect import bisect_right
from functools import lru_cache


class ZipfTable:
    """Ranks 1..n with P(k) proportional to 1/k**s, drawn by bisection in a cumulative table
    (8 bytes per rank: fine up to millions of ranks)."""

    __slots__ = ("cumulative", "n", "s", "total")

    def __init__(self, n: int, s: float) -> None:
        self.n, self.s = n, s
        cum = array("d")
        total = 0.0
        for k in range(1, n + 1):
            total += k**-s
            cum.append(total)
        self.cumulative, self.total = cum, total

    def rank(self, rng: random.Random) -> int:
        """A rank in 1..n."""
        return min(bisect_right(self.cumulative, rng.random() * self.total), self.n - 1) + 1

    def probability(self, k: int) -> float:
        return k**-self.s / self.total


@lru_cache(maxsize=64)
def zipf_table(n: int, s: float) -> ZipfTable:
    return ZipfTable(n, s)


def poisson(rng: random.Random, lam: float) -> int:
    """A Poisson count: Knuth's product method for small means, a rounded normal above 30."""
    if lam <= 0:
        return 0
    if lam > 30:
        return max(0, round(rng.gauss(lam, math.sqrt(lam))))
    limit, k, p = math.exp(-lam), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return k


def pareto(rng: random.Random, exponent: float) -> float:
    """A weight >= 1 from a continuous power law with density proportional to
    x**-exponent (exponent > 1): the heavy tail gives a few hubs."""
    return (1.0 - rng.random()) ** (-1.0 / (exponent - 1.0))


def cumulative_split(total: int, weights: list[float]) -> list[int]:
    """``total`` split into integers proportional to ``weights`` that add up to ``total``
    exactly (cumulative rounding)."""
    w = sum(weights)
    if w <= 0:
        return [0] * len(weights)
    out, acc, given = [], 0.0, 0
    for x in weights:
        acc += x
        upto = round(total * acc / w)
        out.append(upto - given)
        given = upto
    return out


__all__ = ["ZipfTable", "cumulative_split", "pareto", "poisson", "zipf_table"]
