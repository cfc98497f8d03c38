"""SQL's aggregates, as the Spanner reader builds them, marked to be written as those aggregates.

Rule: GoogleSQL's aggregates are null over no rows (``ARRAY_AGG``, ``SUM``, ``STDDEV_SAMP``:
"If there are zero input rows, this function returns NULL", google/zetasql
docs/aggregate_functions.md; ``dialects/spanner.toml`` ``collect_empty_null``), where Cypher's ``collect``/``sum``/``stDev`` give ``[]``/``0``/``0``. The Spanner
reader therefore builds ``ARRAY_AGG(x IGNORE NULLS)`` as ``CASE WHEN count(*) = 0 THEN NULL
ELSE collect(x) END``. A target whose aggregates are null on no rows (``collect_empty_null``)
writes that form back as the one aggregate, so the IR is marked here: the same meaning, spelt
as the target spells it (and the projection rules then see an aggregate, not a list walk over
one).
"""

from __future__ import annotations

from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node

__all__ = ["COLLECT_ALL_MARK", "COLLECT_MARK", "STDEV_MARK", "SUM_MARK", "lower_sql_aggregates"]

SUM_MARK = "%sum"
STDEV_MARK = "%stdev:"
COLLECT_MARK = "%collect"
#: the list aggregate keeping nulls (ARRAY_AGG without IGNORE NULLS)
COLLECT_ALL_MARK = "%collect_all"


def applies(target: Dialect) -> bool:
    return target.capabilities.collect_empty_null


def lower_sql_aggregates(root: Node, target: Dialect) -> Node:
    """``root`` with SQL's aggregates marked (for a target with ``collect_empty_null``)."""
    if not applies(target):
        return root
    return root.transform(_marked)


def _marked(node: Node) -> Node:
    """The IR of an aggregate that is null where SQL's is, as the Spanner reader builds it,
    marked to be written as that aggregate in a target whose aggregates are null on no rows
    (``collect_empty_null``): ``CASE WHEN count(*) = 0 THEN NULL ELSE collect(x) END`` is
    ``ARRAY_AGG(x IGNORE NULLS)``, with ``[v IN collect([x]) | v[0]]`` (which keeps nulls)
    ``ARRAY_AGG(x)``; ``CASE WHEN count(x) < 2 THEN NULL ELSE stdev(x) END`` is
    ``STDDEV_SAMP(x)``, and ``< 1`` with ``sum`` is ``SUM(x)``."""
    if not isinstance(node, e.Case) or node.subject is not None or len(node.whens) != 1:
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
            return replace(default, name=COLLECT_MARK)
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
            return replace(source, name=COLLECT_ALL_MARK, args=source.args[0].items)
        return node
    floors = {"sum": (1, SUM_MARK), "stdev": (2, STDEV_MARK + "stdev")}
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
