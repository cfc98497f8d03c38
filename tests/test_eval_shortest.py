"""Shortest-path searches answered by breadth-first search (gqlir.eval.shortest) agree with
enumerating every path: ALL SHORTEST keeps what SHORTEST 1 GROUP keeps, ANY SHORTEST one path
of the length SHORTEST 1 keeps, on random multigraphs (self-loops, parallel and opposite
relationships) under every path mode, match mode, direction and bound; and the example graphs
answer shortest paths between two people."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from gqlir import ir
from gqlir.engines import open_engine
from gqlir.eval import Graph, evaluate, run
from gqlir.eval import shortest as bfs
from gqlir.schema import load_schema

V = ir.Variable


@st.composite
def multigraphs(draw: st.DrawFn) -> Graph:
    n = draw(st.integers(1, 6))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=8))
    g = Graph()
    nodes = ", ".join(f"(n{i}:N {{i: {i}}})" for i in range(n))
    rels = "".join(f", (n{a})-[:T {{k: {k}}}]->(n{b})" for k, (a, b) in enumerate(edges))
    run(f"CREATE {nodes}{rels}", g)
    return g


def _query(
    search: ir.Search,
    direction: ir.Direction,
    bounds: tuple[int, int | None],
    mode: ir.PathMode | None,
    match_mode: ir.MatchMode,
    ends: tuple[int | None, int | None],
) -> ir.LinearQuery:
    rel = ir.RelPattern(direction, "e", quantifier=ir.Quantifier(*bounds))
    chain = ir.PathChain((ir.NodePattern("a"), rel, ir.NodePattern("b")))
    pattern = ir.PathPattern(chain, "p", mode=mode, search=search)
    conditions = [
        ir.Comparison(ir.CompOp.EQ, ir.Property(V(name), "i"), ir.Integer(value))
        for name, value in zip("ab", ends, strict=True)
        if value is not None
    ]
    where = None
    for c in conditions:
        where = c if where is None else ir.And(where, c)
    keys = ir.ListComprehension(
        "r", ir.FunctionCall("relationships", (V("p"),)), projection=ir.Property(V("r"), "k")
    )
    items = (
        ir.ReturnItem(ir.Property(V("a"), "i"), "a"),
        ir.ReturnItem(ir.Property(V("b"), "i"), "b"),
        ir.ReturnItem(keys, "keys"),
    )
    return ir.LinearQuery(
        (ir.Match((pattern,), where=where, mode=match_mode), ir.Projection(items))
    )


SETTINGS = st.tuples(
    st.sampled_from(list(ir.Direction)[:3]),
    st.sampled_from([(0, 1), (1, 1), (0, 3), (1, 3), (1, None), (0, None)]),
    st.sampled_from([None, ir.PathMode.TRAIL, ir.PathMode.ACYCLIC, ir.PathMode.SIMPLE]),
    st.sampled_from([ir.MatchMode.DIFFERENT_EDGES, ir.MatchMode.REPEATABLE_ELEMENTS]),
    st.tuples(st.none() | st.integers(0, 5), st.none() | st.integers(0, 5)),
)


def _rows(graph: Graph, query: ir.LinearQuery) -> list[tuple[Any, ...]]:
    return evaluate(query, graph).rows


def _enumerable(settings: tuple) -> bool:
    """Whether enumeration, the oracle, finishes: an unbounded walk that may repeat
    relationships is enumerated up to a length that grows with the graph."""
    _, (_, upper), mode, match_mode, _ = settings
    return upper is not None or mode is not None or match_mode is ir.MatchMode.DIFFERENT_EDGES


@given(multigraphs(), SETTINGS)
def test_all_shortest_keeps_what_enumeration_keeps(graph: Graph, settings: tuple) -> None:
    assume(_enumerable(settings))
    all_shortest = _query(ir.Search(ir.SearchKind.ALL_SHORTEST), *settings)
    one_group = _query(ir.Search(ir.SearchKind.SHORTEST_K_GROUPS, 1), *settings)
    assert bfs.applies(all_shortest.steps[0].patterns[0], {})
    assert not bfs.applies(one_group.steps[0].patterns[0], {})
    got = Counter((a, b, tuple(k)) for a, b, k in _rows(graph, all_shortest))
    want = Counter((a, b, tuple(k)) for a, b, k in _rows(graph, one_group))
    assert got == want


@given(multigraphs(), SETTINGS)
def test_any_shortest_keeps_one_shortest_path_per_pair(graph: Graph, settings: tuple) -> None:
    assume(_enumerable(settings))
    got = _rows(graph, _query(ir.Search(ir.SearchKind.ANY_SHORTEST), *settings))
    every = _rows(graph, _query(ir.Search(ir.SearchKind.SHORTEST_K_GROUPS, 1), *settings))
    assert sorted((a, b, len(k)) for a, b, k in got) == sorted(
        {(a, b, len(k)) for a, b, k in every}
    )
    shortest = {(a, b, tuple(k)) for a, b, k in every}
    assert all((a, b, tuple(k)) in shortest for a, b, k in got)


def test_shortest_paths_between_people_of_the_movies_graph() -> None:
    """3.8k relationships: enumerating the walks of ``[*]`` would not finish."""
    with open_engine("reference") as engine:
        engine.load(load_schema("schemas/movies/schema.json"), "schemas/movies/graph")
        ends = "WHERE a.name = 'Jon Jensen 0' AND b.name = 'Pia Costa 1' RETURN length(p) AS hops"
        one = engine.run(f"MATCH p = shortestPath((a:Person)-[*]-(b:Person)) {ends}")
        every = engine.run(f"MATCH p = allShortestPaths((a:Person)-[*]-(b:Person)) {ends}")
    assert one.rows == [(5,)]
    assert every.rows and set(every.rows) == {(5,)}
