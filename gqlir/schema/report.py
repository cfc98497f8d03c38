"""What a format could not express: a structural diff between a schema and its round trip.

Every writer is checked the same way: the text it wrote is read back by the same format's reader
and compared with the schema it was given. Whatever differs is a :class:`Change` in the
:class:`LossReport`, so nothing a format cannot say is ever dropped silently, and the report is
exactly what a later reader of the text would miss (not a hand-kept list that can drift from
the writer). Declaration order is not compared: it carries no meaning.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import SchemaError
from .model import Property, SchemaGraph, is_note


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: ``element`` names where (``node Person``, ``edge KNOWS.since``),
    ``aspect`` what (``type``, ``endpoints``, ``cardinality`` …)."""

    element: str
    aspect: str
    before: Any
    after: Any

    def __str__(self) -> str:
        return f"{self.element}: {self.aspect} {_show(self.before)} -> {_show(self.after)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "element": self.element,
            "aspect": self.aspect,
            "before": _show(self.before),
            "after": _show(self.after),
        }


def _show(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(v) for v in value) + ")" if value else "()"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


@dataclass
class LossReport:
    """What writing a schema to ``format`` could not express (empty means nothing was lost)."""

    format: str
    changes: list[Change] = field(default_factory=list)
    notes: list[Change] = field(default_factory=list)  # dropped annotations: no loss

    def __bool__(self) -> bool:
        return bool(self.changes)

    def __len__(self) -> int:
        return len(self.changes)

    def lines(self) -> list[str]:
        return [str(c) for c in self.changes]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": self.format, "lost": [c.to_dict() for c in self.changes]}
        if self.notes:
            out["notes"] = [c.to_dict() for c in self.notes]
        return out

    def error(self) -> SchemaError:
        head = f"{self.format} cannot express {len(self.changes)} thing(s) of this schema"
        shown = self.lines()[:40]
        more = len(self.changes) - len(shown)
        body = "\n  ".join(shown) + (f"\n  ... and {more} more" if more > 0 else "")
        err = SchemaError(
            f"{head} (pass lossy=True / --lossy to write it anyway):\n  {body}",
            code="SCHEMA_LOSSY",
        )
        err.report = self  # type: ignore[attr-defined]
        return err


def diff(before: SchemaGraph, after: SchemaGraph, notes: bool = False) -> list[Change]:
    """Every difference of meaning between two schemas, keyed by labels and names; with
    ``notes``, the differences of phrase annotations instead (which change no meaning)."""
    out: list[Change] = []
    if notes:
        for label in before.node_labels:
            if after.node(label) is not None:
                _diff_element(f"node {label}", before.node(label), after.node(label), out, True)
        for label in before.edge_labels:
            if after.edge(label) is not None:
                _diff_element(f"edge {label}", before.edge(label), after.edge(label), out, True)
        return out
    if before.name != after.name:
        out.append(Change("graph", "name", before.name, after.name))
    if before.description != after.description:
        out.append(Change("graph", "description", before.description, after.description))
    for label in dict.fromkeys([*before.node_labels, *after.node_labels]):
        a, b = before.node(label), after.node(label)
        if a is None or b is None:
            out.append(Change(f"node {label}", "node type", _present(a), _present(b)))
            continue
        _diff_element(f"node {label}", a, b, out)
    for label in dict.fromkeys([*before.edge_labels, *after.edge_labels]):
        a2, b2 = before.edge(label), after.edge(label)
        if a2 is None or b2 is None:
            out.append(Change(f"edge {label}", "edge type", _present(a2), _present(b2)))
            continue
        _diff_element(f"edge {label}", a2, b2, out)
    return out


def _present(x: object) -> str:
    return "declared" if x is not None else "absent"


_SET_FIELDS = {"endpoints", "implies", "extra_labels"}


def _diff_element(where: str, a: Any, b: Any, out: list[Change], notes: bool = False) -> None:
    for f in fields(a):
        name = f.name
        if name == "label" or (is_note(f) != notes and name != "properties"):
            continue
        va, vb = getattr(a, name), getattr(b, name)
        if name == "properties":
            _diff_properties(where, va, vb, out, notes)
        elif name in _SET_FIELDS:
            if set(va) != set(vb):
                out.append(Change(where, name, _sorted(va), _sorted(vb)))
        elif va != vb:
            out.append(Change(where, name, va, vb))


def _sorted(items: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(sorted(items, key=str))


def _diff_properties(
    where: str,
    a: tuple[Property, ...],
    b: tuple[Property, ...],
    out: list[Change],
    notes: bool = False,
) -> None:
    pa = {p.name: p for p in a}
    pb = {p.name: p for p in b}
    for name in dict.fromkeys([*pa, *pb]):
        x, y = pa.get(name), pb.get(name)
        if x is None or y is None:
            if not notes:
                out.append(Change(f"{where}.{name}", "property", _present(x), _present(y)))
            continue
        for f in fields(x):
            if f.name == "name" or is_note(f) != notes:
                continue
            vx, vy = getattr(x, f.name), getattr(y, f.name)
            if vx != vy:
                out.append(Change(f"{where}.{name}", f.name, vx, vy))
