"""The in-memory property graph the reference evaluator reads and writes.

Nodes carry a set of labels and a property map; relationships (edges) are directed and carry
one type and a property map. Every element has a stable integer id (nodes and relationships
count separately, as ``id()`` does in Neo4j): ids are never reused, so a
value that refers to a deleted element can still be told apart from a new one, and results are
reproducible. Elements are mutable records; a node value in a result row *is* the record, so
a query that sets a property and then returns the node shows the new value, as in a database.

The graph keeps out/in adjacency lists so that pattern matching expands from a node without
scanning every relationship.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Graph", "GraphState", "Node", "Relationship"]


@dataclass(eq=False, slots=True)
class Node:
    """A node record. Identity is the id: two records are the same node iff they are one object."""

    id: int
    labels: dict[str, None] = field(default_factory=dict)  # an insertion-ordered set
    properties: dict[str, Any] = field(default_factory=dict)
    deleted: bool = False

    def __hash__(self) -> int:
        return hash(("node", self.id))

    def __repr__(self) -> str:
        return f"Node({self.id}, {sorted(self.labels)}, {self.properties})"


@dataclass(eq=False, slots=True)
class Relationship:
    """A directed relationship record from ``start`` to ``end`` (node ids)."""

    id: int
    type: str
    start: int
    end: int
    properties: dict[str, Any] = field(default_factory=dict)
    deleted: bool = False

    def __hash__(self) -> int:
        return hash(("rel", self.id))

    def __repr__(self) -> str:
        return f"Relationship({self.id}, {self.type}, {self.start}->{self.end}, {self.properties})"


@dataclass(frozen=True, slots=True)
class GraphState:
    """What the TCK's side-effect counters compare: element ids, label names in use, and
    (element, key, value) property triples. Counting by difference of two states is how the
    TCK defines ``+nodes`` … ``-properties`` (so overwriting a value is one + and one -)."""

    nodes: frozenset[int]
    relationships: frozenset[int]
    labels: frozenset[str]
    properties: frozenset[tuple[str, int, str, Any]]


class Graph:
    """A property graph with stable ids and adjacency lists."""

    def __init__(self) -> None:
        self.nodes: dict[int, Node] = {}
        self.relationships: dict[int, Relationship] = {}
        self._out: dict[int, list[int]] = {}
        self._in: dict[int, list[int]] = {}
        self._next_node = 0
        self._next_rel = 0

    # -- reading -------------------------------------------------------------------------------

    def node(self, node_id: int) -> Node:
        return self.nodes[node_id]

    def relationship(self, rel_id: int) -> Relationship:
        return self.relationships[rel_id]

    def all_nodes(self) -> Iterator[Node]:
        """Live nodes in id order (creation order)."""
        return iter(list(self.nodes.values()))

    def all_relationships(self) -> Iterator[Relationship]:
        return iter(list(self.relationships.values()))

    def outgoing(self, node_id: int) -> list[Relationship]:
        return [self.relationships[r] for r in self._out.get(node_id, ())]

    def incoming(self, node_id: int) -> list[Relationship]:
        return [self.relationships[r] for r in self._in.get(node_id, ())]

    def degree(self, node_id: int) -> int:
        return len(self._out.get(node_id, ())) + len(self._in.get(node_id, ()))

    # -- writing -------------------------------------------------------------------------------

    def _new_node_id(self, wanted: int | None) -> int:
        if wanted is None:
            wanted = self._next_node
        elif wanted in self.nodes:
            raise ValueError(f"duplicate node id {wanted}")
        self._next_node = max(self._next_node, wanted + 1)
        return wanted

    def _new_rel_id(self, wanted: int | None) -> int:
        if wanted is None:
            wanted = self._next_rel
        elif wanted in self.relationships:
            raise ValueError(f"duplicate relationship id {wanted}")
        self._next_rel = max(self._next_rel, wanted + 1)
        return wanted

    def create_node(
        self,
        labels: Iterable[str] = (),
        properties: Mapping[str, Any] | None = None,
        node_id: int | None = None,
    ) -> Node:
        node = Node(self._new_node_id(node_id), dict.fromkeys(labels), dict(properties or {}))
        self.nodes[node.id] = node
        return node

    def create_relationship(
        self,
        rel_type: str,
        start: Node | int,
        end: Node | int,
        properties: Mapping[str, Any] | None = None,
        rel_id: int | None = None,
    ) -> Relationship:
        s = start.id if isinstance(start, Node) else start
        e = end.id if isinstance(end, Node) else end
        if s not in self.nodes or e not in self.nodes:
            raise ValueError(f"relationship endpoint missing: {s} -> {e}")
        rel = Relationship(self._new_rel_id(rel_id), rel_type, s, e, dict(properties or {}))
        self.relationships[rel.id] = rel
        self._out.setdefault(s, []).append(rel.id)
        self._in.setdefault(e, []).append(rel.id)
        return rel

    def delete_relationship(self, rel: Relationship) -> bool:
        """Remove ``rel``; False if it was already gone."""
        if rel.id not in self.relationships:
            return False
        del self.relationships[rel.id]
        self._out[rel.start].remove(rel.id)
        self._in[rel.end].remove(rel.id)
        rel.deleted = True
        return True

    def delete_node(self, node: Node) -> bool:
        """Remove ``node`` (its relationships must be gone already); False if already gone."""
        if node.id not in self.nodes:
            return False
        if self.degree(node.id):
            raise ValueError(f"node {node.id} still has relationships")
        del self.nodes[node.id]
        self._out.pop(node.id, None)
        self._in.pop(node.id, None)
        node.deleted = True
        return True

    # -- state and copies ----------------------------------------------------------------------

    def state(self, freeze: Any) -> GraphState:
        """The current :class:`GraphState`; ``freeze`` makes a property value hashable."""
        labels: set[str] = set()
        props: set[tuple[str, int, str, Any]] = set()
        for n in self.nodes.values():
            labels.update(n.labels)
            props.update(("n", n.id, k, freeze(v)) for k, v in n.properties.items())
        for r in self.relationships.values():
            props.update(("r", r.id, k, freeze(v)) for k, v in r.properties.items())
        return GraphState(
            frozenset(self.nodes),
            frozenset(self.relationships),
            frozenset(labels),
            frozenset(props),
        )

    def copy(self) -> Graph:
        """An independent copy (new records with the same ids)."""
        other = Graph()
        other.restore(self)
        return other

    def restore(self, other: Graph) -> None:
        """Make this graph a copy of ``other`` (for a transaction rollback)."""
        self.nodes = {
            i: Node(i, dict(n.labels), dict(n.properties)) for i, n in other.nodes.items()
        }
        self.relationships = {
            i: Relationship(i, r.type, r.start, r.end, dict(r.properties))
            for i, r in other.relationships.items()
        }
        self._out = {k: list(v) for k, v in other._out.items()}
        self._in = {k: list(v) for k, v in other._in.items()}
        self._next_node, self._next_rel = other._next_node, other._next_rel

    # -- JSON ----------------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Graph:
        """A graph from ``{"nodes": [{id, labels, properties}], "edges": [{id, type, source,
        target, properties}]}`` (``relationships`` is accepted for ``edges``). Ids are kept when
        they are integers; other ids (strings) are mapped to fresh integers in file order."""
        graph = cls()
        id_map: dict[Any, int] = {}
        for raw in data.get("nodes", ()):
            given = raw.get("id")
            node = graph.create_node(
                raw.get("labels", ()),
                raw.get("properties", {}),
                given if isinstance(given, int) and not isinstance(given, bool) else None,
            )
            if given is not None:
                if given in id_map:
                    raise ValueError(f"duplicate node id {given!r}")
                id_map[given] = node.id
        for raw in data.get("edges", data.get("relationships", ())):
            try:
                start, end = id_map[raw["source"]], id_map[raw["target"]]
            except KeyError as exc:
                raise ValueError(f"edge endpoint {exc.args[0]!r} is not a node id") from None
            given = raw.get("id")
            graph.create_relationship(
                raw["type"],
                start,
                end,
                raw.get("properties", {}),
                given if isinstance(given, int) and not isinstance(given, bool) else None,
            )
        return graph

    @classmethod
    def load(cls, path: str | Path) -> Graph:
        """A graph from a JSON file (:meth:`from_data`) or a graph directory in one of the
        layouts of ``docs/graph-format.md`` (JSON lines, CSV, Parquet)."""
        if Path(path).is_dir():
            from ..schema.graphdata import iter_edges, iter_nodes

            directory = str(path)
            return cls.from_data(
                {
                    "nodes": [
                        {"id": n.id, "labels": list(n.labels), "properties": n.properties}
                        for _, n in iter_nodes(directory)
                    ],
                    "edges": [
                        {
                            "id": e.id,
                            "type": e.type,
                            "source": e.source,
                            "target": e.target,
                            "properties": e.properties,
                        }
                        for _, e in iter_edges(directory)
                    ],
                }
            )
        return cls.from_data(json.loads(Path(path).read_text(encoding="utf-8")))

    def to_data(self, value: Any = None) -> dict[str, Any]:
        """The graph in the format :meth:`from_data` reads; ``value`` converts a property value
        to JSON (temporal values have no JSON type of their own)."""
        convert = value or (lambda v: v)
        return {
            "nodes": [
                {
                    "id": n.id,
                    "labels": list(n.labels),
                    "properties": {k: convert(v) for k, v in n.properties.items()},
                }
                for n in self.nodes.values()
            ],
            "edges": [
                {
                    "id": r.id,
                    "type": r.type,
                    "source": r.start,
                    "target": r.end,
                    "properties": {k: convert(v) for k, v in r.properties.items()},
                }
                for r in self.relationships.values()
            ],
        }

    def save(self, path: str | Path) -> None:
        from .result import json_value

        Path(path).write_text(
            json.dumps(self.to_data(json_value), ensure_ascii=False, indent=1), encoding="utf-8"
        )
