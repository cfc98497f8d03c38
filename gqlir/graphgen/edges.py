"""Drawing the edges of one edge type over dense node indices, without storing nodes.

A node of type ``T`` is ``(T, k)`` with ``0 <= k < count(T)``; its id is a fixed offset plus
``k`` (:class:`NodeSpace`), so an edge only needs two indices. Each mode (see
:mod:`gqlir.graphgen.plan`) honours the cardinality and participation annotations by
construction:

* **functional**: the chosen anchors, in a shuffled order, each get one edge; when every node
  on the other side must take part, the first anchors *cover* the other side in a shuffled
  order, and the rest pick by popularity;
* **matching**: sources and targets are walked in two shuffled orders, each used once;
* **many**: each anchor's degree is its share of the type's edge count under the degree
  distribution (two passes over one seeded stream, so the total is exact), its targets are
  distinct, drawn by popularity; covering the other side is arithmetic on the shuffled orders
  (other node ``c`` is covered by anchor ``c mod n``), so no set of covered nodes is kept.
  A symmetric type over one node type draws offsets ``1..(n-1)/2`` so that each unordered pair
  can arise once only.

Mandatory pairs (those of an implying edge type) are the only per-edge memory, proportional to
the implying types' sizes.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from ..schema.model import EdgeType, SchemaGraph
from .distributions import cumulative_split, pareto, poisson, zipf_table
from .errors import GraphGenError
from .plan import Pair, anchor_total, other_total, pairs_of
from .seeds import AffinePermutation, stream

#: (source type, source index, target type, target index)
Drawn = tuple[str, int, str, int]
#: anchor (type, index) -> its mandatory other ends (type, index)
Mandatory = dict[tuple[str, int], list[tuple[str, int]]]


class NodeSpace:
    """Node ids as dense integers: type ``T``'s nodes are ``base(T) .. base(T) + count - 1``,
    types in schema order, ids from 1."""

    def __init__(self, schema: SchemaGraph, counts: dict[str, int]) -> None:
        self.labels = [n.label for n in schema.node_types]
        self.counts = {label: int(counts[label]) for label in self.labels}
        self.base: dict[str, int] = {}
        nxt = 1
        for label in self.labels:
            self.base[label] = nxt
            nxt += self.counts[label]
        self._starts = [self.base[label] for label in self.labels]

    def id(self, label: str, k: int) -> int:
        return self.base[label] + k

    def locate(self, node_id: int) -> tuple[str, int]:
        i = bisect_right(self._starts, node_id) - 1
        label = self.labels[i]
        return label, node_id - self.base[label]


class _Picker:
    """Chooses other-side nodes of one type by popularity: uniform, or Zipf over a shuffled
    order of the nodes (a few popular nodes, spread over the id range)."""

    def __init__(self, n: int, popularity: dict[str, Any], rng: random.Random) -> None:
        self.n, self.rng = n, rng
        self.order = AffinePermutation(n, rng)
        skewed = popularity.get("dist") == "zipf" and n > 1
        self.table = zipf_table(n, float(popularity.get("s", 0.8))) if skewed else None

    def one(self) -> int:
        if self.table is not None:
            return self.order(self.table.rank(self.rng) - 1)
        return self.rng.randrange(self.n)

    def distinct(self, want: int, taken: set[int]) -> list[int]:
        """``want`` more nodes not in ``taken`` (which grows); rejection sampling, then a scan
        from a random start once rejections pile up (hubs drawn again and again)."""
        out: list[int] = []
        tries = 0
        limit = 20 * want + 50
        while len(out) < want and tries < limit:
            tries += 1
            x = self.one()
            if x not in taken:
                taken.add(x)
                out.append(x)
        if len(out) < want:
            start = self.rng.randrange(self.n)
            for i in range(self.n):
                x = (start + i) % self.n
                if x not in taken:
                    taken.add(x)
                    out.append(x)
                    if len(out) == want:
                        break
        return out


class EdgeDrawer:
    """Draws the edges of one type (:meth:`draw`)."""

    def __init__(
        self,
        schema: SchemaGraph,
        et: EdgeType,
        cfg: dict[str, Any],
        space: NodeSpace,
        seed: int,
        mandatory: Mandatory | None = None,
    ) -> None:
        self.schema, self.et, self.cfg, self.space = schema, et, cfg, space
        self.seed = seed
        self.rng = stream(seed, "edges", et.label, "structure")
        self.mandatory: Mandatory = mandatory or {}
        self.pairs = pairs_of(schema, et, cfg)
        self.anchor = cfg["anchor"]
        self._orders: dict[str, AffinePermutation] = {}
        self._pickers: dict[str, _Picker] = {}

    # -- shared helpers ------------------------------------------------------------------------
    def n(self, label: str) -> int:
        return self.space.counts[label]

    def order(self, label: str) -> AffinePermutation:
        """The shuffled order of a node type, one per edge type and node type."""
        if label not in self._orders:
            self._orders[label] = AffinePermutation(
                self.n(label), stream(self.seed, "edges", self.et.label, "order", label)
            )
        return self._orders[label]

    def cover_order(self, label: str) -> AffinePermutation:
        """The order a functional type covers a total other side in (not the anchors' order,
        so that a type over one node type does not pair nodes with themselves)."""
        key = "cover:" + label
        if key not in self._orders:
            self._orders[key] = AffinePermutation(
                self.n(label), stream(self.seed, "edges", self.et.label, "cover", label)
            )
        return self._orders[key]

    def picker(self, label: str) -> _Picker:
        if label not in self._pickers:
            rng = stream(self.seed, "edges", self.et.label, "pick", label)
            self._pickers[label] = _Picker(self.n(label), self.cfg.get("popularity", {}), rng)
        return self._pickers[label]

    def sides(self, pair: Pair) -> tuple[str, str]:
        """(anchor type, other type) of a pair."""
        return (pair.source, pair.target) if self.anchor == "source" else (pair.target, pair.source)

    def oriented(self, anchor: str, a: int, other: str, b: int) -> Drawn:
        return (anchor, a, other, b) if self.anchor == "source" else (other, b, anchor, a)

    def draw(self) -> Iterator[Drawn]:
        mode = self.cfg["mode"]
        if mode == "functional":
            return self._functional()
        if mode == "matching":
            return self._matching()
        return self._many()

    # -- functional ----------------------------------------------------------------------------
    def _functional(self) -> Iterator[Drawn]:
        count = int(self.cfg["count"])
        by_anchor: dict[str, list[Pair]] = defaultdict(list)
        for p in self.pairs:
            if self.n(p.source) and self.n(p.target):
                by_anchor[self.sides(p)[0]].append(p)
        labels = list(by_anchor)
        total = anchor_total(self.et, self.anchor)
        quotas = (
            [self.n(x) for x in labels]
            if total
            else cumulative_split(count, [float(self.n(x)) for x in labels])
        )
        covered_by_mandatory: dict[str, set[int]] = defaultdict(set)
        for ends in self.mandatory.values():
            for other, b in ends:
                covered_by_mandatory[other].add(b)
        cover = _Coverage(self, covered_by_mandatory) if other_total(self.et, self.anchor) else None
        for label, quota in zip(labels, quotas):
            yield from self._functional_type(
                label, by_anchor[label], min(quota, self.n(label)), cover
            )
        if cover is not None:
            cover.check()

    def _functional_type(
        self, label: str, pairs: list[Pair], quota: int, cover: _Coverage | None
    ) -> Iterator[Drawn]:
        n = self.n(label)
        mine = {k: ends[0] for (x, k), ends in self.mandatory.items() if x == label}
        free = max(0, quota - len(mine))
        others = [self.sides(p)[1] for p in pairs]
        needs = cover.claim(others) if cover is not None else [0] * len(pairs)
        rest = cumulative_split(max(0, free - sum(needs)), [p.weight for p in pairs])
        blocks = [need + r for need, r in zip(needs, rest)]
        if cover is not None and sum(needs) > free:
            raise GraphGenError(
                f"edge {self.et.label}: {free} {label} nodes cannot give every "
                f"{'/'.join(sorted(set(others)))} node an edge; raise the counts"
            )
        order = self.order(label)
        j, used = 0, 0
        for i in range(n):
            a = order(i)
            if a in mine:
                other, b = mine[a]
                yield self.oriented(label, a, other, b)
                continue
            while j < len(blocks) and used >= blocks[j]:
                j, used = j + 1, 0
            if j >= len(blocks):
                continue  # quota met; later anchors may still have mandatory edges
            other = others[j]
            avoid = a if other == label and not self.cfg.get("self_loops") else None
            covering = cover.next(other, avoid) if cover is not None else None
            b = covering if covering is not None else self._popular(other, avoid)
            used += 1
            yield self.oriented(label, a, other, b)

    def _popular(self, label: str, avoid: int | None) -> int:
        pick = self.picker(label)
        for _ in range(100):
            b = pick.one()
            if b != avoid:
                return b
        return (avoid + 1) % self.n(label) if avoid is not None else pick.one()

    # -- matching ------------------------------------------------------------------------------
    def _matching(self) -> Iterator[Drawn]:
        count = int(self.cfg["count"])
        used_src: dict[str, set[int]] = defaultdict(set)
        used_tgt: dict[str, set[int]] = defaultdict(set)
        for (x, a), ends in self.mandatory.items():
            for y, b in ends:
                s, si, t, ti = self.oriented(x, a, y, b)
                used_src[s].add(si)
                used_tgt[t].add(ti)
                yield (s, si, t, ti)
        done = sum(len(v) for v in self.mandatory.values())
        cursor_s: dict[str, int] = defaultdict(int)
        cursor_t: dict[str, int] = defaultdict(int)
        shares = cumulative_split(max(0, count - done), [p.weight for p in self.pairs])
        for pair, share in zip(self.pairs, shares):
            s, t = pair.source, pair.target
            if s == t:
                if self.mandatory:
                    raise GraphGenError(
                        f"edge {self.et.label}: a one-to-one type over one node type cannot "
                        "also take the pairs of a type implying it"
                    )
                yield from self._matching_within(s, share)
                continue
            so, to = self.order(s), self.order(t)
            for _ in range(share):
                src = _next_free(so, cursor_s, s, used_src[s], self.n(s))
                tgt = _next_free(to, cursor_t, t, used_tgt[t], self.n(t))
                if src is None or tgt is None:
                    break
                yield (s, src, t, tgt)

    def _matching_within(self, label: str, share: int) -> Iterator[Drawn]:
        n = self.n(label)
        order = self.order(label)
        if self.et.symmetric:
            # stored once: disjoint pairs (order(2i), order(2i+1))
            for i in range(min(share, n // 2)):
                yield (label, order(2 * i), label, order(2 * i + 1))
            return
        # one out and one in per node: order(i) -> order(i+1), a path or a cycle
        for i in range(min(share, n if n > 1 else 0)):
            yield (label, order(i), label, order((i + 1) % n))

    # -- many ----------------------------------------------------------------------------------
    def _many(self) -> Iterator[Drawn]:
        shares = cumulative_split(int(self.cfg["count"]), [p.weight for p in self.pairs])
        covered: set[str] = set()
        floored: set[str] = set()
        for pair, share in zip(self.pairs, shares):
            x, y = pair.source, pair.target
            if not self.n(x) or not self.n(y):
                continue
            cover = other_total(self.et, "source") and y not in covered
            floor = anchor_total(self.et, "source") and x not in floored
            covered.add(y)
            floored.add(x)
            if self.et.symmetric and x == y:
                yield from self._many_symmetric(x, share, floor or cover)
            else:
                yield from self._many_pair(x, y, share, cover, floor)

    def _degrees(
        self, key: str, n: int, share: int, minimum: Any, cap: Any
    ) -> Iterator[tuple[int, int]]:
        """(anchor index, degree) for every anchor: its floor plus its share of what is left,
        in proportion to a weight from the degree distribution. The weights are drawn again
        from one seeded stream on every pass instead of being stored: a first pass sums them,
        a few more truncate the tail where a hub would exceed its cap, and the last hands the
        edges out by cumulative rounding, carrying what a capped anchor could not take to the
        next ones, so the total is exact whenever the caps allow it."""
        spec = self.cfg["degree"]
        rng = stream(self.seed, "edges", self.et.label, "degree", key)
        state = rng.getstate()

        def weights(limit: float) -> Iterator[float]:
            rng.setstate(state)
            for _ in range(n):
                yield min(limit, _weight(spec, rng))

        floor = sum(minimum(a) for a in range(n))
        budget = max(0, share - floor)
        limit = float("inf")
        total_w = sum(weights(limit))
        room = max(1, cap(0) - floor // max(n, 1))
        for _ in range(4):  # truncate the weights whose share would pass the cap
            if budget <= 0 or total_w <= 0:
                break
            new_limit = room * total_w / budget
            if new_limit >= limit * 0.999:
                break
            limit = new_limit
            total_w = sum(weights(limit))
        acc, given, carry = 0.0, 0, 0
        for a, w in enumerate(weights(limit)):
            acc += w
            upto = round(budget * acc / total_w) if total_w > 0 else 0
            extra = upto - given + carry
            given = upto
            low, high = minimum(a), cap(a)
            d = min(high, low + max(0, extra))
            carry = low + max(0, extra) - d
            yield a, d

    def _many_pair(self, x: str, y: str, share: int, cover: bool, floor: bool) -> Iterator[Drawn]:
        nx, ny = self.n(x), self.n(y)
        same = x == y
        loops = bool(self.cfg.get("self_loops"))
        ox, oy = self.order(x), self.order(y)

        def covered(a: int) -> list[int]:
            if not cover:
                return []
            if same:  # node order(c) is covered by the next node in the order, never itself
                return [] if ny < 2 else [oy((ox.inverse(a) - 1) % ny)]
            return [oy(c) for c in range(ox.inverse(a), ny, nx)]

        def mandatory(a: int) -> list[int]:
            ends = [b for lbl, b in self.mandatory.get((x, a), ()) if lbl == y]
            return list(dict.fromkeys(ends + covered(a)))

        def minimum(a: int) -> int:
            m = len(self.mandatory.get((x, a), ())) + (
                (len(range(ox.inverse(a), ny, nx)) if not same else 1) if cover else 0
            )
            return max(m, 1 if floor else 0)

        cap_all = ny - (0 if loops or not same else 1)
        picker = self.picker(y)
        for a, d in self._degrees(f"{x}->{y}", nx, share, minimum, lambda a: cap_all):
            if d <= 0:
                continue
            fixed = mandatory(a)
            taken = set(fixed)
            if same and not loops:
                taken.add(a)
            ends = fixed + picker.distinct(max(0, d - len(fixed)), taken)
            for b in ends:
                yield (x, a, y, b)

    def _many_symmetric(self, x: str, share: int, floor: bool) -> Iterator[Drawn]:
        if any(k[0] == x for k in self.mandatory):
            raise GraphGenError(
                f"edge {self.et.label}: a symmetric type cannot take the pairs of a type "
                "implying it"
            )
        n = self.n(x)
        half = (n - 1) // 2
        rng = stream(self.seed, "edges", self.et.label, "offsets", x)

        def cap(a: int) -> int:
            return half + (1 if n % 2 == 0 and a < n // 2 else 0)

        def minimum(a: int) -> int:
            return 1 if floor and cap(a) else 0

        for a, d in self._degrees(f"{x}->{x}", n, share, minimum, cap):
            limit = cap(a)
            chosen: set[int] = {1} if minimum(a) else set()
            while len(chosen) < d:
                chosen.add(rng.randint(1, limit))
            for delta in sorted(chosen):
                yield (x, a, x, (a + delta) % n)


def _weight(spec: dict[str, Any], rng: random.Random) -> float:
    """One anchor's weight under a degree distribution."""
    dist = spec.get("dist")
    if dist == "power_law":
        return pareto(rng, float(spec.get("exponent", 2.3)))
    if dist == "poisson":
        return float(poisson(rng, float(spec.get("mean", 4.0))))
    return 1.0


