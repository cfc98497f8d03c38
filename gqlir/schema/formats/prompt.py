"""The schema as LLM prompts show it.

``prompt``: the ``schema.txt`` layout of Text2GQL-Bench's evaluation driver (the layout of
Neo4j's enhanced schema string), with gqlir's type names::

    Node properties:
    - **Person**
      - `id`: INT64 (REQUIRED)
    Relationship properties:
    - **KNOWS**
      - `since`: DATE (OPTIONAL)
    The relationships:
    (:Person)-[:KNOWS]->(:Person)

``prompt:cypherbench``: CypherBench's prompt schema, ``PropertyGraphSchema.to_sorted()``
serialised with ``to_str(exclude_description=True)`` (entities and relations sorted, the
``name`` property included, two-space indented JSON; megagonlabs/cypherbench
``cypherbench/baseline/zero_shot_nl2cypher.py``).

Both are for reading by people and models: keys, uniqueness, indexes, descriptions and
annotations are not in them (reported when written).
"""

from __future__ import annotations

import json
import re

from ...errors import SchemaError
from ..model import EdgeType, Endpoint, NodeType, Property, SchemaGraph
from ..types import parse_type
from . import cypherbench


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    if variant == "cypherbench":
        data = cypherbench.to_data(schema.canonical(), descriptions=False, name_property=True)
        data.pop("graph_info", None)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    lines = ["Node properties:"]
    for n in schema.node_types:
        lines.append(f"- **{n.label}**")
        lines += [_prop_line(p) for p in n.properties]
    lines.append("Relationship properties:")
    for e in schema.edge_types:
        if e.properties:
            lines.append(f"- **{e.label}**")
            lines += [_prop_line(p) for p in e.properties]
    lines.append("The relationships:")
    for e in schema.edge_types:
        for ep in e.endpoints:
            lines.append(f"(:{ep.source})-[:{e.label}]->(:{ep.target})")
    return "\n".join(lines) + "\n"


def _prop_line(p: Property) -> str:
    return f"  - `{p.name}`: {p.type} ({'REQUIRED' if p.required else 'OPTIONAL'})"


_HEAD = re.compile(r"- \*\*(.+)\*\*\s*$")
_PROP = re.compile(r"\s+- `(.+)`: (.+?)(?: \((REQUIRED|OPTIONAL)\))?\s*$")
_REL = re.compile(r"\(:(.+?)\)-\[:(.+?)\]->\(:(.+?)\)\s*$")


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    if variant == "cypherbench":
        schema = cypherbench.read(text)
        return schema.replace(name=schema.name or name)
    section = None
    nodes: dict[str, list[Property]] = {}
    rel_props: dict[str, list[Property]] = {}
    rels: dict[str, list[Endpoint]] = {}
    current: list[Property] | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        here = offset
        offset += len(line)
        if not stripped:
            continue
        if stripped == "Node properties:":
            section = "nodes"
            continue
        if stripped == "Relationship properties:":
            section = "rels"
            continue
        if stripped == "The relationships:":
            section = "edges"
            continue
        m = _HEAD.match(line)
        if m and section in ("nodes", "rels"):
            current = (nodes if section == "nodes" else rel_props).setdefault(m.group(1), [])
            continue
        m = _PROP.match(line.rstrip("\n"))
        if m and current is not None and section in ("nodes", "rels"):
            try:
                ptype = parse_type(m.group(2))
            except SchemaError as exc:
                raise SchemaError(
                    exc.message, text=text, offset=here, code="SCHEMA_SYNTAX"
                ) from None
            current.append(Property(m.group(1), ptype, required=m.group(3) == "REQUIRED"))
            continue
        m = _REL.match(stripped)
        if m and section == "edges":
            src, label, dst = m.groups()
            eps = rels.setdefault(label, [])
            if Endpoint(src, dst) not in eps:
                eps.append(Endpoint(src, dst))
            for lab in (src, dst):
                nodes.setdefault(lab, [])
            continue
        raise SchemaError(
            f"unexpected line in a schema prompt: {stripped[:60]!r}",
            text=text,
            offset=here,
            code="SCHEMA_SYNTAX",
        )
    for label in rel_props:
        rels.setdefault(label, [])
    return SchemaGraph(
        name=name,
        node_types=tuple(NodeType(k, tuple(v)) for k, v in nodes.items()),
        edge_types=tuple(EdgeType(k, tuple(rels[k]), tuple(rel_props.get(k, ()))) for k in rels),
    )
