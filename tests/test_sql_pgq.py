"""SQL/PGQ: GRAPH_TABLE output per flavour, read back to the same IR; the PostgreSQL form is
checked against PostgreSQL's documented GRAPH_TABLE grammar (PostgreSQL 19, docs/19/
queries-graph.html and ref/select: ``GRAPH_TABLE ( graph_name MATCH graph_pattern COLUMNS (
expression [AS name] [, ...] ) )``; element patterns ``( [var] [IS label_expression] [WHERE
condition] )`` and ``-[ … ]->``, ``<-[ … ]-``, ``-[ … ]-``), as golden texts: the PostgreSQL 15
on this machine predates SQL/PGQ, so the form cannot be run."""

from __future__ import annotations

import os
import re

import pytest

import gqlir
from gqlir.errors import ParseError, UnsupportedError

FLAVOURS = ("sqlpgq", "sqlpgq:oracle", "sqlpgq:duckdb", "sqlpgq:postgres")

ROUND_TRIP = [
    "USE g MATCH (p:Person)-[e:KNOWS]->(q:Person) WHERE q.age > 3 "
    "RETURN p.name AS name, count(*) AS n ORDER BY n DESC SKIP 1 LIMIT 5",
    "USE g MATCH (a:Person) RETURN DISTINCT a.name AS name ORDER BY name",
    "USE g MATCH (a:Person)<-[:LIKES]-(b:Person WHERE b.name <> 'it\\'s') "
    "RETURN a.name AS a, b.name AS b",
    "USE g MATCH (a:Person), (c:City) WHERE a.city = c.name OR c.name IS NULL "
    "RETURN c.name AS city, count(DISTINCT a.name) AS people, avg(a.age) AS age",
    "USE g MATCH (a:Person|Robot)-[r:KNOWS]-(b) RETURN a.name AS name, r.since AS since "
    "ORDER BY since DESC",
    "USE g MATCH (a:Person) RETURN a.name AS name UNION USE g MATCH (b:Robot) RETURN b.name AS name",
]


@pytest.mark.parametrize("cypher", ROUND_TRIP)
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_output_reads_back_to_the_same_ir(cypher: str, flavour: str) -> None:
    source = gqlir.parse(cypher, "neo4j")
    text = gqlir.emit(source, flavour)
    assert gqlir.parse(text, flavour) == source, text


def test_quantified_edges_read_back_where_the_flavour_has_them() -> None:
    source = gqlir.parse("USE g MATCH (a:P)-[:R]->{1,3}(b:P) RETURN b.name AS name", "neo4j")
    for flavour in ("sqlpgq", "sqlpgq:oracle", "sqlpgq:duckdb"):
        assert gqlir.parse(gqlir.emit(source, flavour), flavour) == source
    with pytest.raises(UnsupportedError) as info:
        gqlir.emit(source, "sqlpgq:postgres")
    assert info.value.construct == "quantified edge"


FINANCE = os.path.join(os.path.dirname(__file__), "..", "schemas", "finance", "schema.json")


@pytest.mark.parametrize("target", ("sql:duckdb", *FLAVOURS))
def test_schema_types_are_judged_as_in_plain_sql(target: str) -> None:
    # A DATE or BOOLEAN property compares with a value of its own type; with another, no.
    same = (
        "MATCH (p:Person) WHERE p.birthday < date('1990-01-01') AND p.isBlocked = true "
        "RETURN p.name AS name"
    )
    text = gqlir.transpile(same, "neo4j", target, schema=FINANCE)
    assert "1990-01-01" in text and "TRUE" in text
    other = "MATCH (p:Person) WHERE p.birthday < 3 RETURN p.name AS name"
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(other, "neo4j", target, schema=FINANCE)
    assert info.value.construct == "comparison of values of different types"


