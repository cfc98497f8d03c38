"""The unwind-joins lowering (gqlir/passes/unwind_join.py): an UNWIND before the graph pattern of
a SQL/PGQ query becomes a join after it, or a refusal that names why it cannot.

The answers of the joins on DuckDB and PostgreSQL are checked in tests/test_sql_targets.py."""

from __future__ import annotations

import pytest

from gqlir import emit, ir, parse
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.passes.pipeline import lower
from gqlir.passes.unwind_join import lower_unwind_joins
from gqlir.sqlmapping import mapping_for

MOVIES = "schemas/movies"


def _lowered(cypher: str, target: str = "sqlpgq") -> ir.LinearQuery:
    out = lower_unwind_joins(parse(cypher, "neo4j"), get_dialect(target))
    assert isinstance(out, ir.LinearQuery)
    return out


def test_the_compared_property_moves_out_of_the_pattern_into_a_filter_after_the_unwind() -> None:
    out = _lowered(
        "UNWIND $names AS n MATCH (p:Person {name: n, born: 1950})-[:DIRECTED]->(m:Movie) "
        "WHERE m.released > 2000 AND m.title <> n RETURN n, m.title"
    )
    match, unwind, filt, _ = out.steps
    assert isinstance(match, ir.Match) and isinstance(unwind, ir.Unwind)
    assert isinstance(filt, ir.Filter)
    first = match.patterns[0].path.elements[0]  # type: ignore[union-attr]
    # the entry that reads no unwound value stays in the pattern
    assert first.properties == ir.MapLiteral((("born", ir.Integer(1950)),))
    assert (
        match.where == parse("MATCH (m) WHERE m.released > 2000 RETURN 1", "neo4j").steps[0].where
    )  # type: ignore[attr-defined]
    moved = parse("MATCH (p) WHERE p.name = n AND m.title <> n RETURN 1", "neo4j").steps[0]
    assert filt.condition == moved.where  # type: ignore[attr-defined]


def test_an_anonymous_element_gets_a_fresh_name_and_two_unwinds_keep_their_order() -> None:
    out = _lowered(
        "UNWIND $a AS x UNWIND x AS y MATCH (m:Movie)-[:IN_GENRE]->(:Genre {name: y}) RETURN m"
    )
    match, u1, u2, filt, _ = out.steps
    assert isinstance(match, ir.Match)
    assert (u1.variable, u2.variable) == ("x", "y")  # type: ignore[attr-defined]
    genre = match.patterns[0].path.elements[2]  # type: ignore[union-attr]
    assert genre.variable == "_j1" and genre.properties is None
    assert filt == ir.Filter(
        ir.Comparison(ir.CompOp.EQ, ir.Property(ir.Variable("_j1"), "name"), ir.Variable("y"))
    )


def test_a_query_without_unwind_before_its_match_is_left_as_it_is() -> None:
    for text in (
        "MATCH (m:Movie) RETURN m.title",
        "MATCH (m:Movie) UNWIND [1, 2] AS x RETURN x",
        "UNWIND [1, 2] AS x RETURN x",
    ):
        query = parse(text, "neo4j")
        assert lower_unwind_joins(query, get_dialect("sqlpgq")) is query


def test_only_targets_whose_graph_pattern_comes_first_run_it() -> None:
    query = parse("UNWIND [1] AS x MATCH (m:Movie {released: x}) RETURN m.title", "neo4j")
    for target in ("sql:duckdb", "neo4j", "iso-gql", "sqlpgq:bigquery"):
        changed: list[str] = []
        lower(query, get_dialect(target), changed=changed)
        assert "unwind-joins" not in changed
    for target in ("sqlpgq", "sqlpgq:oracle", "sqlpgq:duckdb", "sqlpgq:postgres"):
        changed = []
        lower(query, get_dialect(target), changed=changed)
        assert "unwind-joins" in changed


@pytest.mark.parametrize(
    ("cypher", "construct"),
    [
        (
            "UNWIND ['a'] AS t OPTIONAL MATCH (m:Movie {title: t}) RETURN t, m.released",
            "UNWIND before OPTIONAL MATCH",
        ),
        (
            "UNWIND [1] AS w MATCH (a:User)-[:FOLLOWS*1..2 {since: w}]->(b:User) RETURN b.name",
            "UNWIND variable read by a quantified edge",
        ),
        (
            "UNWIND ['a'] AS t MATCH p = shortestPath((a:Person {name: t})-[*]-(b:Person)) "
            "RETURN b.name",
            "UNWIND variable read by a path search",
        ),
        (
            "UNWIND [1] AS x MATCH ((a:User)-[:FOLLOWS]->(b:User) WHERE a.userId > x){1,2} "
            "RETURN 1 AS one",
            "UNWIND variable read inside a parenthesised path",
        ),
        (
            "UNWIND [1] AS m MATCH (m:Movie) RETURN m.title",
            "UNWIND variable bound again by the pattern",
        ),
        ("UNWIND [1, 2] AS x RETURN x", "UNWIND not followed by MATCH"),
        (
            "UNWIND [1, 2] AS x WITH x WHERE x > 1 MATCH (m:Movie {released: x}) RETURN m.title",
            "UNWIND not followed by MATCH",
        ),
    ],
)
def test_a_move_that_would_change_the_rows_is_refused_by_name(cypher: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        emit(parse(cypher, "neo4j"), "sqlpgq", schema=mapping_for(MOVIES))
    assert info.value.construct == construct


def test_the_join_is_written_over_the_graph_table_columns() -> None:
    text = emit(
        parse("UNWIND ['x', 'x'] AS t MATCH (m:Movie {title: t}) RETURN m.released AS r", "neo4j"),
        "sqlpgq:duckdb",
        schema=mapping_for(MOVIES),
    )
    assert "MATCH (m:Movie) COLUMNS (m.title AS m__title, m.released AS m__released)" in text
    assert text.endswith('WHERE "gt1"."m__title" = "u"."t"'), text
