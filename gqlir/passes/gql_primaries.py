"""GQL's value expression primaries: the IR expressions GQL writes without parentheses.

GQL.g4 ``valueExpressionPrimary`` / ``nonParenthesizedValueExpressionPrimary`` (names,
literals, parameters, property references, CASE and its abbreviations, CAST, aggregates,
VALUE subqueries, ELEMENT_ID). The GQL printer parenthesises any other operand where a primary
is required, and the pass case-forms (:mod:`.case_forms`) writes a simple CASE whose operands
are not all primaries as a searched one.
"""

from __future__ import annotations

import math

from ..ir import expr as e
from ..ir import marks

__all__ = ["is_primary"]

_PRIMARIES = (
    e.Variable,
    e.Parameter,
    e.Property,
    e.Null,
    e.Boolean,
    e.String,
    e.ListLiteral,
    e.MapLiteral,
    e.Case,
    e.Cast,
    e.Aggregate,
    e.CountStar,
    e.ValueSubquery,
)


def is_primary(node: e.Expr) -> bool:
    """Whether GQL writes ``node`` as a primary, with no parentheses (a negative number is a
    sign and a number, not a primary)."""
    if isinstance(node, (e.Integer, e.Float)):
        return math.copysign(1.0, float(node.value)) > 0
    if isinstance(node, _PRIMARIES):
        return True
    if isinstance(node, e.FunctionCall):
        return node.name in ("coalesce", "nullif", "elementid", marks.TO_JSON)
    return False
