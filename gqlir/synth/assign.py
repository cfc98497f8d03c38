"""Labels and relationship types for a template's holes, from the schema and the graph: every
assignment under which each relationship pattern connects node types the graph really
connects, with the realism filters applied."""

from __future__ import annotations

from collections.abc import Iterator

from .. import ir
from ..schema.model import SchemaGraph
from .graphindex import GraphIndex
from .library import Template
from .realism import Assignment, rejection
from .structure import Rel, Structure

#: assignments kept per template (in the deterministic order they are found)
MAX_ASSIGNMENTS = 5000


class _Search:
    def __init__(self, t: Template, s: Structure, index: GraphIndex) -> None:
        self.t, self.s, self.index = t, s, index
        self.triples = sorted(index.triples)
        self.labels: dict[str, str] = {}
        self.types: dict[str, str] = {}
        self.rel_types: list[str | None] = []
        self.orientation: list[bool] = []

    def label_ok(self, var: str, label: str) -> tuple[bool, str | None]:
        """Whether ``var`` may have ``label``; the hole it fixes if it was open."""
        slot = self.s.node_slot_of(var)
        if slot is None:
            return True, None
        if not slot.startswith("?"):
            return slot == label, None
        have = self.labels.get(slot[1:])
        if have is None:
            return True, slot[1:]
        return have == label, None

    def type_ok(self, rel: Rel, edge_type: str) -> tuple[bool, str | None]:
        slot = rel.type_slot
        if slot is not None and slot[1:] in self.t.constraints.time_sensitive:
            edge = self.index.schema.edge(edge_type)
            if edge is None or not edge.time_sensitive:
                return False, None
        if slot is None:
            return True, None
        if not slot.startswith("?"):
            return slot == edge_type, None
        have = self.types.get(slot[1:])
        if have is None:
            return True, slot[1:]
        return have == edge_type, None

    def options(self, rel: Rel) -> Iterator[tuple[str, str, str, bool]]:
        """(source label, type, target label, forward) choices for ``rel``."""
        for src, etype, dst in self.triples:
            if rel.hops is not None and src != dst:
                continue  # a path of several hops repeats one node type
            yield src, etype, dst, True
            if rel.either and src != dst:
                yield dst, etype, src, False

    def run(self, i: int = 0) -> Iterator[Assignment]:
        if i == len(self.s.rels):
            yield from self.free_labels()
            return
        rel = self.s.rels[i]
        for src, etype, dst, forward in self.options(rel):
            fixed: list[tuple[dict[str, str], str]] = []
            ok = True
            for var, label in ((rel.source, src), (rel.target, dst)):
                good, hole = self.label_ok(var, label)
                if not good:
                    ok = False
                    break
                if hole is not None:
                    self.labels[hole] = label
                    fixed.append((self.labels, hole))
            if ok:
                good, hole = self.type_ok(rel, etype)
                if good:
                    if hole is not None:
                        self.types[hole] = etype
                        fixed.append((self.types, hole))
                    self.rel_types.append(etype)
                    self.orientation.append(forward)
                    yield from self.run(i + 1)
                    self.rel_types.pop()
                    self.orientation.pop()
            for table, hole in fixed:
                del table[hole]

    def free_labels(self) -> Iterator[Assignment]:
        """Label holes no relationship constrains (isolated node patterns)."""
        open_holes = [h for h in self.s.label_holes if h not in self.labels]
        if not open_holes:
            yield self.snapshot()
            return
        hole = open_holes[0]
        for label in sorted(self.index.by_label):
            self.labels[hole] = label
            yield from self.free_labels()
            del self.labels[hole]

    def snapshot(self) -> Assignment:
        var_labels = []
        for var, slot in self.s.node_slots.items():
            if slot is None:
                label = None
            elif slot.startswith("?"):
                label = self.labels.get(slot[1:])
            else:
                label = slot
            var_labels.append((var, label))
        return Assignment(
            tuple(sorted(self.labels.items())),
            tuple(sorted(self.types.items())),
            tuple(var_labels),
            tuple(self.rel_types),
            tuple(self.orientation),
        )


def assignments(
    t: Template, s: Structure, schema: SchemaGraph, index: GraphIndex
) -> tuple[list[Assignment], dict[str, int]]:
    """The realistic assignments of ``t`` on this graph, and how many each filter dropped."""
    kept: list[Assignment] = []
    dropped: dict[str, int] = {}
    query: ir.Node = t.query
    for a in _Search(t, s, index).run():
        why = rejection(s, a, schema, query)
        if why is not None:
            dropped[why[0]] = dropped.get(why[0], 0) + 1
            continue
        kept.append(a)
        if len(kept) >= MAX_ASSIGNMENTS:
            break
    return kept, dropped
