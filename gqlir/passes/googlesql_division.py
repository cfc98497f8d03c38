"""Cypher's integer division written as GoogleSQL's ``DIV``.

Cypher divides two integers by truncating toward zero (``7 / 2`` is 3, ``-7 / 2`` is -3) and
fails on a zero divisor; GoogleSQL's ``/`` on INT64 operands gives a FLOAT64
(dialects/spanner.toml: ``integer_division = "float"``), and ``DIV(X, Y)`` "returns the result
of integer division of X by Y. Division by zero returns an error", truncating toward zero
(``DIV(12, -7)`` is -1) (https://cloud.google.com/spanner/docs/reference/standard-sql/
mathematical_functions#div). So a ``/`` whose operands are both known to be integers is
``DIV``; where an operand may be a float the quotient's type is unknown and the printer refuses
it as before.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node

#: canonical functions whose value is an integer (or null) whatever their arguments
_INTEGER_FUNCTIONS = frozenset({"size", "length", "char_length", "sign", "googlesql.div"})


def known_integer(node: e.Expr) -> bool:
    """Is ``node``'s value an integer or null whenever it is not an error?"""
    if isinstance(node, (e.Integer, e.CountStar)):
        return True
    if isinstance(node, (e.Negate, e.UnaryPlus)):
        return known_integer(node.operand)
    if isinstance(node, e.Arithmetic):
        # two integers add, subtract, multiply, divide and take remainders to an integer; ^
        # gives a float
        if node.op is e.ArithOp.POW:
            return False
        return known_integer(node.left) and known_integer(node.right)
    if isinstance(node, e.Aggregate):
        return node.name == "count"
    if isinstance(node, e.FunctionCall):
        return node.name in _INTEGER_FUNCTIONS
    return False


def lower_integer_division(root: Node, target: Dialect) -> Node:
    """``root`` with each ``/`` of two known integers as ``DIV`` where ``target``'s ``/`` gives
    a float and it spells ``DIV``."""
    if target.capabilities.integer_division != "float" or "googlesql.div" not in target.functions:
        return root

    def rewrite(node: Node) -> Node:
        if (
            isinstance(node, e.Arithmetic)
            and node.op is e.ArithOp.DIV
            and known_integer(node.left)
            and known_integer(node.right)
        ):
            return e.FunctionCall("googlesql.div", (node.left, node.right), pos=node.pos)
        return node

    return root.transform(rewrite)
