"""Value normalisation for comparing query results, and a lossless JSON form of result values.

Two engines (or two runs) answer with the same value in different forms: ``1`` and ``1.0``, a
sum that differs in the last bits, an instant in another offset, a node with another element
id. :class:`ValueRules` says which differences are ignored; :func:`value_key` maps a value to a
hashable, totally ordered key under those rules, so rows compare as tuples of keys.

:func:`encode` / :func:`decode` keep result tables (nodes, temporal values, decimals,
non-finite floats) in JSON files, for the harness's gold cache.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..engines.base import EdgeValue, NodeValue, PathValue
from ..eval import temporal as tm

__all__ = ["ValueRules", "decode", "encode", "row_key", "value_key"]


@dataclass(frozen=True, slots=True)
class ValueRules:
    """How values are compared.

    * ``float_digits``: floats (and decimals) compare rounded to this many significant digits
      (None: exactly); ``float_decimals`` instead rounds to decimal places, as Text2GQL-Bench's
      ``round(x, 9)``. Integers equal to a float compare equal to it (``1 == 1.0``) unless
      ``unify_numbers`` is False.
    * ``temporal``: ``"instant"`` compares zoned values by the instant they denote (an engine may
      answer in another offset), ``"text"`` by their ISO 8601 text.
    * ``lists``: ``"ordered"`` (list order matters) or ``"sorted"`` (CypherBench: a list value is
      compared as a sorted list, so ``[1, 2]`` equals ``[2, 1]``).
    * ``elements``: nodes, relationships and paths compare by ``"content"`` (labels, type and
      properties: portable between engines) or by the engine's element ``"id"``.
    """

    float_digits: int | None = 12
    float_decimals: int | None = None
    unify_numbers: bool = True
    temporal: Literal["instant", "text"] = "instant"
    lists: Literal["ordered", "sorted"] = "ordered"
    elements: Literal["content", "id"] = "content"


DEFAULT_RULES = ValueRules()

_TEMPORAL_KIND = {
    tm.Date: "date",
    tm.LocalTime: "localtime",
    tm.Time: "time",
    tm.LocalDateTime: "localdatetime",
    tm.DateTime: "datetime",
    tm.Duration: "duration",
}


def _number_key(v: int | float | decimal.Decimal, rules: ValueRules) -> tuple[Any, ...]:
    kind = "num" if rules.unify_numbers else type(v).__name__
    if isinstance(v, int):
        return (kind, v)
    f = float(v)
    if math.isnan(f):
        return ("nan",)
    if math.isinf(f):
        return (kind, f)
    if rules.float_decimals is not None:
        f = round(f, rules.float_decimals)
    elif rules.float_digits is not None:
        f = float(f"{f:.{rules.float_digits}g}")
    if rules.unify_numbers and f.is_integer() and abs(f) < 2**63:
        return (kind, int(f))
    return (kind, f)


def _sorted_keys(keys: list[Any]) -> tuple[Any, ...]:
    return tuple(sorted(keys, key=repr))


def value_key(v: Any, rules: ValueRules = DEFAULT_RULES) -> Any:
    """A hashable key of ``v``: two values are the same answer under ``rules`` exactly when
    their keys are equal. Keys of different kinds never collide (each starts with a tag)."""
    if v is None:
        return ("null",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, float, decimal.Decimal)):
        return _number_key(v, rules)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, (list, tuple)):
        keys = [value_key(x, rules) for x in v]
        return ("list", _sorted_keys(keys) if rules.lists == "sorted" else tuple(keys))
    if isinstance(v, Mapping):
        return ("map", tuple(sorted((str(k), value_key(x, rules)) for k, x in v.items())))
    if isinstance(v, NodeValue):
        if rules.elements == "id":
            return ("node", v.id)
        return ("node", tuple(sorted(v.labels)), value_key(dict(v.properties), rules))
    if isinstance(v, EdgeValue):
        if rules.elements == "id":
            return ("edge", v.id)
        return ("edge", v.type, value_key(dict(v.properties), rules))
    if isinstance(v, PathValue):
        return (
            "path",
            tuple(value_key(n, rules) for n in v.nodes),
            tuple(value_key(e, rules) for e in v.edges),
        )
    if isinstance(v, tm.TEMPORAL_TYPES):
        if rules.temporal == "text":
            return (_TEMPORAL_KIND[type(v)], str(v))
        if isinstance(v, tm.DateTime):
            return ("datetime", v.epoch_nanos())
        if isinstance(v, tm.Time):
            return ("time", v.utc_nanos())
        return (_TEMPORAL_KIND[type(v)], repr(tm.sort_key(v)))
    if isinstance(v, (bytes, bytearray)):
        return ("str", bytes(v).hex())
    return ("other", repr(v))


def row_key(row: Sequence[Any], rules: ValueRules = DEFAULT_RULES) -> tuple:
    return tuple(value_key(v, rules) for v in row)


# -- lossless JSON ----------------------------------------------------------------------------------


def encode(v: Any) -> Any:
    """``v`` as JSON data that :func:`decode` turns back into an equal value. Plain JSON values
    stay as they are; everything else is a one-key object ``{"$kind": …}``."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"$float": repr(v)}
    if isinstance(v, decimal.Decimal):
        return {"$decimal": str(v)}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if isinstance(v, Mapping):
        return {"$map": {str(k): encode(x) for k, x in v.items()}}
    if isinstance(v, NodeValue):
        return {"$node": [v.id, list(v.labels), encode(dict(v.properties))]}
    if isinstance(v, EdgeValue):
        return {"$edge": [v.id, v.type, v.source, v.target, encode(dict(v.properties))]}
    if isinstance(v, PathValue):
        return {"$path": [[encode(n) for n in v.nodes], [encode(e) for e in v.edges]]}
    if isinstance(v, tm.TEMPORAL_TYPES):
        return {"$" + _TEMPORAL_KIND[type(v)]: str(v)}
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    return str(v)


def decode(data: Any) -> Any:
    """The value :func:`encode` wrote."""
    if isinstance(data, list):
        return [decode(x) for x in data]
    if not isinstance(data, dict):
        return data
    ((tag, body),) = data.items()
    if tag == "$float":
        return float(body)
    if tag == "$decimal":
        return decimal.Decimal(body)
    if tag == "$map":
        return {k: decode(x) for k, x in body.items()}
    if tag == "$node":
        return NodeValue(body[0], tuple(body[1]), decode(body[2]))
    if tag == "$edge":
        return EdgeValue(body[0], body[1], body[2], body[3], decode(body[4]))
    if tag == "$path":
        return PathValue(tuple(decode(n) for n in body[0]), tuple(decode(e) for e in body[1]))
    return tm.parse_temporal(tag[1:], body)
