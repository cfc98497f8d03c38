"""``CREATE PROPERTY GRAPH`` over tables: the statement shared by SQL/PGQ (ISO/IEC 9075-16,
Oracle, DuckPGQ, PostgreSQL) and Spanner Graph, and its mapping to and from a SchemaGraph.

The element-table grammar read here (a union of the documented forms)::

    CREATE [OR REPLACE] PROPERTY GRAPH [IF NOT EXISTS] name
      {VERTEX | NODE} TABLES ( element, … )
      [{EDGE | RELATIONSHIP} TABLES ( element, … )]
      [OPTIONS ( … )]
    element := table [AS alias] [KEY (c, …)]
               [SOURCE KEY (c, …) REFERENCES t [(c, …)]
                DESTINATION KEY (c, …) REFERENCES t [(c, …)]]
               [label_and_properties …]
    label_and_properties := {LABEL name | DEFAULT LABEL} [properties] | properties
    properties := PROPERTIES (c [AS p], …) | PROPERTIES [ARE] ALL COLUMNS [EXCEPT (c, …)]
                | NO PROPERTIES

Sources: Spanner https://cloud.google.com/spanner/docs/reference/standard-sql/graph-schema-statements,
Oracle https://docs.oracle.com/en/database/oracle/property-graph/23.1/spgdg/sql-ddl-statements-property-graphs.html,
DuckPGQ https://duckdb.org/community_extensions/extensions/duckpgq,
PostgreSQL doc/src/sgml/ref/create_property_graph.sgml (SQL/PGQ, committed 2026-03-16).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...errors import SchemaError
from ..model import Cardinality, EdgeType, Endpoint, NodeType, Property, SchemaGraph
from ..relational import GraphMapping, RelationalSchema, Table
from ._ddl import Cursor

ALL = "ALL"


@dataclass
class LabelDef:
    label: str | None  # None: the default label (the element table's name or alias)
    properties: list[tuple[str, str]] | str = ALL  # (column, property) pairs, or ALL
    except_columns: tuple[str, ...] = ()


@dataclass
class ElementTable:
    table: str
    alias: str | None = None
    key: tuple[str, ...] | None = None
    source: tuple[tuple[str, ...], str, tuple[str, ...]] | None = None
    destination: tuple[tuple[str, ...], str, tuple[str, ...]] | None = None
    labels: list[LabelDef] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.alias or self.table


@dataclass
class PropertyGraph:
    name: str
    vertices: list[ElementTable]
    edges: list[ElementTable]


# -- reading -------------------------------------------------------------------------------------


def find_graph_statements(text: str) -> list[tuple[int, int]]:
    """Offsets (start, end) of every ``CREATE … PROPERTY GRAPH`` statement in ``text``."""
    c = Cursor(text)
    spans = []
    while not c.at_end():
        if c.at_kw("CREATE"):
            start = c.tok.offset
            j = c.i + 1
            if c.peek(1).is_kw("OR") and c.peek(2).is_kw("REPLACE"):
                j += 2
            if c.tokens[j].is_kw("PROPERTY") and c.tokens[j + 1].is_kw("GRAPH"):
                while not c.at_end() and not c.at(";"):
                    c.next()
                end = c.tok.offset + (1 if c.at(";") else 0)
                spans.append((start, end))
        c.next()
    return spans


def parse_graph(text: str, offset: int = 0) -> PropertyGraph:
    c = Cursor(text)
    c.i = next(i for i, t in enumerate(c.tokens) if t.offset >= offset)
    c.expect_kw("CREATE")
    c.accept_kw("OR", "REPLACE")
    c.expect_kw("PROPERTY", "GRAPH")
    c.accept_kw("IF", "NOT", "EXISTS")
    name = c.qualified("the graph's name")
    if not (c.accept_kw("VERTEX", "TABLES") or c.accept_kw("NODE", "TABLES")):
        raise c.error(f"expected VERTEX TABLES or NODE TABLES, found {c.describe()}")
    vertices = _element_list(c)
    edges: list[ElementTable] = []
    if c.accept_kw("EDGE", "TABLES") or c.accept_kw("RELATIONSHIP", "TABLES"):
        edges = _element_list(c)
    if c.accept_kw("OPTIONS"):
        c.skip_balanced()
    if not c.at_end() and not c.at(";"):
        raise c.error(f"unexpected {c.describe()} in CREATE PROPERTY GRAPH")
    return PropertyGraph(name, vertices, edges)


def _cols(c: Cursor) -> tuple[str, ...]:
    c.expect("(")
    out = [c.ident("a column")]
    while c.accept(","):
        out.append(c.ident("a column"))
    c.expect(")")
    return tuple(out)


def _element_list(c: Cursor) -> list[ElementTable]:
    c.expect("(")
    out = [_element(c)]
    while c.accept(","):
        if c.at(")"):
            break
        out.append(_element(c))
    c.expect(")")
    return out


def _element(c: Cursor) -> ElementTable:
    e = ElementTable(c.qualified("a table"))
    if c.accept_kw("AS"):
        e.alias = c.ident("an alias")
    if c.accept_kw("KEY"):
        e.key = _cols(c)
    if c.accept_kw("SOURCE", "KEY"):
        cols = _cols(c)
        c.expect_kw("REFERENCES")
        ref = c.qualified("a table")
        refcols = _cols(c) if c.at("(") else ()
        e.source = (cols, ref, refcols)
        c.expect_kw("DESTINATION", "KEY")
        cols = _cols(c)
        c.expect_kw("REFERENCES")
        ref = c.qualified("a table")
        refcols = _cols(c) if c.at("(") else ()
        e.destination = (cols, ref, refcols)
    elif c.accept_kw("SOURCE"):
        # SOURCE t DESTINATION t: the endpoints found by the tables' foreign keys (PostgreSQL,
        # doc/src/sgml/ref/create_property_graph.sgml)
        e.source = ((), c.qualified("a table"), ())
        c.expect_kw("DESTINATION")
        e.destination = ((), c.qualified("a table"), ())
    while True:
        if c.accept_kw("DEFAULT", "LABEL"):
            e.labels.append(LabelDef(None))
            _properties(c, e.labels[-1])
        elif c.accept_kw("LABEL"):
            e.labels.append(LabelDef(c.ident("a label")))
            _properties(c, e.labels[-1])
        elif c.at_kw("PROPERTIES", "NO"):
            e.labels.append(LabelDef(None))
            _properties(c, e.labels[-1])
        elif c.at_kw("DYNAMIC"):
            raise c.error("DYNAMIC LABEL / DYNAMIC PROPERTIES (schemaless graphs) are not read")
        else:
            break
    if not e.labels:
        e.labels.append(LabelDef(None))
    return e


def _properties(c: Cursor, ld: LabelDef) -> None:
    if c.accept_kw("NO", "PROPERTIES"):
        ld.properties = []
    elif c.accept_kw("PROPERTIES"):
        if c.accept_kw("ARE"):
            c.expect_kw("ALL", "COLUMNS")
            ld.properties = ALL
        elif c.accept_kw("ALL", "COLUMNS"):
            ld.properties = ALL
        else:
            c.expect("(")
            items: list[tuple[str, str]] = []
            while True:
                col = c.ident("a column")
                prop = c.ident("a property name") if c.accept_kw("AS") else col
                items.append((col, prop))
                if not c.accept(","):
                    break
            c.expect(")")
            ld.properties = items
            return
        if c.accept_kw("EXCEPT"):
            ld.except_columns = _cols(c)


# -- property graph + tables -> SchemaGraph ------------------------------------------------------


def _table(rel: RelationalSchema, name: str) -> Table:
    t = rel.table(name)
    if t is None:
        raise SchemaError(
            f"property graph: element table {name!r} is not a declared table", code="SCHEMA_SYNTAX"
        )
    return t


def _label_props(t: Table, ld: LabelDef, exclude: set[str]) -> list[tuple[str, str]]:
    if ld.properties == ALL:
        return [
            (c.name, c.name)
            for c in t.columns
            if c.name not in ld.except_columns and c.name not in exclude
        ]
    assert isinstance(ld.properties, list)
    return ld.properties


def _prop(t: Table, column: str, name: str, key: tuple[str, ...]) -> Property:
    col = t.column(column)
    if col is None:
        raise SchemaError(
            f"property graph: table {t.name} has no column {column!r}", code="SCHEMA_SYNTAX"
        )
    return Property(
        name,
        col.type,
        required=not col.nullable,
        unique=(column,) in t.unique and tuple(key) != (column,),
        indexed=(column,) in t.indexes,
    )


def to_schema(rel: RelationalSchema, pg: PropertyGraph) -> SchemaGraph:
    """The SchemaGraph a property graph over ``rel`` defines."""
    nodes: list[NodeType] = []
    by_element: dict[str, str] = {}  # element name or table name (lower) -> node label
    for v in pg.vertices:
        t = _table(rel, v.table)
        key = v.key if v.key is not None else t.primary_key
        first = v.labels[0]
        label = first.label or v.name
        pairs = _label_props(t, first, set())
        colmap = dict(pairs)
        props = tuple(_prop(t, col, p, key) for col, p in pairs)
        # A key column that is not a property is a surrogate key: the node type has no key.
        keys = tuple(colmap[k] for k in key) if all(k in colmap for k in key) else ()
        extra = tuple(ld.label or v.name for ld in v.labels[1:])
        nodes.append(NodeType(label, props, keys=keys, extra_labels=extra))
        by_element[v.name.lower()] = label
        by_element.setdefault(v.table.lower(), label)

    def endpoint(ref: str) -> str:
        try:
            return by_element[ref.lower()]
        except KeyError:
            raise SchemaError(
                f"property graph: edge references {ref!r}, not a vertex table", code="SCHEMA_SYNTAX"
            ) from None

    merged: dict[str, EdgeType] = {}
    order: list[str] = []
    for e in pg.edges:
        if e.source is None or e.destination is None:
            raise SchemaError(
                f"property graph: edge table {e.name} has no SOURCE/DESTINATION KEY",
                code="SCHEMA_SYNTAX",
            )
        t = _table(rel, e.table)
        src_cols, src_ref, _ = e.source
        dst_cols, dst_ref, _ = e.destination
        if not src_cols or not dst_cols:
            raise SchemaError(
                f"property graph: edge table {e.name} links its endpoints by the tables' foreign "
                "keys (SOURCE t DESTINATION t), which are not read here; name the columns with "
                "SOURCE KEY (…) REFERENCES t",
                code="SCHEMA_SYNTAX",
            )
        ld = e.labels[0]
        if len(e.labels) > 1:
            raise SchemaError(
                f"property graph: edge table {e.name} has several labels", code="SCHEMA_SYNTAX"
            )
        label = ld.label or e.name
        in_node_table = any(v.table.lower() == e.table.lower() for v in pg.vertices)
        exclude = set(src_cols) | set(dst_cols)
        pairs = [] if in_node_table and ld.properties == ALL else _label_props(t, ld, exclude)
        colmap = dict(pairs)
        key = e.key if e.key is not None else t.primary_key
        edge_keys = (
            ()
            if in_node_table
            else tuple(colmap[k] for k in key if k not in exclude and k in colmap)
        )
        props = tuple(_prop(t, col, p, ()) for col, p in pairs)
        src_one = t.is_unique(tuple(src_cols)) if not in_node_table else True
        dst_one = t.is_unique(tuple(dst_cols))
        card = Cardinality.of(src_one, dst_one) if (src_one or dst_one) else None
        ep = Endpoint(endpoint(src_ref), endpoint(dst_ref))
        participation = None
        if in_node_table:
            from ..model import Participation

            ends = [t.column(c) for c in dst_cols]
            total = all(not col.nullable for col in ends if col is not None)
            participation = Participation.TOTAL if total else Participation.PARTIAL
        if label in merged:
            prev = merged[label]
            if (prev.properties, prev.keys, prev.cardinality) != (props, edge_keys, card):
                raise SchemaError(
                    f"property graph: tables of edge label {label} disagree", code="SCHEMA_SYNTAX"
                )
            merged[label] = EdgeType(
                label, prev.endpoints + (ep,), props, edge_keys, card, prev.source_participation
            )
        else:
            merged[label] = EdgeType(label, (ep,), props, edge_keys, card, participation)
            order.append(label)
    return SchemaGraph(pg.name, tuple(nodes), tuple(merged[x] for x in order))


# -- SchemaGraph -> property graph ---------------------------------------------------------------


def from_mapping(name: str, schema: SchemaGraph, mapping: GraphMapping) -> PropertyGraph:
    vertices = []
    for n in mapping.nodes:
        nt = schema.node(n.label)
        assert nt is not None
        labels = [LabelDef(n.label, [(col, prop) for prop, col in n.columns])]
        labels += [LabelDef(x, []) for x in nt.extra_labels]
        vertices.append(ElementTable(n.table, key=n.key_columns, labels=labels))
    edges = []
    for e in mapping.edges:
        src = mapping.node(e.source)
        dst = mapping.node(e.target)
        assert src is not None and dst is not None
        et = schema.edge(e.label)
        assert et is not None
        alias = e.label if e.in_node_table else None
        key = e.source_columns + e.target_columns + tuple(dict(e.columns)[k] for k in et.keys)
        if e.in_node_table:
            key = e.source_columns
        edges.append(
            ElementTable(
                e.table,
                alias=alias,
                key=key,
                source=(e.source_columns, src.table, e.source_key),
                destination=(e.target_columns, dst.table, e.target_key),
                labels=[LabelDef(e.label, [(col, prop) for prop, col in e.columns])],
            )
        )
    return PropertyGraph(name, vertices, edges)


@dataclass(frozen=True)
class Style:
    """How one dialect spells the statement."""

    quote: Callable[[str], str]
    vertex_keyword: str = "VERTEX"
    vertex_keys: bool = True
    edge_keys: bool = True


def render(pg: PropertyGraph, style: Style) -> str:
    q = style.quote

    def cols(cs: tuple[str, ...]) -> str:
        return "(" + ", ".join(q(c) for c in cs) + ")"

    def labels(e: ElementTable) -> str:
        parts = []
        for ld in e.labels:
            head = f"LABEL {q(ld.label)}" if ld.label else "DEFAULT LABEL"
            if isinstance(ld.properties, str):  # ALL, the only string value
                parts.append(f"{head} PROPERTIES ALL COLUMNS")
            elif not ld.properties:
                parts.append(f"{head} NO PROPERTIES")
            else:
                items = [q(c) if c == p else f"{q(c)} AS {q(p)}" for c, p in ld.properties]
                parts.append(f"{head} PROPERTIES ({', '.join(items)})")
        return " ".join(parts)

    def element(e: ElementTable, is_edge: bool) -> str:
        out = q(e.table)
        if e.alias:
            out += f" AS {q(e.alias)}"
        if e.key is not None and (style.edge_keys if is_edge else style.vertex_keys):
            out += f" KEY {cols(e.key)}"
        if e.source and e.destination:
            s_cols, s_ref, s_refcols = e.source
            d_cols, d_ref, d_refcols = e.destination
            out += (
                f"\n      SOURCE KEY {cols(s_cols)} REFERENCES {q(s_ref)} {cols(s_refcols)}"
                f"\n      DESTINATION KEY {cols(d_cols)} REFERENCES {q(d_ref)} {cols(d_refcols)}"
            )
        sep = "\n      " if is_edge else " "
        return out + sep + labels(e)

    text = f"CREATE PROPERTY GRAPH {q(pg.name)}\n  {style.vertex_keyword} TABLES (\n"
    text += ",\n".join("    " + element(v, False) for v in pg.vertices) + "\n  )"
    if pg.edges:
        text += "\n  EDGE TABLES (\n"
        text += ",\n".join("    " + element(e, True) for e in pg.edges) + "\n  )"
    return text
