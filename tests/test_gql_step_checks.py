"""The passes gql-steps and let-steps: their rules (unwind_lists, group_variables,
standalone_calls, let_steps) write a step as GQL can, or refuse it as a RefusedStep raised where
the printer reaches it."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.passes.gql_steps import lower_gql_steps, lower_let_steps

ISO = get_dialect("iso-gql")


def refused_steps(node: ir.Node) -> list[ir.RefusedStep]:
    return list(node.find_all(ir.RefusedStep))


@pytest.mark.parametrize(
    "text",
    [
        "UNWIND 1 AS x RETURN x",
        "WITH {a: 1} AS m UNWIND m AS x RETURN x",
        "MATCH (n) UNWIND n AS x RETURN x",
        "UNWIND [1, 2] AS x UNWIND x AS y RETURN y",
        "MATCH (n) WHERE EXISTS { UNWIND 'a' AS x RETURN x } RETURN n.a AS a",
    ],
)
def test_unwind_of_a_known_non_list_is_refused(text: str) -> None:
    query = gqlir.parse(text)
    (refused,) = refused_steps(lower_gql_steps(query, ISO))
    assert refused.construct == "UNWIND of a non-list value"
    assert refused.rewrite == "UNWIND a list: [value]"
    assert isinstance(refused.step, ir.Unwind) and refused.node is refused.step.source
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "UNWIND of a non-list value"


@pytest.mark.parametrize(
    "text",
    [
        "UNWIND $p AS x RETURN x",
        "UNWIND null AS x RETURN x",
        "WITH [1, 2] AS l UNWIND l AS x RETURN x",
        "MATCH (n) UNWIND n.names AS x RETURN x",
    ],
)
def test_unwind_of_a_list_or_of_an_unknown_type_is_kept(text: str) -> None:
    query = gqlir.parse(text)
    assert lower_gql_steps(query, ISO) is query


def test_unwind_reads_the_schemas_property_kinds() -> None:
    query = gqlir.parse("MATCH (n) UNWIND n.age AS x RETURN x")
    assert lower_gql_steps(query, ISO, {("node", "age"): "integer"}) is not query


def test_a_quantified_relationship_bound_earlier_is_refused() -> None:
    query = gqlir.parse("MATCH ()-[r]->() WITH r MATCH (c)-[r*]->(d) RETURN c.x AS x")
    lowered = lower_gql_steps(query, ISO)
    (refused,) = refused_steps(lowered)
    assert refused.construct == "variable-length relationship bound earlier"
    assert isinstance(refused.node, ir.RelPattern) and refused.node.variable == "r"
    assert "group variable" in refused.message
    fresh = gqlir.parse("MATCH (a)-[r*]->(b) WITH a MATCH (a)-[r*]->(c) RETURN c.x AS x")
    assert lower_gql_steps(fresh, ISO) is fresh


def test_a_query_that_is_only_a_call_without_yield_is_refused_after_the_call() -> None:
    query = gqlir.parse("CALL db.labels()")
    lowered = lower_gql_steps(query, ISO)
    call, refused = lowered.steps  # type: ignore[attr-defined]
    assert call is query.steps[0]  # type: ignore[attr-defined]
    assert isinstance(refused, ir.RefusedStep) and refused.node is call
    assert refused.construct == "standalone CALL without YIELD"
    for text in ("CALL db.labels() YIELD label", "CALL db.labels() YIELD *"):
        kept = gqlir.parse(text)
        assert lower_gql_steps(kept, ISO) is kept
    assert gqlir.emit(gqlir.parse("CALL db.labels() YIELD label"), "iso-gql").endswith(
        "RETURN label"
    )


def test_a_let_whose_binding_reads_another_is_two_lets() -> None:
    query = gqlir.parse("LET a = 1, b = a + 1, c = 2 RETURN b, c", "iso-gql")
    lowered = lower_let_steps(query, ISO)
    lets = [s for s in lowered.steps if isinstance(s, ir.Let)]  # type: ignore[attr-defined]
    assert [[b.variable for b in let.bindings] for let in lets] == [["a"], ["b", "c"]]
    assert gqlir.emit(query, "iso-gql").startswith("LET a = 1 LET b = a + 1, c = 2 RETURN")
    independent = gqlir.parse("LET a = 1, b = 2 RETURN a, b", "iso-gql")
    assert lower_let_steps(independent, ISO) is independent


def test_a_let_of_a_bound_variable_is_refused_after_the_bindings_before_it() -> None:
    query = gqlir.parse("MATCH (n) LET a = 1, n = 2 RETURN n", "iso-gql")
    lowered = lower_let_steps(query, ISO)
    first, refused = lowered.steps[1:3]  # type: ignore[attr-defined]
    assert isinstance(first, ir.Let) and [b.variable for b in first.bindings] == ["a"]
    assert isinstance(refused, ir.RefusedStep)
    assert refused.construct == "LET of a bound variable"
    assert refused.node is query.steps[1].bindings[1]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "target, split", [("opencypher9", "n AS a WITH *, EXISTS"), ("iso-gql", "LET a = n LET b")]
)
def test_a_binding_that_names_an_earlier_one_in_a_pattern_starts_a_new_step(
    target: str, split: str
) -> None:
    """A LET binding reads an earlier one also where a pattern names it (EXISTS { (a)-->() }):
    written in one WITH or LET, the pattern's ``a`` would be a new variable, matching any node."""
    text = gqlir.transpile(
        "MATCH (n) LET a = n, b = EXISTS { (a)-->() } RETURN n.i AS i, b", "neo4j", target
    )
    assert split in text, text


@pytest.mark.parametrize(
    "text",
    [
        "MATCH ()-[rs*]->() WITH rs MATCH (a) RETURN [(a)-[rs*]->(b) | b] AS x",
        "MATCH ()-[rs*]->() WITH rs MATCH (a) WHERE size([(a)-[rs*]->(b) | b]) > 0 RETURN a",
    ],
)
def test_a_bound_quantified_relationship_in_a_pattern_comprehension_is_refused(text: str) -> None:
    """GQL writes a pattern comprehension as a VALUE { MATCH … } subquery, whose quantified
    edge declares a new group variable: one bound earlier is refused there as in a MATCH."""
    with pytest.raises(UnsupportedError) as refused:
        gqlir.transpile(text, "neo4j", "iso-gql")
    assert refused.value.construct == "variable-length relationship bound earlier"
    fresh = "MATCH (a) RETURN [(a)-[rs*]->(b) | b] AS x"
    assert "VALUE {" in gqlir.transpile(fresh, "neo4j", "iso-gql")
