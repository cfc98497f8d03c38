"""``gqlir migrate``: a relational database becomes a graph folder whose rows come back exactly;
its SQL queries then translate through the folder (source.sql) and agree with the database."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import gqlir
from gqlir.cli import main
from gqlir.engines.reference import reference_graph
from gqlir.errors import SchemaError
from gqlir.eval import evaluate
from gqlir.migrate import database_kind, load_tables, migrate, read_database_tables
from gqlir.sqlcorpus import normalise
from gqlir.sqlmapping import mapping_for

ROOT = Path(__file__).resolve().parent.parent
BOOKSTORE = ROOT / "schemas" / "bookstore"


@pytest.fixture(scope="module")
def bookstore_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bookstore's data in a SQLite file laid out as its source.sql says."""
    path = str(tmp_path_factory.mktemp("db") / "bookstore.sqlite")
    con = sqlite3.connect(path)
    load_tables(con, mapping_for(str(BOOKSTORE)), str(BOOKSTORE / "graph"), "sqlite")
    con.close()
    return path


def test_a_sqlite_file_is_recognised(bookstore_db: str) -> None:
    assert database_kind(bookstore_db) == "sqlite"
    assert database_kind(str(BOOKSTORE / "schema.json")) is None
    tables = read_database_tables(bookstore_db)
    assert {t.name for t in tables.tables} == {
        "publisher",
        "author",
        "book",
        "book_author",
        "customer",
        "orders",
        "order_line",
    }


def test_migration_is_lossless_and_queries_still_translate(
    bookstore_db: str, tmp_path: Path
) -> None:
    out = tmp_path / "graph"
    report = migrate(bookstore_db, str(out))
    assert report.checked
    assert report.nodes == {
        "publisher": 20,
        "author": 150,
        "book": 300,
        "customer": 200,
        "orders": 400,
    }
    assert report.edges["book_author"] == 592
    assert sorted(os.listdir(out)) == ["graph", "schema.json", "source.sql"]
    # SQL written against the database reads through the folder and agrees on its data
    mapping = mapping_for(str(out))
    graph = reference_graph(str(out / "graph"), mapping.schema)
    con = sqlite3.connect(bookstore_db)
    for sql in (
        "SELECT T2.name, count(*) FROM book AS T1 JOIN publisher AS T2 "
        "ON T1.publisher_id = T2.publisher_id GROUP BY T2.publisher_id",
        "SELECT count(*) FROM customer AS C WHERE NOT EXISTS "
        "(SELECT 1 FROM orders AS O WHERE O.customer_id = C.customer_id)",
    ):
        expected = normalise(con.execute(sql).fetchall(), False)
        got = evaluate(gqlir.parse(sql, "sql:sqlite", schema=mapping), graph)
        assert normalise(got.rows, False) == expected, sql


def test_the_database_itself_is_a_schema_mapping(bookstore_db: str) -> None:
    out = gqlir.transpile(
        "SELECT count(*) FROM book_author AS A JOIN author AS B ON A.author_id = B.author_id",
        "sql:sqlite",
        "neo4j",
        schema=bookstore_db,
    )
    assert out == "MATCH (:book)-[A:book_author]->(B:author) RETURN count(*)"


def test_every_layout_round_trips(bookstore_db: str, tmp_path: Path) -> None:
    for layout in ("csv", "parquet"):
        if layout == "parquet":
            pytest.importorskip("pyarrow")
        assert migrate(bookstore_db, str(tmp_path / layout), layout=layout).checked


def _db(path: Path, ddl: str, rows: list[str]) -> str:
    con = sqlite3.connect(path)
    con.executescript(ddl)
    for stmt in rows:
        con.execute(stmt)
    con.commit()
    con.close()
    return str(path)


def test_a_dangling_foreign_key_stops_the_migration(tmp_path: Path) -> None:
    db = _db(
        tmp_path / "d.sqlite",
        "CREATE TABLE a (id INTEGER PRIMARY KEY);"
        "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a (id));",
        ["INSERT INTO a VALUES (1)", "INSERT INTO b VALUES (1, 1)", "INSERT INTO b VALUES (2, 9)"],
    )
    with pytest.raises(SchemaError) as info:
        migrate(db, str(tmp_path / "out"))
    assert info.value.code == "MIGRATE_LOSS"


