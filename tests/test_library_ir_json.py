"""The JSON form of the Graph-IR: exact round trips over the TCK, a versioned envelope."""

from __future__ import annotations

import json

import pytest

import gqlir
from gqlir import ir
from gqlir.conformance import tck

TCK_DIR = tck.default_tck_dir()


@pytest.mark.skipif(TCK_DIR is None, reason="openCypher TCK not available")
def test_every_parsed_tck_query_round_trips_exactly() -> None:
    seen: set[str] = set()
    checked = 0
    for query in tck.valid_queries(TCK_DIR):
        try:
            parsed = gqlir.parse(query, "neo4j")
        except gqlir.GqlirError:
            continue
        text = parsed.to_json()
        back = ir.from_json(text)
        assert back == parsed, query
        assert [n.pos for n in back.walk()] == [n.pos for n in parsed.walk()], query
        assert back.to_json() == text
        seen.update(type(n).__name__ for n in parsed.walk())
        checked += 1
    assert checked > 1000
    assert {"Match", "NodePattern", "RelPattern", "Quantifier", "Case", "Merge"} <= seen


@pytest.mark.parametrize(
    ("text", "dialect"),
    [
        ("MATCH (a) WHERE a.x IS TYPED INT RETURN a.x AS x", "iso-gql"),
        ("CREATE GRAPH TYPE t { (:A {x INT}) }", "iso-gql"),
        ("MATCH ANY SHORTEST (a)-[e]->{1,3}(b) RETURN b.id AS id", "iso-gql"),
        ("GRAPH g MATCH (a) RETURN a.id AS id", "spanner"),
    ],
)
def test_gql_nodes_round_trip(text: str, dialect: str) -> None:
    parsed = gqlir.parse(text, dialect)
    assert ir.from_json(parsed.to_json(indent=2)) == parsed


def test_the_envelope_is_versioned_and_typed() -> None:
    parsed = gqlir.parse("MATCH (a)-[r:R]->(b) RETURN a")
    envelope = json.loads(parsed.to_json())
    assert envelope["gqlir_ir"] == ir.IR_JSON_VERSION == 1
    assert envelope["node"]["$node"] == "LinearQuery"
    assert ir.LinearQuery.from_json(parsed.to_json()) == parsed
    with pytest.raises(gqlir.ParseError, match="not a Match") as info:
        ir.Match.from_json(parsed.to_json())
    assert info.value.code == "IR_JSON"


def test_non_finite_floats_keep_their_value() -> None:
    node = ir.Float(float("inf"))
    assert ir.from_json(node.to_json()) == node
    assert '"$float"' in node.to_json()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"gqlir_ir": 2, "node": null}', "version 2"),
        ('{"node": {"$node": "Null"}}', 'no "gqlir_ir"'),
        ('{"gqlir_ir": 1, "node": {"$node": "Nope"}}', "unknown IR node type 'Nope'"),
        ('{"gqlir_ir": 1, "node": {"$node": "Integer"}}', "Integer"),
        ('{"gqlir_ir": 1, "node": {"$enum": "Direction", "name": "UP"}}', "Direction.UP"),
        ("not json", "not JSON"),
    ],
)
def test_what_is_not_ir_json_is_a_parse_error(text: str, words: str) -> None:
    with pytest.raises(gqlir.ParseError) as info:
        ir.from_json(text)
    assert info.value.code == "IR_JSON"
    assert words in info.value.message
