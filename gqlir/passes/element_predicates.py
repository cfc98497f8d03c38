"""GQL's element predicates and ``ELEMENTS()`` in Cypher, which has neither (pass ``element-predicates``).

GQL tests graph elements with ``SAME``, ``ALL_DIFFERENT``, ``IS DIRECTED``, ``IS SOURCE OF`` /
``IS DESTINATION OF`` and ``PROPERTY_EXISTS``, and lists a path's nodes and edges in order with
``ELEMENTS(p)`` (opengql/grammar ``GQL.g4``: ``samePredicate``, ``allDifferentPredicate``,
``directedPredicate``, ``sourceDestinationPredicate``, ``propertyExistsPredicate``,
``elementsFunction``). Cypher says each with its own vocabulary:

* ``SAME(a, b, c)`` is ``a = b AND b = c``, ``ALL_DIFFERENT(a, b, c)`` every pair ``<>``;
* ``e IS DIRECTED`` is true (Cypher's relationships are all directed);
* ``n IS SOURCE OF e`` is ``startNode(e) = n``, ``IS DESTINATION OF`` ``endNode(e) = n``;
* ``PROPERTY_EXISTS(n, k)`` is ``n.k IS NOT NULL`` (a property is absent exactly when null);
* ``ELEMENTS(p)`` is ``nodes(p)`` and ``relationships(p)`` interleaved:
  ``[i IN range(0, 2 * length(p)) | CASE WHEN i % 2 = 0 THEN nodes(p)[i / 2] ELSE
  relationships(p)[i / 2] END]``, null for a null path.

GQL's element predicates are unknown on a null reference, where Cypher's AND, IS NOT NULL and
constants are not: such a test is null where an operand is (a single comparison already is).
An operand that is not a variable is refused in place (an :class:`~gqlir.ir.expr.Untranslatable`
the printer raises where it writes it): each spelling repeats its operand, which would be
evaluated more than once (bind it to a variable first).
"""

from __future__ import annotations

import itertools

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import predicates as pr
from ..ir.node import Node

__all__ = ["KINDS", "lower_element_predicates"]

#: The IR nodes the pass rewrites (``elements()`` is found by name).
KINDS = frozenset({pr.Same, pr.AllDifferent, pr.IsDirected, pr.IsEndpoint, pr.PropertyExists})


def lower_element_predicates(node: Node, target: Dialect) -> Node:
    """Every GQL element predicate and ``ELEMENTS(p)`` of ``node`` in Cypher's vocabulary."""
    return node.transform(_lower)


def _lower(node: Node) -> Node:
    cls = type(node)
    if cls is e.FunctionCall:
        if node.name == "elements" and len(node.args) == 1:  # type: ignore[attr-defined]
            if not isinstance(node.args[0], e.Variable):  # type: ignore[attr-defined]
                return _refused(node, "ELEMENTS() of an expression", _BIND_PATH)
            return _path_elements(node)  # type: ignore[arg-type]
        return node
    if cls is pr.Same:
        return _pairwise(node, node.elements, e.CompOp.EQ)  # type: ignore[attr-defined]
    if cls is pr.AllDifferent:
        return _pairwise(node, node.elements, e.CompOp.NE)  # type: ignore[attr-defined]
    if cls is pr.IsDirected:
        if not isinstance(node.operand, e.Variable):  # type: ignore[attr-defined]
            return _refused(node, "IS DIRECTED")
        value = e.Boolean(not node.negated)  # type: ignore[attr-defined]
        return _null_if_any_null((node.operand,), value)  # type: ignore[attr-defined]
    if cls is pr.IsEndpoint:
        end = "startnode" if node.endpoint is pr.Endpoint.SOURCE else "endnode"  # type: ignore[attr-defined]
        op = e.CompOp.NE if node.negated else e.CompOp.EQ  # type: ignore[attr-defined]
        return e.Comparison(op, e.FunctionCall(end, (node.edge,)), node.node)  # type: ignore[attr-defined]
    if cls is pr.PropertyExists:
        if not isinstance(node.subject, e.Variable):  # type: ignore[attr-defined]
            return _refused(node, "PROPERTY_EXISTS")
        test = e.IsNull(e.Property(node.subject, node.key), negated=True)  # type: ignore[attr-defined]
        return _null_if_any_null((node.subject,), test)  # type: ignore[attr-defined]
    return node


_BIND_PATH = "bind the path to a variable first"


def _refused(node: Node, construct: str, rewrite: str = "") -> e.Expr:
    """``node``, whose operand is not a variable, refused where the printer writes it."""
    return e.Untranslatable(node, construct, "", rewrite, pos=node.pos)  # type: ignore[arg-type]


def _pairwise(node: Node, elements: tuple[e.Expr, ...], op: e.CompOp) -> Node:
    """``SAME`` (each with the next) or ``ALL_DIFFERENT`` (every pair) of variables."""
    if not all(isinstance(x, e.Variable) for x in elements):
        name = "SAME" if op is e.CompOp.EQ else "ALL_DIFFERENT"
        return _refused(node, name, "bind the elements to variables first")
    pairs = (
        list(itertools.pairwise(elements))
        if op is e.CompOp.EQ
        else [(a, b) for i, a in enumerate(elements) for b in elements[i + 1 :]]
    )
    test: e.Expr = e.Comparison(op, *pairs[0])
    for a, b in pairs[1:]:
        test = e.And(test, e.Comparison(op, a, b))
    if len(pairs) == 1:
        return test  # a single comparison is null exactly when an operand is
    return _null_if_any_null(elements, test)


def _path_elements(node: e.FunctionCall) -> e.Expr:
    (path,) = node.args
    assert isinstance(path, e.Variable)  # (of an expression: refused by _lower)
    i = next(f"_i{n}" for n in range(1, 10_000) if f"_i{n}" != path.name)
    at = e.Variable(i)
    half = e.Arithmetic(e.ArithOp.DIV, at, e.Integer(2))
    even = e.Comparison(e.CompOp.EQ, e.Arithmetic(e.ArithOp.MOD, at, e.Integer(2)), e.Integer(0))
    pick = e.Case(
        None,
        (e.CaseWhen(even, e.Index(e.FunctionCall("nodes", (path,)), half)),),
        e.Index(e.FunctionCall("relationships", (path,)), half),
    )
    length = e.Arithmetic(e.ArithOp.MUL, e.Integer(2), e.FunctionCall("length", (path,)))
    positions = e.FunctionCall("range", (e.Integer(0), length))
    listed = e.ListComprehension(i, positions, None, pick)
    missing = e.CaseWhen(e.IsNull(path), e.Null())
    return e.Case(None, (missing,), listed, pos=node.pos)


def _null_if_any_null(operands: tuple[e.Expr, ...], value: e.Expr) -> e.Expr:
    """``value``, or null where an operand is null."""
    test: e.Expr = e.IsNull(operands[0])
    for x in operands[1:]:
        test = e.Or(test, e.IsNull(x))
    return e.Case(None, (e.CaseWhen(test, e.Null()),), value)