GOLDEN = {
    (
        "USE myshop MATCH (c:customers)-[:customer_orders]->(o:orders WHERE o.total > 100) "
        "RETURN c.name AS customer_name",
        "sqlpgq:postgres",
        # PostgreSQL reads an unquoted name in lower case: Person is quoted, customers bare.
    ): "SELECT customer_name FROM GRAPH_TABLE (myshop MATCH (c IS customers)-[IS customer_orders]->"
    "(o IS orders WHERE o.total > 100) COLUMNS (c.name AS customer_name))",
    (
        "USE students_graph MATCH (a:person)-[e:friends]->(b:person WHERE b.name = 'Mary') "
        "WHERE a.name = 'John' RETURN a.name AS person_a, b.name AS person_b",
        "sqlpgq:oracle",
    ): 'SELECT "person_a", "person_b" FROM GRAPH_TABLE ("students_graph" MATCH ("a" IS "person")-'
    '["e" IS "friends"]->("b" IS "person" WHERE "b"."name" = \'Mary\') WHERE "a"."name" = '
    '\'John\' COLUMNS ("a"."name" AS "person_a", "b"."name" AS "person_b"))',
    # Oracle reads an unquoted name in upper case: lower-case names are quoted, upper-case bare.
    (
        "USE G MATCH (A:PERSON) WHERE A.NAME = 'John' RETURN A.NAME AS N",
        "sqlpgq:oracle",
    ): "SELECT N FROM GRAPH_TABLE (G MATCH (A IS PERSON) WHERE A.NAME = 'John' COLUMNS (A.NAME AS "
    "N))",
    (
        "USE snb MATCH (a:Person)-[k:knows]->{1,3}(b:Person) RETURN a.id AS a, b.id AS b",
        "sqlpgq:duckdb",
    ): "SELECT a, b FROM GRAPH_TABLE (snb MATCH (a:Person)-[k:knows]->{1,3}(b:Person) COLUMNS "
    "(a.id AS a, b.id AS b))",
    (
        "USE g MATCH (p:Person) RETURN p.name AS name, count(*) AS n ORDER BY n DESC LIMIT 3",
        "sqlpgq:postgres",
    ): 'SELECT name, COUNT(*) AS "n" FROM GRAPH_TABLE (g MATCH (p IS "Person") COLUMNS (p.name AS '
    'name)) GROUP BY name ORDER BY "n" DESC LIMIT 3',
    (
        "USE FinGraph MATCH (p:Person)-[:Owns]->(a:Account) RETURN p.name AS name, a.id AS id",
        "sqlpgq:bigquery",
    ): "SELECT * FROM GRAPH_TABLE (FinGraph MATCH (p:Person)-[:Owns]->(a:Account) RETURN p.name "
    "AS name, a.id AS id)",
}


@pytest.mark.parametrize(("key", "expected"), list(GOLDEN.items()), ids=[k[1] for k in GOLDEN])
def test_golden(key: tuple[str, str], expected: str) -> None:
    cypher, flavour = key
    assert gqlir.emit(gqlir.parse(cypher, "neo4j"), flavour) == expected


# PostgreSQL's documented GRAPH_TABLE grammar, as the shapes the PostgreSQL form must have.
_IDENT = r'(?:[A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+")'
_LABEL = rf"{_IDENT}(?: [|&] {_IDENT})*"
_VERTEX = rf"\((?:{_IDENT})?(?:\s?IS {_LABEL})?(?: WHERE [^()]*(?:\([^()]*\)[^()]*)*)?\)"
_EDGE_BODY = rf"(?:{_IDENT})?(?:\s?IS {_LABEL})?(?: WHERE [^\[\]]*)?"
_EDGE = rf"(?:-\[{_EDGE_BODY}\]->|<-\[{_EDGE_BODY}\]-|-\[{_EDGE_BODY}\]-)"
_PATH = rf"{_VERTEX}(?:{_EDGE}{_VERTEX})*"
_GRAPH_TABLE = re.compile(
    rf"GRAPH_TABLE \({_IDENT} MATCH {_PATH}(?:, {_PATH})*(?: WHERE .+?)? COLUMNS \((?P<cols>.+)\)\)"
)


@pytest.mark.parametrize(
    "cypher", ROUND_TRIP[:5] + [k[0] for k in GOLDEN if k[1] == "sqlpgq:postgres"]
)
def test_the_postgres_form_follows_postgresqls_documented_grammar(cypher: str) -> None:
    text = gqlir.emit(gqlir.parse(cypher, "neo4j"), "sqlpgq:postgres")
    assert _GRAPH_TABLE.search(text), text
    assert ":" not in text.split("COLUMNS")[0]  # labels follow IS, never ':'


def test_documented_queries_are_read() -> None:
    pg = (
        "SELECT customer_name FROM GRAPH_TABLE (myshop MATCH (c IS customers)-[IS "
        "customer_orders]->(o IS orders WHERE o.ordered_when = DATE '2024-01-02') "
        "COLUMNS (c.name AS customer_name))"
    )
    q = gqlir.parse(pg, "sqlpgq:postgres")
    assert gqlir.emit(q, "neo4j") == (
        "USE myshop MATCH (c:customers)-[:customer_orders]->(o:orders WHERE o.ordered_when = "
        "date('2024-01-02')) RETURN c.name AS customer_name"
    )
    oracle = (
        "SELECT * FROM GRAPH_TABLE (students_graph MATCH (a IS person) -[e IS friends]-> "
        "(b IS person WHERE b.name='Mary') WHERE a.name='John' "
        "COLUMNS (a.name AS person_a, b.name AS person_b))"
    )
    q = gqlir.parse(oracle, "sqlpgq:oracle")
    assert gqlir.emit(q, "iso-gql").endswith("RETURN a.name AS person_a, b.name AS person_b")


def test_graph_table_joins_other_sql() -> None:
    q = gqlir.parse(
        "SELECT t.name, count(*) FROM GRAPH_TABLE (g MATCH (a IS P) COLUMNS (a.name AS name)) AS t "
        "WHERE t.name LIKE 'A%' GROUP BY t.name",
        "sqlpgq:postgres",
    )
    assert gqlir.emit(q, "neo4j") == (
        "USE g MATCH (a:P) WITH * WHERE a.name STARTS WITH 'A' RETURN a.name AS name, count(*)"
    )


