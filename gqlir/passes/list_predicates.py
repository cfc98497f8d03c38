"""Cypher's list predicates written with list comprehensions, for a target without them.

TuGraph's Cypher marks ``all()``, ``any()``, ``none()`` and ``single()`` "Not supported"
(TuGraph-family/tugraph-db docs/en-US/source/8.query/1.cypher.md, section 3.1) while its
grammar keeps openCypher's list comprehension (Lcypher.g4 ``oC_ListComprehension``, read by
grammars/tugraph-cypher.lark). A list predicate is a count of the items for which the
predicate is true (``T``), false (``F``) or null (``U``), each a ``size()`` of a filtered
comprehension: ``T = size([x IN l WHERE p])``, ``F = size([x IN l WHERE NOT p])``,
``U = size([x IN l WHERE p IS NULL])``. Cypher's three-valued answers (openCypher 9,
"List predicates"; gqlir/eval/expressions.py ``e_ListPredicate``) are then

* ``all``:    ``CASE WHEN F > 0 THEN false WHEN U = 0 THEN true END``
* ``any``:    ``CASE WHEN T > 0 THEN true WHEN U = 0 THEN false END``
* ``none``:   ``CASE WHEN T > 0 THEN false WHEN U = 0 THEN true END``
* ``single``: ``CASE WHEN T > 1 THEN false WHEN U = 0 THEN T = 1 END``

A CASE without ELSE is null, which is the answer both for "some unknown and nothing decisive"
and for a null list (``size(null)`` is null, so no WHEN holds). The list and the predicate are
evaluated more than once, so a predicate or list that calls a function whose value changes
between calls (``rand()``) stays refused.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node

__all__ = ["applies", "lower_list_predicates"]

#: functions whose value may differ between two calls with the same arguments
_VOLATILE = frozenset({"rand", "randomuuid", "timestamp"})


def applies(target: Dialect) -> bool:
    """A target without list predicates but with list comprehensions."""
    caps = target.capabilities
    return not caps.list_predicates and caps.list_comprehension


def lower_list_predicates(root: Node, target: Dialect) -> Node:
    """``root`` with every list predicate whose parts may be evaluated twice written as CASE
    over sizes of list comprehensions."""
    if not applies(target):
        return root
    return root.transform(_rewrite)


def _repeatable(node: e.Expr | None) -> bool:
    if node is None:
        return True
    for inner in node.walk():
        if isinstance(inner, e.FunctionCall) and (
            inner.name in _VOLATILE or inner.name.endswith((".realtime", ".statement"))
        ):
            return False
    return True


def _rewrite(node: Node) -> Node:
    if not isinstance(node, e.ListPredicate):
        return node
    if not (_repeatable(node.source) and _repeatable(node.predicate)):
        return node
    at = node.pos
    test: e.Expr = node.predicate if node.predicate is not None else e.Variable(node.variable)

    def count(where: e.Expr) -> e.Expr:
        listed = e.ListComprehension(node.variable, node.source, where, None, pos=at)
        return e.FunctionCall("size", (listed,), pos=at)

    def above(value: e.Expr, n: int) -> e.Expr:
        return e.Comparison(e.CompOp.GT, value, e.Integer(n))

    def none_unknown() -> e.Expr:
        return e.Comparison(e.CompOp.EQ, count(e.IsNull(test)), e.Integer(0))

    true, false = e.Boolean(True), e.Boolean(False)
    quantifier = node.quantifier
    if quantifier is e.ListQuantifier.ALL:
        whens = (
            e.CaseWhen(above(count(e.Not(test)), 0), false),
            e.CaseWhen(none_unknown(), true),
        )
    elif quantifier is e.ListQuantifier.ANY:
        whens = (e.CaseWhen(above(count(test), 0), true), e.CaseWhen(none_unknown(), false))
    elif quantifier is e.ListQuantifier.NONE:
        whens = (e.CaseWhen(above(count(test), 0), false), e.CaseWhen(none_unknown(), true))
    else:
        trues = count(test)
        whens = (
            e.CaseWhen(above(trues, 1), false),
            e.CaseWhen(none_unknown(), e.Comparison(e.CompOp.EQ, trues, e.Integer(1))),
        )
    return e.Case(None, whens, None, pos=at)
