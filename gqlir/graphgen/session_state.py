"""The graph a session is generated against, as the reference evaluator holds it after each
step: which nodes and edges exist, which values a property takes, and which writes keep the
graph valid against its schema (key uniqueness, required properties, cardinality, total
participation, entailment). Templates ask it; it never changes the graph itself (the generator
runs each write on the evaluator, so the state is what a database would hold)."""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Iterator
from typing import Any

from ..eval import Graph, Relationship
from ..eval import Node as GNode
from ..eval import temporal as tm
from ..ir import expr as e
from ..schema.model import EdgeType, NodeType, Participation, SchemaGraph
from ..schema.types import INTEGER_KINDS, PropertyType, TypeKind
from . import session_ir as ir
from .wordlists import words

K = TypeKind


class SessionState:
    """Read access to the current graph, typed by the schema."""

    def __init__(self, schema: SchemaGraph, graph: Graph) -> None:
        self.schema = schema
        self.graph = graph

    # -- elements ----------------------------------------------------------------------------

    def nodes_of(self, label: str) -> list[GNode]:
        return [n for n in self.graph.all_nodes() if label in n.labels]

    def edges_of(self, edge_type: str) -> list[Relationship]:
        return [r for r in self.graph.all_relationships() if r.type == edge_type]

    def type_of(self, n: GNode) -> NodeType | None:
        for label in n.labels:
            nt = self.schema.node(label)
            if nt is not None:
                return nt
        return None

    def keyed_types(self) -> list[NodeType]:
        """Node types whose nodes a statement can address by key."""
        return [nt for nt in self.schema.node_types if nt.keys and _keys_writable(nt)]

    def key_values(self, n: GNode) -> dict[str, e.Expr]:
        nt = self.type_of(n)
        assert nt is not None and nt.keys
        return {k: ir.literal(n.properties.get(k), prop_type(nt, k)) for k in nt.keys}

    def pattern_of(self, var: str, n: GNode) -> Any:
        nt = self.type_of(n)
        assert nt is not None
        return ir.node(var, nt.label, self.key_values(n))

    def out_edges(self, n: GNode, edge_type: str) -> list[Relationship]:
        return [r for r in self.graph.outgoing(n.id) if r.type == edge_type]

    def in_edges(self, n: GNode, edge_type: str) -> list[Relationship]:
        return [r for r in self.graph.incoming(n.id) if r.type == edge_type]

    def between(self, a: GNode, b: GNode, edge_type: str) -> list[Relationship]:
        return [r for r in self.out_edges(a, edge_type) if r.end == b.id]

    # -- values ------------------------------------------------------------------------------

    def pool(self, owner: NodeType | EdgeType, name: str) -> list[Any]:
        """The values property ``name`` takes on the current elements of ``owner``."""
        elements: Iterator[Any]
        if isinstance(owner, NodeType):
            elements = iter(self.nodes_of(owner.label))
        else:
            elements = iter(self.edges_of(owner.label))
        return [x.properties[name] for x in elements if x.properties.get(name) is not None]

    def sample_value(
        self, owner: NodeType | EdgeType, name: str, rng: random.Random, avoid: Any = None
    ) -> Any:
        """A value of the property: one it already takes in the graph (other than ``avoid``),
        or a made-up one of its type when the graph has none; unique properties get a value
        no element holds."""
        t = prop_type(owner, name)
        pool = self.pool(owner, name)
        declared = owner.prop(name)
        unique = name in owner.keys or (declared is not None and declared.unique)
        if unique:
            return fresh_value(t, pool, rng)
        choices = [v for v in dict.fromkeys(_hashable(v) for v in pool) if v != _hashable(avoid)]
        if choices:
            return _unhash(rng.choice(choices))
        return made_up_value(t, rng, avoid)

    # -- validity ----------------------------------------------------------------------------

    def mandatory_edges(self, nt: NodeType) -> list[tuple[EdgeType, str, str]] | None:
        """The edges a new node of ``nt`` needs (edge type, ``"in"``/``"out"``, other label)
        for total participation, or None when such a node cannot be created validly in one
        statement (the other end would exceed its cardinality, or the edge type is implied
        by another)."""
        needs: list[tuple[EdgeType, str, str]] = []
        for et in self.schema.edge_types:
            for ep in et.endpoints:
                if ep.target == nt.label and et.target_participation == Participation.TOTAL:
                    if (et.cardinality and et.cardinality.source_max_one) or self.implied(et):
                        return None
                    needs.append((et, "in", ep.source))
                    break
                if ep.source == nt.label and et.source_participation == Participation.TOTAL:
                    if (et.cardinality and et.cardinality.target_max_one) or self.implied(et):
                        return None
                    needs.append((et, "out", ep.target))
                    break
        return needs

    def implied(self, et: EdgeType) -> bool:
        """Whether another edge type implies ``et`` (deleting or adding it alone could break
        the entailment)."""
        return any(et.label in other.implies for other in self.schema.edge_types) or bool(
            et.implies
        )

    def free_edge_types(self) -> list[EdgeType]:
        """Edge types an edge can be added to between any two nodes (many-to-many, no
        entailment)."""
        return [
            et
            for et in self.schema.edge_types
            if not self.implied(et)
            and not et.symmetric
            and (et.cardinality is None or et.cardinality.value == "n:m")
        ]

    def edge_deletable(self, r: Relationship, et: EdgeType) -> bool:
        """Removing every ``et`` edge between ``r``'s ends keeps both ends' participation."""
        a, b = self.graph.node(r.start), self.graph.node(r.end)
        parallel = len(self.between(a, b, et.label))
        total_source = et.source_participation == Participation.TOTAL
        if total_source and len(self.out_edges(a, et.label)) - parallel < 1:
            return False
        total_target = et.target_participation == Participation.TOTAL
        if total_target and len(self.in_edges(b, et.label)) - parallel < 1:
            return False
        return not self.implied(et)

    def node_deletable(self, n: GNode) -> bool:
        """DETACH DELETE of ``n`` leaves every neighbour with the edges its participation
        needs."""
        incident = [(r, r.end, "in") for r in self.graph.outgoing(n.id)]
        incident += [(r, r.start, "out") for r in self.graph.incoming(n.id)]
        for r, other_id, other_side in incident:
            et = self.schema.edge(r.type)
            if et is None or self.implied(et):
                return False
            total = (
                et.target_participation if other_side == "in" else et.source_participation
            ) == Participation.TOTAL
            if (
                total
                and other_id != n.id
                and not self._keeps_edge(other_id, r.type, other_side, n.id)
            ):
                return False
        return True

    def _keeps_edge(self, node_id: int, edge_type: str, side: str, lost: int) -> bool:
        """Whether ``node_id`` has an ``edge_type`` edge on ``side`` not shared with ``lost``."""
        other = self.graph.node(node_id)
        if side == "in":
            return any(x.start != lost for x in self.in_edges(other, edge_type))
        return any(x.end != lost for x in self.out_edges(other, edge_type))

    def can_take_edge(self, n: GNode, et: EdgeType, side: str) -> bool:
        """Whether ``n`` may get one more ``et`` edge on ``side`` (``"out"``: as source)."""
        card = et.cardinality
        if card is None:
            return True
        if side == "out" and card.source_max_one:
            return not self.out_edges(n, et.label)
        if side == "in" and card.target_max_one:
            return not self.in_edges(n, et.label)
        return True


