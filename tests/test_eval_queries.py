"""The reference evaluator on whole queries: pattern matching (match modes, path modes,
quantifiers, searches, OPTIONAL), projection (grouping, DISTINCT, ORDER BY with explicit null
placement, SKIP/LIMIT), subqueries and composition, writes with the TCK's side-effect counters,
the static checks, procedures and the graph file format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import gqlir
from gqlir import ir
from gqlir.errors import EvaluationError
from gqlir.eval import Graph, Procedure, Result, evaluate, run
from gqlir.eval.check import StaticCheckError


def rows(text: str, graph: Graph | None = None, **params: Any) -> list[tuple[Any, ...]]:
    return run(text, graph if graph is not None else Graph(), params).rows


def triangle() -> Graph:
    """a -> b -> c -> a, plus a self-loop on c; nodes carry i = 0, 1, 2."""
    g = Graph()
    run(
        "CREATE (a:N {i: 0})-[:T {w: 1}]->(b:N {i: 1})-[:T {w: 5}]->(c:N {i: 2})-[:T {w: 1}]->(a)",
        g,
    )
    run("MATCH (c:N {i: 2}) CREATE (c)-[:L]->(c)", g)
    return g


def match(*patterns: ir.PathPattern, mode: ir.MatchMode = ir.MatchMode.DIFFERENT_EDGES) -> ir.Match:
    return ir.Match(patterns, mode=mode)


def node(var: str | None = None, **props: int) -> ir.NodePattern:
    entries = tuple((k, ir.Integer(v)) for k, v in props.items())
    return ir.NodePattern(var, None, ir.MapLiteral(entries) if entries else None)


def ret(*names: str, order: tuple[ir.SortItem, ...] = ()) -> ir.Projection:
    return ir.Projection(tuple(ir.ReturnItem(ir.Variable(n), n) for n in names), order_by=order)


def path_len(var: str) -> ir.ReturnItem:
    return ir.ReturnItem(ir.FunctionCall("length", (ir.Variable(var),)), "len")


# -- matching ----------------------------------------------------------------------------------


def test_relationship_uniqueness_spans_the_whole_match() -> None:
    g = Graph()
    run("CREATE (a)-[:R]->(b)", g)
    assert rows("MATCH (a)-[r1]-(b), (c)-[r2]-(d) RETURN count(*)", g) == [(0,)]
    assert rows("MATCH (a)-[r1]-(b) MATCH (c)-[r2]-(d) RETURN count(*)", g) == [(4,)]
    assert rows("MATCH REPEATABLE ELEMENTS (a)-[r1]-(b), (c)-[r2]-(d) RETURN count(*)", g) == [(4,)]


def test_undirected_patterns_match_a_self_loop_once() -> None:
    g = triangle()
    assert rows("MATCH (c {i: 2})-[r:L]-(x) RETURN count(*)", g) == [(1,)]
    assert rows("MATCH ()-[r]-() RETURN count(*)", g) == [(7,)]


def test_variable_length_binds_a_list_and_respects_bounds() -> None:
    g = triangle()
    got = rows("MATCH (a {i: 0})-[r:T*1..3]->(b) RETURN b.i, size(r) ORDER BY size(r)", g)
    assert got == [(1, 1), (2, 2), (0, 3)]
    assert rows("MATCH (a {i: 0})-[r:T*0..0]->(b) RETURN b.i, r", g) == [(0, [])]
    assert rows("MATCH (a {i: 0})-[:T*]->(b {i: 0}) RETURN count(*)", g) == [(1,)]
    assert rows("MATCH (a {i: 0})-[*]->(b {i: 0}) RETURN count(*)", g) == [(2,)]  # via the loop


def test_optional_match_binds_null_for_new_variables_only() -> None:
    g = triangle()
    got = rows("MATCH (a {i: 0}) OPTIONAL MATCH (a)-[r:NONE]->(b) RETURN a.i, r, b", g)
    assert got == [(0, None, None)]
    got = rows("MATCH (a {i: 0}) OPTIONAL MATCH (a)-->(b) WHERE b.i > 5 RETURN b", g)
    assert got == [(None,)]


def test_quantified_path_binds_group_variables() -> None:
    got = rows(
        "MATCH (a {i: 0}) ((x)-[e:T]->(y)){2} (b) RETURN [n IN x | n.i], [n IN y | n.i], b.i",
        triangle(),
    )
    assert got == [([0, 1], [1, 2], 2)]


def test_unbounded_walks_need_something_that_bounds_them() -> None:
    rel = ir.RelPattern(ir.Direction.OUT, "r", ir.Label("T"), quantifier=ir.Quantifier(1, None))
    quantified = ir.PathPattern(ir.PathChain((node("a", i=0), rel, node("b"))))
    walk = ir.LinearQuery((match(quantified, mode=ir.MatchMode.REPEATABLE_ELEMENTS), ret("b")))
    with pytest.raises(EvaluationError) as info:
        evaluate(walk, triangle())
    assert info.value.detail == "UnboundedWalk"
    trail = ir.PathPattern(quantified.path, "p", mode=ir.PathMode.TRAIL)
    query = ir.LinearQuery(
        (match(trail, mode=ir.MatchMode.REPEATABLE_ELEMENTS), ir.Projection((path_len("p"),)))
    )
    assert sorted(r[0] for r in evaluate(query, triangle()).rows) == [1, 2, 3]


@pytest.mark.parametrize(
    "mode, lengths",
    [
        (ir.PathMode.WALK, [1, 2, 3, 4, 5, 6]),
        (ir.PathMode.TRAIL, [1, 2, 3]),
        (ir.PathMode.ACYCLIC, [1, 2]),
        (ir.PathMode.SIMPLE, [1, 2, 3]),
    ],
)
def test_path_modes(mode: ir.PathMode, lengths: list[int]) -> None:
    rel = ir.RelPattern(ir.Direction.OUT, types=ir.Label("T"), quantifier=ir.Quantifier(1, 6))
    pattern = ir.PathPattern(ir.PathChain((node("a", i=0), rel, node("b"))), "p", mode=mode)
    query = ir.LinearQuery(
        (match(pattern, mode=ir.MatchMode.REPEATABLE_ELEMENTS), ir.Projection((path_len("p"),)))
    )
    assert sorted(r[0] for r in evaluate(query, triangle()).rows) == lengths


@pytest.mark.parametrize(
    "search, want",
    [
        (ir.Search(ir.SearchKind.ANY_SHORTEST), [(2, 2)]),
        (ir.Search(ir.SearchKind.ALL_SHORTEST), [(2, 2)]),
        (ir.Search(ir.SearchKind.SHORTEST_K, 2), [(2, 2), (2, 5)]),  # once more round
        (ir.Search(ir.SearchKind.SHORTEST_K_GROUPS, 2), [(2, 2), (2, 5)]),
        (ir.Search(ir.SearchKind.ANY_CHEAPEST), [(2, 2)]),
    ],
)
def test_searches_select_per_partition(search: ir.Search, want: list[tuple[int, int]]) -> None:
    weight = ir.Property(ir.Variable("e"), "w")
    rel = ir.RelPattern(
        ir.Direction.OUT, "e", ir.Label("T"), quantifier=ir.Quantifier(1, None), cost=weight
    )
    pattern = ir.PathPattern(
        ir.PathChain((node("a", i=0), rel, node("b", i=2))), "p", search=search
    )
    items = (ir.ReturnItem(ir.Property(ir.Variable("b"), "i"), "b"), path_len("p"))
    query = ir.LinearQuery(
        (match(pattern, mode=ir.MatchMode.REPEATABLE_ELEMENTS), ir.Projection(items))
    )
    assert sorted(evaluate(query, triangle()).rows) == want


def test_shortest_path_functions() -> None:
    g = triangle()
    assert rows("MATCH p = shortestPath((a {i: 0})-[*]-(b {i: 2})) RETURN length(p)", g) == [(1,)]
    got = rows("MATCH p = allShortestPaths((a {i: 0})-[:T*]->(b {i: 2})) RETURN length(p)", g)
    assert got == [(2,)]


def test_path_values_and_functions() -> None:
    got = rows(
        "MATCH p = (a {i: 0})-[:T]->(b)<-[:T]-(c) RETURN length(p), [n IN nodes(p) | n.i]",
        triangle(),
    )
    assert got == []
    got = rows(
        "MATCH p = (a {i: 1})<-[:T]-(b) RETURN [n IN nodes(p) | n.i], type(relationships(p)[0])",
        triangle(),
    )
    assert got == [([1, 0], "T")]


def test_label_expressions() -> None:
    g = Graph()
    run("CREATE (:A), (:B), (:A:B), ()", g)
    assert rows("MATCH (n:A&B) RETURN count(*)", g) == [(1,)]
    assert rows("MATCH (n:A|B) RETURN count(*)", g) == [(3,)]
    assert rows("MATCH (n:!A) RETURN count(*)", g) == [(2,)]
    assert rows("MATCH (n:%) RETURN count(*)", g) == [(3,)]
    assert rows("MATCH (n) WHERE n:A:B RETURN count(*)", g) == [(1,)]


# -- projection --------------------------------------------------------------------------------


def test_implicit_grouping_and_aggregates() -> None:
    got = rows("UNWIND [1, 1, 2, null] AS x RETURN x, count(*) AS c ORDER BY x")
    assert got == [(1, 2), (2, 1), (None, 1)]
    got = rows(
        "UNWIND [1, 2, null, 2] AS x RETURN count(x), count(DISTINCT x), collect(x), sum(x), avg(x)"
    )
    assert got == [(3, 2, [1, 2, 2], 5, 5 / 3)]
    assert rows("UNWIND [] AS x RETURN count(*), sum(x), avg(x), collect(x), max(x)") == [
        (0, 0, None, [], None)
    ]
    assert rows("UNWIND [] AS x RETURN x, count(*)") == []
    got = rows("UNWIND [3, 1, 'a', [1]] AS x RETURN min(x), max(x)")
    assert got == [([1], 3)]
    got = rows("UNWIND [10, 20, 30, 40] AS x RETURN percentileDisc(x, 0.4), percentileCont(x, 0.4)")
    assert got == [(20, 22.0)]
    with pytest.raises(EvaluationError):
        rows("UNWIND [1] AS x RETURN percentileCont(x, 1.5)")


def test_aggregation_with_expressions_of_grouping_keys() -> None:
    got = rows("UNWIND [1, 1, 2] AS x RETURN x, x * 10 + count(*) AS y ORDER BY x")
    assert got == [(1, 12), (2, 21)]


def test_distinct_uses_equivalence() -> None:
    got = rows(
        "UNWIND [1, 1.0, null, null, 0.0 / 0.0, 0.0 / 0.0, [1], [1.0]] AS x RETURN DISTINCT x"
    )
    assert len(got) == 4


@pytest.mark.parametrize(
    "descending, nulls_first, want",
    [
        (False, False, [1, 2, None]),
        (False, True, [None, 1, 2]),
        (True, False, [2, 1, None]),
        (True, True, [None, 2, 1]),
    ],
)
def test_null_placement_comes_from_the_ir(
    descending: bool, nulls_first: bool, want: list[Any]
) -> None:
    unwind = ir.Unwind(ir.ListLiteral((ir.Integer(2), ir.Null(), ir.Integer(1))), "x")
    order = (ir.SortItem(ir.Variable("x"), descending, nulls_first),)
    result = evaluate(ir.LinearQuery((unwind, ret("x", order=order))))
    assert result.ordered
    assert [r[0] for r in result.rows] == want


def test_cypher_null_ordering_defaults() -> None:
    assert rows("UNWIND [2, null, 1] AS x RETURN x ORDER BY x") == [(1,), (2,), (None,)]
    assert rows("UNWIND [2, null, 1] AS x RETURN x ORDER BY x DESC") == [(None,), (2,), (1,)]


def test_order_by_reads_aliases_and_incoming_variables() -> None:
    got = rows("UNWIND [[1, 'b'], [2, 'a']] AS p WITH p[0] AS n, p RETURN n ORDER BY p[1]")
    assert got == [(2,), (1,)]
    got = rows("UNWIND [3, 1, 2] AS x RETURN x AS y ORDER BY y DESC SKIP 1 LIMIT 1")
    assert got == [(2,)]


def test_skip_and_limit_arguments() -> None:
    assert rows("UNWIND [1, 2, 3] AS x RETURN x SKIP $s LIMIT $l", s=1, l=1) == [(2,)]
    with pytest.raises(EvaluationError) as info:
        rows("UNWIND [1] AS x RETURN x LIMIT $l", l=-1)
    assert (info.value.category, info.value.detail) == ("SyntaxError", "NegativeIntegerArgument")
    with pytest.raises(EvaluationError) as info:
        rows("UNWIND [1] AS x RETURN x SKIP $s", s=1.5)
    assert info.value.detail == "InvalidArgumentType"


def test_explicit_group_by() -> None:
    unwind = ir.Unwind(ir.ListLiteral(tuple(ir.Integer(i) for i in (1, 2, 3, 4))), "x")
    parity = ir.Arithmetic(ir.ArithOp.MOD, ir.Variable("x"), ir.Integer(2))
    let = ir.Let((ir.Binding("k", parity),))
    projection = ir.Projection(
        (ir.ReturnItem(ir.Aggregate("sum", (ir.Variable("x"),)), "s"),),
        group_by=(ir.Variable("k"),),
    )
    got = evaluate(ir.LinearQuery((unwind, let, projection))).rows
    assert sorted(got) == [(4,), (6,)]


# -- subqueries and composition ----------------------------------------------------------------


def test_subqueries() -> None:
    g = triangle()
    assert rows("MATCH (n:N) WHERE EXISTS { (n)-[:L]->() } RETURN n.i", g) == [(2,)]
    assert rows("MATCH (n:N {i: 2}) RETURN COUNT { (n)-->() } AS c", g) == [(2,)]
    got = rows(
        "MATCH (n:N) CALL (n) { MATCH (n)-[:T]->(m) RETURN m.i AS mi } RETURN n.i, mi ORDER BY n.i",
        g,
    )
    assert got == [(0, 1), (1, 2), (2, 0)]
    got = rows(
        "MATCH (n:N) OPTIONAL CALL (n) { MATCH (n)-[:L]->(m) RETURN m } "
        "RETURN n.i, m.i ORDER BY n.i",
        g,
    )
    assert got == [(0, None), (1, None), (2, 2)]
    got = rows("MATCH (n:N {i: 0}) RETURN [(n)-[:T]->(m) | m.i] AS l", g)
    assert got == [([1],)]


def test_union_and_set_operations() -> None:
    assert sorted(rows("UNWIND [1, 1, 2] AS x RETURN x UNION UNWIND [2, 3] AS x RETURN x")) == [
        (1,),
        (2,),
        (3,),
    ]
    assert len(rows("RETURN 1 AS x UNION ALL RETURN 1 AS x")) == 2
    left = ir.LinearQuery(
        (ir.Unwind(ir.ListLiteral((ir.Integer(1), ir.Integer(2), ir.Integer(2))), "x"), ret("x"))
    )
    right = ir.LinearQuery((ir.Unwind(ir.ListLiteral((ir.Integer(2),)), "x"), ret("x")))
    assert evaluate(ir.SetOperation(ir.SetOp.INTERSECT, left, right)).rows == [(2,)]
    assert evaluate(ir.SetOperation(ir.SetOp.INTERSECT, left, right, all=True)).rows == [(2,)]
    assert evaluate(ir.SetOperation(ir.SetOp.EXCEPT, left, right)).rows == [(1,)]
    assert evaluate(ir.SetOperation(ir.SetOp.EXCEPT, left, right, all=True)).rows == [(1,), (2,)]
    empty = ir.LinearQuery((ir.Unwind(ir.ListLiteral(()), "x"), ret("x")))
    assert evaluate(ir.SetOperation(ir.SetOp.OTHERWISE, empty, right)).rows == [(2,)]


# -- writes ------------------------------------------------------------------------------------


def effects(text: str, graph: Graph) -> dict[str, int]:
    return run(text, graph).side_effects


def test_side_effects_are_counted_as_the_tck_counts_them() -> None:
    g = Graph()
    assert effects("CREATE (:A:B {x: 1}), (:A)", g) == {"+nodes": 2, "+labels": 2, "+properties": 1}
    assert effects("MATCH (n:B) SET n.x = 2", g) == {"+properties": 1, "-properties": 1}
    assert effects("MATCH (n:B) SET n.x = 2", g) == {}
    assert effects("MATCH (n:B) SET n.x = null", g) == {"-properties": 1}
    assert effects("MATCH (n:B) SET n += {y: 1, z: 2}", g) == {"+properties": 2}
    assert effects("MATCH (n:B) SET n = {y: 1}", g) == {"-properties": 1}
    assert effects("MATCH (n:A) REMOVE n:B", g) == {"-labels": 1}
    assert effects("MATCH (n:A) SET n:C", g) == {"+labels": 1}
    assert effects("MATCH (n:A) DELETE n", g) == {"-nodes": 2, "-labels": 2, "-properties": 1}


def test_delete_of_a_connected_node_needs_detach() -> None:
    g = triangle()
    with pytest.raises(EvaluationError) as info:
        run("MATCH (n {i: 0}) DELETE n", g)
    assert info.value.category == "ConstraintVerificationFailed"
    assert run("MATCH (n {i: 0})-[r]-() DELETE n, r", g).side_effects["-nodes"] == 1
    assert effects("MATCH (n {i: 2}) DETACH DELETE n", g) == {
        "-nodes": 1,
        "-relationships": 2,  # b -> c and the loop
        "-properties": 2,  # c.i and (b -> c).w
    }


def test_merge_matches_the_whole_pattern_or_creates_all_of_it() -> None:
    g = Graph()
    run("CREATE (:P {n: 1})", g)
    result = run("MATCH (p:P) MERGE (p)-[:R]->(q:Q {n: 2}) RETURN q.n", g)
    assert result.side_effects == {"+nodes": 1, "+relationships": 1, "+labels": 1, "+properties": 1}
    assert run("MATCH (p:P) MERGE (p)-[:R]->(q:Q {n: 2}) RETURN q.n", g).side_effects == {}
    got = run(
        "UNWIND [1, 1, 2] AS i MERGE (m:M {i: i}) "
        "ON CREATE SET m.new = true ON MATCH SET m.seen = true RETURN m.i, m.new, m.seen",
        g,
    )
    # each clause runs over all rows before the next: RETURN sees the ON MATCH of row 2 in row 1
    assert got.rows == [(1, True, True), (1, True, True), (2, True, None)]
    with pytest.raises(EvaluationError):
        run("MERGE (m:M {i: null})", g)


def test_created_values_must_be_property_values() -> None:
    with pytest.raises(EvaluationError) as info:
        run("CREATE (n {m: {a: 1}})", Graph())
    assert info.value.detail == "InvalidPropertyType"
    with pytest.raises(EvaluationError):
        run("CREATE (n {l: [1, 'a']})", Graph())
    assert run("CREATE (n {l: [1, 2.5], d: date('2020-01-01')}) RETURN n.l", Graph()).rows == [
        ([1, 2.5],)
    ]


def test_foreach_and_writes_seen_by_later_clauses() -> None:
    g = Graph()
    run("FOREACH (i IN range(1, 3) | CREATE (:F {i: i}))", g)
    assert rows("MATCH (f:F) RETURN sum(f.i)", g) == [(6,)]
    got = rows("MATCH (f:F {i: 1}) SET f.i = 10 WITH f MATCH (g:F) RETURN sum(g.i)", g)
    assert got == [(15,)]


# -- static checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, detail",
    [
        ("MATCH (n) RETURN m", "UndefinedVariable"),
        ("MATCH (a)-[r]->(b) MATCH (r) RETURN r", "VariableTypeConflict"),
        ("MATCH (a)-[r]->()-[r]->(b) RETURN r", "RelationshipUniquenessViolation"),
        ("MATCH (a) CREATE (a {x: 1})", "VariableAlreadyBound"),
        ("MATCH p = (a)-->(b), p = (c)-->(d) RETURN p", "VariableAlreadyBound"),
        ("CREATE (a)-[:R|S]->(b)", "NoSingleRelationshipType"),
        ("CREATE (a)-[:R]-(b)", "RequiresDirectedRelationship"),
        ("RETURN 1 AS a, 2 AS a", "ColumnNameConflict"),
        ("RETURN count(count(*))", "NestedAggregation"),
        ("MATCH (n) WHERE count(n) > 1 RETURN n", "InvalidAggregation"),
        ("MATCH (n) RETURN n.x ORDER BY max(n.y)", "InvalidAggregation"),
        ("MATCH (a)--(b) RETURN a.x + count(b)", "AmbiguousAggregationExpression"),
        ("MATCH (a) RETURN DISTINCT a.x ORDER BY a.y", "UndefinedVariable"),
        ("RETURN 1 AND true", "InvalidArgumentType"),
        ("RETURN 1 IN 2", "InvalidArgumentType"),
        ("MATCH (n) RETURN n LIMIT n.x", "NonConstantExpression"),
        ("RETURN 1 AS a UNION RETURN 2 AS b", "DifferentColumnsInUnion"),
    ],
)
def test_static_checks(query: str, detail: str) -> None:
    statement = gqlir.parse(query, "neo4j")
    with pytest.raises(StaticCheckError) as info:
        evaluate(statement, Graph())
    assert info.value.detail == detail


def test_static_checks_accept_valid_scoping() -> None:
    for query in (
        "MATCH (a) WITH a.x AS x, count(*) AS c RETURN x, x + c",
        "MATCH (a) RETURN a.x, a.x + count(*) ORDER BY a.x",
        "UNWIND [1] AS x RETURN [y IN collect(x) WHERE y > 0] AS l",
        "MATCH (a) WITH a ORDER BY a.x RETURN a",
        "MATCH (a)-[r]->(b) MATCH (a)-[r]->(c) RETURN c",
    ):
        result = evaluate(gqlir.parse(query, "neo4j"), Graph())  # raises if a check refuses
        assert result.columns


# -- procedures, API and graph files -----------------------------------------------------------


def test_procedures() -> None:
    double = Procedure("my.double", ("x",), ("y",), lambda args: [[args[0] * 2]])
    assert run("CALL my.double(21)", Graph(), procedures={"my.double": double}).rows == [(42,)]
    got = run(
        "UNWIND [1, 2] AS i CALL my.double(i) YIELD y AS z RETURN z",
        Graph(),
        procedures={"my.double": double},
    )
    assert got.rows == [(2,), (4,)]
    assert run("CALL my.double", Graph(), {"x": 5}, procedures={"my.double": double}).rows == [
        (10,)
    ]
    with pytest.raises(EvaluationError) as info:
        run("CALL no.such()", Graph())
    assert info.value.category == "ProcedureError"


def test_rand_and_clock_are_reproducible() -> None:
    first = run("UNWIND range(1, 3) AS i RETURN rand() AS r", Graph(), seed=7).rows
    assert first == run("UNWIND range(1, 3) AS i RETURN rand() AS r", Graph(), seed=7).rows
    import datetime

    clock = datetime.datetime(2021, 6, 1, 12, 0, tzinfo=datetime.UTC)
    got = run("RETURN date() AS d, timestamp() AS t", Graph(), clock=clock).rows[0]
    assert (str(got[0]), got[1]) == ("2021-06-01", 1622548800000)


def test_graph_file_round_trip(tmp_path: Path) -> None:
    data = {
        "nodes": [
            {"id": "a", "labels": ["P"], "properties": {"name": "Ann"}},
            {"id": "b", "labels": ["P"], "properties": {"name": "Bob"}},
        ],
        "edges": [{"id": "e", "type": "KNOWS", "source": "a", "target": "b", "properties": {}}],
    }
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    g = Graph.load(path)
    assert rows("MATCH (a)-[:KNOWS]->(b) RETURN a.name, b.name", g) == [("Ann", "Bob")]
    run("MATCH (b {name: 'Bob'}) SET b.since = date('2020-01-02')", g)
    g.save(tmp_path / "out.json")
    again = Graph.load(tmp_path / "out.json")
    assert rows("MATCH (b {name: 'Bob'}) RETURN b.since", again) == [("2020-01-02",)]
    with pytest.raises(ValueError):
        Graph.from_data({"nodes": [], "edges": [{"type": "R", "source": 1, "target": 2}]})
    directory = tmp_path / "graph"  # the JSON-lines layout of docs/graph-format.md
    directory.mkdir()
    (directory / "nodes.jsonl").write_text(
        "\n".join(json.dumps(n) for n in data["nodes"]) + "\n", encoding="utf-8"
    )
    (directory / "edges.jsonl").write_text(json.dumps(data["edges"][0]) + "\n", encoding="utf-8")
    assert rows("MATCH (a)-[:KNOWS]->(b) RETURN a.name, b.name", Graph.load(directory)) == [
        ("Ann", "Bob")
    ]


def test_results_compare_as_bags_or_lists() -> None:
    a = Result(["x"], [(1,), (2,)], ordered=True)
    b = Result(["x"], [(2,), (1.0,)], ordered=True)
    assert not a.same_as(b)
    assert a.same_as(Result(["x"], [(2,), (1.0,)]))
    assert not a.same_as(Result(["y"], [(1,), (2,)]))


def test_unmodelled_constructs_are_reported_not_skipped() -> None:
    with pytest.raises(EvaluationError) as info:
        run("LOAD CSV FROM 'file:///x.csv' AS line RETURN line", Graph())
    assert info.value.category == "Unsupported"
    with pytest.raises(EvaluationError) as info:
        run("RETURN apoc.text.join(['a'], ',') AS x", Graph())
    assert info.value.category == "Unsupported"


def test_gql_requests_with_sessions_and_transactions() -> None:
    g = Graph()
    rolled_back = "START TRANSACTION INSERT (:T {n: 1}) ROLLBACK"
    assert run(rolled_back, g, dialect="iso-gql").side_effects == {}
    assert rows("MATCH (t:T) RETURN count(t)", g) == [(0,)]
    committed = "START TRANSACTION INSERT (:T {n: 1}) COMMIT"
    assert run(committed, g, dialect="iso-gql").side_effects["+nodes"] == 1
    with pytest.raises(EvaluationError) as info:
        run("START TRANSACTION READ ONLY INSERT (:T) COMMIT", g, dialect="iso-gql")
    assert info.value.category == "TransactionError"
    query = gqlir.parse("MATCH (t:T) RETURN t.n + $x AS v", "iso-gql")
    session = ir.Program((ir.SessionSetParameter("x", ir.Integer(41)), query))
    assert evaluate(session, g).rows == [(42,)]


def test_conditions_that_cannot_fail_are_tried_between_comma_patterns() -> None:
    """A condition on the first pattern's variables prunes before the product with the next
    pattern; the rows are those of the staged form, and a condition that may fail still
    waits for whole rows."""
    from gqlir.eval.patterns import _early_conditions

    g = Graph()
    run("UNWIND range(1, 30) AS i CREATE (:A {k: i}), (:B {k: i})", g)
    pinned = "MATCH (a:A), (b:B) WHERE a.k = 3 AND b.k > a.k RETURN count(*) AS c"
    staged = "MATCH (a:A) WHERE a.k = 3 MATCH (b:B) WHERE b.k > a.k RETURN count(*) AS c"
    assert run(pinned, g).rows == run(staged, g).rows == [(27,)]
    query = gqlir.parse(pinned)
    step = query.steps[0]
    early = _early_conditions(step.patterns, step.where)
    assert early == {
        0: [ir.Comparison(ir.CompOp.EQ, ir.Property(ir.Variable("a"), "k"), ir.Integer(3))]
    }
    arithmetic = gqlir.parse("MATCH (a:A), (b:B) WHERE a.k * 2 = 6 RETURN a")
    assert _early_conditions(arithmetic.steps[0].patterns, arithmetic.steps[0].where) == {}


def test_cypher_whitespace_is_javas() -> None:
    """trim() and toBoolean() strip what Java's Character.isWhitespace accepts (Neo4j runs on
    it): space, line and paragraph separators but not the no-break spaces, and TAB..CR, FS..US."""
    import unicodedata

    from gqlir.eval import run
    from gqlir.ir.functions import WHITESPACE

    java = {
        c
        for c in map(chr, range(0x110000))
        if c in "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
        or (unicodedata.category(c) in ("Zs", "Zl", "Zp") and c not in "\xa0\u2007\u202f")
    }
    assert set(WHITESPACE) == java and len(WHITESPACE) == len(java)
    rows = run(
        "RETURN trim($s) AS t, toBoolean($b) AS b", None, {"s": "\u3000x\xa0", "b": "\ttrue\u2028"}
    ).rows
    assert rows == [("x\xa0", True)]
