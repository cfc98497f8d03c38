"""A ZetaSQL catalog for a SchemaGraph: the tables, keys and property graph exactly as
``gqlir schema convert --to spanner`` writes them (:func:`gqlir.schema.formats.spanner.model`).

Layout of ZetaSQL's ``SimpleCatalogProto`` (zetasql/proto/simple_catalog.proto and
simple_property_graph.proto): one ``table`` per Spanner table, and a ``property_graph`` whose
node and edge tables name their input table, key columns (by index), labels and property
definitions (each the SQL expression of its column); edge tables reference their endpoint node
tables by column indexes. Labels and property declarations are listed once for the graph.
"""

from __future__ import annotations

from typing import Any

from ..schema.formats import _pgq
from ..schema.formats.spanner import model
from ..schema.model import SchemaGraph
from ..schema.relational import Table
from ..schema.types import SPANNER, PropertyType, TypeKind

# gqlir's types as Spanner holds them (after SPANNER's widening) -> ZetaSQL's TypeKind names
# (https://cloud.google.com/spanner/docs/reference/standard-sql/data-types).
_TYPE_KINDS = {
    TypeKind.BOOLEAN: "TYPE_BOOL",
    TypeKind.INT64: "TYPE_INT64",
    TypeKind.FLOAT32: "TYPE_FLOAT",
    TypeKind.FLOAT64: "TYPE_DOUBLE",
    TypeKind.STRING: "TYPE_STRING",
    TypeKind.BYTES: "TYPE_BYTES",
    TypeKind.DECIMAL: "TYPE_NUMERIC",
    TypeKind.DATE: "TYPE_DATE",
    TypeKind.DATETIME: "TYPE_TIMESTAMP",
    TypeKind.DURATION: "TYPE_INTERVAL",
    TypeKind.JSON: "TYPE_JSON",
}


def _pb() -> Any:
    from zetasql.wasi._pb2.zetasql.proto import simple_catalog_pb2, simple_property_graph_pb2
    from zetasql.wasi._pb2.zetasql.public import simple_table_pb2, type_pb2

    return simple_catalog_pb2, simple_property_graph_pb2, simple_table_pb2, type_pb2


def type_proto(t: PropertyType) -> Any:
    """ZetaSQL's TypeProto for the Spanner column type of ``t``."""
    type_pb2 = _pb()[3]
    t = SPANNER.substitute(t)
    if t.kind == TypeKind.LIST:
        assert t.element is not None
        array = type_pb2.ArrayTypeProto(element_type=type_proto(t.element))
        return type_pb2.TypeProto(type_kind=type_pb2.TYPE_ARRAY, array_type=array)
    return type_pb2.TypeProto(type_kind=type_pb2.TypeKind.Value(_TYPE_KINDS[t.kind]))


def _indexes(table: Table, columns: tuple[str, ...]) -> list[int]:
    names = [c.name for c in table.columns]
    return [names.index(c) for c in columns]


def catalog_proto(schema: SchemaGraph, builtin_functions: Any) -> Any:
    """The SimpleCatalogProto of ``schema``'s Spanner DDL; ``builtin_functions`` is the
    ZetaSQLBuiltinFunctionOptionsProto (without it no built-in function resolves)."""
    simple_catalog_pb2, spg, simple_table_pb2, _ = _pb()
    rel, pg = model(schema)
    tables = {t.name: t for t in rel.tables}
    catalog = simple_catalog_pb2.SimpleCatalogProto(builtin_function_options=builtin_functions)
    for t in rel.tables:
        catalog.table.append(
            simple_table_pb2.SimpleTableProto(
                name=t.name,
                column=[
                    simple_table_pb2.SimpleColumnProto(name=c.name, type=type_proto(c.type))
                    for c in t.columns
                ],
                primary_key_column_index=_indexes(t, t.primary_key),
            )
        )
    path = [pg.name]
    graph = spg.SimplePropertyGraphProto(name=pg.name, name_path=path)
    labels: dict[str, list[str]] = {}
    declarations: dict[str, Any] = {}

    def element(e: _pgq.ElementTable, kind: Any) -> Any:
        table = tables[e.table]
        types = {c.name: c.type for c in table.columns}
        definitions = []
        for ld in e.labels:
            assert ld.label is not None and not isinstance(ld.properties, str)  # not ALL
            names = labels.setdefault(ld.label, [])
            for column, prop in ld.properties:
                if prop not in names:
                    names.append(prop)
                declarations.setdefault(prop, type_proto(types[column]))
                definition = spg.SimpleGraphPropertyDefinitionProto(
                    property_declaration_name=prop, value_expression_sql=f"`{column}`"
                )
                if definition not in definitions:
                    definitions.append(definition)
        return spg.SimpleGraphElementTableProto(
            name=e.name,
            property_graph_name_path=path,
            kind=kind,
            input_table_name=e.table,
            key_columns=_indexes(table, e.key or table.primary_key),
            label_names=[ld.label for ld in e.labels if ld.label is not None],
            property_definitions=definitions,
        )

    def reference(edge: _pgq.ElementTable, end: tuple[tuple[str, ...], str, tuple[str, ...]]):
        columns, node_table, node_columns = end
        return spg.SimpleGraphNodeTableReferenceProto(
            node_table_name=node_table,
            edge_table_columns=_indexes(tables[edge.table], columns),
            node_table_columns=_indexes(tables[node_table], node_columns),
        )

    kinds = spg.SimpleGraphElementTableProto.Kind
    for v in pg.vertices:
        graph.node_tables.append(element(v, kinds.Value("NODE")))
    for e in pg.edges:
        assert e.source is not None and e.destination is not None
        table = element(e, kinds.Value("EDGE"))
        table.source_node_table.CopyFrom(reference(e, e.source))
        table.dest_node_table.CopyFrom(reference(e, e.destination))
        graph.edge_tables.append(table)
    for name, props in labels.items():
        graph.labels.append(
            spg.SimpleGraphElementLabelProto(
                name=name, property_graph_name_path=path, property_declaration_names=props
            )
        )
    for name, t in declarations.items():
        graph.property_declarations.append(
            spg.SimpleGraphPropertyDeclarationProto(
                name=name, property_graph_name_path=path, type=t
            )
        )
    catalog.property_graph.append(graph)
    return catalog
