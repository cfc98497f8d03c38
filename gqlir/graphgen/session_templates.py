"""Management-session step templates: each picks its targets and values from the current graph
(:class:`~gqlir.graphgen.session_state.SessionState`) and builds a write statement and the
validation query that observes its effect, as IR. A template returns None when the graph
offers nothing it can change validly (no optional property to remove, no deletable edge …).

Operations follow NGDBench's management batches: create, merge, set, remove, delete (and
mixed batches interleaving them).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..eval import Node as GNode
from ..eval import Relationship
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..schema.model import EdgeType, NodeType
from ..schema.types import INTEGER_KINDS, TypeKind
from . import session_ir as ir
from .session_state import SessionState, fresh_value, prop_type

OPERATIONS = ("create", "merge", "set", "remove", "delete")


@dataclass(frozen=True, slots=True)
class PlannedStep:
    """One step: the write and the validation query (IR), and what they do in words."""

    operation: str
    template: str
    write: q.LinearQuery
    validation: q.LinearQuery
    description: str


Template = Callable[[SessionState, random.Random], PlannedStep | None]


# -- shared pieces -------------------------------------------------------------------------------


def _pick(rng: random.Random, items: list[Any]) -> Any:
    return rng.choice(items) if items else None


def _writable_props(owner: NodeType | EdgeType, *, optional: bool) -> list[str]:
    """Properties a step may write: of a writable type, not keys, and optional ones only
    when ``optional`` (required ones must never be removed)."""
    return [
        p.name
        for p in owner.properties
        if p.name not in owner.keys and ir.writable(p.type) and (not optional or not p.required)
    ]


def _required_values(
    state: SessionState, owner: NodeType | EdgeType, rng: random.Random, extra: int
) -> dict[str, e.Expr] | None:
    """Values for every required property (keys fresh) and up to ``extra`` optional ones;
    None when a required property has a type sessions do not write."""
    values: dict[str, e.Expr] = {}
    for prop in owner.properties:
        if prop.required or prop.name in owner.keys:
            if not ir.writable(prop.type):
                return None
            values[prop.name] = ir.literal(state.sample_value(owner, prop.name, rng), prop.type)
    optional = [n for n in _writable_props(owner, optional=True) if n not in values]
    for name in rng.sample(optional, min(extra, len(optional))):
        values[name] = ir.literal(state.sample_value(owner, name, rng), prop_type(owner, name))
    return values


def _keyed(state: SessionState, label: str) -> bool:
    nt = state.schema.node(label)
    return nt is not None and bool(nt.keys) and bool(state.nodes_of(label))


def _endpoint_pairs(et: EdgeType) -> list[tuple[str, str]]:
    return [(ep.source, ep.target) for ep in et.endpoints]


def _count_out(state: SessionState, a: GNode, et: EdgeType, target: str) -> q.LinearQuery:
    """How many ``et`` edges leave ``a`` (towards ``target`` nodes)."""
    chain = ir.edge_chain(state.pattern_of("a", a), ir.rel(None, et.label), ir.node(None, target))
    return ir.returning([chain], [(ir.count_star(), "edges")])


def _count_nodes(label: str) -> q.LinearQuery:
    return ir.returning([ir.single(ir.node("n", label))], [(ir.count_star(), "nodes")])


def _numeric_summary(owner: NodeType, name: str) -> tuple[e.Expr, str]:
    """``sum`` of an integer property (exact everywhere), ``avg`` of a float one."""
    if prop_type(owner, name).kind in INTEGER_KINDS:
        return ir.aggregate("sum", ir.prop("n", name)), "total"
    return ir.aggregate("avg", ir.prop("n", name)), "mean"


def _is_number(owner: NodeType | EdgeType, name: str) -> bool:
    kind = prop_type(owner, name).kind
    return kind in INTEGER_KINDS or kind in (TypeKind.FLOAT32, TypeKind.FLOAT64)


def _node_by_key(state: SessionState, rng: random.Random, nt: NodeType) -> GNode | None:
    return _pick(rng, state.nodes_of(nt.label))


def _edge_with_ends(
    state: SessionState, rng: random.Random, et: EdgeType
) -> tuple[Relationship, GNode, GNode, str, str] | None:
    """An ``et`` edge whose ends are keyed node types, with their labels."""
    edges = state.edges_of(et.label)
    for _ in range(20):
        r = _pick(rng, edges)
        if r is None:
            return None
        a, b = state.graph.node(r.start), state.graph.node(r.end)
        ta, tb = state.type_of(a), state.type_of(b)
        if ta is not None and tb is not None and ta.keys and tb.keys:
            return r, a, b, ta.label, tb.label
    return None


def _edge_pattern(state: SessionState, a: GNode, et: EdgeType, b: GNode, var: str = "r") -> Any:
    return ir.edge_chain(state.pattern_of("a", a), ir.rel(var, et.label), state.pattern_of("b", b))


# -- create --------------------------------------------------------------------------------------


def create_node(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """A new node with its required properties and a few optional ones, and the edges its
    type's total participation needs, to existing nodes."""
    candidates = [nt for nt in state.keyed_types() if state.mandatory_edges(nt) is not None]
    nt = _pick(rng, candidates)
    if nt is None:
        return None
    values = _required_values(state, nt, rng, extra=2)
    needs = state.mandatory_edges(nt)
    if values is None or needs is None:
        return None
    matched, created = [], [ir.single(ir.node("n", nt.label, values))]
    for i, (et, side, other_label) in enumerate(needs):
        others = [o for o in state.nodes_of(other_label) if state.can_take_edge(o, et, _flip(side))]
        other = _pick(rng, others)
        edge_values = _required_values(state, et, rng, extra=0)
        if other is None or edge_values is None or not _keyed(state, other_label):
            return None
        var = f"m{i}"
        matched.append(ir.single(state.pattern_of(var, other)))
        source, target = ("n", var) if side == "out" else (var, "n")
        rel = ir.rel(None, et.label, edge_values)
        created.append(ir.edge_chain(_bound(source), rel, _bound(target)))
    numbers = [n for n in values if n not in nt.keys and _is_number(nt, n)]
    items: list[tuple[e.Expr, str]] = [(ir.count_star(), "nodes")]
    if numbers:
        items.append(_numeric_summary(nt, numbers[0]))
    validation = ir.returning([ir.single(ir.node("n", nt.label))], items)
    edges = f" and {len(needs)} mandatory edge(s)" if needs else ""
    return PlannedStep(
        "create",
        "create_node",
        ir.create(matched, created),
        validation,
        f"create a {nt.label} node{edges}",
    )


