"""The loaded example graph, indexed for sampling: nodes by label, edges by type and endpoint,
and the distinct values of every property. Holes are filled from here, so that instantiated
queries match something."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..schema.model import SchemaGraph


@dataclass
class GraphIndex:
    schema: SchemaGraph
    labels: dict[Any, str] = field(default_factory=dict)  # node id -> type label
    props: dict[Any, dict[str, Any]] = field(default_factory=dict)
    by_label: dict[str, list[Any]] = field(default_factory=lambda: defaultdict(list))
    edges: list[tuple[str, Any, Any, dict[str, Any]]] = field(default_factory=list)
    out: dict[tuple[Any, str], list[int]] = field(default_factory=lambda: defaultdict(list))
    into: dict[tuple[Any, str], list[int]] = field(default_factory=lambda: defaultdict(list))
    triples: Counter = field(default_factory=Counter)  # (source label, type, target label)
    by_triple: dict[tuple[str, str, str], list[int]] = field(
        default_factory=lambda: defaultdict(list)
    )
    _values: dict[tuple[str, str, str], list[Any]] = field(default_factory=dict)

    @staticmethod
    def load(schema: SchemaGraph, directory: str) -> GraphIndex:
        from ..schema.graphdata import iter_edges, iter_nodes

        index = GraphIndex(schema)
        for _, node in iter_nodes(directory, schema):
            label = node.labels[0]
            index.labels[node.id] = label
            index.props[node.id] = node.properties
            index.by_label[label].append(node.id)
        for _, edge in iter_edges(directory, schema):
            number = len(index.edges)
            index.edges.append((edge.type, edge.source, edge.target, edge.properties))
            index.out[(edge.source, edge.type)].append(number)
            index.into[(edge.target, edge.type)].append(number)
            triple = (index.labels[edge.source], edge.type, index.labels[edge.target])
            index.triples[triple] += 1
            index.by_triple[triple].append(number)
        return index

    def values(self, kind: str, owner: str, prop: str) -> list[Any]:
        """The distinct non-null values of a node (``kind='node'``) or edge property, sorted
        where they can be; lists are left out."""
        key = (kind, owner, prop)
        found = self._values.get(key)
        if found is None:
            if kind == "node":
                raw = (self.props[i].get(prop) for i in self.by_label.get(owner, ()))
            else:
                raw = (e[3].get(prop) for e in self.edges if e[0] == owner)
            seen = {v for v in raw if v is not None and not isinstance(v, (list, dict))}
            try:
                found = sorted(seen)
            except TypeError:
                found = sorted(seen, key=repr)
            self._values[key] = found
        return found

    def present(self, kind: str, owner: str, prop: str) -> bool:
        return bool(self.values(kind, owner, prop)) or self._has_list(kind, owner, prop)

    def _has_list(self, kind: str, owner: str, prop: str) -> bool:
        if kind == "node":
            return any(self.props[i].get(prop) for i in self.by_label.get(owner, ()))
        return any(e[3].get(prop) for e in self.edges if e[0] == owner)
