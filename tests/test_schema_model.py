"""The SchemaGraph model, its type system and gqlir's schema JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gqlir.errors import SchemaError
from gqlir.schema.model import (
    Cardinality,
    EdgeType,
    Endpoint,
    NodeType,
    Property,
    SchemaGraph,
)
from gqlir.schema.report import diff
from gqlir.schema.types import (
    GQL,
    KUZU,
    NEO4J,
    SPANNER,
    TUGRAPH,
    PropertyType,
    T,
    TypeKind,
    parse_type,
)

SCALARS = [k for k in TypeKind if k not in (TypeKind.LIST, TypeKind.MAP, TypeKind.DECIMAL)]


def types() -> st.SearchStrategy[PropertyType]:
    base = st.one_of(
        st.sampled_from([PropertyType(k) for k in SCALARS]),
        st.builds(
            lambda p, s: PropertyType(TypeKind.DECIMAL, precision=p, scale=min(s, p)),
            st.integers(1, 38),
            st.integers(0, 10),
        ),
        st.builds(lambda n: PropertyType(TypeKind.STRING, length=n), st.integers(1, 5000)),
    )
    return st.recursive(
        base,
        lambda inner: st.one_of(
            st.builds(lambda e: PropertyType(TypeKind.LIST, element=e), inner),
            st.builds(lambda v: PropertyType(TypeKind.MAP, value=v), inner),
        ),
        max_leaves=4,
    )


@given(types())
def test_canonical_type_text_round_trips(t: PropertyType) -> None:
    assert parse_type(str(t)) == t


@given(types())
def test_every_target_reads_back_what_it_can_write(t: PropertyType) -> None:
    for table in (GQL, NEO4J, KUZU, SPANNER, TUGRAPH):
        if table.can_write(t):
            assert table.parse(table.render(t)) == t, table.name


@pytest.mark.parametrize(
    "text, expected",
    [
        ("LOCAL DATETIME", "LOCAL_DATETIME"),
        ("ZONED DATETIME", "DATETIME"),
        ("zoned time", "TIME"),
        ("list<decimal(10, 2)>", "LIST<DECIMAL(10,2)>"),
        ("MAP", "MAP"),
    ],
)
def test_type_spellings(text: str, expected: str) -> None:
    assert str(parse_type(text)) == expected


@pytest.mark.parametrize(
    "bad", ["INTEGER", "LIST", "DECIMAL(2,5)", "STRING(x)", "LIST<INT64", "INT64 x"]
)
def test_bad_types(bad: str) -> None:
    with pytest.raises(SchemaError):
        parse_type(bad)


def test_target_spellings_keep_temporal_types() -> None:
    dtz, local = parse_type("DATETIME"), parse_type("LOCAL_DATETIME")
    assert (SPANNER.render(dtz), KUZU.render(dtz), NEO4J.render(dtz), GQL.render(dtz)) == (
        "TIMESTAMP",
        "TIMESTAMP_TZ",
        "ZONED DATETIME",
        "ZONED DATETIME",
    )
    assert (KUZU.render(local), TUGRAPH.render(local)) == ("TIMESTAMP", "DATETIME")
    assert SPANNER.render(local) == "TIMESTAMP"  # widened to an instant, not a string
    assert NEO4J.render(parse_type("INT32")) == "INTEGER"
    assert KUZU.render(parse_type("LIST<STRING>")) == "STRING[]"
    assert SPANNER.render(parse_type("STRING(30)")) == "STRING(30)"


def test_normalisation_makes_equal_meanings_equal() -> None:
    a = NodeType("P", (Property("id", T("INT64"), unique=True, indexed=True),), keys=("id",))
    b = NodeType("P", (Property("id", T("INT64"), required=True),), keys=("id",))
    assert a == b
    c = NodeType("P", (Property("e", T("STRING"), unique=True, indexed=True),))
    assert c.properties[0].indexed is False


def test_structural_errors() -> None:
    p = Property("id", T("INT64"))
    with pytest.raises(SchemaError, match="declared twice"):
        NodeType("P", (p, p))
    with pytest.raises(SchemaError, match="not a property"):
        NodeType("P", (p,), keys=("nope",))
    with pytest.raises(SchemaError, match="not a node type"):
        SchemaGraph("g", (NodeType("P"),), (EdgeType("R", (Endpoint("P", "Q"),)),))
    with pytest.raises(SchemaError, match="both directions"):
        SchemaGraph(
            "g",
            (NodeType("P"), NodeType("Q")),
            (EdgeType("R", (Endpoint("P", "Q"),), symmetric=True),),
        )
    with pytest.raises(SchemaError, match="implied"):
        SchemaGraph("g", (NodeType("P"),), (EdgeType("R", (Endpoint("P", "P"),), implies=("S",)),))


def test_equality_ignores_declaration_order() -> None:
    n1 = NodeType("A", (Property("x", T("INT64")), Property("y", T("STRING"))))
    n2 = NodeType("A", (Property("y", T("STRING")), Property("x", T("INT64"))))
    e = EdgeType("R", (Endpoint("A", "B"), Endpoint("B", "A")))
    e2 = EdgeType("R", (Endpoint("B", "A"), Endpoint("A", "B")))
    assert SchemaGraph("g", (n1, NodeType("B")), (e,)) == SchemaGraph(
        "g", (NodeType("B"), n2), (e2,)
    )
    assert not diff(SchemaGraph("g", (n1,)), SchemaGraph("g", (n2,)))


def test_json_errors_name_the_path() -> None:
    doc = {
        "format": "gqlir-schema",
        "version": 1,
        "name": "g",
        "nodes": [{"label": "A", "properties": [{"name": "x", "type": "NOPE"}]}],
        "edges": [],
    }
    with pytest.raises(SchemaError, match=r"nodes\[0\]\.properties\[0\]: unknown type"):
        SchemaGraph.from_json(json.dumps(doc))
    doc["nodes"][0]["properties"][0] = {"name": "x", "type": "INT64", "colour": "red"}
    with pytest.raises(SchemaError, match="unknown field"):
        SchemaGraph.from_dict(doc)
    with pytest.raises(SchemaError, match="cardinality"):
        SchemaGraph.from_dict({"edges": [{"label": "R", "endpoints": [], "cardinality": "2:3"}]})
    with pytest.raises(SchemaError) as info:
        SchemaGraph.from_json('{"name": ')
    assert info.value.offset is not None


def test_cardinality_helpers() -> None:
    assert Cardinality.of(True, False) is Cardinality.MANY_TO_ONE
    assert Cardinality.ONE_TO_MANY.target_max_one and not Cardinality.ONE_TO_MANY.source_max_one
