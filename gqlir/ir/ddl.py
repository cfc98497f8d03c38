"""Schema and catalog commands: indexes, constraints, SHOW.

These are statements, not queries: they change or inspect the database's schema. The
SchemaGraph IR (a later layer) describes whole schemas; these nodes carry single commands.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .expr import TypeRef
from .node import Node
from .query import Statement


class ElementKind(enum.Enum):
    NODE = "node"
    RELATIONSHIP = "relationship"


@dataclass(frozen=True, slots=True)
class SchemaTarget(Node):
    """``(n:Label)`` or ``()-[r:TYPE]-()`` in an index or constraint definition."""

    kind: ElementKind
    variable: str
    label: str


@dataclass(frozen=True, slots=True)
class CreateIndex(Statement):
    target: SchemaTarget
    properties: tuple[str, ...]
    name: str | None = None
    index_type: str = "RANGE"
    if_not_exists: bool = False


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


@dataclass(frozen=True, slots=True)
class DropIndex(Statement):
    name: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class DropConstraint(Statement):
    name: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class Show(Statement):
    """``SHOW [filter] INDEXES|CONSTRAINTS|PROCEDURES|FUNCTIONS|…``."""

    kind: str
    filter: str | None = None
