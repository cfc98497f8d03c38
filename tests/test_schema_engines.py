"""Generated DDL runs on real engines, and every example graph loads into them.

SQLite (stdlib), DuckDB, Kuzu and grafeo run in process. PostgreSQL is started from the
machine's binaries (initdb / pg_ctl, as the ``postgres`` user when the tests run as root) on a
free port of 127.0.0.1 in a temporary directory, and stopped at the end; the tests that need
it are skipped, with the reason, when the binaries are not there.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

from gqlir.schema import SchemaGraph, load_schema
from gqlir.schema.formats import read, write
from gqlir.schema.graphdata import iter_edges, iter_nodes
from gqlir.schema.loaders import load_kuzu, load_sql
from gqlir.schema.relational import to_relational

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "schemas")
EXAMPLES = sorted(
    d for d in os.listdir(ROOT) if os.path.exists(os.path.join(ROOT, d, "schema.json"))
)
GOLDEN = os.path.join(HERE, "golden", "schema")


def example(name: str) -> tuple[SchemaGraph, str]:
    return load_schema(os.path.join(ROOT, name, "schema.json")), os.path.join(ROOT, name, "graph")


def golden_text(name: str) -> str:
    with open(os.path.join(GOLDEN, name), encoding="utf-8") as fh:
        return fh.read()


def statements(text: str) -> list[str]:
    return [s for s in (x.strip() for x in text.split(";\n")) if s]


def expected_rows(schema: SchemaGraph, graph: str) -> dict[str, int]:
    """Rows per table that loading ``graph`` must give (from the relational mapping)."""
    _, mapping = to_relational(schema)
    counts: dict[str, int] = {}
    labels = {}
    for _, n in iter_nodes(graph, schema):
        t = mapping.node(n.labels[0]).table  # type: ignore[union-attr]
        counts[t] = counts.get(t, 0) + 1
        labels[n.id] = n.labels[0]
    for _, e in iter_edges(graph, schema):
        for m in mapping.edge_tables(e.type):
            if m.in_node_table:
                break
            if (m.source, m.target) == (labels[e.source], labels[e.target]):
                counts[m.table] = counts.get(m.table, 0) + 1
                break
    return counts


# -- SQLite and DuckDB ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLES)
def test_sqlite_runs_the_ddl_and_loads_the_graph(name: str) -> None:
    schema, graph = example(name)
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys = ON")
    for stmt in statements(write(schema, "sql:sqlite", lossy=True).text):
        conn.execute(stmt)
    conn.close()
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys = ON")
    counts = load_sql(conn, schema, graph, "sqlite")
    for table, n in expected_rows(schema, graph).items():
        assert counts[table] == n
        assert conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] == n
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_duckdb_runs_the_ddl_and_loads_the_graph(name: str) -> None:
    duckdb = pytest.importorskip("duckdb")
    schema, graph = example(name)
    conn = duckdb.connect()
    for stmt in statements(write(schema, "sql:duckdb", lossy=True).text):
        conn.execute(stmt)
    conn.close()
    conn = duckdb.connect()
    load_sql(conn, schema, graph, "duckdb")
    for table, n in expected_rows(schema, graph).items():
        assert conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] == n


def test_duckdb_keeps_the_types() -> None:
    duckdb = pytest.importorskip("duckdb")
    schema, graph = example("finance")
    conn = duckdb.connect()
    load_sql(conn, schema, graph, "duckdb")
    cols = dict(
        conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'transfer'"
        ).fetchall()
    )
    assert cols["createTime"] == "TIMESTAMP WITH TIME ZONE"
    assert cols["amount"] == "DECIMAL(18,2)"
    total = conn.execute('SELECT sum("amount") FROM "transfer"').fetchone()[0]
    assert str(total).count(".") == 1  # exact decimal arithmetic


@pytest.mark.parametrize("fmt", ["sql:sqlite", "sql:duckdb"])
def test_golden_ddl_runs(fmt: str) -> None:
    text = golden_text(fmt.replace(":", "_") + ".txt")
    if fmt == "sql:sqlite":
        conn: Any = sqlite3.connect(":memory:")
    else:
        conn = pytest.importorskip("duckdb").connect()
    ddl = statements(text)
    creates = [st for st in ddl if st.upper().startswith("CREATE TABLE")]
    assert creates, "the golden DDL creates tables"
    for stmt in ddl:
        conn.execute(stmt)
    if fmt == "sql:sqlite":
        query = "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
    else:
        query = "SELECT count(*) FROM information_schema.tables"
    assert conn.execute(query).fetchone()[0] == len(creates)


def test_sqlpgq_tables_run_on_duckdb() -> None:
    duckdb = pytest.importorskip("duckdb")
    text = write(example("social")[0], "sqlpgq:duckdb", lossy=True).text
    conn = duckdb.connect()
    tables = [s for s in statements(text) if not s.startswith("CREATE PROPERTY GRAPH")]
    assert len(tables) < len(statements(text))
    for stmt in tables:
        conn.execute(stmt)


# -- PostgreSQL ----------------------------------------------------------------------------------


def _pg_bin() -> str | None:
    found = shutil.which("pg_ctl")
    if found:
        return os.path.dirname(found)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return os.path.dirname(candidates[0]) if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    pg8000 = pytest.importorskip("pg8000.dbapi")
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) are not installed")
    as_root = os.geteuid() == 0
    if as_root:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run initdb as")
    tmp = tempfile.mkdtemp(prefix="gqlir-pg-")
    user = "postgres" if as_root else None
    if as_root:
        shutil.chown(tmp, "postgres")
    data = os.path.join(tmp, "data")
    port = _free_port()
    run = dict(check=True, capture_output=True, user=user, timeout=120)
    try:
        subprocess.run(
            [os.path.join(bindir, "initdb"), "-A", "trust", "-U", "postgres", "-D", data], **run
        )
        subprocess.run(
            [
                os.path.join(bindir, "pg_ctl"),
                "-D",
                data,
                "-l",
                os.path.join(tmp, "log"),
                "-w",
                "-o",
                f"-p {port} -h 127.0.0.1 -k {tmp}",
                "start",
            ],
            **run,
        )
    except (subprocess.CalledProcessError, OSError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        pytest.skip(f"could not start PostgreSQL: {exc}")
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = pg8000.connect(
                    user="postgres", host="127.0.0.1", port=port, database="postgres"
                )
                conn.close()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield lambda: pg8000.connect(
            user="postgres", host="127.0.0.1", port=port, database="postgres"
        )
    finally:
        subprocess.run(
            [os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "immediate", "stop"],
            capture_output=True,
            user=user,
            timeout=60,
        )
        shutil.rmtree(tmp, ignore_errors=True)


def _fresh(connect: Any, schema_name: str) -> Any:
    conn = connect()
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute(f'DROP SCHEMA IF EXISTS "{schema_name}" CASCADE')
    cur.execute(f'CREATE SCHEMA "{schema_name}"')
    cur.execute(f'SET search_path TO "{schema_name}"')
    conn.autocommit = False
    return conn


@pytest.mark.parametrize("name", EXAMPLES)
def test_postgres_runs_the_ddl_and_loads_the_graph(postgres: Any, name: str) -> None:
    schema, graph = example(name)
    conn = _fresh(postgres, f"ddl_{name}")
    cur = conn.cursor()
    for stmt in statements(write(schema, "sql:postgres", lossy=True).text):
        cur.execute(stmt)
    conn.commit()
    conn.close()
    conn = _fresh(postgres, f"load_{name}")
    load_sql(conn, schema, graph, "postgres")
    cur = conn.cursor()
    for table, n in expected_rows(schema, graph).items():
        cur.execute(f'SELECT count(*) FROM "{table}"')
        assert cur.fetchone()[0] == n
    conn.close()


def test_postgres_runs_the_golden_ddl(postgres: Any) -> None:
    conn = _fresh(postgres, "golden")
    cur = conn.cursor()
    for stmt in statements(golden_text("sql_postgres.txt")):
        cur.execute(stmt)
    conn.commit()
    cur.execute(
        "SELECT data_type FROM information_schema.columns WHERE table_schema = 'golden' "
        "AND table_name = 'Member' AND column_name = 'last_seen'"
    )
    assert cur.fetchone()[0] == "timestamp with time zone"
    conn.close()


# -- Kuzu ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLES)
def test_kuzu_runs_the_ddl_and_loads_the_graph(name: str) -> None:
    kuzu = pytest.importorskip("kuzu")
    schema, graph = example(name)
    conn = kuzu.Connection(kuzu.Database(":memory:"))
    counts = load_kuzu(conn, schema, graph)
    nodes = sum(1 for _ in iter_nodes(graph, schema))
    edges = sum(1 for _ in iter_edges(graph, schema))
    got_nodes = conn.execute("MATCH (n) RETURN count(n)").get_next()[0]
    got_edges = conn.execute("MATCH ()-[r]->() RETURN count(r)").get_next()[0]
    assert (got_nodes, got_edges) == (nodes, edges)
    assert sum(counts.values()) == nodes + edges


def test_kuzu_reads_back_what_it_was_given() -> None:
    kuzu = pytest.importorskip("kuzu")
    text = golden_text("kuzu.txt")
    conn = kuzu.Connection(kuzu.Database(":memory:"))
    for stmt in statements(text):
        conn.execute(stmt)
    tables = {row[1]: row[2] for row in conn.execute("CALL show_tables() RETURN *").get_all()}
    schema = read(text, "kuzu", name="library")
    assert set(tables) == set(schema.node_labels) | set(schema.edge_labels)
    conn.execute("MATCH (m:Member) RETURN m.last_seen")  # the typed columns exist
    info = {r[1]: r[2] for r in conn.execute("CALL table_info('Member') RETURN *").get_all()}
    assert info["last_seen"] == "TIMESTAMP_TZ"


# -- ISO GQL graph types on grafeo ---------------------------------------------------------------

# grafeo 0.6 accepts only these value types in a graph type (its own error message lists them).
GRAFEO_TYPES = {
    "STRING",
    "INT64",
    "FLOAT64",
    "BOOLEAN",
    "DECIMAL",
    "DATE",
    "ZONED DATETIME",
    "LOCAL DATETIME",
    "DURATION",
    "LIST",
    "BYTES",
}


def _grafeo_can_take(schema: SchemaGraph) -> bool:
    from gqlir.schema.types import GQL

    def ok(t: Any) -> bool:
        text = GQL.render(t)
        head = text.split("<")[0].split("(")[0]
        return head in GRAFEO_TYPES and (t.element is None or ok(t.element))

    return all(ok(p.type) for el in schema.elements() for p in el.properties)


@pytest.mark.parametrize("name", EXAMPLES)
def test_grafeo_accepts_the_graph_types(name: str) -> None:
    grafeo = pytest.importorskip("grafeo")
    schema, _ = example(name)
    db = grafeo.GrafeoDB()
    text = write(schema, "gql", lossy=True).text
    if not _grafeo_can_take(schema):
        # INT32 is an ISO GQL type grafeo 0.6 does not take: the graph type stays refused
        with pytest.raises(Exception, match="INT32"):
            db.execute(text)
        return
    assert all(f"{t.label}" in text for t in schema.node_types)
    db.execute(text)


def test_grafeo_enforces_the_graph_type() -> None:
    grafeo = pytest.importorskip("grafeo")
    schema, _ = example("movies")
    db = grafeo.GrafeoDB()
    db.execute(write(schema, "gql", lossy=True).text)
    db.execute("INSERT (:Movie {title: 'Up', released: 2009})")
    with pytest.raises(Exception, match="released"):
        db.execute("INSERT (:Movie {title: 'Down', released: 'last year'})")
