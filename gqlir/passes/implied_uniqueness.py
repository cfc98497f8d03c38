"""Edge uniqueness that the query's own inequalities already ensure, on a target that cannot ask
for it.

Rule: a Cypher MATCH never binds one relationship to two relationship patterns (openCypher 9,
1.2.4 "Uniqueness"; the IR's ``MatchMode.DIFFERENT_EDGES``). Two directed edge patterns bind
one edge only if their sources are one node and their targets are one node. When the MATCH's
WHERE (or a filter right after it) requires ``x <> y`` of two nodes that this would make one
node (through the pattern's shared variables and adjacent elements), or of the two edges
themselves, no such row survives the filter, so matching homomorphically keeps the same rows:
``(a)-[:R]->(m)<-[:R]-(b) WHERE a <> b`` (one edge would make ``a`` and ``b`` its one source),
``(u)-[:R]->(v)-[:R]->(w) WHERE u <> w`` (one edge would make ``u``, ``v`` and ``w`` one node).
Such a MATCH is written in the target's repeatable-elements mode, which SQL/PGQ engines without
``DIFFERENT EDGES`` match by default (DuckPGQ, PostgreSQL 19, Oracle; capability
``match_modes``). Anything it cannot prove (quantified or undirected edges, parenthesised paths,
a pair no inequality separates) is left for the printer to refuse.

Capabilities read: ``graph_pattern_first``, ``match_modes``, ``default_match_mode``.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import conjuncts
from ..ir.node import Node
from .branches import each_linear_query

__all__ = ["applies", "lower_implied_uniqueness"]


def applies(target: Dialect) -> bool:
    """Whether the target is a SQL/PGQ form that matches homomorphically and cannot say
    DIFFERENT EDGES."""
    caps = target.capabilities
    return (
        caps.graph_pattern_first
        and not caps.match_modes
        and caps.default_match_mode == p.MatchMode.REPEATABLE_ELEMENTS.name
    )


def lower_implied_uniqueness(root: Node, target: Dialect) -> Node:
    """``root`` with each MATCH whose edge uniqueness its inequalities imply in the
    repeatable-elements mode."""
    if not applies(target):
        return root
    return each_linear_query(root, _lower_linear)


def _lower_linear(root: q.LinearQuery) -> q.LinearQuery:
    steps = list(root.steps)
    changed = False
    for i, step in enumerate(steps):
        if (
            not isinstance(step, q.Match)
            or step.optional  # (SQL/PGQ output has no OPTIONAL MATCH)
            or step.mode is not p.MatchMode.DIFFERENT_EDGES
        ):
            continue
        conds = conjuncts(step.where)
        k = i + 1
        while k < len(steps) and isinstance(steps[k], q.Filter):
            conds.extend(conjuncts(steps[k].condition))  # type: ignore[attr-defined]
            k += 1
        if _implied(step, conds):
            steps[i] = replace(step, mode=p.MatchMode.REPEATABLE_ELEMENTS)
            changed = True
    return replace(root, steps=tuple(steps)) if changed else root


def _inequalities(conds: list[e.Expr]) -> set[frozenset[str]]:
    """The pairs of variables the conditions require to differ (``x <> y``)."""
    out: set[frozenset[str]] = set()
    for c in conds:
        if isinstance(c, e.Not) and isinstance(c.operand, e.Comparison):
            c = replace(c.operand, op=e.CompOp.NE) if c.operand.op is e.CompOp.EQ else c
        if (
            isinstance(c, e.Comparison)
            and c.op is e.CompOp.NE
            and isinstance(c.left, e.Variable)
            and isinstance(c.right, e.Variable)
            and c.left.name != c.right.name
        ):
            out.add(frozenset((c.left.name, c.right.name)))
    return out


class _Edge:
    def __init__(self, rel: p.RelPattern, left: str, right: str) -> None:
        self.rel = rel
        out = rel.direction is p.Direction.OUT
        self.source, self.target = (left, right) if out else (right, left)

    def may_coincide(self, other: _Edge) -> bool:
        a, b = self.rel.types, other.rel.types
        return not (isinstance(a, p.Label) and isinstance(b, p.Label) and a.name != b.name)


def _implied(step: q.Match, conds: list[e.Expr]) -> bool:
    """Whether every two edge patterns of ``step`` that could bind one edge are kept apart by
    an inequality of ``conds``."""
    edges: list[_Edge] = []
    nodes: list[str] = []
    for i, pp in enumerate(step.patterns):
        if pp.search is not None or not isinstance(pp.path, p.PathChain):
            return False
        elements = pp.path.elements
        for j, x in enumerate(elements):
            if isinstance(x, p.NodePattern):
                nodes.append(x.variable or f" {i}.{j}")
            elif (
                isinstance(x, p.RelPattern)
                and x.quantifier is None
                and x.direction in (p.Direction.OUT, p.Direction.IN)
                and 0 < j < len(elements) - 1
            ):
                left, right = elements[j - 1], elements[j + 1]
                assert isinstance(left, p.NodePattern) and isinstance(right, p.NodePattern)
                edges.append(
                    _Edge(x, left.variable or f" {i}.{j - 1}", right.variable or f" {i}.{j + 1}")
                )
            else:
                return False
    unequal = _inequalities(conds)
    for one, two in combinations(edges, 2):
        if not one.may_coincide(two):
            continue
        names = frozenset((one.rel.variable or "", two.rel.variable or ""))
        if "" not in names and names in unequal:
            continue
        same = _Union(nodes)
        same.join(one.source, two.source)
        same.join(one.target, two.target)
        if not any(len(pair) == 2 and same.one(*pair) for pair in unequal):
            return False
    return True


class _Union:
    """Which nodes one edge would make one node (union-find over node names)."""

    def __init__(self, names: list[str]) -> None:
        self.parent = {n: n for n in names}

    def find(self, x: str) -> str:
        while self.parent.get(x, x) != x:
            x = self.parent[x]
        return x

    def join(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)

    def one(self, a: str, b: str) -> bool:
        return a in self.parent and b in self.parent and self.find(a) == self.find(b)
