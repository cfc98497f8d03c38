"""The reference evaluator's value model: openCypher's equality, comparison, orderability and
equivalence, three-valued logic, 64-bit integer arithmetic, Java-style float text, and the
temporal types (construction, text, arithmetic, accessors, truncation)."""

from __future__ import annotations

import functools
import math

import pytest

from gqlir import ir
from gqlir.errors import EvaluationError
from gqlir.eval import Graph, run
from gqlir.eval import temporal as tm
from gqlir.eval.expressions import arithmetic, comparison
from gqlir.eval.values import (
    INT_MAX,
    INT_MIN,
    and3,
    equals,
    equivalence_key,
    format_float,
    not3,
    or3,
    order_compare,
    xor3,
)

NAN = math.nan


def value(expr: str, **params: object) -> object:
    """The single value ``RETURN <expr> AS v`` gives on an empty graph."""
    result = run(f"RETURN {expr} AS v", Graph(), params)
    assert result.columns == ["v"]
    return result.rows[0][0]


def error(expr: str) -> EvaluationError:
    with pytest.raises(EvaluationError) as info:
        value(expr)
    return info.value


# -- equality and comparison -------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, want",
    [
        (None, None, None),
        (1, None, None),
        (1, 1.0, True),
        (1, "1", False),
        (True, 1, False),
        (NAN, NAN, False),
        ([1, 2], [1, 2], True),
        ([1, None], [1, None], None),
        ([1, 2], [1, None], None),
        ([1, 2], [3, None], False),  # a definite difference wins over an unknown
        ([1], [1, 2], False),
        ({"a": None}, {"a": None}, None),
        ({"a": 1}, {"b": 1}, False),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),
    ],
)
def test_equality_is_three_valued(a: object, b: object, want: object) -> None:
    assert equals(a, b) is want
    assert equals(b, a) is want


@pytest.mark.parametrize(
    "a, op, b, want",
    [
        (1, ir.CompOp.LT, 2.5, True),
        (1, ir.CompOp.LT, "a", None),
        ("a", ir.CompOp.LT, "b", True),
        (False, ir.CompOp.LT, True, True),
        ([1, 2], ir.CompOp.LT, [1, 3], True),
        ([1, 2], ir.CompOp.LT, [1, 2, 0], True),
        ([1, None], ir.CompOp.LT, [1, 2], None),
        ([1, "a"], ir.CompOp.LT, [1, 2], None),
        (NAN, ir.CompOp.GT, 1, False),
        (NAN, ir.CompOp.LE, NAN, False),
        (None, ir.CompOp.GE, None, None),
        ({"a": 1}, ir.CompOp.LT, {"a": 2}, None),
        (1, ir.CompOp.NE, None, None),
        (1, ir.CompOp.NE, 2, True),
    ],
)
def test_comparison(a: object, op: ir.CompOp, b: object, want: object) -> None:
    assert comparison(op, a, b) is want


def test_orderability_puts_every_type_in_one_order() -> None:
    n = Graph().create_node()
    values = [None, 2, NAN, 1.5, True, False, "b", "a", [1], [], {"k": 1}, n, -math.inf]
    ordered = sorted(values, key=functools.cmp_to_key(order_compare))
    kinds = [type(v).__name__ if v is not None else "null" for v in ordered]
    assert kinds == [
        "dict", "Node", "list", "list", "str", "str", "bool", "bool",
        "float", "float", "int", "float", "null",
    ]  # fmt: skip
    assert ordered[2:4] == [[], [1]]
    assert ordered[4:8] == ["a", "b", False, True]
    assert ordered[8:11] == [-math.inf, 1.5, 2]
    assert math.isnan(ordered[11])


def test_equivalence_groups_null_nan_and_equal_numbers() -> None:
    assert equivalence_key(None) == equivalence_key(None)
    assert equivalence_key(NAN) == equivalence_key(float("nan"))
    assert equivalence_key(1) == equivalence_key(1.0)
    assert equivalence_key([1, None]) == equivalence_key([1.0, None])
    assert equivalence_key({"a": 1, "b": 2}) == equivalence_key({"b": 2, "a": 1})
    assert equivalence_key(1) != equivalence_key(True)
    assert equivalence_key("1") != equivalence_key(1)


def test_three_valued_logic_tables() -> None:
    t, f, u = True, False, None
    assert [and3(a, b) for a in (t, f, u) for b in (t, f, u)] == [t, f, u, f, f, f, u, f, u]
    assert [or3(a, b) for a in (t, f, u) for b in (t, f, u)] == [t, t, t, t, f, u, t, u, u]
    assert [xor3(a, b) for a in (t, f, u) for b in (t, f, u)] == [f, t, u, t, f, u, u, u, u]
    assert [not3(a) for a in (t, f, u)] == [f, t, u]


