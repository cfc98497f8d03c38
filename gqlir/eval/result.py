"""The canonical result of running a query: named columns, rows of values, whether the row
order is part of the result, and the side-effect counters the openCypher TCK uses."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import temporal as tm
from .graph import GraphState, Node, Relationship
from .values import Path, equivalence_key, to_display

__all__ = ["SIDE_EFFECT_KEYS", "Result", "json_value", "side_effects"]

SIDE_EFFECT_KEYS = (
    "+nodes",
    "-nodes",
    "+relationships",
    "-relationships",
    "+labels",
    "-labels",
    "+properties",
    "-properties",
)


@dataclass(slots=True)
class Result:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    ordered: bool = False
    side_effects: dict[str, int] = field(default_factory=dict)

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row)) for row in self.rows]

    def same_as(self, other: Result) -> bool:
        """Equal columns and rows by equivalence: as lists when both are ordered, else as bags."""
        if self.columns != other.columns:
            return False
        mine = [tuple(equivalence_key(v) for v in row) for row in self.rows]
        theirs = [tuple(equivalence_key(v) for v in row) for row in other.rows]
        if self.ordered and other.ordered:
            return mine == theirs
        return Counter(mine) == Counter(theirs)

    def format_table(self) -> str:
        """Rows as an aligned text table in the TCK's value notation, then the side effects."""
        cells = [[to_display(v) for v in row] for row in self.rows]
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(self.columns)]
        lines = []
        if self.columns:
            lines.append(" | ".join(c.ljust(w) for c, w in zip(self.columns, widths)))
            lines.append("-+-".join("-" * w for w in widths))
            lines.extend(" | ".join(v.ljust(w) for v, w in zip(r, widths)) for r in cells)
        lines.append(f"({len(self.rows)} row{'s' if len(self.rows) != 1 else ''})")
        if self.side_effects:
            lines.append(", ".join(f"{k} {v}" for k, v in self.side_effects.items()))
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready form: every value in the TCK's text notation."""
        return {
            "columns": list(self.columns),
            "rows": [[to_display(v) for v in row] for row in self.rows],
            "ordered": self.ordered,
            "side_effects": dict(self.side_effects),
        }


def side_effects(before: GraphState, after: GraphState) -> dict[str, int]:
    """The TCK's counters: differences of element ids, label names and property triples."""
    counts = {
        "+nodes": len(after.nodes - before.nodes),
        "-nodes": len(before.nodes - after.nodes),
        "+relationships": len(after.relationships - before.relationships),
        "-relationships": len(before.relationships - after.relationships),
        "+labels": len(after.labels - before.labels),
        "-labels": len(before.labels - after.labels),
        "+properties": len(after.properties - before.properties),
        "-properties": len(before.properties - after.properties),
    }
    return {k: v for k, v in counts.items() if v}


def json_value(v: Any) -> Any:
    """A value as JSON: graph elements as objects with ids, temporal values as ISO text,
    non-finite floats as the strings ``NaN``/``Infinity``/``-Infinity``."""
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, list):
        return [json_value(x) for x in v]
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    if isinstance(v, Node):
        return {"id": v.id, "labels": list(v.labels), "properties": json_value(v.properties)}
    if isinstance(v, Relationship):
        return {
            "id": v.id,
            "type": v.type,
            "source": v.start,
            "target": v.end,
            "properties": json_value(v.properties),
        }
    if isinstance(v, Path):
        return {
            "nodes": [json_value(n) for n in v.nodes],
            "edges": [json_value(r) for r in v.relationships],
        }
    if isinstance(v, tm.TEMPORAL_TYPES):
        return str(v)
    return repr(v)
