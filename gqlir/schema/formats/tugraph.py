"""TuGraph: the ``lgraph_import`` schema JSON (``{"schema": […], "files": […]}``), and the
``db.createVertexLabel`` / ``db.createEdgeLabel`` / ``db.addIndex`` procedure calls
(variant ``tugraph:procedures``).

Sources: TuGraph-DB docs, "Data import" (``lgraph_import`` configuration: ``label``, ``type``
VERTEX|EDGE, ``primary``, ``properties`` with ``name``, ``type``, ``optional``, ``unique``,
``index``; edge ``constraints`` as [source, target] pairs; ``files`` with ``path``, ``format``,
``label``, ``header``, ``columns``, ``SRC_ID``/``DST_ID``) and "Cypher API" §5 (procedures),
https://tugraph-db.readthedocs.io/en/latest/ . Types: :data:`gqlir.schema.types.TUGRAPH`.

The file list describes a CSV layout (``<Label>.csv``; ``<TYPE>_<SOURCE>_<TARGET>.csv`` with
``SRC_ID``, ``DST_ID`` and the edge's properties); it is written for the loader and ignored when
reading. A vertex label has exactly one primary property: composite keys, keyless node types,
edge keys, descriptions and relation annotations cannot be written (reported).
"""

from __future__ import annotations

import json
from typing import Any

from ...errors import SchemaError
from ..model import EdgeType, Endpoint, NodeType, Property, SchemaGraph
from ..types import TUGRAPH
from ._ddl import STRING, Cursor, cypher_string


def _props(props: tuple[Property, ...], primary: str | None) -> list[dict[str, Any]]:
    out = []
    for p in props:
        d: dict[str, Any] = {"name": p.name, "type": TUGRAPH.render(p.type)}
        if not p.required:
            d["optional"] = True
        if p.unique:
            d["unique"] = True
        if p.indexed or (p.unique and p.name != primary):
            d["index"] = True
        out.append(d)
    return out


def _layout(schema: SchemaGraph) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    entries, files = [], []
    for n in schema.node_types:
        primary = n.keys[0] if n.keys else None
        props = n.properties
        if primary is None:
            # TuGraph needs a primary field: a surrogate, reported as an extra key property.
            from ..types import PropertyType, TypeKind

            props = (Property("id", PropertyType(TypeKind.INT64), required=True), *props)
            primary = "id"
        entries.append(
            {
                "label": n.label,
                "type": "VERTEX",
                "primary": primary,
                "properties": _props(props, primary),
            }
        )
        files.append(
            {
                "path": f"{n.label}.csv",
                "format": "CSV",
                "label": n.label,
                "header": 1,
                "columns": [p.name for p in props],
            }
        )
    for e in schema.edge_types:
        d: dict[str, Any] = {
            "label": e.label,
            "type": "EDGE",
            "properties": _props(e.properties, None),
        }
        if e.endpoints:
            d["constraints"] = [[ep.source, ep.target] for ep in e.endpoints]
        entries.append(d)
        for ep in e.endpoints:
            files.append(
                {
                    "path": f"{e.label}_{ep.source}_{ep.target}.csv",
                    "format": "CSV",
                    "label": e.label,
                    "header": 1,
                    "SRC_ID": ep.source,
                    "DST_ID": ep.target,
                    "columns": ["SRC_ID", "DST_ID", *(p.name for p in e.properties)],
                }
            )
    return entries, files


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    if variant == "procedures":
        return _write_procedures(schema)
    entries, files = _layout(schema)
    return json.dumps({"schema": entries, "files": files}, indent=2, ensure_ascii=False) + "\n"


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    if variant == "procedures":
        return _read_procedures(text, name)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(
            f"TuGraph JSON: {exc.msg}", text=text, offset=exc.pos, code="SCHEMA_JSON"
        ) from None
    entries = data.get("schema") if isinstance(data, dict) else data  # a bare list also occurs
    if not isinstance(entries, list):
        raise SchemaError(
            'TuGraph JSON: expected {"schema": [...]} or a list of labels', code="SCHEMA_JSON"
        )
    nodes, edges = [], []
    for i, ent in enumerate(entries):
        if not isinstance(ent, dict) or "label" not in ent:
            raise SchemaError(
                f"TuGraph JSON: schema[{i}] is not a label object", code="SCHEMA_JSON"
            )
        props = []
        primary = ent.get("primary")
        for p in ent.get("properties", []):
            try:
                ptype = TUGRAPH.parse(str(p["type"]))
            except SchemaError as exc:
                raise SchemaError(
                    f"TuGraph JSON: {ent['label']}.{p.get('name')}: {exc.message}",
                    code="SCHEMA_JSON",
                ) from None
            props.append(
                Property(
                    p["name"],
                    ptype,
                    required=not p.get("optional", False),
                    unique=bool(p.get("unique", False)),
                    indexed=bool(p.get("index", False)) and not p.get("unique", False),
                )
            )
        kind = str(ent.get("type", "")).upper()
        if kind == "VERTEX":
            nodes.append(NodeType(ent["label"], tuple(props), keys=(primary,) if primary else ()))
        elif kind == "EDGE":
            eps = tuple(Endpoint(s, t) for s, t in ent.get("constraints", []))
            edges.append(EdgeType(ent["label"], eps, tuple(props)))
        else:
            raise SchemaError(
                f"TuGraph JSON: {ent['label']}: type must be VERTEX or EDGE", code="SCHEMA_JSON"
            )
    return SchemaGraph(name=name, node_types=tuple(nodes), edge_types=tuple(edges))


