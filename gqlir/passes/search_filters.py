"""A shortest-path MATCH with a WHERE, which GQL reads in another order (pass ``search-filters``).

Cypher's ``shortestPath`` finds the shortest path that satisfies the MATCH's WHERE: the
predicates are evaluated "whilst searching for the path", or an exhaustive search finds the
shortest valid one (Neo4j Cypher manual, "Shortest path planning",
https://neo4j.com/docs/cypher-manual/current/execution-plans/shortestpath-planning/). In GQL a path search (``ANY SHORTEST``, ``SHORTEST k`` …) selects
among the paths the path pattern matches, and the graph pattern's WHERE filters the selected
paths afterwards (opengql/grammar ``GQL.g4``: ``graphPattern : matchMode? pathPatternList
keepClause? graphPatternWhereClause?``, the selector belonging to each ``pathPattern``), so a
shortest path that fails the condition leaves no row where Cypher would take the next one. The
MATCH is refused (a :class:`~gqlir.ir.RefusedStep`, raised where the printer writes it); the
condition can move into the searched pattern, where GQL applies it before selecting.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node

__all__ = ["lower_search_filters"]

_REWRITE = (
    "put the condition on the pattern's elements, e.g. ANY SHORTEST ((a)-[r]->{1,5}(b) WHERE cond)"
)


def lower_search_filters(node: Node, target: Dialect) -> Node:
    """Every MATCH of ``node`` with a WHERE and a path search, refused."""
    return node.transform(_refuse)


def _refuse(node: Node) -> Node:
    if type(node) is not q.Match or node.where is None:
        return node
    for pattern in node.patterns:
        if pattern.search is not None and pattern.search.kind is not p.SearchKind.ALL:
            where = node.where
            return q.RefusedStep(
                node,
                where,
                "path search with MATCH WHERE",
                rewrite=_REWRITE,
                pos=where.pos,
            )
    return node
