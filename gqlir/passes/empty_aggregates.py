"""Aggregates over no rows, and the SQL aggregates a GoogleSQL source spells out.

Cypher's ``sum()`` of no rows is 0 and ``stDev()``/``stDevP()`` of no rows is 0.0 (Neo4j Cypher
manual, "Aggregating functions"), where GQL's ``SUM`` and ``STDDEV_SAMP``/``STDDEV_POP`` give
null (ISO/IEC 39075 20.9 ``aggregateFunction``, general rules: the null value on an empty set),
so they are written ``COALESCE(SUM(x), 0)`` and ``COALESCE(STDDEV_SAMP(x), 0.0)``. ``collect``
drops nulls in Cypher; a target whose list aggregate keeps them (``collect_keeps_nulls``:
GoogleSQL's ``ARRAY_AGG``, zetasql docs/aggregate_functions.md) writes ``IGNORE NULLS``, and
one whose list aggregate is null on no rows (``collect_empty_null``) is coalesced to ``[]``.
``min``/``max`` of values of several types are refused: Cypher orders them by a fixed type
order, GQL cannot compare them.

The other way round, a query read from GoogleSQL spells SQL's aggregates in Cypher's terms
(``CASE WHEN count(x) < 1 THEN NULL ELSE sum(x) END``, see the Spanner reader); for a target
whose aggregates are SQL's (``collect_empty_null``) that form is the SQL aggregate itself.
The forms are marked (:mod:`gqlir.ir.marks`) for the printer to write.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..ir import expr as e
from ..ir import marks

__all__ = ["NAMES", "aggregate", "sql_aggregate"]

#: The aggregates these rules rewrite or check.
NAMES = frozenset({"sum", "stdev", "stdevp", "collect", "min", "max"})


def aggregate(walk: Any, node: e.Aggregate) -> e.Expr:
    name = node.name
    if name in ("min", "max") and any(walk.type_of(arg).kind == "mixed" for arg in node.args):
        raise walk.unsupported(
            f"{name}() of values of different types",
            node,
            message="Cypher orders values of different types by a fixed type order; GQL "
            "cannot compare them",
        )
    if name == "sum":
        marked = replace(node, name=marks.SUM)
        return e.FunctionCall("coalesce", (marked, e.Integer(0)), pos=node.pos)
    if name in ("stdev", "stdevp"):
        marked = replace(node, name=marks.STDEV + name)
        return e.FunctionCall("coalesce", (marked, e.Float(0.0)), pos=node.pos)
    caps = walk.caps
    if name == "collect" and (caps.collect_keeps_nulls or caps.collect_empty_null):
        marked = replace(node, name=marks.COLLECT)
        if caps.collect_empty_null:
            return e.FunctionCall("coalesce", (marked, e.ListLiteral(())), pos=node.pos)
        return marked
    return node


def sql_aggregate(walk: Any, node: e.Case) -> e.Expr:
    """``CASE WHEN count(*) = 0 THEN NULL ELSE collect(x) END`` is ``ARRAY_AGG(x IGNORE
    NULLS)``, with ``[v IN collect([x]) | v[0]]`` (which keeps nulls) ``ARRAY_AGG(x)``; ``CASE
    WHEN count(x) < 2 THEN NULL ELSE stdev(x) END`` is ``STDDEV_SAMP(x)``, and ``< 1`` with
    ``sum`` is ``SUM(x)`` (only where ``collect_empty_null``)."""
    if not walk.caps.collect_empty_null:
        return node
    if node.subject is not None or len(node.whens) != 1:
        return node
    when, default = node.whens[0], node.default
    test = when.condition
    if not (
        isinstance(when.result, e.Null)
        and isinstance(test, e.Comparison)
        and isinstance(test.right, e.Integer)
        and isinstance(default, (e.Aggregate, e.ListComprehension))
    ):
        return node
    if test.op is e.CompOp.EQ and isinstance(test.left, e.CountStar) and test.right.value == 0:
        if isinstance(default, e.Aggregate):
            if default.name != "collect" or len(default.args) != 1:
                return node
            return replace(default, name=marks.COLLECT)
        source = default.source
        if (
            default.where is None
            and isinstance(source, e.Aggregate)
            and source.name == "collect"
            and len(source.args) == 1
            and isinstance(source.args[0], e.ListLiteral)
            and len(source.args[0].items) == 1
            and default.projection == e.Index(e.Variable(default.variable), e.Integer(0))
        ):
            return replace(source, name=marks.COLLECT_ALL, args=source.args[0].items)
        return node
    floors = {"sum": (1, marks.SUM), "stdev": (2, marks.STDEV + "stdev")}
    if (
        test.op is e.CompOp.LT
        and isinstance(test.left, e.Aggregate)
        and test.left.name == "count"
        and isinstance(default, e.Aggregate)
        and default.name in floors
        and floors[default.name][0] == test.right.value
        and test.left.args == default.args
        and test.left.distinct == default.distinct
        and len(default.args) == 1
    ):
        return replace(default, name=floors[default.name][1])
    return node
