"""Graph elements returned as JSON (Spanner's ``SAFE_TO_JSON``), read back into elements.

Spanner cannot return a node, an edge or a path; with ``spanner_elements="to_json"`` a
translation returns ``SAFE_TO_JSON(x)`` instead, a JSON object ``{identifier, kind, labels,
properties}`` per element (an edge adds its ``source_node_identifier`` and
``destination_node_identifier``) and a path as the array of its elements
(https://cloud.google.com/spanner/docs/graph/work-with-visualizations). The JSON carries what
the TCK compares of an element (labels or type, properties, and a path's directions), so the
check reads it back into that element, as :mod:`gqlir.engines.spanner` reads Spanner's JSON
columns, and compares the element. Nothing else is decoded: a JSON object of another shape
stays a map, an array that is not a chain of elements joined by their identifiers a list.
The array of a path of length 0 is the array of its one node: it is read as a path in a column
the TCK expects paths in (a column holds one type), as a list elsewhere.
"""

from __future__ import annotations

from typing import Any

from ..eval.graph import Node, Relationship
from ..eval.result import Result
from ..eval.values import Path


def decode_result(result: Result, path_columns: frozenset[str] = frozenset()) -> Result:
    """``result`` with its JSON elements read back; ``path_columns`` hold paths."""
    flags = [c in path_columns for c in result.columns]
    rows = [tuple(decode(v, p) for v, p in zip(row, flags, strict=True)) for row in result.rows]
    return Result(result.columns, rows, result.ordered, result.side_effects)


def decode(value: Any, paths: bool = False) -> Any:
    if isinstance(value, dict):
        element = _element(value)
        return element if element is not None else {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        path = _path(value, paths)
        return path if path is not None else [decode(v, paths) for v in value]
    return value


def _element(value: dict[str, Any]) -> Node | Relationship | None:
    kind = value.get("kind")
    if kind not in ("node", "edge") or not {"identifier", "labels", "properties"} <= set(value):
        return None
    props = {k: decode(v) for k, v in value["properties"].items() if v is not None}
    ident = _number(value["identifier"])
    if kind == "node":
        return Node(ident, dict.fromkeys(value["labels"]), props)
    if len(value["labels"]) != 1:
        return None
    return Relationship(
        ident,
        value["labels"][0],
        _number(value.get("source_node_identifier")),
        _number(value.get("destination_node_identifier")),
        props,
    )


def _number(identifier: Any) -> int:
    """The identifiers the reference evaluator writes (``n3``, ``e7``) as its element ids;
    any other identifier as its hash (the comparison never reads ids, only the chain does)."""
    text = str(identifier)
    return int(text[1:]) if text[1:].isdigit() else hash(text)


def _path(items: list[Any], single: bool) -> Path | None:
    """A JSON array node, edge, node, … whose edges join their neighbours: the path (of one
    node only when ``single``)."""
    if len(items) < (1 if single else 3) or len(items) % 2 == 0:
        return None
    if not all(isinstance(x, dict) for x in items):
        return None
    elements = [_element(x) for x in items]
    nodes = [n for n in elements[0::2] if isinstance(n, Node)]
    rels = [r for r in elements[1::2] if isinstance(r, Relationship)]
    if len(nodes) + len(rels) != len(elements):  # an element of the wrong kind in its place
        return None
    for i, rel in enumerate(rels):
        ends = {nodes[i].id, nodes[i + 1].id}
        if {rel.start, rel.end} != ends:
            return None
    return Path(tuple(nodes), tuple(rels))
