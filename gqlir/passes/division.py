"""Division across dialects whose ``/`` differs on two integers.

The IR's ``/`` follows the reading dialect's ``integer_division`` capability: Cypher truncates
(``7 / 2`` is 3), GoogleSQL returns a float (3.5; Spanner's integer division is ``DIV``). A
query read from a float-division dialect and written to a truncating one makes each quotient a
float first (``toFloat(a) / b``), which both read as the same float division. The other way, a
Cypher-family target whose ``/`` of two integers does not truncate cannot say the IR's ``/``
unless an operand is a float literal: without the operands' types, every other quotient is
refused in place (:func:`refuse_integer_quotients`, an :class:`~gqlir.ir.Untranslatable` the
printer raises where it writes it; the GQL family writes the typed forms itself).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import ir
from ..dialect import Dialect
from ..ir.node import rewrite_each

_FLOAT_REWRITE = "toFloat() on an operand for a float quotient"


def float_quotients(query: ir.Node) -> ir.Node:
    """``query`` with every ``a / b`` written ``toFloat(a) / b`` unless an operand is a float
    literal already."""

    def lower(node: ir.Node) -> ir.Node:
        if (
            isinstance(node, ir.Arithmetic)
            and node.op is ir.ArithOp.DIV
            and not isinstance(node.left, ir.Float)
            and not isinstance(node.right, ir.Float)
        ):
            left = ir.FunctionCall("tofloat", (node.left,), pos=node.left.pos)
            return replace(node, left=left)
        return node

    return query.transform(lower)


def refuse_integer_quotients(query: ir.Node, target: Dialect) -> ir.Node:
    """``query`` with every ``a / b`` that may divide two integers refused, for a ``target``
    whose ``/`` of two integers does not truncate (``integer_division``)."""

    def refuse(node: ir.Arithmetic) -> ir.Node:
        if (
            node.op is not ir.ArithOp.DIV
            or isinstance(node.left, ir.Float)
            or isinstance(node.right, ir.Float)
        ):
            return node
        return ir.Untranslatable(node, "integer division", "", _FLOAT_REWRITE, pos=node.pos)

    return rewrite_each(query, ir.Arithmetic, refuse)


def summarized_quotients(summary: Any) -> Any:
    """The pipeline summary of :func:`refuse_integer_quotients`' output from its input's: a
    refused quotient is kept inside the Untranslatable."""
    return replace(summary, kinds=summary.kinds | {ir.Untranslatable})
