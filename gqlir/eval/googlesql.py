"""GoogleSQL functions that Spanner output uses, evaluated with GoogleSQL's meaning.

``TO_JSON(x)`` and ``SAFE_TO_JSON(x)`` of a graph element give the JSON object Spanner and
ZetaSQL write for it: ``{"identifier", "kind": "node", "labels", "properties"}``, an edge adding
``source_node_identifier`` and ``destination_node_identifier``; a path is the JSON array of its
elements in order (https://cloud.google.com/spanner/docs/graph/work-with-visualizations;
GoogleSQL's cast tests, "Cast GRAPH_ELEMENT" and "Cast GRAPH_PATH": a node is
``{"identifier":…,"kind":"node","labels":["L1"],"properties":{"a":1}}``, a path the array). A JSON value is held
as plain data (dicts, lists, numbers, strings, booleans, None for JSON null). ``SAFE_TO_JSON``
writes a value JSON cannot hold (NaN, infinity) as JSON null where ``TO_JSON`` fails
(https://cloud.google.com/spanner/docs/reference/standard-sql/json_functions, SAFE_TO_JSON).

A temporal value stays itself inside the JSON data: Spanner writes a DATE or TIMESTAMP as its
text, which only a reader that knows the column's type reads back, and has no type for Cypher's
local and zoned times at all; the evaluator runs queries on graphs (the TCK's) holding such
values, and keeps them so that the element they belong to can still be compared.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from ..errors import EvaluationError
from . import temporal as tm
from .graph import Node, Relationship
from .runtime import Runtime, unsupported
from .values import Path


def node_identifier(node: Node) -> str:
    return f"n{node.id}"


def edge_identifier(rel: Relationship) -> str:
    return f"e{rel.id}"


def to_json(value: Any, *, safe: bool) -> Any:
    """``value`` as the JSON data ``TO_JSON`` (``safe``: ``SAFE_TO_JSON``) gives."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if safe:
            return None
        raise EvaluationError(
            "TO_JSON cannot hold a NaN or an infinite number",
            category="ArgumentError",
            detail="InvalidArgumentValue",
        )
    if isinstance(value, Node):
        return {
            "identifier": node_identifier(value),
            "kind": "node",
            "labels": list(value.labels),
            "properties": {k: to_json(v, safe=safe) for k, v in value.properties.items()},
        }
    if isinstance(value, Relationship):
        return {
            "identifier": edge_identifier(value),
            "kind": "edge",
            "labels": [value.type],
            "properties": {k: to_json(v, safe=safe) for k, v in value.properties.items()},
            "source_node_identifier": f"n{value.start}",
            "destination_node_identifier": f"n{value.end}",
        }
    if isinstance(value, Path):
        out: list[Any] = [to_json(value.nodes[0], safe=safe)]
        for rel, node in zip(value.relationships, value.nodes[1:], strict=True):
            out.append(to_json(rel, safe=safe))
            out.append(to_json(node, safe=safe))
        return out
    if isinstance(value, list):
        return [to_json(v, safe=safe) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v, safe=safe) for k, v in value.items()}
    if isinstance(value, _TEMPORAL):
        return value
    raise unsupported(f"TO_JSON of a {type(value).__name__}")


_TEMPORAL = (tm.Date, tm.LocalTime, tm.Time, tm.LocalDateTime, tm.DateTime, tm.Duration)


def call_to_json(rt: Runtime, args: list[Any]) -> Any:
    return to_json(args[0], safe=False)


def call_safe_to_json(rt: Runtime, args: list[Any]) -> Any:
    return to_json(args[0], safe=True)


def _strings(name: str, args: list[Any]) -> list[str] | None:
    """The arguments, which GoogleSQL types as STRING: None when one is null; a value of
    another type is the analysis error Spanner reports before running."""
    if any(a is None for a in args):
        return None
    for a in args:
        if not isinstance(a, str):
            raise EvaluationError(
                f"{name} takes STRING arguments, not {type(a).__name__}",
                category="TypeError",
                detail="InvalidArgumentType",
            )
    return args


def call_strpos(rt: Runtime, args: list[Any]) -> Any:
    """``STRPOS(value, subvalue)``: the 1-based position of the first occurrence, 0 when
    there is none; an empty subvalue is at 1 (string_functions#strpos)."""
    strings = _strings("STRPOS", args)
    return None if strings is None else strings[0].find(strings[1]) + 1


