"""The schema a query implies when none is given, so that SQL translates without ``--schema``.

Reading SQL needs a table mapping. Without one, the query itself says what it reads: every
table it names becomes a node type (the table's name is the label), every column it reads from
that table a property, and nothing is a foreign key, so a join is a **value join**
(``MATCH (a:author), (b:book) WHERE b.author_id = a.author_id``): the same rows as the SQL,
whatever keys the database declares. Columns have no known type (``ANY``); a construct whose
meaning depends on the type is refused by the translation, which then asks for ``--schema``.

Writing SQL from a graph query without a schema goes the other way: each label the query names
is a node table, each relationship type between two labelled nodes an edge table, in the layout
:func:`gqlir.schema.relational.to_relational` writes (a surrogate ``id`` key, ``src_id`` and
``dst_id`` columns in edge tables). A property's type is taken from a literal the query compares
it with (``n.age > 30``: an integer), else ``ANY``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import SchemaError
from ..ir import expr as x
from ..ir import pattern as p
from ..ir.node import Node
from .model import EdgeType, Endpoint, NodeType, Property, SchemaGraph
from .relational import Column, RelationalSchema, Table
from .types import PropertyType, TypeKind

_UNKNOWN = PropertyType(TypeKind.ANY)


@dataclass(frozen=True)
class InferredTables:
    """The tables a SQL query reads and the columns it reads of each."""

    schema: RelationalSchema

    def describe(self) -> str:
        parts = [f"{t.name}({', '.join(c.name for c in t.columns)})" for t in self.schema.tables]
        return ", ".join(parts)


def tables_of_sql(text: str, sql_dialect: str | None) -> InferredTables:
    """The tables and columns ``text`` reads (sqlglot dialect ``sql_dialect``). A column that
    names no table, in a query over several tables, is an error: without a schema nothing says
    which table holds it."""
    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import SqlglotError
    from sqlglot.optimizer.scope import traverse_scope

    try:
        statements = [s for s in sqlglot.parse(text, read=sql_dialect) if s is not None]
    except SqlglotError:
        return InferredTables(RelationalSchema(()))  # the reader reports the syntax error
    columns: dict[str, dict[str, None]] = {}  # table → its columns, in reading order
    spelled: dict[str, str] = {}  # table name, case-folded → as first written
    for statement in statements:
        for scope in traverse_scope(statement):
            tables = {
                alias: source.name
                for alias, source in scope.sources.items()
                if isinstance(source, exp.Table)
            }
            for name in tables.values():
                columns.setdefault(spelled.setdefault(name.lower(), name), {})
            aliases = {
                s.alias_or_name for s in getattr(scope.expression, "expressions", []) if s.alias
            }
            for column in scope.columns:
                if column.find_ancestor(exp.Select, exp.Union) is not scope.expression:
                    continue  # a subquery's column, read in that subquery's scope
                if isinstance(column.this, exp.Star):
                    raise _star_needs_schema(column.this)
                derived = {
                    name
                    for source in scope.sources.values()
                    if not isinstance(source, exp.Table)
                    for name in getattr(source.expression, "named_selects", ())
                }
                table = _owner(column, tables, aliases | derived)
                if table is not None:
                    columns[spelled[table.lower()]].setdefault(column.name, None)
            for star in getattr(scope.expression, "expressions", []):
                if isinstance(star, exp.Star):
                    raise _star_needs_schema(star)
                if isinstance(star, exp.Column) and isinstance(star.this, exp.Star):
                    raise _star_needs_schema(star.this)  # t.*
    read = tuple(
        Table(name, tuple(Column(c, _UNKNOWN) for c in cols)) for name, cols in columns.items()
    )
    return InferredTables(RelationalSchema(read))


def _star_needs_schema(star: Any) -> SchemaError:
    return SchemaError(
        "SELECT * needs --schema: without one, the query's own columns are all gqlir knows "
        "of its tables",
        offset=star.meta.get("start"),
        code="SCHEMA_REQUIRED",
    )


def _owner(column: Any, tables: dict[str, str], elsewhere: set[str]) -> str | None:
    """The table that holds ``column``, from its qualifier or the scope's only table.
    ``elsewhere`` are the names the column may denote other than a table's column: the
    scope's projections and the columns of the CTEs and derived tables it reads."""
    if column.table:
        return tables.get(column.table)  # a CTE's or derived table's column: not a base table
    if column.name in elsewhere:
        return None
    if len(tables) == 1:
        return next(iter(tables.values()))
    if not tables:
        return None
    raise SchemaError(
        f"column {column.name!r} names no table, and the query reads several "
        f"({', '.join(sorted(set(tables.values())))}): qualify it (t.{column.name}), or pass "
        "--schema",
        offset=column.this.meta.get("start"),
        code="SCHEMA_REQUIRED",
    )


# -- graph query → tables -------------------------------------------------------------------------


