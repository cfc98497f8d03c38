"""Aggregate functions over the values one group of rows produced.

Nulls are skipped by every aggregate (``count(*)`` counts rows, not values); DISTINCT keeps one
value per equivalence class. An empty group gives ``count`` 0, ``sum`` 0, ``collect`` [] and
null for the rest, as openCypher says.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..errors import EvaluationError
from . import temporal as tm
from .values import check_int, equivalence_key, is_number, order_compare, type_name

__all__ = ["aggregate"]


def aggregate(name: str, values: Sequence[Any], distinct: bool, extra: Sequence[Any] = ()) -> Any:
    """The aggregate ``name`` over ``values`` (one per row of the group; ``extra`` holds the
    constant further arguments, e.g. the percentile)."""
    present = [v for v in values if v is not None]
    if distinct:
        seen: set[Any] = set()
        unique = []
        for v in present:
            k = equivalence_key(v)
            if k not in seen:
                seen.add(k)
                unique.append(v)
        present = unique
    fn = _AGGREGATES.get(name)
    if fn is None:
        raise EvaluationError(f"unknown aggregate {name}()", category="Unsupported", detail=name)
    return fn(present, extra)


def _count(values: list[Any], extra: Sequence[Any]) -> int:
    return len(values)


def _collect(values: list[Any], extra: Sequence[Any]) -> list[Any]:
    return list(values)


def _numbers(name: str, values: list[Any]) -> None:
    for v in values:
        if not is_number(v) and not isinstance(v, tm.Duration):
            raise EvaluationError(
                f"{name}() needs numbers or durations, not {type_name(v)}",
                category="TypeError",
                detail="InvalidArgumentType",
            )


def _sum(values: list[Any], extra: Sequence[Any]) -> Any:
    _numbers("sum", values)
    if values and all(isinstance(v, tm.Duration) for v in values):
        return functools.reduce(tm.add_durations, values)
    if any(isinstance(v, tm.Duration) for v in values):
        raise EvaluationError(
            "sum() cannot mix durations and numbers",
            category="TypeError",
            detail="InvalidArgumentType",
        )
    if all(isinstance(v, int) for v in values):
        return check_int(sum(values))
    return math.fsum(float(v) for v in values)


def _avg(values: list[Any], extra: Sequence[Any]) -> Any:
    if not values:
        return None
    _numbers("avg", values)
    if all(isinstance(v, tm.Duration) for v in values):
        total = functools.reduce(tm.add_durations, values)
        return tm.scale_duration(total, Fraction(1, len(values)))
    if any(isinstance(v, tm.Duration) for v in values):
        raise EvaluationError(
            "avg() cannot mix durations and numbers",
            category="TypeError",
            detail="InvalidArgumentType",
        )
    if all(isinstance(v, int) for v in values):
        return float(Fraction(sum(values), len(values)))
    return math.fsum(float(v) for v in values) / len(values)


def _extreme(values: list[Any], sign: int) -> Any:
    if not values:
        return None
    best = values[0]
    for v in values[1:]:
        if order_compare(v, best) * sign > 0:
            best = v
    return best


def _min(values: list[Any], extra: Sequence[Any]) -> Any:
    return _extreme(values, -1)


def _max(values: list[Any], extra: Sequence[Any]) -> Any:
    return _extreme(values, 1)


def _stdev(values: list[Any], population: bool) -> float:
    _numbers("stDev", values)
    n = len(values)
    if n < 2 and not (population and n == 1):
        return 0.0
    mean = math.fsum(float(v) for v in values) / n
    squares = math.fsum((float(v) - mean) ** 2 for v in values)
    return math.sqrt(squares / (n if population else n - 1))


def _percentile_arg(extra: Sequence[Any]) -> float:
    p = extra[0] if extra else None
    if not is_number(p) or not 0.0 <= p <= 1.0:
        raise EvaluationError(
            "the percentile must be a number between 0.0 and 1.0",
            category="ArgumentError",
            detail="NumberOutOfRange",
        )
    return float(p)


def _sorted_numbers(values: list[Any]) -> list[Any]:
    _numbers("percentile", values)
    return sorted(values, key=functools.cmp_to_key(order_compare))


def _percentile_disc(values: list[Any], extra: Sequence[Any]) -> Any:
    p = _percentile_arg(extra)
    if not values:
        return None
    ordered = _sorted_numbers(values)
    index = max(0, math.ceil(p * len(ordered)) - 1)
    return ordered[index]


def _percentile_cont(values: list[Any], extra: Sequence[Any]) -> Any:
    p = _percentile_arg(extra)
    if not values:
        return None
    ordered = [float(v) for v in _sorted_numbers(values)]
    position = p * (len(ordered) - 1)
    lower, upper = math.floor(position), math.ceil(position)
    if lower == upper:
        return ordered[lower]
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


_AGGREGATES = {
    "count": _count,
    "collect": _collect,
    "sum": _sum,
    "avg": _avg,
    "min": _min,
    "max": _max,
    "stdev": lambda v, e: _stdev(v, False),
    "stdevp": lambda v, e: _stdev(v, True),
    "percentiledisc": _percentile_disc,
    "percentilecont": _percentile_cont,
}