def _flip(side: str) -> str:
    return "in" if side == "out" else "out"


def _bound(var: str) -> p.NodePattern:
    """A node pattern of a variable bound already (no label or properties repeated)."""
    return p.NodePattern(var)


def create_edge(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """A new edge of a many-to-many type between two existing nodes not yet connected by it."""
    et = _pick(rng, state.free_edge_types())
    if et is None:
        return None
    source_label, target_label = rng.choice(_endpoint_pairs(et))
    sources, targets = state.nodes_of(source_label), state.nodes_of(target_label)
    if not _keyed(state, source_label) or not _keyed(state, target_label):
        return None
    values = _required_values(state, et, rng, extra=1)
    if values is None:
        return None
    for _ in range(20):
        a, b = rng.choice(sources), rng.choice(targets)
        if a.id != b.id and not state.between(a, b, et.label):
            break
    else:
        return None
    matched = [ir.single(state.pattern_of("a", a)), ir.single(state.pattern_of("b", b))]
    created = [ir.edge_chain(_bound("a"), ir.rel(None, et.label, values), _bound("b"))]
    return PlannedStep(
        "create",
        "create_edge",
        ir.create(matched, created),
        _count_out(state, a, et, target_label),
        f"create a {et.label} edge ({source_label})->({target_label})",
    )


# -- merge ---------------------------------------------------------------------------------------


def merge_node(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """MERGE on a node's key: an existing key updates one property (ON MATCH), a new key
    creates the node with its required properties (ON CREATE; only for types that need no
    edges)."""
    nt = _pick(rng, [t for t in state.keyed_types() if _writable_props(t, optional=False)])
    if nt is None:
        return None
    creatable = state.mandatory_edges(nt) == []
    existing = state.nodes_of(nt.label)
    if existing and (not creatable or rng.random() < 0.5):
        target = rng.choice(existing)
        keys = state.key_values(target)
    elif creatable:
        target = None
        keys = {
            k: ir.literal(fresh_value(prop_type(nt, k), state.pool(nt, k), rng), prop_type(nt, k))
            for k in nt.keys
        }
    else:
        return None
    updated = rng.choice(_writable_props(nt, optional=False))
    current = target.properties.get(updated) if target is not None else None
    on_match = {
        updated: ir.literal(
            state.sample_value(nt, updated, rng, avoid=current), prop_type(nt, updated)
        )
    }
    on_create = _required_values(state, nt, rng, extra=1)
    if on_create is None:
        return None
    on_create = {k: v for k, v in on_create.items() if k not in nt.keys}
    write = ir.merge([], ir.single(ir.node("n", nt.label, keys)), "n", on_create, on_match)
    validation = ir.returning(
        [ir.single(ir.node("n", nt.label, keys))], [(ir.prop("n", updated), "value")]
    )
    what = "an existing" if target is not None else "a new"
    return PlannedStep(
        "merge", "merge_node", write, validation, f"merge {what} {nt.label} on its key"
    )


def merge_edge(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """MERGE of an edge between two existing nodes: created when missing (ON CREATE sets its
    required properties), left as it is when present."""
    et = _pick(rng, state.free_edge_types())
    if et is None:
        return None
    existing = _edge_with_ends(state, rng, et) if rng.random() < 0.5 else None
    if existing is not None:
        _, a, b, source_label, target_label = existing
    else:
        source_label, target_label = rng.choice(_endpoint_pairs(et))
        a, b = _pick(rng, state.nodes_of(source_label)), _pick(rng, state.nodes_of(target_label))
        if a is None or b is None or a.id == b.id:
            return None
        if not _keyed(state, source_label) or not _keyed(state, target_label):
            return None
    values = _required_values(state, et, rng, extra=1)
    if values is None:
        return None
    matched = [ir.single(state.pattern_of("a", a)), ir.single(state.pattern_of("b", b))]
    pattern = ir.edge_chain(_bound("a"), ir.rel("r", et.label), _bound("b"))
    write = ir.merge(matched, pattern, "r", values, {})
    return PlannedStep(
        "merge",
        "merge_edge",
        write,
        _count_out(state, a, et, target_label),
        f"merge a {et.label} edge ({source_label})->({target_label})",
    )


# -- set -----------------------------------------------------------------------------------------


def set_node_property(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """SET one property of a node found by its key to another value of the property."""
    nt = _pick(rng, [t for t in state.keyed_types() if _writable_props(t, optional=False)])
    n = _node_by_key(state, rng, nt) if nt is not None else None
    if n is None:
        return None
    name = rng.choice(_writable_props(nt, optional=False))
    value = state.sample_value(nt, name, rng, avoid=n.properties.get(name))
    write = ir.set_property(
        ir.single(state.pattern_of("n", n)), "n", name, ir.literal(value, prop_type(nt, name))
    )
    if _is_number(nt, name):
        validation = ir.returning([ir.single(ir.node("n", nt.label))], [_numeric_summary(nt, name)])
    else:
        validation = ir.returning(
            [ir.single(state.pattern_of("n", n))], [(ir.prop("n", name), "value")]
        )
    return PlannedStep("set", "set_node_property", write, validation, f"set {nt.label}.{name}")


def _edge_to_change(
    state: SessionState, rng: random.Random, *, optional: bool
) -> tuple[EdgeType, Relationship, GNode, GNode, str, str] | None:
    """An edge of a type with properties a step may write (``optional``: may remove)."""
    types = [t for t in state.schema.edge_types if _writable_props(t, optional=optional)]
    et = _pick(rng, types)
    found = _edge_with_ends(state, rng, et) if et is not None else None
    return (et, *found) if found is not None else None


def set_edge_property(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """SET one property of the edges of a type between two nodes found by their keys."""
    found = _edge_to_change(state, rng, optional=False)
    if found is None:
        return None
    et, r, a, b, _, _ = found
    name = rng.choice(_writable_props(et, optional=False))
    value = state.sample_value(et, name, rng, avoid=r.properties.get(name))
    chain = _edge_pattern(state, a, et, b)
    write = ir.set_property(chain, "r", name, ir.literal(value, prop_type(et, name)))
    validation = ir.returning([chain], [(ir.prop("r", name), "value")])
    return PlannedStep("set", "set_edge_property", write, validation, f"set {et.label}.{name}")


# -- remove --------------------------------------------------------------------------------------


def remove_node_property(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """REMOVE an optional property a node has."""
    options = [
        (nt, n, name)
        for nt in state.keyed_types()
        for name in _writable_props(nt, optional=True)
        for n in state.nodes_of(nt.label)[:50]
        if n.properties.get(name) is not None
    ]
    choice = _pick(rng, options)
    if choice is None:
        return None
    nt, n, name = choice
    write = ir.remove_property(ir.single(state.pattern_of("n", n)), "n", name)
    validation = ir.returning(
        [ir.single(ir.node("n", nt.label))],
        [(ir.count_star(), "missing")],
        where=ir.is_null(ir.prop("n", name)),
    )
    return PlannedStep(
        "remove", "remove_node_property", write, validation, f"remove {nt.label}.{name}"
    )


def remove_edge_property(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """REMOVE an optional property from the edges of a type between two nodes."""
    found = _edge_to_change(state, rng, optional=True)
    if found is None:
        return None
    et, r, a, b, source_label, target_label = found
    names = [x for x in _writable_props(et, optional=True) if r.properties.get(x) is not None]
    if not names:
        return None
    name = rng.choice(names)
    write = ir.remove_property(_edge_pattern(state, a, et, b), "r", name)
    chain = ir.edge_chain(
        ir.node(None, source_label), ir.rel("r", et.label), ir.node(None, target_label)
    )
    validation = ir.returning(
        [chain], [(ir.count_star(), "missing")], where=ir.is_null(ir.prop("r", name))
    )
    return PlannedStep(
        "remove", "remove_edge_property", write, validation, f"remove {et.label}.{name}"
    )


# -- delete --------------------------------------------------------------------------------------


def delete_edge(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """DELETE the edges of a type between two nodes, where both ends keep the edges their
    participation needs."""
    et = _pick(rng, [t for t in state.schema.edge_types if not state.implied(t)])
    if et is None:
        return None
    for _ in range(10):
        found = _edge_with_ends(state, rng, et)
        if found is None:
            return None
        r, a, b, _, target_label = found
        if state.edge_deletable(r, et):
            write = ir.delete(_edge_pattern(state, a, et, b), "r", detach=False)
            return PlannedStep(
                "delete",
                "delete_edge",
                write,
                _count_out(state, a, et, target_label),
                f"delete a {et.label} edge",
            )
    return None


def delete_node(state: SessionState, rng: random.Random) -> PlannedStep | None:
    """DETACH DELETE a node whose neighbours keep the edges their participation needs."""
    nt = _pick(rng, state.keyed_types())
    if nt is None:
        return None
    nodes = state.nodes_of(nt.label)
    for _ in range(10):
        n = _pick(rng, nodes)
        if n is not None and state.node_deletable(n):
            write = ir.delete(ir.single(state.pattern_of("n", n)), "n", detach=True)
            return PlannedStep(
                "delete", "delete_node", write, _count_nodes(nt.label), f"delete a {nt.label} node"
            )
    return None


TEMPLATES: dict[str, tuple[Template, ...]] = {
    "create": (create_node, create_edge),
    "merge": (merge_node, merge_edge),
    "set": (set_node_property, set_edge_property),
    "remove": (remove_node_property, remove_edge_property),
    "delete": (delete_edge, delete_node),
}


def plan_step(state: SessionState, operation: str, rng: random.Random) -> PlannedStep | None:
    """A step of ``operation``: its templates tried in a seeded order, each a few times."""
    templates = list(TEMPLATES[operation])
    rng.shuffle(templates)
    for template in templates:
        for _ in range(5):
            step = template(state, rng)
            if step is not None:
                return step
    return None


__all__ = ["OPERATIONS", "TEMPLATES", "PlannedStep", "plan_step"]
