"""What a command that takes a graph accepts: one meaning everywhere.

A *graph folder* is what ``schemas/`` holds and ``gqlir migrate`` writes: ``schema.json`` and the
data under ``graph/``. Every command that takes a graph takes the folder and reads the schema
from it, unless ``--schema`` says otherwise. The data directory itself (``nodes.jsonl``,
``nodes/*.csv`` or ``nodes/*.parquet``) is accepted too, with the ``schema.json`` in it or beside
it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import SchemaError
from .graphdata import detect_layout

__all__ = ["GraphFolder", "resolve_graph_folder"]

SCHEMA_FILE = "schema.json"
DATA_DIR = "graph"


@dataclass(frozen=True, slots=True)
class GraphFolder:
    """The data directory of a graph and the schema file that describes it (None: none found)."""

    data: str
    schema: str | None

    def require_schema(self) -> str:
        if self.schema is None:
            raise SchemaError(
                f"{self.data}: no {SCHEMA_FILE} in or beside the graph: pass --schema",
                code="GRAPH_LAYOUT",
            )
        return self.schema


def resolve_graph_folder(path: str, schema: str | None = None) -> GraphFolder:
    """The graph at ``path`` (a graph folder or its data directory), with ``schema`` when given,
    else the folder's own schema file."""
    if not os.path.isdir(path):
        raise SchemaError(f"{path}: no such graph folder", code="GRAPH_LAYOUT")
    data = os.path.join(path, DATA_DIR)
    if os.path.isdir(data) and os.path.isfile(os.path.join(path, SCHEMA_FILE)):
        return GraphFolder(data, schema or os.path.join(path, SCHEMA_FILE))
    try:
        detect_layout(path)
    except SchemaError:
        raise SchemaError(
            f"{path}: not a graph folder: expected {SCHEMA_FILE} and {DATA_DIR}/ (as in "
            "schemas/movies), or graph data (nodes.jsonl, nodes/*.csv or nodes/*.parquet)",
            code="GRAPH_LAYOUT",
        ) from None
    if schema is None:
        parent = os.path.dirname(os.path.abspath(path))
        for candidate in (os.path.join(path, SCHEMA_FILE), os.path.join(parent, SCHEMA_FILE)):
            if os.path.isfile(candidate):
                schema = candidate
                break
    return GraphFolder(path, schema)