def _keys_writable(nt: NodeType) -> bool:
    return all(ir.writable(prop_type(nt, k)) for k in nt.keys)


def prop_type(owner: NodeType | EdgeType, name: str) -> PropertyType:
    """The declared type of a property the templates chose from ``owner``'s declaration."""
    prop = owner.prop(name)
    assert prop is not None, f"{owner.label}.{name}"
    return prop.type


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def _unhash(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def fresh_value(t: PropertyType, pool: list[Any], rng: random.Random) -> Any:
    """A value of type ``t`` that is not in ``pool`` (for keys and unique properties)."""
    taken = {_hashable(v) for v in pool}
    if t.kind in INTEGER_KINDS:
        top = max((v for v in pool if isinstance(v, int)), default=0)
        return top + 1 + rng.randrange(1000)
    if t.kind == K.STRING:
        bases = sorted({v for v in pool if isinstance(v, str)}) or list(words("words"))
        base = rng.choice(bases)
        n = 2
        while f"{base} {n}" in taken:
            n += 1
        return _fit(f"{base} {n}", t)
    value = made_up_value(t, rng, None)
    while _hashable(value) in taken:
        value = made_up_value(t, rng, None)
    return value


def made_up_value(t: PropertyType, rng: random.Random, avoid: Any) -> Any:
    """A plausible value of type ``t`` when the graph offers none (different from ``avoid``)."""
    for _ in range(20):
        value = _made_up(t, rng)
        if value != avoid:
            return value
    return value


def _made_up(t: PropertyType, rng: random.Random) -> Any:
    k = t.kind
    if k in INTEGER_KINDS:
        return rng.randint(1, 1000)
    if k in (K.FLOAT32, K.FLOAT64):
        return round(rng.uniform(0.5, 10.0), 2)
    if k == K.BOOLEAN:
        return rng.random() < 0.5
    if k == K.DATE:
        return tm.Date(_dt.date(2015, 1, 1) + _dt.timedelta(days=rng.randrange(3650)))
    if k == K.LIST:
        assert t.element is not None
        return [_made_up(t.element, rng) for _ in range(rng.randint(1, 3))]
    return _fit(rng.choice(words("words")).capitalize(), t)


def _fit(text: str, t: PropertyType) -> str:
    return text[: t.length] if t.length else text


__all__ = ["SessionState", "fresh_value", "made_up_value", "prop_type"]