def schema_of_query(query: Node) -> SchemaGraph:
    """The SchemaGraph the labels, relationship types and properties of ``query`` imply."""
    labels: dict[str, str] = {}  # variable → its label (or its relationship type)
    props: dict[str, dict[str, PropertyType]] = {}  # label or type → property → type
    edges: dict[str, set[tuple[str, str]]] = {}  # relationship type → endpoint pairs
    for node in query.walk():
        if isinstance(node, p.NodePattern) and node.labels is not None:
            label = _single(node.labels, "a node pattern")
            props.setdefault(label, {})
            if node.variable is not None and labels.setdefault(node.variable, label) != label:
                raise _needs_schema(f"({node.variable}) has two labels")
            _map_keys(node.properties, props[label])
    for node in query.walk():
        if isinstance(node, p.PathPattern):
            _path_edges(node.path, labels, props, edges)
    for node in query.walk():
        if isinstance(node, x.Property) and isinstance(node.subject, x.Variable):
            owner = labels.get(node.subject.name)
            if owner is not None:
                props[owner].setdefault(node.key, _UNKNOWN)
    _type_from_comparisons(query, labels, props)
    node_types = tuple(
        NodeType(label, tuple(Property(k, t) for k, t in props[label].items()))
        for label in props
        if label not in edges
    )
    edge_types = tuple(
        EdgeType(
            label,
            tuple(Endpoint(s, t) for s, t in sorted(pairs)),
            properties=tuple(Property(k, t) for k, t in props.get(label, {}).items()),
        )
        for label, pairs in edges.items()
    )
    return SchemaGraph("query", node_types, edge_types)


def _single(labels: p.LabelExpr, where: str) -> str:
    if isinstance(labels, p.Label):
        return labels.name
    raise _needs_schema(f"{where} with a label expression names no single table")


def _needs_schema(why: str) -> SchemaError:
    return SchemaError(
        f"cannot derive tables from the query's labels: {why}; pass --schema",
        code="SCHEMA_REQUIRED",
    )


def _map_keys(properties: x.Expr | None, into: dict[str, PropertyType]) -> None:
    if isinstance(properties, x.MapLiteral):
        for key, value in properties.entries:
            into.setdefault(key, _literal_type(value) or _UNKNOWN)


def _path_edges(
    path: Any,
    labels: dict[str, str],
    props: dict[str, dict[str, PropertyType]],
    edges: dict[str, set[tuple[str, str]]],
) -> None:
    """Each relationship type between two labelled nodes of ``path`` is an edge table."""
    if isinstance(path, p.PathUnion):
        for chain in path.alternatives:
            _path_edges(chain, labels, props, edges)
        return
    elements = list(path.elements)
    for i, element in enumerate(elements):
        if isinstance(element, p.ParenPath):
            _path_edges(element.path, labels, props, edges)
            continue
        if not isinstance(element, p.RelPattern) or element.types is None:
            continue
        label = _single(element.types, "a relationship pattern")
        ends = [_label_of(elements[j], labels) for j in (i - 1, i + 1) if 0 <= j < len(elements)]
        known = [end for end in ends if end is not None]
        if len(known) != 2:
            raise _needs_schema(f"a :{label} relationship has an endpoint without a label")
        source, target = known
        if element.direction is p.Direction.IN:
            source, target = target, source
        elif element.direction is not p.Direction.OUT:
            raise _needs_schema(f"the :{label} relationship has no direction")
        edges.setdefault(label, set()).add((source, target))
        _map_keys(element.properties, props.setdefault(label, {}))
        if element.variable is not None and element.quantifier is None:
            labels.setdefault(element.variable, label)  # r.since reads the edge table


def _label_of(element: Any, labels: dict[str, str]) -> str | None:
    if not isinstance(element, p.NodePattern):
        return None
    if element.labels is not None:
        return _single(element.labels, "a node pattern")
    return labels.get(element.variable) if element.variable else None


def _type_from_comparisons(
    query: Node, labels: dict[str, str], props: dict[str, dict[str, PropertyType]]
) -> None:
    """``n.age > 30``: the property holds integers; the first literal compared decides."""
    for node in query.walk():
        if not isinstance(node, x.Comparison):
            continue
        for prop, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(prop, x.Property) and isinstance(prop.subject, x.Variable):
                owner = labels.get(prop.subject.name)
                kind = _literal_type(other)
                if owner is not None and kind is not None and props[owner][prop.key] == _UNKNOWN:
                    props[owner][prop.key] = kind


_LITERAL_KINDS = {
    x.Boolean: TypeKind.BOOLEAN,
    x.Integer: TypeKind.INT64,
    x.Float: TypeKind.FLOAT64,
    x.String: TypeKind.STRING,
}
_TEMPORAL_KINDS = {
    x.TemporalKind.DATE: TypeKind.DATE,
    x.TemporalKind.LOCAL_TIME: TypeKind.LOCAL_TIME,
    x.TemporalKind.TIME: TypeKind.TIME,
    x.TemporalKind.LOCAL_DATETIME: TypeKind.LOCAL_DATETIME,
    x.TemporalKind.DATETIME: TypeKind.DATETIME,
    x.TemporalKind.DURATION: TypeKind.DURATION,
}


def _literal_type(value: x.Expr) -> PropertyType | None:
    if isinstance(value, x.TemporalLiteral):
        return PropertyType(_TEMPORAL_KINDS[value.kind])
    kind = _LITERAL_KINDS.get(type(value))
    return PropertyType(kind) if kind is not None else None
