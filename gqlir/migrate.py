"""``gqlir migrate``: a relational database becomes a graph folder, losslessly.

A Text-to-SQL benchmark (Spider, BIRD) is a database plus SQL queries. Migrating the database
with the relational mapping (:func:`gqlir.schema.relational.to_graph`: rows of node tables become
nodes, foreign keys n:1 edges, association tables edges with properties) and keeping its DDL as
``source.sql`` gives a graph folder whose SQL queries still translate
(``gqlir translate --from sql:sqlite --to iso-gql --schema DIR``, which reads the mapping back
from ``source.sql``): the benchmark becomes a graph benchmark.

The folder is the kind ``schemas/`` holds: ``schema.json`` (the SchemaGraph), ``source.sql``
and ``graph/`` (JSON lines by default: every JSON value survives, where CSV cannot tell an empty
string from null). After writing, the graph is read back from the folder and rebuilt into rows
through the mapping; every table must give back exactly its rows (as a multiset, values compared
after the documented conversions: decimals as text, temporal values as ISO 8601 text, bytes as
base64). Anything that has no place in a graph (a row of an association table with a null
reference, a foreign key to a missing row) stops the migration with a
:class:`~gqlir.errors.SchemaError` naming the table: nothing is dropped silently. A foreign key
matches its row as the database compares them (SQLite's type affinity, :mod:`gqlir.sqlaffinity`);
``on_dangling="skip"`` leaves out references to no row and lists them in the report.

Sources: a SQLite file, a DuckDB file, or a ``postgresql://user@host:port/db`` URL (pg8000).
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import os
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlparse

from .errors import SchemaError
from .optional import require
from .schema.graphdata import hashable
from .schema.relational import ForeignKey, RelationalSchema, Table, topological
from .sqlaffinity import Affinity, column_affinity, comparison_converters

__all__ = [
    "MigrationReport",
    "connect",
    "database_kind",
    "migrate",
    "read_database_tables",
]

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
        return _tables(conn, dialect)
    finally:
        conn.close()


def _tables(conn: Any, dialect: str) -> RelationalSchema:
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


def _sqlite_affinities(conn: Any, rel: RelationalSchema) -> dict[str, dict[str, Affinity]]:
    """Each column's affinity, from the type SQLite has on record for it."""
    cur = conn.cursor()
    out: dict[str, dict[str, Affinity]] = {}
    for t in rel.tables:
        cur.execute("SELECT name, type FROM pragma_table_info(?)", (t.name,))
        out[t.name] = {name: column_affinity(declared) for name, declared in cur.fetchall()}
    return out


def _rows(conn: Any, table: Table, dialect: str) -> Iterator[tuple[Any, ...]]:
    from sqlglot import exp

    query = exp.select(*(exp.column(exp.to_identifier(c.name, quoted=True)) for c in table.columns))
    query = query.from_(exp.Table(this=exp.to_identifier(table.name, quoted=True)))
    cur = conn.cursor()
    cur.execute(query.sql(dialect=dialect))
    while True:
        batch = cur.fetchmany(4096)
        if not batch:
            return
        yield from (tuple(r) for r in batch)


# -- values --------------------------------------------------------------------------------------


