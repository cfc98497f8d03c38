"""Spanner dialect facts that no local engine can run, checked through Google's ZetaSQL front
end (gqlir/checks/zetasql.py) against the movies catalog: each fact's output is analysed, and
each reading round-trips (sources in dialects/spanner.toml [sources])."""

from __future__ import annotations

import functools
from pathlib import Path

from gqlir import api
from gqlir.checks.zetasql import check
from gqlir.dialect import get_dialect
from gqlir.schema import load_schema

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def _movies():  # type: ignore[no-untyped-def]
    return load_schema(str(ROOT / "schemas" / "movies" / "schema.json"))


def _accepted(text: str) -> None:
    verdict = check(text, _movies())
    assert verdict.accepted and verdict.analysed, (text, verdict.message)


def test_graph_table_is_reserved_and_written_quoted() -> None:
    assert "GRAPH_TABLE" in get_dialect("spanner").reserved_words
    text = api.transpile(
        "MATCH (graph_table:Person) RETURN graph_table.name AS n",
        "neo4j",
        "spanner",
        graph="movies",
    )
    assert "(`graph_table`:Person)" in text
    _accepted(text)


def test_byte_length_is_googlesql_s_and_round_trips() -> None:
    text = api.transpile(
        "MATCH (p:Person) RETURN byte_length(p.name) AS b", "gql", "spanner", graph="movies"
    )
    assert "BYTE_LENGTH(p.name)" in text
    _accepted(text)
    assert api.transpile(text, "spanner", "spanner") == text


def test_any_k_is_a_spanner_search_prefix() -> None:
    assert "ANY" in get_dialect("spanner").capabilities.search_prefixes
    text = "GRAPH movies MATCH ANY 2 (a:Person)-[e:ACTED_IN]->{1,3}(m:Movie) RETURN m.title AS t"
    out = api.transpile(text, "spanner", "spanner")
    assert "MATCH ANY 2 (a:Person)" in out
    _accepted(out)
