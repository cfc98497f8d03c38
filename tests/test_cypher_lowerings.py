"""The Cypher family's lowering passes that hold what the Cypher printer used to decide: each
pass on IR in, IR out (or the refusal it leaves in the IR), and the printer raising that
refusal where it writes it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import gqlir
from gqlir import ir
from gqlir.dialect import Capabilities, Dialect, get_dialect
from gqlir.emitter import emit
from gqlir.errors import UnsupportedError
from gqlir.ir import expr as e
from gqlir.ir import predicates as pr
from gqlir.ir import query as q
from gqlir.passes.aggregate_defaults import lower_aggregate_defaults
from gqlir.passes.case_results import lower_case_results
from gqlir.passes.division import refuse_integer_quotients
from gqlir.passes.element_predicates import lower_element_predicates
from gqlir.passes.implicit_grouping import lower_implicit_grouping
from gqlir.passes.let_bindings import lower_let_bindings
from gqlir.passes.list_positions import lower_list_positions
from gqlir.passes.pipeline import lowerings
from gqlir.passes.removed_properties import lower_removed_properties
from gqlir.passes.self_loops import lower_self_loops
from gqlir.passes.shortest_ends import lower_shortest_ends

KUZU = get_dialect("kuzu")
NEO4J = get_dialect("neo4j")


def dialect(**caps: Any) -> Dialect:
    return Dialect(
        name="test-cypher",
        family="cypher",
        grammar="cypher",
        description="built by the test",
        capabilities=Capabilities(**caps),
    )


def read(text: str) -> Any:
    return gqlir.parse(text, "neo4j")


def refusal(query: Any, target: Dialect) -> UnsupportedError:
    with pytest.raises(UnsupportedError) as refused:
        emit(query, target)
    return refused.value


def returned(query: Any) -> e.Expr:
    """The expression of the first item of the query's last projection."""
    return query.steps[-1].items[0].expr


# -- undirected-self-loops ------------------------------------------------------------------
def test_an_undirected_relationship_that_may_be_a_loop_refuses_its_match() -> None:
    query = read("MATCH (a)-[r]-(b) RETURN a")
    out = lower_self_loops(query, KUZU)
    step = out.steps[0]
    assert isinstance(step, q.RefusedStep) and step.step is query.steps[0]
    assert step.construct == "undirected relationship"
    assert isinstance(step.node, ir.RelPattern) and step.node.variable == "r"
    assert "kuzu matches a self-loop once" in step.message
    error = refusal(query, KUZU)
    assert error.construct == "undirected relationship" and error.offset == step.node.pos


@pytest.mark.parametrize(
    "text",
    [
        "MATCH (a:A)-[r*1..2]-(b:B) RETURN a",  # variable length: may return to a
        "MATCH (a:A)-[r]-(b:A) RETURN a",  # one label: may be one node
        "MATCH (a)-[:T]->(b) WHERE EXISTS { MATCH (a)-[]-(c) } RETURN a",  # in a subquery
        "MATCH (a) CALL (a) { MATCH (a)-[]-(c) RETURN c } RETURN c",  # in a CALL
        "MATCH (a) FOREACH (x IN [1] | SET a.p = COUNT { MATCH (a)--() }) RETURN a",
    ],
)
def test_loops_are_refused_wherever_a_match_may_hold_one(text: str) -> None:
    out = lower_self_loops(read(text), KUZU)
    assert any(isinstance(x, q.RefusedStep) for x in out.walk())


def test_the_chains_of_a_path_are_those_a_walk_finds_where_no_expression_holds_one() -> None:
    """Without subqueries and pattern comprehensions, the pass reads a MATCH's chains from its
    paths' structure: the chains a whole walk finds, in the same order."""
    from gqlir.conformance import tck
    from gqlir.ir.analysis import OPAQUE
    from gqlir.passes.self_loops import _all_chains, _path_chains

    compared = 0
    for text in tck.valid_queries(tck.default_tck_dir()):
        try:
            query = gqlir.parse(text, "neo4j")
        except gqlir.GqlirError:
            continue
        for pattern in query.find_all(ir.PathPattern):
            if any(isinstance(x, OPAQUE) for x in pattern.walk()):
                continue
            compared += 1
            assert list(_path_chains(pattern)) == list(_all_chains(pattern)), text
    assert compared > 1000
    nested = read("MATCH (a)-[r]->(b), p = ((x)-[s]->(y)-[t]-(z)){1,3}(w) RETURN a").steps[0]
    for pattern in nested.patterns:
        assert list(_path_chains(pattern)) == list(_all_chains(pattern))


