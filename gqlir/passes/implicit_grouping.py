"""Implicit grouping on a Cypher-family target without it.

Cypher groups an aggregating WITH / RETURN by its non-aggregate items ("grouping keys", Neo4j
Cypher manual, "Aggregating functions"); the Cypher family has no GROUP BY to write the keys
with. A target whose projections do not group implicitly (``implicit_grouping`` off) cannot say
such a projection (one that aggregates next to other items, or next to ``*``), so it is
refused: the step is left as a :class:`~gqlir.ir.RefusedStep`, raised where the printer writes
it. A projection that already has an explicit GROUP BY is the printer's to refuse.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..analysis.aggregates import aggregates
from ..dialect import Dialect
from ..ir import query as q
from ..ir.node import Node, rewrite_each

__all__ = ["applies", "groups_implicitly", "lower_implicit_grouping"]

_REWRITE = "GROUP BY the non-aggregate items"


def applies(target: Dialect) -> bool:
    return not target.capabilities.implicit_grouping


def lower_implicit_grouping(root: Node, target: Dialect) -> Node:
    """Every projection step of ``root`` that groups implicitly, refused."""

    def refuse(query: q.LinearQuery) -> q.LinearQuery:
        steps = tuple(
            q.RefusedStep(step, step, "implicit grouping", "", _REWRITE, pos=step.pos)
            if type(step) is q.Projection and step.group_by is None and groups_implicitly(step)
            else step
            for step in query.steps
        )
        changed = any(a is not b for a, b in zip(steps, query.steps, strict=True))
        return replace(query, steps=steps) if changed else query

    return rewrite_each(root, q.LinearQuery, refuse)


def groups_implicitly(step: q.Projection) -> bool:
    """A projection that aggregates next to other items: Cypher's implicit GROUP BY."""
    flags = [aggregates(item.expr) for item in step.items]
    return any(flags) and (not all(flags) or step.star)


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: the refused projection is kept
    inside the RefusedStep."""
    return replace(summary, kinds=summary.kinds | {q.RefusedStep})
