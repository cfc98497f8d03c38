"""nodes(p) and relationships(p) of paths whose elements the MATCH names
(gqlir/passes/path_lists.py): the GQL lists give Cypher's answers on the evaluator."""

from __future__ import annotations

import pytest

import gqlir
from gqlir.errors import UnsupportedError
from gqlir.eval import Graph, run

ISO = "iso-gql"
SETUP = (
    "CREATE (a:A {n: 1})-[:T {n: 10}]->(b:B {n: 2})-[:U {n: 20}]->(c:C {n: 3}), "
    "(c)-[:U {n: 30}]->(d:D {n: 4}), (b)<-[:T {n: 40}]-(e:E {n: 5}), (a)-[:T {n: 50}]->(a)"
)

QUERIES = [
    "MATCH p = (x)-->(y) RETURN [v IN nodes(p) | v.n] AS ns",
    "MATCH p = (x)<--(y) RETURN [v IN nodes(p) | v.n] AS ns, [r IN relationships(p) | r.n] AS rs",
    "MATCH p = (x:A)-[:T]->()-[:U]->(z) RETURN size(nodes(p)) AS s, nodes(p)[1].n AS mid",
    "MATCH p = (x)-[*1..3]->(y) RETURN relationships(p)[0].n AS first, "
    "last(relationships(p)).n AS last, size(relationships(p)) AS k",
    "MATCH p = (x:A)-[:T]->(m)-[*0..2]->(y)<-[s]-(z) "
    "RETURN relationships(p)[1].n AS second, last(relationships(p)).n AS last, "
    "size(relationships(p)) AS k",
    "MATCH (x) OPTIONAL MATCH p = (x)-[:U]->() RETURN x.n AS x, nodes(p)[1].n AS next, "
    "relationships(p) IS NULL AS none",
    "MATCH p = (x)-->(y) WHERE last(nodes(p)).n > 2 RETURN x.n AS x",
    "MATCH p = (x)-->(x) RETURN nodes(p) = [x, x] AS loop",
    # each item of the list, substituted into a pattern comprehension, names its node there
    "MATCH p = (x:A)-->(y) RETURN [v IN nodes(p) | size([(v)-->() | 1])] AS out",
    "MATCH (x)-->(y) RETURN [v IN [x, y] | size([(v)-[:U]->() | 1])] AS out",
    "MATCH (x)-->(y) RETURN [v IN [x, y] | exists { MATCH (v)-[:T]->() }] AS out",
    # RETURN * lists the variables in scope before the unnamed node is named: not the name
    "MATCH p = (x)-->() RETURN *, nodes(p) AS ns",
]


@pytest.mark.parametrize("query", QUERIES)
def test_path_lists_read_the_variables_of_the_chain(query: str) -> None:
    text = gqlir.transpile(query, "neo4j", ISO)
    assert "NODES(" not in text.upper().replace("_NODES", "") and "RELATIONSHIPS(" not in text
    answers = []
    for q, dialect in ((query, "neo4j"), (text, ISO)):
        graph = Graph()
        run(SETUP, graph)
        answers.append(sorted(map(repr, run(q, graph, dialect=dialect).rows)))
    assert answers[0] == answers[1] and answers[0], text


@pytest.mark.parametrize(
    "query",
    [
        # the nodes inside a variable-length relationship have no variable
        "MATCH p = (x)-[*1..2]->(y) RETURN nodes(p) AS ns",
        # after the projection the chain's variables are gone
        "MATCH p = (x)-->(y) WITH p RETURN nodes(p) AS ns",
    ],
)
def test_path_lists_that_cannot_be_spelled_are_refused(query: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", ISO)
    assert info.value.construct == "function nodes()"
