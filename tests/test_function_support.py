"""The pass function-support: a function, aggregate or temporal constructor a GQL target has no
built-in for is refused in the IR, where the printer raises it."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.api import translate
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.ir import marks
from gqlir.passes.function_support import literal_form, lower_function_support, needed
from gqlir.passes.pipeline import summarize
from gqlir.passes.scoped import UNLOWERED, stopping_at_refusals


def items(query: ir.Node) -> list[ir.Expr]:
    return [i.expr for i in query.steps[-1].items]  # type: ignore[attr-defined]


def test_a_function_without_a_built_in_is_refused_in_place() -> None:
    query = gqlir.parse("RETURN reverse('abc') AS r, upper('a') AS u")
    target = get_dialect("iso-gql")
    assert needed(summarize(query), target, False)
    refused, kept = items(lower_function_support(query, target))
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "function reverse()"
    assert refused.message == ""  # (listed as lacking: the catalogued text)
    assert refused.expr is items(query)[0]  # the query's own node, for the refusal probe
    assert kept is items(query)[1]
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "function reverse()"


def test_a_function_the_dialect_does_not_know_is_refused_with_that_reason() -> None:
    call = ir.FunctionCall("apoc.text.join", (ir.Variable("l"), ir.String(",")))
    refused = lower_function_support(call, get_dialect("iso-gql"))
    assert isinstance(refused, ir.Untranslatable)
    assert refused.message == "apoc.text.join() has no built-in counterpart in iso-gql"


def test_a_query_with_only_spelled_functions_is_not_walked() -> None:
    query = gqlir.parse("MATCH (n) RETURN upper(n.name) AS u, count(*) AS c, sum(n.x) AS s")
    target = get_dialect("iso-gql")
    assert not needed(summarize(query), target, False)
    assert lower_function_support(query, target) is query


def test_the_outermost_of_nested_refusals_is_refused_and_nothing_inside_it() -> None:
    query = gqlir.parse("RETURN reverse(reverse('ab')) AS r")
    (refused,) = items(lower_function_support(query, get_dialect("iso-gql")))
    assert isinstance(refused, ir.Untranslatable)
    assert refused.expr is items(query)[0]
    # a refusal an earlier pass left is not looked into
    earlier = ir.Untranslatable(items(query)[0], "something else")
    assert lower_function_support(earlier, get_dialect("iso-gql")) is earlier


def test_a_built_in_of_another_meaning_says_why() -> None:
    call = ir.FunctionCall("datetime.truncate", (ir.String("day"), ir.Variable("d")))
    refused = lower_function_support(call, get_dialect("spanner"))
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "function datetime.truncate()"
    assert refused.message.startswith("datetime.truncate() has no spanner spelling: ")


def test_marked_calls_and_marked_aggregates_are_read_by_what_they_write() -> None:
    target = get_dialect("iso-gql")
    marked = ir.FunctionCall(marks.MOD, (ir.Integer(7), ir.Integer(2)))
    assert lower_function_support(marked, target) is marked
    total = ir.Aggregate(marks.SUM, (ir.Variable("x"),))
    assert lower_function_support(total, target) is total
    spread = ir.Aggregate(marks.STDEV + "nosuch", (ir.Variable("x"),))
    refused = lower_function_support(spread, target)
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "function nosuch()"


def test_a_temporal_value_needs_a_constructor_unless_it_is_a_typed_literal() -> None:
    spanner = get_dialect("spanner")
    zoned = ir.TemporalLiteral(ir.TemporalKind.TIME, "12:00+01:00")
    refused = lower_function_support(zoned, spanner)
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "time value"
    assert "no time-of-day type" in refused.message
    day = ir.TemporalLiteral(ir.TemporalKind.DATE, "2024-01-02")
    assert literal_form(day, spanner.capabilities) == "DATE"
    assert lower_function_support(day, spanner) is day
    instant = ir.TemporalLiteral(ir.TemporalKind.DATETIME, "2024-01-02T03:04:05Z", timestamp=True)
    assert literal_form(instant, spanner.capabilities) == "TIMESTAMP"
    assert lower_function_support(instant, spanner) is instant
    assert literal_form(instant, get_dialect("iso-gql").capabilities) is None


def test_the_refusal_probe_finds_a_node_rebuilt_around_a_refused_call() -> None:
    # startNode() is refused inside the label test, which the printer refuses first: the
    # probe takes the label test out by its class and position and goes on
    query = gqlir.parse("MATCH (n)-[r]->(m) WHERE startNode(r):A RETURN n")
    with pytest.raises(UnsupportedError) as caught:
        translate(query, "neo4j", "spanner", graph="g")
    found = [x.construct for x in caught.value.all_refusals()]
    assert found == ["label test on an expression", "graph element in result"]


def test_while_the_printer_lowers_the_steps_after_a_refused_one_are_left() -> None:
    query = gqlir.parse("MATCH (n) WITH reverse(n.name) AS r RETURN r, upper(r) AS u")
    iso = get_dialect("iso-gql")
    with stopping_at_refusals() as stopped:
        lowered = lower_function_support(query, iso)
    assert stopped == ["function-support"]
    last = lowered.steps[-1]  # type: ignore[attr-defined]
    assert isinstance(last, ir.RefusedStep) and last.construct == UNLOWERED
    assert lower_function_support(query, iso).steps[-1] is query.steps[-1]  # type: ignore[attr-defined]
    with pytest.raises(UnsupportedError) as caught:
        gqlir.emit(query, "iso-gql")
    assert caught.value.construct == "function reverse()"
