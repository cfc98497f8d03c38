"""Streaming writers of the graph data format (docs/graph-format.md): records go to disk as
they are made, one node or edge type at a time, so nothing but the open files is held.

JSON lines are written exactly as :func:`gqlir.schema.graphdata.write_jsonl` writes them
(compact separators, UTF-8), so a graph read and written again is byte-identical.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from typing import IO, Any

from ..schema.graphdata import ID, SOURCE, TARGET, Edge, Node, _cell_text
from ..schema.model import SchemaGraph
from .errors import GraphGenError


def node_line(n: Node) -> str:
    rec = {"id": n.id, "labels": list(n.labels), "properties": n.properties}
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n"


def edge_line(e: Edge) -> str:
    rec: dict[str, Any] = {}
    if e.id is not None:
        rec["id"] = e.id
    rec |= {"type": e.type, "source": e.source, "target": e.target, "properties": e.properties}
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n"


def open_output(path: str) -> IO[str]:
    """A UTF-8 text file for writing with ``\\n`` line ends, or a GraphGenError saying why not."""
    try:
        return open(path, "w", encoding="utf-8", newline="\n")
    except OSError as exc:
        raise GraphGenError(f"cannot write {path}: {exc.strerror or exc}") from None


class GraphWriter:
    """Writes a graph directory in the ``jsonl`` or ``csv`` layout. Call :meth:`nodes` and
    :meth:`edges` per type (each type once, for CSV), then :meth:`close`."""

    def __init__(self, directory: str, schema: SchemaGraph, layout: str = "jsonl") -> None:
        if layout not in ("jsonl", "csv"):
            raise GraphGenError(f"unknown layout {layout!r}: jsonl or csv")
        self.directory, self.schema, self.layout = directory, schema, layout
        self.counts: dict[str, dict[str, int]] = {"nodes": {}, "edges": {}}
        os.makedirs(directory, exist_ok=True)
        self._node_fh: IO[str] | None = None
        self._edge_fh: IO[str] | None = None
        if layout == "jsonl":
            self._node_fh = self._open("nodes.jsonl")
            self._edge_fh = self._open("edges.jsonl")

    def _open(self, name: str) -> IO[str]:
        return open_output(os.path.join(self.directory, name))

    def nodes(self, label: str, nodes: Iterable[Node]) -> int:
        if self._node_fh is not None:
            n = _lines(self._node_fh, map(node_line, nodes))
        else:
            nt = self.schema.node(label)
            props = [p.name for p in nt.properties] if nt else []
            rows = (
                [_cell_text(x.id)] + [_cell_text(x.properties.get(p)) for p in props] for x in nodes
            )
            n = self._csv("nodes", label, [ID, *props], rows)
        self.counts["nodes"][label] = self.counts["nodes"].get(label, 0) + n
        return n

    def edges(self, label: str, edges: Iterable[Edge]) -> int:
        if self._edge_fh is not None:
            n = _lines(self._edge_fh, map(edge_line, edges))
        else:
            et = self.schema.edge(label)
            props = [p.name for p in et.properties] if et else []
            rows = (
                [_cell_text(x.source), _cell_text(x.target)]
                + [_cell_text(x.properties.get(p)) for p in props]
                for x in edges
            )
            n = self._csv("edges", label, [SOURCE, TARGET, *props], rows)
        self.counts["edges"][label] = self.counts["edges"].get(label, 0) + n
        return n

    def _csv(self, sub: str, label: str, header: list[str], rows: Iterable[list[str]]) -> int:
        """One type's file of the CSV layout, written row by row."""
        os.makedirs(os.path.join(self.directory, sub), exist_ok=True)
        n = 0
        with self._open(os.path.join(sub, f"{label}.csv")) as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            for row in rows:
                w.writerow(row)
                n += 1
        return n

    def close(self) -> None:
        for fh in (self._node_fh, self._edge_fh):
            if fh is not None:
                fh.close()
        self._node_fh = self._edge_fh = None

    def __enter__(self) -> GraphWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lines(fh: IO[str], lines: Iterable[str]) -> int:
    n = 0
    for line in lines:
        fh.write(line)
        n += 1
    return n


__all__ = ["GraphWriter", "edge_line", "node_line", "open_output"]
