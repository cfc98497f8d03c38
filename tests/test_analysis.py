"""The one type analysis and the one aggregate analysis every layer asks."""

from __future__ import annotations

import gqlir
from gqlir import ir
from gqlir.analysis.aggregates import aggregates, aggregates_in, distinct_aggregates
from gqlir.analysis.types import TypeAnalysis, VType, from_value_kind, value_kind_of


def _item(text: str) -> ir.Expr:
    query = gqlir.parse(text, "neo4j")
    assert isinstance(query, ir.LinearQuery)
    last = query.steps[-1]
    assert isinstance(last, ir.Projection)
    return last.items[0].expr


def test_a_count_inside_a_subquery_is_the_subquerys_own() -> None:
    counted = _item("MATCH (n) RETURN COUNT { MATCH (n)-->(m) RETURN count(*) } AS c")
    assert not aggregates(counted)
    collected = _item("MATCH (n) RETURN COLLECT { MATCH (n)-->(m) RETURN count(m) } AS c")
    assert not aggregates(collected)
    assert aggregates(_item("MATCH (n) RETURN count(n) + 1 AS c"))


def test_aggregates_in_text_order_each_once() -> None:
    expr = _item("MATCH (n) RETURN count(n) + sum(n.x) + count(n) AS c")
    names = [getattr(a, "name", "*") for a in aggregates_in(expr)]
    assert names == ["count", "sum", "count"]
    assert [getattr(a, "name", "*") for a in distinct_aggregates([expr])] == ["count", "sum"]


def test_the_layers_answer_alike() -> None:
    """The checker, the GQL emitter and the SQL reader all read one analysis: a change to a
    rule shows in each of their vocabularies."""
    from gqlir.eval import check

    cases = {
        "'a' + 1": ("string", "STRING"),
        "round(2)": ("float", "FLOAT"),
        "avg(1)": ("float", "FLOAT"),
        "[1, 2]": ("list", "LIST"),
        "1 + 2.0": ("float", "FLOAT"),
        "CASE WHEN true THEN 1 ELSE 2.0 END": ("number", "ANY"),
    }
    for text, (kind, checked) in cases.items():
        expr = _item(f"RETURN {text} AS x")
        assert TypeAnalysis().of(expr).kind == kind, text
        assert check._kind(expr, {}) == checked, text


def test_value_kinds_round_trip() -> None:
    for name in ("int", "float", "string", "bool", "date", "duration", "list<int>", "list<?>"):
        assert value_kind_of(from_value_kind(name)) == name
    assert value_kind_of(VType("number")) is None
    assert value_kind_of(VType("property")) == "other"


def test_a_pattern_binds_elements_and_lists_of_them_under_a_quantifier() -> None:
    from gqlir.analysis.scope import pattern_bindings

    query = gqlir.parse("MATCH p = (a)-[r]->(b)-[s*1..3]->(c) RETURN a")
    assert isinstance(query, ir.LinearQuery)
    match = query.steps[0]
    assert isinstance(match, ir.Match)
    bound = pattern_bindings(match.patterns)
    assert bound["p"] == VType("path")
    assert bound["a"] == VType("node") and bound["r"] == VType("edge")
    assert bound["s"] == VType("list", VType("edge"))


def test_a_deferred_type_is_inferred_in_the_scope_it_was_bound_in() -> None:
    from gqlir.analysis.scope import Deferred, ScopeTypes

    # x is a string where s was bound; later the name x means something else
    deferred = Deferred(ir.Variable("x"), {"x": VType("string")})
    types = ScopeTypes({"s": deferred, "x": VType("integer")})  # type: ignore[dict-item]
    assert types.variable("s") == VType("string")
    assert types.of(ir.Variable("x")) == VType("integer")
    assert types.variable("s") is types.variable("s")  # inferred once


def test_names_in_is_every_naming_field_of_every_node(
    tck_trees: list[tuple[str, ir.Node]],
) -> None:
    """``names_in`` (a written-out walk) finds what the generic walk finds: every string in a
    field that names something, in every node of every TCK query."""
    from gqlir.ir.analysis import _NAMING, names_in

    for text, query in tck_trees:
        expected = {
            value
            for node in query.walk()
            for attr in _NAMING
            if isinstance(value := getattr(node, attr, None), str)
        }
        assert names_in(query) == expected, text
