"""GQL catalog, session and transaction statements, and requests made of several statements.

These are statements, not queries. Catalog objects (schemas, graphs, graph types) are named by
their catalog reference as written: a name (``g``), an absolute path (``/dir/g``) or a
predefined reference (``HOME_GRAPH``, ``CURRENT_SCHEMA`` …), upper-cased in that last case.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .expr import Expr, TypeRef
from .node import Node
from .query import Statement

# -- requests ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Program(Statement):
    """Several statements run in order as one request (session commands, a transaction's start,
    its procedure and its end; or a sequence of catalog statements)."""

    statements: tuple[Statement, ...]


# -- sessions and transactions ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionSetSchema(Statement):
    schema: str


@dataclass(frozen=True, slots=True)
class SessionSetGraph(Statement):
    graph: str


@dataclass(frozen=True, slots=True)
class SessionSetTimeZone(Statement):
    zone: str


@dataclass(frozen=True, slots=True)
class SessionSetParameter(Statement):
    """``SESSION SET VALUE [IF NOT EXISTS] $name [:: type] = value``."""

    name: str
    value: Expr
    type: TypeRef | None = None
    if_not_exists: bool = False


class SessionResetTarget(enum.Enum):
    ALL = "ALL"  # no argument, ALL PARAMETERS or ALL CHARACTERISTICS: the whole session
    PARAMETERS = "PARAMETERS"
    CHARACTERISTICS = "CHARACTERISTICS"
    SCHEMA = "SCHEMA"
    GRAPH = "GRAPH"
    TIME_ZONE = "TIME ZONE"
    PARAMETER = "PARAMETER"  # one parameter, named by ``SessionReset.parameter``


@dataclass(frozen=True, slots=True)
class SessionReset(Statement):
    target: SessionResetTarget = SessionResetTarget.ALL
    parameter: str | None = None


@dataclass(frozen=True, slots=True)
class SessionClose(Statement):
    pass


@dataclass(frozen=True, slots=True)
class StartTransaction(Statement):
    """``START TRANSACTION [READ ONLY | READ WRITE]``; without an access mode GQL (like SQL)
    starts a read-write transaction."""

    read_only: bool = False


@dataclass(frozen=True, slots=True)
class Commit(Statement):
    pass


@dataclass(frozen=True, slots=True)
class Rollback(Statement):
    pass


# -- graph types ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PropertyType(Node):
    name: str
    type: TypeRef


@dataclass(frozen=True, slots=True)
class NodeType(Node):
    """A node type of a graph type, or a reference to one (an edge type's endpoint).

    ``alias`` is the local name other element types use to refer to it; ``key_labels`` is the
    label set before ``=>`` / ``IMPLIES`` (None when there is no key label set).
    """

    name: str | None = None
    alias: str | None = None
    labels: tuple[str, ...] = ()
    key_labels: tuple[str, ...] | None = None
    properties: tuple[PropertyType, ...] = ()


@dataclass(frozen=True, slots=True)
class EdgeType(Node):
    """An edge type. ``source`` and ``destination`` identify node types: by ``alias`` (a node
    type's alias, or its name as in ``CONNECTING (Person -> Person)``) or by a filler (labels and
    property types) that matches one."""

    source: NodeType
    destination: NodeType
    directed: bool = True
    name: str | None = None
    labels: tuple[str, ...] = ()
    key_labels: tuple[str, ...] | None = None
    properties: tuple[PropertyType, ...] = ()


@dataclass(frozen=True, slots=True)
class GraphTypeSpec(Node):
    """A nested graph type specification ``{ element type, … }``."""

    elements: tuple[NodeType | EdgeType, ...]


@dataclass(frozen=True, slots=True)
class OpenGraphType(Node):
    """``ANY [PROPERTY] GRAPH``: the graph accepts any nodes and edges."""


@dataclass(frozen=True, slots=True)
class GraphTypeName(Node):
    """A named graph type in the catalog."""

    name: str


@dataclass(frozen=True, slots=True)
class GraphTypeLike(Node):
    """``LIKE g``: the graph type of an existing graph."""

    graph: str


GraphTypeSource = OpenGraphType | GraphTypeName | GraphTypeLike | GraphTypeSpec


# -- catalog statements --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateSchema(Statement):
    path: str
    if_not_exists: bool = False


@dataclass(frozen=True, slots=True)
class DropSchema(Statement):
    path: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class CreateGraph(Statement):
    """``CREATE [OR REPLACE] GRAPH [IF NOT EXISTS] name <type> [AS COPY OF g]``."""

    name: str
    graph_type: GraphTypeSource
    copy_of: str | None = None
    if_not_exists: bool = False
    or_replace: bool = False


@dataclass(frozen=True, slots=True)
class DropGraph(Statement):
    name: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class CreateGraphType(Statement):
    """``CREATE [OR REPLACE] GRAPH TYPE [IF NOT EXISTS] name <source>``; a ``GraphTypeName``
    source is ``COPY OF`` that type."""

    name: str
    source: GraphTypeName | GraphTypeLike | GraphTypeSpec
    if_not_exists: bool = False
    or_replace: bool = False


@dataclass(frozen=True, slots=True)
class DropGraphType(Statement):
    name: str
    if_exists: bool = False
