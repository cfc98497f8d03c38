"""SQL's aggregates, as the Spanner reader builds them, marked before the projections are
lowered.

Rule (:func:`gqlir.passes.empty_aggregates.sql_aggregate`, where it is stated with its
source): GoogleSQL's aggregates are null over no rows, so the Spanner reader builds
``ARRAY_AGG(x IGNORE NULLS)`` as ``CASE WHEN count(*) = 0 THEN NULL ELSE collect(x) END``, and a
target whose aggregates are SQL's (``collect_empty_null``) writes that form back as the one
aggregate. ``gql-forms`` applies the rule too, but after the projections are lowered; this pass
applies it before, so that the projection rules see an aggregate, not a list walk over one (a
walk over an aggregate is computed in a projection of its own).
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node
from .empty_aggregates import sql_aggregate

__all__ = ["applies", "lower_sql_aggregates"]


def applies(target: Dialect) -> bool:
    return target.capabilities.collect_empty_null


class _Target:
    """What :func:`sql_aggregate` reads of the walk that applies it."""

    __slots__ = ("caps",)

    def __init__(self, target: Dialect) -> None:
        self.caps = target.capabilities


def lower_sql_aggregates(root: Node, target: Dialect) -> Node:
    """``root`` with SQL's aggregates marked (for a target with ``collect_empty_null``)."""
    if not applies(target):
        return root
    walk = _Target(target)

    def mark(node: Node) -> Node:
        return sql_aggregate(walk, node) if type(node) is e.Case else node

    return root.transform(mark)
