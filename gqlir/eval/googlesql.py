"""GoogleSQL functions that Spanner output uses, evaluated with GoogleSQL's meaning.

``TO_JSON(x)`` and ``SAFE_TO_JSON(x)`` of a graph element give the JSON object Spanner and
ZetaSQL write for it: ``{"identifier", "kind": "node", "labels", "properties"}``, an edge adding
``source_node_identifier`` and ``destination_node_identifier``; a path is the JSON array of its
elements in order (https://cloud.google.com/spanner/docs/graph/work-with-visualizations;
GoogleSQL's cast tests, "Cast GRAPH_ELEMENT" and "Cast GRAPH_PATH": a node is
``{"identifier":…,"kind":"node","labels":["L1"],"properties":{"a":1}}``, a path the array). A JSON value is held
as plain data (dicts, lists, numbers, strings, booleans, None for JSON null). ``SAFE_TO_JSON``
writes a value JSON cannot hold (NaN, infinity) as JSON null where ``TO_JSON`` fails
(https://cloud.google.com/spanner/docs/reference/standard-sql/json_functions, SAFE_TO_JSON).

A temporal value stays itself inside the JSON data: Spanner writes a DATE or TIMESTAMP as its
text, which only a reader that knows the column's type reads back, and has no type for Cypher's
local and zoned times at all; the evaluator runs queries on graphs (the TCK's) holding such
values, and keeps them so that the element they belong to can still be compared.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import EvaluationError
from . import temporal as tm
from .graph import Node, Relationship
from .runtime import Runtime, unsupported
from .values import Path


def node_identifier(node: Node) -> str:
    return f"n{node.id}"


def edge_identifier(rel: Relationship) -> str:
    return f"e{rel.id}"


def to_json(value: Any, *, safe: bool) -> Any:
    """``value`` as the JSON data ``TO_JSON`` (``safe``: ``SAFE_TO_JSON``) gives."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if safe:
            return None
        raise EvaluationError(
            "TO_JSON cannot hold a NaN or an infinite number",
            category="ArgumentError",
            detail="InvalidArgumentValue",
        )
    if isinstance(value, Node):
        return {
            "identifier": node_identifier(value),
            "kind": "node",
            "labels": list(value.labels),
            "properties": {k: to_json(v, safe=safe) for k, v in value.properties.items()},
        }
    if isinstance(value, Relationship):
        return {
            "identifier": edge_identifier(value),
            "kind": "edge",
            "labels": [value.type],
            "properties": {k: to_json(v, safe=safe) for k, v in value.properties.items()},
            "source_node_identifier": f"n{value.start}",
            "destination_node_identifier": f"n{value.end}",
        }
    if isinstance(value, Path):
        out: list[Any] = [to_json(value.nodes[0], safe=safe)]
        for rel, node in zip(value.relationships, value.nodes[1:], strict=True):
            out.append(to_json(rel, safe=safe))
            out.append(to_json(node, safe=safe))
        return out
    if isinstance(value, list):
        return [to_json(v, safe=safe) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v, safe=safe) for k, v in value.items()}
    if isinstance(value, _TEMPORAL):
        return value
    raise unsupported(f"TO_JSON of a {type(value).__name__}")


_TEMPORAL = (tm.Date, tm.LocalTime, tm.Time, tm.LocalDateTime, tm.DateTime, tm.Duration)


def call_to_json(rt: Runtime, args: list[Any]) -> Any:
    return to_json(args[0], safe=False)


def call_safe_to_json(rt: Runtime, args: list[Any]) -> Any:
    return to_json(args[0], safe=True)


#: canonical name -> implementation (registered by :mod:`gqlir.eval.functions`)
FUNCTIONS = {
    "googlesql.to_json": call_to_json,
    "googlesql.safe_to_json": call_safe_to_json,
}
