"""Cypher MERGE in GQL (the lowering pass gqlir/passes/merge.py): each translation runs on the reference
evaluator under GQL semantics and must leave the same graph, rows and side effects as the
Cypher query, on graphs where the pattern matches nothing, once, or several times."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import gqlir
from gqlir.errors import UnsupportedError
from gqlir.eval import Graph, run

ISO = "iso-gql"

GRAPHS = {
    "empty": "",
    "one": "CREATE (:A {name: 'A'}), (:B {name: 'B'}), (:TheLabel {num: 1})",
    "linked": "CREATE (a:A {name: 'A'})-[:KNOWS {w: 1}]->(b:B {name: 'B'}), (:TheLabel), "
    "(a)-[:TYPE]->(b), (a)-[:TYPE]->(b)",
    "many": "CREATE (:A {name: 'A'}), (:A {name: 'A2'}), (:B {name: 'B'}), (:B:A {name: 'AB'}), "
    "(:TheLabel {num: 7}), (:TheLabel), (:X {x: 1}), (:L {name: 'a'}), ({id: 2}), (:A {num: 42})",
}

MERGES = [
    "MERGE (b) ON CREATE SET b.created = 1",
    "MERGE (a:TheLabel) ON CREATE SET a.num = 42 RETURN a.num",
    "MERGE (a) ON MATCH SET a:L",
    "MERGE (a:TheLabel) ON MATCH SET a.num = 42 RETURN a.num",
    "MERGE (a:TheLabel) ON CREATE SET a:New ON MATCH SET a.num = coalesce(a.num, 0) + 1 "
    "RETURN a.num AS n",
    "MERGE (x:X {x: 1})-[r:T {w: 2}]->(y:Y) RETURN x.x, r.w, y:Y AS l",
    "MERGE (x:X {x: 1})-[r:T]-(y:Y) RETURN count(*) AS c",
    "MERGE (x:X {x: 1})-[:LOOP]->(x) RETURN x.x AS x",
    "CREATE (a:A), (b:B) MERGE (a)-[:KNOWS]->(b) CREATE (b)-[:KNOWS]->(c:C) RETURN count(*)",
    "MATCH (a:A) WITH count(a) AS n MERGE (c:Count {n: 1}) ON CREATE SET c.total = n "
    "RETURN c.total AS t",
    "MATCH (a:A), (b:B) MERGE (a)-[:KNOWS]->(b) ON MATCH SET b.created = 1",
    "MATCH (a:A), (b:B) MERGE (a)-[r:KNOWS]->(b) ON MATCH SET r.created = 1 RETURN count(r)",
    "MATCH (a:A), (b:B) MERGE (a)-[r:TYPE]->(b) ON CREATE SET r.name = 'Lola' "
    "ON MATCH SET r.name = 'RUN' RETURN count(r) AS c",
    "MATCH (a:A), (b:B) MERGE (a)<-[r:TYPE]-(b) ON CREATE SET r += {name: 'x', n: 2} "
    "RETURN a.name, b.name, r.name",
    "MATCH (a {name: 'A'}), (b {name: 'B'}) MERGE (a)-[r:TYPE]->(b) "
    "ON MATCH SET r += {name: 'baz', name2: 'baz'}",
    "UNWIND [1, 2, 3, 4] AS int MERGE (n {id: int}) RETURN count(*)",
    "UNWIND ['a', 'b'] AS k MERGE (n:L {name: k}) ON CREATE SET n:New, n.x = 1 "
    "ON MATCH SET n.y = 2 RETURN n.name, n.x, n.y",
    "UNWIND [42] AS props WITH props WHERE props > 32 WITH DISTINCT props AS p "
    "MERGE (a:A {num: p}) RETURN a.num AS prop",
]


def _state(graph: Graph) -> Counter:
    """The graph as a multiset of nodes and relationships by content (ids may differ)."""
    nodes = {
        n.id: (tuple(sorted(n.labels)), tuple(sorted(n.properties.items())))
        for n in graph.all_nodes()
    }
    return Counter(
        [("n", *v) for v in nodes.values()]
        + [
            ("r", r.type, nodes[r.start], nodes[r.end], tuple(sorted(r.properties.items())))
            for r in graph.all_relationships()
        ]
    )


def _outcome(text: str, setup: str, dialect: str) -> tuple[Any, ...]:
    graph = Graph()
    if setup:
        run(setup, graph)
    result = run(text, graph, dialect=dialect)
    return Counter(map(repr, result.rows)), result.side_effects, _state(graph)


@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("query", MERGES)
def test_merge_translations_change_the_graph_as_cypher_does(query: str, graph: str) -> None:
    text = gqlir.transpile(query, "neo4j", ISO)
    assert "MERGE" not in text and "OPTIONAL CALL" in text, text
    assert gqlir.validate(text, ISO).valid
    assert _outcome(text, GRAPHS[graph], ISO) == _outcome(query, GRAPHS[graph], "neo4j"), text


def test_merge_helpers_do_not_reach_a_star_projection() -> None:
    text = gqlir.transpile("MERGE (a:TheLabel) WITH * RETURN *", "neo4j", ISO)
    assert text.endswith("RETURN a"), text


def test_merge_is_lowered_before_printing() -> None:
    from gqlir import ir
    from gqlir.dialect import get_dialect
    from gqlir.passes.pipeline import lower

    changed: list[str] = []
    query = gqlir.parse("MATCH (a:A), (b:B) MERGE (a)-[r:T]->(b) RETURN r", "neo4j")
    steps = lower(query, get_dialect(ISO), changed=changed).steps  # type: ignore[attr-defined]
    assert changed == ["merge"]
    kinds = [type(s).__name__ for s in steps]
    assert kinds == [
        "Match", "Match", "CallSubquery", "Unwind", "Filter", "ScopeNote", "Projection"
    ]  # fmt: skip
    assert steps[1].optional and steps[5] == ir.ScopeNote(("_c", "_m"), (("r", "edge"),))
    # a refusal is left in the query where the MERGE stood, and raised when it is written
    query = gqlir.parse("MATCH (p:Person) MERGE (c:City) RETURN p", "neo4j")
    refused = lower(query, get_dialect(ISO)).steps[1]  # type: ignore[attr-defined]
    assert isinstance(refused, ir.RefusedStep) and refused.step is query.steps[1]  # type: ignore[attr-defined]
    assert "several rows" in refused.message


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        # a later row's match would see an earlier row's creation
        ("MATCH (p:Person) MERGE (c:City) RETURN p", "several rows"),
        ("UNWIND $rows AS r MERGE (n:P {id: 1})", "several rows"),
        ("MATCH (a:A), (b:B), (c) MERGE (a)-[:T]->(b)", "several rows"),
        ("MATCH (a:A)-->(), (b:B) MERGE (a)-[:T]->(b)", "several rows"),
        ("MATCH (a:A), (b:B) MERGE (a)-[:T]-(b)", "several rows"),
        ("MATCH (a:A) MERGE (a)-[:T]->(:B)", "several rows"),
        ("UNWIND [1, 2, 1] AS v MERGE (n:L {id: v})", "several rows"),
        ("UNWIND [1, 1.0] AS v MERGE (n:L {id: v})", "several rows"),
        ("UNWIND [1, 2] AS v MERGE (n:L {id: v}) ON CREATE SET n.id = 3", "several rows"),
        ("CREATE (x) WITH x UNWIND [1, 2] AS v MERGE (n:L {id: v}) ON CREATE SET x:L", "rows"),
        ("UNWIND [1, 2] AS v UNWIND [1, 2] AS w MERGE (n:L {id: v})", "several rows"),
        ("UNWIND [1] AS v UNWIND [1, 2] AS w MERGE (n:L {id: v})", "several rows"),
        # two temporal texts may name one instant: not known to differ
        ("UNWIND [date('2020-01-01'), date('2021-01-01')] AS d MERGE (n:L {d: d})", "rows"),
        # Cypher fails on a null value, which an INSERT would leave out
        ("MERGE (n:P {id: $id})", "computed property"),
        ("WITH null AS a MERGE (a)-[:T]->(b)", "may be null"),
        ("MERGE p = (a:A)-[:T]->(b)", "path variable"),
        ("MATCH (a) CALL (a) { MERGE (a)-[:T]->(b:B) RETURN b } RETURN b", "subquery"),
    ],
)
def test_merges_that_would_change_meaning_are_refused(query: str, reason: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", ISO)
    assert info.value.construct == "MERGE" and reason in str(info.value), str(info.value)


def test_spanner_has_no_writes_to_merge_with() -> None:
    from gqlir.emitter.gql import emit_gql

    with pytest.raises(UnsupportedError) as info:
        emit_gql(gqlir.parse("MERGE (a:A)", "neo4j"), "spanner", graph="g")
    assert info.value.construct == "MERGE"


def _grafeo_state(db: Any) -> Counter:
    def key(d: dict) -> tuple:
        return tuple(sorted(d.items()))

    nodes = db.execute_cypher("MATCH (n) RETURN labels(n) AS l, properties(n) AS p")
    rels = db.execute_cypher(
        "MATCH (a)-[r]->(b) RETURN type(r) AS t, properties(r) AS p, labels(a) AS la, "
        "properties(a) AS pa, labels(b) AS lb, properties(b) AS pb"
    )
    return Counter(
        [("n", tuple(sorted(x["l"])), key(x["p"])) for x in nodes]
        + [
            (
                "r",
                x["t"],
                (tuple(sorted(x["la"])), key(x["pa"])),
                (tuple(sorted(x["lb"])), key(x["pb"])),
                key(x["p"]),
            )
            for x in rels
        ]
    )


@pytest.mark.parametrize("graph", ["empty", "linked", "many"])
@pytest.mark.parametrize("query", [m for m in MERGES if ":Y" not in m])
def test_grafeo_runs_the_merge_translations(query: str, graph: str) -> None:
    """A real GQL engine gives the translation the meaning the evaluator gives it."""
    grafeo = pytest.importorskip("grafeo")
    db = grafeo.GrafeoDB()
    if GRAPHS[graph]:
        db.execute_cypher(GRAPHS[graph])
    rows = db.execute(gqlir.transpile(query, "neo4j", ISO))
    reference = Graph()
    if GRAPHS[graph]:
        run(GRAPHS[graph], reference)
    want = run(query, reference)
    got = Counter(repr(tuple(r.values())) for r in rows)
    assert got == Counter(map(repr, want.rows))
    assert _grafeo_state(db) == _state(reference)


def test_grafeo_edge_through_expression() -> None:
    """[grafeo-edge-through-expression] (docs/engines.md): why the merged element is named
    with FOR … FILTER rather than LET … COALESCE. When this fails, grafeo has fixed it."""
    grafeo = pytest.importorskip("grafeo")
    db = grafeo.GrafeoDB()
    db.execute_cypher("CREATE (:A {name: 'A'}), (:B {name: 'B'})")
    rows = db.execute(
        "MATCH (a:A), (b:B) INSERT (a)-[c:T {name: 'x'}]->(b) "
        "LET r = COALESCE(c, c) RETURN r.name AS n"
    )
    assert [r["n"] for r in rows] == ["A"]
