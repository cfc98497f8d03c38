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
from gqlir import ir
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
    paths = [x for x in source.walk() if isinstance(x, ir.PathPattern)]
    if flavour == "sqlpgq:postgres" and len(paths) > 1 and not isinstance(source, ir.SetOperation):
        # PostgreSQL 19 matches one path pattern per GRAPH_TABLE
        with pytest.raises(UnsupportedError) as info:
            gqlir.emit(source, flavour)
        assert info.value.construct == "several path patterns"
        return
    text = gqlir.emit(source, flavour)
    assert gqlir.parse(text, flavour) == source, text


def test_quantified_edges_read_back_where_the_flavour_has_them() -> None:
    # Cypher's -[:R]->{1,3} keeps edges distinct: the standard says DIFFERENT EDGES
    source = gqlir.parse("USE g MATCH (a:P)-[:R]->{1,3}(b:P) RETURN b.name AS name", "neo4j")
    text = gqlir.emit(source, "sqlpgq")
    assert "MATCH DIFFERENT EDGES (" in text
    assert gqlir.parse(text, "sqlpgq") == source
    # Oracle matches walks and cannot say otherwise; DuckPGQ gives one row per endpoint
    for flavour, construct in (
        ("sqlpgq:oracle", "two edge patterns that may match one edge"),
        ("sqlpgq:duckdb", "quantified edge with one row per path"),
        ("sqlpgq:postgres", "quantified edge"),
    ):
        with pytest.raises(UnsupportedError) as info:
            gqlir.emit(source, flavour)
        assert info.value.construct == construct, flavour
    walks = gqlir.parse(
        "USE g MATCH REPEATABLE ELEMENTS (a:P)-[:R]->{1,3}(b:P) RETURN b.name AS name", "neo4j"
    )
    for flavour in ("sqlpgq", "sqlpgq:oracle"):
        assert gqlir.parse(gqlir.emit(walks, flavour), flavour) == walks
    shortest = gqlir.parse(
        "USE g MATCH ANY SHORTEST (a:P)-[:R]->{1,3}(b:P) RETURN b.name AS name", "neo4j"
    )
    assert gqlir.parse(gqlir.emit(shortest, "sqlpgq:duckdb"), "sqlpgq:duckdb") == shortest


def test_duckpgq_quantified_edges_give_one_row_per_endpoint() -> None:
    """DuckPGQ's -[e]->{1,3} without ANY SHORTEST yields each reachable endpoint once
    (test/sql/path_finding/bounded_path_expansion.test), which is ANY SHORTEST's meaning."""
    text = (
        "SELECT b_id FROM GRAPH_TABLE (pg MATCH (a:N WHERE a.id = 0)-[e:E]->{1,3}(b:N) "
        "COLUMNS (b.id AS b_id))"
    )
    query = gqlir.parse(text, "sqlpgq:duckdb")
    assert "MATCH ANY SHORTEST (a:N WHERE a.id = 0)-[e:E]->{1,3}(b:N)" in gqlir.emit(
        query, "iso-gql"
    )
    standard = gqlir.parse(text, "sqlpgq")  # the standard's: one row per walk
    assert "SHORTEST" not in gqlir.emit(standard, "iso-gql")
    with pytest.raises(UnsupportedError) as info:
        gqlir.parse(
            "SELECT c FROM GRAPH_TABLE (pg MATCH (a:N)-[e:E]->{1,3}(b:N)-[f:F]->(c:N) "
            "COLUMNS (c.id AS c))",
            "sqlpgq:duckdb",
        )
    assert info.value.construct == "quantified edge inside a longer path"


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
        "USE snb MATCH ANY SHORTEST (a:Person)-[k:knows]->{1,3}(b:Person) "
        "RETURN a.id AS a, b.id AS b",
        "sqlpgq:duckdb",
    ): "SELECT a, b FROM GRAPH_TABLE (snb MATCH ANY SHORTEST (a:Person)-[k:knows]->{1,3}"
    "(b:Person) COLUMNS (a.id AS a, b.id AS b))",
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
    "cypher",
    [c for c in ROUND_TRIP[:5] if "), (" not in c]
    + [k[0] for k in GOLDEN if k[1] == "sqlpgq:postgres"],
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
    # Oracle folds unquoted names to upper case (sqlrf 'Database Object Naming Rules')
    assert gqlir.emit(q, "iso-gql").endswith("RETURN A.NAME AS PERSON_A, B.NAME AS PERSON_B")


