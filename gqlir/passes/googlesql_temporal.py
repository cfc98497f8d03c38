"""Cypher's dates and times written with GoogleSQL's DATE and TIMESTAMP functions and literals.

Spanner's GoogleSQL has three temporal types: DATE (a calendar date without a zone), TIMESTAMP
(an instant) and INTERVAL; there is no DATETIME and no TIME
(https://cloud.google.com/spanner/docs/reference/standard-sql/data-types, Data type list;
BigQuery's GoogleSQL has both, Spanner's list does not). Cypher's ``date`` is Spanner's DATE
(both proleptic Gregorian, years 1 to 9999 in Spanner). What is written here, for a value
known to be a date (a literal, or a property the schema types DATE):

* ``d.year``, ``.month``, ``.day``, ``.quarter``, ``.ordinalDay``, ``.week``, ``.weekYear``
  as ``EXTRACT(YEAR | MONTH | DAY | QUARTER | DAYOFYEAR | ISOWEEK | ISOYEAR FROM d)``: Cypher's
  week and week year are ISO 8601's (https://neo4j.com/docs/cypher-manual/current/values-and-
  types/temporal/#cypher-temporal-accessing-components-temporal-instants), as ISOWEEK and
  ISOYEAR are (https://cloud.google.com/spanner/docs/reference/standard-sql/date_functions,
  EXTRACT). ``.dayOfWeek`` (and ``.weekDay``) counts Monday 1 … Sunday 7 where DAYOFWEEK
  counts Sunday 1 … Saturday 7: ``MOD(EXTRACT(DAYOFWEEK FROM d) + 5, 7) + 1``.
  ``.dayOfQuarter`` as ``DATE_DIFF(d, DATE_TRUNC(d, QUARTER), DAY) + 1`` (date_functions,
  DATE_DIFF and DATE_TRUNC). EXTRACT of a TIMESTAMP reads it in the database's default
  time zone, so a property whose type is not known to be DATE stays refused.
* ``d + duration`` and ``d - duration``, with a constant duration of whole months and days
  (no clock part), as ``DATE_ADD(DATE_ADD(d, INTERVAL m MONTH), INTERVAL n DAY)``: Cypher adds
  the months first, keeping the day of the month or clamping it to the month's last day, then
  the days (https://neo4j.com/docs/cypher-manual/current/values-and-types/temporal/
  #cypher-temporal-duration-arithmetic), and DATE_ADD with MONTH keeps the day or gives the
  last day of a shorter month (date_functions, DATE_ADD). Subtracting adds the negated parts.
  The left operand may also be a property of unknown type when the duration has months:
  DATE_ADD with a MONTH part takes only a DATE (on a TIMESTAMP "DATE_ADD does not support the
  MONTH date part when the argument is TIMESTAMP type", ZetaSQL's analyser; on a string or a
  number no signature matches), so on any other stored type the query is an analysis error,
  never another value. A duration of days alone is not written for such a property: ZetaSQL
  also accepts DATE_ADD(TIMESTAMP, INTERVAL n DAY), which Spanner's documentation does not
  describe.
* ``date.truncate(unit, d)`` without a map of fields to set, for ``unit`` ``'day'``,
  ``'week'``, ``'month'``, ``'quarter'``, ``'year'``, ``'weekYear'``, as ``DATE_TRUNC(d, DAY |
  ISOWEEK | MONTH | QUARTER | YEAR | ISOYEAR)``: Cypher's week starts on Monday and its week
  year is ISO 8601's (https://neo4j.com/docs/cypher-manual/current/functions/temporal/#functions-
  date-truncate), as ISOWEEK and ISOYEAR truncate (date_functions, DATE_TRUNC: an ISO week
  starts on Monday; an ISO year on the Monday of the week whose Thursday is in that Gregorian
  year). Decades, centuries and millennia have no DATE_TRUNC part and stay refused.
* a constant datetime at offset zero (``Z``, no zone name) as a ``TIMESTAMP`` literal with its
  instant to the nanosecond: a TIMESTAMP is an instant with nanosecond precision from
  0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z (the Spanner client's Timestamp,
  https://cloud.google.com/cpp/docs/reference/spanner/latest/classgoogle_1_1cloud_1_1spanner_1_1Timestamp),
  and "timestamps in query results are consistently presented in UTC, with Z appended"
  (https://cloud.google.com/spanner/docs/set-default-time-zone, Limitations), so such a value
  reads back as Cypher writes it; two such values compare as instants, as Cypher's do. A
  datetime at another offset or in a named zone stays refused: the TIMESTAMP keeps its instant
  and loses the offset, which Cypher returns and prints. The literal carries its offset, so
  Spanner's default time zone (America/Los_Angeles) plays no part.
* a constant datetime at any offset or in a named zone that is a direct operand of ``<``,
  ``<=``, ``>`` or ``>=`` as the TIMESTAMP literal of the same instant: Cypher orders two
  datetimes by the instants they denote (https://neo4j.com/docs/cypher-manual/current/values-
  and-types/ordering-equality-comparison/, temporal instants), as GoogleSQL orders TIMESTAMPs,
  and the comparison's boolean is all the query sees of it. A comparison with a value of
  another type is null in Cypher and an analysis error in GoogleSQL ("No matching signature
  for operator < for argument types: DATE, TIMESTAMP", ZetaSQL's analyser, and the same for a
  STRING), never another answer. Equality is left as it is.
* ``t ± duration`` of a datetime (a TIMESTAMP: a property the schema types so, the current
  instant, a literal at offset zero) and a constant duration without months as
  ``TIMESTAMP_ADD(t, INTERVAL n part)`` (``TIMESTAMP_SUB``) of the duration's elapsed time, a
  day as 24 hours: Cypher adds the days in the value's zone, which for a UTC instant is 24
  hours each, then the clock part (duration arithmetic), and TIMESTAMP_ADD adds a DAY as 24
  hours to the instant (timestamp_functions, TIMESTAMP_ADD); every datetime that reaches
  Spanner is such an instant, since one at another offset is refused or folded first. Months
  stay refused (no MONTH part for a TIMESTAMP). The reader writes ``TIMESTAMP_ADD`` and
  ``TIMESTAMP_SUB`` back as ``t ± duration({hours: 24 n})`` and the like: elapsed time,
  whatever ``t``'s zone.
* ``date()`` and ``date.statement()``, the current date in the server's default time zone, as
  ``date({timezone: 'UTC'})``: Neo4j's default time zone is UTC (setting
  ``db.temporal.timezone``, default ``Z``: https://neo4j.com/docs/operations-manual/current/
  configuration/configuration-settings/#config_db.temporal.timezone), and ``date({timezone:
  z})`` with a zone name is printed ``CURRENT_DATE('z')``: "the current date is recorded at
  the start of the query statement", as Cypher's ``date()`` reads the statement clock
  (date_functions, CURRENT_DATE; Spanner's default zone, America/Los_Angeles, is never left to
  apply). ``date.realtime()`` and ``date.transaction()`` stay refused.
* ``datetime()`` and ``datetime.statement()``, the statement's instant in the default zone
  (UTC), as ``CURRENT_TIMESTAMP()``: the same instant, presented in UTC
  (timestamp_functions, CURRENT_TIMESTAMP; set-default-time-zone).

A duration as a value (returned or compared) stays refused: GoogleSQL compares INTERVALs after
normalising a month to 30 days and a day to 24 hours (``IntervalValue::operator==`` compares
``GetAsMicros()``: google/zetasql, zetasql/public/interval_value.h), Cypher compares their
components.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any, ClassVar

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node
from .scoped import ScopedRewrite

#: Cypher temporal function (or its namespace) -> why GoogleSQL for Spanner has no value of
#: its result's type with Cypher's meaning (data-types: DATE, TIMESTAMP, INTERVAL only)
WHY_REFUSED = {
    "localdatetime": "Spanner has no local datetime type (no DATETIME: DATE, TIMESTAMP and "
    "INTERVAL only)",
    "localtime": "Spanner has no time-of-day type (no TIME: DATE, TIMESTAMP and INTERVAL only)",
    "time": "Spanner has no time-of-day type (no TIME: DATE, TIMESTAMP and INTERVAL only)",
    "datetime": "a Spanner TIMESTAMP keeps the instant and loses the offset or zone, so only a "
    "constant datetime at offset zero, or one compared with <, <=, > or >=, is written (as a "
    "TIMESTAMP literal)",
    "duration": "a Spanner INTERVAL compares after normalising a month to 30 days and a day to "
    "24 hours; only constant months and days added to a DATE are written (DATE_ADD)",
    "date": "only constant dates, accessors, truncation and arithmetic of values known to be "
    "DATEs are written",
}


def why_refused(function: str) -> str | None:
    """The reason a Cypher temporal function is refused for Spanner, or None if not one."""
    return WHY_REFUSED.get(function.partition(".")[0])


#: Cypher date accessor -> the EXTRACT part with the same value
ACCESSORS = {
    "year": "YEAR",
    "month": "MONTH",
    "day": "DAY",
    "quarter": "QUARTER",
    "ordinalDay": "DAYOFYEAR",
    "week": "ISOWEEK",
    "weekYear": "ISOYEAR",
}
_DAY_OF_WEEK = frozenset({"dayOfWeek", "weekDay"})


def _extract(part: str, subject: e.Expr, pos: int | None) -> e.Expr:
    return e.FunctionCall("googlesql.extract", (e.String(part), subject), pos=pos)


def date_accessor(subject: e.Expr, key: str, pos: int | None = None) -> e.Expr | None:
    """``subject.key`` of a date as GoogleSQL, or None where no EXTRACT gives its value."""
    part = ACCESSORS.get(key)
    if part is not None:
        return _extract(part, subject, pos)
    if key == "dayOfQuarter":
        start = e.FunctionCall("googlesql.date_trunc", (subject, e.String("QUARTER")))
        days = e.FunctionCall("googlesql.date_diff", (subject, start, e.String("DAY")))
        return e.Arithmetic(e.ArithOp.ADD_NUMBERS, days, e.Integer(1), pos=pos)
    if key in _DAY_OF_WEEK:
        sunday_first = _extract("DAYOFWEEK", subject, pos)
        shifted = e.Arithmetic(e.ArithOp.ADD_NUMBERS, sunday_first, e.Integer(5))
        monday_zero = e.Arithmetic(e.ArithOp.MOD, shifted, e.Integer(7))
        return e.Arithmetic(e.ArithOp.ADD_NUMBERS, monday_zero, e.Integer(1), pos=pos)
    return None


#: Cypher truncation unit -> the DATE_TRUNC part giving the same first day
TRUNCATIONS = {
    "day": "DAY",
    "week": "ISOWEEK",
    "month": "MONTH",
    "quarter": "QUARTER",
    "year": "YEAR",
    "weekYear": "ISOYEAR",
}


def truncate_date(call: e.FunctionCall) -> e.Expr | None:
    """``date.truncate(unit, d[, {}])`` as ``DATE_TRUNC(d, part)``, or None where the unit is
    not a literal with a DATE_TRUNC part or fields are set."""
    args = call.args
    if len(args) not in (2, 3) or not isinstance(args[0], e.String):
        return None
    if len(args) == 3 and not (isinstance(args[2], e.MapLiteral) and not args[2].entries):
        return None
    part = TRUNCATIONS.get(args[0].value)
    if part is None:
        return None
    return e.FunctionCall("googlesql.date_trunc", (args[1], e.String(part)), pos=call.pos)


def date_parts(duration: e.Expr) -> tuple[int, int] | None:
    """The months and days of a constant duration without a clock part, else None."""
    parts = duration_parts(duration)
    if parts is None or parts[2] != 0:
        return None
    return parts[0], parts[1]


def duration_parts(duration: e.Expr) -> tuple[int, int, int] | None:
    """The months, days and nanoseconds of a constant duration, else None."""
    from ..eval import temporal as tm

    value = None
    if isinstance(duration, e.TemporalLiteral) and duration.kind is e.TemporalKind.DURATION:
        try:
            value = tm.parse_temporal("duration", duration.text)
        except Exception:  # the text is not a duration the evaluator reads: left as it is
            return None
    elif (
        isinstance(duration, e.FunctionCall)
        and duration.name == "duration"
        and len(duration.args) == 1
        and isinstance(duration.args[0], e.MapLiteral)
        and all(isinstance(v, e.Integer) for _, v in duration.args[0].entries)
    ):
        fields = {k: v.value for k, v in duration.args[0].entries if isinstance(v, e.Integer)}
        try:
            value = tm.duration_from_map(fields)
        except Exception:  # an unknown or invalid field: the call is refused as it is
            return None
    if not isinstance(value, tm.Duration):
        return None
    return value.months, value.days, value.nanos


def add_to_date(
    date: e.Expr, duration: e.Expr, *, subtract: bool, known: bool, pos: int | None
) -> e.Expr | None:
    """``date ± duration`` as nested DATE_ADD calls (months, then days), or None where the
    duration is not a constant of whole months and days (or, unless the left operand is
    ``known`` to be a date, has no months)."""
    parts = date_parts(duration)
    if parts is None or (not known and parts[0] == 0):
        return None
    sign = -1 if subtract else 1
    out = date
    for count, unit in zip(parts, ("MONTH", "DAY"), strict=True):
        if count:
            interval = e.FunctionCall(
                "googlesql.interval", (e.Integer(sign * count), e.String(unit))
            )
            out = e.FunctionCall("googlesql.date_add", (out, interval), pos=pos)
    if out is date:  # a zero duration: DATE_ADD of nothing still requires a DATE
        zero = e.FunctionCall("googlesql.interval", (e.Integer(0), e.String("DAY")))
        out = e.FunctionCall("googlesql.date_add", (date, zero), pos=pos)
    return out


#: the current date in the default time zone
TODAY = frozenset({"date", "date.statement"})
#: the current instant (in the default time zone)
NOW = frozenset({"datetime", "datetime.statement"})
_ORDERING = frozenset({e.CompOp.LT, e.CompOp.LE, e.CompOp.GT, e.CompOp.GE})
_EPOCH = date(1970, 1, 1).toordinal()


def utc_timestamp(node: e.TemporalLiteral, *, any_offset: bool = False) -> e.TemporalLiteral | None:
    """A datetime literal at offset zero (with ``any_offset``, at any offset or zone) as the
    TIMESTAMP literal of the same instant, its text in UTC with all nine digits of the
    fraction; else None."""
    from ..eval import temporal as tm

    if node.kind is not e.TemporalKind.DATETIME or node.timestamp:
        return None
    try:
        value = tm.parse_temporal("datetime", node.text)
    except Exception:  # not a datetime the evaluator reads: left to the printer's refusal
        return None
    if not isinstance(value, tm.DateTime):
        return None
    if not any_offset and (value.offset != 0 or value.zone is not None):
        return None
    days, nanos = divmod(value.epoch_nanos(), tm.NANOS_PER_DAY)
    if not 1 <= _EPOCH + days <= date.max.toordinal():
        return None
    seconds, fraction = divmod(nanos, tm.NANOS_PER_SECOND)
    clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{fraction:09d}"
    text = f"{date.fromordinal(_EPOCH + days).isoformat()}T{clock}Z"
    return e.TemporalLiteral(e.TemporalKind.DATETIME, text, timestamp=True, pos=node.pos)


#: an IANA time zone name (GoogleSQL's time zone strings: timestamp_functions, time zone
#: definitions)
ZONE_NAME = re.compile(r"[A-Za-z_]+(?:/[A-Za-z0-9_+-]+)*")


def current_date_zone(call: e.FunctionCall) -> str | None:
    """The zone of ``date({timezone: 'name'})``, the current date in a named zone, else None."""
    if call.name != "date" or len(call.args) != 1:
        return None
    arg = call.args[0]
    if not isinstance(arg, e.MapLiteral) or len(arg.entries) != 1:
        return None
    key, zone = arg.entries[0]
    if key != "timezone" or not isinstance(zone, e.String) or not ZONE_NAME.fullmatch(zone.value):
        return None
    return zone.value


def lower_timestamps(root: Node, target: Dialect) -> Node:
    """``root`` with its datetime literals at offset zero, and those compared by order,
    written as TIMESTAMP literals, and the current date's default zone made explicit."""

    def compared(node: e.Expr) -> e.Expr:
        if isinstance(node, e.TemporalLiteral):
            return utc_timestamp(node, any_offset=True) or node
        return node

    def rewrite(node: Node) -> Node:
        if isinstance(node, e.TemporalLiteral):
            return utc_timestamp(node) or node
        if isinstance(node, e.FunctionCall) and node.name == "datetime.statement" and not node.args:
            return e.FunctionCall("datetime", (), pos=node.pos)
        if isinstance(node, e.FunctionCall) and node.name in TODAY and not node.args:
            utc = e.MapLiteral((("timezone", e.String("UTC")),))
            return e.FunctionCall("date", (utc,), pos=node.pos)
        if isinstance(node, e.Comparison) and node.op in _ORDERING:
            left, right = compared(node.left), compared(node.right)
            if left is not node.left or right is not node.right:
                return e.Comparison(node.op, left, right, pos=node.pos)
        return node

    return root.transform(rewrite)


