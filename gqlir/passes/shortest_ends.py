"""Shortest-path searches on a target that drops the paths from a node to itself.

The IR's shortest search keeps one shortest path (or all of them) per pair of first and last
node, cycles included: ``MATCH p = shortestPath((a)-[*1..5]->(b))`` binds ``a`` and ``b`` to
the same node where a cycle joins it to itself (the IR's meaning, as the evaluator runs it).
Kuzu's ``* SHORTEST`` and ``* ALL SHORTEST`` return no path from a node to itself: on a graph
with a self-loop 1->1 and a cycle 1->2->1, ``(a)-[* SHORTEST 1..5]->(b)`` has no row with
``a = b`` (dialects/kuzu.toml, ``shortest_same_endpoints``: observed with 0.11.3). A search
keeps its meaning there only between nodes of two different single labels, which cannot be one
node; any other shortest search is marked refused (a :class:`~gqlir.ir.RefusedSearch`), which
the printer raises where it writes the search.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import pattern as p
from ..ir.node import Node, rewrite_each

__all__ = ["applies", "lower_shortest_ends", "summarized"]

#: The searches that keep shortest paths.
SHORTEST = frozenset(
    {
        p.SearchKind.ANY_SHORTEST,
        p.SearchKind.ALL_SHORTEST,
        p.SearchKind.SHORTEST_K,
        p.SearchKind.SHORTEST_K_GROUPS,
    }
)
_REWRITE = "give the two end nodes different labels"


def applies(target: Dialect) -> bool:
    return not target.capabilities.shortest_same_endpoints


def lower_shortest_ends(root: Node, target: Dialect) -> Node:
    """Every shortest search of ``root`` between nodes that may be one, marked refused."""
    message = f"{target.name} returns no shortest path from a node to itself"

    def refuse(pattern: p.PathPattern) -> p.PathPattern:
        search = pattern.search
        if search is None or search.kind not in SHORTEST or type(search) is not p.Search:
            return pattern
        if _distinct_ends(pattern.path):
            return pattern
        refused = p.RefusedSearch(
            search.kind,
            search.k,
            construct="shortest path between nodes that may be one",
            message=message,
            rewrite=_REWRITE,
            pos=search.pos,
        )
        return replace(pattern, search=refused)

    return rewrite_each(root, p.PathPattern, refuse)


def _distinct_ends(path: p.PathExpr) -> bool:
    """Whether the first and last nodes of ``path`` have two different single labels."""
    elements = getattr(path, "elements", ())
    if not elements:
        return False
    labels = getattr(elements[0], "labels", None), getattr(elements[-1], "labels", None)
    return all(isinstance(x, p.Label) for x in labels) and labels[0] != labels[1]


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: a search is marked."""
    return replace(summary, kinds=summary.kinds | {p.RefusedSearch})
