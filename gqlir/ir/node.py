"""The base of every Graph-IR node, and the generic walk / transform / dump API.

Nodes are frozen, slotted dataclasses. Children are the fields whose values are nodes or tuples
of nodes; they are found once per class. The source position (``pos``, an offset into the text a
node was parsed from) never takes part in equality, so ``parse(a) == parse(b)`` compares meaning
only.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

N = TypeVar("N", bound="Node")


@dataclass(frozen=True, slots=True)
class Node:
    pos: int | None = field(default=None, compare=False, repr=False, kw_only=True)

    # -- structure ---------------------------------------------------------------------------
    def field_values(self) -> Iterator[tuple[str, Any]]:
        for name in _field_names(type(self)):
            yield name, getattr(self, name)

    def children(self) -> Iterator[Node]:
        """Direct child nodes, in field order (tuples are flattened)."""
        for name in _child_field_names(type(self)):
            value = getattr(self, name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, tuple):
                yield from _nodes_in(value)

    def walk(self) -> Iterator[Node]:
        """This node and all its descendants, pre-order."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            kids = list(node.children())
            kids.reverse()
            stack.extend(kids)

    def find_all(self, kind: type[N]) -> Iterator[N]:
        for node in self.walk():
            if isinstance(node, kind):
                yield node

    def transform(self, fn: Callable[[Node], Node]) -> Node:
        """Rebuild bottom-up: children first, then ``fn`` on the rebuilt node."""
        changes: dict[str, Any] = {}
        for name in _child_field_names(type(self)):
            value = getattr(self, name)
            new = _transform_value(value, fn)
            if new is not value:
                changes[name] = new
        node = replace(self, **changes) if changes else self
        return fn(node)

    def with_pos(self: N, pos: int | None) -> N:
        return replace(self, pos=pos)

    # -- display -----------------------------------------------------------------------------
    def dump(self) -> str:
        """A readable, indented debug tree."""
        lines: list[str] = []
        _dump(self, 0, None, lines)
        return "\n".join(lines)


_FIELD_CACHE: dict[type, tuple[str, ...]] = {}
_CHILD_FIELD_CACHE: dict[type, tuple[str, ...]] = {}
#: Annotations of fields that never hold a node (a node's text, flags, counts).
_SCALARS = frozenset({"str", "int", "bool", "float", "None"})


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_CACHE.get(cls)
    if names is None:
        names = tuple(f.name for f in fields(cls) if f.name != "pos")
        _FIELD_CACHE[cls] = names
    return names


def _child_field_names(cls: type) -> tuple[str, ...]:
    """The fields that may hold nodes: walks skip the scalar ones (names, flags, numbers)."""
    names = _CHILD_FIELD_CACHE.get(cls)
    if names is None:
        names = tuple(
            f.name
            for f in fields(cls)
            if f.name != "pos"
            and not (
                isinstance(f.type, str) and {part.strip() for part in f.type.split("|")} <= _SCALARS
            )
        )
        _CHILD_FIELD_CACHE[cls] = names
    return names


def _nodes_in(value: tuple) -> Iterator[Node]:
    for item in value:
        if isinstance(item, Node):
            yield item
        elif isinstance(item, tuple):
            yield from _nodes_in(item)


def _transform_value(value: Any, fn: Callable[[Node], Node]) -> Any:
    if isinstance(value, Node):
        return value.transform(fn)
    if isinstance(value, tuple):
        out: list[Any] | None = None  # a copy only once something changed
        for i, item in enumerate(value):
            new = _transform_value(item, fn)
            if out is not None:
                out.append(new)
            elif new is not item:
                out = [*value[:i], new]
        return value if out is None else tuple(out)
    return value


def _scalar(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return value.name
    return repr(value)


def _dump(value: Any, depth: int, label: str | None, lines: list[str]) -> None:
    pad = "  " * depth
    head = f"{label}: " if label else ""
    if isinstance(value, Node):
        scalars = []
        nested = []
        for name, v in value.field_values():
            if isinstance(v, Node) or (isinstance(v, tuple) and any(_has_node(x) for x in v)):
                nested.append((name, v))
            elif v is not None and v != () and v is not False:
                scalars.append(f"{name}={_scalar(v)}")
        lines.append(f"{pad}{head}{type(value).__name__}({', '.join(scalars)})")
        for name, v in nested:
            _dump(v, depth + 1, name, lines)
    elif isinstance(value, tuple):
        lines.append(f"{pad}{head}[")
        for item in value:
            _dump(item, depth + 1, None, lines)
        lines.append(f"{pad}]")
    else:
        lines.append(f"{pad}{head}{_scalar(value)}")


def _has_node(value: Any) -> bool:
    if isinstance(value, Node):
        return True
    if isinstance(value, tuple):
        return any(_has_node(v) for v in value)
    return False
