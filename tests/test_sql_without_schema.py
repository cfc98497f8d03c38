"""SQL translated without ``--schema``: tables become node labels and joins value joins (reading),
or tables are derived from the query's labels (writing). Checked against SQLite itself."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from typing import Any

import pytest

import gqlir
from gqlir.cli import main
from gqlir.errors import SchemaError
from gqlir.eval import evaluate
from gqlir.eval.graph import Graph
from gqlir.schema.inferred import schema_of_query, tables_of_sql

ROWS: dict[str, tuple[tuple[str, ...], list[tuple[Any, ...]]]] = {
    "author": (("author_id", "name", "born"), [(1, "Ann", 1970), (2, "Bo", 1985), (3, "Cy", None)]),
    "book": (
        ("book_id", "title", "author_id", "price"),
        [(10, "A", 1, 12.5), (11, "B", 1, 8.0), (12, "C", 2, 20.0), (13, "D", None, 5.0)],
    ),
}

QUERIES = [
    "SELECT a.name, b.title FROM author a JOIN book b ON b.author_id = a.author_id",
    "SELECT a.name, count(*) AS n FROM author a JOIN book b ON b.author_id = a.author_id "
    "GROUP BY a.name",
    "SELECT a.name FROM author a LEFT JOIN book b ON b.author_id = a.author_id WHERE b.book_id IS NULL",
    "SELECT title FROM book WHERE price > 10",
    "SELECT a.name FROM author a WHERE a.author_id IN (SELECT author_id FROM book WHERE price > 15)",
    "SELECT b.title FROM book b, author a WHERE b.author_id = a.author_id AND a.born < 1980",
]


@pytest.fixture(scope="module")
def database() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    for table, (columns, rows) in ROWS.items():
        con.execute(f"CREATE TABLE {table} ({', '.join(columns)})")
        con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})", rows)
    return con


def _rows_as_nodes() -> Graph:
    """Each row a node labelled by its table, each non-null column a property: the graph the
    value-join reading means."""
    graph = Graph()
    for table, (columns, rows) in ROWS.items():
        for row in rows:
            props = {c: v for c, v in zip(columns, row, strict=True) if v is not None}
            graph.create_node([table], props)
    return graph


@pytest.mark.parametrize("sql", QUERIES)
def test_value_joins_give_the_rows_sqlite_gives(database: sqlite3.Connection, sql: str) -> None:
    expected = Counter(database.execute(sql).fetchall())
    query = gqlir.parse(sql, "sql:sqlite")
    result = evaluate(query, _rows_as_nodes())
    assert Counter(tuple(r) for r in result.rows) == expected
    # the Cypher text reads back to the same answer
    cypher = gqlir.transpile(sql, "sql:sqlite", "neo4j")
    again = evaluate(gqlir.parse(cypher, "neo4j"), _rows_as_nodes())
    assert Counter(tuple(r) for r in again.rows) == expected


def test_the_tables_read_are_the_ones_named() -> None:
    inferred = tables_of_sql(
        "WITH t AS (SELECT a.name AS n FROM author a) SELECT n FROM t JOIN book b ON b.x = 1 "
        "ORDER BY n",
        "sqlite",
    )
    assert inferred.describe() == "author(name), book(x)"


@pytest.mark.parametrize(
    ("sql", "column"),
    [
        ("SELECT name FROM author a JOIN book b ON b.author_id = a.author_id", 8),
        ("SELECT * FROM author", 8),
        ("SELECT a.* FROM author a", 10),
    ],
)
def test_what_only_a_schema_can_say_is_an_error_with_a_position(sql: str, column: int) -> None:
    with pytest.raises(SchemaError) as info:
        gqlir.parse(sql, "sql:sqlite")
    assert info.value.code == "SCHEMA_REQUIRED" and info.value.column == column


def test_writing_sql_derives_tables_from_labels(database: sqlite3.Connection) -> None:
    cypher = "MATCH (a:author)-[:WROTE]->(b:book) WHERE b.price > 10 RETURN a.name, b.title"
    schema = schema_of_query(gqlir.parse(cypher, "neo4j"))
    assert [n.label for n in schema.node_types] == ["author", "book"]
    (wrote,) = schema.edge_types
    assert [(e.source, e.target) for e in wrote.endpoints] == [("author", "book")]
    price = next(p for p in schema.node("book").properties if p.name == "price")
    assert price.type.kind.value == "FLOAT64" or price.type.kind.value == "INT64"
    sql = gqlir.transpile(cypher, "neo4j", "sql:sqlite")
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE author (id, name)")
    con.execute("CREATE TABLE book (id, title, price)")
    con.execute("CREATE TABLE WROTE (src_id, dst_id)")
    con.executemany("INSERT INTO author VALUES (?, ?)", [(1, "Ann"), (2, "Bo")])
    con.executemany("INSERT INTO book VALUES (?, ?, ?)", [(1, "A", 12), (2, "B", 8), (3, "C", 20)])
    con.executemany("INSERT INTO WROTE VALUES (?, ?)", [(1, 1), (1, 2), (2, 3)])
    assert sorted(con.execute(sql).fetchall()) == [("Ann", "A"), ("Bo", "C")]


def test_edge_properties_are_columns_of_the_edge_table() -> None:
    query = gqlir.parse("MATCH (a:A)-[r:R]->(b:B) WHERE r.since > 2000 RETURN r.w", "neo4j")
    (r,) = schema_of_query(query).edge_types
    assert {p.name: p.type.kind.value for p in r.properties} == {"since": "INT64", "w": "ANY"}


def test_unlabelled_endpoints_cannot_name_a_table() -> None:
    with pytest.raises(SchemaError, match="endpoint without a label"):
        schema_of_query(gqlir.parse("MATCH (a:author)-[:WROTE]->(b) RETURN b", "neo4j"))


def test_the_cli_says_which_mapping_it_used(capsys: pytest.CaptureFixture[str]) -> None:
    sql = "SELECT a.name FROM author a JOIN book b ON b.author_id = a.author_id"
    assert main(["translate", "--from", "sql", "--to", "iso-gql", sql]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == (
        "MATCH (a:author), (b:book) WHERE b.author_id = a.author_id RETURN a.name AS name"
    )
    assert "each join a value join" in out.err
    assert (
        main(["translate", "--json", "--from", "neo4j", "--to", "sql", "MATCH (n:x) RETURN n.a"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["tables"] == "derived-from-labels" and data["status"] == "ok"
    assert main(["translate", "--json", "--from", "neo4j", "--to", "iso-gql", "RETURN 1"]) == 0
    assert "tables" not in json.loads(capsys.readouterr().out)
