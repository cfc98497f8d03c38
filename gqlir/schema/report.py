"""What a format could not express: a structural diff between a schema and its round trip.

Every writer is checked the same way: the text it wrote is read back by the same format's reader
and compared with the schema it was given. Each difference is a :class:`Change`, sorted into
one of two lists of the :class:`LossReport`:

* ``lost``: information that does not come back (a unit, a description, a required property
  read back as optional, a type that changes, a composite key cut short, endpoints dropped);
* ``notes``: differences that lose nothing: an *addition* (something unstated before and stated
  after: a surrogate key column, CypherBench's ``name`` property, a default the format writes),
  a value that means the same as leaving it unstated (cardinality ``n:m``: no limit on either
  side; participation ``partial``: no node must take part), and what a format leaves out *by
  design* (a prompt carries no keys or indexes).

So nothing a format cannot say is ever dropped silently, and the report is exactly what a later
reader of the text would miss (not a hand-kept list that can drift from the writer).
Declaration order is not compared: it carries no meaning.
"""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import SchemaError
from .model import (
    Cardinality,
    EdgeType,
    NodeType,
    Participation,
    Property,
    SchemaGraph,
    is_note,
)

ADDED = "added"
SAME_MEANING = "same meaning"
BY_DESIGN = "left out by design"
WORDING = "wording annotation"

#: Annotations that say how to word an element (``phrase``, ``inverse``, ``plural``): dropping
#: one changes no meaning.
_WORDING_ASPECTS = frozenset(
    f.name for cls in (NodeType, EdgeType, Property) for f in fields(cls) if is_note(f)
)


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: ``element`` names where (``node Person``, ``edge KNOWS.since``),
    ``aspect`` what (``type``, ``endpoints``, ``cardinality`` …); ``reason`` says why a note
    loses nothing (None for a loss)."""

    element: str
    aspect: str
    before: Any
    after: Any
    reason: str | None = None

    def __str__(self) -> str:
        text = f"{self.element}: {self.aspect} {_show(self.before)} -> {_show(self.after)}"
        return f"{text} ({self.reason})" if self.reason else text

    def to_dict(self) -> dict[str, Any]:
        out = {
            "element": self.element,
            "aspect": self.aspect,
            "before": _show(self.before),
            "after": _show(self.after),
        }
        if self.reason:
            out["reason"] = self.reason
        return out


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
    """What writing a schema to ``format`` could not express (``lost``; empty means nothing was
    lost) and what changed without loss (``notes``)."""

    format: str
    lost: list[Change] = field(default_factory=list)
    notes: list[Change] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.lost)

    def __len__(self) -> int:
        return len(self.lost)

    def lines(self) -> list[str]:
        return [str(c) for c in self.lost]

    def note_lines(self) -> list[str]:
        return [str(c) for c in self.notes]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "lost": [c.to_dict() for c in self.lost],
            "notes": [c.to_dict() for c in self.notes],
        }

    def message(self, how_to_force: str) -> str:
        """The losses, and ``how_to_force`` (``--lossy`` or ``lossy=True``) to write anyway."""
        head = f"{self.format} cannot express {len(self.lost)} thing(s) of this schema"
        shown = self.lines()[:40]
        more = len(self.lost) - len(shown)
        body = "\n  ".join(shown) + (f"\n  ... and {more} more" if more > 0 else "")
        return f"{head} (pass {how_to_force} to write it anyway):\n  {body}"

    def error(self) -> SchemaError:
        err = SchemaError(self.message("lossy=True"), code="SCHEMA_LOSSY")
        err.report = self  # type: ignore[attr-defined]
        return err


def report(
    fmt: str, before: SchemaGraph, after: SchemaGraph, omits: Collection[str] = ()
) -> LossReport:
    """Sort the differences of a round trip into losses and notes. ``omits`` names the aspects
    the format leaves out by design: losing them is a note."""
    out = LossReport(fmt)
    for change in diff(before, after):
        reason = _no_loss(change)
        if reason is None and change.aspect in omits:
            reason = BY_DESIGN
        if reason is None:
            out.lost.append(change)
        else:
            out.notes.append(
                Change(change.element, change.aspect, change.before, change.after, reason)
            )
    return out


#: Values that say the same as leaving the aspect unstated.
_UNSTATED_EQUIVALENT = {
    "cardinality": Cardinality.MANY_TO_MANY,
    "source_participation": Participation.PARTIAL,
    "target_participation": Participation.PARTIAL,
}


_PRESENCE = {"node type", "edge type", "property"}


def _unstated(aspect: str, value: Any) -> bool:
    if aspect in _PRESENCE:
        return value == _ABSENT
    return value in (None, False, (), "") or _UNSTATED_EQUIVALENT.get(aspect) == value


def _no_loss(change: Change) -> str | None:
    """Why ``change`` loses nothing, or None when it is a loss. Endpoints and types are never
    additions: no endpoints means "any node types", and any type change changes the values
    a property may hold."""
    if change.aspect in ("endpoints", "type"):
        return None
    if change.aspect in _WORDING_ASPECTS:
        return WORDING
    if _unstated(change.aspect, change.before):
        return SAME_MEANING if _unstated(change.aspect, change.after) else ADDED
    return None


def diff(before: SchemaGraph, after: SchemaGraph) -> list[Change]:
    """Every difference of meaning between two schemas, keyed by labels and names."""
    out: list[Change] = []
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


_ABSENT = "absent"


def _present(x: object) -> str:
    return "declared" if x is not None else _ABSENT


_SET_FIELDS = {"endpoints", "implies", "extra_labels"}


def _diff_element(
    where: str, a: NodeType | EdgeType, b: NodeType | EdgeType, out: list[Change]
) -> None:
    for f in fields(a):
        name = f.name
        if name == "label":
            continue
        va, vb = getattr(a, name), getattr(b, name)
        if name == "properties":
            _diff_properties(where, va, vb, out)
        elif name in _SET_FIELDS:
            if set(va) != set(vb):
                out.append(Change(where, name, _sorted(va), _sorted(vb)))
        elif va != vb:
            out.append(Change(where, name, va, vb))


def _sorted(items: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(sorted(items, key=str))


def _diff_properties(
    where: str, a: tuple[Property, ...], b: tuple[Property, ...], out: list[Change]
) -> None:
    pa = {p.name: p for p in a}
    pb = {p.name: p for p in b}
    for name in dict.fromkeys([*pa, *pb]):
        x, y = pa.get(name), pb.get(name)
        if x is None or y is None:
            out.append(Change(f"{where}.{name}", "property", _present(x), _present(y)))
            continue
        for f in fields(x):
            if f.name == "name":
                continue
            vx, vy = getattr(x, f.name), getattr(y, f.name)
            if vx != vy:
                out.append(Change(f"{where}.{name}", f.name, vx, vy))
