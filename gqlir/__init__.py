"""gqlir: a multi-dialect graph query compiler.

Public API (stable):

    gqlir.parse(text, dialect="neo4j")        -> ir.Query        (raises ParseError)
    gqlir.emit(query, dialect="iso-gql")      -> str             (raises UnsupportedError)
    gqlir.transpile(text, read=..., write=...) -> str
    gqlir.validate(text, dialect=..., schema=...) -> ValidationResult (schema issues included)

Emitter options are keyword arguments of ``emit`` and ``transpile`` (``pretty``, ``graph``,
``spanner_elements``, ``rename_variables``: ``EmitOptions``), checked against the target.

SQL dialects (``sql:sqlite``, ``sqlpgq:oracle`` ...) also take ``schema=``: the mapping of
tables to node and edge types (a graph folder, a schema or DDL file, a database file, or a
SchemaGraph), e.g. ``gqlir.transpile(sql, "sql:sqlite", "iso-gql", schema="schemas/bookstore")``.

Submodules are imported lazily so that ``import gqlir`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Unpack

from .errors import (
    DialectError,
    EngineError,
    GqlirError,
    ParseError,
    SchemaError,
    SemanticError,
    UnsupportedError,
)

if TYPE_CHECKING:
    from . import ir
    from .api import EmitOptions, SchemaSource, ValidationResult, emit_options
    from .dialect import Dialect, DialectName
    from .schema.checks import SchemaIssue

__version__ = "0.1.0"

__all__ = [
    "DialectError",
    "EmitOptions",
    "EngineError",
    "GqlirError",
    "ParseError",
    "SchemaError",
    "SchemaIssue",
    "SemanticError",
    "UnsupportedError",
    "ValidationResult",
    "emit",
    "emit_options",
    "get_dialect",
    "parse",
    "transpile",
    "validate",
]


def parse(
    text: str,
    dialect: DialectName | str = "neo4j",
    *,
    schema: SchemaSource | None = None,
    graph: str | None = None,
) -> ir.Statement:
    """Parse text of ``dialect`` into the Graph-IR: a query, or a schema or catalog command
    (``CREATE INDEX …``). ``schema``: SQL's table mapping; ``graph``: the graph a Spanner
    query without a GRAPH clause reads."""
    from .api import parse as _parse

    return _parse(text, dialect, schema=schema, graph=graph)


def emit(
    query: ir.Node,
    dialect: DialectName | str = "neo4j",
    *,
    schema: SchemaSource | None = None,
    **options: Unpack[EmitOptions],
) -> str:
    """Render a Graph-IR query as text of ``dialect`` (``schema``: SQL's table mapping, GQL's
    property types; ``options``: the target's emitter options, see ``EmitOptions``)."""
    from .api import emit as _emit

    return _emit(query, dialect, schema=schema, **options)


def transpile(
    text: str,
    read: DialectName | str = "neo4j",
    write: DialectName | str = "neo4j",
    *,
    schema: SchemaSource | None = None,
    **options: Unpack[EmitOptions],
) -> str:
    """Translate query text from dialect ``read`` to dialect ``write`` (``graph=``: the graph
    the query reads, for a Spanner source without a GRAPH clause and for a GQL target)."""
    from .api import transpile as _transpile

    return _transpile(text, read, write, schema=schema, **options)


def validate(
    text: str,
    dialect: DialectName | str = "neo4j",
    *,
    schema: SchemaSource | None = None,
    graph: str | None = None,
) -> ValidationResult:
    """Check that ``text`` is a valid query of ``dialect`` and, given a ``schema``, that it fits
    it; never raises for bad queries."""
    from .api import validate as _validate

    return _validate(text, dialect, schema=schema, graph=graph)


def get_dialect(name: DialectName | str) -> Dialect:
    from .dialect import get_dialect as _get

    return _get(name)


def __getattr__(name: str) -> Any:
    if name in ("ValidationResult", "EmitOptions", "emit_options"):
        from . import api

        return getattr(api, name)
    if name == "SchemaIssue":
        from .schema.checks import SchemaIssue

        return SchemaIssue
    raise AttributeError(f"module 'gqlir' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names only (not the typing helpers this module imports)."""
    return sorted(__all__)
