"""How a SchemaGraph is stored in tables, and how a relational schema becomes a SchemaGraph.

Graph → tables (:func:`to_relational`), the layout the SQL and SQL/PGQ formats, the Spanner
format and the SQL translation use:

* one **node table** per node type, named by its label, one column per property; the key
  properties are the primary key (a node type without a key gets a surrogate ``id`` column);
  ``required`` is NOT NULL, ``unique`` a UNIQUE constraint, ``indexed`` an index;
* an ``n:1`` or ``1:1`` edge type with one endpoint pair and no properties of its own, whose
  label comes back from its column names (upper case, see below), is a **foreign key** in the
  source node's table: columns ``<label>_<key column>``, NOT NULL when the source's
  participation is total, UNIQUE for ``1:1``;
* every other edge type has one **edge table** per endpoint pair (named by the label, or
  ``<label>_<source>_<target>`` when the label has several pairs), with the source node's key
  in ``src_<column>`` columns and the target's in ``dst_<column>`` columns, foreign keys to the
  two node tables, the edge's properties, and the primary key (source key, target key, edge key
  properties): edges are identified by their endpoints and keys. Cardinality is kept as UNIQUE
  constraints: ``n:1`` is UNIQUE(source columns), ``1:n`` UNIQUE(target columns).

Tables → graph (:func:`to_graph`), for schemas that were not written by gqlir too:

* a table with exactly two foreign keys whose columns are all in its primary key (or which has
  no primary key), and that no other table references, is an **association table**: an edge
  type named by the table (``<label>_<source table>_<target table>`` tables of one label are
  merged back into one edge type), from the first reference to the second, its other columns
  the edge's properties, its other primary-key columns the edge's key;
* every other table is a **node table**; each of its foreign keys becomes an edge type from the
  referencing to the referenced node type (``n:1``, or ``1:1`` when the columns are unique),
  named by the foreign-key columns (``publisher_id`` → ``PUBLISHER``, or ``HAS_PUBLISHER`` when
  that would clash with a table name); the foreign-key columns stop being properties unless they
  are part of the primary key. Total participation of the source when the columns are NOT NULL.

The :class:`GraphMapping` records which table and columns hold each node and edge type, so a
query translator can turn a pattern into joins without guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import SchemaError
from .model import (
    Cardinality,
    EdgeType,
    Endpoint,
    NodeType,
    Participation,
    Property,
    SchemaGraph,
)
from .types import PropertyType, TypeKind

# -- relational schema ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: PropertyType
    nullable: bool = True


@dataclass(frozen=True, slots=True)
class ForeignKey:
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = ()
    unique: tuple[tuple[str, ...], ...] = ()
    indexes: tuple[tuple[str, ...], ...] = ()

    def column(self, name: str) -> Column | None:
        for c in self.columns:
            if c.name == name:
                return c
        return None

    def is_unique(self, cols: tuple[str, ...]) -> bool:
        s = set(cols)
        return s == set(self.primary_key) or any(set(u) == s for u in self.unique)


@dataclass(frozen=True)
class RelationalSchema:
    tables: tuple[Table, ...]
    _by_name: dict[str, Table] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        by: dict[str, Table] = {}
        for t in self.tables:
            if t.name.lower() in by:
                raise SchemaError(f"table {t.name!r} is declared twice")
            by[t.name.lower()] = t
        object.__setattr__(self, "_by_name", by)

    def table(self, name: str) -> Table | None:
        """Table names are matched case-insensitively, as SQL engines do."""
        return self._by_name.get(name.lower())


# -- mapping -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodeTable:
    """Node type ``label`` lives in ``table``; ``key_columns`` identify a node; ``columns``
    maps property names to column names."""

    label: str
    table: str
    key_columns: tuple[str, ...]
    columns: tuple[tuple[str, str], ...]
    surrogate_key: bool = False


@dataclass(frozen=True, slots=True)
class EdgeTable:
    """Edges of type ``label`` from ``source`` to ``target`` nodes live in ``table``.

    ``source_columns`` (in this table) reference ``source_key`` (the source node table's key
    columns); likewise for the target. When the edge is a foreign key of a node table,
    ``table`` is that node table and the edge has no properties of its own.
    """

    label: str
    table: str
    source: str
    source_columns: tuple[str, ...]
    source_key: tuple[str, ...]
    target: str
    target_columns: tuple[str, ...]
    target_key: tuple[str, ...]
    columns: tuple[tuple[str, str], ...] = ()
    in_node_table: bool = False


@dataclass(frozen=True)
class GraphMapping:
    nodes: tuple[NodeTable, ...]
    edges: tuple[EdgeTable, ...]

    def node(self, label: str) -> NodeTable | None:
        for n in self.nodes:
            if n.label == label:
                return n
        return None

    def edge_tables(self, label: str) -> tuple[EdgeTable, ...]:
        return tuple(e for e in self.edges if e.label == label)


# -- graph -> tables -----------------------------------------------------------------------------


def edge_table_name(edge: EdgeType, endpoint: Endpoint) -> str:
    if len(edge.endpoints) == 1:
        return edge.label
    return f"{edge.label}_{endpoint.source}_{endpoint.target}"


def _surrogate_name(node: NodeType) -> str:
    used = {p.name for p in node.properties}
    for candidate in ("id", "_id", "node_id", "gid"):
        if candidate not in used:
            return candidate
    raise SchemaError(f"node {node.label}: no free name for a surrogate key column")


def fk_column_stem(label: str, tables: set[str]) -> str | None:
    """The column-name stem under which an edge label is stored as a foreign key, if the
    reverse rule of :func:`to_graph` gives the label back from it (else None)."""
    if not label or label != label.upper() or not re.fullmatch(r"[A-Z][A-Z0-9_]*", label):
        return None
    if label.lower() in tables:
        return None
    if label.startswith("HAS_") and label[4:].lower() in tables:
        return label[4:].lower()
    return label.lower()


def _stored_as_fk(e: EdgeType, tables: set[str]) -> bool:
    return (
        len(e.endpoints) == 1
        and not e.properties
        and not e.keys
        and e.cardinality is not None
        and e.cardinality.source_max_one
        and e.target_participation is None
        and not e.symmetric
        and fk_column_stem(e.label, tables) is not None
    )


def to_relational(schema: SchemaGraph) -> tuple[RelationalSchema, GraphMapping]:
    """The tables that store ``schema`` (see the module docstring for the layout)."""
    used: set[str] = set()

    def claim(name: str) -> str:
        base, k = name, 1
        while name.lower() in used:
            k += 1
            name = f"{base}_{k}"
        used.add(name.lower())
        return name

    node_names = {n.label: claim(n.label) for n in schema.node_types}
    keys_of: dict[str, tuple[str, ...]] = {}
    key_types: dict[str, dict[str, PropertyType]] = {}
    surrogate: dict[str, bool] = {}
    for n in schema.node_types:
        if n.keys:
            keys_of[n.label] = n.keys
            declared = {p.name: p.type for p in n.properties}  # keys are properties (model)
            key_types[n.label] = {k: declared[k] for k in n.keys}
            surrogate[n.label] = False
        else:
            sk = _surrogate_name(n)
            keys_of[n.label] = (sk,)
            key_types[n.label] = {sk: PropertyType(TypeKind.INT64)}
            surrogate[n.label] = True
    table_names = set(used)
    fk_edges = [e for e in schema.edge_types if _stored_as_fk(e, table_names)]
    fk_cols: dict[str, list[tuple[EdgeType, tuple[str, ...]]]] = {}
    for e in fk_edges:
        ep = e.endpoints[0]
        stem = fk_column_stem(e.label, table_names)
        fk_names = tuple(f"{stem}_{k}" for k in keys_of[ep.target])
        fk_cols.setdefault(ep.source, []).append((e, fk_names))

    tables: list[Table] = []
    node_maps: list[NodeTable] = []
    edge_maps: list[EdgeTable] = []
    for n in schema.node_types:
        cols = [Column(p.name, p.type, nullable=not p.required) for p in n.properties]
        if surrogate[n.label]:
            cols.insert(
                0, Column(keys_of[n.label][0], PropertyType(TypeKind.INT64), nullable=False)
            )
        unique: list[tuple[str, ...]] = [(p.name,) for p in n.properties if p.unique]
        fks = []
        taken = {c.name for c in cols}
        for e, fcols in fk_cols.get(n.label, []):
            ep = e.endpoints[0]
            if taken & set(fcols):
                raise SchemaError(
                    f"node {n.label}: column of edge {e.label} clashes with a property"
                )
            total = e.source_participation == Participation.TOTAL
            for c, k in zip(fcols, keys_of[ep.target]):
                cols.append(Column(c, key_types[ep.target][k], nullable=not total))
            fks.append(ForeignKey(fcols, node_names[ep.target], keys_of[ep.target]))
            if e.cardinality is not None and e.cardinality.target_max_one:
                unique.append(fcols)
            edge_maps.append(
                EdgeTable(
                    e.label,
                    node_names[n.label],
                    n.label,
                    keys_of[n.label],
                    keys_of[n.label],
                    ep.target,
                    fcols,
                    keys_of[ep.target],
                    in_node_table=True,
                )
            )
        tables.append(
            Table(
                node_names[n.label],
                tuple(cols),
                primary_key=keys_of[n.label],
                foreign_keys=tuple(fks),
                unique=tuple(unique),
                indexes=tuple((p.name,) for p in n.properties if p.indexed),
            )
        )
        node_maps.append(
            NodeTable(
                n.label,
                node_names[n.label],
                keys_of[n.label],
                tuple((p.name, p.name) for p in n.properties),
                surrogate[n.label],
            )
        )
    for e in schema.edge_types:
        if e in fk_edges:
            continue
        for ep in e.endpoints:
            src_key, dst_key = keys_of[ep.source], keys_of[ep.target]
            src_cols = tuple(f"src_{c}" for c in src_key)
            dst_cols = tuple(f"dst_{c}" for c in dst_key)
            taken = set(src_cols) | set(dst_cols)
            prop_cols: list[tuple[str, str]] = []
            for p in e.properties:
                cname = p.name
                while cname in taken:
                    cname += "_"
                taken.add(cname)
                prop_cols.append((p.name, cname))
            colmap = dict(prop_cols)
            cols = [
                Column(c, key_types[ep.source][k], nullable=False)
                for c, k in zip(src_cols, src_key)
            ] + [
                Column(c, key_types[ep.target][k], nullable=False)
                for c, k in zip(dst_cols, dst_key)
            ]
            cols += [Column(colmap[p.name], p.type, nullable=not p.required) for p in e.properties]
            unique_e: list[tuple[str, ...]] = [(colmap[p.name],) for p in e.properties if p.unique]
            if e.cardinality is not None and e.cardinality.source_max_one:
                unique_e.append(src_cols)
            if e.cardinality is not None and e.cardinality.target_max_one:
                unique_e.append(dst_cols)
            name = claim(edge_table_name(e, ep))
            tables.append(
                Table(
                    name,
                    tuple(cols),
                    primary_key=src_cols + dst_cols + tuple(colmap[k] for k in e.keys),
                    foreign_keys=(
                        ForeignKey(src_cols, node_names[ep.source], src_key),
                        ForeignKey(dst_cols, node_names[ep.target], dst_key),
                    ),
                    unique=tuple(unique_e),
                    indexes=tuple((colmap[p.name],) for p in e.properties if p.indexed),
                )
            )
            edge_maps.append(
                EdgeTable(
                    e.label,
                    name,
                    ep.source,
                    src_cols,
                    src_key,
                    ep.target,
                    dst_cols,
                    dst_key,
                    tuple(prop_cols),
                )
            )
    return RelationalSchema(tuple(tables)), GraphMapping(tuple(node_maps), tuple(edge_maps))


def topological(rel: RelationalSchema) -> list[Table]:
    """Tables in an order where every referenced table comes first (self-references aside),
    as engines that check foreign keys at CREATE TABLE need them."""
    done: list[Table] = []
    names: set[str] = set()
    pending = list(rel.tables)
    while pending:
        for t in pending:
            refs = {fk.ref_table.lower() for fk in t.foreign_keys} - {t.name.lower()}
            if refs <= names:
                done.append(t)
                names.add(t.name.lower())
                pending.remove(t)
                break
        else:
            raise SchemaError(
                "tables reference each other in a cycle: " + ", ".join(t.name for t in pending),
                code="SCHEMA_RELATIONAL",
            )
    return done


# -- tables -> graph -----------------------------------------------------------------------------


def _is_association(table: Table, referenced: set[str]) -> bool:
    if len(table.foreign_keys) != 2 or table.name.lower() in referenced:
        return False
    fk_cols = {c for fk in table.foreign_keys for c in fk.columns}
    return not table.primary_key or fk_cols <= set(table.primary_key)


def _fk_label(fk: ForeignKey, tables: set[str], taken: set[str]) -> str:
    """``publisher_id`` (referencing ``publisher.id``) gives ``PUBLISHER``, or ``HAS_PUBLISHER``
    when a table is named ``publisher``."""
    col, ref = fk.columns[0], fk.ref_columns[0] if fk.ref_columns else "id"
    stem = col
    for suffix in (f"_{ref}", "_id"):
        if stem.lower().endswith(suffix.lower()) and len(stem) > len(suffix):
            stem = stem[: -len(suffix)]
            break
    label = stem.upper()
    if label.lower() in tables:
        label = f"HAS_{label}"
    while label.lower() in taken:
        label += "_"
    return label


def to_graph(rel: RelationalSchema, name: str = "") -> tuple[SchemaGraph, GraphMapping]:
    """The SchemaGraph a relational schema stores (see the module docstring for the rules)."""
    referenced = {
        fk.ref_table.lower()
        for t in rel.tables
        for fk in t.foreign_keys
        if fk.ref_table.lower() != t.name.lower()
    }
    assoc = [t for t in rel.tables if _is_association(t, referenced)]
    node_tables = [t for t in rel.tables if t not in assoc]
    taken = {t.name.lower() for t in rel.tables}
    node_label = {t.name.lower(): t.name for t in node_tables}

    def label_of(table: str) -> str:
        try:
            return node_label[table.lower()]
        except KeyError:
            raise SchemaError(
                f"foreign key to {table!r}, which is not a node table", code="SCHEMA_RELATIONAL"
            ) from None

    nodes: list[NodeType] = []
    node_maps: list[NodeTable] = []
    edges: list[EdgeType] = []
    edge_maps: list[EdgeTable] = []
    for t in node_tables:
        fk_only = {c for fk in t.foreign_keys for c in fk.columns} - set(t.primary_key)
        props = tuple(_property(t, c) for c in t.columns if c.name not in fk_only)
        nodes.append(NodeType(t.name, props, keys=t.primary_key))
        node_maps.append(
            NodeTable(t.name, t.name, t.primary_key, tuple((p.name, p.name) for p in props))
        )
    tables = {t.name.lower() for t in rel.tables}
    for t in node_tables:
        for fk in t.foreign_keys:
            label = _fk_label(fk, tables, taken)
            taken.add(label.lower())
            target = label_of(fk.ref_table)
            unique = t.is_unique(fk.columns)
            total = all(
                not (t.column(c) or Column(c, PropertyType(TypeKind.ANY))).nullable
                for c in fk.columns
            )
            edges.append(
                EdgeType(
                    label,
                    (Endpoint(t.name, target),),
                    cardinality=Cardinality.of(True, unique),
                    source_participation=Participation.TOTAL if total else Participation.PARTIAL,
                )
            )
            edge_maps.append(
                EdgeTable(
                    label,
                    t.name,
                    t.name,
                    _key_of(t),
                    _key_of(t),
                    target,
                    fk.columns,
                    fk.ref_columns,
                    in_node_table=True,
                )
            )
    merged: dict[str, int] = {}
    for t in assoc:
        a, b = t.foreign_keys
        fk_cols = set(a.columns) | set(b.columns)
        props = tuple(_property(t, c) for c in t.columns if c.name not in fk_cols)
        keys = tuple(c for c in t.primary_key if c not in fk_cols)
        card = None
        if t.is_unique(a.columns) or t.is_unique(b.columns):
            card = Cardinality.of(t.is_unique(a.columns), t.is_unique(b.columns))
        source, target = label_of(a.ref_table), label_of(b.ref_table)
        label = t.name
        suffix = f"_{a.ref_table}_{b.ref_table}".lower()
        if label.lower().endswith(suffix) and len(label) > len(suffix):
            label = label[: -len(suffix)]  # one of several endpoint pairs (edge_table_name)
        edge = EdgeType(
            label,
            (Endpoint(source, target),),
            properties=props,
            keys=keys,
            cardinality=card,
        )
        if label in merged:
            i = merged[label]
            prev = edges[i]
            if (prev.properties, prev.keys, prev.cardinality) != (props, keys, card):
                raise SchemaError(
                    f"tables of edge type {label} disagree on columns or constraints",
                    code="SCHEMA_RELATIONAL",
                )
            edges[i] = EdgeType(
                label,
                prev.endpoints + edge.endpoints,
                properties=props,
                keys=keys,
                cardinality=card,
            )
        else:
            merged[label] = len(edges)
            edges.append(edge)
        edge_maps.append(
            EdgeTable(
                label,
                t.name,
                source,
                a.columns,
                a.ref_columns,
                target,
                b.columns,
                b.ref_columns,
                tuple((p.name, p.name) for p in props),
            )
        )
    schema = SchemaGraph(name=name, node_types=tuple(nodes), edge_types=tuple(edges))
    return schema, GraphMapping(tuple(node_maps), tuple(edge_maps))


def _key_of(t: Table) -> tuple[str, ...]:
    return t.primary_key


def _property(t: Table, c: Column) -> Property:
    return Property(
        c.name,
        c.type,
        required=not c.nullable,
        unique=(c.name,) in t.unique and t.primary_key != (c.name,),
        indexed=(c.name,) in t.indexes,
    )
