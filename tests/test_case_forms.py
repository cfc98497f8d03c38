"""The pass case-forms: a simple CASE GQL cannot write bare becomes a searched CASE."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.passes.case_forms import lower_case_forms


def _item(query: ir.Node) -> ir.Expr:
    return query.steps[-1].items[0].expr  # type: ignore[attr-defined]


def test_computed_operand_becomes_a_searched_case() -> None:
    query = gqlir.parse("MATCH (n) RETURN CASE toUpper(n.s) WHEN 'A' THEN 'a' ELSE 'b' END AS c")
    lowered = lower_case_forms(query, get_dialect("iso-gql"))
    case = _item(lowered)
    assert isinstance(case, ir.Case) and case.subject is None
    (when,) = case.whens
    assert isinstance(when.condition, ir.Comparison)
    assert when.condition.op is ir.CompOp.EQ
    text = gqlir.emit(query, "iso-gql")
    assert "CASE WHEN UPPER(n.s) = 'A' THEN 'a' ELSE 'b' END" in text


def test_primary_operands_stay_a_simple_case() -> None:
    query = gqlir.parse("MATCH (n) RETURN CASE n.x WHEN 2 THEN 'a' END AS c")
    assert lower_case_forms(query, get_dialect("iso-gql")) is query
    assert "CASE n.x WHEN 2 THEN 'a' END" in gqlir.emit(query, "iso-gql")
    negative = gqlir.parse("MATCH (n) RETURN CASE n.x WHEN -2 THEN 'a' END AS c")
    assert _item(lower_case_forms(negative, get_dialect("iso-gql"))).subject is None  # type: ignore[attr-defined]


def test_operand_of_changing_value_is_refused_where_written() -> None:
    query = gqlir.parse("RETURN CASE toInteger(rand() * 2) WHEN 0 THEN 'a' END AS c")
    refused = _item(lower_case_forms(query, get_dialect("iso-gql")))
    assert isinstance(refused, ir.Untranslatable)
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "simple CASE on a computed value"
    assert caught.value.rewrite == "bind the value to a variable first"