def graph_value(v: Any) -> Any:
    """A database value as a graph-data (JSON) value: exact decimals as text, temporal values
    as ISO 8601 text, bytes as base64; a one-to-one conversion, so nothing is lost."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(v)).decode("ascii")
    if isinstance(v, (list, tuple)):
        return [graph_value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): graph_value(x) for k, x in v.items()}
    if isinstance(v, dt.timedelta):
        return _iso_duration(v)
    return str(v)


def _iso_duration(v: dt.timedelta) -> str:
    seconds = v.total_seconds()
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    days, rest = divmod(seconds, 86400)
    return f"{sign}P{int(days)}DT{rest:g}S"


# -- migration -----------------------------------------------------------------------------------


@dataclass
class MigrationReport:
    """What a migration wrote and what it checked."""

    out: str
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    checked: bool = False
    # edges whose foreign key matched its row only as SQLite compares them ('1' = 1): the graph
    # holds the referenced key's value
    matched_by_affinity: dict[str, int] = field(default_factory=dict)
    # references to no row left out (--on-dangling skip): table, row, edge, columns, values
    skipped: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": self.out,
            "nodes": self.nodes,
            "edges": self.edges,
            "rows": self.rows,
            "lossless": self.checked and not self.skipped,
            "matched_by_affinity": self.matched_by_affinity,
            "skipped": self.skipped,
        }


def migrate(
    source: str,
    out: str,
    *,
    name: str | None = None,
    layout: str = "jsonl",
    on_dangling: str = "fail",
) -> MigrationReport:
    """Migrate the database ``source`` into the graph folder ``out`` (see the module docstring);
    the folder must not exist yet or be empty. ``on_dangling="skip"`` leaves out references to
    no row and lists them in the report instead of stopping."""
    from .schema.formats import write as write_schema
    from .schema.formats.sql import tables_sql
    from .schema.graphdata import Edge, Node, write_csv, write_jsonl, write_parquet
    from .sqlmapping import SOURCE_DDL, SqlMapping

    if layout not in ("jsonl", "csv", "parquet"):
        raise SchemaError(f"unknown graph layout {layout!r}: jsonl, csv or parquet", code="MIGRATE")
    if on_dangling not in ("fail", "skip"):
        raise SchemaError(f"unknown --on-dangling {on_dangling!r}: fail or skip", code="MIGRATE")
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise SchemaError(f"{out!r} exists and is not an empty folder", code="MIGRATE")
    conn, dialect = connect(source)
    try:
        rel = _tables(conn, dialect)
        graph_name = name or os.path.splitext(os.path.basename(source.rstrip("/")))[0] or "graph"
        mapping = SqlMapping.from_tables(rel, graph_name)
        source_rows = {
            t.name: [tuple(graph_value(v) for v in r) for r in _rows(conn, t, dialect)]
            for t in topological(rel)
        }
        affinities = _sqlite_affinities(conn, rel) if dialect == "sqlite" else None
    finally:
        conn.close()

    refs = _References(affinities, on_dangling)
    nodes, edges = _to_graph_data(mapping, source_rows, refs)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "schema.json"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(write_schema(mapping.schema, "gqlir").text)
    with open(os.path.join(out, SOURCE_DDL), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(
            f"-- The tables of {os.path.basename(source)!s}, from which this graph was "
            "migrated by gqlir (the mapping SQL translation reads).\n"
        )
        fh.writelines(stmt + ";\n\n" for stmt in tables_sql(rel, "sqlite"))
    graph_dir = os.path.join(out, "graph")
    node_list = [Node(i, (label,), props) for i, label, props in nodes]
    edge_list = [Edge(label, s, t, props) for label, s, t, props in edges]
    if layout == "jsonl":
        write_jsonl(graph_dir, node_list, edge_list)
    elif layout == "csv":
        write_csv(graph_dir, mapping.schema, node_list, edge_list)
    else:
        write_parquet(graph_dir, mapping.schema, node_list, edge_list)

    report = MigrationReport(out)
    report.nodes = dict(Counter(label for _, label, _ in nodes))
    report.edges = dict(Counter(label for label, *_ in edges))
    report.rows = {t: len(r) for t, r in source_rows.items()}
    report.matched_by_affinity = dict(refs.by_affinity)
    report.skipped = refs.skipped
    _check_lossless(out, _expected_rows(mapping.tables.tables, source_rows, refs))
    report.checked = True
    return report


def _node_id(label: str, key: tuple[Any, ...], row_number: int) -> str:
    if not key:
        return f"{label}#{row_number}"
    if len(key) == 1:
        return f"{label}:{key[0]}"
    return f"{label}:{json.dumps(list(key), ensure_ascii=False, separators=(',', ':'))}"


@dataclass
class _References:
    """How foreign keys are matched to rows: by equality, or as SQLite compares them when
    ``affinities`` (table -> column -> affinity) are given; what did not match is skipped
    (and listed) or stops the migration."""

    affinities: dict[str, dict[str, Affinity]] | None
    on_dangling: str
    by_affinity: Counter[str] = field(default_factory=Counter)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    # the values a source row is compared with after the graph is read back
    expected: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    _converted: dict[tuple[Any, ...], dict[tuple[Any, ...], tuple[str, tuple[Any, ...]]]] = field(
        default_factory=dict
    )

    def find(
        self,
        keys: dict[tuple[Any, ...], str],
        ref_table: str,
        key_cols: tuple[str, ...],
        table: str,
        fk_cols: tuple[str, ...],
        values: tuple[Any, ...],
    ) -> tuple[str | None, tuple[Any, ...] | None]:
        """The node a reference points to, and the key values it matched when they differ
        from ``values`` (matched by SQLite's affinity)."""
        found = keys.get(values)
        if found is not None or self.affinities is None:
            return found, None
        pairs = [
            comparison_converters(self.affinities[table][f], self.affinities[ref_table][k])
            for f, k in zip(fk_cols, key_cols, strict=True)
        ]
        key_side = tuple(p[1] for p in pairs)
        cache = (id(keys), key_side)
        if cache not in self._converted:
            self._converted[cache] = {
                tuple(c(v) for c, v in zip(key_side, k, strict=True)): (nid, k)
                for k, nid in keys.items()
            }
        hit = self._converted[cache].get(tuple(p[0](v) for p, v in zip(pairs, values)))
        return (hit[0], hit[1]) if hit else (None, None)

    def expect(self, table: str, row: int, cols: tuple[str, ...], values: tuple[Any, ...]) -> None:
        self.expected.setdefault(table, {}).setdefault(row, {}).update(zip(cols, values))


def _to_graph_data(
    mapping: Any, rows: dict[str, list[tuple[Any, ...]]], refs: _References
) -> tuple[list[tuple[str, str, dict]], list[tuple[str, str, str, dict]]]:
    """Nodes ``(id, label, properties)`` and edges ``(label, source, target, properties)``."""
    nodes: list[tuple[str, str, dict]] = []
    index: dict[tuple[str, tuple[str, ...]], dict[tuple[Any, ...], str]] = defaultdict(dict)
    wanted: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for e in mapping.graph.edges:
        wanted[e.target].add(e.target_key)
        wanted[e.source].add(e.source_key)
    columns = {t.name: [c.name for c in t.columns] for t in mapping.tables.tables}
    row_ids: dict[str, list[str]] = {}
    for nmap in mapping.graph.nodes:
        cols = columns[nmap.table]
        seen: set[str] = set()
        for n, row in enumerate(rows[nmap.table], start=1):
            values = dict(zip(cols, row))
            nid = _node_id(nmap.label, tuple(values[c] for c in nmap.key_columns), n)
            if nid in seen:
                raise SchemaError(
                    f"table {nmap.table}: two rows have the key {nid!r}", code="MIGRATE_LOSS"
                )
            seen.add(nid)
            row_ids.setdefault(nmap.table, []).append(nid)
            props = {p: values[c] for p, c in nmap.columns if values[c] is not None}
            nodes.append((nid, nmap.label, props))
            for key_cols in wanted[nmap.label]:
                index[(nmap.label, key_cols)][tuple(values[c] for c in key_cols)] = nid
    edges: list[tuple[str, str, str, dict]] = []
    for e in mapping.graph.edges:
        cols = columns[e.table]
        for n, row in enumerate(rows[e.table], start=1):
            values = dict(zip(cols, row))
            edge = _edge(mapping, e, n, values, row_ids, index, refs)
            if edge is not None:
                edges.append(edge)
    return nodes, edges


def _edge(
    mapping: Any,
    e: Any,
    n: int,
    values: dict[str, Any],
    row_ids: dict[str, list[str]],
    index: dict[tuple[str, tuple[str, ...]], dict[tuple[Any, ...], str]],
    refs: _References,
) -> tuple[str, str, str, dict] | None:
    """The edge that row ``n`` of ``e``'s table makes, or None (a null or skipped reference)."""
    src_vals = tuple(values[c] for c in e.source_columns)
    dst_vals = tuple(values[c] for c in e.target_columns)
    if e.in_node_table and all(v is None for v in dst_vals):
        return None  # a null foreign key: no edge
    if any(v is None for v in src_vals + dst_vals):
        raise SchemaError(
            f"table {e.table}, row {n}: a reference with nulls cannot be an edge of {e.label}",
            code="MIGRATE_LOSS",
        )
    ends: list[str] = []
    for side, (label, key, fk_cols, vals) in enumerate(
        (
            (e.source, e.source_key, e.source_columns, src_vals),
            (e.target, e.target_key, e.target_columns, dst_vals),
        )
    ):
        if side == 0 and e.in_node_table:
            ends.append(row_ids[e.table][n - 1])  # the row's own node
            continue
        ref_table = mapping.graph.node(label).table
        nid, matched = refs.find(index[(label, key)], ref_table, key, e.table, fk_cols, vals)
        if matched is not None:
            refs.by_affinity[e.label] += 1
            refs.expect(e.table, n, fk_cols, matched)
        if nid is None:
            _dangling(refs, e, n, fk_cols, vals)
            return None
        ends.append(nid)
    props = {p: values[c] for p, c in e.columns if values[c] is not None}
    return (e.label, ends[0], ends[1], props)


def _dangling(
    refs: _References, e: Any, n: int, cols: tuple[str, ...], values: tuple[Any, ...]
) -> None:
    """A reference to no row: stop, or skip it and list it (the row then comes back from the
    graph without it: null columns, or no row of an association table)."""
    where = f"table {e.table}, row {n}: the {e.label} reference {values} points to no row"
    if refs.on_dangling != "skip":
        raise SchemaError(
            f"{where} (--on-dangling skip leaves it out and lists it)", code="MIGRATE_LOSS"
        )
    refs.skipped.append(
        {"table": e.table, "row": n, "edge": e.label, "columns": list(cols), "values": list(values)}
    )
    if e.in_node_table:
        refs.expect(e.table, n, e.target_columns, (None,) * len(e.target_columns))
    else:
        refs.expect(e.table, n, ("",), (_DROPPED,))


_DROPPED = object()  # marks an association-table row that the graph leaves out


def _expected_rows(
    tables: Any, source_rows: dict[str, list[tuple[Any, ...]]], refs: _References
) -> dict[str, list[tuple[Any, ...]]]:
    """The rows the graph must give back: the source rows, with a reference matched by affinity
    holding the key it matched, and a skipped one left out (both listed in the report)."""
    out = dict(source_rows)
    for t in tables:
        changes = refs.expected.get(t.name)
        if not changes:
            continue
        cols = [c.name for c in t.columns]
        rows: list[tuple[Any, ...]] = []
        for n, row in enumerate(source_rows[t.name], start=1):
            change = changes.get(n, {})
            if change.get("") is _DROPPED:
                continue
            rows.append(tuple(change.get(c, v) for c, v in zip(cols, row)))
        out[t.name] = rows
    return out


def _check_lossless(out: str, source_rows: dict[str, list[tuple[Any, ...]]]) -> None:
    """Read the folder back, rebuild every table's rows through the mapping, and compare."""
    from .schema.graphdata import iter_edges, iter_nodes
    from .sqlmapping import mapping_for

    mapping = mapping_for(out)
    graph = os.path.join(out, "graph")
    rebuilt: dict[str, list[dict[str, Any]]] = defaultdict(list)
    node_rows: dict[Any, dict[str, Any]] = {}
    for _, node in iter_nodes(graph, mapping.schema):
        nmap = mapping.node(node.labels[0])
        if nmap is None:
            raise SchemaError(f"node {node.id!r} has no table", code="MIGRATE_LOSS")
        row = {c: graph_value(node.properties.get(p)) for p, c in nmap.columns}
        node_rows[node.id] = row
        rebuilt[nmap.table].append(row)
    for _, edge in iter_edges(graph, mapping.schema):
        src, dst = node_rows[edge.source], node_rows[edge.target]
        for m in mapping.edges(edge.type):
            if m.in_node_table:
                src.update(zip(m.target_columns, (dst[c] for c in m.target_key)))
            else:
                row = dict(zip(m.source_columns, (src[c] for c in m.source_key)))
                row |= dict(zip(m.target_columns, (dst[c] for c in m.target_key)))
                row |= {c: graph_value(edge.properties.get(p)) for p, c in m.columns}
                rebuilt[m.table].append(row)
            break
    for t in mapping.tables.tables:
        cols = [c.name for c in t.columns]
        mine = Counter(tuple(hashable(r.get(c)) for c in cols) for r in rebuilt.get(t.name, []))
        theirs = Counter(tuple(hashable(v) for v in r) for r in source_rows.get(t.name, []))
        if mine != theirs:
            missing = sum((theirs - mine).values())
            extra = sum((mine - theirs).values())
            raise SchemaError(
                f"table {t.name}: the graph gives back {sum(mine.values())} rows for "
                f"{sum(theirs.values())} ({missing} missing or changed, {extra} unexpected)",
                code="MIGRATE_LOSS",
            )
