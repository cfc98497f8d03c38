"""The schema as LLM prompts show it.

``prompt``: the ``schema.txt`` layout of Text2GQL-Bench's evaluation driver (the layout of
Neo4j's enhanced schema string), with gqlir's type names, and what a model needs to read a
question against the schema: the graph's description, each type's description and further
labels, each property's unit and description::

    Graph description: People and who they know
    Node properties:
    - **Person** (also :Agent): A member of the network
      - `id`: INT64 (REQUIRED)
      - `height`: FLOAT64 (OPTIONAL, unit: cm): Height when they joined
    Relationship properties:
    - **KNOWS**: They have met
      - `since`: DATE (OPTIONAL)
    The relationships:
    (:Person)-[:KNOWS]->(:Person)

A prompt is not a constraint script: keys, uniqueness, indexes, cardinality, participation,
entailment, symmetry, time sensitivity and the categorical mark are left out by design
(``OMITS``: reported as notes, not losses). A description is one line: line breaks in it are
written as spaces, and that is reported as a loss.

``prompt:cypherbench``: CypherBench's prompt schema, ``PropertyGraphSchema.to_sorted()``
serialised with ``to_str(exclude_description=True)`` (entities and relations sorted, the
``name`` property included, two-space indented JSON; megagonlabs/cypherbench
``cypherbench/baseline/zero_shot_nl2cypher.py``). It is CypherBench's layout as its baseline
sends it, so it also leaves out, by design, descriptions, units and whether a property is
required; types it cannot name, and extra labels, are losses.
"""

from __future__ import annotations

import json
import re

from ...errors import SchemaError
from ..model import EdgeType, Endpoint, NodeType, Property, SchemaGraph
from ..types import parse_type
from . import cypherbench

_CONSTRAINTS = frozenset(
    {
        "keys",
        "unique",
        "indexed",
        "cardinality",
        "source_participation",
        "target_participation",
        "implies",
        "symmetric",
        "time_sensitive",
        "categorical",
    }
)

#: What each variant leaves out by design (see the module docstring).
OMITS: dict[str | None, frozenset[str]] = {
    None: _CONSTRAINTS,
    "cypherbench": _CONSTRAINTS | {"description", "unit", "required"},
}


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    if variant == "cypherbench":
        data = cypherbench.to_data(schema.canonical(), descriptions=False, name_property=True)
        data.pop("graph_info", None)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    lines = [f"Graph description: {_one_line(schema.description)}"] if schema.description else []
    lines.append("Node properties:")
    for n in schema.node_types:
        lines.append(_head(n.label, n.description, n.extra_labels))
        lines += [_prop_line(p) for p in n.properties]
    lines.append("Relationship properties:")
    for e in schema.edge_types:
        # An edge type without endpoints would otherwise not be in the prompt at all.
        if e.properties or e.description or not e.endpoints:
            lines.append(_head(e.label, e.description))
            lines += [_prop_line(p) for p in e.properties]
    lines.append("The relationships:")
    for e in schema.edge_types:
        for ep in e.endpoints:
            lines.append(f"(:{ep.source})-[:{e.label}]->(:{ep.target})")
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _head(label: str, description: str | None, extra_labels: tuple[str, ...] = ()) -> str:
    also = f" (also :{':'.join(extra_labels)})" if extra_labels else ""
    return f"- **{label}**{also}" + (f": {_one_line(description)}" if description else "")


def _prop_line(p: Property) -> str:
    flags = "REQUIRED" if p.required else "OPTIONAL"
    if p.unit is not None:
        flags += f", unit: {p.unit}"
    text = f"  - `{p.name}`: {p.type} ({flags})"
    return text + (f": {_one_line(p.description)}" if p.description else "")


_GRAPH = re.compile(r"Graph description: (?P<desc>.*?)\s*$")
_HEAD = re.compile(
    r"- \*\*(?P<label>.+?)\*\*(?: \(also :(?P<also>[^)]*)\))?(?:: (?P<desc>.*?))?\s*$"
)
_PROP = re.compile(
    r"\s+- `(?P<name>.+?)`: (?P<type>.+?)"
    r"(?: \((?P<req>REQUIRED|OPTIONAL)(?:, unit: (?P<unit>.*?))?\))?(?:: (?P<desc>.*?))?\s*$"
)
_REL = re.compile(r"\(:(.+?)\)-\[:(.+?)\]->\(:(.+?)\)\s*$")
_SECTIONS = {
    "Node properties:": "nodes",
    "Relationship properties:": "rels",
    "The relationships:": "edges",
}


class _Type:
    """A node or edge type as the prompt lists it, filled in line by line."""

    def __init__(self, description: str | None = None, also: str | None = None) -> None:
        self.description = description
        self.extra_labels = tuple(also.split(":")) if also else ()
        self.properties: list[Property] = []
        self.endpoints: list[Endpoint] = []


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    if variant == "cypherbench":
        schema = cypherbench.read(text)
        return schema.replace(name=schema.name or name)
    section = None
    description = None
    types: dict[str, dict[str, _Type]] = {"nodes": {}, "rels": {}}
    current: _Type | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        here = offset
        offset += len(line)
        if not stripped:
            continue
        if stripped in _SECTIONS:
            section, current = _SECTIONS[stripped], None
            continue
        m = _GRAPH.match(stripped)
        if m and section is None:
            description = m.group("desc")
            continue
        m = _HEAD.match(line)
        if m and section in types:
            current = _Type(m.group("desc"), m.group("also"))
            types[section][m.group("label")] = current
            continue
        m = _PROP.match(line.rstrip("\n"))
        if m and current is not None and section in types:
            current.properties.append(_property(m, text, here))
            continue
        m = _REL.match(stripped)
        if m and section == "edges":
            src, label, dst = m.groups()
            edge = types["rels"].setdefault(label, _Type())
            if Endpoint(src, dst) not in edge.endpoints:
                edge.endpoints.append(Endpoint(src, dst))
            for lab in (src, dst):
                types["nodes"].setdefault(lab, _Type())
            continue
        raise SchemaError(
            f"unexpected line in a schema prompt: {stripped[:60]!r}",
            text=text,
            offset=here,
            code="SCHEMA_SYNTAX",
        )
    return SchemaGraph(
        name=name,
        description=description,
        node_types=tuple(
            NodeType(k, tuple(t.properties), extra_labels=t.extra_labels, description=t.description)
            for k, t in types["nodes"].items()
        ),
        edge_types=tuple(
            EdgeType(k, tuple(t.endpoints), tuple(t.properties), description=t.description)
            for k, t in types["rels"].items()
        ),
    )


def _property(m: re.Match[str], text: str, offset: int) -> Property:
    try:
        ptype = parse_type(m.group("type"))
    except SchemaError as exc:
        raise SchemaError(exc.message, text=text, offset=offset, code="SCHEMA_SYNTAX") from None
    return Property(
        m.group("name"),
        ptype,
        required=m.group("req") == "REQUIRED",
        unit=m.group("unit"),
        description=m.group("desc"),
    )
