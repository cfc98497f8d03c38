"""Cypher written for Spanner follows GoogleSQL's typing rules (gqlir/passes/googlesql.py): each
output is analysed by ZetaSQL against the movies catalog, and the reference evaluator gives the
Cypher query's answer for it."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from gqlir import api
from gqlir.emitter.gql import emit_gql
from gqlir.errors import UnsupportedError
from gqlir.eval import Graph, run
from gqlir.schema import load_schema

pytest.importorskip("zetasql")
from gqlir.checks.zetasql import check

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def _movies():  # type: ignore[no-untyped-def]
    return load_schema(str(ROOT / "schemas" / "movies" / "schema.json"))


def _graph() -> Graph:
    g = Graph()
    keanu = g.create_node(["Person"], {"name": "Keanu", "born": 1964})
    g.create_node(["Person"], {"name": "Carrie", "born": 1967})
    matrix = g.create_node(["Movie"], {"title": "The Matrix", "released": 1964})
    g.create_relationship("ACTED_IN", keanu, matrix, {})
    return g


def _spanner(cypher: str) -> str:
    query = api.parse(cypher, "neo4j")
    return api.translate(
        query, "neo4j", "spanner", writer=lambda x: emit_gql(x, "spanner", graph="movies")
    )


def _rows(text: str, dialect: str) -> list[tuple]:
    return sorted(run(text, _graph(), dialect=dialect).rows, key=repr)


CASES = {
    "null equality": ("RETURN null = null AS a", "CAST(NULL AS BOOL) AS a"),
    "null inequality, NOT, comparison": (
        "MATCH (p:Person) RETURN true <> null AS a, NOT null AS b, p.born < null AS c",
        "CAST(NULL AS BOOL) AS c",
    ),
    "negation of a comparison with null": ("RETURN NOT (null = 1) AS a", "NOT CAST(NULL AS BOOL)"),
    "arithmetic with null": ("MATCH (p:Person) RETURN p.born * null AS a, -null AS b", "NULL AS a"),
    "membership in null": ("UNWIND [1, 2] AS x RETURN x IN null AS a", "CAST(NULL AS BOOL) AS a"),
    "FOR variable in a property map": (
        "UNWIND [1964, 1960] AS y MATCH (a:Person {born: y}) RETURN a.name AS n",
        "MATCH (a:Person) WHERE a.born = y",
    ),
    "another element in a property map": (
        "MATCH (a:Person)-[:ACTED_IN]->(m:Movie {released: a.born}) RETURN m.title AS t",
        "WHERE m.released = a.born",
    ),
    "unnamed element reading a FOR variable": (
        "UNWIND [1964] AS y MATCH (:Person {born: y})-[:ACTED_IN]->(m) RETURN m.title AS t",
        "WHERE _e1.born = y",
    ),
    "FOR over null": ("UNWIND null AS x RETURN x", "FOR x IN []"),
    "property of a variable bound to null": (
        "WITH null AS m MATCH (p:Person) RETURN m.born AS b",
        "RETURN NULL AS b",
    ),
    "list in a list of numbers": ("RETURN [1] IN [1, 2] AS b", "RETURN FALSE AS b"),
}


@pytest.mark.parametrize("name", CASES)
def test_zetasql_analyses_the_output_and_the_answer_is_cypher_s(name: str) -> None:
    cypher, fragment = CASES[name]
    text = _spanner(cypher)
    assert fragment in text
    verdict = check(text, _movies())
    assert verdict.accepted and verdict.analysed, (text, verdict.message)
    assert _rows(text, "spanner") == _rows(cypher, "neo4j")


def test_a_literal_null_operand_next_to_an_operand_that_may_fail_is_refused() -> None:
    with pytest.raises(UnsupportedError) as refused:
        _spanner("MATCH (p:Person) RETURN size(p.name) / 0 < null AS a")
    assert refused.value.construct == "operator with a literal NULL operand"


def test_an_element_filter_in_a_repeated_or_searched_pattern_is_refused() -> None:
    for cypher in (
        "UNWIND [1] AS y MATCH (a:Person)-[r:ACTED_IN* {x: y}]->(m) RETURN m.title AS t",
        "UNWIND [1] AS y MATCH p = shortestPath((a:Person {born: y})-[*]->(b)) RETURN 1 AS n",
    ):
        with pytest.raises(UnsupportedError) as refused:
            _spanner(cypher)
        assert refused.value.construct == "element filter reading another variable"


def test_a_list_item_is_refused_in_membership_unless_constant() -> None:
    with pytest.raises(UnsupportedError) as refused:
        _spanner("MATCH (p:Person) RETURN [p.born] IN [1, 2] AS b")
    assert refused.value.construct == "IN with a list item"


def test_other_gql_dialects_keep_the_text() -> None:
    cypher = "UNWIND [1964] AS y MATCH (a:Person {born: y}) RETURN a.name = null AS n"
    out = api.transpile(cypher, "neo4j", "iso-gql")
    assert "{born: y}" in out and "= NULL" in out