def test_boolean_operators_refuse_non_booleans_at_runtime() -> None:
    assert error("$x AND true").category == "ParameterMissing"
    with pytest.raises(EvaluationError) as info:
        run("RETURN $x AND true AS v", Graph(), {"x": 1})
    assert info.value.category == "TypeError"


# -- numbers -----------------------------------------------------------------------------------


def test_integer_arithmetic_is_64_bit_and_checked() -> None:
    assert value(f"{INT_MAX} - 1 + 1") == INT_MAX
    assert error(f"{INT_MAX} + 1").detail == "IntegerOverflow"
    assert error(f"{INT_MIN} - 1").detail == "IntegerOverflow"
    assert error("4611686018427387904 * 2").detail == "IntegerOverflow"
    assert error(f"-({INT_MIN})").detail == "IntegerOverflow"
    assert error(f"abs({INT_MIN})").detail == "IntegerOverflow"


@pytest.mark.parametrize(
    "expr, want",
    [
        ("7 / 2", 3),
        ("-7 / 2", -3),
        ("7 / -2", -3),
        ("7 % 3", 1),
        ("-7 % 3", -1),
        ("7 % -3", 1),
        ("7.5 % 2", 1.5),
        ("-7.5 % 2", -1.5),
        ("7 / 2.0", 3.5),
        ("2 ^ 3", 8.0),
        ("2 ^ -1", 0.5),
        ("1 / 0.0", math.inf),
        ("-1 / 0.0", -math.inf),
        ("1 + 2.5", 3.5),
        ("'a' + 1", "a1"),
        ("[1] + 2", [1, 2]),
        ("0 + [1]", [0, 1]),
        ("[1] + [2]", [1, 2]),
        ("null + 1", None),
    ],
)
def test_arithmetic(expr: str, want: object) -> None:
    got = value(expr)
    assert got == want and type(got) is type(want)


def test_division_by_zero() -> None:
    assert error("1 / 0").category == "ArithmeticError"
    assert error("1 % 0").detail == "DivisionByZero"
    assert math.isnan(value("0 / 0.0"))
    assert math.isnan(value("1 % 0.0"))


def test_integer_division_follows_the_dialect_capability() -> None:
    assert arithmetic(ir.ArithOp.DIV, 7, 2, "truncate") == 3
    assert arithmetic(ir.ArithOp.DIV, 7, 2, "float") == 3.5


@pytest.mark.parametrize(
    "f, text",
    [
        (1.0, "1.0"),
        (0.1, "0.1"),
        (-2.5, "-2.5"),
        (1e20, "1.0E20"),
        (1.5e-5, "1.5E-5"),
        (123456789.0, "1.23456789E8"),
        (9999999.0, "9999999.0"),
        (1e7, "1.0E7"),
        (0.001, "0.001"),
        (0.0001, "1.0E-4"),
        (-0.0, "-0.0"),
        (math.inf, "Infinity"),
        (NAN, "NaN"),
    ],
)
def test_floats_print_like_java(f: float, text: str) -> None:
    assert format_float(f) == text


def test_type_conversions() -> None:
    assert value("toInteger('1.9')") == 1
    assert value("toInteger('-1.9')") == -1
    assert value("toInteger(' 42 ')") == 42
    assert value("toInteger('x')") is None
    assert value("toInteger(2.9)") == 2
    assert value("toFloat('1e3')") == 1000.0
    assert value("toFloat('')") is None
    assert value("toBoolean('TRUE')") is True
    assert value("toBoolean('yes')") is None
    assert value("toString(1.0)") == "1.0"
    assert value("toString(true)") == "true"
    assert value("toStringOrNull([1])") is None
    assert value("toIntegerList(['1', 'x', null])") == [1, None, None]
    assert error("toString([1])").category == "TypeError"
    assert error("toBoolean(1.0)").detail == "InvalidArgumentValue"


# -- strings and lists -------------------------------------------------------------------------


def test_indexing_and_slicing() -> None:
    assert value("[1, 2, 3][0]") == 1
    assert value("[1, 2, 3][-1]") == 3
    assert value("[1, 2, 3][3]") is None
    assert value("[1, 2, 3][-4]") is None
    assert value("[1, 2, 3, 4][1..3]") == [2, 3]
    assert value("[1, 2, 3, 4][-2..]") == [3, 4]
    assert value("[1, 2, 3, 4][..-3]") == [1]
    assert value("[1, 2, 3][null]") is None
    assert value("[1, 2, 3][1..null]") is None
    assert value("{a: 1}['a']") == 1
    assert error("[1, 2][1.0]").category == "TypeError"
    assert error("{a: 1}[0]").detail == "MapElementAccessByNonString"
    assert error("'abc'[0]").category == "TypeError"


