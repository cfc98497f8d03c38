"""Edge uniqueness implied by the query's inequalities, and the length of a fixed-length path
(gqlir/passes/implied_uniqueness.py, gqlir/passes/fixed_paths.py): what lets a SQL/PGQ form
without DIFFERENT EDGES or path variables (DuckPGQ, PostgreSQL 19) write a Cypher query."""

from __future__ import annotations

import pytest

from gqlir import emit, ir, parse
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.eval import Graph, evaluate, run
from gqlir.passes.fixed_paths import lower_fixed_paths
from gqlir.passes.implied_uniqueness import lower_implied_uniqueness
from gqlir.sqlcorpus import normalise

FORMS = ["sqlpgq:duckdb", "sqlpgq:postgres"]

#: a graph where relationship uniqueness changes the rows: a self-loop, a two-cycle, parallel
#: edges, and a chain
GRAPH_TEXT = (
    "CREATE (a:P {k: 1}), (b:P {k: 2}), (c:P {k: 3}), (d:P {k: 4}), "
    "(a)-[:R]->(a), (a)-[:R]->(b), (b)-[:R]->(a), (b)-[:R]->(c), (b)-[:R]->(c), (c)-[:R]->(d)"
)


@pytest.fixture(scope="module")
def graph() -> Graph:
    g = Graph()
    run(GRAPH_TEXT, g)
    return g


PROVED = [
    "MATCH (x:P)-[:R]->(m:P)<-[:R]-(y:P) WHERE x <> y RETURN x.k AS a, y.k AS b",
    "MATCH (u:P)-[:R]->(v:P)-[:R]->(w:P) WHERE u <> w RETURN u.k AS a, w.k AS b",
    "MATCH (u:P)-[r:R]->(v:P), (s:P)-[t:R]->(w:P) WHERE r <> t RETURN u.k AS a, w.k AS b",
    "MATCH (u:P)-[:R]->(v:P)-[:R]->(w:P) WITH u, w WHERE u <> w RETURN u.k AS a, w.k AS b",
]
UNPROVED = [
    "MATCH (x:P)-[:R]->(m:P)<-[:R]-(y:P) RETURN x.k AS a, y.k AS b",
    "MATCH (x:P)-[:R]->(m:P)<-[:R]-(y:P) WHERE x <> m RETURN x.k AS a, y.k AS b",
    "MATCH (u:P)-[:R]-(v:P)-[:R]-(w:P) WHERE u <> w RETURN u.k AS a, w.k AS b",
    "MATCH (u:P)-[:R]->(v:P)-[:R]->(w:P) WHERE u <> w OR u.k > 0 RETURN u.k AS a",
]


@pytest.mark.parametrize("cypher", PROVED)
def test_an_implied_uniqueness_is_dropped_and_keeps_the_rows(cypher: str, graph: Graph) -> None:
    query = parse(cypher, "neo4j")
    lowered = lower_implied_uniqueness(query, get_dialect("sqlpgq:duckdb"))
    matches = [s for s in lowered.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    if "WITH u, w WHERE" in cypher:
        # the filter is not the MATCH's: the pass looks only at the MATCH and the filters right
        # after it, so this one stays refused
        assert lowered is query
        return
    assert {m.mode for m in matches} == {ir.MatchMode.REPEATABLE_ELEMENTS}
    assert normalise(evaluate(lowered, graph).rows, False) == normalise(
        evaluate(query, graph).rows, False
    )
    # and the homomorphic reading differs without the inequality: the test graph can tell
    bare = lowered.transform(
        lambda n: ir.Match(n.patterns, None, n.optional, n.mode) if isinstance(n, ir.Match) else n
    )
    unique = query.transform(
        lambda n: ir.Match(n.patterns, None, n.optional, n.mode) if isinstance(n, ir.Match) else n
    )
    assert normalise(evaluate(bare, graph).rows, False) != normalise(
        evaluate(unique, graph).rows, False
    )


@pytest.mark.parametrize("cypher", UNPROVED)
@pytest.mark.parametrize("form", FORMS)
def test_an_uniqueness_not_implied_is_still_refused(cypher: str, form: str) -> None:
    query = parse(cypher, "neo4j")
    assert lower_implied_uniqueness(query, get_dialect(form)) is query
    with pytest.raises(UnsupportedError) as info:
        emit(parse("USE g " + cypher, "neo4j"), form, schema=None)
    assert info.value.construct == "two edge patterns that may match one edge"


def test_the_standard_form_keeps_writing_different_edges() -> None:
    query = parse(PROVED[0], "neo4j")
    assert lower_implied_uniqueness(query, get_dialect("sqlpgq")) is query


def test_the_length_of_a_fixed_path_is_its_number_of_edges() -> None:
    query = parse(
        "MATCH p = (u:P)-[:R]->(v:P)-[:R]->(w:P) RETURN length(p) AS n, length(p) + 1 AS m",
        "neo4j",
    )
    lowered = lower_fixed_paths(query, get_dialect("sqlpgq:postgres"))
    match, proj = lowered.steps  # type: ignore[attr-defined]
    assert match.patterns[0].variable is None
    assert proj.items[0].expr == ir.Integer(2)
    # forms that name paths keep the variable
    assert lower_fixed_paths(query, get_dialect("sqlpgq:duckdb")) is query


@pytest.mark.parametrize(
    "cypher",
    [
        "MATCH p = (u:P)-[:R*1..2]->(w:P) RETURN length(p) AS n",
        "MATCH p = (u:P)-[:R]->(w:P) RETURN length(p) AS n, nodes(p) AS ns",
        "MATCH p = (u:P)-[:R]->(w:P) WITH p RETURN length(p) AS n",
        "MATCH p = shortestPath((u:P)-[:R]->(w:P)) RETURN length(p) AS n",
    ],
)
def test_a_path_read_otherwise_keeps_its_variable(cypher: str) -> None:
    query = parse(cypher, "neo4j")
    assert lower_fixed_paths(query, get_dialect("sqlpgq:postgres")) is query
