"""Schema and catalog commands: indexes, constraints, SHOW.

These are statements, not queries: they change or inspect the database's schema. The
SchemaGraph IR (a later layer) describes whole schemas; these nodes carry single commands.

One node per meaning: Neo4j 4's ``CREATE CONSTRAINT ON (n:L) ASSERT n.p IS UNIQUE`` and Neo4j
5's ``CREATE CONSTRAINT FOR (n:L) REQUIRE n.p IS NODE UNIQUE`` are the same
:class:`CreateConstraint`. The variable of a schema pattern only names the element inside the
command, so it is not kept (4.x's ``CREATE INDEX ON :L(p)`` has none).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .expr import Expr, TypeRef
from .node import Node
from .query import Projection, Statement


class ElementKind(enum.Enum):
    NODE = "node"
    RELATIONSHIP = "relationship"


@dataclass(frozen=True, slots=True)
class SchemaTarget(Node):
    """``(n:Label)`` or ``()-[r:TYPE]-()`` in an index or constraint definition. A full-text
    index may name several labels (``(n:A|B)``); a token lookup index names none (``(n)``)."""

    kind: ElementKind
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CreateIndex(Statement):
    """``index_type`` is RANGE (the default index of ``CREATE INDEX``), TEXT, POINT, VECTOR,
    FULLTEXT (``ON EACH [n.a, n.b]``), LOOKUP (``ON EACH labels(n)`` / ``type(r)``, no
    properties) or BTREE (Neo4j 4 only). ``options`` is the ``OPTIONS`` map or parameter."""

    target: SchemaTarget
    properties: tuple[str, ...]
    name: str | None = None
    index_type: str = "RANGE"
    if_not_exists: bool = False
    options: Expr | None = None


class ConstraintKind(enum.Enum):
    UNIQUE = "UNIQUE"
    NOT_NULL = "NOT NULL"
    KEY = "KEY"
    TYPE = "TYPE"


@dataclass(frozen=True, slots=True)
class CreateConstraint(Statement):
    target: SchemaTarget
    properties: tuple[str, ...]
    kind: ConstraintKind
    name: str | None = None
    property_type: TypeRef | None = None
    if_not_exists: bool = False
    options: Expr | None = None


@dataclass(frozen=True, slots=True)
class DropIndex(Statement):
    """``DROP INDEX name``, or (Neo4j 4) ``DROP INDEX ON :L(p)``: the index found by its
    schema, then ``name`` is None and ``target``/``properties`` say which."""

    name: str | None
    if_exists: bool = False
    target: SchemaTarget | None = None
    properties: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DropConstraint(Statement):
    """``DROP CONSTRAINT name``, or (Neo4j 4) ``DROP CONSTRAINT ON (n:L) ASSERT …``: the
    constraint found by its definition (``name`` None)."""

    name: str | None
    if_exists: bool = False
    target: SchemaTarget | None = None
    properties: tuple[str, ...] = ()
    kind: ConstraintKind | None = None


@dataclass(frozen=True, slots=True)
class Show(Statement):
    """``SHOW [filter] INDEXES|CONSTRAINTS|… [YIELD …] [WHERE …] [RETURN …]``.

    ``filter`` is canonical (``REL EXIST`` and ``RELATIONSHIP PROPERTY EXISTENCE`` are both
    ``RELATIONSHIP EXISTENCE``; ``ALL`` is no filter). ``yield_`` projects the command's
    columns (with its ORDER BY/SKIP/LIMIT), ``where`` filters them, ``return_`` projects last.
    """

    kind: str
    filter: str | None = None
    yield_: Projection | None = None
    where: Expr | None = None
    return_: Projection | None = None
