"""Templates as IR with typed holes: compiling skeletons, the libraries, the type
constraints between holes, the realism filters and instantiation (gqlir.synth)."""

from __future__ import annotations

import random

import pytest

import gqlir
from gqlir import ir
from gqlir.schema import SchemaGraph
from gqlir.schema.model import Property
from gqlir.schema.types import parse_type
from gqlir.synth import SynthError, load_libraries, load_library
from gqlir.synth.assign import assignments
from gqlir.synth.binder import Binder
from gqlir.synth.compiler import compile_skeleton
from gqlir.synth.graphindex import GraphIndex
from gqlir.synth.holes import (
    AggregateHole,
    LabelHole,
    OperatorHole,
    PropertyHole,
    QuantifierHole,
    SortHole,
    ValueHole,
    holes_in,
)
from gqlir.synth.instantiate import substitute
from gqlir.synth.library import parse_library
from gqlir.synth.propclass import aggregates, classes, operators
from gqlir.synth.questions import question
from gqlir.synth.realism import rejection
from gqlir.synth.structure import read_structure


def test_markers_become_typed_holes() -> None:
    q = compile_skeleton(
        "MATCH (n:`?n`)-[`?hops`:`?r`*]->(m) WHERE `?op`(n.`?p`, $v) "
        "RETURN `?agg`(n.`?q`) AS x ORDER BY `?dir`(x)"
    )
    kinds = {type(h) for h in holes_in(q)}
    assert kinds == {
        LabelHole,
        QuantifierHole,
        OperatorHole,
        PropertyHole,
        ValueHole,
        AggregateHole,
        SortHole,
    }
    labels = {(h.name, h.kind) for h in holes_in(q) if isinstance(h, LabelHole)}
    assert labels == {("n", "node"), ("r", "edge")}


def test_a_bad_skeleton_is_a_synth_error() -> None:
    with pytest.raises(SynthError, match="does not parse"):
        compile_skeleton("MATCH (n:`?n` RETURN n")
    with pytest.raises(SynthError, match="unknown hole marker"):
        compile_skeleton("MATCH (n) RETURN `?what`(n)")


def test_the_libraries_cover_every_pattern_and_family() -> None:
    patterns = {t.pattern for t in load_library("cypherbench")}
    basic = {
        "basic_(n)",
        "basic_(n*)",
        "basic_(n)-(m0)",
        "basic_(n)-(m0*)",
        "basic_(n)-(m0)-(m1*)",
        "basic_(n)-(m0*),(n)-(m1*)",
        "basic_(n)=(m0*)",
    }
    special = {
        "special_comparison",
        "special_three-node-groupby",
        "special_optional-match",
        "special_time-sensitive",
        "special_union",
    }
    assert basic | special == patterns
    ngd = load_library("ngdbench")
    families = {"chain", "variable-length", "join", "pipeline", "anti", "union", "triadic"}
    families |= {"nested-loop", "judge"}
    assert {t.pattern for t in ngd} == families
    for family in families - {"judge"}:  # with and without aggregation
        assert {t.aggregation for t in ngd if t.pattern == family} == {True, False}
    assert all(t.anti_query is not None for t in ngd if t.pattern == "judge")
    extras = {t.pattern for t in load_library("extras")}
    assert {"path-3hop", "quantified-path", "shortest-path", "multi-stage"} <= extras
    assert "nested-aggregation" in extras


def test_every_template_is_ir_with_holes() -> None:
    for t in load_libraries(["cypherbench", "ngdbench", "extras"]):
        assert isinstance(t.query, ir.Query)
        assert next(holes_in(t.query), None) is not None, t.id


def test_a_library_file_must_be_consistent() -> None:
    with pytest.raises(SynthError, match="no return group"):
        parse_library("x", {"match": [{"pattern": "p", "cypher": "MATCH (n)", "returns": "g"}]})
    with pytest.raises(SynthError, match="type class"):
        parse_library(
            "x",
            {
                "template": [
                    {
                        "id": "a",
                        "pattern": "p",
                        "cypher": "MATCH (n) RETURN n",
                        "types": {"n.p": "colour"},
                    }
                ]
            },
        )
    with pytest.raises(SynthError, match="unknown template library"):
        load_library("nope")


def _prop(type_: str, categorical: bool = False) -> Property:
    return Property("p", parse_type(type_), categorical=categorical)


def test_operators_and_aggregates_fit_the_type() -> None:
    date = classes(_prop("DATE"), 100, 200)
    assert "avg" not in aggregates(date) and "sum" not in aggregates(date)
    text = classes(_prop("STRING"), 150, 200)
    assert ir.CompOp.LE not in operators(text) and ir.CompOp.LT not in operators(text)
    assert ir.StringOp.STARTS_WITH in operators(text)
    assert "avg" in aggregates(classes(_prop("FLOAT64"), 100, 200))
    category = classes(_prop("STRING"), 4, 200)
    assert operators(category) == [ir.CompOp.EQ, ir.CompOp.NE]
    assert aggregates(category) == ["count_distinct"]


