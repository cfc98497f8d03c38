"""Load a graph directory (:mod:`gqlir.schema.graphdata`) into an embedded engine, through the
DDL gqlir writes for it: SQL engines (SQLite, DuckDB, PostgreSQL) through the table layout of
:mod:`gqlir.schema.relational`, Kuzu through its node and rel tables.

Statements are built structurally (sqlglot expressions for SQL, quoted identifiers for Kuzu) and
every value is a query parameter, so no value can change a statement. These loaders exist so
tests and benchmarks can put the example graphs into real engines; the engine adapters reuse
them.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
from collections import defaultdict
from typing import Any

from ..errors import SchemaError
from ..optional import require
from .formats import kuzu as kuzu_format
from .formats import sql as sql_format
from .graphdata import iter_edges, iter_nodes
from .model import SchemaGraph
from .relational import Table, to_relational, topological
from .types import PropertyType, TypeKind

K = TypeKind


def python_value(v: Any, t: PropertyType | None) -> Any:
    """A graph-data value as the Python value a driver binds for the schema type ``t``:
    ``datetime`` objects for temporal types, ``Decimal`` for decimals, JSON text for maps,
    points and JSON values (property graphs store no nested maps)."""
    if v is None or t is None:
        return v
    k = t.kind
    if isinstance(v, str):
        if k == K.DATE:
            return dt.date.fromisoformat(v)
        if k in (K.DATETIME, K.LOCAL_DATETIME):
            return dt.datetime.fromisoformat(v)
        if k in (K.TIME, K.LOCAL_TIME):
            return dt.time.fromisoformat(v)
        if k == K.DECIMAL:
            return decimal.Decimal(v)
    if k == K.DECIMAL and isinstance(v, (int, float)):
        return decimal.Decimal(str(v))
    if k == K.LIST and isinstance(v, list) and t.element is not None:
        return [python_value(x, t.element) for x in v]
    if k in (K.MAP, K.JSON, K.POINT) and not isinstance(v, str):
        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    return v


def _sql_value(v: Any, t: PropertyType, dialect: str) -> Any:
    """A graph-data value as the DB-API driver of ``dialect`` should bind it: SQLite takes
    JSON text for structured values; elsewhere a list the dialect stores as JSON is JSON text."""
    if v is None:
        return None
    k = t.kind
    if dialect == "sqlite":
        if isinstance(v, (list, dict)):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, bool):
            return int(v)
        return v
    if k == K.LIST and isinstance(v, list) and t.element is not None:
        if sql_format._substitute(t, dialect).kind == K.JSON:
            return json.dumps(v, ensure_ascii=False)
        return [_sql_value(x, t.element, dialect) for x in v]
    if k == K.ANY and not isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return python_value(v, t)


def table_rows(schema: SchemaGraph, directory: str) -> list[tuple[Table, list[dict[str, Any]]]]:
    """The rows of every table of the relational mapping of ``schema`` (in dependency order)
    for the graph in ``directory``, as graph-data values by column name. Used by
    :func:`load_sql` and by engines that insert rows their own way (Spanner mutations)."""
    rel, mapping = to_relational(schema)
    ordered = topological(rel)
    node_key: dict[Any, tuple[Any, ...]] = {}
    label_of: dict[Any, str] = {}
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    surrogate = {n.label: n for n in mapping.nodes if n.surrogate_key}
    counter = 0
    for _, node in iter_nodes(directory, schema):
        nmap = mapping.node(node.labels[0])
        if nmap is None:
            raise SchemaError(f"node {node.id!r}: no node type {node.labels[0]}", code="GRAPH_LOAD")
        row = {col: node.properties.get(prop) for prop, col in nmap.columns}
        if nmap.label in surrogate:
            counter += 1
            row[nmap.key_columns[0]] = counter
        node_key[node.id] = tuple(row[c] for c in nmap.key_columns)
        label_of[node.id] = nmap.label
        rows[nmap.table].append(row | {"__id": node.id})
    fk_edges = {e.label: e for e in mapping.edges if e.in_node_table}
    edge_rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    node_rows_by_id = {r["__id"]: r for table in rows.values() for r in table}
    for _, edge in iter_edges(directory, schema):
        src, dst = node_key.get(edge.source), node_key.get(edge.target)
        if src is None or dst is None:
            raise SchemaError(
                f"edge {edge.type} {edge.source!r}->{edge.target!r}: unknown node",
                code="GRAPH_LOAD",
            )
        if edge.type in fk_edges:
            m = fk_edges[edge.type]
            row = node_rows_by_id[edge.source]
            row.update(dict(zip(m.target_columns, dst)))
            continue
        for m in mapping.edge_tables(edge.type):
            if m.source == label_of[edge.source] and m.target == label_of[edge.target]:
                row = dict(zip(m.source_columns, src)) | dict(zip(m.target_columns, dst))
                row |= {col: edge.properties.get(prop) for prop, col in m.columns}
                edge_rows[m.table].append(row)
                break
        else:
            raise SchemaError(f"edge {edge.type} has no table for its endpoints", code="GRAPH_LOAD")
    return [(t, rows.get(t.name) or edge_rows.get(t.name) or []) for t in ordered]


def load_sql(connection: Any, schema: SchemaGraph, directory: str, dialect: str) -> dict[str, int]:
    """Create the tables of ``schema`` on a DB-API ``connection`` of ``dialect`` (``sqlite``,
    ``duckdb``, ``postgres``) and insert the graph in ``directory``; returns rows per table."""
    exp = require("sqlglot.expressions", extra="sql", purpose="loading a graph into SQL tables")

    tables = table_rows(schema, directory)
    cur = connection.cursor()
    for t, _ in tables:
        cur.execute(sql_format.create_table(t, dialect).sql(dialect=dialect))
    for t, _ in tables:
        for e in sql_format.create_indexes(t):
            cur.execute(e.sql(dialect=dialect))
    counts: dict[str, int] = {}
    for t, data in tables:
        if not data:
            counts[t.name] = 0
            continue
        cols = [c.name for c in t.columns]
        types = {c.name: c.type for c in t.columns}
        insert = exp.insert(
            exp.Values(expressions=[exp.Tuple(expressions=[exp.Placeholder() for _ in cols])]),
            exp.Table(this=exp.Identifier(this=t.name, quoted=True)),
            columns=[exp.Identifier(this=c, quoted=True) for c in cols],
        ).sql(dialect=dialect)
        params = [tuple(_sql_value(r.get(c), types[c], dialect) for c in cols) for r in data]
        if dialect == "duckdb" and _bulk_duckdb(connection, t.name, cols, params):
            counts[t.name] = len(params)
            continue
        cur.executemany(insert, params)
        counts[t.name] = len(params)
    connection.commit()
    return counts


def _bulk_duckdb(
    connection: Any, table: str, cols: list[str], params: list[tuple[Any, ...]]
) -> bool:
    """DuckDB's executemany runs one statement per row; an Arrow scan inserts all at once."""
    try:
        import pyarrow as pa
    except ImportError:
        return False
    from sqlglot import exp

    columns = {f"c{i}": [row[i] for row in params] for i in range(len(cols))}
    connection.register("gqlir_rows", pa.table(columns))
    try:
        stmt = exp.insert(
            exp.select(*(exp.column(f"c{i}") for i in range(len(cols)))).from_("gqlir_rows"),
            exp.Table(this=exp.Identifier(this=table, quoted=True)),
            columns=[exp.Identifier(this=c, quoted=True) for c in cols],
        )
        connection.execute(stmt.sql(dialect="duckdb"))
    finally:
        connection.unregister("gqlir_rows")
    return True


