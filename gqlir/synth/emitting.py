"""Writing one IR query in every target dialect. A dialect that cannot express the query is
recorded with the construct it refused, never dropped silently."""

from __future__ import annotations

from typing import Any

from .. import ir
from ..errors import GqlirError, UnsupportedError
from ..schema.model import SchemaGraph

#: the dialects a dataset carries by default (``sql:sqlite`` is the SQL SQLite runs)
DEFAULT_DIALECTS = (
    "neo4j",
    "opencypher9",
    "iso-gql",
    "spanner",
    "tugraph-gql",
    "kuzu",
    "sql",
    "sql:sqlite",
    "sqlpgq",
)


_MAPPINGS: dict[int, tuple[SchemaGraph, Any]] = {}


def _table_mapping(schema: SchemaGraph) -> Any:
    """The SQL table mapping of ``schema``, built once per schema (building it costs more
    than writing a query through it)."""
    from ..sqlmapping import mapping_for

    found = _MAPPINGS.get(id(schema))
    if found is None or found[0] is not schema:
        found = _MAPPINGS[id(schema)] = (schema, mapping_for(schema))
    return found[1]


def _instant_properties(schema: SchemaGraph) -> set[str]:
    from ..schema.types import TypeKind

    return {
        p.name
        for element in schema.elements()
        for p in element.properties
        if p.type.kind == TypeKind.DATETIME
    }


def _orders_instants(query: ir.Query, schema: SchemaGraph) -> bool:
    """Whether the query orders, compares or takes the min/max of a zoned date-time."""
    names = _instant_properties(schema)
    if not names:
        return False
    for n in query.walk():
        if isinstance(n, ir.SortItem):
            keys = [n.expr]
        elif isinstance(n, ir.Comparison):
            keys = [n.left, n.right]
        elif isinstance(n, ir.Aggregate) and n.name in ("min", "max"):
            keys = list(n.args)
        else:
            continue
        if any(isinstance(k, ir.Property) and k.key in names for k in keys):
            return True
    return False


def emit_one(query: ir.Query, dialect: str, schema: SchemaGraph) -> str:
    from ..api import emit

    if dialect == "spanner":
        from ..emitter.gql import emit_gql

        return emit_gql(query, "spanner", graph=schema.name or "graph")
    if dialect == "sql:sqlite" and _orders_instants(query, schema):
        # the SQLite loader keeps a zoned date-time as its text: instants in different
        # offsets would be ordered by their spelling, not by time
        raise UnsupportedError("ordering of zoned date-times stored as text", dialect)
    if dialect.startswith("sql"):
        return emit(query, dialect, schema=_table_mapping(schema))
    return emit(query, dialect)


def _reads_back(text: str, dialect: str) -> None:
    """An emitted text gqlir's own grammar for the dialect rejects is not kept: the emitter
    and the grammar disagree, and one of them is wrong."""
    from ..api import parse

    try:
        parse(text, dialect)
    except GqlirError as exc:
        raise UnsupportedError(
            f"text that does not parse back ({exc.message.splitlines()[0]})", dialect
        ) from None


def emit_all(
    query: ir.Query, dialects: tuple[str, ...] | list[str], schema: SchemaGraph
) -> tuple[dict[str, str], dict[str, str]]:
    """(text by dialect, refusal by dialect). An emitter failure that is not a refusal is
    recorded too, with its kind, so a bug elsewhere shows in the dataset card."""
    texts: dict[str, str] = {}
    refused: dict[str, str] = {}
    for dialect in dialects:
        try:
            text = emit_one(query, dialect, schema)
            if not dialect.startswith("sql"):
                _reads_back(text, dialect)
            texts[dialect] = text
        except UnsupportedError as exc:
            refused[dialect] = exc.construct
        except GqlirError as exc:
            refused[dialect] = f"{exc.code}: {exc.message}"
        except Exception as exc:  # an emitter bug must not stop the run: it is reported
            refused[dialect] = f"emitter failure: {type(exc).__name__}: {exc}"
    return texts, refused
