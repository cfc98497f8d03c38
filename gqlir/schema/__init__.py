"""Graph schemas: the SchemaGraph model, its type system, readers and writers for the schema
formats of graph databases and benchmarks, the relational mapping, the graph data format, and
schema-aware query checks.

    from gqlir.schema import load_schema, read_schema, write_schema
    schema = load_schema("schemas/movies")                   # a graph folder, or any schema file
    ddl = write_schema(schema, "kuzu", lossy=True)            # .text, .report (what was lost)
    same = read_schema(ddl.text, "kuzu", name="movies")
    issues = check(gqlir.parse("MATCH (m:Movei) RETURN m"), schema)  # [SchemaIssue ...]

Modules: :mod:`.model`, :mod:`.types`, :mod:`.report`, :mod:`.relational`, :mod:`.formats`
(one module per format), :mod:`.graphdata` (docs/graph-format.md), :mod:`.loaders`,
:mod:`.checks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .formats import WriteResult, detect_format, format_names
from .formats import read as read_schema
from .formats import write as write_schema
from .loading import load_schema
from .model import (
    Cardinality,
    EdgeType,
    Endpoint,
    NodeType,
    Participation,
    Property,
    SchemaGraph,
)
from .report import Change, LossReport, diff
from .types import PropertyType, TypeKind, parse_type

if TYPE_CHECKING:
    from .checks import SchemaIssue, check, suggest

_CHECKS = ("SchemaIssue", "check", "suggest")

__all__ = [
    "Cardinality",
    "Change",
    "EdgeType",
    "Endpoint",
    "LossReport",
    "NodeType",
    "Participation",
    "Property",
    "PropertyType",
    "SchemaGraph",
    "SchemaIssue",
    "TypeKind",
    "WriteResult",
    "check",
    "detect_format",
    "diff",
    "format_names",
    "load_schema",
    "parse_type",
    "read_schema",
    "suggest",
    "write_schema",
]


def __getattr__(name: str) -> Any:
    """The query checks load the Graph-IR: imported on first use, so reading a schema stays
    light."""
    if name in _CHECKS:
        from . import checks

        return getattr(checks, name)
    raise AttributeError(f"module 'gqlir.schema' has no attribute {name!r}")
