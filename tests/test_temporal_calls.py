"""The pass temporal-calls: Cypher's temporal constructors as GQL writes them."""

from __future__ import annotations

from dataclasses import replace

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.emitter.gql import emit_gql
from gqlir.errors import UnsupportedError
from gqlir.ir import marks
from gqlir.passes.temporal_calls import lower_temporal_calls


def _item(query: ir.Node) -> ir.Expr:
    return query.steps[-1].items[0].expr  # type: ignore[attr-defined]


def test_statement_clock_is_the_constructor_without_arguments() -> None:
    query = gqlir.parse("RETURN date.statement() AS d, datetime.statement() AS t")
    lowered = lower_temporal_calls(query, get_dialect("iso-gql"))
    assert _item(lowered) == ir.FunctionCall("date", ())
    assert gqlir.emit(query, "iso-gql") == "RETURN DATE() AS d, ZONED_DATETIME() AS t"


def test_current_date_where_no_constructor_has_the_name() -> None:
    iso = get_dialect("iso-gql")
    functions = {k: v for k, v in iso.functions.items() if k not in ("date", "datetime")}
    bare = replace(iso, name="iso-gql-without-date", functions=functions)
    query = gqlir.parse("RETURN date() AS d, datetime() AS t, date('2020-01-02') AS s")
    lowered = lower_temporal_calls(query, bare)
    assert _item(lowered) == ir.FunctionCall(marks.CURRENT_DATE, ())
    assert lower_temporal_calls(query, iso) is query  # ISO GQL has DATE()
    text = emit_gql(query, bare)
    assert text.startswith("RETURN CURRENT_DATE AS d, CURRENT_TIMESTAMP AS t, ")


def test_constructor_of_a_computed_value_is_refused_in_place() -> None:
    query = gqlir.parse("MATCH (n) RETURN date(n.born) AS d")
    lowered = lower_temporal_calls(query, get_dialect("tugraph-gql"))
    refused = _item(lowered)
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "date() of a computed value"
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "date() of a computed value"
    assert "DATE() takes a string literal or a record literal" in str(caught.value)
    two = ir.FunctionCall("date", (ir.String("2020-01-01"), ir.Integer(1)))
    refused_two = lower_temporal_calls(two, get_dialect("iso-gql"))
    assert isinstance(refused_two, ir.Untranslatable)
    assert refused_two.construct == "function date()"
    # a constructor the target lacks stays for the printer's refusal of the function
    assert lower_temporal_calls(query, get_dialect("spanner")) is query