def test_an_association_row_with_a_null_reference_stops_the_migration(tmp_path: Path) -> None:
    db = _db(
        tmp_path / "n.sqlite",
        "CREATE TABLE a (id INTEGER PRIMARY KEY);"
        "CREATE TABLE link (x INTEGER REFERENCES a (id), y INTEGER REFERENCES a (id));",
        ["INSERT INTO a VALUES (1)", "INSERT INTO link VALUES (1, NULL)"],
    )
    with pytest.raises(SchemaError) as info:
        migrate(db, str(tmp_path / "out"))
    assert info.value.code == "MIGRATE_LOSS"


def test_values_survive_exactly(tmp_path: Path) -> None:
    """Empty strings, nulls, floats and text that looks like a number come back as they were
    (JSON lines keep every JSON value; CSV could not tell '' from null)."""
    db = _db(
        tmp_path / "v.sqlite",
        "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, f REAL, n TEXT);",
        ["INSERT INTO t VALUES (1, '', 0.1, '007')", "INSERT INTO t VALUES (2, NULL, 1e300, NULL)"],
    )
    assert migrate(db, str(tmp_path / "out")).checked


def test_duckdb_files_migrate(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    path = str(tmp_path / "x.duckdb")
    con = duckdb.connect(path)
    con.execute("CREATE TABLE city (id INTEGER PRIMARY KEY, name VARCHAR, founded DATE)")
    con.execute(
        "CREATE TABLE person (id INTEGER PRIMARY KEY, name VARCHAR, "
        "city_id INTEGER REFERENCES city (id), score DECIMAL(5, 2))"
    )
    con.execute("INSERT INTO city VALUES (1, 'Oslo', DATE '1048-01-01')")
    con.execute("INSERT INTO person VALUES (1, 'Ann', 1, 3.25), (2, 'Bo', NULL, NULL)")
    con.close()
    assert database_kind(path) == "duckdb"
    report = migrate(path, str(tmp_path / "out"))
    assert report.edges == {"HAS_CITY": 1}


def test_the_cli_migrates_and_translates(
    bookstore_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g"
    assert main(["migrate", bookstore_db, "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lossless"] is True and data["rows"]["book"] == 300
    assert main(["migrate", bookstore_db, "--out", str(out)]) != 0  # not empty any more
    capsys.readouterr()
    code = main(
        [
            "translate",
            "--from",
            "sql:sqlite",
            "--to",
            "iso-gql",
            "--schema",
            str(out),
            "SELECT name FROM author WHERE author_id = 3",
        ]
    )
    assert code == 0
    assert capsys.readouterr().out.strip() == (
        "MATCH (author:author) WHERE author.author_id = 3 RETURN author.name AS name"
    )


# -- PostgreSQL ----------------------------------------------------------------------------------

from test_schema_engines import postgres  # noqa: E402,F401  (the fixture starts a server)


def test_postgres_databases_migrate(postgres: Any, tmp_path: Path) -> None:  # noqa: F811
    conn = postgres()
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS member, club")
    cur.execute("CREATE TABLE club (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    cur.execute(
        "CREATE TABLE member (id INTEGER PRIMARY KEY, club_id INTEGER NOT NULL "
        "REFERENCES club (id), joined DATE, fee NUMERIC(6, 2))"
    )
    cur.execute("INSERT INTO club VALUES (1, 'chess'), (2, 'go')")
    cur.execute("INSERT INTO member VALUES (1, 1, '2020-01-02', 10.50), (2, 2, NULL, NULL)")
    cur.execute("SELECT current_setting('port')")
    port = cur.fetchone()[0]
    conn.close()
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    report = migrate(url, str(tmp_path / "out"))
    assert report.nodes == {"club": 2, "member": 2} and report.edges == {"HAS_CLUB": 2}


def test_the_cli_says_it_read_sql_without_a_mapping(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translate", "--from", "sql:sqlite", "--to", "neo4j", "SELECT 1 AS x"]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == "RETURN 1 AS x"
    assert "no --schema" in out.err and "--schema" in out.err
