"""The noise log (``noise.jsonl``) a perturbation writes, and restoring the clean graph from
the observed graph and its log.

One JSON object a line; ``record`` says which:

* ``header``: format, version, seed, the resolved perturbation config, the clean graph's
  counts, layout and (JSON lines) SHA-256 digest;
* ``relabel_node``: ``node`` (id), ``old`` and ``new`` labels, ``similarity``;
* ``set_property``: ``element`` (``node`` with ``node`` id, or ``edge`` with ``clean_index`` and
  ``observed_index``), ``property``, ``old`` and ``new`` values, ``operation``;
* ``remove_edge``: ``clean_index`` and the whole ``edge``;
* ``retype_edge``: ``clean_index``, ``observed_index``, the ``old`` and ``new`` edge, ``similarity``;
* ``add_edge``: ``observed_index`` and the whole ``edge``;
* ``summary``: counts of the clean and observed graphs, changes made and targeted per family.

Every record but the header and summary has a ``family``. Edges are named by their position in
the clean and observed edge streams (edges need no ids in the graph format). The observed graph
keeps the clean order: removed edges are left out, changed ones stay in place, added ones come
last; so reversing the log restores the clean graph record for record (:func:`restore`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import SchemaError
from ..schema.graphdata import Edge, Node, _jsonl_records, detect_layout, iter_edges, iter_nodes
from ..schema.model import SchemaGraph
from .errors import GraphGenError
from .sinks import GraphWriter, open_output

LOG_FILE = "noise.jsonl"
LOG_FORMAT = "gqlir-noise-log"
LOG_VERSION = 1


def edge_record(e: Edge) -> dict[str, Any]:
    rec: dict[str, Any] = {}
    if e.id is not None:
        rec["id"] = e.id
    rec |= {"type": e.type, "source": e.source, "target": e.target, "properties": e.properties}
    return rec


def edge_from_record(rec: dict[str, Any]) -> Edge:
    return Edge(rec["type"], rec["source"], rec["target"], dict(rec["properties"]), rec.get("id"))


def graph_digest(directory: str) -> str | None:
    """SHA-256 of ``nodes.jsonl`` and ``edges.jsonl`` (None for other layouts)."""
    try:
        if detect_layout(directory) != "jsonl":
            return None
    except SchemaError:
        return None
    h = hashlib.sha256()
    for name in ("nodes.jsonl", "edges.jsonl"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            with open(path, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
        h.update(b"\x00")
    return "sha256:" + h.hexdigest()


class LogWriter:
    """Appends log records as JSON lines."""

    def __init__(self, path: str) -> None:
        self.fh = open_output(path)

    def write(self, record: dict[str, Any]) -> None:
        self.fh.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")

    def close(self) -> None:
        self.fh.close()


def read_log(path: str) -> Iterator[dict[str, Any]]:
    """The records of a noise log, each checked to be an object with a ``record``."""
    if not os.path.isfile(path):
        raise GraphGenError(f"there is no noise log {path}")
    for loc, rec in _jsonl_records(path):
        if "record" not in rec:
            raise GraphGenError(f"{loc}: a log line is an object with a 'record'")
        yield rec


# -- restoring -----------------------------------------------------------------------------------


@dataclass
class _Undo:
    """The log, indexed for one streaming pass over the observed graph."""

    header: dict[str, Any] = field(default_factory=dict)
    nodes: dict[Any, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    edges: dict[int, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    added: set[int] = field(default_factory=set)
    removed: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @staticmethod
    def read(path: str) -> _Undo:
        undo = _Undo()
        for rec in read_log(path):
            kind = rec["record"]
            if kind == "header":
                if rec.get("format") != LOG_FORMAT or rec.get("version") != LOG_VERSION:
                    raise GraphGenError(f"{path}: not a {LOG_FORMAT} version {LOG_VERSION} log")
                undo.header = rec
            elif kind == "relabel_node" or (kind == "set_property" and rec["element"] == "node"):
                undo.nodes[rec["node"]].append(rec)
            elif kind in ("set_property", "retype_edge"):
                undo.edges[rec["observed_index"]].append(rec)
            elif kind == "add_edge":
                undo.added.add(rec["observed_index"])
            elif kind == "remove_edge":
                undo.removed.append((rec["clean_index"], rec["edge"]))
            elif kind != "summary":
                raise GraphGenError(f"{path}: unknown log record {kind!r}")
        if not undo.header:
            raise GraphGenError(f"{path}: the log has no header")
        undo.removed.sort(key=lambda x: x[0])
        return undo


@dataclass
class RestoreResult:
    directory: str
    nodes: int
    edges: int
    #: True/False when the clean graph's digest was logged and compared; None otherwise
    verified: bool | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "nodes": self.nodes,
            "edges": self.edges,
            "verified": self.verified,
        }


def _mismatch(what: str, expected: Any, found: Any) -> GraphGenError:
    return GraphGenError(
        f"the noise log does not match the observed graph: {what} is {found!r}, "
        f"the log says {expected!r}"
    )


def _undo_node(node: Node, changes: list[dict[str, Any]]) -> Node:
    labels, props = list(node.labels), dict(node.properties)
    for rec in reversed(changes):
        if rec["record"] == "relabel_node":
            if labels != rec["new"]:
                raise _mismatch(f"the labels of node {node.id!r}", rec["new"], labels)
            labels = list(rec["old"])
        else:
            name = rec["property"]
            if props.get(name) != rec["new"]:
                raise _mismatch(f"{name} of node {node.id!r}", rec["new"], props.get(name))
            props[name] = rec["old"]
    return Node(node.id, tuple(labels), props)


def _undo_edge(edge: Edge, o: int, changes: list[dict[str, Any]]) -> Edge:
    for rec in reversed(changes):
        if rec["record"] == "retype_edge":
            if edge_record(edge) != rec["new"]:
                raise _mismatch(f"observed edge {o}", rec["new"], edge_record(edge))
            edge = edge_from_record(rec["old"])
        else:
            name = rec["property"]
            if edge.properties.get(name) != rec["new"]:
                raise _mismatch(
                    f"{name} of observed edge {o}", rec["new"], edge.properties.get(name)
                )
            props = dict(edge.properties)
            props[name] = rec["old"]
            edge = Edge(edge.type, edge.source, edge.target, props, edge.id)
    return edge


def restore(
    observed: str,
    out: str,
    *,
    log: str | None = None,
    schema: SchemaGraph | None = None,
) -> RestoreResult:
    """Write the clean graph to ``out`` (JSON lines) from the ``observed`` graph directory and
    its noise log (default: ``observed/noise.jsonl``). Each logged change is undone after
    checking that the observed graph holds the logged new value, so a log that does not belong
    to the graph is an error, not a silently wrong graph."""
    undo = _Undo.read(log or os.path.join(observed, LOG_FILE))
    writer_schema = schema or SchemaGraph()
    n_nodes = n_edges = 0
    with GraphWriter(out, writer_schema, "jsonl") as writer:

        def nodes() -> Iterator[Node]:
            nonlocal n_nodes
            for _, node in iter_nodes(observed, schema):
                changes = undo.nodes.get(node.id)
                n_nodes += 1
                yield _undo_node(node, changes) if changes else node

        writer.nodes("", nodes())

        def edges() -> Iterator[Edge]:
            nonlocal n_edges
            pending = iter(undo.removed)
            nxt = next(pending, None)
            for o, (_, edge) in enumerate(iter_edges(observed, schema)):
                if o in undo.added:
                    continue
                while nxt is not None and nxt[0] == n_edges:
                    yield edge_from_record(nxt[1])
                    n_edges += 1
                    nxt = next(pending, None)
                changes = undo.edges.get(o)
                yield _undo_edge(edge, o, changes) if changes else edge
                n_edges += 1
            while nxt is not None:
                if nxt[0] != n_edges:
                    raise _mismatch("the number of edges before a removed one", nxt[0], n_edges)
                yield edge_from_record(nxt[1])
                n_edges += 1
                nxt = next(pending, None)

        writer.edges("", edges())
    digest = undo.header.get("clean", {}).get("digest")
    verified = None if digest is None else graph_digest(out) == digest
    return RestoreResult(out, n_nodes, n_edges, verified)


__all__ = [
    "LOG_FILE",
    "LOG_FORMAT",
    "LOG_VERSION",
    "LogWriter",
    "RestoreResult",
    "edge_from_record",
    "edge_record",
    "graph_digest",
    "read_log",
    "restore",
]
