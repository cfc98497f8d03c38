"""Typical Text-to-Cypher queries (corpus/cypher-sql/typical.jsonl) written as SQL and SQL/PGQ.

Each target's text (or its refusal) is a golden file (tests/golden/sql, rewritten by its
regen.py); every SQL translation runs on the real engine (SQLite, DuckDB, PostgreSQL) over the
example graph loaded through the schema's table mapping and must give the reference evaluator's
answer; every SQL/PGQ translation must read back to a query with that answer.
"""

from __future__ import annotations

import importlib.util
import os
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import pytest

from gqlir import emit, parse, transpile
from gqlir.engines.postgres import _positional
from gqlir.engines.reference import reference_graph
from gqlir.errors import UnsupportedError
from gqlir.eval import evaluate
from gqlir.migrate import load_tables
from gqlir.sqlcorpus import normalise
from gqlir.sqlmapping import SqlMapping, mapping_for

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
_spec = importlib.util.spec_from_file_location(
    "regen", os.path.join(HERE, "golden", "sql", "regen.py")
)
regen = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(regen)  # type: ignore[union-attr]
TYPICAL = regen.typical()
IDS = [e["id"] for e in TYPICAL]
SCHEMAS = sorted({e["schema"] for e in TYPICAL})


@pytest.mark.parametrize("target", regen.TARGETS)
def test_each_target_writes_its_golden_text(target: str) -> None:
    with open(regen.file_name(target), encoding="utf-8") as fh:
        assert regen.golden_text(target) == fh.read()


@pytest.fixture(scope="module")
def graphs() -> dict[str, tuple[SqlMapping, Any]]:
    out = {}
    for schema in SCHEMAS:
        folder = os.path.join(ROOT, schema)
        mapping = mapping_for(folder)
        out[schema] = (mapping, reference_graph(os.path.join(folder, "graph"), mapping.schema))
    return out


def _expected(entry: dict, graphs: dict) -> Any:
    _, graph = graphs[entry["schema"]]
    result = evaluate(parse(entry["cypher"], "neo4j"), graph, entry.get("params"))
    return normalise(result.rows, bool(entry.get("ordered")))


@pytest.fixture(scope="module")
def engines(
    graphs: dict, postgres_server: Any
) -> Iterator[dict[str, Callable[[str, dict, str], list]]]:
    """Per flavour, a function running SQL text (with parameters) on that engine over the
    graph of a schema."""
    from gqlir.engines import open_engine

    lite: dict[str, Any] = {}
    duck: dict[str, Any] = {}
    pg: dict[str, Any] = {}
    for k, schema in enumerate(SCHEMAS):
        mapping, _ = graphs[schema]
        folder = os.path.join(ROOT, schema, "graph")
        lite[schema] = sqlite3.connect(":memory:")
        load_tables(lite[schema], mapping, folder, "sqlite")
        duck[schema] = duckdb.connect()
        load_tables(duck[schema], mapping, folder, "duckdb")
        engine = open_engine(
            "postgres", url=postgres_server.url, schema=f"typical_{os.getpid()}_{k}", fresh=True
        )
        load_tables(engine.connection(), mapping, folder, "postgres")
        pg[schema] = engine

    def run_pg(text: str, params: dict, schema: str) -> list:
        cur = pg[schema].connection().cursor()
        cur.execute(*_positional(text, params)) if params else cur.execute(text)
        return cur.fetchall()

    yield {
        "sqlite": lambda text, params, schema: lite[schema].execute(text, params).fetchall(),
        "duckdb": lambda text, params, schema: duck[schema].execute(text, params).fetchall(),
        "postgres": run_pg,
    }
    for c in (*lite.values(), *duck.values(), *pg.values()):
        c.close()


