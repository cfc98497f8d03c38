"""Reading a relational database's tables: SQLite and DuckDB files, PostgreSQL URLs.

The table mapping (:func:`gqlir.sqlmapping.mapping_for`) reads a database's DDL through this
module, and so does the migration (:mod:`gqlir.migrate`), which also reads its rows.
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import Any
from urllib.parse import unquote, urlparse

from .errors import SchemaError
from .optional import require
from .schema.relational import ForeignKey, RelationalSchema, Table

__all__ = ["connect", "database_kind", "read_database_tables", "tables_of"]

_SQLITE_MAGIC = b"SQLite format 3\x00"
_POSTGRES_SCHEMES = ("postgresql", "postgres")


def database_kind(source: str) -> str | None:
    """``sqlite``, ``duckdb`` or ``postgres`` when ``source`` is a database (file or URL)."""
    if urlparse(source).scheme in _POSTGRES_SCHEMES:
        return "postgres"
    if not os.path.isfile(source):
        return None
    with open(source, "rb") as fh:
        head = fh.read(16)
    if head.startswith(_SQLITE_MAGIC):
        return "sqlite"
    if head[8:12] == b"DUCK":
        return "duckdb"
    return None


def connect(source: str) -> tuple[Any, str]:
    """A read-only DB-API connection to a database and its sqlglot dialect."""
    kind = database_kind(source)
    if kind == "sqlite":
        import sqlite3

        uri = "file:" + os.path.abspath(source) + "?mode=ro"
        return sqlite3.connect(uri, uri=True), "sqlite"
    if kind == "duckdb":
        duckdb = require("duckdb", extra="engines", purpose="reading a DuckDB database")
        return duckdb.connect(source, read_only=True), "duckdb"
    if kind == "postgres":
        pg = require("pg8000.dbapi", extra="engines", purpose="reading a PostgreSQL database")
        url = urlparse(source)
        conn = pg.connect(
            user=unquote(url.username or "postgres"),
            password=unquote(url.password) if url.password else None,
            host=url.hostname or "127.0.0.1",
            port=url.port or 5432,
            database=(url.path or "/postgres").lstrip("/") or "postgres",
        )
        return conn, "postgres"
    raise SchemaError(
        f"{source!r} is not a database gqlir can read (a SQLite or DuckDB file, or a "
        "postgresql:// URL)",
        code="MIGRATE",
    )


# -- reading tables ------------------------------------------------------------------------------


def read_database_tables(source: str) -> RelationalSchema:
    conn, dialect = connect(source)
    try:
        return tables_of(conn, dialect)
    finally:
        conn.close()


def tables_of(conn: Any, dialect: str) -> RelationalSchema:
    """The tables of a database: from its stored DDL (SQLite, DuckDB) or its catalog
    (PostgreSQL)."""
    from .schema.formats.sql import parse_tables

    if dialect == "postgres":
        return _postgres_tables(conn)
    if dialect == "sqlite":
        query = (
            "SELECT sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite_%' ORDER BY type DESC, rowid"
        )
    else:
        query = "SELECT sql FROM duckdb_tables() WHERE NOT internal ORDER BY table_name"
    cur = conn.cursor()
    cur.execute(query)
    tables: list[Table] = []
    indexes: list[tuple[str, tuple[str, ...]]] = []
    for (ddl,) in cur.fetchall():
        part = parse_tables(ddl, dialect)
        tables.extend(part.tables)
        if not part.tables:
            indexes.extend(_index_of(ddl, dialect))
    if indexes:
        by = {t.name.lower(): t for t in tables}
        for table, cols in indexes:
            t = by.get(table.lower())
            if t is not None and cols not in t.indexes:
                by[table.lower()] = Table(
                    t.name, t.columns, t.primary_key, t.foreign_keys, t.unique, t.indexes + (cols,)
                )
        tables = [by[t.name.lower()] for t in tables]
    return RelationalSchema(tuple(tables))


def _index_of(ddl: str, dialect: str) -> list[tuple[str, tuple[str, ...]]]:
    import sqlglot
    from sqlglot import exp

    out = []
    stmt = sqlglot.parse_one(ddl, read=dialect)
    if isinstance(stmt, exp.Create) and (stmt.args.get("kind") or "").upper() == "INDEX":
        idx = stmt.this
        params = idx.args.get("params")
        cols = tuple(c.name for c in (params.args.get("columns") or [])) if params else ()
        out.append((idx.args["table"].name, cols))
    return out


_PG_COLUMNS = """
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attnum
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attnum
"""

_PG_CONSTRAINTS = """
SELECT c.relname, con.contype, con.conkey, f.relname, con.confkey
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class f ON f.oid = con.confrelid
WHERE n.nspname = current_schema() AND con.contype IN ('p', 'f', 'u')
ORDER BY c.relname, con.conname
"""


def _postgres_tables(conn: Any) -> RelationalSchema:
    from sqlglot import exp

    from .schema.formats.sql import property_type
    from .schema.relational import Column

    cur = conn.cursor()
    cur.execute(_PG_COLUMNS)
    columns: dict[str, list[Column]] = defaultdict(list)
    attnames: dict[tuple[str, int], str] = {}
    for table, name, type_text, notnull, num in cur.fetchall():
        ptype = property_type(exp.DataType.build(type_text, dialect="postgres"), "postgres")
        columns[table].append(Column(name, ptype, nullable=not notnull))
        attnames[(table, num)] = name
    cur.execute(_PG_CONSTRAINTS)
    pk: dict[str, tuple[str, ...]] = {}
    fks: dict[str, list[ForeignKey]] = defaultdict(list)
    unique: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for table, kind, conkey, ref, confkey in cur.fetchall():
        cols = tuple(attnames[(table, k)] for k in conkey)
        if kind == "p":
            pk[table] = cols
        elif kind == "u":
            unique[table].append(cols)
        else:
            fks[table].append(ForeignKey(cols, ref, tuple(attnames[(ref, k)] for k in confkey)))
    return RelationalSchema(
        tuple(
            Table(
                name,
                tuple(cols),
                primary_key=pk.get(name, ()),
                foreign_keys=tuple(fks.get(name, ())),
                unique=tuple(unique.get(name, ())),
            )
            for name, cols in columns.items()
        )
    )
