"""SQL/PGQ's property graph DDL: ``CREATE PROPERTY GRAPH … VERTEX TABLES … EDGE TABLES …`` and
``DROP PROPERTY GRAPH`` (ISO/IEC 9075-16:2023; Oracle, DuckPGQ, PostgreSQL).

A property graph is a view of tables as vertices and edges: each element table names its
table, its key columns, (for an edge) the columns that reference its source and destination
vertex tables, and its labels with the columns each exposes as properties. These nodes keep the
statement as written, so that it reads back to the same node; the schema it defines is
:func:`gqlir.schema.formats._pgq.to_schema`'s business, given the tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from .node import Node
from .query import Statement


@dataclass(frozen=True, slots=True)
class PropertyColumn(Node):
    """``column [AS property]``: the column a property reads, and the property's name."""

    column: str
    name: str


@dataclass(frozen=True, slots=True)
class ElementLabel(Node):
    """``LABEL name`` (``DEFAULT LABEL`` when ``label`` is None: the element table's name) and
    its properties: the listed columns, or ``all_columns`` (``PROPERTIES ARE ALL COLUMNS``, the
    default) except ``except_columns``. ``NO PROPERTIES`` is an empty list."""

    label: str | None
    properties: tuple[PropertyColumn, ...] = ()
    all_columns: bool = True
    except_columns: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EdgeEnd(Node):
    """``SOURCE KEY (columns) REFERENCES table [(columns)]`` or the same for DESTINATION."""

    columns: tuple[str, ...]
    table: str
    referenced: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ElementTable(Node):
    """One vertex or edge table of the graph. ``key`` None: the table's primary key."""

    table: str
    alias: str | None = None
    key: tuple[str, ...] | None = None
    source: EdgeEnd | None = None
    destination: EdgeEnd | None = None
    labels: tuple[ElementLabel, ...] = ()


@dataclass(frozen=True, slots=True)
class CreatePropertyGraph(Statement):
    name: str
    vertices: tuple[ElementTable, ...]
    edges: tuple[ElementTable, ...] = ()
    or_replace: bool = False
    if_not_exists: bool = False


@dataclass(frozen=True, slots=True)
class DropPropertyGraph(Statement):
    name: str
    if_exists: bool = False
