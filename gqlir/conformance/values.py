"""The openCypher TCK's notation for values in result tables and parameters, and the canonical
form results are compared in.

The notation: ``null``, ``true``, integers, floats (``1.0``, ``NaN``, ``-Infinity``),
``'strings'``, ``[lists]``, ``{maps: 1}``, nodes ``(:L {k: v})``, relationships ``[:T {k: v}]``
and paths ``<(:A)-[:T]->(:B)>``. Nodes and relationships are compared by labels/type and
properties, never by identity, and temporal values by their ISO text (the TCK writes them as
strings), so :func:`canonical` maps expected cells and actual values to the same keys.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ExpectedNode",
    "ExpectedPath",
    "ExpectedRelationship",
    "TckValueError",
    "canonical",
    "parse_value",
]


class TckValueError(ValueError):
    """A cell the value notation does not describe."""


@dataclass(frozen=True, slots=True)
class ExpectedNode:
    labels: frozenset[str]
    properties: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ExpectedRelationship:
    type: str
    properties: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ExpectedPath:
    """``start`` then (relationship, forward?, node) steps."""

    start: ExpectedNode
    steps: tuple[tuple[ExpectedRelationship, bool, ExpectedNode], ...]


_NUMBER = re.compile(r"-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|`(?:[^`]|``)*`")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def error(self, message: str) -> TckValueError:
        return TckValueError(f"{message} at {self.i} in {self.text!r}")

    def ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def peek(self, s: str) -> bool:
        self.ws()
        return self.text.startswith(s, self.i)

    def take(self, s: str) -> None:
        if not self.peek(s):
            raise self.error(f"expected {s!r}")
        self.i += len(s)

    def name(self) -> str:
        self.ws()
        m = _NAME.match(self.text, self.i)
        if not m:
            raise self.error("expected a name")
        self.i = m.end()
        text = m.group(0)
        return text[1:-1].replace("``", "`") if text.startswith("`") else text

    def value(self) -> Any:
        self.ws()
        t, i = self.text, self.i
        if t.startswith("'", i):
            return self.string()
        if t.startswith("[", i):
            j = i + 1
            while j < len(t) and t[j].isspace():
                j += 1
            if t.startswith(":", j):
                return self.relationship()
            return self.list_value()
        if t.startswith("{", i):
            return self.map()
        if t.startswith("(", i):
            return self.node()
        if t.startswith("<", i):
            return self.path()
        for word, val in (("null", None), ("true", True), ("false", False), ("NaN", math.nan)):
            if t.startswith(word, i) and not t[i + len(word) : i + len(word) + 1].isalnum():
                self.i += len(word)
                return val
        if t.startswith("Infinity", i):
            self.i += 8
            return math.inf
        if t.startswith("-Infinity", i):
            self.i += 9
            return -math.inf
        m = _NUMBER.match(t, i)
        if m:
            self.i = m.end()
            text = m.group(0)
            if any(c in text for c in ".eE"):
                return float(text)
            return int(text)
        raise self.error("unknown value")

    def string(self) -> str:
        self.take("'")
        out = []
        t = self.text
        while self.i < len(t):
            ch = t[self.i]
            if ch == "\\" and self.i + 1 < len(t):
                nxt = t[self.i + 1]
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(nxt, nxt))
                self.i += 2
                continue
            if ch == "'":
                self.i += 1
                return "".join(out)
            out.append(ch)
            self.i += 1
        raise self.error("unterminated string")

    def list_value(self) -> list[Any]:
        self.take("[")
        items: list[Any] = []
        if self.peek("]"):
            self.take("]")
            return items
        while True:
            items.append(self.value())
            if self.peek(","):
                self.take(",")
                continue
            self.take("]")
            return items

    def map(self) -> dict[str, Any]:
        self.take("{")
        out: dict[str, Any] = {}
        if self.peek("}"):
            self.take("}")
            return out
        while True:
            key = self.name()
            self.take(":")
            out[key] = self.value()
            if self.peek(","):
                self.take(",")
                continue
            self.take("}")
            return out

    def labels(self) -> list[str]:
        names = []
        while self.peek(":"):
            self.take(":")
            names.append(self.name())
        return names

    def node(self) -> ExpectedNode:
        self.take("(")
        labels = self.labels()
        props = self.map() if self.peek("{") else {}
        self.take(")")
        return ExpectedNode(frozenset(labels), props)

    def relationship(self) -> ExpectedRelationship:
        self.take("[")
        types = self.labels()
        if len(types) != 1:
            raise self.error("a relationship needs one type")
        props = self.map() if self.peek("{") else {}
        self.take("]")
        return ExpectedRelationship(types[0], props)

    def path(self) -> ExpectedPath:
        self.take("<")
        start = self.node()
        steps = []
        while not self.peek(">"):
            if self.peek("<-"):
                self.take("<-")
                rel = self.relationship()
                self.take("-")
                forward = False
            else:
                self.take("-")
                rel = self.relationship()
                self.take("->")
                forward = True
            steps.append((rel, forward, self.node()))
        self.take(">")
        return ExpectedPath(start, tuple(steps))


def parse_value(text: str) -> Any:
    """A TCK cell as a value: Python scalars, lists and dicts, and Expected* graph elements."""
    reader = _Reader(text)
    value = reader.value()
    reader.ws()
    if reader.i != len(text):
        raise reader.error("trailing text")
    return value


def canonical(value: Any, unordered_lists: bool = False) -> Any:
    """A hashable key under which an expected cell and an equal actual value coincide."""
    from ..eval.graph import Node, Relationship
    from ..eval.temporal import TEMPORAL_TYPES
    from ..eval.values import Path

    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("float", "NaN") if math.isnan(value) else ("float", value)
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, TEMPORAL_TYPES):
        return ("str", str(value))
    if isinstance(value, list):
        keys = [canonical(v, unordered_lists) for v in value]
        if unordered_lists:
            keys.sort(key=repr)
        return ("list", tuple(keys))
    if isinstance(value, dict):
        return ("map", _props(value, unordered_lists))
    if isinstance(value, (Node, ExpectedNode)):
        return ("node", frozenset(value.labels), _props(value.properties, unordered_lists))
    if isinstance(value, (Relationship, ExpectedRelationship)):
        return ("rel", value.type, _props(value.properties, unordered_lists))
    if isinstance(value, ExpectedPath):
        steps = tuple((canonical(r), fwd, canonical(n)) for r, fwd, n in value.steps)
        return ("path", canonical(value.start), steps)
    if isinstance(value, Path):
        out = []
        current = value.nodes[0]
        for rel, nxt in zip(value.relationships, value.nodes[1:]):
            out.append(
                (canonical(rel), rel.start == current.id and rel.end == nxt.id, canonical(nxt))
            )
            current = nxt
        return ("path", canonical(value.nodes[0]), tuple(out))
    return ("other", repr(value))


def _props(props: dict[str, Any], unordered_lists: bool) -> frozenset[tuple[str, Any]]:
    return frozenset((k, canonical(v, unordered_lists)) for k, v in props.items())