def _next_free(
    order: AffinePermutation, cursor: dict[str, int], label: str, used: set[int], n: int
) -> int | None:
    while cursor[label] < n:
        k = order(cursor[label])
        cursor[label] += 1
        if k not in used:
            used.add(k)
            return k
    return None


class _Coverage:
    """Hands out the other side's nodes in a shuffled order until each has an edge (for a
    functional type whose other side's participation is total)."""

    def __init__(self, drawer: EdgeDrawer, done: dict[str, set[int]]) -> None:
        self.drawer, self.done = drawer, done
        self.cursor: dict[str, int] = defaultdict(int)
        self.pending: dict[str, list[int]] = defaultdict(list)
        self.claimed: set[str] = set()

    def claim(self, others: list[str]) -> list[int]:
        """How many anchors each pair must spend on covering: the whole uncovered side, for
        the first pair that reaches it."""
        out = []
        for other in others:
            if other in self.claimed:
                out.append(0)
                continue
            self.claimed.add(other)
            out.append(self.drawer.n(other) - len(self.done[other]))
        return out

    def next(self, label: str, avoid: int | None) -> int | None:
        pend = self.pending[label]
        for i, b in enumerate(pend):
            if b != avoid:
                return pend.pop(i)
        order, n = self.drawer.cover_order(label), self.drawer.n(label)
        while self.cursor[label] < n:
            b = order(self.cursor[label])
            self.cursor[label] += 1
            if b in self.done[label]:
                continue
            if b == avoid:
                pend.append(b)
                continue
            return b
        return None

    def check(self) -> None:
        for label in self.claimed:
            order, n = self.drawer.cover_order(label), self.drawer.n(label)
            left = len(self.pending[label]) + sum(
                1 for c in range(self.cursor[label], n) if order(c) not in self.done[label]
            )
            if left > 0:
                raise GraphGenError(
                    f"edge {self.drawer.et.label}: {left} {label} nodes were left without an "
                    "edge; raise the anchor counts"
                )


__all__ = ["EdgeDrawer", "Mandatory", "NodeSpace"]
