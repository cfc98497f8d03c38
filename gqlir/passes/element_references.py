"""GQL's element predicates and ELEMENT_ID take element variables, not expressions.

ISO GQL's grammar (opengql/grammar GQL.g4) writes ``directedPredicate : elementVariableReference
…`` (19.8), ``sourceDestinationPredicate : nodeReference …`` with ``nodeReference`` and
``edgeReference : elementVariableReference`` (19.10), ``allDifferentPredicate`` /
``samePredicate : … LEFT_PAREN elementVariableReference COMMA elementVariableReference (COMMA
elementVariableReference)* RIGHT_PAREN`` and ``propertyExistsPredicate : PROPERTY_EXISTS
LEFT_PAREN elementVariableReference COMMA propertyName RIGHT_PAREN``, and ``elementIdFunction :
ELEMENT_ID LEFT_PAREN elementVariableReference RIGHT_PAREN``. So where the target writes the
predicate, one whose operand is another expression (``startNode(r) IS SOURCE OF r``), or
SAME / ALL_DIFFERENT of fewer than two elements, is refused with the rewrite "bind the element to
a variable first"; ``elementId()`` of an expression is refused for every GQL target, and so
is a label test of one (``labeledPredicate : elementVariableReference isLabeledOrColon
labelExpression``, 19.9; the Cypher ``startNode(r):A`` or ``(n.x):A``). The
refusal stays in the IR (:class:`~gqlir.ir.expr.Untranslatable`) so the printer raises it where
the query writes it. A predicate the target lacks altogether is the printer's capability
refusal (``element_predicates``), which comes first.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import predicates as pr
from ..ir.node import Node

__all__ = ["KINDS", "label_test", "lower_element_references"]

#: The node kinds this pass may refuse.
KINDS = frozenset(
    {pr.IsDirected, pr.IsEndpoint, pr.Same, pr.AllDifferent, pr.PropertyExists, e.HasLabels}
)

_REWRITE = "bind the element to a variable first"


def lower_element_references(root: Node, target: Dialect) -> Node:
    """``root`` with each element reference GQL cannot write refused in place."""
    forms = target.capabilities.element_predicates

    def rewrite(node: Node) -> Node:
        cls = type(node)
        if cls is e.FunctionCall:
            return _element_id(node)  # type: ignore[arg-type]
        if cls is e.HasLabels:
            return label_test(node)  # type: ignore[arg-type]
        if cls not in KINDS or not isinstance(node, e.Expr):
            return node
        construct, operands = _operands(node)
        form = "IS SOURCE OF" if cls is pr.IsEndpoint else construct
        if form not in forms:
            return node  # the printer's capability refusal
        if cls in (pr.Same, pr.AllDifferent) and len(operands) < 2:
            return _refused(node, f"{construct} of fewer than two elements", "")
        if all(isinstance(x, e.Variable) for x in operands):
            return node
        return _refused(node, construct, _REWRITE)

    return root.transform(rewrite)


def _operands(node: e.Expr) -> tuple[str, tuple[e.Expr, ...]]:
    """The predicate's name as GQL writes it and its element operands."""
    if isinstance(node, pr.IsDirected):
        return "IS DIRECTED", (node.operand,)
    if isinstance(node, pr.IsEndpoint):
        return f"IS {node.endpoint.value} OF", (node.node, node.edge)
    if isinstance(node, pr.Same):
        return "SAME", node.elements
    if isinstance(node, pr.AllDifferent):
        return "ALL_DIFFERENT", node.elements
    assert isinstance(node, pr.PropertyExists)
    return "PROPERTY_EXISTS", (node.subject,)


def label_test(node: e.HasLabels) -> e.Expr:
    """``node``, or its refusal where its subject is not a variable (also for the label tests
    other passes build)."""
    if isinstance(node.subject, e.Variable):
        return node
    return _refused(node, "label test on an expression", _REWRITE)


def _element_id(node: e.FunctionCall) -> e.Expr:
    args = node.args
    if node.name != "elementid" or (len(args) == 1 and isinstance(args[0], e.Variable)):
        return node
    return _refused(node, "elementId() of an expression", _REWRITE)


def _refused(node: e.Expr, construct: str, rewrite: str) -> e.Expr:
    return e.Untranslatable(node, construct, "", rewrite, pos=node.pos)