#: TIMESTAMP_ADD's parts, largest first, in nanoseconds
_ELAPSED_PARTS = (
    ("DAY", 86_400 * 10**9),
    ("HOUR", 3_600 * 10**9),
    ("MINUTE", 60 * 10**9),
    ("SECOND", 10**9),
    ("MILLISECOND", 10**6),
    ("MICROSECOND", 10**3),
    ("NANOSECOND", 1),
)


def add_to_timestamp(
    instant: e.Expr, duration: e.Expr, *, subtract: bool, pos: int | None
) -> e.Expr | None:
    """``instant ± duration`` of a constant duration without months as one ``TIMESTAMP_ADD``
    (``TIMESTAMP_SUB``) of its elapsed time in the largest part that counts it exactly, or
    None."""
    parts = duration_parts(duration)
    if parts is None or parts[0] != 0:
        return None
    total = parts[1] * 86_400 * 10**9 + parts[2]
    unit, size = next((u, n) for u, n in _ELAPSED_PARTS if total % n == 0)
    interval = e.FunctionCall("googlesql.interval", (e.Integer(total // size), e.String(unit)))
    name = "googlesql.timestamp_sub" if subtract else "googlesql.timestamp_add"
    return e.FunctionCall(name, (instant, interval), pos=pos)


# -- the scope-typed rules: which operand is a date or an instant ---------------------------------


def applies(target: Dialect) -> bool:
    """Whether the target writes GoogleSQL's date and time functions."""
    return not _WRITTEN.isdisjoint(target.functions)


#: The GoogleSQL functions the rules write (each rule runs where the target spells its own).
_WRITTEN = frozenset(
    {"googlesql.date_add", "googlesql.extract", "googlesql.date_trunc"}
    | {"googlesql.current_date", "googlesql.current_timestamp"}
)


#: The functions and node kinds the scope-typed rules rewrite (the pass is skipped without them).
NAMES = frozenset({"date", "datetime", "date.truncate"})
#: The functions whose value may be a date, an instant or a duration (by the part of their name
#: before a dot): Cypher's constructors and the GoogleSQL forms the earlier passes write.
_TEMPORAL_SOURCES = frozenset(
    {"date", "datetime", "localdatetime", "time", "localtime", "duration", "googlesql"}
)


def dates_needed(summary: Any, target: Dialect, typed: bool = False) -> bool:
    """Whether a query (its pipeline ``summary``) may hold a date, an instant or a duration for
    the rules of :func:`lower_dates`: a temporal literal, a call that makes one, or a schema
    whose properties may be typed so (``typed``). A stored property of unknown type meets a
    rule only beside a constant duration, itself a literal or a call."""
    if typed or e.TemporalLiteral in summary.kinds:
        return True
    return any(name.partition(".")[0] in _TEMPORAL_SOURCES for name in summary.functions)


def lower_dates(
    root: Node, target: Dialect, properties: Mapping[tuple[str, str], str] | None = None
) -> Node:
    """``root`` with its date accessors, truncations, date and instant arithmetic and current
    date or instant written as GoogleSQL's functions (the rules above), typing operands over
    the variables in scope and the schema's property kinds."""
    return GoogleSqlDates(target, properties).run(root)


def _arithmetic(walk: ScopedRewrite, node: e.Arithmetic) -> e.Expr:
    """``date ± duration`` as DATE_ADD (the left operand a date, or a stored value DATE_ADD
    rejects unless a DATE), ``instant ± duration`` as TIMESTAMP_ADD / TIMESTAMP_SUB."""
    if node.op not in (e.ArithOp.ADD, e.ArithOp.SUB) or (
        "googlesql.date_add" not in walk.dialect.functions
    ):
        return node
    lt, rt = walk.type_of(node.left), walk.type_of(node.right)
    sub = node.op is e.ArithOp.SUB
    out: e.Expr | None = None
    if lt.kind == "datetime":
        out = add_to_timestamp(node.left, node.right, subtract=sub, pos=node.pos)
    elif not sub and rt.kind == "datetime":
        out = add_to_timestamp(node.right, node.left, subtract=False, pos=node.pos)
    elif lt.kind in ("date", "property"):
        known = lt.kind == "date"
        out = add_to_date(node.left, node.right, subtract=sub, known=known, pos=node.pos)
    elif not sub and rt.kind in ("date", "property"):
        known = rt.kind == "date"
        out = add_to_date(node.right, node.left, subtract=False, known=known, pos=node.pos)
    return node if out is None else out


def _property(walk: ScopedRewrite, node: e.Property) -> e.Expr:
    """``d.key`` of a value known to be a date as EXTRACT (or the arithmetic over it)."""
    if "googlesql.extract" not in walk.dialect.functions:
        return node
    if walk.type_of(node.subject).kind != "date":
        return node
    return date_accessor(node.subject, node.key, node.pos) or node


def _function(walk: ScopedRewrite, node: e.FunctionCall) -> e.Expr:
    """``date.truncate`` of a date as DATE_TRUNC; ``date({timezone: z})`` as
    ``CURRENT_DATE(z)``; ``datetime()`` as ``CURRENT_TIMESTAMP()``."""
    name, args = node.name, node.args
    functions = walk.dialect.functions
    if name == "date.truncate":
        dated = len(args) > 1 and "googlesql.date_trunc" in functions
        if dated and walk.type_of(args[1]).kind == "date":
            return truncate_date(node) or node
        return node
    if not walk.caps.googlesql_expressions:
        return node
    if name == "date" and "googlesql.current_date" in functions:
        zone = current_date_zone(node)
        if zone is not None:
            return e.FunctionCall("googlesql.current_date", (e.String(zone),), pos=node.pos)
    if name == "datetime" and not args and "googlesql.current_timestamp" in functions:
        return e.FunctionCall("googlesql.current_timestamp", (), pos=node.pos)
    return node


class GoogleSqlDates(ScopedRewrite):
    rules: ClassVar[Mapping[type, Callable[[Any, Any], e.Expr]]] = {
        e.Arithmetic: _arithmetic,
        e.Property: _property,
        e.FunctionCall: _function,
    }

    def expr(self, node: e.Expr) -> e.Expr:
        # (the walk leaves ``v.key`` of a variable alone: here it may be a date's accessor)
        if type(node) is e.Property and type(node.subject) is e.Variable:
            new = _property(self, node)
            if new is not node:
                return super().expr(new)
        return super().expr(node)
