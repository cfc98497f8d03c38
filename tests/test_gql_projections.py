"""The GQL projection lowering (gqlir/passes/gql_projections.py and its rule modules): the
lowered steps it leaves in the IR, and the text the printer writes from them."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import get_dialect
from gqlir.emitter.gql import emit_gql
from gqlir.errors import UnsupportedError
from gqlir.passes.gql_projections import JSON_MARK, lower_gql_projections
from gqlir.passes.pipeline import lower


def _steps(text: str, target: str, **options: str) -> tuple[ir.Node, ...]:
    query = gqlir.parse(text)
    lowered = lower_gql_projections(query, get_dialect(target), None, options)
    return lowered.steps  # type: ignore[attr-defined,no-any-return]


def test_implicit_grouping_binds_its_keys_with_let_where_gql_groups_by_variables() -> None:
    match, let, grouped = _steps("MATCH (a) RETURN a.city AS city, count(*) AS c", "iso-gql")
    assert isinstance(match, ir.Match)
    assert let == ir.Let((ir.Binding("city", ir.Property(ir.Variable("a"), "city")),))
    assert isinstance(grouped, ir.Projection)
    assert grouped.group_by == (ir.Variable("city"),)
    assert [i.alias for i in grouped.items] == ["city", "c"]
    assert grouped.items[0].expr == ir.Variable("city")
    text = emit_gql(gqlir.parse("MATCH (a) RETURN a.city AS city, count(*) AS c"), "iso-gql")
    assert text == "MATCH (a) LET city = a.city RETURN city, COUNT(*) AS c GROUP BY city"


def test_grouping_keys_are_column_ordinals_where_gql_groups_by_expressions() -> None:
    # TuGraph reads an integer GROUP BY key as an ordinal: every key is written as one
    *_, grouped = _steps("MATCH (a) RETURN count(*) AS c, a.city AS city", "tugraph-gql")
    assert isinstance(grouped, ir.Projection)
    assert grouped.group_by == (ir.Integer(2),)
    text = emit_gql(gqlir.parse("MATCH (a) RETURN count(*) AS c, a.city AS city"), "tugraph-gql")
    assert text.endswith("GROUP BY 2")


def test_a_target_that_groups_implicitly_keeps_the_projection() -> None:
    query = gqlir.parse("MATCH (a) RETURN a.city AS city, count(*) AS c")
    assert lower_gql_projections(query, get_dialect("spanner")) is query


def test_a_key_whose_name_cannot_be_a_variable_is_grouped_in_two_stages() -> None:
    # `a.city` cannot be a variable: the key is computed under a fresh name and renamed after
    steps = _steps("MATCH (a) RETURN a.city, count(*) AS c", "iso-gql")
    first, second = [s for s in steps if isinstance(s, ir.Projection)]
    assert first.group_by is not None and len(first.group_by) == 1
    (key,) = first.group_by
    assert isinstance(key, ir.Variable)
    assert second.items[0] == ir.ReturnItem(key, "a.city")
    assert second.group_by is None


def test_with_where_on_a_dropped_variable_is_a_filter_between_two_projections() -> None:
    steps = _steps("MATCH (a)-->(b) WITH a WHERE b.x > 1 RETURN a.name AS n", "iso-gql")
    kinds = [type(s).__name__ for s in steps]
    assert kinds == ["Match", "Projection", "Filter", "Projection", "Projection"]
    keep = steps[1]
    assert isinstance(keep, ir.Projection)
    assert [i.alias for i in keep.items] == ["a", "b"]  # b kept for the FILTER
    drop = steps[3]
    assert isinstance(drop, ir.Projection) and [i.alias for i in drop.items] == ["a"]


def test_a_refusal_stays_in_the_ir_where_the_query_writes_it() -> None:
    # the first refusal is still the first refused construct in writing order
    text = "MATCH (a)-->(b) WITH DISTINCT a WHERE b.x > 1 RETURN a.name AS n"
    steps = _steps(text, "iso-gql")
    refused = steps[1]
    assert isinstance(refused, ir.Projection)
    (item,) = refused.items
    assert isinstance(item.expr, ir.Untranslatable)
    assert item.expr.construct == "WITH … WHERE on a dropped variable"
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(gqlir.parse(text), "iso-gql")
    assert caught.value.construct == "WITH … WHERE on a dropped variable"
    earlier = "MATCH (a) WHERE a.x =~ $p WITH DISTINCT a WHERE b.x > 1 RETURN a"
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(gqlir.parse(earlier), "tugraph-gql")
    assert caught.value.construct != "WITH … WHERE on a dropped variable"


def test_star_projections_are_let_or_a_standalone_ordering() -> None:
    steps = _steps("MATCH (a) WITH *, a.x AS x RETURN x", "iso-gql")
    assert isinstance(steps[1], ir.Let)
    steps = _steps("MATCH (a) WITH * ORDER BY a.x LIMIT 2 RETURN a.x AS x", "iso-gql")
    page = steps[1]
    assert isinstance(page, ir.Projection) and page.star and not page.items
    assert page.limit == ir.Integer(2)
    text = emit_gql(gqlir.parse("MATCH (a) WITH * ORDER BY a.x LIMIT 2 RETURN a.x AS x"), "iso-gql")
    assert text == "MATCH (a) ORDER BY a.x NULLS LAST LIMIT 2 RETURN a.x AS x"
    # a final RETURN * lists the variables in scope, in name order
    *_, last = _steps("MATCH (b)-->(a) RETURN *", "iso-gql")
    assert isinstance(last, ir.Projection) and not last.star
    assert [i.alias for i in last.items] == ["a", "b"]


def test_graph_elements_in_a_spanner_result_are_refused_or_json_on_request() -> None:
    *_, refused = _steps("MATCH (n) RETURN n, n.name AS name", "spanner")
    assert isinstance(refused, ir.Projection)
    assert isinstance(refused.items[0].expr, ir.Untranslatable)
    assert refused.items[1].expr == ir.Property(ir.Variable("n"), "name")
    *_, wrapped = _steps("MATCH (n) RETURN n", "spanner", spanner_elements="to_json")
    assert isinstance(wrapped, ir.Projection)
    assert wrapped.items[0].expr == ir.FunctionCall(JSON_MARK, (ir.Variable("n"),))
    text = emit_gql(
        gqlir.parse("MATCH (n) RETURN DISTINCT n ORDER BY n.name"),
        "spanner",
        graph="g",
        spanner_elements="to_json",
    )
    assert "SAFE_TO_JSON(n)" in text
    # the sort key is bound before the RETURN, where n is still the node
    assert text.index("LET") < text.index("SAFE_TO_JSON")


def test_an_aggregate_read_by_a_list_walk_is_computed_first() -> None:
    steps = _steps("MATCH (a) RETURN head(collect(a.x)) AS h", "iso-gql")
    first, second = [s for s in steps if isinstance(s, ir.Projection)]
    (hoisted,) = first.items
    assert isinstance(hoisted.expr, ir.Aggregate)
    assert ir.Variable(hoisted.alias) in list(second.items[0].expr.walk())


def test_sort_keys_that_repeat_a_column_are_its_name() -> None:
    *_, last = _steps("MATCH (a) RETURN a.x + 1 AS y ORDER BY a.x + 1", "iso-gql")
    assert isinstance(last, ir.Projection)
    assert last.order_by[0].expr == ir.Variable("y")


def test_the_pass_is_listed_and_explained() -> None:
    changed: list[str] = []
    lower(
        gqlir.parse("MATCH (a) RETURN a.c AS c, count(*) AS n"),
        get_dialect("iso-gql"),
        changed=changed,
    )
    assert changed == ["gql-projections"]
    unchanged: list[str] = []
    query = gqlir.parse("MATCH (a) RETURN a.c AS c")
    assert lower(query, get_dialect("iso-gql"), changed=unchanged) is query
    assert unchanged == []


def test_star_is_the_variables_before_later_passes_name_others() -> None:
    # the property-map pass names the unnamed node afterwards: RETURN * does not return it
    text = emit_gql(gqlir.parse("MATCH (:A {x: 1, y: 2})-->(b) RETURN *"), "tugraph-gql")
    assert text.endswith("RETURN b")
    # and the edges edge uniqueness names on Spanner are not returned either
    text = emit_gql(
        gqlir.parse("MATCH (a)-->(b), (c)-->(d) RETURN *"),
        "spanner",
        graph="g",
        spanner_elements="to_json",
    )
    assert "ALL_DIFFERENT(_g1, _g2)" in text
    assert text.endswith(
        "RETURN SAFE_TO_JSON(a) AS a, SAFE_TO_JSON(b) AS b, "
        "SAFE_TO_JSON(c) AS c, SAFE_TO_JSON(d) AS d"
    )


def test_a_projection_written_as_several_statements_is_refused_on_its_own() -> None:
    from gqlir.emitter import emit

    step = gqlir.parse("MATCH (a) RETURN a.x AS x, count(*) AS c").steps[-1]  # type: ignore[attr-defined]
    with pytest.raises(UnsupportedError) as caught:
        emit(step, "iso-gql")
    assert caught.value.construct == "projection on its own"
    alone = gqlir.parse("MATCH (a) RETURN a.x AS x").steps[-1]  # type: ignore[attr-defined]
    assert emit(alone, "iso-gql") == "RETURN a.x AS x"


def test_a_sort_key_of_mixed_types_is_refused_where_it_is_written() -> None:
    # the FOR variable's type is inferred from its list when the rule asks for it
    text = "UNWIND [1, 'a'] AS x RETURN x ORDER BY x"
    *_, last = _steps(text, "iso-gql")
    assert isinstance(last, ir.Projection)
    (key,) = last.order_by
    assert isinstance(key.expr, ir.Untranslatable)
    assert key.expr.construct == "ordering values of different types"
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(gqlir.parse(text), "iso-gql")
    assert caught.value.construct == "ordering values of different types"
    assert emit_gql(gqlir.parse("UNWIND [1, 2] AS x RETURN x ORDER BY x"), "iso-gql").endswith(
        "ORDER BY x NULLS LAST"
    )


@pytest.mark.parametrize(
    "text",
    [
        "MATCH (a) RETURN a.city, count(*) AS c ORDER BY c",
        "MATCH (a)-->(b) WITH a WHERE b.x > 1 RETURN a.name AS n",
        "MATCH (n) RETURN DISTINCT n ORDER BY n.name",
        "MATCH (a) RETURN head(collect(a.x)) AS h",
    ],
)
def test_the_summary_the_pass_declares_covers_what_its_output_holds(text: str) -> None:
    # later passes are chosen by the declared summary: it may not miss a kind the output has
    from gqlir.passes import pipeline

    for target in ("iso-gql", "spanner", "tugraph-gql"):
        query = gqlir.parse(text)
        lowered = lower_gql_projections(
            query, get_dialect(target), None, {"spanner_elements": "to_json"}
        )
        declared = pipeline.LOWERINGS[
            [x.name for x in pipeline.LOWERINGS].index("gql-projections")
        ].summarizes(pipeline.summarize(query))  # type: ignore[misc]
        real = pipeline.summarize(lowered)
        assert real.kinds <= declared.kinds, target
        assert real.functions <= declared.functions, target
        assert (real.adds, real.adds_numbers) == (declared.adds, declared.adds_numbers)


def test_an_explicit_group_by_expression_is_refused_where_keys_are_variables() -> None:
    key = ir.Property(ir.Variable("n"), "k")
    query = ir.LinearQuery(
        (
            ir.Match((ir.PathPattern(ir.PathChain((ir.NodePattern("n"),))),)),
            ir.Projection((ir.ReturnItem(ir.CountStar(), "c"),), group_by=(key,)),
        )
    )
    iso = lower_gql_projections(query, get_dialect("iso-gql"))
    (refused,) = iso.steps[-1].group_by  # type: ignore[attr-defined]
    assert isinstance(refused, ir.Untranslatable) and refused.expr is key
    assert refused.construct == "GROUP BY expression"
    tugraph = lower_gql_projections(query, get_dialect("tugraph-gql"))
    assert tugraph.steps[-1].group_by == (key,)  # type: ignore[attr-defined]