def call_regexp_contains(rt: Runtime, args: list[Any]) -> Any:
    """``REGEXP_CONTAINS(value, regexp)``: whether RE2 finds a match anywhere in the value
    (string_functions#regexp_contains), run with Python's ``re`` on the pattern read as RE2
    reads it (:func:`_re2`)."""
    strings = _strings("REGEXP_CONTAINS", args)
    if strings is None:
        return None
    return _re2(strings[1]).search(strings[0]) is not None


_RE2_CLASS_ESCAPES = {"d": "0-9", "w": "0-9A-Za-z_", "s": "\\t\\n\\f\\r "}
_RE2_ESCAPES = {
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": "[0-9A-Za-z_]",
    "W": "[^0-9A-Za-z_]",
    "s": "[\\t\\n\\f\\r ]",
    "S": "[^\\t\\n\\f\\r ]",
    "z": "\\Z",
}


@lru_cache(maxsize=256)
def _re2(pattern: str) -> re.Pattern[str]:
    """An RE2 pattern as Python's ``re`` reads the same: ``\\d \\w \\s`` are ASCII classes
    (RE2's ``\\s`` has no vertical tab), ``$`` and ``\\z`` match only at the end of the text
    (RE2 without the m flag). Other syntax is passed on as Python reads it, which agrees with
    RE2 for the patterns gqlir writes; an RE2 construct ``re`` lacks is an error."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if in_class and nxt in _RE2_CLASS_ESCAPES:
                out.append(_RE2_CLASS_ESCAPES[nxt])
            elif not in_class and nxt in _RE2_ESCAPES:
                out.append(_RE2_ESCAPES[nxt])
            elif nxt.isalpha() and nxt not in "tnrfvax":
                raise unsupported(f"the RE2 escape \\{nxt}")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
        elif c == "]" and in_class:
            in_class = False
            out.append(c)
        elif c == "$" and not in_class:
            out.append("\\Z")
        else:
            out.append(c)
        i += 1
    try:
        return re.compile("".join(out))
    except re.error as exc:
        raise EvaluationError(
            f"invalid regular expression {pattern!r}: {exc}", category="ArgumentError"
        ) from None


_INT64 = (-(2**63), 2**63 - 1)


def call_div(rt: Runtime, args: list[Any]) -> Any:
    """``DIV(X, Y)`` on INT64: the quotient truncated toward zero; an error for a zero divisor
    or an overflow (mathematical_functions#div)."""
    x, y = args
    if x is None or y is None:
        return None
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, int):
            raise EvaluationError(
                f"DIV takes INT64 arguments, not {type(v).__name__}",
                category="TypeError",
                detail="InvalidArgumentType",
            )
    if y == 0:
        raise EvaluationError(
            "division by zero", category="ArithmeticError", detail="DivisionByZero"
        )
    q = abs(x) // abs(y)
    q = q if (x >= 0) == (y >= 0) else -q
    if not _INT64[0] <= q <= _INT64[1]:
        raise EvaluationError("DIV overflows INT64", category="ArithmeticError")
    return q


def call_substr(rt: Runtime, args: list[Any]) -> Any:
    """``SUBSTR(value, position[, length])``: positions count from 1, a negative one from the
    end; 0, or one before the start, is 1; one past the end gives ''; a negative length is an
    error (string_functions#substr)."""
    if any(a is None for a in args):
        return None
    strings = _strings("SUBSTR", [args[0]])
    assert strings is not None  # no argument is null (answered above)
    value = strings[0]
    for v in args[1:]:
        if isinstance(v, bool) or not isinstance(v, int):
            raise EvaluationError(
                f"SUBSTR takes INT64 positions and lengths, not {type(v).__name__}",
                category="TypeError",
                detail="InvalidArgumentType",
            )
    position = args[1]
    if position < 0:
        position = max(len(value) + position, 0)
    else:
        position = max(position - 1, 0)
    if len(args) == 3:
        if args[2] < 0:
            raise EvaluationError("SUBSTR length cannot be negative", category="ArgumentError")
        return value[position : position + args[2]]
    return value[position:]


def _date_arg(name: str, value: Any) -> Any:
    """A DATE argument: Spanner's DATE functions take no other type (a TIMESTAMP is an analysis
    error, and Spanner has no type for Cypher's local or zoned times)."""
    if not isinstance(value, tm.Date):
        raise EvaluationError(
            f"{name} takes a DATE, not {type(value).__name__}",
            category="TypeError",
            detail="InvalidArgumentType",
        )
    return value


