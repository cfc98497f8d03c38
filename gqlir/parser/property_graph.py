"""SQL/PGQ's ``CREATE [OR REPLACE] PROPERTY GRAPH [IF NOT EXISTS] …`` and ``DROP PROPERTY GRAPH
[IF EXISTS] g`` → :mod:`gqlir.ir.property_graph`.

The element-table grammar is the one :mod:`gqlir.schema.formats._pgq` reads for schemas (its
sources: ISO/IEC 9075-16, Oracle sqlrf create-property-graph.html, DuckPGQ, PostgreSQL
doc/src/sgml/ref/create_property_graph.sgml); this module only turns its result into IR nodes
and says where the text is wrong.
"""

from __future__ import annotations

from .. import ir
from ..dialect import Dialect
from ..errors import ParseError, SchemaError
from ..schema.formats import _pgq
from ..schema.formats._ddl import Cursor
from ..sqlpgqforms import form_of

__all__ = ["read_property_graph_statement"]


def read_property_graph_statement(text: str, dialect: Dialect) -> ir.Statement | None:
    """The statement ``text`` holds if it is a property graph's CREATE or DROP, else None. A
    graph without element tables (``CREATE PROPERTY GRAPH g1``) is read where the form has
    them (form fact ``empty_graphs``: PostgreSQL), and is a syntax error elsewhere."""
    c = Cursor(text)
    start = c.i
    try:
        if c.accept_kw("CREATE"):
            or_replace = c.accept_kw("OR", "REPLACE")
            if not c.accept_kw("PROPERTY", "GRAPH"):
                c.i = start
                return None
            return _create(c, or_replace, empty=form_of(dialect).empty_graphs)
        if c.accept_kw("DROP", "PROPERTY", "GRAPH"):
            if_exists = c.accept_kw("IF", "EXISTS")
            name = c.qualified("the graph's name")
            _end(c, "DROP PROPERTY GRAPH")
            return ir.DropPropertyGraph(name, if_exists, pos=0)
    except SchemaError as exc:
        raise ParseError(exc.message, text=text, offset=exc.offset, code="PARSE_DDL") from None
    return None


def _create(c: Cursor, or_replace: bool, empty: bool) -> ir.CreatePropertyGraph:
    if_not_exists = c.accept_kw("IF", "NOT", "EXISTS")
    name = c.qualified("the graph's name")
    vertices: list[_pgq.ElementTable] = []
    if c.accept_kw("VERTEX", "TABLES") or c.accept_kw("NODE", "TABLES"):
        vertices = _pgq._element_list(c)
    elif not (empty and (c.at_end() or c.at(";"))):
        raise c.error(f"expected VERTEX TABLES or NODE TABLES, found {c.describe()}")
    edges: list[_pgq.ElementTable] = []
    if c.accept_kw("EDGE", "TABLES") or c.accept_kw("RELATIONSHIP", "TABLES"):
        edges = _pgq._element_list(c)
    _end(c, "CREATE PROPERTY GRAPH")
    return ir.CreatePropertyGraph(
        name,
        tuple(_element(v) for v in vertices),
        tuple(_element(e) for e in edges),
        or_replace,
        if_not_exists,
        pos=0,
    )


def _end(c: Cursor, what: str) -> None:
    c.accept(";")
    if not c.at_end():
        raise c.error(f"unexpected {c.describe()} in {what}")


def _element(e: _pgq.ElementTable) -> ir.ElementTable:
    def end(link: tuple[tuple[str, ...], str, tuple[str, ...]] | None) -> ir.EdgeEnd | None:
        if link is None:
            return None
        cols, table, refcols = link
        return ir.EdgeEnd(tuple(cols), table, tuple(refcols))

    labels = []
    for ld in e.labels:
        if ld.properties == _pgq.ALL:
            labels.append(ir.ElementLabel(ld.label, (), True, tuple(ld.except_columns)))
        else:
            assert not isinstance(ld.properties, str)
            props = tuple(ir.PropertyColumn(col, prop) for col, prop in ld.properties)
            labels.append(ir.ElementLabel(ld.label, props, False))
    return ir.ElementTable(
        e.table,
        e.alias,
        tuple(e.key) if e.key is not None else None,
        end(e.source),
        end(e.destination),
        tuple(labels),
    )