def test_a_match_the_printer_never_writes_is_left_to_its_refusal() -> None:
    """A MATCH in a FOREACH body: the printer refuses the FOREACH there first."""
    body = read("MATCH (a)-[r]-(b) RETURN a").steps[0]
    query = q.LinearQuery((q.Foreach("x", e.ListLiteral((e.Integer(1),)), (body,)),))
    assert lower_self_loops(query, KUZU) is query


def test_an_undirected_relationship_between_two_labels_is_kept() -> None:
    query = read("MATCH (a:A)-[r]-(b:B) RETURN a")
    assert lower_self_loops(query, KUZU) is query
    assert emit(query, KUZU) == "MATCH (a:A)-[r]-(b:B) RETURN a"


def test_a_target_that_matches_a_loop_once_does_not_run_the_pass() -> None:
    names = {x.name for x in lowerings(NEO4J)}
    assert "undirected-self-loops" not in names
    assert "undirected-self-loops" in {x.name for x in lowerings(KUZU)}


# -- shortest-ends -------------------------------------------------------------------------
def test_a_shortest_search_between_nodes_that_may_be_one_is_marked_refused() -> None:
    query = read("MATCH p = shortestPath((a)-[*1..5]->(b)) RETURN p")
    out = lower_shortest_ends(query, KUZU)
    search = out.steps[0].patterns[0].search
    assert isinstance(search, ir.RefusedSearch)
    assert search.kind is query.steps[0].patterns[0].search.kind
    assert search.construct == "shortest path between nodes that may be one"
    error = refusal(query, KUZU)
    assert error.construct == search.construct
    assert error.offset == query.steps[0].patterns[0].pos


@pytest.mark.parametrize(
    "text",
    [
        "MATCH p = shortestPath((a)-[*1..5]->(b)) RETURN p",  # written shortestPath(...)
        "MATCH p = ANY SHORTEST (a)-[*1..5]->(b) RETURN p",  # written with a search prefix
    ],
)
def test_a_marked_shortest_search_is_refused_in_every_spelling(text: str) -> None:
    """A target whose shortest paths may end where they start, writing them as Neo4j does:
    the pass's mark is raised whichever way the printer would write the search."""
    caps = replace(NEO4J.capabilities, shortest_same_endpoints=False)
    target = replace(NEO4J, name="neo4j-same-ends", capabilities=caps)
    with pytest.raises(UnsupportedError) as refused:
        gqlir.transpile(text, "neo4j", target)  # type: ignore[arg-type]
    assert refused.value.construct == "shortest path between nodes that may be one"


def test_a_shortest_search_between_two_labels_is_kept() -> None:
    query = read("MATCH p = shortestPath((a:A)-[*1..5]->(b:B)) RETURN p")
    assert lower_shortest_ends(query, KUZU) is query
    assert emit(query, KUZU) == "MATCH p = (a:A)-[* SHORTEST 1..5]->(b:B) RETURN p"


def test_the_syntax_the_target_lacks_is_refused_before_the_marked_search() -> None:
    """The printer raises the mark where it writes the search, after the refusals of the
    pattern's syntax (Kuzu's shortest paths need bounds 1..n)."""
    query = read("MATCH p = shortestPath((a)-[*0..5]->(b)) RETURN p")
    assert isinstance(
        lower_shortest_ends(query, KUZU).steps[0].patterns[0].search, ir.RefusedSearch
    )
    error = refusal(query, KUZU)
    assert error.construct == "ANY SHORTEST" and "bounds from 1" in error.message


