"""Cypher dates written for Spanner (gqlir/passes/googlesql_temporal.py): date accessors as
EXTRACT, date ± duration as DATE_ADD. Each output is analysed by ZetaSQL against the social
catalog (``Person.birthday`` is a DATE), and the reference evaluator, reading the Spanner text
back with GoogleSQL's meaning, gives the Cypher query's answer on dates chosen at month ends,
leap days and ISO week-year boundaries."""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import pytest

from gqlir import api
from gqlir.emitter.gql import emit_gql
from gqlir.errors import UnsupportedError
from gqlir.eval import Graph, evaluate, run
from gqlir.eval import temporal as tm
from gqlir.schema import load_schema

pytest.importorskip("zetasql")
from gqlir.checks.zetasql import check

ROOT = Path(__file__).resolve().parent.parent

#: month ends, a leap day, the days around ISO week-year changes, a Sunday and a Monday
DATES = (
    "2020-01-31", "2020-02-29", "2019-02-28", "2021-03-31", "2020-12-31", "2021-01-01",
    "2021-01-03", "2021-01-04", "1984-01-01", "2015-12-28", "2016-01-03", "2000-08-31",
)  # fmt: skip


@functools.cache
def _social():  # type: ignore[no-untyped-def]
    return load_schema(str(ROOT / "schemas" / "social" / "schema.json"))


def _graph() -> Graph:
    g = Graph()
    for i, text in enumerate(DATES):
        day = tm.Date(dt.date.fromisoformat(text))
        g.create_node(["Person"], {"firstName": f"p{i}", "birthday": day})
    return g


def _spanner(cypher: str, schema: bool = True) -> str:
    s = _social() if schema else None
    query = api.parse(cypher, "neo4j", schema=s)
    return api.translate(
        query,
        "neo4j",
        "spanner",
        writer=lambda x: emit_gql(x, "spanner", graph="social", schema=s),
    )


def _rows(text: str, dialect: str) -> list[tuple]:
    return sorted(run(text, _graph(), dialect=dialect).rows, key=repr)


