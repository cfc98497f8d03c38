"""Cypher's COUNT and COLLECT subqueries and pattern comprehensions as GQL VALUE subqueries.

ISO GQL has ``VALUE { … }`` (a subquery of one value, ISO/IEC 39075 20.6
``valueQueryExpression``) and ``COLLECT_LIST`` (20.9), not Cypher's ``COUNT { … }``,
``COLLECT { … }`` or ``[pattern | f]`` (Neo4j Cypher manual, "Subqueries", "Pattern
comprehension"):

* ``COUNT { q }`` is ``VALUE { q RETURN COUNT(*) }`` (``count_subquery`` absent); a union
  inside is refused.
* ``COLLECT { … RETURN x }`` is ``VALUE { … RETURN x AS v NEXT RETURN COLLECT_LIST(v) }`` and
  ``[pattern WHERE w | f]`` ``VALUE { MATCH pattern WHERE w RETURN COLLECT_LIST(f) }``, only
  where the collected value is never null (COLLECT_LIST drops nulls, Cypher keeps them): a
  variable a MATCH of the subquery binds to an element, or a literal; and, for COLLECT, with no
  order or page of the rows to keep. Otherwise the printer refuses them.
* GoogleSQL's ``ARRAY { … }`` (``array_subquery``) cannot hold graph elements ("Returning
  expressions of type GRAPH_ELEMENT is not allowed", ZetaSQL's analyser): refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from .exprs import non_null_literal

__all__ = ["collect_subquery", "count_subquery", "pattern_comprehension", "pattern_variables"]


def pattern_variables(pattern: p.PathPattern) -> set[str]:
    """The variables a match of ``pattern`` binds to an element or a path (never null)."""
    names = {pattern.variable} if pattern.variable else set()
    for inner in pattern.walk():
        if isinstance(inner, (p.NodePattern, p.RelPattern)) and inner.variable:
            names.add(inner.variable)
    return names


def _never_null(node: e.Expr, elements: set[str]) -> bool:
    if isinstance(node, e.Variable):
        return node.name in elements
    if isinstance(node, (e.ListLiteral, e.MapLiteral)):
        return True
    return non_null_literal(node)


def _collected(walk: Any, steps: tuple[q.Step, ...], value: e.Expr, node: e.Expr) -> e.Expr:
    collect = e.Aggregate("collect", (value,))
    final = q.Projection((q.ReturnItem(collect, walk.fresh("_g")),))
    return e.ValueSubquery(q.LinearQuery((*steps, final)), pos=node.pos)


def pattern_comprehension(walk: Any, node: e.PatternComprehension) -> e.Expr:
    elements = pattern_variables(node.pattern)
    if not walk.caps.value_subquery or not _never_null(node.projection, elements):
        return node
    match = q.Match((node.pattern,), node.where)
    return _collected(walk, (match,), node.projection, node)


def collect_subquery(walk: Any, node: e.CollectSubquery) -> e.Expr:
    query = node.query
    caps = walk.caps
    if caps.array_subquery:
        _check_array_items(walk, node)
        return node
    if not caps.value_subquery or not isinstance(query, q.LinearQuery):
        return node
    last = query.steps[-1] if query.steps else None
    if not isinstance(last, q.Projection) or len(last.items) != 1 or last.star:
        return node
    if last.distinct or last.order_by or last.skip or last.limit or last.where is not None:
        return node
    elements: set[str] = set()
    for step in query.steps:
        if isinstance(step, q.Match) and not step.optional:
            for pattern in step.patterns:
                elements |= pattern_variables(pattern)
    value = last.items[0].expr
    if not _never_null(value, elements):
        return node
    return _collected(walk, query.steps[:-1], value, node)


def _check_array_items(walk: Any, node: e.CollectSubquery) -> None:
    branches = [node.query]
    while branches:
        branch = branches.pop()
        if isinstance(branch, q.SetOperation):
            branches += [branch.left, branch.right]
            continue
        if not isinstance(branch, q.LinearQuery) or not branch.steps:
            continue
        last = branch.steps[-1]
        if not isinstance(last, q.Projection) or last.star or len(last.items) != 1:
            continue
        value = last.items[0].expr
        if not isinstance(value, e.Variable):
            continue
        bound: set[str] = set()
        for step in branch.steps:
            if isinstance(step, q.Match):
                for pattern in step.patterns:
                    bound |= pattern_variables(pattern)
        kind = walk.type_of(value).kind
        if value.name in bound or kind in ("node", "edge", "path"):
            raise walk.unsupported(
                "ARRAY subquery of graph elements",
                node,
                rewrite="collect a property, or SAFE_TO_JSON(x)",
            )


def count_subquery(walk: Any, node: e.CountSubquery) -> e.Expr:
    caps = walk.caps
    if caps.count_subquery:
        return node
    if not caps.value_subquery:
        raise walk.unsupported("COUNT subquery", node)
    query = node.query
    if not isinstance(query, q.LinearQuery):
        raise walk.unsupported(
            "COUNT subquery", node, rewrite="count the rows of each branch separately"
        )
    counting = q.Projection((q.ReturnItem(e.CountStar(), walk.fresh("_g")),))
    return e.ValueSubquery(replace(query, steps=(*query.steps, counting)), pos=node.pos)