def test_graph_table_joins_other_sql() -> None:
    q = gqlir.parse(
        "SELECT t.name, count(*) FROM GRAPH_TABLE (g MATCH (a IS P) COLUMNS (a.name AS name)) AS t "
        "WHERE t.name LIKE 'A%' GROUP BY t.name",
        "sqlpgq:postgres",
    )
    # PostgreSQL folds unquoted names to lower case: IS P is the label p
    assert gqlir.emit(q, "neo4j") == (
        "USE g MATCH (a:p) WHERE a.name STARTS WITH 'A' RETURN a.name AS name, count(*)"
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
    two = gqlir.parse("USE g MATCH (a:P)-[:R]->(b)-[:R]->(c) RETURN c.x AS x")
    with pytest.raises(UnsupportedError) as info:
        gqlir.emit(two, "sqlpgq:oracle")
    assert info.value.construct == "two edge patterns that may match one edge"
    assert "MATCH DIFFERENT EDGES (" in gqlir.emit(two, "sqlpgq")
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
    with pytest.raises(UnsupportedError):  # two path patterns: not in PostgreSQL 19
        _movies(cypher, "sqlpgq:postgres")
    for flavour in FLAVOURS[:3]:
        text = _movies(cypher, flavour)
        assert "COUNT(DISTINCT" in text and "<>" in text
        assert evaluate(gqlir.parse(text, flavour, schema=mapping), graph).rows == expected


# -- the forms' own facts (dialects/sqlpgq.toml [flavours.*]) -----------------------------------


def test_property_graph_ddl_is_a_statement_that_reads_back() -> None:
    text = (
        "CREATE OR REPLACE PROPERTY GRAPH g VERTEX TABLES (persons KEY (id) LABEL person "
        "PROPERTIES (id, birthdate AS dob)) EDGE TABLES (friends SOURCE KEY (a) REFERENCES "
        "persons (id) DESTINATION KEY (b) REFERENCES persons (id) NO PROPERTIES)"
    )
    graph = gqlir.parse(text, "sqlpgq:oracle")
    assert isinstance(graph, ir.CreatePropertyGraph) and graph.or_replace
    (person,) = graph.vertices
    assert person.key == ("id",) and person.labels[0].label == "person"
    assert [(p.column, p.name) for p in person.labels[0].properties] == [
        ("id", "id"),
        ("birthdate", "dob"),
    ]
    (friends,) = graph.edges
    assert friends.source == ir.EdgeEnd(("a",), "persons", ("id",))
    assert friends.labels == (ir.ElementLabel(None, (), False),)
    for form in FLAVOURS:
        assert gqlir.parse(gqlir.emit(graph, form), form) == graph
    drop = gqlir.parse("DROP PROPERTY GRAPH IF EXISTS g", "sqlpgq")
    assert drop == ir.DropPropertyGraph("g", True)
    with pytest.raises(UnsupportedError):
        gqlir.emit(graph, "neo4j")


def test_postgres_reads_its_own_ddl_forms() -> None:
    empty = gqlir.parse("CREATE PROPERTY GRAPH g1", "sqlpgq:postgres")
    assert empty == ir.CreatePropertyGraph("g1", ())
    with pytest.raises(ParseError):  # DuckPGQ: "syntax error at or near ;"
        gqlir.parse("CREATE PROPERTY GRAPH g1", "sqlpgq:duckdb")
    shop = gqlir.parse(
        "CREATE PROPERTY GRAPH myshop VERTEX TABLES (customers, orders) "
        "EDGE TABLES (customer_orders SOURCE customers DESTINATION orders)",
        "sqlpgq:postgres",
    )
    assert shop.edges[0].source == ir.EdgeEnd((), "customers")


def test_oracle_takes_bounded_quantifiers_and_label_disjunctions_only() -> None:
    def refusal(text: str) -> str:
        result = gqlir.validate(text, "sqlpgq:oracle")
        assert not result.valid and result.error is not None and result.error.line is not None
        return result.error.construct  # type: ignore[union-attr]

    head = "SELECT * FROM GRAPH_TABLE (g MATCH "
    tail = " COLUMNS (b.name AS name))"
    assert refusal(head + "(a IS person)-[e IS knows]->{1,}(b)" + tail) == "unbounded quantifier"
    assert refusal(head + "(b IS person & student)" + tail).startswith("label expression")
    assert refusal(head + "TRAIL (a)-[e]->{1,3}(b)" + tail) == "path mode TRAIL"
    assert refusal(head + "ANY SHORTEST (a)-[e]->{1,3}(b)" + tail) == "path search ANY SHORTEST"
    ok = gqlir.validate(head + "(a IS person|student)-[e]->{,3}(b)" + tail, "sqlpgq:oracle")
    assert ok.valid, ok.error
    # the same text in the standard's form is a walk of up to three edges, not a trail
    walk = gqlir.parse(head + "(a)-[e]->{1,3}(b)" + tail, "sqlpgq")
    assert walk.steps[1].mode is ir.MatchMode.REPEATABLE_ELEMENTS


def test_oracle_one_row_per_vertex_is_refused_by_name() -> None:
    text = (
        "SELECT * FROM GRAPH_TABLE (g MATCH (a)-[e]->{1,3}(b) ONE ROW PER VERTEX (v) "
        "COLUMNS (v.name AS name))"
    )
    with pytest.raises(UnsupportedError) as info:
        gqlir.parse(text, "sqlpgq:oracle")
    assert info.value.construct == "ONE ROW PER VERTEX"


def test_duckpgq_columns_as_duckdb_names_them() -> None:
    text = (
        "FROM GRAPH_TABLE (snb MATCH p = ANY SHORTEST (a:Person)-[k:knows]->{1,3}(B:Person) "
        "COLUMNS (a.id, b.id, path_length(p),))"
    )
    query = gqlir.parse(text, "sqlpgq:duckdb")
    items = query.steps[-1].items
    assert [i.alias for i in items] == ["id", "id_1", "path_length(p)"]
    assert items[1].expr == ir.Property(ir.Variable("B"), "id")  # B and b are one variable
    assert items[2].expr == ir.FunctionCall("length", (ir.Variable("p"),))
    with pytest.raises(ParseError):  # the standard's columns are named and distinct
        gqlir.parse(text, "sqlpgq")


def test_postgres_names_graph_table_columns_and_reads_spaced_arrows() -> None:
    text = (
        "SELECT who FROM GRAPH_TABLE (myshop MATCH ( o IS orders ) <- [ IS customer_orders ] - "
        "(c IS customers) COLUMNS (c.name)) AS r (who) ORDER BY who"
    )
    query = gqlir.parse(text, "sqlpgq:postgres")
    assert gqlir.emit(query, "neo4j") == (
        "USE myshop MATCH (o:orders)<-[:customer_orders]-(c:customers) RETURN c.name AS who "
        "ORDER BY who"
    )


@pytest.mark.parametrize(
    ("form", "label", "quoted"),
    [("sqlpgq:oracle", "PERSON", "Person"), ("sqlpgq", "PERSON", "Person"),
     ("sqlpgq:postgres", "person", "Person"), ("sqlpgq:duckdb", "Person", "Person")],
)  # fmt: skip
def test_unquoted_names_fold_as_the_form_folds_them(form: str, label: str, quoted: str) -> None:
    """Oracle and the standard read an unquoted name in upper case, PostgreSQL in lower case
    (dialects/sqlpgq.toml form fact ``folds``); a quoted name keeps its case."""
    q = gqlir.parse(
        'SELECT n FROM GRAPH_TABLE (g MATCH (a IS Person)-[IS knows]->(b IS "Person") '
        "COLUMNS (a.name AS n, b.name AS m))",
        form,
    )
    match = q.steps[1]  # type: ignore[attr-defined]
    labels = [match.patterns[0].path.elements[k].labels.name for k in (0, 2)]
    assert labels == [label, quoted]
    assert q.steps[-1].items[0].alias == (
        {"upper": "N", "lower": "n"}.get(gqlir.get_dialect(form).form.get("folds", ""), "n")
    )  # type: ignore[attr-defined]
    assert gqlir.parse(gqlir.emit(q, form), form) == q


@pytest.mark.parametrize(
    ("form", "quotient"),
    [("sqlpgq:oracle", 3.5), ("sqlpgq", 3.5), ("sqlpgq:duckdb", 3.5), ("sqlpgq:postgres", 3)],
)
def test_division_has_the_forms_meaning_and_reads_back(form: str, quotient: float) -> None:
    """Oracle's NUMBER quotient and DuckDB's / keep the fraction, PostgreSQL's integer / truncates;
    the form writes its own quotient back as it read it."""
    from gqlir.engines.reference import reference_graph
    from gqlir.eval import evaluate
    from gqlir.sqlmapping import mapping_for

    mapping = mapping_for("schemas/movies")
    text = (
        'SELECT x FROM GRAPH_TABLE (movies MATCH (m IS "Movie") WHERE m."title" = '
        "'The Tide Run 3' COLUMNS (7 / 2 AS x, m.\"released\" / 2 AS y))"
    )
    q = gqlir.parse(text, form, schema=mapping)
    graph = reference_graph("schemas/movies/graph", mapping.schema)
    ((value,),) = evaluate(q, graph).rows
    assert value == quotient and type(value) is type(quotient)
    assert gqlir.parse(gqlir.emit(q, form, schema=mapping), form, schema=mapping) == q
    cypher = gqlir.transpile(text, form, "neo4j", schema=mapping)
    assert ("toFloat(" in cypher) == isinstance(quotient, float), cypher
