"""Division across dialects whose ``/`` differs on two integers.

The IR's ``/`` follows the reading dialect's ``integer_division`` capability: Cypher truncates
(``7 / 2`` is 3), GoogleSQL returns a float (3.5; Spanner's integer division is ``DIV``). A
query read from a float-division dialect and written to a truncating one makes each quotient a
float first (``toFloat(a) / b``), which both read as the same float division. (The other way,
the emitters refuse a ``/`` whose operands are not known to be floats.)
"""

from __future__ import annotations

from dataclasses import replace

from .. import ir


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
