"""The graph data format: readers, writers and the validator's errors (row, field, reason)."""

from __future__ import annotations

import json
import os

import pytest

from gqlir.schema import SchemaGraph, load_schema
from gqlir.schema.graphdata import (
    Edge,
    Node,
    check_value,
    iter_edges,
    iter_nodes,
    validate_graph,
    write_csv,
    write_jsonl,
    write_parquet,
)
from gqlir.schema.types import parse_type

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "schema")


@pytest.fixture(scope="module")
def library() -> SchemaGraph:
    return load_schema(os.path.join(GOLDEN, "source.json"))


def good_graph() -> tuple[list[Node], list[Edge]]:
    nodes = [
        Node(
            1,
            ("Member", "Person"),
            {
                "id": 1,
                "name": "Ada",
                "email": "ada@x.org",
                "last_seen": "2024-01-02T10:00:00+01:00",
                "vip": True,
            },
        ),
        Node(2, ("Member", "Person"), {"id": 2, "name": "Bo", "height": 180.5}),
        Node(
            "b1",
            ("Book",),
            {
                "isbn": "b1",
                "title": "Dune",
                "pages": 412,
                "price": "9.99",
                "genres": ["sf"],
                "printed_at": "1990-05-01T00:00:00",
            },
        ),
        Node("br", ("Branch",), {"city": "Leeds", "number": 1, "opens": "09:00:00"}),
        Node("t", ("Tag",), {"text": "classic"}),
    ]
    edges = [
        Edge("HOME_BRANCH", 1, "br", {}),
        Edge("HOME_BRANCH", 2, "br", {}),
        Edge("BORROWED", 1, "b1", {"since": "2024-01-01", "fee": "1.50"}),
        Edge("BORROWED", 1, "b1", {"since": "2024-02-01"}),
        Edge("RESERVED", 2, "b1", {"at": "2024-03-01T12:00:00Z"}),
        Edge("INTERESTED_IN", 2, "b1", {}),
        Edge("INTERESTED_IN", 2, "t", {}),
        Edge("STOCKS", "br", "b1", {"copies": 3}),
        Edge("FRIEND_OF", 1, 2, {}),
        Edge("TAGGED", "b1", "t", {}),
    ]
    return nodes, edges


@pytest.mark.parametrize("layout", ["jsonl", "csv", "parquet"])
def test_layouts_round_trip(tmp_path, library: SchemaGraph, layout: str) -> None:
    nodes, edges = good_graph()
    d = str(tmp_path / "g")
    if layout == "jsonl":
        write_jsonl(d, nodes, edges)
    elif layout == "csv":
        write_csv(d, library, nodes, edges)
    else:
        pytest.importorskip("pyarrow")
        write_parquet(d, library, nodes, edges)
    report = validate_graph(d, library)
    assert report.ok, [str(i) for i in report.issues]
    assert sum(report.nodes.values()) == 5 and sum(report.edges.values()) == 10
    back = {str(n.id): n for _, n in iter_nodes(d, library)}
    if layout != "parquet":  # Parquet normalises instants to UTC (same instant, other offset)
        assert back["1"].properties == nodes[0].properties
    assert back["b1"].properties["genres"] == ["sf"]
    assert {(e.type, str(e.source), str(e.target)) for _, e in iter_edges(d, library)} == {
        (e.type, str(e.source), str(e.target)) for e in edges
    }


def _write(tmp_path, nodes: list[dict], edges: list[dict]) -> str:
    d = tmp_path / "bad"
    d.mkdir()
    (d / "nodes.jsonl").write_text("".join(json.dumps(n) + "\n" for n in nodes))
    (d / "edges.jsonl").write_text("".join(json.dumps(e) + "\n" for e in edges))
    return str(d)