def test_string_functions_propagate_null() -> None:
    for fn in ("toUpper(null)", "toLower(null)", "trim(null)", "reverse(null)", "size(null)"):
        assert value(fn) is None
    assert value("substring(null, 1)") is None
    assert value("split(null, ',')") is None
    assert value("replace('aXbX', 'X', null)") is None
    assert value("substring('hello', 1, 3)") == "ell"
    assert value("left('hello', 2)") + value("right('hello', 2)") == "helo"
    assert value("split('a,b,,c', ',')") == ["a", "b", "", "c"]
    assert value("size('héllo')") == 5


def test_list_functions() -> None:
    assert value("range(0, 10, 3)") == [0, 3, 6, 9]
    assert value("range(5, 1, -2)") == [5, 3, 1]
    assert value("range(1, 0)") == []
    assert error("range(1, 5, 0)").category == "ArgumentError"
    assert error("range(1.0, 5)").detail == "InvalidArgumentType"
    assert value("head([])") is None and value("last([1, 2])") == 2
    assert value("tail([1, 2, 3])") == [2, 3]
    assert value("reverse([1, 2])") == [2, 1]
    assert value("coalesce(null, null, 3, 4)") == 3


def test_list_predicates_are_three_valued() -> None:
    assert value("all(x IN [1, null] WHERE x > 0)") is None
    assert value("all(x IN [1, null, -1] WHERE x > 0)") is False
    assert value("any(x IN [null, 2] WHERE x > 1)") is True
    assert value("none(x IN [null] WHERE x > 1)") is None
    assert value("single(x IN [1, 2, null] WHERE x > 1)") is None
    assert value("single(x IN [1, 2, 3] WHERE x > 1)") is False
    assert value("all(x IN [] WHERE false)") is True


def test_membership_is_three_valued() -> None:
    assert value("1 IN [1, null]") is True
    assert value("2 IN [1, null]") is None
    assert value("null IN []") is False
    assert value("null IN [1]") is None
    assert value("[1] IN [[1], 2]") is True


# -- temporal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr, text",
    [
        ("date({year: 1984, month: 10, day: 11})", "1984-10-11"),
        ("date({year: 1984, week: 10, dayOfWeek: 3})", "1984-03-07"),
        ("date({year: 1984, ordinalDay: 202})", "1984-07-20"),
        ("date({year: 1984, quarter: 3, dayOfQuarter: 45})", "1984-08-14"),
        ("date('2015-W30-2')", "2015-07-21"),
        ("date('2015202')", "2015-07-21"),
        ("localtime({hour: 12, minute: 31, second: 14, millisecond: 645})", "12:31:14.645"),
        ("localtime({hour: 12, nanosecond: 645876123})", "12:00:00.645876123"),
        ("localtime('12:31')", "12:31"),
        ("time({hour: 12, timezone: '+01:00'})", "12:00+01:00"),
        ("time('214032.142Z')", "21:40:32.142Z"),
        ("localdatetime({year: 1984, month: 10, day: 11, hour: 12})", "1984-10-11T12:00"),
        ("datetime({year: 1984, month: 10, day: 11, hour: 12, timezone: 'Europe/Stockholm'})",
         "1984-10-11T12:00+01:00[Europe/Stockholm]"),
        ("datetime({year: 1984, month: 7, day: 11, hour: 12, timezone: 'Europe/Stockholm'})",
         "1984-07-11T12:00+02:00[Europe/Stockholm]"),
        ("datetime('2015-07-21T21:40:32.142+0100')", "2015-07-21T21:40:32.142+01:00"),
        ("datetime({epochSeconds: 416779, nanosecond: 999999999})",
         "1970-01-05T19:46:19.999999999Z"),
        ("duration({days: 14, hours: 16, minutes: 12})", "P14DT16H12M"),
        ("duration({months: 0.75})", "P22DT19H51M49.5S"),
        ("duration({seconds: -1.5})", "PT-1.5S"),
        ("duration('P1Y2M10DT2H30M')", "P1Y2M10DT2H30M"),
        ("duration('PT0.000000001S')", "PT0.000000001S"),
        ("duration({})", "PT0S"),
    ],
)  # fmt: skip
def test_temporal_construction_and_text(expr: str, text: str) -> None:
    got = value(expr)
    assert isinstance(got, tm.TEMPORAL_TYPES)
    assert str(got) == text


