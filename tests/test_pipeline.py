"""The declared lowering of each target: which passes run, and --explain."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.cli import main
from gqlir.dialect import get_dialect
from gqlir.emitter.gql import emit_gql
from gqlir.errors import UnsupportedError
from gqlir.ir.functions import WHITESPACE
from gqlir.passes.edge_uniqueness import lower_edge_uniqueness
from gqlir.passes.pipeline import lower, lowerings


def names(target: str, source: str | None = None) -> list[str]:
    src = get_dialect(source) if source else None
    return [x.name for x in lowerings(get_dialect(target), src)]


def test_passes_are_chosen_by_capabilities() -> None:
    # ISO GQL says DIFFERENT EDGES and reads null operands, but has no nodes() function and
    # no toInteger() and no type()
    assert names("iso-gql") == [
        "conversions",
        "gql-functions",
        "gql-projections",
        "relationship-types",
        "path-lists",
        "gql-expressions",
    ]
    assert names("spanner") == [
        "conversions",
        "googlesql-strings",
        "googlesql-division",
        "googlesql-functions",
        "googlesql-temporal",
        "googlesql",
        "gql-functions",
        "sql-aggregates",
        "gql-projections",
        "relationship-types",
        "edge-uniqueness",
        "gql-expressions",
        "googlesql-dates",
    ]
    assert names("neo4j") == ["gql-meanings", "set-operations"]  # Cypher has UNION only
    assert "cypher-meanings" in names("kuzu")
    assert "list-predicates" in names("tugraph-cypher")  # and in no other Cypher target
    assert "list-predicates" not in names("kuzu") + names("opencypher9")
    assert names("kuzu", "spanner")[0] == "float-quotients"  # 7 / 2 is 3.5 in GoogleSQL


def test_edge_uniqueness_is_trail_under_spanners_own_mode() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b)-[s]->(c) RETURN c.name AS n")
    changed: list[str] = []
    lowered = lower(query, get_dialect("spanner"), changed=changed)
    assert changed == ["edge-uniqueness"]
    (match,) = [s for s in lowered.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    assert match.mode is ir.MatchMode.REPEATABLE_ELEMENTS
    assert match.patterns[0].mode is ir.PathMode.TRAIL
    assert lower(query, get_dialect("iso-gql")) is query


def test_edge_uniqueness_across_patterns_is_all_different() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b), (c)-[s]->(d) RETURN a.x AS x")
    lowered = lower_edge_uniqueness(query, get_dialect("spanner"))
    (match,) = [s for s in lowered.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    assert isinstance(match.where, ir.AllDifferent)
    variable_length = gqlir.parse("MATCH (a)-[*1..2]->(b), (c)-[*1..2]->(d) RETURN a.x AS x")
    with pytest.raises(UnsupportedError) as caught:
        lower_edge_uniqueness(variable_length, get_dialect("spanner"))
    assert caught.value.construct == "edge uniqueness across path patterns"


def test_gql_functions_need_no_types() -> None:
    query = gqlir.parse("RETURN trim(' a ') AS t, pi() AS p, coalesce(1) AS c")
    lowered = lower(query, get_dialect("iso-gql"))
    items = [i.expr for i in lowered.steps[-1].items]  # type: ignore[attr-defined]
    assert items[0] == ir.FunctionCall("btrim", (ir.String(" a "), ir.String(WHITESPACE)))
    assert isinstance(items[1], ir.Float) and items[2] == ir.Integer(1)
    assert gqlir.emit(query, "iso-gql").startswith("RETURN BTRIM(' a ', ")


def test_explain_names_the_passes_that_changed_the_query(
    capsys: pytest.CaptureFixture[str],
) -> None:
    query = "MATCH (a)-[r]->(b)-[s]->(c) RETURN c.name AS n"
    args = ["translate", "--from", "neo4j", "--to", "spanner", "--graph", "g", "--explain"]
    assert main([*args, query]) == 0
    captured = capsys.readouterr()
    assert "MATCH TRAIL" in captured.out
    assert "edge-uniqueness: changed" in captured.err
    assert "googlesql: unchanged" in captured.err


def _items(query: str, target: str = "iso-gql") -> list[ir.Expr]:
    lowered = lower(gqlir.parse(query), get_dialect(target))
    return [i.expr for i in lowered.steps[-1].items]  # type: ignore[attr-defined]


def test_typed_functions_read_the_types_of_variables_in_scope() -> None:
    # a LET's string, a FOR's integers, a MATCH's node: each decides its function's form
    size, text, node_size = _items(
        "WITH 'abc' AS s UNWIND [1, 2] AS i MATCH (n) "
        "RETURN size(s) AS a, toString(i) AS b, size(n.name) AS c"
    )
    assert size == ir.FunctionCall("char_length", (ir.Variable("s"),))
    assert text == ir.Cast(ir.Variable("i"), ir.TypeRef("STRING"))
    assert node_size == ir.FunctionCall("size", (ir.Property(ir.Variable("n"), "name"),))


def test_typed_functions_read_the_schemas_property_types() -> None:
    query = gqlir.parse("MATCH (n) RETURN size(n.name) AS a")
    lowered = lower(query, get_dialect("iso-gql"), properties={("node", "name"): "string"})
    (item,) = lowered.steps[-1].items  # type: ignore[attr-defined]
    assert item.expr == ir.FunctionCall("char_length", (ir.Property(ir.Variable("n"), "name"),))


def test_walks_over_constant_lists_are_written_item_by_item_before_typing() -> None:
    # the item's type (a string) decides size() once the walk is written per item
    (walk,) = _items("RETURN all(x IN ['ab', 'c'] WHERE size(x) = 2) AS r")
    two = ir.Integer(2)
    assert walk == ir.And(
        ir.Comparison(ir.CompOp.EQ, ir.FunctionCall("char_length", (ir.String("ab"),)), two),
        ir.Comparison(ir.CompOp.EQ, ir.FunctionCall("char_length", (ir.String("c"),)), two),
    )
    first, member, part = _items(
        "WITH [1, 2, 3] AS l RETURN head(l) AS a, 3 IN l[1..] AS b, range(1, 3)[0] AS c"
    )
    assert first == ir.Integer(1)
    three = ir.Integer(3)
    assert member == ir.Or(
        ir.Comparison(ir.CompOp.EQ, three, ir.Integer(2)),
        ir.Comparison(ir.CompOp.EQ, three, three),
    )
    assert part == ir.Integer(1)


def test_a_walk_variable_shadows_an_outer_one_of_the_same_name() -> None:
    # x is a string outside; inside the walk it is an element of a list of unknown items
    (walk,) = _items("WITH 'abc' AS x, $p AS l RETURN [x IN l | size(x)] AS r", "tugraph-gql")
    assert isinstance(walk, ir.ListComprehension)
    assert walk.projection == ir.FunctionCall("size", (ir.Variable("x"),))


def test_the_expression_pass_leaves_a_query_without_its_forms_alone() -> None:
    query = gqlir.parse("MATCH (n) WHERE n.x > 1 RETURN n.x * 2 AS y, -n.y AS z")
    assert lower(query, get_dialect("iso-gql")) is query


def test_a_refusal_found_by_a_pass_is_raised_where_the_printer_writes_it() -> None:
    # Spanner has no IS TYPED, so n.x + n.y (types unknown) is refused by the pass; the
    # graph element returned first is the first refusal, as the query is written
    query = gqlir.parse("MATCH (n) RETURN n, n.x + n.y AS s")
    lowered = lower(query, get_dialect("spanner"))
    (_, item) = lowered.steps[-1].items  # type: ignore[attr-defined]
    assert isinstance(item.expr, ir.Untranslatable)
    assert item.expr.construct == "polymorphic +"
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(query, "spanner", graph="g")
    assert caught.value.construct == "graph element in result"
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(gqlir.parse("MATCH (n) RETURN n.x + n.y AS s"), "spanner", graph="g")
    assert caught.value.construct == "polymorphic +"
    assert caught.value.rewrite is not None and "toString" in caught.value.rewrite


def test_spanner_dates_are_decided_by_the_pass_over_the_scope() -> None:
    # d is bound by WITH to a date: its accessor and arithmetic are GoogleSQL calls in the IR
    year, later, day, now = _items(
        "WITH date('2020-01-31') AS d "
        "RETURN d.year AS y, d + duration({months: 1}) AS m, date.truncate('week', d) AS w, "
        "datetime() AS t",
        "spanner",
    )
    d = ir.Variable("d")
    assert year == ir.FunctionCall("googlesql.extract", (ir.String("YEAR"), d))
    month = ir.FunctionCall("googlesql.interval", (ir.Integer(1), ir.String("MONTH")))
    assert later == ir.FunctionCall("googlesql.date_add", (d, month))
    assert day == ir.FunctionCall("googlesql.date_trunc", (d, ir.String("ISOWEEK")))
    assert now == ir.FunctionCall("googlesql.current_timestamp", ())
    # an accessor of a value not known to be a date is left for the printer to refuse
    (other,) = _items("MATCH (n) RETURN n.born.year AS y", "spanner")
    assert isinstance(other, ir.Property)