def test_seeded_errors_are_found_with_row_field_and_reason(tmp_path, library: SchemaGraph) -> None:
    nodes, edges = good_graph()
    recs = [{"id": n.id, "labels": list(n.labels), "properties": dict(n.properties)} for n in nodes]
    erecs = [
        {"type": e.type, "source": e.source, "target": e.target, "properties": dict(e.properties)}
        for e in edges
    ]
    recs[1]["properties"]["height"] = "tall"  # nodes row 2: wrong type
    recs[2]["properties"].pop("title")  # row 3: required missing
    recs.append({"id": 9, "labels": ["Robot"], "properties": {}})  # row 6: unknown label
    recs.append(
        {"id": 10, "labels": ["Member", "Person"], "properties": {"id": 1, "name": "Dup"}}
    )  # row 7: dup key
    recs[3]["properties"]["opens"] = "09:00:00+02:00"  # row 4: zoned value for LOCAL_TIME
    recs[0]["properties"]["colour"] = "red"  # row 1: unknown property
    erecs.append(
        {"type": "BORROWED", "source": "b1", "target": 1, "properties": {"since": "2024-05-05"}}
    )  # reversed
    erecs.append(
        {"type": "HOME_BRANCH", "source": 1, "target": "br", "properties": {}}
    )  # duplicate
    erecs.append(
        {"type": "STOCKS", "source": "br", "target": "nope", "properties": {"copies": 1}}
    )  # dangling
    erecs.append(
        {"type": "RESERVED", "source": 1, "target": "b1", "properties": {}}
    )  # implies fails
    erecs.append({"type": "LIKES", "source": 1, "target": 2, "properties": {}})  # unknown type
    report = validate_graph(_write(tmp_path, recs, erecs), library)
    got = {(i.file, i.row, i.field): i.reason for i in report.issues}
    assert "expected FLOAT64" in got[("nodes.jsonl", 2, "height")]
    assert "required" in got[("nodes.jsonl", 3, "title")]
    assert "no node type has the labels ['Robot']" in got[("nodes.jsonl", 6, "labels")]
    assert "duplicate key 1 of Member" in got[("nodes.jsonl", 7, "id")]
    assert "has a time-zone offset" in got[("nodes.jsonl", 4, "opens")]
    assert "has no property 'colour'" in got[("nodes.jsonl", 1, "colour")]
    assert "reversed" in got[("edges.jsonl", 11, "endpoints")]
    assert "duplicate HOME_BRANCH edge" in got[("edges.jsonl", 12, None)]
    assert "no node with id 'nope'" in got[("edges.jsonl", 13, "target")]
    assert "RESERVED implies INTERESTED_IN" in got[("edges.jsonl", 14, "RESERVED")]
    assert "unknown edge type 'LIKES'" in got[("edges.jsonl", 15, "type")]
    assert not report.ok


def test_cardinality_and_participation(tmp_path, library: SchemaGraph) -> None:
    nodes, edges = good_graph()
    recs = [{"id": n.id, "labels": list(n.labels), "properties": n.properties} for n in nodes]
    recs.append({"id": "br2", "labels": ["Branch"], "properties": {"city": "York", "number": 2}})
    erecs = [
        {"type": e.type, "source": e.source, "target": e.target, "properties": e.properties}
        for e in edges
        if not (e.type == "HOME_BRANCH" and e.source == 2)
    ]
    erecs.append({"type": "HOME_BRANCH", "source": 1, "target": "br2", "properties": {}})
    reasons = [str(i) for i in validate_graph(_write(tmp_path, recs, erecs), library).issues]
    assert any("HOME_BRANCH is n:1: node 1 has more than one outgoing edge" in r for r in reasons)
    assert any(
        "participation of Member is total, but node 2 has no outgoing HOME_BRANCH" in r
        for r in reasons
    )


def test_issue_cap(tmp_path, library: SchemaGraph) -> None:
    recs = [{"id": i, "labels": ["Robot"], "properties": {}} for i in range(50)]
    report = validate_graph(_write(tmp_path, recs, []), library, max_issues=10)
    assert len(report.issues) == 10 and report.truncated


@pytest.mark.parametrize(
    "value, type_, ok",
    [
        (5, "INT8", True),
        (300, "INT8", False),
        (True, "INT64", False),
        ("12.345", "DECIMAL(5,2)", False),
        ("123.45", "DECIMAL(5,2)", True),
        ("1234.5", "DECIMAL(5,2)", False),
        ("P3DT4H", "DURATION", True),
        ("3 days", "DURATION", False),
        ("2024-02-30", "DATE", False),
        ("2024-01-01T00:00:00", "DATETIME", False),
        ("2024-01-01T00:00:00Z", "DATETIME", True),
        ("2024-01-01", "LOCAL_DATETIME", False),
        (["a", None], "LIST<STRING>", False),
        ({"x": 1, "y": 2}, "POINT", True),
        ("aGk=", "BYTES", True),
        ("abcdef", "STRING(5)", False),
        ("0e8a3c3e-0c1e-4d7e-9b1a-2d6f0a1b2c3d", "UUID", True),
        ({"a": 1}, "MAP<INT64>", True),
        ({"a": "x"}, "MAP<INT64>", False),
    ],
)
def test_value_checks(value: object, type_: str, ok: bool) -> None:
    assert (check_value(value, parse_type(type_)) is None) is ok
