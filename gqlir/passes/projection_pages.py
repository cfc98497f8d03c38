"""A projection's SKIP and LIMIT as GQL's OFFSET and LIMIT take them, and a standalone ORDER BY.

GQL's ``OFFSET`` and ``LIMIT`` take a count, not an expression (opengql/grammar GQL.g4 16.19
``offsetClause : offsetSynonym nonNegativeIntegerSpecification``, 16.18 ``limitClause : LIMIT
nonNegativeIntegerSpecification``, an unsigned integer or a dynamic parameter), where Cypher's
SKIP and LIMIT take any expression that evaluates to a non-negative integer before the query
reads any row (Neo4j Cypher manual, SKIP and LIMIT). A
SKIP or LIMIT that is neither a non-negative integer literal nor a parameter is refused in place
(:class:`~gqlir.ir.expr.Untranslatable`, "computed SKIP/LIMIT", with the rewrite "pass the
count as a parameter"), raised where the printer writes it.

A projection that only orders its rows (``WITH * ORDER BY …`` with no SKIP or LIMIT, before the
last step) is a standalone ``ORDER BY`` statement (GQL.g4 14.9 ``orderByAndPageStatement``), which a
target may not have (capability ``standalone_order_by``): there it is refused as a step
(:class:`~gqlir.ir.RefusedStep`), rewrite "order the final RETURN instead".
"""

from __future__ import annotations

from typing import Any

from ..ir import expr as e
from ..ir import query as q
from ..ir.node import rebuilt

__all__ = ["counted", "counts", "standalone"]

_REWRITE = "pass the count as a parameter"


def counts(step: q.Projection) -> bool:
    """Whether ``step``'s SKIP and LIMIT (where it has them) are written as they are."""
    return _count(step.skip) and _count(step.limit)


def counted(steps: list[q.Step]) -> list[q.Step]:
    """``steps`` with each projection's SKIP or LIMIT that is not a count refused in place."""
    out = steps
    for i, step in enumerate(steps):
        if type(step) is not q.Projection or counts(step):
            continue
        if out is steps:
            out = list(steps)
        out[i] = rebuilt(step, skip=_refused(step.skip), limit=_refused(step.limit))
    return out


def standalone(walk: Any, step: q.Projection) -> q.Step | None:
    """The refusal of ``step``, which only orders its rows, where the target has no standalone
    ORDER BY (else None)."""
    pages = step.skip is not None or step.limit is not None
    if not step.order_by or pages or walk.caps.standalone_order_by:
        return None
    return q.RefusedStep(
        step,
        step,
        "ORDER BY without LIMIT",
        rewrite="order the final RETURN instead",
        pos=step.pos,
    )


def _count(value: e.Expr | None) -> bool:
    cls = type(value)
    if value is None or cls is e.Parameter:
        return True
    return cls is e.Integer and type(value.value) is int and value.value >= 0  # type: ignore[attr-defined]


def _refused(value: e.Expr | None) -> e.Expr | None:
    if _count(value):
        return value
    assert value is not None
    return e.Untranslatable(value, "computed SKIP/LIMIT", rewrite=_REWRITE, pos=value.pos)
