"""One loader for every place a schema is accepted: a graph folder (its ``schema.json``), the
data directory of one (the ``schema.json`` in or beside it), or a schema file in any format
gqlir reads (gqlir's JSON, Neo4j, Kuzu, Spanner, SQL/PGQ DDL … :mod:`gqlir.schema.formats`)."""

from __future__ import annotations

import os

from ..errors import SchemaError
from .folders import resolve_graph_folder
from .formats import detect_format, read
from .model import SchemaGraph

__all__ = ["load_schema"]


def load_schema(path: str | os.PathLike[str]) -> SchemaGraph:
    """The schema at ``path``: a graph folder, a graph data directory, or a schema file."""
    where = os.fspath(path)
    if os.path.isdir(where):
        where = resolve_graph_folder(where).require_schema()
    try:
        with open(where, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise SchemaError(f"cannot read {where!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise SchemaError(f"{where!r} is not UTF-8 text: {exc.reason}") from None
    fmt = detect_format(text)
    if fmt is None or fmt == "gqlir":
        return SchemaGraph.from_json(text)
    stem = os.path.splitext(os.path.basename(where))[0]
    return read(text, fmt, name=stem)