def import_config(schema: SchemaGraph) -> dict[str, Any]:
    """The ``lgraph_import`` configuration (schema and file list) as data."""
    entries, files = _layout(schema)
    return {"schema": entries, "files": files}


# -- procedure calls -----------------------------------------------------------------------------


def _lit(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return cypher_string(str(v))


def _call(proc: str, *args: Any) -> str:
    return f"CALL {proc}(" + ", ".join(_lit(a) for a in args) + ")"


def _write_procedures(schema: SchemaGraph) -> str:
    entries, _ = _layout(schema)
    out = []
    for ent in entries:
        spec: list[Any] = []
        for p in ent["properties"]:
            spec += [p["name"], p["type"], bool(p.get("optional", False))]
        if ent["type"] == "VERTEX":
            out.append(_call("db.createVertexLabel", ent["label"], ent["primary"], *spec))
        else:
            out.append(
                _call(
                    "db.createEdgeLabel",
                    ent["label"],
                    json.dumps(ent.get("constraints", [])),
                    *spec,
                )
            )
    for ent in entries:
        for p in ent["properties"]:
            if p.get("index") and ent["type"] == "VERTEX":
                out.append(
                    _call("db.addIndex", ent["label"], p["name"], bool(p.get("unique", False)))
                )
    return "".join(s + ";\n" for s in out)


def _read_procedures(text: str, name: str) -> SchemaGraph:
    c = Cursor(text, backslash_escapes=True)
    entries: list[dict[str, Any]] = []
    by_label: dict[str, dict[str, Any]] = {}
    while not c.at_end():
        c.expect_kw("CALL")
        proc = c.ident("a procedure")
        while c.accept("."):
            proc += "." + c.ident("a procedure")
        call_tok = c.tok
        c.expect("(")
        args: list[Any] = []
        while not c.at(")"):
            t = c.tok
            if t.kind == STRING:
                args.append(c.string())
            elif t.is_kw("TRUE", "FALSE"):
                args.append(c.next().value.upper() == "TRUE")
            else:
                args.append(c.ident("an argument"))  # bare type names: int64, string
            if not c.accept(","):
                break
        c.expect(")")
        c.statement_end()
        low = proc.lower()
        if low in ("db.createvertexlabel", "db.createedgelabel"):
            is_vertex = low == "db.createvertexlabel"
            if len(args) < 2 or (len(args) - 2) % 3:
                raise c.error(
                    f"{proc}: expected label, {'primary' if is_vertex else 'constraints'} "
                    "and (name, type, optional) triples",
                    call_tok,
                )
            props = [
                {"name": args[i], "type": str(args[i + 1]).upper(), "optional": bool(args[i + 2])}
                for i in range(2, len(args), 3)
            ]
            ent: dict[str, Any] = {
                "label": args[0],
                "type": "VERTEX" if is_vertex else "EDGE",
                "properties": props,
            }
            if is_vertex:
                ent["primary"] = args[1]
            else:
                try:
                    ent["constraints"] = json.loads(args[1]) if args[1] else []
                except json.JSONDecodeError:
                    raise c.error(
                        f"{proc}: the constraints argument is not JSON", call_tok
                    ) from None
            entries.append(ent)
            by_label[args[0]] = ent
        elif low in ("db.addindex", "db.addvertexindex"):
            indexed = by_label.get(args[0])
            if indexed is None:
                raise c.error(f"{proc}: unknown label {args[0]!r}", call_tok)
            for p in indexed["properties"]:
                if p["name"] == args[1]:
                    p["index"] = True
                    if len(args) > 2 and args[2] is True:
                        p["unique"] = True
        else:
            raise c.error(f"unknown procedure {proc}", call_tok)
    return read(json.dumps({"schema": entries}), None, name=name)