# -- let-bindings --------------------------------------------------------------------------
def test_a_let_binding_that_reads_an_earlier_one_starts_a_new_let() -> None:
    plus = e.Arithmetic(e.ArithOp.ADD, e.Variable("a"), e.Integer(1))
    let = q.Let(
        (
            q.Binding("a", e.Integer(1)),
            q.Binding("b", plus),
            q.Binding("c", e.Integer(3)),
            q.Binding("d", e.Variable("c")),
        )
    )
    query = q.LinearQuery((let, q.Projection((q.ReturnItem(e.Variable("d"), "d"),))))
    target = get_dialect("opencypher9")
    out = lower_let_bindings(query, target)
    assert [[b.variable for b in x.bindings] for x in out.steps[:-1]] == [["a"], ["b", "c"], ["d"]]
    assert (
        emit(query, target) == "WITH *, 1 AS a WITH *, a + 1 AS b, 3 AS c WITH *, c AS d RETURN d"
    )
    assert "let-bindings" not in {x.name for x in lowerings(NEO4J)}
    assert emit(query, NEO4J) == "LET a = 1, b = a + 1, c = 3, d = c RETURN d"


def test_a_let_whose_bindings_are_independent_is_kept() -> None:
    let = q.Let((q.Binding("a", e.Integer(1)), q.Binding("b", e.Variable("x"))))
    query = q.LinearQuery((let, q.Projection((q.ReturnItem(e.Variable("b"), "b"),))))
    assert lower_let_bindings(query, get_dialect("opencypher9")) is query


# -- case-result-types ----------------------------------------------------------------------
def test_a_case_with_results_of_two_kinds_is_refused_in_place() -> None:
    query = read("UNWIND [1, 2] AS x RETURN CASE WHEN x > 1 THEN 1 ELSE 'a' END AS c")
    out = lower_case_results(query, KUZU)
    refused = returned(out)
    assert isinstance(refused, e.Untranslatable) and refused.expr == returned(query)
    assert refused.construct == "CASE with results of different types"
    assert refusal(query, KUZU).construct == "CASE with results of different types"


@pytest.mark.parametrize(
    "case",
    [
        "CASE WHEN x > 1 THEN 1 ELSE 2 END",
        "CASE WHEN x > 1 THEN 1 END",  # one result and a null
        "CASE WHEN x > 1 THEN toString(x) ELSE 'a' END",
        "CASE WHEN x > 1 THEN CASE WHEN x > 2 THEN 1 ELSE 2 END ELSE 3 END",
    ],
)
def test_a_case_whose_results_have_one_kind_is_kept(case: str) -> None:
    query = read(f"UNWIND [1, 2] AS x RETURN {case} AS c")
    assert lower_case_results(query, KUZU) is query


def test_a_case_inside_a_case_of_other_kinds_refuses_the_outer_one_first() -> None:
    query = read(
        "UNWIND [1, 2] AS x RETURN CASE WHEN x > 1 THEN CASE WHEN x > 2 THEN 1 ELSE 1.5 END "
        "ELSE 'a' END AS c"
    )
    outer = returned(lower_case_results(query, KUZU))
    assert isinstance(outer, e.Untranslatable) and outer.pos == returned(query).pos


# -- aggregate-defaults ---------------------------------------------------------------------
def test_sum_and_collect_of_no_values_are_coalesced_to_cypher_values() -> None:
    query = read("UNWIND [1, 2] AS x RETURN sum(x) AS s, collect(x) AS c, count(x) AS n")
    out = lower_aggregate_defaults(query, KUZU)
    items = [item.expr for item in out.steps[-1].items]
    sums, collects, counts = (item.expr for item in query.steps[-1].items)
    assert items[0] == e.FunctionCall("coalesce", (sums, e.Integer(0)))
    assert items[1] == e.FunctionCall("coalesce", (collects, e.ListLiteral(())))
    assert items[2] is counts
    assert emit(query, KUZU) == (
        "UNWIND [1, 2] AS x RETURN coalesce(sum(x), 0) AS s, coalesce(collect(x), []) AS c, "
        "count(x) AS n"
    )


