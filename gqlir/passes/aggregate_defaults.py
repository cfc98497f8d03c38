"""``sum()`` and ``collect()`` of no values on a target that gives null for them.

Cypher's ``sum()`` of no values is 0 and ``collect()`` of no values is ``[]`` (Neo4j Cypher
manual, "Aggregating functions"); Kuzu gives null for both (dialects/kuzu.toml,
``sum_empty_null`` and ``collect_empty_null``: observed on Kuzu 0.11, ``UNWIND [null, null] AS
x RETURN sum(x), collect(x)``). On such a target each is written ``coalesce(sum(x), 0)`` /
``coalesce(collect(x), [])``, which is Cypher's value on every input.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node, rewrite_each

__all__ = ["applies", "lower_aggregate_defaults"]


def applies(target: Dialect) -> bool:
    caps = target.capabilities
    return caps.sum_empty_null or caps.collect_empty_null


def lower_aggregate_defaults(root: Node, target: Dialect) -> Node:
    """Every ``sum``/``collect`` of ``root`` the target gives null for no values, coalesced."""
    caps = target.capabilities
    names = {"sum"} if caps.sum_empty_null else set()
    if caps.collect_empty_null:
        names.add("collect")

    def coalesced(node: e.Aggregate) -> e.Expr:
        if node.name not in names:
            return node
        empty = e.Integer(0) if node.name == "sum" else e.ListLiteral(())
        return e.FunctionCall("coalesce", (node, empty), pos=node.pos)

    return rewrite_each(root, e.Aggregate, coalesced)


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: each aggregate is kept inside a
    coalesce() with a literal."""
    return replace(
        summary,
        kinds=summary.kinds | {e.FunctionCall, e.ListLiteral},
        functions=summary.functions | {"coalesce"},
    )