#: Further queries for the corners of the same constructs: nulls and no rows in collect(),
#: nulls and no elements in UNWIND, element equality over a composite key, count(DISTINCT r).
CORNERS = [
    {
        "id": "collect-empty-and-ordered",
        "schema": "schemas/movies",
        "cypher": "MATCH (m:Movie) WHERE m.released < 1962 OPTIONAL MATCH (m)<-[:WROTE]-(p:Person) "
        "WITH m, p ORDER BY p.name DESC RETURN m.title AS t, collect(p.name) AS writers ORDER BY t",
        "ordered": True,
    },
    {
        "id": "collect-skips-nulls",
        "schema": "schemas/movies",
        "cypher": "MATCH (m:Movie)-[:IN_GENRE]->(g:Genre) "
        "RETURN g.name AS g, size(collect(m.tagline)) AS n, count(*) AS rows",
    },
    {
        "id": "collect-of-nothing",
        "schema": "schemas/movies",
        "cypher": "MATCH (m:Movie) WHERE m.released > 3000 RETURN collect(m.title) AS l",
    },
    {
        "id": "unwind-nulls",
        "schema": "schemas/movies",
        "cypher": "UNWIND [1, null, 3] AS x RETURN x",
    },
    {
        "id": "unwind-null-parameter",
        "schema": "schemas/movies",
        "cypher": "UNWIND $l AS x RETURN count(*) AS n",
        "params": {"l": None},
    },
    {
        "id": "unwind-nothing",
        "schema": "schemas/movies",
        "cypher": "UNWIND [] AS x RETURN count(*) AS n",
    },
    {
        "id": "edge-equality-composite-key",
        "schema": "schemas/movies",
        "cypher": "MATCH (p:Person)-[r:ACTED_IN]->(m:Movie) WITH r, m "
        "MATCH (q:Person)-[s:ACTED_IN]->(m) RETURN count(*) AS pairs, "
        "sum(CASE WHEN r = s THEN 1 ELSE 0 END) AS same, "
        "sum(CASE WHEN r <> s THEN 1 ELSE 0 END) AS other",
    },
    {
        "id": "count-distinct-edges",
        "schema": "schemas/bookstore",
        "cypher": "MATCH (a:author)<-[r:book_author]-(b:book)<-[:order_line]-(o:orders) "
        "RETURN count(r) AS lines, count(DISTINCT r) AS authorships",
    },
]


@pytest.mark.parametrize("flavour", ["sqlite", "duckdb", "postgres"])
@pytest.mark.parametrize("entry", TYPICAL + CORNERS, ids=IDS + [c["id"] for c in CORNERS])
def test_sql_translations_give_the_reference_answer_on_the_engine(
    entry: dict, flavour: str, graphs: dict, engines: dict
) -> None:
    mapping, _ = graphs[entry["schema"]]
    try:
        text = emit(parse(entry["cypher"], "neo4j"), f"sql:{flavour}", schema=mapping)
    except UnsupportedError as exc:
        assert flavour == "sqlite" or exc.construct == "UNWIND of a parameter"
        return
    rows = [tuple(r) for r in engines[flavour](text, entry.get("params") or {}, entry["schema"])]
    assert normalise(rows, bool(entry.get("ordered"))) == _expected(entry, graphs), text


@pytest.mark.parametrize("target", ["sqlpgq", "sqlpgq:duckdb", "sqlpgq:postgres"])
@pytest.mark.parametrize("entry", TYPICAL, ids=IDS)
def test_sqlpgq_translations_read_back_to_the_same_answer(
    entry: dict, target: str, graphs: dict, engines: dict
) -> None:
    """Read back by gqlir's SQL/PGQ reader where it reads the SQL around the graph table; a
    pipeline's SQL (ARRAY_AGG … FILTER, UNNEST) runs on the flavour's engine instead, with each
    GRAPH_TABLE expanded into the SQL of its MATCH and COLUMNS."""
    mapping, graph = graphs[entry["schema"]]
    try:
        text = emit(parse(entry["cypher"], "neo4j"), target, schema=mapping)
    except UnsupportedError:
        return  # the golden file holds the refusal
    ordered = bool(entry.get("ordered"))
    if " AS gt1" not in text and ' AS "gt1"' not in text:
        back = evaluate(parse(text, target, schema=mapping), graph, entry.get("params"))
        assert normalise(back.rows, ordered) == _expected(entry, graphs), text
        return
    flavour = "postgres" if target == "sqlpgq:postgres" else "duckdb"
    sql = _expand_graph_tables(text, target, flavour, mapping)
    rows = [tuple(r) for r in engines[flavour](sql, entry.get("params") or {}, entry["schema"])]
    assert normalise(rows, ordered) == _expected(entry, graphs), sql


