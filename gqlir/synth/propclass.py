"""Type classes of schema properties, and which operators and aggregates fit each: the hole
constraints "this operator fits this property's type", "avg is not taken over dates",
"≤ is not used on strings"."""

from __future__ import annotations

from .. import ir
from ..schema.model import Property
from ..schema.types import INTEGER_KINDS, TypeKind

NUMERIC_KINDS = INTEGER_KINDS | {TypeKind.FLOAT32, TypeKind.FLOAT64, TypeKind.DECIMAL}
TEMPORAL_KINDS = {TypeKind.DATE, TypeKind.DATETIME, TypeKind.LOCAL_DATETIME}

#: at most this many distinct values make a string property categorical
CATEGORICAL_LIMIT = 12

_ORDERED_OPS = (ir.CompOp.LT, ir.CompOp.LE, ir.CompOp.GT, ir.CompOp.GE)


def classes(prop: Property, distinct: int, rows: int) -> set[str]:
    """The type classes a property belongs to; ``distinct`` and ``rows`` are counted in the
    graph (a string with few distinct values is categorical even without the annotation)."""
    kind = prop.type.kind
    out = {"any"}
    if kind in NUMERIC_KINDS:
        out |= {"numeric", "ordered"}
    elif kind in TEMPORAL_KINDS:
        out |= {"temporal", "ordered"}
    elif kind == TypeKind.STRING:
        out.add("string")
        if prop.categorical or (distinct <= CATEGORICAL_LIMIT and distinct * 2 < rows):
            out.add("categorical")
        else:
            out.add("ordered")
    elif kind == TypeKind.BOOLEAN:
        out.add("boolean")
    elif kind == TypeKind.LIST:
        out = {"list"}
    else:
        out = set()  # durations, maps, points …: not offered to holes
    return out


def fits(use: str, cls: set[str]) -> bool:
    """Whether a property of classes ``cls`` may fill a hole used as ``use``."""
    if use == "aggregate":
        return bool(cls & {"numeric", "temporal", "categorical"})
    if use == "compare":
        return bool(cls & {"numeric", "temporal", "categorical", "string", "boolean"})
    if use == "list":
        return "list" in cls
    if use in ("ordered", "numeric"):
        return use in cls
    return "list" not in cls and bool(cls)


def operators(cls: set[str]) -> list[object]:
    """Operators that fit a property: ordering comparisons for numbers and dates, equality for
    categories and booleans, prefix and substring tests for free text (never ≤ on strings)."""
    if cls & {"numeric", "temporal"}:
        return [ir.CompOp.EQ, ir.CompOp.NE, *_ORDERED_OPS]
    if "boolean" in cls:
        return [ir.CompOp.EQ]
    if "categorical" in cls:
        return [ir.CompOp.EQ, ir.CompOp.NE]
    if "string" in cls:
        return [ir.CompOp.EQ, ir.StringOp.STARTS_WITH, ir.StringOp.CONTAINS]
    return [ir.CompOp.EQ]


def aggregates(cls: set[str]) -> list[str]:
    """Aggregates that fit: min/max/avg/sum of numbers, min/max of dates (no avg of dates),
    count of distinct categories."""
    if "numeric" in cls:
        return ["min", "max", "avg", "sum"]
    if "temporal" in cls:
        return ["min", "max"]
    return ["count_distinct"]
