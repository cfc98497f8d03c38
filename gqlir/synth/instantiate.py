"""Substituting a binding into a template: every hole becomes the IR it stands for, and the
result is a concrete query (no holes left)."""

from __future__ import annotations

from dataclasses import replace

from .. import ir
from ..schema.model import SchemaGraph
from .binder import Binding
from .errors import SynthError
from .holes import (
    AggregateHole,
    LabelHole,
    OperatorHole,
    PropertyHole,
    QuantifierHole,
    SortHole,
    ValueHole,
    holes_in,
)


def _label(hole: LabelHole, b: Binding) -> ir.Label:
    table = dict(b.assignment.labels if hole.kind == "node" else b.assignment.types)
    if hole.name not in table:
        raise SynthError(f"hole {hole.name} has no {hole.kind} label")
    return ir.Label(table[hole.name])


def _operator(node: OperatorHole, b: Binding) -> ir.Expr:
    op = b.ops.get(node.name, ir.CompOp.EQ)
    if isinstance(op, ir.StringOp):
        return ir.StringMatch(op, node.left, node.right)
    return ir.Comparison(op, node.left, node.right)


def _aggregate(node: AggregateHole, b: Binding) -> ir.Expr:
    name = b.aggs.get(node.name, "count")
    if name == "count_distinct":
        return ir.Aggregate("count", (node.arg,), distinct=True)
    return ir.Aggregate(name, (node.arg,))


def substitute(query: ir.Query, b: Binding, schema: SchemaGraph) -> ir.Query:
    """The concrete query of ``query`` under ``b``. A relationship of a symmetric type is
    matched in either direction: the relation is stored once, whichever way."""

    def fill(node: ir.Node) -> ir.Node:
        if isinstance(node, ir.NodePattern) and isinstance(node.labels, LabelHole):
            return replace(node, labels=_label(node.labels, b))
        if isinstance(node, ir.RelPattern):
            if isinstance(node.types, LabelHole):
                node = replace(node, types=_label(node.types, b))
            if isinstance(node.quantifier, QuantifierHole):
                lower, upper = b.hops[node.quantifier.name]
                node = replace(node, quantifier=ir.Quantifier(lower, upper))
            edge = schema.edge(node.types.name) if isinstance(node.types, ir.Label) else None
            if edge is not None and edge.symmetric and node.direction is not ir.Direction.EITHER:
                node = replace(node, direction=ir.Direction.EITHER)
            return node
        if isinstance(node, PropertyHole):
            return ir.Property(node.subject, b.props[(node.variable, node.name)])
        if isinstance(node, ValueHole):
            return b.values[node.name]
        if isinstance(node, OperatorHole):
            return _operator(node, b)
        if isinstance(node, AggregateHole):
            return _aggregate(node, b)
        if isinstance(node, SortHole):
            descending = b.dirs.get(node.name, False)
            return ir.SortItem(node.expr, descending=descending, nulls_first=descending)
        return node

    concrete = query.transform(fill)
    left = next(holes_in(concrete), None)
    if left is not None:
        raise SynthError(f"a {type(left).__name__} was left unfilled")
    assert isinstance(concrete, ir.Query)  # holes are in the query's parts, never the query
    return concrete