# -- Kuzu ----------------------------------------------------------------------------------------


def _kuzu_cast(expr: str, t: PropertyType) -> str:
    if t.kind == K.LIST:
        return expr
    return f"CAST({expr} AS {kuzu_format.KUZU.render(t)})"


def _kuzu_value(v: Any, t: PropertyType) -> Any:
    if v is None:
        return None
    if t.kind in (K.DATETIME, K.LOCAL_DATETIME) and isinstance(v, str):
        return v.replace("T", " ")
    if isinstance(v, (dict,)) or (t.kind == K.JSON and not isinstance(v, str)):
        return json.dumps(v, ensure_ascii=False)
    if t.kind == K.DECIMAL:
        return str(v)
    return v


def load_kuzu(connection: Any, schema: SchemaGraph, directory: str) -> dict[str, int]:
    """Create the node and rel tables of ``schema`` on a Kuzu connection and load the graph."""
    from .formats._ddl import quote_ident

    def q(name: str) -> str:
        return quote_ident(name, "`", kuzu_format.RESERVED)

    for stmt in kuzu_format.write(schema).split(";\n"):
        if stmt.strip():
            connection.execute(stmt)
    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    node_label: dict[Any, str] = {}
    key_value: dict[Any, Any] = {}
    serial: dict[str, int] = defaultdict(int)
    for _, node in iter_nodes(directory, schema):
        nt = schema.node(node.labels[0])
        assert nt is not None
        row = {p.name: _kuzu_value(node.properties.get(p.name), p.type) for p in nt.properties}
        node_label[node.id] = nt.label
        if nt.keys:
            key_value[node.id] = node.properties[nt.keys[0]]
        else:
            key_value[node.id] = serial[nt.label]  # SERIAL keys count from 0 in insertion order
            serial[nt.label] += 1
        by_label[nt.label].append(row)
    counts: dict[str, int] = {}
    for nt in schema.node_types:
        data = by_label.get(nt.label, [])
        counts[nt.label] = len(data)
        if not data:
            continue
        sets = ", ".join(
            f"{q(p.name)}: {_kuzu_cast('r.' + q(p.name), p.type)}" for p in nt.properties
        )
        connection.execute(f"UNWIND $rows AS r CREATE (:{q(nt.label)} {{{sets}}})", {"rows": data})
    pairs: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for _, edge in iter_edges(directory, schema):
        et = schema.edge(edge.type)
        assert et is not None
        row = {p.name: _kuzu_value(edge.properties.get(p.name), p.type) for p in et.properties}
        row["__s"] = key_value[edge.source]
        row["__t"] = key_value[edge.target]
        pairs[(et.label, node_label[edge.source], node_label[edge.target])].append(row)
    for (label, s, t), data in pairs.items():
        et = schema.edge(label)
        assert et is not None
        src_t, dst_t = schema.node(s), schema.node(t)
        assert src_t is not None and dst_t is not None
        sk = q(src_t.keys[0]) if src_t.keys else q(kuzu_format.SURROGATE)
        tk = q(dst_t.keys[0]) if dst_t.keys else q(kuzu_format.SURROGATE)
        sets = ", ".join(
            f"{q(p.name)}: {_kuzu_cast('r.' + q(p.name), p.type)}" for p in et.properties
        )
        connection.execute(
            f"UNWIND $rows AS r MATCH (a:{q(s)}), (b:{q(t)}) "
            f"WHERE a.{sk} = r.__s AND b.{tk} = r.__t "
            f"CREATE (a)-[:{q(label)} {{{sets}}}]->(b)",
            {"rows": data},
        )
        counts[label] = counts.get(label, 0) + len(data)
    return counts
