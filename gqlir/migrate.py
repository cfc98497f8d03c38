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

from .databases import connect, database_kind, read_database_tables, tables_of
from .errors import SchemaError
from .schema.graphdata import hashable
from .schema.relational import NodeTable, RelationalSchema, Table, topological
from .sqlaffinity import Affinity, column_affinity, comparison_converters
from .sqlmapping import SOURCE_DDL, SqlMapping, mapping_for

__all__ = [
    "MigrationReport",
    "connect",
    "database_kind",
    "load_tables",
    "migrate",
    "read_database_tables",
]


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

    if layout not in ("jsonl", "csv", "parquet"):
        raise SchemaError(f"unknown graph layout {layout!r}: jsonl, csv or parquet", code="MIGRATE")
    if on_dangling not in ("fail", "skip"):
        raise SchemaError(f"unknown --on-dangling {on_dangling!r}: fail or skip", code="MIGRATE")
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise SchemaError(f"{out!r} exists and is not an empty folder", code="MIGRATE")
    conn, dialect = connect(source)
    try:
        rel = tables_of(conn, dialect)
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


# -- a graph's data into the tables of a mapping ---------------------------------------------------


def load_tables(
    connection: Any, mapping: SqlMapping, directory: str, dialect: str
) -> dict[str, int]:
    """Create the mapping's tables on a DB-API ``connection`` (``sqlite``, ``duckdb``,
    ``postgres``) and fill them with the graph in ``directory``; returns rows per table.

    Unlike :func:`gqlir.schema.loaders.load_sql`, which stores a graph in gqlir's own layout,
    this follows any mapping, including one read from the tables a graph was derived from, so
    SQL written against a real database runs on the graph's data."""
    from sqlglot import exp

    from .schema.formats import sql as sql_format
    from .schema.graphdata import iter_edges, iter_nodes
    from .schema.loaders import _sql_value

    ordered = topological(mapping.tables)
    cur = connection.cursor()
    for t in ordered:
        cur.execute(sql_format.create_table(t, dialect).sql(dialect=dialect))
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_id: dict[Any, tuple[NodeTable, dict[str, Any]]] = {}
    serial: dict[str, int] = defaultdict(int)
    for _, node in iter_nodes(directory, mapping.schema):
        nmap = mapping.node(node.labels[0])
        if nmap is None:
            raise SchemaError(f"node {node.id!r}: no table for {node.labels[0]}", code="GRAPH_LOAD")
        row = {col: node.properties.get(prop) for prop, col in nmap.columns}
        if nmap.surrogate_key:
            serial[nmap.label] += 1
            row[nmap.key_columns[0]] = serial[nmap.label]
        rows[nmap.table].append(row)
        by_id[node.id] = (nmap, row)
    for _, edge in iter_edges(directory, mapping.schema):
        if edge.source not in by_id or edge.target not in by_id:
            raise SchemaError(f"edge {edge.type}: unknown endpoint", code="GRAPH_LOAD")
        (smap, srow), (tmap, trow) = by_id[edge.source], by_id[edge.target]
        for m in mapping.edges(edge.type):
            if m.source != smap.label or m.target != tmap.label:
                continue
            src_key = dict(zip(m.source_columns, (srow[c] for c in m.source_key)))
            dst_key = dict(zip(m.target_columns, (trow[c] for c in m.target_key)))
            if m.in_node_table:
                srow.update(dst_key)
            else:
                props = {col: edge.properties.get(prop) for prop, col in m.columns}
                rows[m.table].append(src_key | dst_key | props)
            break
        else:
            raise SchemaError(
                f"edge {edge.type} ({smap.label})->({tmap.label}) has no table", code="GRAPH_LOAD"
            )
    counts: dict[str, int] = {}
    for t in ordered:
        data = rows.get(t.name, [])
        counts[t.name] = len(data)
        if not data:
            continue
        cols = [c.name for c in t.columns]
        insert = exp.insert(
            exp.Values(expressions=[exp.Tuple(expressions=[exp.Placeholder() for _ in cols])]),
            exp.Table(this=exp.Identifier(this=t.name, quoted=True)),
            columns=[exp.Identifier(this=c, quoted=True) for c in cols],
        ).sql(dialect=dialect)
        types = {c.name: c.type for c in t.columns}
        cur.executemany(
            insert, [tuple(_sql_value(r.get(c), types[c], dialect) for c in cols) for r in data]
        )
    connection.commit()
    return counts
