"""CypherBench's realism filters, read from the schema's annotations: an instantiation is
dropped when it asks something the schema already answers or that no one would ask.

* redundant relations: the same relationship twice between two nodes, or one that the other
  implies (``capitalOf`` implies ``locatedIn``);
* an unnecessary to-one pair: ``(a)-[:R]->(b)<-[:R]-(c)`` where ``b`` has at most one ``R``
  (so ``a`` and ``c`` are the same node);
* group-by counts over a to-one relationship ("how many fathers does each person have");
* unnecessary leaves: a node reached only to exist through a relationship every node on the
  other side has (total participation), including optional and negated patterns, where the
  answer is then known from the schema alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .. import ir
from ..schema.model import EdgeType, Participation, SchemaGraph
from .structure import Rel, Structure


@dataclass(frozen=True)
class Assignment:
    """Labels and types chosen for a template's holes."""

    labels: tuple[tuple[str, str], ...]  # label hole -> node label
    types: tuple[tuple[str, str], ...]  # type hole -> edge type
    var_labels: tuple[tuple[str, str | None], ...]
    rel_types: tuple[str | None, ...]  # per Structure.rels entry
    orientation: tuple[bool, ...]  # per rel: stored source -> target as the pattern reads

    def var_label(self, var: str) -> str | None:
        return dict(self.var_labels).get(var)


def _max_one(edge: EdgeType, at_source: bool) -> bool:
    card = edge.cardinality
    if card is None:
        return False
    return card.source_max_one if at_source else card.target_max_one


def _total(edge: EdgeType, at_source: bool) -> bool:
    part = edge.source_participation if at_source else edge.target_participation
    return part is Participation.TOTAL


def _ends(rel: Rel, forward: bool) -> tuple[str, str]:
    """The (stored source, stored target) variables of a relationship."""
    return (rel.source, rel.target) if forward else (rel.target, rel.source)


def redundant_relation(s: Structure, a: Assignment, schema: SchemaGraph) -> str | None:
    for i, r1 in enumerate(s.rels):
        for j in range(i + 1, len(s.rels)):
            r2 = s.rels[j]
            t1, t2 = a.rel_types[i], a.rel_types[j]
            if t1 is None or t2 is None or {r1.source, r1.target} != {r2.source, r2.target}:
                continue
            same_way = _ends(r1, a.orientation[i]) == _ends(r2, a.orientation[j])
            e1, e2 = schema.edge(t1), schema.edge(t2)
            symmetric = e1 is not None and e1.symmetric
            if t1 == t2 and (same_way or symmetric) and r1.required == r2.required:
                return f"{t1} twice between the same nodes"
            implied = e1 is not None and e2 is not None and (t2 in e1.implies or t1 in e2.implies)
            if same_way and implied:
                return f"{t1} and {t2}: one implies the other"
    return None


def to_one_pair(s: Structure, a: Assignment, schema: SchemaGraph) -> str | None:
    for i, r1 in enumerate(s.rels):
        for j in range(i + 1, len(s.rels)):
            r2 = s.rels[j]
            t = a.rel_types[i]
            if t is None or t != a.rel_types[j] or r1.hops or r2.hops:
                continue
            edge = schema.edge(t)
            if edge is None or edge.symmetric:
                continue
            s1, d1 = _ends(r1, a.orientation[i])
            s2, d2 = _ends(r2, a.orientation[j])
            if d1 == d2 and s1 != s2 and _max_one(edge, at_source=False):
                return f"{t} is to-one at its target: both sources are the same node"
            if s1 == s2 and d1 != d2 and _max_one(edge, at_source=True):
                return f"{t} is to-one at its source: both targets are the same node"
    return None


def _counted_variables(query: ir.Node) -> list[tuple[set[str], str]]:
    """(grouping variables, counted variable) of every grouped count."""
    out: list[tuple[set[str], str]] = []
    for proj in query.find_all(ir.Projection):
        keys: set[str] = set()
        counted: list[str] = []
        for item in proj.items:
            aggs = [n for n in item.expr.walk() if isinstance(n, ir.Aggregate)]
            if not aggs:
                keys |= {v.name for v in item.expr.walk() if isinstance(v, ir.Variable)}
                keys |= {
                    v.subject.name
                    for v in item.expr.walk()
                    if hasattr(v, "subject") and isinstance(v.subject, ir.Variable)
                }
            for agg in aggs:
                if agg.name == "count" and agg.args and isinstance(agg.args[0], ir.Variable):
                    counted.append(agg.args[0].name)
        out.extend((keys, c) for c in counted if keys)
    return out


def _single_hops(
    s: Structure, a: Assignment, schema: SchemaGraph
) -> Iterator[tuple[Rel, EdgeType, str, str]]:
    """(relationship, its edge type, stored source, stored target) of the one-hop
    relationships whose type is known."""
    for i, rel in enumerate(s.rels):
        t = a.rel_types[i]
        edge = schema.edge(t) if t else None
        if edge is not None and not rel.hops:
            yield (rel, edge, *_ends(rel, a.orientation[i]))


def to_one_count(s: Structure, a: Assignment, schema: SchemaGraph, query: ir.Node) -> str | None:
    for keys, counted in _counted_variables(query):
        for _, edge, src, dst in _single_hops(s, a, schema):
            t = edge.label
            if src in keys and dst == counted and _max_one(edge, at_source=True):
                return f"counting {t} per source, which has at most one"
            if dst in keys and src == counted and _max_one(edge, at_source=False):
                return f"counting {t} per target, which has at most one"
    return None


def unnecessary_leaf(s: Structure, a: Assignment, schema: SchemaGraph) -> str | None:
    degree: dict[str, int] = {}
    for rel in s.rels:
        for v in (rel.source, rel.target):
            degree[v] = degree.get(v, 0) + 1
    for rel, edge, src, dst in _single_hops(s, a, schema):
        t = edge.label
        for leaf, anchor_is_source in ((dst, True), (src, False)):
            anchor = src if anchor_is_source else dst
            if anchor == leaf or degree.get(leaf) != 1 or leaf in s.referenced:
                continue
            if _total(edge, at_source=anchor_is_source):
                return f"every {a.var_label(anchor)} has a {t}: the pattern adds nothing"
        if rel.optional and _total(edge, at_source=src == rel.left):
            return f"OPTIONAL {t} where every {a.var_label(rel.left)} has one"
    return None


def rejection(
    s: Structure, a: Assignment, schema: SchemaGraph, query: ir.Node
) -> tuple[str, str] | None:
    """(filter, reason) when this assignment of labels and types is unrealistic, else None."""
    checks = (
        ("redundant relation", lambda: redundant_relation(s, a, schema)),
        ("to-one pair", lambda: to_one_pair(s, a, schema)),
        ("to-one count", lambda: to_one_count(s, a, schema, query)),
        ("unnecessary leaf", lambda: unnecessary_leaf(s, a, schema)),
    )
    for name, check in checks:
        why = check()
        if why is not None:
            return name, why
    return None