#: An UNWIND before the MATCH, written as the unwound rows joined with the GRAPH_TABLE: duplicate
#: elements give duplicate rows, null elements and empty or null lists give none; comparisons
#: from a property map, an element WHERE and the MATCH's WHERE, an anonymous element, two UNWINDs.
PGQ_UNWIND_CORNERS = [
    {
        "id": "unwind-join-duplicates-and-nulls",
        "schema": "schemas/movies",
        "cypher": "UNWIND ['The Tide Run 3', null, 'The Tide Run 3', 'No Such Film', "
        "'The Prism Garden 0'] AS t MATCH (m:Movie {title: t}) RETURN m.title AS title, t",
    },
    {
        "id": "unwind-join-empty",
        "schema": "schemas/movies",
        "cypher": "UNWIND [] AS t MATCH (m:Movie {title: t}) RETURN count(*) AS n",
    },
    {
        "id": "unwind-join-parameter-duplicates-and-nulls",
        "schema": "schemas/movies",
        "cypher": "UNWIND $names AS name MATCH (p:Person)-[:DIRECTED]->(m:Movie) "
        "WHERE p.name = name RETURN name, m.title AS title",
        "params": {"names": ["Wei Diaz 398", None, "Wei Diaz 398", "Ada Zhou 32"]},
    },
    {
        "id": "unwind-join-null-parameter",
        "schema": "schemas/movies",
        "cypher": "UNWIND $names AS name MATCH (p:Person {name: name}) RETURN count(*) AS n",
        "params": {"names": None},
    },
    {
        "id": "unwind-join-element-where-and-range",
        "schema": "schemas/movies",
        "cypher": "UNWIND [1950, 1955, 1955] AS y MATCH (m:Movie WHERE m.released >= y) "
        "WHERE m.released < y + 2 RETURN y, m.title AS title",
    },
    {
        "id": "unwind-join-anonymous-element",
        "schema": "schemas/movies",
        "cypher": "UNWIND ['Drama', 'Drama', 'Western'] AS g "
        "MATCH (m:Movie)-[:IN_GENRE]->(:Genre {name: g}) WHERE m.released < 1960 "
        "RETURN g, m.title AS title",
    },
    {
        "id": "unwind-join-two-lists",
        "schema": "schemas/movies",
        "cypher": "UNWIND [1, 2, 2] AS a UNWIND [1952, null] AS y "
        "MATCH (m:Movie {released: y}) RETURN a, m.title AS title",
    },
]


@pytest.mark.parametrize("target", ["sqlpgq", "sqlpgq:duckdb", "sqlpgq:postgres"])
@pytest.mark.parametrize("entry", PGQ_UNWIND_CORNERS, ids=[c["id"] for c in PGQ_UNWIND_CORNERS])
def test_sqlpgq_unwind_joins_give_the_reference_answer_on_the_engine(
    entry: dict, target: str, graphs: dict, engines: dict
) -> None:
    mapping, _ = graphs[entry["schema"]]
    try:
        text = emit(parse(entry["cypher"], "neo4j"), target, schema=mapping)
    except UnsupportedError as exc:
        # PostgreSQL cannot type UNNEST of a parameter (as for sql:postgres)
        assert (target, exc.construct) == ("sqlpgq:postgres", "UNWIND of a parameter")
        return
    assert " AS gt1" in text or ' AS "gt1"' in text, text
    flavour = "postgres" if target == "sqlpgq:postgres" else "duckdb"
    sql = _expand_graph_tables(text, target, flavour, mapping)
    rows = [tuple(r) for r in engines[flavour](sql, entry.get("params") or {}, entry["schema"])]
    assert normalise(rows, False) == _expected(entry, graphs), sql


def _expand_graph_tables(text: str, target: str, flavour: str, mapping: SqlMapping) -> str:
    """``text`` with each ``GRAPH_TABLE (…)`` replaced by the flavour's SQL for its MATCH and
    COLUMNS (as gqlir reads them), so that an engine without SQL/PGQ runs the rest."""
    from gqlir import ir
    from gqlir.dialect import get_dialect
    from gqlir.parser.sqlpgq import split_graph_tables

    outer, tables = split_graph_tables(text, get_dialect(target))
    for name, table in tables.items():
        query = ir.LinearQuery((table.match, ir.Projection(table.columns)))
        inner = emit(query, f"sql:{flavour}", schema=mapping)
        for quoted in (f'"{name}"', f"`{name}`"):
            outer = outer.replace(quoted, f"({inner})")
    if target == "sqlpgq":  # the standard form's SQL is sqlglot's generic SQL
        import sqlglot

        outer = sqlglot.transpile(outer, write=flavour)[0]
    return outer


def test_duckdb_and_postgres_write_every_typical_query_they_can() -> None:
    """The comparison above must exercise the engines: DuckDB writes all ten, PostgreSQL all
    but an UNWIND of a parameter (it cannot type the list's elements)."""
    refused = {
        target: {e["id"] for e in TYPICAL if regen.translation(e, target).startswith("REFUSED")}
        for target in ("sql:duckdb", "sql:postgres")
    }
    assert refused == {"sql:duckdb": set(), "sql:postgres": {"t06-unwind-parameter"}}


def test_a_gql_cast_is_refused_for_sql_with_its_reason() -> None:
    """A CAST read from GQL is refused for a SQL target by name, saying why (the engines
    convert values each in their own way), not as a node the printer cannot render."""
    with pytest.raises(UnsupportedError) as refused:
        transpile("MATCH (n:Person) RETURN CAST(n.age AS STRING) AS a", "iso-gql", "sql:duckdb")
    assert refused.value.construct == "CAST" and refused.value.id == "cast"
    assert "CAST to STRING" in refused.value.message and "own way" in refused.value.message
