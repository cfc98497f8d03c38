"""``REMOVE n.p`` on a target that has no REMOVE clause but removes a property set to null.

Cypher stores no null in a property: "if no value exists, the property is just not there"
(Neo4j Cypher manual, "REMOVE", https://neo4j.com/docs/cypher-manual/current/clauses/remove/),
so ``SET n.p = null`` removes ``p`` as ``REMOVE n.p`` does. Kuzu has no REMOVE and says to write
the second form (dialects/kuzu.toml, ``remove_clause``: "REMOVE is not supported. Use SET
n.prop = NULL instead.", Kuzu's difference.md; observed parser error). A REMOVE of properties
only is written so; one that removes labels stays for the printer to refuse.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node, rewrite_each

__all__ = ["applies", "lower_removed_properties"]


def applies(target: Dialect) -> bool:
    caps = target.capabilities
    return caps.graph_writes and not caps.remove_clause


def lower_removed_properties(root: Node, target: Dialect) -> Node:
    """Every REMOVE of ``root`` that removes only properties, as SET of them to null."""
    return rewrite_each(root, q.Remove, _as_set)


def _as_set(step: q.Remove) -> q.Step:
    items = step.items
    if not items or not all(isinstance(item, q.RemoveProperty) for item in items):
        return step  # (an empty REMOVE, or one of labels: the printer refuses it)
    nulls = tuple(
        q.SetProperty(item.subject, item.key, e.Null(), pos=item.pos)  # type: ignore[union-attr]
        for item in items
    )
    return q.SetClause(nulls, pos=step.pos)


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: a REMOVE's subjects are kept in
    the SET (the kinds it no longer holds stay listed)."""
    return replace(summary, kinds=summary.kinds | {q.SetClause, q.SetProperty})