def call_interval(rt: Runtime, args: list[Any]) -> Any:
    """``INTERVAL n part`` of a DATE part: as a duration of whole months or days (a year is
    12 months, a quarter 3, a week 7 days; date_functions, DATE_ADD)."""
    count, part = args
    if count is None:
        return None
    if isinstance(count, bool) or not isinstance(count, int):
        raise EvaluationError(
            "INTERVAL takes an INT64 count", category="TypeError", detail="InvalidArgumentType"
        )
    months = {"YEAR": 12, "QUARTER": 3, "MONTH": 1}.get(part, 0) * count
    days = {"WEEK": 7, "DAY": 1}.get(part, 0) * count
    return tm.Duration(months, days, 0)


def call_date_add(rt: Runtime, args: list[Any]) -> Any:
    """``DATE_ADD(d, INTERVAL n part)``: months (a year, a quarter) move the month and keep the
    day, the last day of the month where the new month is shorter; days and weeks move the day
    (date_functions, DATE_ADD)."""
    if any(a is None for a in args):
        return None
    return tm.add_duration(_date_arg("DATE_ADD", args[0]), args[1])


def call_extract(rt: Runtime, args: list[Any]) -> Any:
    """``EXTRACT(part FROM d)`` of a DATE: DAYOFWEEK counts from Sunday (1) to Saturday (7);
    WEEK counts Sunday-started weeks, 0 before the year's first Sunday; ISOWEEK and ISOYEAR
    are ISO 8601's (date_functions, EXTRACT)."""
    part, value = args
    if value is None:
        return None
    d = _date_arg("EXTRACT", value).date
    iso = d.isocalendar()
    parts = {
        "YEAR": d.year,
        "MONTH": d.month,
        "DAY": d.day,
        "QUARTER": (d.month - 1) // 3 + 1,
        "DAYOFYEAR": d.timetuple().tm_yday,
        "DAYOFWEEK": d.isoweekday() % 7 + 1,
        "WEEK": int(d.strftime("%U")),
        "ISOWEEK": iso[1],
        "ISOYEAR": iso[0],
    }
    return parts[part]


def _truncate(d: Any, part: str) -> Any:
    """The first day of ``d``'s ``part``: WEEK starts on Sunday, ISOWEEK on Monday, ISOYEAR
    is the Monday of its ISO week 1 (date_functions, DATE_TRUNC)."""
    import datetime as _dt

    if part == "DAY":
        return d
    if part == "WEEK":
        return d - _dt.timedelta(days=d.isoweekday() % 7)
    if part == "ISOWEEK":
        return d - _dt.timedelta(days=d.isoweekday() - 1)
    if part == "MONTH":
        return d.replace(day=1)
    if part == "QUARTER":
        return d.replace(month=(d.month - 1) // 3 * 3 + 1, day=1)
    if part == "YEAR":
        return d.replace(month=1, day=1)
    return _dt.date.fromisocalendar(d.isocalendar()[0], 1, 1)  # ISOYEAR


def call_date_trunc(rt: Runtime, args: list[Any]) -> Any:
    """``DATE_TRUNC(d, part)`` of a DATE (date_functions, DATE_TRUNC)."""
    value, part = args
    if value is None:
        return None
    return tm.Date(_truncate(_date_arg("DATE_TRUNC", value).date, part))


def call_date_diff(rt: Runtime, args: list[Any]) -> Any:
    """``DATE_DIFF(a, b, part)``: how many ``part`` boundaries lie between ``b`` and ``a``
    (date_functions, DATE_DIFF)."""
    a, b, part = args
    if a is None or b is None:
        return None
    x, y = _date_arg("DATE_DIFF", a).date, _date_arg("DATE_DIFF", b).date
    if part in ("DAY", "WEEK", "ISOWEEK"):
        days = (_truncate(x, part) - _truncate(y, part)).days
        return days if part == "DAY" else days // 7
    if part in ("MONTH", "QUARTER"):
        size = 1 if part == "MONTH" else 3
        return (x.year * 12 + x.month - 1) // size - (y.year * 12 + y.month - 1) // size
    if part == "YEAR":
        return x.year - y.year
    return x.isocalendar()[0] - y.isocalendar()[0]  # ISOYEAR


#: canonical name -> implementation (registered by :mod:`gqlir.eval.functions`)
FUNCTIONS = {
    "googlesql.to_json": call_to_json,
    "googlesql.safe_to_json": call_safe_to_json,
    "googlesql.strpos": call_strpos,
    "googlesql.regexp_contains": call_regexp_contains,
    "googlesql.div": call_div,
    "googlesql.substr": call_substr,
    "googlesql.interval": call_interval,
    "googlesql.date_add": call_date_add,
    "googlesql.extract": call_extract,
    "googlesql.date_trunc": call_date_trunc,
    "googlesql.date_diff": call_date_diff,
}