@pytest.mark.parametrize(
    "expr, text",
    [
        ("date('2020-01-31') + duration({months: 1})", "2020-02-29"),
        ("date('2020-02-29') + duration('P1Y')", "2021-02-28"),
        ("date('1984-10-11') + duration({hours: 47})", "1984-10-12"),
        ("date('1984-10-11') - duration({days: 1, hours: 23})", "1984-10-10"),
        ("localtime('23:00') + duration({hours: 2, days: 5})", "01:00"),
        ("localdatetime('2020-01-01T23:30') + duration({minutes: 45})", "2020-01-02T00:15"),
        ("datetime('2020-03-28T12:00[Europe/Paris]') + duration({days: 1})",
         "2020-03-29T12:00+02:00[Europe/Paris]"),
        ("datetime('2020-03-28T12:00[Europe/Paris]') + duration({hours: 24})",
         "2020-03-29T13:00+02:00[Europe/Paris]"),
        ("duration('P1M') + duration('P1D')", "P1M1D"),
        ("duration('PT1H') - duration('PT2H')", "PT-1H"),
        ("duration('P1Y1M') * 0.5", "P6M15DT5H14M33S"),
        ("duration('P2D') / 4", "PT12H"),
        ("duration.between(date('2020-01-15'), date('2021-03-14'))", "P1Y1M27D"),
        ("duration.between(localtime('10:00'), localtime('08:30'))", "PT-1H-30M"),
        ("duration.inDays(date('2020-01-01'), date('2020-03-01'))", "P60D"),
        ("duration.inMonths(date('2020-01-31'), date('2020-03-30'))", "P1M"),
    ],
)  # fmt: skip
def test_temporal_arithmetic(expr: str, text: str) -> None:
    assert str(value(expr)) == text


def test_temporal_accessors() -> None:
    d = (
        "datetime({year: 1984, month: 11, day: 11, hour: 12, minute: 31, second: 14, "
        "nanosecond: 645876123, timezone: 'Europe/Stockholm'})"
    )
    got = run(
        f"WITH {d} AS d RETURN d.year, d.quarter, d.week, d.weekYear, d.ordinalDay, d.weekDay, "
        "d.dayOfQuarter, d.millisecond, d.microsecond, d.nanosecond, d.timezone, d.offset, "
        "d.offsetMinutes, d.epochSeconds",
        Graph(),
    ).rows[0]
    assert got == (
        1984,
        4,
        45,
        1984,
        316,
        7,
        42,
        645,
        645876,
        645876123,
        "Europe/Stockholm",
        "+01:00",
        60,
        469020674,
    )
    dur = (
        "duration({years: 1, months: 4, days: 10, hours: 1, minutes: 1, seconds: 1, "
        "nanoseconds: 111111111})"
    )
    got = run(
        f"WITH {dur} AS d RETURN d.years, d.quarters, d.months, d.weeks, d.days, d.hours, "
        "d.minutes, d.seconds, d.milliseconds, d.quartersOfYear, d.monthsOfYear, d.daysOfWeek, "
        "d.minutesOfHour, d.nanosecondsOfSecond",
        Graph(),
    ).rows[0]
    assert got == (1, 5, 16, 1, 10, 1, 61, 3661, 3661111, 1, 4, 3, 1, 111111111)
    assert error("date('2020-01-01').hour").category == "ArgumentError"


def test_temporal_truncation() -> None:
    dt = (
        "datetime({year: 2017, month: 10, day: 11, hour: 12, minute: 31, second: 14, "
        "nanosecond: 645876123, timezone: '+01:00'})"
    )
    assert str(value(f"date.truncate('millennium', {dt})")) == "2000-01-01"
    assert str(value(f"date.truncate('weekYear', {dt}, {{dayOfWeek: 2}})")) == "2017-01-03"
    assert str(value(f"datetime.truncate('quarter', {dt})")) == "2017-10-01T00:00+01:00"
    assert (
        str(value(f"localtime.truncate('millisecond', {dt}, {{nanosecond: 2}})"))
        == "12:31:14.645000002"
    )
    assert str(value(f"time.truncate('hour', {dt}, {{timezone: '-05:00'}})")) == "12:00-05:00"
    assert error(f"date.truncate('hour', {dt})").category == "ArgumentError"


def test_temporal_comparison_and_equality() -> None:
    assert value("date('2020-01-01') < date('2020-01-02')") is True
    assert value("time('12:00+01:00') = time('11:00Z')") is True
    assert value("datetime('2020-01-01T00:00+01:00') < datetime('2019-12-31T23:30Z')") is True
    assert value("duration('P1D') < duration('P2D')") is None
    assert value("duration('P1D') = duration('PT24H')") is False
    assert value("date('2020-01-01') < localdatetime('2020-01-02T00:00')") is None


def test_invalid_temporal_values_are_errors() -> None:
    assert error("date({year: 2020, month: 13})").category == "ArgumentError"
    assert error("date('2020-02-30')").category == "ArgumentError"
    assert error("datetime({year: 2020, timezone: 'Mars/Olympus'})").category == "ArgumentError"
    assert error("duration({years: 'x'})").category == "TypeError"
