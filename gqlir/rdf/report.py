"""What a conversion kept and dropped, and why: counts per node type, edge type and property,
with a few examples per reason, as JSON data and as text."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

EXAMPLES_PER_REASON = 3


@dataclass
class Tally:
    """Kept and dropped counts of one node type, edge type or property. For an element type,
    ``fetched`` counts candidates (resources or statements); for a property, ``kept`` counts
    elements given a value and ``dropped`` counts RDF values not used."""

    fetched: int = 0
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    converted: Counter[str] = field(default_factory=Counter)

    def drop(self, reason: str, example: str, n: int = 1) -> None:
        self.dropped[reason] += n
        seen = self.examples.setdefault(reason, [])
        if len(seen) < EXAMPLES_PER_REASON:
            seen.append(example)

    def to_dict(self, with_fetched: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"fetched": self.fetched} if with_fetched else {}
        out["kept"] = self.kept
        out["dropped"] = dict(sorted(self.dropped.items()))
        if self.converted:
            out["converted"] = dict(sorted(self.converted.items()))
        if self.examples:
            out["examples"] = {k: v for k, v in sorted(self.examples.items())}
        return out


@dataclass
class ConversionReport:
    """Counts of one conversion; ``queries`` and ``rows`` say how much SPARQL it took."""

    queries: int = 0
    rows: int = 0
    nodes: dict[str, Tally] = field(default_factory=dict)
    edges: dict[str, Tally] = field(default_factory=dict)
    properties: dict[str, Tally] = field(default_factory=dict)

    def node(self, label: str) -> Tally:
        return self.nodes.setdefault(label, Tally())

    def edge(self, label: str) -> Tally:
        return self.edges.setdefault(label, Tally())

    def prop(self, owner: str, name: str) -> Tally:
        return self.properties.setdefault(f"{owner}.{name}", Tally())

    @property
    def node_count(self) -> int:
        return sum(t.kept for t in self.nodes.values())

    @property
    def edge_count(self) -> int:
        return sum(t.kept for t in self.edges.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "queries": self.queries,
            "rows": self.rows,
            "nodes": {k: v.to_dict(True) for k, v in sorted(self.nodes.items())},
            "edges": {k: v.to_dict(True) for k, v in sorted(self.edges.items())},
            "properties": {k: v.to_dict(False) for k, v in sorted(self.properties.items())},
        }

    def to_text(self) -> str:
        lines = [
            f"{self.node_count} nodes and {self.edge_count} edges "
            f"from {self.rows} result rows of {self.queries} SPARQL queries"
        ]
        for title, group, fetched in (
            ("nodes", self.nodes, "resources"),
            ("edges", self.edges, "statements"),
            ("properties", self.properties, ""),
        ):
            if not group:
                continue
            lines.append(f"{title}:")
            for name, t in sorted(group.items()):
                head = f"  {name}: kept {t.kept}"
                if fetched:
                    head += f" of {t.fetched} {fetched}"
                lines.append(head)
                for key, n in sorted(t.converted.items()):
                    lines.append(f"    converted {n}: {key}")
                for reason, n in sorted(t.dropped.items()):
                    examples = ", ".join(t.examples.get(reason, []))
                    lines.append(
                        f"    dropped {n}: {reason}" + (f" (e.g. {examples})" if examples else "")
                    )
        return "\n".join(lines) + "\n"
