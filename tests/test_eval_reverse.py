"""Semantic equivalence the other way: GQL → Cypher. Each random query (the generator of
tests/test_eval_equivalence.py) is written in a GQL dialect, and that text is the source: it is
read with the dialect's reader, translated to Neo4j Cypher, read back, and both are evaluated on
the same random graph by the reference evaluator. A translation must give the same columns and
rows; a difference is excused only where both sides fail. A refusal (UnsupportedError) is
allowed."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_eval_equivalence import _outcome, _rows, _write, graphs, queries, renaming_queries

import gqlir
from gqlir.api import translate
from gqlir.eval import Result

GQL_DIALECTS = ("iso-gql", "spanner", "tugraph-gql")


def _agree(expected: Result | str, got: Result | str, where: str) -> None:
    if isinstance(expected, str) or isinstance(got, str):
        assert isinstance(expected, str) and isinstance(got, str), f"{where}: {expected} / {got}"
        return
    assert got.columns == expected.columns, where
    if expected.ordered:
        assert _rows(got) == _rows(expected), where
    else:
        assert Counter(_rows(got)) == Counter(_rows(expected)), where


def _back_to_cypher(query: str, graph: dict[str, Any]) -> None:
    """``query`` (Cypher) written in each GQL dialect, and that GQL translated to Neo4j Cypher."""
    source = gqlir.parse(query, "neo4j")
    for dialect in GQL_DIALECTS:
        try:
            gql = _write(source, dialect)
        except gqlir.UnsupportedError:
            continue
        _back_from_gql(dialect, gql, graph)


def _back_from_gql(dialect: str, gql: str, graph: dict[str, Any]) -> None:
    """``gql`` read in ``dialect``, translated to Neo4j Cypher: both mean the same."""
    read = gqlir.parse(gql, dialect)
    expected = _outcome(read, graph, dialect)
    try:
        cypher = translate(read, dialect, "neo4j")
    except gqlir.UnsupportedError:
        return
    got = _outcome(gqlir.parse(cypher, "neo4j"), graph, "neo4j")
    _agree(expected, got, f"{dialect}: {gql}\nneo4j: {cypher}")


# -- queries written in GQL --------------------------------------------------------------------

GQL_PATTERNS = [
    "(a)",
    "(a IS A)",
    "(a IS A)-[r IS R]->(b)",
    "(a)-[r]-(b)",
    "(a)<-[r IS R|S]-(b IS B)",
    "(a)-[IS S]->{1,2}(b)",
    "(a IS A|B)-[r IS R]->(b IS !A)",
]
# Expressions over a and b (``v`` is a's or b's), in the forms every GQL dialect reads.
_INT_FORMS = [
    "{v}.x",
    "{v}.x + 1",
    "{v}.x / 2",
    "{v}.x * 2",
    "-{v}.x",
    "ABS({v}.x)",
    "MOD({v}.x, 2)",
    "COALESCE({v}.x, 0)",
    "NULLIF({v}.x, 1)",
    "CHAR_LENGTH({v}.s)",
    "CARDINALITY([{v}.x, 1])",
    "CASE WHEN {v}.x > 0 THEN 1 ELSE 0 END",
    "FLOOR({v}.x / 2.0)",
    "{v}.x / 2.0",
]
_STR_FORMS = [
    "{v}.s",
    "{v}.s || 'z'",
    "UPPER({v}.s)",
    "LOWER({v}.s)",
    "CAST({v}.x AS STRING)",
    "COALESCE({v}.s, 'n')",
]
_PREDICATES = [
    "{v}.x > 0",
    "{v}.x = 1",
    "{v}.s = 'a'",
    "{v}.s < 'b'",
    "{v}.x IS NULL",
    "{v}.s IS NOT NULL",
    "NOT {v}.x <> 2",
    "({v}.x > 1 OR {v}.s = 'ab')",
]


@st.composite
def gql_queries(draw: st.DrawFn, dialect: str) -> str:
    """A read query written directly in a GQL dialect: MATCH, FILTER, LET, RETURN with
    DISTINCT or aggregates, ORDER BY with the dialect's default null order or an explicit one,
    OFFSET and LIMIT."""
    pattern = draw(st.sampled_from(GQL_PATTERNS))
    nodes = ["a", "b"] if "(b" in pattern else ["a"]

    def form(forms: list[str]) -> str:
        return draw(st.sampled_from(forms)).format(v=draw(st.sampled_from(nodes)))

    parts = ["GRAPH g"] if dialect == "spanner" else []
    parts.append(f"MATCH {pattern}")
    if draw(st.booleans()):
        parts.append(f"FILTER {form(_PREDICATES)}")
    columns: list[str] = []
    if draw(st.booleans()):
        parts.append(f"LET e = {form(_INT_FORMS + _STR_FORMS)}")
        columns.append("e AS c0")
    for i in range(len(columns), draw(st.integers(1, 2))):
        columns.append(f"{form(draw(st.sampled_from([_INT_FORMS, _STR_FORMS])))} AS c{i}")
    names = [c.rsplit(" AS ", 1)[1] for c in columns]
    aggregate = draw(st.sampled_from([None, "COUNT(*)", "SUM(a.x)", "MIN(a.s)", "MAX(a.x)"]))
    distinct = aggregate is None and draw(st.booleans())
    items = columns + ([f"{aggregate} AS agg"] if aggregate else [])
    names += ["agg"] if aggregate else []
    text = f"RETURN {'DISTINCT ' if distinct else ''}{', '.join(items)}"
    if aggregate and len(columns) and draw(st.booleans()):
        text += " GROUP BY " + ", ".join(n for n in names if n != "agg")
    if draw(st.booleans()):
        keys = draw(st.permutations(names))
        text += " ORDER BY " + ", ".join(
            f"{k}{draw(st.sampled_from(['', ' ASC', ' DESC']))}"
            f"{draw(st.sampled_from(['', '', ' NULLS FIRST', ' NULLS LAST']))}"
            for k in keys
        )
        if draw(st.booleans()):
            text += f" OFFSET {draw(st.integers(0, 2))}"
        if draw(st.booleans()):
            text += f" LIMIT {draw(st.integers(0, 3))}"
    parts.append(text)
    return " ".join(parts)


_SETTINGS = settings(
    max_examples=int(os.environ.get("GQLIR_FUZZ_EXAMPLES", "400")),
    deadline=None,
    derandomize="GQLIR_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow],
)


@_SETTINGS
@given(graph=graphs(), query=queries())
def test_gql_translated_to_cypher_means_the_same(graph: dict[str, Any], query: str) -> None:
    _back_to_cypher(query, graph)


@_SETTINGS
@given(graph=graphs(typed=True), query=renaming_queries())
def test_renamed_columns_sort_the_same_back_in_cypher(graph: dict[str, Any], query: str) -> None:
    _back_to_cypher(query, graph)


@_SETTINGS
@given(data=st.data(), graph=graphs(typed=True), dialect=st.sampled_from(GQL_DIALECTS))
def test_queries_written_in_gql_mean_the_same_in_cypher(
    data: st.DataObject, graph: dict[str, Any], dialect: str
) -> None:
    """On graphs whose properties have one type each, as a GQL graph type gives them."""
    _back_from_gql(dialect, data.draw(gql_queries(dialect)), graph)


def test_spanner_quotients_stay_floats_in_cypher() -> None:
    """GoogleSQL's ``/`` on two integers is a float; Cypher's truncates (found by the property
    above: ``a.x / 2`` was 0 in Cypher where Spanner gives 0.5)."""
    graph = {"nodes": [{"id": 0, "labels": ["A"], "properties": {"x": 1}}], "edges": []}
    _back_from_gql("spanner", "GRAPH g MATCH (a) RETURN a.x / 2 AS q, 7 / a.x AS r", graph)
    cypher = translate(gqlir.parse("GRAPH g RETURN 7 / 2 AS q", "spanner"), "spanner", "neo4j")
    assert _outcome(gqlir.parse(cypher, "neo4j"), graph, "neo4j").rows == [(3.5,)]
