"""``type(r)`` and ``labels(n)`` under a schema whose elements carry one label each.

GQL has no function that names an element's label (ISO/IEC 39075 offers only the label test
``IS LABELED``, 19.9 ``labeledPredicate``), but where the schema gives every edge (node) exactly
one label of a known set, that label is the one a CASE finds by testing each: ``type(r)`` is
``CASE WHEN r IS LABELED T1 THEN 'T1' … END`` and ``labels(n)`` the list of that label (null
for a null node, as in Cypher). Only for a value known to be of that kind (a node with an
edge's label would pass an edge's test) that may be evaluated once per test. A target with
a LABELS function (Spanner) keeps ``labels(n)``.
"""

from __future__ import annotations

from typing import Any

from ..ir import expr as e
from ..ir import pattern as p
from .element_references import label_test
from .exprs import pure

__all__ = ["edge_labels", "label_function", "node_labels"]


def edge_labels(schema: Any) -> tuple[str, ...]:
    """The edge labels of ``schema`` when each edge carries exactly one of them (no edge type
    implies another's label), else none: then ``type(r)`` is the one label ``r`` has."""
    types = schema.edge_types
    if not types or any(t.implies for t in types):
        return ()
    return tuple(sorted({t.label for t in types}))


def node_labels(schema: Any) -> tuple[str, ...]:
    """The node labels of ``schema`` when each node carries exactly one of them (no node type
    has extra labels), else none: then ``labels(n)`` is the list of that one label."""
    types = schema.node_types
    if not types or any(t.extra_labels for t in types):
        return ()
    return tuple(sorted({t.label for t in types}))


def label_function(walk: Any, node: e.FunctionCall) -> e.Expr:
    name, args = node.name, node.args
    if len(args) != 1:
        return node
    if name == "type" and walk.edge_labels:
        return _label_of(walk, node, "edge", walk.edge_labels)
    if name == "labels" and walk.node_labels and "labels" not in walk.dialect.functions:
        label = _label_of(walk, node, "node", walk.node_labels)
        if label is node:
            return node
        missing = e.CaseWhen(e.IsNull(args[0]), e.Null())  # labels(null) is null
        return e.Case(None, (missing,), e.ListLiteral((label,)), pos=node.pos)
    return node


def _label_of(walk: Any, node: e.FunctionCall, kind: str, labels: tuple[str, ...]) -> e.Expr:
    (element,) = node.args
    if walk.type_of(element).kind != kind or not pure(element):
        return node
    whens = [
        e.CaseWhen(label_test(e.HasLabels(element, p.Label(label))), e.String(label))
        for label in labels
    ]
    return e.Case(None, tuple(whens), e.Null(), pos=node.pos)
