"""The schema mapping SQL translation reads: which tables hold which node and edge types.

SQL text names tables and columns; the Graph-IR names labels and properties. A
:class:`SqlMapping` ties the two together with the layout of :mod:`gqlir.schema.relational`
(no other layout exists in gqlir): a :class:`~gqlir.schema.relational.RelationalSchema` of
tables, the :class:`~gqlir.schema.relational.GraphMapping` that says which table and columns hold
each node and edge type, and the :class:`~gqlir.schema.SchemaGraph` they describe.

Two directions give a mapping, and which one applies depends on where the SQL came from:

* **tables first** (a database, its DDL, or a graph folder with ``source.sql`` such as
  ``schemas/bookstore``): the SQL was written against those tables, so the mapping is
  :func:`~gqlir.schema.relational.to_graph` of them (foreign keys become n:1 edges, association
  tables edges with properties);
* **graph first** (a schema file, or a graph folder with only ``schema.json``): the tables are
  :func:`~gqlir.schema.relational.to_relational` of the schema, the layout gqlir itself loads
  graphs into SQL engines with.

:func:`mapping_for` resolves any of these from a path or an object, and :func:`load_tables` /
:func:`reference_graph` put a graph folder's data into SQL tables and into the reference
evaluator through the same mapping, so SQL results and graph results can be compared.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from .errors import SchemaError
from .schema.model import SchemaGraph
from .schema.relational import (
    EdgeTable,
    GraphMapping,
    NodeTable,
    RelationalSchema,
    Table,
    to_graph,
    to_relational,
    topological,
)

__all__ = ["SqlMapping", "load_tables", "mapping_for", "reference_graph"]

#: The file in a graph folder that holds the DDL of the database the graph was derived from.
SOURCE_DDL = "source.sql"


@dataclass(frozen=True, eq=False)
class SqlMapping:
    """A SchemaGraph, the tables that store it, and which table holds which element type.

    ``name`` names the graph (SQL/PGQ's ``GRAPH_TABLE (name …)``). Lookups by table and column
    name are case-insensitive, as unquoted SQL names are.
    """

    schema: SchemaGraph
    tables: RelationalSchema
    graph: GraphMapping
    name: str = "g"
    _nodes_by_table: dict[str, NodeTable] = field(init=False, repr=False)
    _edges_by_table: dict[str, EdgeTable] = field(init=False, repr=False)
    _fk_edges: dict[str, tuple[EdgeTable, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        nodes = {n.table.lower(): n for n in self.graph.nodes}
        edges = {e.table.lower(): e for e in self.graph.edges if not e.in_node_table}
        fks: dict[str, list[EdgeTable]] = defaultdict(list)
        for e in self.graph.edges:
            if e.in_node_table:
                fks[e.table.lower()].append(e)
        object.__setattr__(self, "_nodes_by_table", nodes)
        object.__setattr__(self, "_edges_by_table", edges)
        object.__setattr__(self, "_fk_edges", {k: tuple(v) for k, v in fks.items()})

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def from_schema(cls, schema: SchemaGraph) -> SqlMapping:
        """Graph first: the tables gqlir stores ``schema`` in."""
        rel, graph = to_relational(schema)
        return cls(schema, rel, graph, schema.name or "g")

    @classmethod
    def from_tables(
        cls, tables: RelationalSchema, name: str = "", schema: SchemaGraph | None = None
    ) -> SqlMapping:
        """Tables first: the graph ``tables`` store. ``schema`` (the same graph with better
        types, e.g. a graph folder's schema.json) replaces the one derived from the DDL."""
        derived, graph = to_graph(tables, name)
        if schema is not None:
            _check_same_shape(derived, schema)
        return cls(schema or derived, tables, graph, name or (schema.name if schema else "") or "g")

    # -- lookups ---------------------------------------------------------------------------------

    def table(self, name: str) -> Table | None:
        return self.tables.table(name)

    def node_table(self, table: str) -> NodeTable | None:
        return self._nodes_by_table.get(table.lower())

    def edge_table(self, table: str) -> EdgeTable | None:
        """The edge type stored in ``table`` when the table holds edges (not a foreign key)."""
        return self._edges_by_table.get(table.lower())

    def fk_edges(self, table: str) -> tuple[EdgeTable, ...]:
        """Edge types stored as foreign keys in node table ``table``."""
        return self._fk_edges.get(table.lower(), ())

    def node(self, label: str) -> NodeTable | None:
        return self.graph.node(label)

    def edges(self, label: str) -> tuple[EdgeTable, ...]:
        return self.graph.edge_tables(label)

    def property_of(self, node: NodeTable | EdgeTable, column: str) -> str | None:
        """The property a column of a node or edge table holds (case-insensitive)."""
        low = column.lower()
        for prop, col in node.columns:
            if col.lower() == low:
                return prop
        return None

    def column_of(self, node: NodeTable | EdgeTable, prop: str) -> str | None:
        for p, col in node.columns:
            if p == prop:
                return col
        return None


def _check_same_shape(derived: SchemaGraph, schema: SchemaGraph) -> None:
    """A graph folder's schema.json and its source.sql must describe the same labels."""
    a = (set(derived.node_labels), set(derived.edge_labels))
    b = (set(schema.node_labels), set(schema.edge_labels))
    if a != b:
        raise SchemaError(
            f"{SOURCE_DDL} and schema.json disagree on labels: "
            f"{sorted(a[0] ^ b[0]) + sorted(a[1] ^ b[1])}",
            code="SCHEMA_RELATIONAL",
        )


# -- resolving a mapping --------------------------------------------------------------------------


def mapping_for(source: Any, *, dialect: str | None = None) -> SqlMapping:
    """The mapping for ``source``: a :class:`SqlMapping`, a SchemaGraph (graph first), a
    RelationalSchema (tables first), or a path: a graph folder (``source.sql`` if it has one,
    else ``schema.json``), a schema file in any format gqlir reads, a file of SQL DDL, a SQLite
    or DuckDB database file, or a ``postgresql://`` URL. ``dialect`` is the sqlglot dialect
    DDL is read in (default: SQLite's)."""
    if isinstance(source, SqlMapping):
        return source
    if isinstance(source, SchemaGraph):
        return SqlMapping.from_schema(source)
    if isinstance(source, RelationalSchema):
        return SqlMapping.from_tables(source)
    if not isinstance(source, (str, os.PathLike)):
        raise SchemaError(
            f"a schema mapping comes from a path, a SchemaGraph or a RelationalSchema, "
            f"not {type(source).__name__}"
        )
    path = os.fspath(source)
    from .migrate import database_kind, read_database_tables

    kind = database_kind(path)
    if kind is not None:
        rel = read_database_tables(path)
        return SqlMapping.from_tables(rel, _stem(path))
    if os.path.isdir(path):
        return _folder_mapping(path, dialect)
    text = _read(path)
    from .schema.formats import detect_format, read

    fmt = detect_format(text)
    if fmt is not None and fmt.startswith("sql") and not fmt.startswith("sqlpgq"):
        fmt = None  # plain DDL: read as tables, not as a stored graph
    if fmt is None:
        if path.lower().endswith(".sql") or "create table" in text.lower():
            from .schema.formats.sql import parse_tables

            return SqlMapping.from_tables(parse_tables(text, dialect or "sqlite"), _stem(path))
        raise SchemaError(f"cannot tell the format of schema {path!r}", code="SCHEMA_FORMAT")
    return SqlMapping.from_schema(read(text, fmt, name=_stem(path)))


def _folder_mapping(path: str, dialect: str | None) -> SqlMapping:
    from .schema.loading import load_schema

    name = os.path.basename(os.path.normpath(path))
    schema_file = os.path.join(path, "schema.json")
    schema = load_schema(schema_file) if os.path.exists(schema_file) else None
    ddl = os.path.join(path, SOURCE_DDL)
    if os.path.exists(ddl):
        from .schema.formats.sql import parse_tables

        rel = parse_tables(_read(ddl), dialect or "sqlite")
        return SqlMapping.from_tables(rel, name, schema)
    if schema is None:
        raise SchemaError(f"{path}: a graph folder needs schema.json", code="SCHEMA_FORMAT")
    return SqlMapping.from_schema(schema)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise SchemaError(f"cannot read {path!r}: {exc.strerror or exc}") from None


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(os.path.normpath(path)))[0]


# -- data through the mapping ---------------------------------------------------------------------


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


def reference_graph(directory: str, schema: SchemaGraph) -> Any:
    """The graph in ``directory`` as the reference evaluator's graph, values typed by ``schema``
    as a graph database holds them (dates and instants as temporal values, decimals as floats):
    the reference engine's loading."""
    from .engines.reference import ReferenceEngine

    engine = ReferenceEngine()
    engine.load(schema, directory)
    return engine.graph
