"""Small questions about IR that several layers ask (and must answer the same way)."""

from __future__ import annotations

from .expr import (
    CollectSubquery,
    CountSubquery,
    Exists,
    Expr,
    MapProjection,
    PatternComprehension,
    ValueSubquery,
    Variable,
)

# Nodes that name variables in patterns or items rather than as Variable nodes.
_OPAQUE = (
    Exists,
    CountSubquery,
    CollectSubquery,
    ValueSubquery,
    PatternComprehension,
    MapProjection,
)


def reads_only(expr: Expr, names: set[str]) -> bool:
    """Whether ``expr`` certainly reads no variable outside ``names``. Conservative: an
    expression with a subquery, a pattern comprehension or a map projection does not qualify."""
    for node in expr.walk():
        if isinstance(node, Variable) and node.name not in names:
            return False
        if isinstance(node, _OPAQUE):
            return False
    return True
