"""A session statement in every dialect: the emitters write each IR statement in each target
dialect, and a dialect whose emitter refuses it is recorded as unsupported for that statement
with the construct it named (never left out silently)."""

from __future__ import annotations

from typing import Any

from ..emitter import emit
from ..errors import GqlirError, UnsupportedError
from ..ir import query as q
from ..schema.model import SchemaGraph

#: the dialects a session is written in; ``neo4j`` is the source the gold answers come from
DIALECTS = (
    "neo4j",
    "opencypher9",
    "tugraph-cypher",
    "kuzu",
    "iso-gql",
    "tugraph-gql",
    "spanner",
    "sqlpgq",
    "sql:sqlite",
    "sql:duckdb",
    "sql:postgres",
)
SOURCE_DIALECT = "neo4j"

#: dialects whose text must name the property graph (Spanner's ``GRAPH g`` prefix)
_NAMES_GRAPH = frozenset({"spanner"})


def emit_everywhere(
    statement: q.LinearQuery, schema: SchemaGraph, dialects: tuple[str, ...] = DIALECTS
) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """(texts by dialect, unsupported dialects with ``construct`` and ``reason``)."""
    texts: dict[str, str] = {}
    refused: dict[str, dict[str, str]] = {}
    for dialect in dialects:
        node: Any = statement
        if dialect in _NAMES_GRAPH:
            node = q.LinearQuery((q.UseGraph(schema.name or "graph"), *statement.steps))
        try:
            texts[dialect] = emit(node, dialect, schema=schema)
        except UnsupportedError as exc:
            refused[dialect] = {"construct": exc.construct, "reason": exc.message}
        except GqlirError as exc:
            refused[dialect] = {"construct": exc.code, "reason": exc.message}
    return texts, refused


__all__ = ["DIALECTS", "SOURCE_DIALECT", "emit_everywhere"]
