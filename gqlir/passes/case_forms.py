"""A simple CASE whose operands GQL cannot write bare, as a searched CASE.

GQL's simple CASE takes a ``caseOperand`` and ``whenOperand``\\ s that are non-parenthesised
value expression primaries (GQL.g4 ``caseOperand : nonParenthesizedValueExpressionPrimary |
elementVariableReference``; ``whenOperand : nonParenthesizedValueExpressionPrimary | …``), so
``CASE a + 1 WHEN 2 THEN …`` is written ``CASE WHEN a + 1 = 2 THEN …`` — the same meaning, since
a simple CASE compares its operand to each WHEN value with ``=`` (ISO/IEC 39075 20.8 and
Cypher alike). The operand is then evaluated once per WHEN, so an operand whose value may
differ between evaluations (``rand()``) is refused with "bind the value to a variable first".
A walk over an aggregate's list (``x IN collect(y)``, left by gql-forms for the printer) is not
a primary either. A CASE without WHEN, which no reader builds, is refused.

It runs before gql-forms (which builds no CASE with an operand): an operand gql-forms then
writes as a walk (``x IN l``) is a comparison operand of the searched CASE, with the same
meaning.
"""

from __future__ import annotations

from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node, rewrite_each
from .exprs import pure
from .gql_primaries import is_primary

__all__ = ["lower_case_forms"]


def lower_case_forms(root: Node, target: Dialect) -> Node:
    """``root`` with each simple CASE GQL cannot write as one written as a searched CASE."""
    return rewrite_each(root, e.Case, _rewrite)


def _rewrite(case: e.Case) -> e.Expr:
    if not case.whens:
        return e.Untranslatable(case, "CASE without WHEN", pos=case.pos)
    subject = case.subject
    if subject is None:
        return case
    if is_primary(subject) and all(is_primary(w.condition) for w in case.whens):
        return case
    if not pure(subject):
        refused = "simple CASE on a computed value"
        return e.Untranslatable(
            case, refused, "", "bind the value to a variable first", pos=case.pos
        )
    whens = tuple(
        e.CaseWhen(e.Comparison(e.CompOp.EQ, subject, w.condition), w.result) for w in case.whens
    )
    return replace(case, subject=None, whens=whens)