def test_only_the_aggregate_the_target_gives_null_for_is_coalesced() -> None:
    query = read("UNWIND [1, 2] AS x RETURN sum(x) AS s, collect(x) AS c")
    out = lower_aggregate_defaults(query, dialect(sum_empty_null=True))
    assert isinstance(out.steps[-1].items[0].expr, e.FunctionCall)
    assert out.steps[-1].items[1].expr is query.steps[-1].items[1].expr


# -- list-positions -------------------------------------------------------------------------
def test_a_literal_position_is_counted_from_the_target_base() -> None:
    subject = e.Variable("l")
    query = q.LinearQuery(
        (
            q.Unwind(e.ListLiteral((e.ListLiteral((e.Integer(1),)),)), "l"),
            q.Projection(
                (
                    q.ReturnItem(e.Index(subject, e.Integer(0)), "a"),
                    q.ReturnItem(e.Index(subject, e.Integer(-1)), "b"),
                    q.ReturnItem(e.Index(subject, e.String("k")), "c"),
                )
            ),
        )
    )
    out = lower_list_positions(query, KUZU)
    first, last, key = (item.expr for item in out.steps[-1].items)
    assert first == e.Index(subject, e.Integer(1))
    assert last is query.steps[-1].items[1].expr  # from the end: as every dialect counts
    assert key is query.steps[-1].items[2].expr  # a map key
    # the printer writes the lowered position as it stands
    assert emit(out, dialect()) == "UNWIND [[1]] AS l RETURN l[1] AS a, l[-1] AS b, l['k'] AS c"
    assert "list-positions" in {x.name for x in lowerings(KUZU)}
    assert "list-positions" not in {x.name for x in lowerings(NEO4J)}


def test_a_computed_position_is_refused_where_positions_start_at_one() -> None:
    index = e.Index(e.Variable("l"), e.Variable("i"))
    out = lower_list_positions(index, KUZU)
    assert isinstance(out, e.Untranslatable) and out.construct == "list subscript"
    assert "counts list positions from 1" in out.message


def test_a_bounded_slice_is_refused_where_positions_start_at_one() -> None:
    target = dialect(list_index_base=1)
    bounded = e.Slice(e.Variable("l"), e.Integer(1), None)
    whole = e.Slice(e.Variable("l"), None, None)
    refused = lower_list_positions(bounded, target)
    assert isinstance(refused, e.Untranslatable) and refused.construct == "list slice"
    assert lower_list_positions(whole, target) is whole
    # where the target has no `..` slice, the printer refuses the syntax itself
    assert lower_list_positions(bounded, KUZU) is bounded


# -- removed-properties ---------------------------------------------------------------------
def test_a_remove_of_properties_is_a_set_to_null() -> None:
    query = read("MATCH (n) REMOVE n.a, n.b RETURN n")
    out = lower_removed_properties(query, KUZU)
    step = out.steps[1]
    assert isinstance(step, q.SetClause)
    assert [(x.key, x.value) for x in step.items] == [("a", e.Null()), ("b", e.Null())]
    assert emit(query, KUZU) == "MATCH (n) SET n.a = null, n.b = null RETURN n"


def test_a_remove_of_labels_is_left_for_the_printer_to_refuse() -> None:
    query = read("MATCH (n) REMOVE n.a, n:L RETURN n")
    assert lower_removed_properties(query, KUZU) is query
    assert refusal(query, KUZU).construct == "REMOVE"


# -- integer-quotients ----------------------------------------------------------------------
def test_a_quotient_of_possible_integers_is_refused_where_division_gives_floats() -> None:
    target = dialect(integer_division="float")
    query = read("UNWIND [1, 2] AS x RETURN x / 2 AS h, x / 2.0 AS f")
    out = refuse_integer_quotients(query, target)
    halves, floats = (item.expr for item in out.steps[-1].items)
    assert isinstance(halves, e.Untranslatable) and halves.construct == "integer division"
    assert floats is query.steps[-1].items[1].expr
    assert refusal(query, target).rewrite == "toFloat() on an operand for a float quotient"
    assert "integer-quotients" not in {x.name for x in lowerings(NEO4J)}


