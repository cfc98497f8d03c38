"""The pass element-references: GQL's element predicates and ELEMENT_ID take variables."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.ir import predicates as pr
from gqlir.passes.element_references import lower_element_references


def _where(query: ir.Node) -> ir.Expr:
    (match,) = [s for s in query.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    return match.where


def test_element_id_of_an_expression_is_refused_where_written() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b) RETURN elementId(startNode(r)) AS i")
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "elementId() of an expression"
    assert caught.value.rewrite == "bind the element to a variable first"
    plain = gqlir.parse("MATCH (a)-[r]->(b) RETURN elementId(r) AS i")
    assert lower_element_references(plain, get_dialect("iso-gql")) is plain


def test_predicate_of_an_expression_becomes_a_refusal_in_place() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b) WHERE a IS SOURCE OF r RETURN a.x AS x", "iso-gql")
    iso = get_dialect("iso-gql")
    assert lower_element_references(query, iso) is query
    start = ir.FunctionCall("startnode", (ir.Variable("r"),))
    computed = ir.Match(
        patterns=_match(query).patterns,
        where=pr.IsEndpoint(start, ir.Variable("r"), pr.Endpoint.SOURCE),
    )
    steps = tuple(computed if isinstance(s, ir.Match) else s for s in query.steps)  # type: ignore[attr-defined]
    lowered = lower_element_references(ir.LinearQuery(steps), iso)  # type: ignore[call-arg]
    refused = _where(lowered)
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "IS SOURCE OF"
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(ir.LinearQuery(steps), "iso-gql")  # type: ignore[call-arg]
    assert caught.value.construct == "IS SOURCE OF"


def test_same_of_one_element_is_refused_and_a_missing_form_left_to_the_printer() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b) WHERE SAME(a, b) RETURN a.x AS x", "iso-gql")
    one = ir.Match(patterns=_match(query).patterns, where=pr.Same((ir.Variable("a"),)))
    steps = tuple(one if isinstance(s, ir.Match) else s for s in query.steps)  # type: ignore[attr-defined]
    lowered = lower_element_references(ir.LinearQuery(steps), get_dialect("iso-gql"))  # type: ignore[call-arg]
    refused = _where(lowered)
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "SAME of fewer than two elements"
    # Spanner writes no IS DIRECTED: the printer's capability refusal, not this pass's
    spanner = get_dialect("spanner")
    assert "IS DIRECTED" not in spanner.capabilities.element_predicates
    start = ir.FunctionCall("startnode", (ir.Variable("r"),))
    directed = ir.Match(patterns=_match(query).patterns, where=pr.IsDirected(start))
    steps = tuple(directed if isinstance(s, ir.Match) else s for s in query.steps)  # type: ignore[attr-defined]
    kept = ir.LinearQuery(steps)  # type: ignore[call-arg]
    assert lower_element_references(kept, spanner) is kept
    assert isinstance(
        _where(lower_element_references(kept, get_dialect("iso-gql"))), ir.Untranslatable
    )


def _match(query: ir.Node) -> ir.Match:
    (match,) = [s for s in query.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    return match


def test_a_label_test_of_an_expression_is_refused_in_place() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b) WHERE startNode(r):A RETURN a.x AS x")
    iso = get_dialect("iso-gql")
    refused = _where(lower_element_references(query, iso))
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "label test on an expression"
    assert refused.rewrite == "bind the element to a variable first"
    assert refused.expr is _where(query)
    plain = gqlir.parse("MATCH (a)-[r]->(b) WHERE a:A RETURN a.x AS x")
    assert lower_element_references(plain, iso) is plain
