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

:func:`mapping_for` resolves any of these from a path or an object (a database's tables are
read by :mod:`gqlir.databases`). Moving data is elsewhere: :func:`gqlir.migrate.migrate` turns a
database into a graph folder and :func:`gqlir.migrate.load_tables` a graph folder's data into
the mapping's tables; :func:`gqlir.engines.reference.reference_graph` loads it into the
reference evaluator, so SQL results and graph results can be compared.
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
)

__all__ = ["SOURCE_DDL", "SqlMapping", "mapping_for"]

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
    from .databases import database_kind, read_database_tables

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
