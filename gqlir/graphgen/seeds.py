"""Seeded randomness that does not depend on the order things are generated in.

Every stream (a node type's property, an edge type's degrees, a noise family) gets its own
``random.Random`` seeded from the run's seed and the stream's name, so adding a property or an
edge type leaves every other stream unchanged, and a run is byte-identical for the same seed.
"""

from __future__ import annotations

import hashlib
import math
import random


def stream(seed: int, *names: object) -> random.Random:
    """A generator for the stream called ``names`` under ``seed`` (independent of Python's
    hash randomisation: the sub-seed is a SHA-256 of the names)."""
    text = "\x1f".join([str(seed), *(str(n) for n in names)])
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


class AffinePermutation:
    """A permutation of ``range(n)`` as ``i -> (a*i + b) mod n``: O(1) memory and an O(1)
    inverse, so that "the i-th node in a shuffled order" and "where is node k in that order"
    need no stored list. It spreads hubs and coverage over the id range; it is not a uniformly
    random permutation, which the generator does not need."""

    __slots__ = ("a", "a_inv", "b", "n")

    def __init__(self, n: int, rng: random.Random) -> None:
        self.n = n
        if n <= 1:
            self.a, self.b, self.a_inv = 1, 0, 1
            return
        a = rng.randrange(1, n)
        while math.gcd(a, n) != 1:
            a = a + 1 if a + 1 < n else 1
        self.a = a
        self.b = rng.randrange(n)
        self.a_inv = pow(a, -1, n)

    def __call__(self, i: int) -> int:
        return (self.a * i + self.b) % self.n if self.n > 1 else 0

    def inverse(self, k: int) -> int:
        return ((k - self.b) * self.a_inv) % self.n if self.n > 1 else 0


__all__ = ["AffinePermutation", "stream"]
