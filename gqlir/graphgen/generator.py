"""Filling a schema with a synthetic graph, streamed to a graph directory.

``generate(schema, out, config, seed=…, target_edges=…)`` resolves the config
(:func:`gqlir.graphgen.plan.resolve`), then writes, node type by node type and edge type by edge
type, the records the value generators and edge drawers make. Alongside the data it writes
``schema.json`` (so the directory is a graph folder the engines and ``gqlir graph validate``
take as it is), ``graphgen.json`` (the resolved config: generating from it again gives the same
bytes) and ``manifest.json`` (how many nodes and edges of each type were written).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..schema.graphdata import Edge, Node
from ..schema.model import EdgeType, NodeType, SchemaGraph
from .config import write_config
from .edges import EdgeDrawer, Mandatory, NodeSpace
from .plan import generation_order, resolve
from .seeds import stream
from .sinks import GraphWriter
from .values import Generator, compile_spec

CONFIG_FILE = "graphgen.json"
MANIFEST_FILE = "manifest.json"
SCHEMA_FILE = "schema.json"


@dataclass
class GenerationResult:
    """What a run wrote: the directory, the resolved config, and counts per type."""

    directory: str
    config: dict[str, Any]
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)

    @property
    def node_total(self) -> int:
        return sum(self.nodes.values())

    @property
    def edge_total(self) -> int:
        return sum(self.edges.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "seed": self.config["seed"],
            "nodes": self.nodes,
            "edges": self.edges,
            "node_total": self.node_total,
            "edge_total": self.edge_total,
        }


def generate(
    schema: SchemaGraph,
    out: str,
    config: dict[str, Any] | None = None,
    *,
    seed: int | None = None,
    target_edges: int | None = None,
    layout: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GenerationResult:
    """Generate a graph for ``schema`` into the directory ``out`` (created if needed).

    ``progress(written, planned)`` is called every :data:`PROGRESS_EVERY` records (nodes and
    edges together) and once at the end, so that a run of millions of edges shows that it moves.
    """
    resolved = resolve(schema, config, seed=seed, target_edges=target_edges)
    if layout is not None:
        resolved["layout"] = layout
    seed = resolved["seed"]
    space = NodeSpace(schema, {k: v["count"] for k, v in resolved["nodes"].items()})
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, SCHEMA_FILE), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(schema.to_json())
    write_config(os.path.join(out, CONFIG_FILE), resolved)
    result = GenerationResult(out, resolved)
    counter = _Counter(progress, _planned(resolved))
    with GraphWriter(out, schema, resolved["layout"]) as writer:
        for nt in schema.node_types:
            cfg = resolved["nodes"][nt.label]
            nodes = counter.counting(_nodes(nt, cfg, space, seed))
            result.nodes[nt.label] = writer.nodes(nt.label, nodes)
        recorded: dict[str, list[tuple[str, int, str, int]]] = {}
        for et in generation_order(schema):
            cfg = resolved["edges"][et.label]
            mandatory = _mandatory(schema, et, cfg["anchor"], recorded)
            drawn = EdgeDrawer(schema, et, cfg, space, seed, mandatory).draw()
            if et.implies:
                recorded[et.label] = []
                drawn = _recording(drawn, recorded[et.label])
            edges = counter.counting(_edges(et, cfg, space, seed, drawn))
            result.edges[et.label] = writer.edges(et.label, edges)
    counter.report()
    with open(os.path.join(out, MANIFEST_FILE), "w", encoding="utf-8", newline="\n") as fh:
        manifest: dict[str, Any] = {"format": "gqlir-graphgen-manifest", "config": CONFIG_FILE}
        manifest |= {"nodes": result.nodes, "edges": result.edges}
        fh.write(json.dumps(manifest, indent=2) + "\n")
    return result


PROGRESS_EVERY = 100_000


def _planned(resolved: dict[str, Any]) -> int:
    """The number of records the resolved config asks for (edge counts are targets: a drawer
    may write fewer when the graph cannot hold more)."""
    parts = list(resolved["nodes"].values()) + list(resolved["edges"].values())
    return sum(int(part.get("count", 0)) for part in parts)


class _Counter:
    """Counts the records passing to the writer and tells ``progress`` now and then."""

    def __init__(self, progress: Callable[[int, int], None] | None, planned: int) -> None:
        self.progress = progress
        self.planned = planned
        self.written = 0

    def counting[T](self, records: Iterable[T]) -> Iterator[T]:
        if self.progress is None:
            yield from records
            return
        for record in records:
            self.written += 1
            if self.written % PROGRESS_EVERY == 0:
                self.progress(self.written, self.planned)
            yield record

    def report(self) -> None:
        if self.progress is not None:
            self.progress(self.written, self.planned)


def _compile(
    owner: NodeType | EdgeType, specs: dict[str, Any], seed: int, kind: str, count: int, id_of: Any
) -> list[tuple[str, Generator]]:
    out = []
    for p in owner.properties:
        rng = stream(seed, kind, owner.label, p.name)
        where = f"{kind}.{owner.label}.properties.{p.name}"
        out.append(
            (
                p.name,
                compile_spec(specs[p.name], p.type, rng=rng, count=count, where=where, id_of=id_of),
            )
        )
    return out


def _nodes(nt: NodeType, cfg: dict[str, Any], space: NodeSpace, seed: int) -> Iterator[Node]:
    base, n, labels = space.base[nt.label], space.counts[nt.label], nt.labels
    gens = _compile(nt, cfg["properties"], seed, "nodes", n, lambda k: base + k)
    for k in range(n):
        props: dict[str, Any] = {}
        for name, gen in gens:
            v = gen(k, props)
            if v is not None:
                props[name] = v
        yield Node(base + k, labels, props)


def _edges(
    et: EdgeType,
    cfg: dict[str, Any],
    space: NodeSpace,
    seed: int,
    drawn: Iterator[tuple[str, int, str, int]],
) -> Iterator[Edge]:
    gens = _compile(et, cfg["properties"], seed, "edges", int(cfg["count"]), None)
    base = space.base
    for j, (s, a, t, b) in enumerate(drawn):
        props: dict[str, Any] = {}
        for name, gen in gens:
            v = gen(j, props)
            if v is not None:
                props[name] = v
        yield Edge(et.label, base[s] + a, base[t] + b, props)


def _recording(
    drawn: Iterator[tuple[str, int, str, int]], into: list[tuple[str, int, str, int]]
) -> Iterator[tuple[str, int, str, int]]:
    for item in drawn:
        into.append(item)
        yield item


def _mandatory(
    schema: SchemaGraph,
    et: EdgeType,
    anchor: str,
    recorded: dict[str, list[tuple[str, int, str, int]]],
) -> Mandatory:
    """The pairs the types implying ``et`` drew, keyed by ``et``'s anchor side."""
    out: Mandatory = {}
    for d in schema.edge_types:
        if et.label not in d.implies:
            continue
        for s, a, t, b in recorded.get(d.label, ()):
            key, end = ((s, a), (t, b)) if anchor == "source" else ((t, b), (s, a))
            ends = out.setdefault(key, [])
            if end not in ends:
                ends.append(end)
    return out


__all__ = ["CONFIG_FILE", "MANIFEST_FILE", "SCHEMA_FILE", "GenerationResult", "generate"]
