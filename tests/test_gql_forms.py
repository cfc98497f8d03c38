"""The pass gql-forms: the GQL family's lowered forms, decided before the printer writes them."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.analysis.types import TypeAnalysis
from gqlir.api import transpile as translate
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.ir import marks
from gqlir.passes.gql_forms import lower_gql_forms, needed
from gqlir.passes.pipeline import lower, summarize


def _items(query: str, target: str = "iso-gql") -> list[ir.Expr]:
    lowered = lower(gqlir.parse(query), get_dialect(target))
    return [i.expr for i in lowered.steps[-1].items]  # type: ignore[attr-defined]


def test_starts_with_is_a_prefix_comparison_or_googlesqls_function() -> None:
    (iso,) = _items("WITH 'abc' AS s RETURN s STARTS WITH 'ab' AS r")
    left = ir.FunctionCall("left", (ir.Variable("s"), ir.Integer(2)))
    assert iso == ir.Comparison(ir.CompOp.EQ, left, ir.String("ab"))
    (spanner,) = _items("WITH 'abc' AS s RETURN s ENDS WITH 'bc' AS r", "spanner")
    assert spanner == ir.FunctionCall("ENDS_WITH", (ir.Variable("s"), ir.String("bc")))
    # a number is never a string: Cypher's null, and nothing left to fail
    assert _items("RETURN 1 STARTS WITH 'a' AS r") == [ir.Null()]


def test_sum_and_stdev_of_no_rows_are_zero_and_collect_drops_nulls() -> None:
    total, spread, listed = _items(
        "MATCH (n) RETURN sum(n.x) AS s, stDev(n.x) AS d, collect(n.x) AS c", "spanner"
    )
    assert isinstance(total, ir.FunctionCall) and total.name == "coalesce"
    assert total.args[0] == ir.Aggregate(marks.SUM, (ir.Property(ir.Variable("n"), "x"),))
    assert total.args[1] == ir.Integer(0)
    assert spread.args[0].name == marks.STDEV + "stdev"  # type: ignore[attr-defined]
    # Spanner's ARRAY_AGG keeps nulls and is null on no rows
    assert listed.args[0].name == marks.COLLECT  # type: ignore[attr-defined]
    assert listed.args[1] == ir.ListLiteral(())
    text = translate("MATCH (n) RETURN sum(n.x) AS s", "neo4j", "iso-gql")
    assert text == "MATCH (n) RETURN COALESCE(SUM(n.x), 0) AS s"


def test_a_walk_takes_a_name_the_query_does_not_use() -> None:
    # the query names _v itself: the walk's variable is the next free name
    (walk,) = _items("MATCH (n) WITH n, 1 AS _v RETURN n.x IN $l AS r")
    names = {x.variable for x in walk.walk() if isinstance(x, ir.Unwind)}
    assert names == {"_v1"}
    text = translate("MATCH (n) WITH n, 1 AS _v RETURN n.x IN $l AS r", "neo4j", "iso-gql")
    assert "FOR _v1 IN $l" in text
    (plain,) = _items("MATCH (n) RETURN n.x IN $l AS r")  # (else the short name)
    assert {x.variable for x in plain.walk() if isinstance(x, ir.Unwind)} == {"_v"}


def test_a_comparison_of_known_different_types_is_refused_where_it_is_written() -> None:
    (refused,) = _items("WITH 1 AS a RETURN a = 'x' AS r")
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "comparison of different types"
    with pytest.raises(UnsupportedError) as caught:  # (not a constant, which is folded)
        translate("MATCH (n) RETURN count(n) = 'x' AS r", "neo4j", "iso-gql")
    assert caught.value.construct == "comparison of different types"
    # the first refused construct in writing order is still the one reported
    with pytest.raises(UnsupportedError) as first:
        translate("MATCH (n) RETURN n, count(n) = 'x' AS r", "neo4j", "spanner", graph="g")
    assert first.value.construct == "graph element in result"


def test_a_walk_over_an_aggregate_is_left_for_the_printer_to_compute_first() -> None:
    query = gqlir.parse("MATCH (n) RETURN 1 IN collect(n.x) AS r")
    target = get_dialect("iso-gql")
    lowered = lower_gql_forms(query, target)
    (item,) = lowered.steps[-1].items  # type: ignore[attr-defined]
    assert isinstance(item.expr, ir.In)  # a walk here would aggregate over its own rows
    text = translate("MATCH (n) RETURN 1 IN collect(n.x) AS r", "neo4j", "iso-gql")
    assert text.startswith("MATCH (n) RETURN COLLECT_LIST(n.x) AS _g1 NEXT RETURN CASE")
    assert "FOR _v IN _g1" in text


def test_the_pass_runs_only_where_a_rule_applies() -> None:
    iso = get_dialect("iso-gql")
    plain = summarize(gqlir.parse("MATCH (n) WHERE n.x > 1 RETURN n.x AS y"))
    assert not needed(plain, iso, False)
    assert needed(plain, iso, True)  # a schema types the property
    typed = summarize(gqlir.parse("WITH 1 AS a RETURN a = 2 AS r"))
    assert needed(typed, iso, False)
    # TuGraph GQL has IN: a membership test alone needs nothing of the pass
    membership = summarize(gqlir.parse("MATCH (n) RETURN n.x IN $l AS r"))
    assert needed(membership, iso, False)
    assert not needed(membership, get_dialect("tugraph-gql"), False)


def test_marked_calls_have_the_type_of_what_they_stand_for() -> None:
    types = TypeAnalysis()
    nodes = ir.Aggregate(marks.COLLECT, (ir.Integer(1),))
    assert types.of(nodes).kind == "list" and types.of(nodes).element.kind == "integer"  # type: ignore[union-attr]
    assert types.of(ir.FunctionCall(marks.POWER, (ir.Integer(2), ir.Integer(3)))).kind == "float"
    modulo = ir.FunctionCall(marks.MOD, (ir.Integer(7), ir.Integer(2)))
    assert types.of(modulo).kind == "integer"
    refused = ir.Untranslatable(ir.String("a"), "x", "", "")
    assert types.of(refused).kind == "string"
