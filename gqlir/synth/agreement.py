"""Whether an engine's answer to a dialect text is the item's gold answer, compared as the eval
harness compares result tables (:func:`gqlir.metrics.execution.execution_match`, policy
``default``: column names ignored, rows as a bag unless the gold query orders them, floats to
12 significant digits, ``1`` equal to ``1.0``, instants by the instant they denote, nodes by
their content).

An engine without a type for a value (SQLite has no boolean, date or list type: it answers
``1``, ISO text, JSON text; FalkorDB has no zoned date-time: gqlir loads one as its UTC local
date-time; docs/engines.md) has its values read as the type the gold answer's column holds
before the comparison, so that a missing type is not taken for a different answer; a value
that does not read as that type stays as it is and differs."""

from __future__ import annotations

import json
from typing import Any

from ..engines.base import ResultTable
from ..eval import temporal as tm
from ..metrics.execution import execution_match

__all__ = ["difference", "typed_as"]

_KIND = {
    tm.Date: "date",
    tm.LocalTime: "localtime",
    tm.Time: "time",
    tm.LocalDateTime: "localdatetime",
    tm.DateTime: "datetime",
    tm.Duration: "duration",
}


def _as(v: Any, like: Any) -> Any:
    """``v`` read as the type of ``like`` where the engine had no such type."""
    if v is None or like is None:
        return v
    if isinstance(like, bool) and type(v) is int and v in (0, 1):
        return bool(v)
    if isinstance(like, tm.DateTime) and isinstance(v, tm.LocalDateTime):
        # an engine without zoned date-times holds them as UTC local ones (FalkorDB's loader)
        return tm.parse_temporal("datetime", f"{v}Z")
    if isinstance(like, tm.TEMPORAL_TYPES) and isinstance(v, str):
        try:
            return tm.parse_temporal(_KIND[type(like)], v)
        except Exception:  # not that type's text: left as it is, and it will differ
            return v
    if isinstance(like, list) and isinstance(v, str):
        try:
            items = json.loads(v)
        except ValueError:
            return v
        if not isinstance(items, list):
            return v
        first = next((x for x in like if x is not None), None)
        return [_as(x, first) for x in items]
    return v


def typed_as(gold: ResultTable, got: ResultTable) -> ResultTable:
    """``got`` with each column's values read as the type of the gold column's first value."""
    width = len(gold.columns)
    likes = [next((row[j] for row in gold.rows if row[j] is not None), None) for j in range(width)]
    if len(got.columns) != width:
        return got
    rows = [tuple(_as(v, likes[j]) for j, v in enumerate(row)) for row in got.rows]
    return ResultTable(list(got.columns), rows, ordered=got.ordered, truncated=got.truncated)


def difference(gold: ResultTable, got: ResultTable, *, untyped: bool = False) -> str | None:
    """None when ``got`` is ``gold``'s answer, else what differs (for the dataset card)."""
    if got.truncated:
        return f"more rows than the gold's {len(gold.rows)}"
    if untyped:
        got = typed_as(gold, got)
    if execution_match(gold, got, "default"):
        return None
    # described as compared: as lists exactly when the gold query orders its rows
    got = ResultTable(list(got.columns), got.rows, ordered=gold.ordered)
    described = gold.difference(got, columns=False)
    return described or "the rows differ under the harness's comparison"
