"""Cypher's arithmetic operators in GQL's vocabulary, by operand types.

* ``a % b`` is ``MOD(a, b)``: GQL has no ``%`` operator, and its MOD takes exact numbers
  (ISO/IEC 39075 20.21 ``modulusExpression``), so ``%`` on a float is refused.
* ``a ^ b`` is ``POWER(a, b)`` (20.22 ``powerFunction``), its base cast to FLOAT unless the
  target's POWER already computes in floats (``power_is_float``,
  ``power_of_integers_is_float``): Cypher's ``^`` always gives a float (openCypher 9,
  "Mathematical operators").
* GQL's numeric ``+`` (``ArithOp.ADD_NUMBERS``, as a GQL source reads it) is written as ``+``
  with its operands known to be numbers.
* ``a / b`` read as float division (``DIV_FLOAT``) divides a float where the target's ``/`` of
  integers truncates; an integer ``/`` where the target's ``/`` does not truncate
  (``integer_division``) is refused; a float divided by a literal zero is refused (NaN or
  Infinity in Cypher, a data exception in GQL, 20.21 general rules).
"""

from __future__ import annotations

from typing import Any

from ..ir import expr as e
from ..ir import marks

__all__ = ["arithmetic", "touches"]

#: The operators these rules rewrite or check (``+``, ``-``, ``*`` are other passes').
OPS = frozenset(
    {e.ArithOp.ADD_NUMBERS, e.ArithOp.DIV_FLOAT, e.ArithOp.MOD, e.ArithOp.POW, e.ArithOp.DIV}
)


def touches(op: e.ArithOp) -> bool:
    return op in OPS


def arithmetic(walk: Any, node: e.Arithmetic) -> e.Expr:
    op = node.op
    if op not in OPS:
        return node  # (Cypher's + is the pass polymorphic_plus's)
    if op is e.ArithOp.ADD_NUMBERS:
        return e.FunctionCall(marks.ADD, (node.left, node.right), pos=node.pos)
    caps = walk.caps
    if op is e.ArithOp.DIV_FLOAT:
        if caps.integer_division == "float":
            return node
        # GoogleSQL's / of integers is a float quotient: divide a float
        floats = walk.type_of(node.left).kind == "float"
        left = node.left if floats else e.Cast(node.left, e.TypeRef("FLOAT"))
        return e.Arithmetic(e.ArithOp.DIV, left, node.right, pos=node.pos)
    right = node.right
    if (
        op is e.ArithOp.DIV
        and caps.integer_division == "truncate"
        and not (isinstance(right, (e.Integer, e.Float)) and right.value == 0)
    ):
        return node  # (Cypher's /, with no literal zero to divide by)
    lt, rt = walk.type_of(node.left), walk.type_of(right)
    if op is e.ArithOp.MOD:
        if "float" in (lt.kind, rt.kind):
            raise walk.unsupported("% on floats", node, message="GQL's MOD takes exact numbers")
        return e.FunctionCall(marks.MOD, (node.left, node.right), pos=node.pos)
    if op is e.ArithOp.POW:
        floats = ("float", "integer") if caps.power_of_integers_is_float else ("float",)
        exact = lt.kind not in floats and not caps.power_is_float
        base = e.Cast(node.left, e.TypeRef("FLOAT")) if exact else node.left
        return e.FunctionCall(marks.POWER, (base, node.right), pos=node.pos)
    # op is DIV
    if (
        isinstance(node.right, (e.Integer, e.Float))
        and node.right.value == 0
        and "float" in (lt.kind, rt.kind)
    ):
        raise walk.unsupported(
            "float division by zero",
            node,
            message="Cypher divides floats by zero to NaN or Infinity; GQL raises a "
            "division-by-zero exception",
        )
    if caps.integer_division != "truncate" and "float" not in (lt.kind, rt.kind):
        raise walk.unsupported(
            "integer division",
            node,
            rewrite="CAST an operand to FLOAT for a float quotient",
        )
    return node
