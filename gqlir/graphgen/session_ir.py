"""Graph-IR for management sessions: the write statements (CREATE, MERGE, SET, REMOVE, DELETE)
and the read-only validation queries, built as IR nodes so that every dialect's text comes
from the emitters, never from string templates (NGDBench fills ``$NAME`` placeholders by text
replacement, with the quoting errors that brings)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..eval import temporal as tm
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..schema.types import INTEGER_KINDS, PropertyType, TypeKind
from .errors import GraphGenError

K = TypeKind

#: property kinds a session writes (every dialect has a literal for them with one meaning)
WRITABLE_KINDS = frozenset(
    {*INTEGER_KINDS, K.FLOAT32, K.FLOAT64, K.STRING, K.BOOLEAN, K.DATE, K.LIST}
)

_TEMPORAL_LITERALS = {K.DATE: e.TemporalKind.DATE}


def writable(t: PropertyType) -> bool:
    """Whether a session may write values of type ``t``: numbers, texts, booleans, dates and
    lists of texts or numbers (decimals and instants have no literal every engine reads the
    same way)."""
    if t.kind == K.LIST:
        return t.element is not None and t.element.kind in (K.STRING, *INTEGER_KINDS)
    return t.kind in WRITABLE_KINDS


def literal(value: Any, t: PropertyType) -> e.Expr:
    """The IR literal of a property value (an evaluator value) of type ``t``."""
    if value is None:
        return e.Null()
    k = t.kind
    if k in _TEMPORAL_LITERALS:
        if not isinstance(value, (str, tm.Date)):
            raise GraphGenError(f"a {k.value} value is needed, got {value!r}")
        return e.TemporalLiteral(_TEMPORAL_LITERALS[k], str(value))
    if k == K.LIST:
        assert t.element is not None
        return e.ListLiteral(tuple(literal(x, t.element) for x in value))
    if k == K.BOOLEAN:
        return e.Boolean(bool(value))
    if k in INTEGER_KINDS:
        return e.Integer(int(value))
    if k in (K.FLOAT32, K.FLOAT64):
        f = float(value)
        if not math.isfinite(f):
            raise GraphGenError(f"a finite number is needed, got {value!r}")
        return e.Float(f)
    if k == K.STRING:
        return e.String(str(value))
    raise GraphGenError(f"sessions do not write {k.value} values")


def props_map(values: Mapping[str, e.Expr]) -> e.MapLiteral | None:
    return e.MapLiteral(tuple(values.items())) if values else None


def node(var: str | None, label: str, values: Mapping[str, e.Expr] | None = None) -> p.NodePattern:
    return p.NodePattern(var, p.Label(label), props_map(values or {}))


def edge_chain(source: p.NodePattern, rel: p.RelPattern, target: p.NodePattern) -> p.PathPattern:
    return p.PathPattern(p.PathChain((source, rel, target)))


def rel(
    var: str | None, edge_type: str, values: Mapping[str, e.Expr] | None = None
) -> p.RelPattern:
    return p.RelPattern(p.Direction.OUT, var, p.Label(edge_type), props_map(values or {}))


def single(pattern: p.NodePattern) -> p.PathPattern:
    return p.PathPattern(p.PathChain((pattern,)))


def match(*patterns: p.PathPattern, where: e.Expr | None = None) -> q.Match:
    return q.Match(tuple(patterns), where)


def query(*steps: q.Step) -> q.LinearQuery:
    return q.LinearQuery(tuple(steps))


def set_items(var: str, values: Mapping[str, e.Expr]) -> tuple[q.SetProperty, ...]:
    return tuple(q.SetProperty(e.Variable(var), k, v) for k, v in values.items())


# -- writes --------------------------------------------------------------------------------------


def create(matched: Sequence[p.PathPattern], created: Sequence[p.PathPattern]) -> q.LinearQuery:
    """``[MATCH matched] CREATE created``: new nodes and edges, tied to existing nodes found by
    their keys."""
    steps: list[q.Step] = [match(*matched)] if matched else []
    steps.append(q.Create(tuple(created)))
    return query(*steps)


def merge(
    matched: Sequence[p.PathPattern],
    pattern: p.PathPattern,
    var: str,
    on_create: Mapping[str, e.Expr],
    on_match: Mapping[str, e.Expr],
) -> q.LinearQuery:
    """``[MATCH matched] MERGE pattern ON CREATE SET … ON MATCH SET …``."""
    actions = []
    if on_create:
        actions.append(q.MergeAction(True, set_items(var, on_create)))
    if on_match:
        actions.append(q.MergeAction(False, set_items(var, on_match)))
    steps: list[q.Step] = [match(*matched)] if matched else []
    steps.append(q.Merge(pattern, tuple(actions)))
    return query(*steps)


def set_property(found: p.PathPattern, var: str, key: str, value: e.Expr) -> q.LinearQuery:
    return query(match(found), q.SetClause(set_items(var, {key: value})))


def remove_property(found: p.PathPattern, var: str, key: str) -> q.LinearQuery:
    return query(match(found), q.Remove((q.RemoveProperty(e.Variable(var), key),)))


def delete(found: p.PathPattern, var: str, *, detach: bool) -> q.LinearQuery:
    return query(match(found), q.Delete((e.Variable(var),), detach=detach))


# -- validation queries --------------------------------------------------------------------------


def prop(var: str, key: str) -> e.Property:
    return e.Property(e.Variable(var), key)


def returning(
    found: Sequence[p.PathPattern],
    items: Sequence[tuple[e.Expr, str]],
    *,
    where: e.Expr | None = None,
    order: bool = False,
) -> q.LinearQuery:
    """``MATCH found [WHERE …] RETURN items [ORDER BY items]``."""
    returned = tuple(q.ReturnItem(x, alias) for x, alias in items)
    order_by = tuple(q.SortItem(e.Variable(alias)) for _, alias in items) if order else ()
    return query(match(*found, where=where), q.Projection(returned, order_by=order_by))


def count_star() -> e.CountStar:
    return e.CountStar()


def aggregate(name: str, x: e.Expr) -> e.Aggregate:
    return e.Aggregate(name, (x,))


def is_null(x: e.Expr) -> e.IsNull:
    return e.IsNull(x)


__all__ = [
    "WRITABLE_KINDS",
    "aggregate",
    "count_star",
    "create",
    "delete",
    "edge_chain",
    "is_null",
    "literal",
    "match",
    "merge",
    "node",
    "prop",
    "query",
    "rel",
    "remove_property",
    "returning",
    "set_property",
    "single",
    "writable",
]