FAMILY = SchemaGraph.from_dict(
    {
        "format": "gqlir-schema",
        "version": 1,
        "name": "family",
        "nodes": [
            {"label": "Person", "key": ["name"], "properties": [{"name": "name", "type": "STRING"}]}
        ],
        "edges": [
            {"label": "FATHER", "endpoints": [["Person", "Person"]], "cardinality": "n:1"},
            {"label": "KNOWS", "endpoints": [["Person", "Person"]], "symmetric": True},
        ],
    }
)


def _first_rejection(template_text: str) -> set[str]:
    t = parse_library("t", {"template": [{"id": "a", "pattern": "p", "cypher": template_text}]})[0]
    s = read_structure(t.query)
    index = GraphIndex(FAMILY)
    index.triples.update({("Person", "FATHER", "Person"): 1, ("Person", "KNOWS", "Person"): 1})
    index.by_label["Person"].append(1)
    found = set()
    from gqlir.synth.assign import _Search

    for a in _Search(t, s, index).run():
        why = rejection(s, a, FAMILY, t.query)
        found.add(why[0] if why else "kept")
    return found


def test_no_count_of_fathers_per_person() -> None:
    got = _first_rejection(
        "MATCH (n:Person)-[:`?r`]->(m:Person) RETURN n.name AS name, count(m) AS k"
    )
    assert got == {"to-one count", "kept"}  # FATHER is dropped, KNOWS kept


def test_no_redundant_relation_and_no_to_one_pair() -> None:
    assert _first_rejection(
        "MATCH (a:Person)-[:FATHER]->(b:Person), (a)-[:FATHER]->(b) RETURN a.name AS x"
    ) == {"redundant relation"}
    assert _first_rejection(
        "MATCH (a:Person)-[:FATHER]->(b:Person)<-[:FATHER]-(c:Person) RETURN a.name AS x"
    ) == {"kept"}  # a father has many children: the pair is fine
    assert _first_rejection(
        "MATCH (a:Person)<-[:FATHER]-(b:Person)-[:FATHER]->(c:Person) RETURN a.name AS x"
    ) == {"to-one pair"}  # one father each: a and c are the same node


@pytest.fixture(scope="module")
def movies() -> tuple[SchemaGraph, GraphIndex]:
    schema = gqlir.schema.load_schema("schemas/movies/schema.json")
    return schema, GraphIndex.load(schema, "schemas/movies/graph")


def test_instantiation_fills_every_hole_and_reads_values_from_the_graph(movies) -> None:
    schema, index = movies
    lib = {t.id: t for t in load_library("cypherbench")}
    t = lib["cypherbench/basic_(n)-(m0*)#out/n_where"]
    binder = Binder(t, schema, index)
    binding, witness = binder.bind(random.Random(3))
    q = substitute(t.query, binding, schema)
    assert next(holes_in(q), None) is None
    text = gqlir.emit(q, "neo4j")
    assert "?" not in text and "$" not in text
    # the pinned name is the name of the witness node
    shown = binding.props[("m0", "name")]
    assert str(index.props[witness.nodes["m0"]][shown]) in text
    assert question(q).endswith(".") and question(q, "logical").endswith(("?", "."))


def test_symmetric_types_are_matched_both_ways() -> None:
    schema = SchemaGraph.from_dict({**FAMILY.to_dict()})
    t = parse_library(
        "t",
        {
            "template": [
                {
                    "id": "a",
                    "pattern": "p",
                    "cypher": "MATCH (a:Person)-[:KNOWS]->(b:Person) RETURN a.name AS x",
                }
            ]
        },
    )[0]
    index = GraphIndex(schema)
    index.triples[("Person", "KNOWS", "Person")] = 1
    index.by_label["Person"].append(1)
    kept, _ = assignments(t, read_structure(t.query), schema, index)
    from gqlir.synth.binder import Binding

    q = substitute(t.query, Binding(kept[0]), schema)
    rel = next(q.find_all(ir.RelPattern))
    assert rel.direction is ir.Direction.EITHER


def test_a_skeleton_that_is_no_query_is_refused() -> None:
    """A template's skeleton must be a query: a schema command parses, but has no holes to fill
    and nothing to answer (it was once passed on as if it were a query)."""
    with pytest.raises(SynthError, match="skeleton is a CreateIndex, not a query"):
        compile_skeleton("CREATE INDEX FOR (n:`?n`) ON (n.name)")