CASES = {
    "accessors": (
        "MATCH (p:Person) RETURN p.firstName AS n, p.birthday.year AS y, p.birthday.month AS m, "
        "p.birthday.day AS d, p.birthday.quarter AS q, p.birthday.ordinalDay AS o, "
        "p.birthday.week AS w, p.birthday.weekYear AS wy, p.birthday.dayOfWeek AS dw, "
        "p.birthday.weekDay AS wd",
        "EXTRACT(ISOYEAR FROM p.birthday) AS wy",
    ),
    "day of quarter": (
        "MATCH (p:Person) RETURN p.firstName AS n, p.birthday.dayOfQuarter AS q",
        "DATE_DIFF(p.birthday, DATE_TRUNC(p.birthday, QUARTER), DAY) + 1 AS q",
    ),
    "truncation": (
        "MATCH (p:Person) RETURN p.firstName AS n, date.truncate('week', p.birthday) AS w, "
        "date.truncate('weekYear', p.birthday) AS wy, date.truncate('quarter', p.birthday, {}) "
        "AS q, date.truncate('month', p.birthday) AS m, date.truncate('year', p.birthday) AS y, "
        "date.truncate('day', p.birthday) AS d",
        "DATE_TRUNC(p.birthday, ISOYEAR) AS wy",
    ),
    "months and days added": (
        "MATCH (p:Person) RETURN p.firstName AS n, p.birthday + duration({months: 1, days: 2}) AS a",
        "DATE_ADD(DATE_ADD(p.birthday, INTERVAL 1 MONTH), INTERVAL 2 DAY) AS a",
    ),
    "years and weeks subtracted": (
        "MATCH (p:Person) RETURN p.firstName AS n, p.birthday - duration({years: 1, weeks: 2}) AS a",
        "INTERVAL (-12) MONTH",
    ),
    "duration first": (
        "MATCH (p:Person) RETURN p.firstName AS n, duration({months: 13}) + p.birthday AS a",
        "DATE_ADD(p.birthday, INTERVAL 13 MONTH) AS a",
    ),
    "date arithmetic in a filter": (
        "MATCH (p:Person) WHERE p.birthday + duration({months: 1}) >= date('2020-03-01') "
        "RETURN p.firstName AS n",
        "WHERE DATE_ADD(p.birthday, INTERVAL 1 MONTH) >= DATE '2020-03-01'",
    ),
    "ordering by a computed date": (
        "MATCH (p:Person) WITH p ORDER BY p.birthday + duration({months: 1, days: 2}) LIMIT 3 "
        "RETURN p.firstName AS n",
        "ORDER BY DATE_ADD(DATE_ADD(p.birthday",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_zetasql_analyses_the_output_and_the_answer_is_cypher_s(name: str) -> None:
    cypher, fragment = CASES[name]
    text = _spanner(cypher)
    assert fragment in text
    verdict = check(text, _social())
    assert verdict.accepted, f"{verdict}\n{text}"
    assert _rows(text, "spanner") == _rows(cypher, "neo4j")


def test_a_stored_value_of_unknown_type_gets_date_add_only_with_months() -> None:
    """DATE_ADD with a MONTH part rejects anything but a DATE, so a wrong guess fails loudly;
    a duration of days alone on an unknown stored value stays refused."""
    assert "DATE_ADD(n.d, INTERVAL 1 MONTH)" in _spanner(
        "MATCH (n) RETURN n.d + duration({months: 1}) AS x", schema=False
    )
    with pytest.raises(UnsupportedError):
        _spanner("MATCH (n) RETURN n.d + duration({days: 1}) AS x", schema=False)
    rejected = check(
        "GRAPH social MATCH (p:Person) RETURN DATE_ADD(p.creationDate, INTERVAL 1 MONTH) AS x",
        _social(),
    )
    assert not rejected.accepted


@pytest.mark.parametrize(
    "cypher",
    [
        "MATCH (p:Person) RETURN date.truncate('decade', p.birthday) AS x",  # no such part
        "MATCH (p:Person) RETURN date.truncate('month', p.birthday, {day: 2}) AS x",
        "MATCH (p:Person) RETURN p.birthday.hour AS x",  # a date has no hour
        "MATCH (p:Person) RETURN p.birthday + duration({hours: 30}) AS x",  # a clock part
        "MATCH (p:Person) RETURN duration({months: 1}) AS x",  # INTERVAL compares otherwise
        "MATCH (n) RETURN n.d.year AS x",  # a TIMESTAMP's EXTRACT depends on the time zone
    ],
)
def test_what_has_no_exact_googlesql_spelling_is_refused(cypher: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        _spanner(cypher, schema="(n)" not in cypher)
    assert info.value.construct


@pytest.mark.parametrize(
    "text",
    [
        "GRAPH g MATCH (a) RETURN EXTRACT(DAYOFWEEK FROM a.d) AS x",
        "GRAPH g MATCH (a) RETURN DATE_ADD(a.d, INTERVAL (-3) QUARTER) AS x",
        "GRAPH g MATCH (a) WHERE EXTRACT(WEEK FROM a.d) = 1 RETURN a.d AS x",
        "GRAPH g MATCH (a) RETURN DATE_DIFF(a.d, DATE_TRUNC(a.d, isoyear), WEEK) AS x",
    ],
)
def test_spanner_date_functions_read_and_write_back(text: str) -> None:
    query = api.parse(text, "spanner")
    again = api.transpile(text, "spanner", "spanner")
    assert api.parse(again, "spanner") == query
    assert check(again).accepted


def test_the_evaluator_reads_date_functions_with_googlesql_s_meaning() -> None:
    """DAYOFWEEK counts from Sunday; WEEK counts Sunday-started weeks from 0; a month added to
    the 31st gives the last day of a shorter month."""
    rows = run(
        "GRAPH g RETURN EXTRACT(DAYOFWEEK FROM DATE '2021-01-03') AS dw, "
        "EXTRACT(WEEK FROM DATE '2021-01-02') AS w0, EXTRACT(WEEK FROM DATE '2021-01-03') AS w1, "
        "DATE_ADD(DATE '2021-01-31', INTERVAL 1 MONTH) AS m, "
        "DATE_ADD(DATE '2020-02-29', INTERVAL 1 YEAR) AS y",
        Graph(),
        dialect="spanner",
    ).rows
    dw, w0, w1, m, y = rows[0]
    assert (dw, w0, w1) == (1, 0, 1)
    assert (str(m), str(y)) == ("2021-02-28", "2021-02-28")


@pytest.mark.parametrize(
    "cypher",
    [
        "RETURN datetime({year: 1984, month: 10, day: 11, hour: 12, minute: 31, second: 14, "
        "nanosecond: 645876123}) AS t",
        "RETURN datetime.truncate('month', date({year: 2017, month: 10, day: 11}), {day: 2}) AS t",
        "RETURN datetime('2015-07-21T21:40:32.142Z') < datetime('2015-07-21T21:40:33Z') AS t",
        "UNWIND [datetime('2015-07-21T21:40:32Z'), datetime('0001-01-01T00:00Z')] AS t "
        "RETURN t ORDER BY t",
    ],
)
def test_a_datetime_at_offset_zero_is_a_timestamp_literal(cypher: str) -> None:
    """Spanner presents a TIMESTAMP in UTC with Z, to the nanosecond: the value Cypher gives."""
    text = _spanner(cypher, schema=False)
    assert "TIMESTAMP '" in text or "AS t" in text
    assert check(text).accepted, text
    spanner = run(text, Graph(), dialect="spanner").rows
    assert [[str(v) for v in row] for row in spanner] == [
        [str(v) for v in row] for row in run(cypher, Graph(), dialect="neo4j").rows
    ]


@pytest.mark.parametrize(
    "cypher",
    [
        "RETURN datetime({year: 1984, month: 10, day: 11, hour: 12, timezone: '+01:00'}) AS t",
        "RETURN datetime('2015-07-21T21:40:32.142[UTC]') AS t",  # Cypher prints the zone name
        "RETURN datetime({year: 1984, month: 10, day: 11, timezone: 'Europe/Stockholm'}) AS t",
    ],
)
def test_a_datetime_whose_offset_or_zone_would_be_lost_is_refused(cypher: str) -> None:
    with pytest.raises(UnsupportedError):
        _spanner(cypher, schema=False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DATE_TRUNC(DATE '2015-06-15', ISOYEAR)", "2014-12-29"),  # date_functions' example
        ("DATE_TRUNC(DATE '2021-01-06', WEEK)", "2021-01-03"),  # a Sunday
        ("DATE_DIFF(DATE '2021-01-03', DATE '2021-01-02', WEEK)", "1"),  # one Sunday between
        ("DATE_DIFF(DATE '2021-01-01', DATE '2020-12-31', YEAR)", "1"),
        ("DATE_DIFF(DATE '2020-10-01', DATE '2020-09-30', QUARTER)", "1"),
    ],
)
def test_date_boundaries_have_googlesql_s_meaning(text: str, expected: str) -> None:
    rows = run(f"GRAPH g RETURN {text} AS x", Graph(), dialect="spanner").rows
    assert str(rows[0][0]) == expected


def _posts() -> Graph:
    g = Graph()
    for i, text in enumerate(
        ("2011-12-31T22:59:59Z", "2011-12-31T23:00:00Z", "2012-06-30T22:00:00.000000001Z")
    ):
        when = tm.parse_temporal("datetime", text)
        g.create_node(["Post"], {"id": i, "creationDate": when})
    return g


@pytest.mark.parametrize(
    "cypher",
    [
        "MATCH (p:Post) WHERE p.creationDate >= datetime('2012-01-01T00:00+01:00') "
        "RETURN p.id AS i",
        "MATCH (p:Post) WHERE datetime({year: 2012, month: 7, day: 1, "
        "timezone: 'Europe/Stockholm'}) < p.creationDate RETURN p.id AS i",
        "MATCH (p:Post) WHERE p.creationDate < datetime('2011-12-31T18:00-05:00') RETURN p.id AS i",
    ],
)
def test_a_datetime_compared_by_order_is_the_timestamp_of_its_instant(cypher: str) -> None:
    """Only the comparison's boolean is seen, and both languages order datetimes by instant."""
    text = _spanner(cypher)
    assert "TIMESTAMP '" in text
    verdict = check(text, _social())
    assert verdict.accepted, f"{verdict}\n{text}"
    spanner = sorted(run(text, _posts(), dialect="spanner").rows)
    assert spanner == sorted(run(cypher, _posts(), dialect="neo4j").rows)


def test_a_datetime_at_an_offset_that_is_compared_for_equality_is_refused() -> None:
    with pytest.raises(UnsupportedError):
        _spanner(
            "MATCH (p:Post) WHERE p.creationDate = datetime('2012-01-01T00:00+01:00') "
            "RETURN p.id AS i"
        )


@pytest.mark.parametrize(
    ("cypher", "fragment"),
    [
        ("RETURN date() AS d", "CURRENT_DATE('UTC') AS d"),
        ("RETURN date.statement().year AS y", "EXTRACT(YEAR FROM CURRENT_DATE('UTC')) AS y"),
        (
            "RETURN date({timezone: 'America/New_York'}) AS d",
            "CURRENT_DATE('America/New_York') AS d",
        ),
        (
            "MATCH (p:Person) WHERE p.birthday < date() RETURN p.firstName AS n",
            "WHERE p.birthday < CURRENT_DATE('UTC')",
        ),
    ],
)
def test_the_current_date_is_current_date_in_a_named_zone(cypher: str, fragment: str) -> None:
    """Cypher's date() is the statement's date in UTC (Neo4j's default zone), Spanner's
    CURRENT_DATE the statement's date in the zone given (its default is America/Los_Angeles):
    at 02:00 UTC the two defaults name different days, and the translation names UTC."""
    text = _spanner(cypher)
    assert fragment in text
    assert check(text, _social()).accepted, text
    clock = dt.datetime(2021, 1, 1, 2, 0, tzinfo=dt.UTC)
    graph = _graph()
    spanner = evaluate(api.parse(text, "spanner"), graph, dialect="spanner", clock=clock)
    cypher_rows = evaluate(api.parse(cypher, "neo4j"), _graph(), dialect="neo4j", clock=clock)
    assert sorted(map(repr, spanner.rows)) == sorted(map(repr, cypher_rows.rows))


def test_spanner_current_date_reads_in_spanner_s_default_zone() -> None:
    clock = dt.datetime(2021, 1, 1, 2, 0, tzinfo=dt.UTC)
    query = api.parse("GRAPH g RETURN CURRENT_DATE AS a, CURRENT_DATE('UTC') AS b", "spanner")
    (row,) = evaluate(query, Graph(), dialect="spanner", clock=clock).rows
    assert [str(v) for v in row] == ["2020-12-31", "2021-01-01"]
    with pytest.raises(UnsupportedError):
        _spanner("RETURN date.realtime() AS d", schema=False)


def test_the_current_instant_is_current_timestamp() -> None:
    """Cypher's datetime() is the statement's instant in UTC; CURRENT_TIMESTAMP() the
    statement's instant, presented in UTC."""
    cypher = "MATCH (p:Post) WHERE p.creationDate < datetime.statement() RETURN p.id AS i"
    text = _spanner(cypher)
    assert "p.creationDate < CURRENT_TIMESTAMP()" in text
    assert check(text, _social()).accepted, text
    clock = dt.datetime(2012, 1, 1, 0, 0, tzinfo=dt.UTC)
    spanner = evaluate(api.parse(text, "spanner"), _posts(), dialect="spanner", clock=clock)
    cypher_rows = evaluate(api.parse(cypher, "neo4j"), _posts(), dialect="neo4j", clock=clock)
    assert sorted(spanner.rows) == sorted(cypher_rows.rows) == [(0,), (1,)]


@pytest.mark.parametrize(
    ("cypher", "fragment"),
    [
        (
            "MATCH (p:Post) WHERE p.creationDate + duration({days: 1, hours: 2}) > "
            "datetime('2012-01-01T23:00Z') RETURN p.id AS i",
            "TIMESTAMP_ADD(p.creationDate, INTERVAL 26 HOUR) >",
        ),
        (
            "MATCH (p:Post) RETURN p.id AS i, p.creationDate - duration({minutes: 90}) AS t",
            "TIMESTAMP_SUB(p.creationDate, INTERVAL 90 MINUTE) AS t",
        ),
        (
            "MATCH (p:Post) RETURN p.id AS i, duration({seconds: 1, nanoseconds: 5}) + "
            "p.creationDate AS t",
            "TIMESTAMP_ADD(p.creationDate, INTERVAL 1000000005 NANOSECOND) AS t",
        ),
    ],
)
def test_a_timestamp_plus_elapsed_time_is_timestamp_add(cypher: str, fragment: str) -> None:
    """A day is 24 hours for a UTC instant in Cypher and in TIMESTAMP_ADD."""
    text = _spanner(cypher)
    assert fragment in text
    assert check(text, _social()).accepted, text
    spanner = sorted(map(repr, run(text, _posts(), dialect="spanner").rows))
    assert spanner == sorted(map(repr, run(cypher, _posts(), dialect="neo4j").rows))
    assert spanner


@pytest.mark.parametrize(
    ("text", "reads_as"),
    [
        ("TIMESTAMP_ADD(p.t, INTERVAL 1 DAY)", "p.t + duration({hours: 24})"),
        ("TIMESTAMP_SUB(p.t, INTERVAL @n MINUTE)", "p.t - duration({minutes: $n})"),
    ],
)
def test_timestamp_add_reads_as_elapsed_time(text: str, reads_as: str) -> None:
    """Read as hours, not days: Cypher adds a day of a zoned datetime in its zone."""
    read = api.parse(f"GRAPH g MATCH (p) RETURN {text} AS x", "spanner")
    cypher = api.parse(f"MATCH (p) RETURN {reads_as} AS x", "neo4j")
    assert read.steps[-1].items[0].expr == cypher.steps[-1].items[0].expr  # type: ignore[attr-defined]
    with pytest.raises(UnsupportedError):
        _spanner("MATCH (p:Post) RETURN p.creationDate + duration({months: 1}) AS t")