# -- implicit-grouping ----------------------------------------------------------------------
def test_a_projection_that_groups_implicitly_is_refused_without_implicit_grouping() -> None:
    target = dialect(implicit_grouping=False)
    query = read("UNWIND [1, 2] AS x RETURN x, count(*) AS n")
    out = lower_implicit_grouping(query, target)
    step = out.steps[-1]
    assert isinstance(step, q.RefusedStep) and step.construct == "implicit grouping"
    assert refusal(query, target).construct == "implicit grouping"
    only = read("UNWIND [1, 2] AS x RETURN count(*) AS n")
    assert lower_implicit_grouping(only, target) is only


# -- element-predicates ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("node", "construct"),
    [
        (pr.Same((e.Variable("a"), e.Property(e.Variable("m"), "n"))), "SAME"),
        (pr.AllDifferent((e.Variable("a"), e.Property(e.Variable("m"), "n"))), "ALL_DIFFERENT"),
        (pr.IsDirected(e.Property(e.Variable("m"), "e")), "IS DIRECTED"),
        (pr.PropertyExists(e.Property(e.Variable("m"), "n"), "k"), "PROPERTY_EXISTS"),
        (
            e.FunctionCall("elements", (e.Property(e.Variable("m"), "p"),)),
            "ELEMENTS() of an expression",
        ),
    ],
)
def test_an_element_predicate_of_an_expression_is_refused_in_place(
    node: Any, construct: str
) -> None:
    out = lower_element_predicates(node, NEO4J)
    assert isinstance(out, e.Untranslatable) and out.construct == construct and out.expr is node
    query = q.LinearQuery((q.Projection((q.ReturnItem(node, "x"),)),))
    assert refusal(query, NEO4J).construct == construct


def test_refusals_from_passes_keep_their_writing_order() -> None:
    """The first refusal is still the first refused construct the query writes: a CASE the
    pass refuses after a loop the pass refuses in an earlier MATCH."""
    query = read(
        "MATCH (a)-[r]-(b) WITH a UNWIND [1] AS x RETURN CASE WHEN x > 1 THEN 1 ELSE 'a' END AS c"
    )
    assert refusal(query, KUZU).construct == "undirected relationship"
    later = replace(query, steps=query.steps[1:])
    assert refusal(later, KUZU).construct == "CASE with results of different types"


# -- the summaries the passes declare -------------------------------------------------------
_OURS = {
    "let-bindings",
    "shortest-ends",
    "undirected-self-loops",
    "case-result-types",
    "aggregate-defaults",
    "list-positions",
    "removed-properties",
    "integer-quotients",
    "implicit-grouping",
}


@pytest.mark.parametrize("target", ["kuzu", "test"])
def test_the_summary_each_pass_declares_covers_what_its_output_holds(target: str) -> None:
    """Later passes are chosen by the summary a pass declares for its output: it may not miss
    what the output holds (over a third of the TCK, written for Kuzu and for a dialect with
    the capabilities no bundled one has)."""
    from gqlir.conformance import tck
    from gqlir.passes.pipeline import summarize

    dialect_ = (
        KUZU
        if target == "kuzu"
        else dialect(integer_division="float", implicit_grouping=False, list_index_base=1)
    )
    chosen = lowerings(dialect_)
    changed = 0
    for text in list(tck.valid_queries(tck.default_tck_dir()))[::3]:
        try:
            node = gqlir.parse(text, "neo4j")
        except gqlir.GqlirError:
            continue
        for lowering in chosen:
            try:
                out = (
                    lowering.run(node, dialect_, None)
                    if lowering.reads_schema
                    else (lowering.run(node, dialect_))
                )
            except UnsupportedError:
                break
            if lowering.name in _OURS and out is not node:
                changed += 1
                assert lowering.summarizes is not None
                declared, real = lowering.summarizes(summarize(node)), summarize(out)
                assert real.kinds <= declared.kinds, (lowering.name, text)
                assert real.functions <= declared.functions, (lowering.name, text)
                assert real.aggregates <= declared.aggregates, (lowering.name, text)
                for flag in ("adds", "adds_numbers", "other_arithmetic", "typed_comparisons"):
                    assert getattr(real, flag) <= getattr(declared, flag), (lowering.name, flag)
            node = out
    assert changed > 5
