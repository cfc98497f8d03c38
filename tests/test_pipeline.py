"""The declared lowering of each target: which passes run, and --explain."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.cli import main
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.ir.functions import WHITESPACE
from gqlir.passes.edge_uniqueness import lower_edge_uniqueness
from gqlir.passes.pipeline import lower, lowerings


def names(target: str, source: str | None = None) -> list[str]:
    src = get_dialect(source) if source else None
    return [x.name for x in lowerings(get_dialect(target), src)]


def test_passes_are_chosen_by_capabilities() -> None:
    # ISO GQL says DIFFERENT EDGES and reads null operands, but has no nodes() function and
    # no toInteger() and no type()
    assert names("iso-gql") == ["conversions", "gql-functions", "relationship-types", "path-lists"]
    assert names("spanner") == [
        "conversions",
        "googlesql-strings",
        "googlesql-division",
        "googlesql-functions",
        "googlesql",
        "gql-functions",
        "relationship-types",
        "edge-uniqueness",
    ]
    assert names("neo4j") == ["gql-meanings", "set-operations"]  # Cypher has UNION only
    assert "cypher-meanings" in names("kuzu")
    assert "list-predicates" in names("tugraph-cypher")  # and in no other Cypher target
    assert "list-predicates" not in names("kuzu") + names("opencypher9")
    assert names("kuzu", "spanner")[0] == "float-quotients"  # 7 / 2 is 3.5 in GoogleSQL


def test_edge_uniqueness_is_trail_under_spanners_own_mode() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b)-[s]->(c) RETURN c.name AS n")
    changed: list[str] = []
    lowered = lower(query, get_dialect("spanner"), changed=changed)
    assert changed == ["edge-uniqueness"]
    (match,) = [s for s in lowered.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    assert match.mode is ir.MatchMode.REPEATABLE_ELEMENTS
    assert match.patterns[0].mode is ir.PathMode.TRAIL
    assert lower(query, get_dialect("iso-gql")) is query


def test_edge_uniqueness_across_patterns_is_all_different() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b), (c)-[s]->(d) RETURN a.x AS x")
    lowered = lower_edge_uniqueness(query, get_dialect("spanner"))
    (match,) = [s for s in lowered.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    assert isinstance(match.where, ir.AllDifferent)
    variable_length = gqlir.parse("MATCH (a)-[*1..2]->(b), (c)-[*1..2]->(d) RETURN a.x AS x")
    with pytest.raises(UnsupportedError) as caught:
        lower_edge_uniqueness(variable_length, get_dialect("spanner"))
    assert caught.value.construct == "edge uniqueness across path patterns"


def test_gql_functions_need_no_types() -> None:
    query = gqlir.parse("RETURN trim(' a ') AS t, pi() AS p, coalesce(1) AS c")
    lowered = lower(query, get_dialect("iso-gql"))
    items = [i.expr for i in lowered.steps[-1].items]  # type: ignore[attr-defined]
    assert items[0] == ir.FunctionCall("btrim", (ir.String(" a "), ir.String(WHITESPACE)))
    assert isinstance(items[1], ir.Float) and items[2] == ir.Integer(1)
    assert gqlir.emit(query, "iso-gql").startswith("RETURN BTRIM(' a ', ")


def test_explain_names_the_passes_that_changed_the_query(
    capsys: pytest.CaptureFixture[str],
) -> None:
    query = "MATCH (a)-[r]->(b)-[s]->(c) RETURN c.name AS n"
    args = ["translate", "--from", "neo4j", "--to", "spanner", "--graph", "g", "--explain"]
    assert main([*args, query]) == 0
    captured = capsys.readouterr()
    assert "MATCH TRAIL" in captured.out
    assert "edge-uniqueness: changed" in captured.err
    assert "googlesql: unchanged" in captured.err