def test_refusals_and_errors() -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.emit(
            gqlir.parse("USE g MATCH (a:P) OPTIONAL MATCH (a)-->(b) RETURN b.x AS x"),
            "sqlpgq:oracle",
        )
    assert info.value.construct == "OPTIONAL MATCH"
    with pytest.raises(UnsupportedError) as info:
        gqlir.emit(gqlir.parse("MATCH (a:P) RETURN a.x AS x"), "sqlpgq:oracle")
    assert info.value.construct == "graph name"
    with pytest.raises(UnsupportedError) as info:
        gqlir.emit(gqlir.parse("USE g MATCH (a:P)-[:R]->(b)-[:R]->(c) RETURN c.x AS x"), "sqlpgq")
    assert info.value.construct == "two edge patterns that may match one edge"
    with pytest.raises(ParseError):
        gqlir.parse("SELECT * FROM GRAPH_TABLE (g MATCH (a IS P) COLUMNS (a.x AS x)", "sqlpgq")
    with pytest.raises(ParseError):
        gqlir.parse("SELECT * FROM GRAPH_TABLE (g MATCH (a IS P) COLUMNS (a.x + 1))", "sqlpgq")


MOVIES = os.path.join(os.path.dirname(__file__), "..", "schemas", "movies")


def _movies(cypher: str, flavour: str = "sqlpgq") -> str:
    return gqlir.emit(gqlir.parse(cypher, "neo4j"), flavour, schema=MOVIES)


@pytest.mark.parametrize(
    ("cypher", "construct", "said"),
    [
        (
            "MATCH (a:Person) WHERE EXISTS { (a)-[:ACTED_IN]->(:Movie) } RETURN a.name AS n",
            "EXISTS subquery inside GRAPH_TABLE",
            "cannot see the graph pattern's variables",
        ),
        (
            "MATCH (a:Person)-[r:ACTED_IN]->(m:Movie) RETURN count(DISTINCT r) AS n",
            "count(DISTINCT x) of a graph element without a key property",
            "can count only values that COLUMNS hand out",
        ),
        (
            "MATCH (a:Person)-[:ACTED_IN]->(m:Movie) RETURN collect(a) AS n",
            "collect() of a graph element",
            "an element is not a value",
        ),
        (
            "MATCH (a:Person)-[:ACTED_IN]->(m:Movie) WHERE a <> m RETURN m.title AS t",
            "comparison of graph elements",
            "one label with a single key property",
        ),
        (
            "MATCH (a:Person)-[r:ACTED_IN]->(m:Movie) WITH r, m RETURN count(r) AS n",
            "element without a key carried past the graph pattern",
            "r is used as a whole after the graph pattern",
        ),
        (
            "MATCH (a:Person) WITH a MATCH (a)-[:ACTED_IN]->(m) RETURN m.title AS t",
            "MATCH after WITH",
            "one graph pattern, read before the pipeline",
        ),
        (
            "MATCH (a:Person) WITH a OPTIONAL MATCH (a)-[:ACTED_IN]->(m) RETURN m.title AS t",
            "OPTIONAL MATCH",
            "one graph pattern",
        ),
    ],
)
def test_refusals_say_what_and_why(cypher: str, construct: str, said: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        _movies(cypher)
    assert info.value.construct == construct
    assert said in info.value.message


def test_a_pipeline_reads_the_graph_table_as_a_derived_table() -> None:
    out = _movies(
        "MATCH (p:Person)-[:ACTED_IN]->(m:Movie) WITH p, count(m) AS n WHERE n > 2 "
        "RETURN p.born AS born, n"
    )
    # p is carried whole: its key (name) is a column; m is counted by its key; born is read
    assert (
        'COLUMNS ("p"."name" AS "p__name", "p"."born" AS "p__born", "m"."title" AS "m__title")'
        in out
    )
    assert 'COUNT("gt1"."m__title") AS "n"' in out
    assert 'GROUP BY "gt1"."p__name", "gt1"."p__born"' in out
    assert 'WHERE "w2"."n" > 2' in out


def test_elements_are_counted_and_compared_by_their_key() -> None:
    """count(DISTINCT p) counts p's key property and a <> b compares keys; the text reads back
    to a query of the same answer on the example graph."""
    from gqlir.engines.reference import reference_graph
    from gqlir.eval import evaluate
    from gqlir.sqlmapping import mapping_for

    mapping = mapping_for(MOVIES)
    graph = reference_graph(os.path.join(MOVIES, "graph"), mapping.schema)
    cypher = (
        "MATCH (a:Person)-[:ACTED_IN]->(m:Movie), (b:Person)-[:DIRECTED]->(m) WHERE a <> b "
        "RETURN count(DISTINCT a) AS actors, count(m) AS pairs"
    )
    expected = evaluate(gqlir.parse(cypher, "neo4j"), graph).rows
    for flavour in FLAVOURS:
        text = _movies(cypher, flavour)
        assert "COUNT(DISTINCT" in text and "<>" in text
        assert evaluate(gqlir.parse(text, flavour, schema=mapping), graph).rows == expected
