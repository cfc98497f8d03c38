"""Boolean operators the GQL family writes with other operators of the same meaning.

* ``a XOR b`` is ``a <> b`` where the target has no ``XOR`` (capability ``xor_operator``):
  on booleans, ``<>`` is exclusive or in three-valued logic, null when either side is null
  (GoogleSQL's logical operators are ``NOT``, ``AND``, ``OR``: google/zetasql
  docs/operators.md, "Logical operators"; Cypher's XOR: openCypher 9, "Boolean operators").
* ``x IS [NOT] UNKNOWN`` is ``x IS [NOT] NULL`` where the target has no ``IS UNKNOWN``
  (capability ``unknown_test``): a boolean is unknown exactly when it is null (ISO/IEC 39075
  19.6 ``booleanTestPredicate``; GoogleSQL has ``IS NULL`` but gqlir's Spanner grammar reads no
  ``IS UNKNOWN``). Targets that have it write it as read, so it round-trips.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import expr as e

if TYPE_CHECKING:
    from .scoped import ScopedRewrite

__all__ = ["is_truth", "xor"]


def xor(walk: ScopedRewrite, node: e.Xor) -> e.Expr:
    if walk.caps.xor_operator:
        return node
    return e.Comparison(e.CompOp.NE, node.left, node.right, pos=node.pos)


def is_truth(walk: ScopedRewrite, node: e.IsTruth) -> e.Expr:
    if node.value is e.TruthValue.UNKNOWN and not walk.caps.unknown_test:
        return e.IsNull(node.operand, negated=node.negated, pos=node.pos)
    return node
