"""CypherBench's schema JSON (``PropertyGraphSchema``: ``name``, ``entities``, ``relations``)
with its relation annotations (``graph_info.json``'s per-graph entry) under ``"graph_info"``.

Sources: megagonlabs/cypherbench ``cypherbench/schema.py`` (``EntitySchema``, ``RelationSchema``,
``DataType``, ``RelationInfo``) and ``graph_info.json``, https://github.com/megagonlabs/cypherbench.
CypherBench's own loader ignores unknown keys, so a file with ``graph_info`` still loads there.

Mapping: an entity is a node type, a relation entry (``label``, ``subj_label``, ``obj_label``)
one endpoint pair of an edge type (entries with one label are merged). CypherBench adds a
``name`` string property to every entity when it loads a schema; so does this reader, and the
writer leaves ``name`` out (a node type without a first ``name`` string property is reported).
``RelationInfo`` gives: ``subj_cardinality``/``obj_cardinality`` one|many (how many subjects per
object and objects per subject: many/one is gqlir's ``n:1``), ``is_mandatory_subj``/``_obj``
(total participation), ``is_symmetric``, ``is_time_sensitive``, ``implied_relations``.
"""

from __future__ import annotations

import json
from typing import Any

from ...errors import SchemaError
from ..model import (
    Cardinality,
    EdgeType,
    Endpoint,
    NodeType,
    Participation,
    Property,
    SchemaGraph,
)
from ..types import CYPHERBENCH, PropertyType, TypeKind

NAME = Property("name", PropertyType(TypeKind.STRING))


def _dtype(p: Property) -> str:
    if p.categorical and p.type.kind == TypeKind.STRING:
        return "categorical"
    return CYPHERBENCH.render(p.type)


def _has_annotations(e: EdgeType) -> bool:
    return any(
        (
            e.cardinality is not None,
            e.source_participation is not None,
            e.target_participation is not None,
            e.symmetric,
            e.time_sensitive,
            e.implies,
        )
    )


def to_data(
    schema: SchemaGraph, *, descriptions: bool = True, name_property: bool = False
) -> dict[str, Any]:
    entities = []
    for n in schema.node_types:
        props = {p.name: _dtype(p) for p in n.properties}
        if not name_property and n.properties and n.properties[0] == NAME:
            props.pop("name")
        ent: dict[str, Any] = {"label": n.label}
        if descriptions:
            ent["description"] = n.description
        ent["properties"] = props
        entities.append(ent)
    relations = []
    for e in schema.edge_types:
        for ep in e.endpoints:
            relations.append(
                {
                    "label": e.label,
                    "subj_label": ep.source,
                    "obj_label": ep.target,
                    "properties": {p.name: _dtype(p) for p in e.properties},
                }
            )
    data: dict[str, Any] = {"name": schema.name, "entities": entities, "relations": relations}
    if any(_has_annotations(e) for e in schema.edge_types):
        infos = []
        for e in schema.edge_types:
            card = e.cardinality or Cardinality.MANY_TO_MANY
            infos.append(
                {
                    "label": e.label,
                    "variants": [f"{e.label}#{ep.source}#{ep.target}" for ep in e.endpoints],
                    "is_symmetric": e.symmetric,
                    "is_time_sensitive": e.time_sensitive,
                    "is_mandatory_subj": e.source_participation == Participation.TOTAL,
                    "is_mandatory_obj": e.target_participation == Participation.TOTAL,
                    "subj_cardinality": "one" if card.target_max_one else "many",
                    "obj_cardinality": "one" if card.source_max_one else "many",
                    "implied_relations": list(e.implies),
                }
            )
        data["graph_info"] = {"relations": infos}
    return data


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    return json.dumps(to_data(schema), indent=2, ensure_ascii=False) + "\n"


def _prop(owner: str, pname: str, dtype: Any) -> Property:
    if not isinstance(dtype, str):
        raise SchemaError(
            f"CypherBench: {owner}.{pname}: the type must be a string", code="SCHEMA_JSON"
        )
    try:
        t = CYPHERBENCH.parse(dtype)
    except SchemaError as exc:
        raise SchemaError(
            f"CypherBench: {owner}.{pname}: {exc.message}", code="SCHEMA_JSON"
        ) from None
    return Property(pname, t, categorical=dtype.lower() == "categorical")


def from_data(data: Any, *, add_name: bool = True) -> SchemaGraph:
    if not isinstance(data, dict) or "entities" not in data:
        raise SchemaError(
            "CypherBench: expected an object with 'entities' and 'relations'", code="SCHEMA_JSON"
        )
    nodes = []
    for ent in data["entities"]:
        props = [_prop(ent["label"], k, v) for k, v in (ent.get("properties") or {}).items()]
        if add_name and "name" not in {p.name for p in props}:
            props.insert(0, NAME)
        nodes.append(NodeType(ent["label"], tuple(props), description=ent.get("description")))
    merged: dict[str, tuple[list[Endpoint], tuple[Property, ...]]] = {}
    for rel in data.get("relations", []):
        props_t = tuple(_prop(rel["label"], k, v) for k, v in (rel.get("properties") or {}).items())
        ep = Endpoint(rel["subj_label"], rel["obj_label"])
        if rel["label"] in merged:
            eps, prev = merged[rel["label"]]
            if prev != props_t:
                raise SchemaError(
                    f"CypherBench: relation {rel['label']} has different properties "
                    "for different endpoints",
                    code="SCHEMA_JSON",
                )
            eps.append(ep)
        else:
            merged[rel["label"]] = ([ep], props_t)
    infos = {i["label"]: i for i in (data.get("graph_info") or {}).get("relations", [])}
    edges = []
    for label, (eps, props_t) in merged.items():
        info = infos.get(label)
        if info is None:
            edges.append(EdgeType(label, tuple(eps), props_t))
            continue
        edges.append(
            EdgeType(
                label,
                tuple(eps),
                props_t,
                cardinality=Cardinality.of(
                    info.get("obj_cardinality") == "one", info.get("subj_cardinality") == "one"
                ),
                source_participation=Participation.TOTAL
                if info.get("is_mandatory_subj")
                else Participation.PARTIAL,
                target_participation=Participation.TOTAL
                if info.get("is_mandatory_obj")
                else Participation.PARTIAL,
                implies=tuple(info.get("implied_relations") or ()),
                symmetric=bool(info.get("is_symmetric")),
                time_sensitive=bool(info.get("is_time_sensitive")),
            )
        )
    return SchemaGraph(name=data.get("name", ""), node_types=tuple(nodes), edge_types=tuple(edges))


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(
            f"CypherBench JSON: {exc.msg}", text=text, offset=exc.pos, code="SCHEMA_JSON"
        ) from None
    return from_data(data)
