"""A witness: one place in the graph where a template's pattern matches, under an assignment
of labels and types. Values are read from it, so the instantiated query returns something."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .graphindex import GraphIndex
from .realism import Assignment
from .structure import Rel, Structure

#: candidate nodes tried per step, and steps per search, before giving up
BRANCHING = 6
STEPS = 400


@dataclass
class Witness:
    nodes: dict[str, Any] = field(default_factory=dict)  # variable -> node id
    edges: dict[str, int] = field(default_factory=dict)  # relationship variable -> edge number


def _reach(
    index: GraphIndex, start: Any, etype: str, forward: bool, either: bool, hops: tuple[int, int]
) -> list[Any]:
    """Nodes reachable from ``start`` in ``hops`` steps over ``etype`` edges."""
    lower, upper = hops
    found: list[Any] = []
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        depth = seen[node]
        if depth >= upper:
            continue
        for nxt in _neighbours(index, node, etype, forward, either):
            if nxt not in seen:
                seen[nxt] = depth + 1
                if depth + 1 >= lower:
                    found.append(nxt)
                queue.append(nxt)
    return found


def _neighbours(index: GraphIndex, node: Any, etype: str, forward: bool, either: bool) -> list:
    out = []
    if forward or either:
        out += [index.edges[e][2] for e in index.out.get((node, etype), ())]
    if not forward or either:
        out += [index.edges[e][1] for e in index.into.get((node, etype), ())]
    return out


def _edges_between(index: GraphIndex, a: Any, b: Any, etype: str, either: bool) -> list[int]:
    found = [e for e in index.out.get((a, etype), ()) if index.edges[e][2] == b]
    if either:
        found += [e for e in index.out.get((b, etype), ()) if index.edges[e][2] == a]
    return found


class _Search:
    def __init__(
        self,
        s: Structure,
        a: Assignment,
        hops: dict[str, tuple[int, int]],
        index: GraphIndex,
        rng: random.Random,
    ) -> None:
        self.s, self.a, self.hops, self.index, self.rng = s, a, hops, index, rng
        self.labels = dict(a.var_labels)
        self.nodes: dict[str, Any] = {}
        self.edges: dict[str, int] = {}
        self.used: set[int] = set()
        self.steps = 0

    def bounds(self, rel: Rel) -> tuple[int, int] | None:
        if rel.hops is None:
            return None
        if isinstance(rel.hops, str):
            return self.hops[rel.hops]
        return rel.hops

    def fits(self, var: str, node: Any) -> bool:
        label = self.labels.get(var)
        if label is not None and self.index.labels.get(node) != label:
            return False
        bound = self.nodes.get(var)
        if bound is not None:
            return bound == node
        return node not in self.nodes.values()

    def sample(self, items: list, k: int = BRANCHING) -> list:
        if len(items) <= k:
            items = list(items)
            self.rng.shuffle(items)
            return items
        return self.rng.sample(items, k)

    def extend(self, order: list[int], k: int) -> bool:
        self.steps += 1
        if self.steps > STEPS:
            return False
        if k == len(order):
            return True
        i = order[k]
        rel = self.s.rels[i]
        etype = self.a.rel_types[i]
        if etype is None:
            return False
        forward = self.a.orientation[i]
        src, dst = (rel.source, rel.target) if forward else (rel.target, rel.source)
        bounds = self.bounds(rel)
        if src not in self.nodes and dst not in self.nodes:
            triple = (self.labels.get(src), etype, self.labels.get(dst))
            pool = [e for t, es in self.index.by_triple.items() if _match(t, triple) for e in es]
            starts = list(dict.fromkeys(self.index.edges[e][1] for e in pool))
            return any(self.bind(src, n, order, k) for n in self.sample(starts))
        if src in self.nodes:
            here, there, ahead = self.nodes[src], dst, True
        else:
            here, there, ahead = self.nodes[dst], src, False
        if bounds is not None:
            targets = _reach(self.index, here, etype, ahead, rel.either, bounds)
            if there in self.nodes:
                return self.nodes[there] in targets and self.extend(order, k + 1)
            return any(self.bind(there, n, order, k + 1) for n in self.sample(targets))
        if there in self.nodes:
            a, b = (here, self.nodes[there]) if ahead else (self.nodes[there], here)
            for e in _edges_between(self.index, a, b, etype, rel.either):
                if e not in self.used and self.use_edge(rel, e, order, k):
                    return True
            return False
        edges = list(self.index.out.get((here, etype), ())) if ahead or rel.either else []
        if not ahead or rel.either:
            edges += list(self.index.into.get((here, etype), ()))
        for e in self.sample([e for e in edges if e not in self.used]):
            _, s_id, t_id, _ = self.index.edges[e]
            other = t_id if s_id == here else s_id
            if self.fits(there, other):
                self.nodes[there] = other
                if self.use_edge(rel, e, order, k):
                    return True
                del self.nodes[there]
        return False

    def use_edge(self, rel: Rel, e: int, order: list[int], k: int) -> bool:
        self.used.add(e)
        if rel.variable:
            self.edges[rel.variable] = e
        if self.extend(order, k + 1):
            return True
        self.used.discard(e)
        self.edges.pop(rel.variable or "", None)
        return False

    def bind(self, var: str, node: Any, order: list[int], k: int) -> bool:
        if not self.fits(var, node):
            return False
        fresh = var not in self.nodes
        self.nodes[var] = node
        if self.extend(order, k):
            return True
        if fresh:
            del self.nodes[var]
        return False


def _match(have: tuple, want: tuple) -> bool:
    return all(w is None or h == w for h, w in zip(have, want))


def _order(s: Structure) -> list[int]:
    """Required relationships, each after one that binds a variable it shares."""
    todo = [i for i, r in enumerate(s.rels) if r.required]
    order: list[int] = []
    seen: set[str] = set()
    while todo:
        pick = next((i for i in todo if {s.rels[i].source, s.rels[i].target} & seen), todo[0])
        todo.remove(pick)
        order.append(pick)
        seen |= {s.rels[pick].source, s.rels[pick].target}
    return order


def find_witness(
    s: Structure,
    a: Assignment,
    hops: dict[str, tuple[int, int]],
    index: GraphIndex,
    rng: random.Random,
) -> Witness | None:
    search = _Search(s, a, hops, index, rng)
    if not search.extend(_order(s), 0):
        return None
    in_rels = {v for r in s.rels if r.required for v in (r.source, r.target)}
    for var in s.node_slots:
        if var in in_rels or var in search.nodes or var.startswith("_anon"):
            continue
        label = search.labels.get(var)
        pool = index.by_label.get(label, []) if label else list(index.labels)
        free = [n for n in search.sample(pool, 20) if n not in search.nodes.values()]
        if not free:
            return None
        search.nodes[var] = free[0]
    return Witness(search.nodes, search.edges)
