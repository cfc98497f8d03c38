"""A DBMS-independent property-graph data format, its readers and writers, and a streaming
validator against a SchemaGraph (docs/graph-format.md).

A graph is a directory in one of three layouts:

* **JSON lines**: ``nodes.jsonl`` with ``{"id", "labels", "properties"}`` per line and
  ``edges.jsonl`` with ``{"id"?, "type", "source", "target", "properties"}`` per line;
* **CSV**: ``nodes/<Label>.csv`` (column ``:id`` and one column per property) and
  ``edges/<TYPE>.csv`` (optional ``:id``, ``:source``, ``:target``, then properties); an empty
  cell is null, lists, maps, points and JSON values are JSON text, other values their text;
* **Parquet**: the same per-label files as ``.parquet``, with typed columns.

Values in memory (and in JSON lines) are JSON values: temporal values are ISO 8601 strings
(``2024-01-31``, ``2024-01-31T10:00:00+01:00``, ``P3DT4H``), exact decimals strings or numbers,
bytes base64 strings, points ``{"x", "y"[, "z"][, "srid"]}``. Node ids are strings or integers,
unique in the graph; an edge's ``source`` and ``target`` are node ids.

Everything is read as a stream: the validator keeps one entry per node (its type) and per
edge identity, never the property data of the whole graph.
"""

from __future__ import annotations

import base64
import binascii
import csv
import datetime as dt
import decimal
import json
import os
import re
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import SchemaError
from ..optional import require
from .model import EdgeType, NodeType, Participation, SchemaGraph
from .types import INTEGER_RANGES, PropertyType, TypeKind

K = TypeKind
ID, SOURCE, TARGET = ":id", ":source", ":target"


@dataclass(frozen=True, slots=True)
class Node:
    id: str | int
    labels: tuple[str, ...]
    properties: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Edge:
    type: str
    source: str | int
    target: str | int
    properties: dict[str, Any]
    id: str | int | None = None


@dataclass(frozen=True, slots=True)
class Location:
    """Where a record came from: file and 1-based row (line of a JSONL file, data row of a
    CSV/Parquet file)."""

    file: str
    row: int

    def __str__(self) -> str:
        return f"{self.file}:{self.row}"


@dataclass(frozen=True, slots=True)
class Issue:
    file: str
    row: int | None
    field: str | None
    reason: str

    def __str__(self) -> str:
        where = self.file + (f":{self.row}" if self.row is not None else "")
        return f"{where}: {self.field + ': ' if self.field else ''}{self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "row": self.row, "field": self.field, "reason": self.reason}


# -- layouts -------------------------------------------------------------------------------------


def detect_layout(directory: str) -> str:
    if os.path.exists(os.path.join(directory, "nodes.jsonl")):
        return "jsonl"
    nodes_dir = os.path.join(directory, "nodes")
    if os.path.isdir(nodes_dir):
        names = os.listdir(nodes_dir)
        if any(n.endswith(".parquet") for n in names):
            return "parquet"
        if any(n.endswith(".csv") for n in names):
            return "csv"
    raise SchemaError(
        f"{directory}: not a graph directory (no nodes.jsonl, nodes/*.csv or nodes/*.parquet)",
        code="GRAPH_LAYOUT",
    )


def _label_files(directory: str, sub: str, ext: str) -> list[tuple[str, str]]:
    d = os.path.join(directory, sub)
    if not os.path.isdir(d):
        return []
    return sorted(
        (name[: -len(ext)], os.path.join(d, name)) for name in os.listdir(d) if name.endswith(ext)
    )


def iter_nodes(
    directory: str, schema: SchemaGraph | None = None
) -> Iterator[tuple[Location, Node]]:
    """Stream the nodes of a graph directory. CSV cells are typed by ``schema`` (needed for
    the CSV layout; without it every cell is a string)."""
    layout = detect_layout(directory)
    if layout == "jsonl":
        yield from _jsonl_nodes(os.path.join(directory, "nodes.jsonl"))
        return
    ext = ".csv" if layout == "csv" else ".parquet"
    for label, path in _label_files(directory, "nodes", ext):
        nt = schema.node(label) if schema else None
        labels = nt.labels if nt else (label,)
        rows = _csv_rows(path, nt) if layout == "csv" else _parquet_rows(path)
        for loc, row in rows:
            if ID not in row:
                raise SchemaError(f"{loc}: no {ID} column", code="GRAPH_LAYOUT")
            nid = row.pop(ID)
            yield loc, Node(nid, labels, {k: v for k, v in row.items() if v is not None})


def iter_edges(
    directory: str, schema: SchemaGraph | None = None
) -> Iterator[tuple[Location, Edge]]:
    layout = detect_layout(directory)
    if layout == "jsonl":
        path = os.path.join(directory, "edges.jsonl")
        if os.path.exists(path):
            yield from _jsonl_edges(path)
        return
    ext = ".csv" if layout == "csv" else ".parquet"
    for label, path in _label_files(directory, "edges", ext):
        et = schema.edge(label) if schema else None
        rows = _csv_rows(path, et, edge=True) if layout == "csv" else _parquet_rows(path)
        for loc, row in rows:
            if SOURCE not in row or TARGET not in row:
                raise SchemaError(f"{loc}: no {SOURCE}/{TARGET} columns", code="GRAPH_LAYOUT")
            eid = row.pop(ID, None)
            src, dst = row.pop(SOURCE), row.pop(TARGET)
            yield loc, Edge(label, src, dst, {k: v for k, v in row.items() if v is not None}, eid)


def _jsonl_records(path: str) -> Iterator[tuple[Location, dict[str, Any]]]:
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SchemaError(
                    f"{name}:{n}: not valid JSON ({exc.msg})", code="GRAPH_JSON"
                ) from None
            except (ValueError, RecursionError):  # an integer too long to read, or deep nesting
                raise SchemaError(
                    f"{name}:{n}: a value cannot be read", code="GRAPH_JSON"
                ) from None
            if not isinstance(rec, dict):
                raise SchemaError(f"{name}:{n}: expected a JSON object", code="GRAPH_JSON")
            yield Location(name, n), rec


def _jsonl_nodes(path: str) -> Iterator[tuple[Location, Node]]:
    for loc, rec in _jsonl_records(path):
        labels = rec.get("labels")
        if isinstance(labels, str):
            labels = [labels]
        if "id" not in rec or not isinstance(labels, list):
            raise SchemaError(f"{loc}: a node needs 'id' and 'labels'", code="GRAPH_JSON")
        props = rec.get("properties") or {}
        yield loc, Node(rec["id"], tuple(labels), {k: v for k, v in props.items() if v is not None})


def _jsonl_edges(path: str) -> Iterator[tuple[Location, Edge]]:
    for loc, rec in _jsonl_records(path):
        if not all(k in rec for k in ("type", "source", "target")):
            raise SchemaError(
                f"{loc}: an edge needs 'type', 'source' and 'target'", code="GRAPH_JSON"
            )
        props = rec.get("properties") or {}
        yield (
            loc,
            Edge(
                rec["type"],
                rec["source"],
                rec["target"],
                {k: v for k, v in props.items() if v is not None},
                rec.get("id"),
            ),
        )


def _cell(text: str, t: PropertyType | None) -> Any:
    if text == "":
        return None
    if t is None:
        return text
    k = t.kind
    try:
        if k == K.BOOLEAN:
            low = text.strip().lower()
            if low in ("true", "false"):
                return low == "true"
            return text
        if k in INTEGER_RANGES:
            return int(text)
        if k in (K.FLOAT32, K.FLOAT64):
            return float(text)
        if k in (K.LIST, K.MAP, K.POINT, K.JSON):
            return json.loads(text)
    except (ValueError, json.JSONDecodeError):
        return text  # the validator reports the value with its type
    return text


def _id_cell(text: str) -> str | int:
    # Longer digit strings than any integer type holds stay text (and Python reads them slowly).
    return int(text) if re.fullmatch(r"-?\d{1,1000}", text) else text


def _csv_rows(
    path: str, element: NodeType | EdgeType | None, edge: bool = False
) -> Iterator[tuple[Location, dict[str, Any]]]:
    name = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None:
            return
        types = {p.name: p.type for p in element.properties} if element else {}
        for n, row in enumerate(reader, start=1):
            if len(row) != len(header):
                raise SchemaError(
                    f"{name}:{n}: {len(row)} cells, the header has {len(header)}", code="GRAPH_CSV"
                )
            rec: dict[str, Any] = {}
            for col, text in zip(header, row):
                if col in (ID, SOURCE, TARGET):
                    rec[col] = _id_cell(text) if text != "" else None
                else:
                    rec[col] = _cell(text, types.get(col)) if element else (text or None)
            yield Location(name, n), rec


def _parquet_rows(path: str) -> Iterator[tuple[Location, dict[str, Any]]]:
    pq = require("pyarrow.parquet", extra="engines", purpose="reading Parquet graphs")
    name = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
    n = 0
    for batch in pq.ParquetFile(path).iter_batches(batch_size=4096):
        for rec in batch.to_pylist():
            n += 1
            yield Location(name, n), {k: _from_arrow(v) for k, v in rec.items()}


def _from_arrow(v: Any) -> Any:
    if isinstance(v, dt.datetime):
        return v.isoformat()
    if isinstance(v, (dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, list):
        return [_from_arrow(x) for x in v]
    return v


# -- writing -------------------------------------------------------------------------------------


def write_jsonl(directory: str, nodes: Iterable[Node], edges: Iterable[Edge]) -> None:
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "nodes.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for n in nodes:
            rec = {"id": n.id, "labels": list(n.labels), "properties": n.properties}
            fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
    with open(os.path.join(directory, "edges.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for e in edges:
            rec2: dict[str, Any] = {}
            if e.id is not None:
                rec2["id"] = e.id
            rec2 |= {
                "type": e.type,
                "source": e.source,
                "target": e.target,
                "properties": e.properties,
            }
            fh.write(json.dumps(rec2, ensure_ascii=False, separators=(",", ":")) + "\n")


def _cell_text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return str(v)


def _group(
    schema: SchemaGraph, nodes: Iterable[Node], edges: Iterable[Edge]
) -> tuple[dict[str, list[Node]], dict[str, list[Edge]]]:
    by_node: dict[str, list[Node]] = defaultdict(list)
    for n in nodes:
        by_node[n.labels[0]].append(n)
    by_edge: dict[str, list[Edge]] = defaultdict(list)
    for e in edges:
        by_edge[e.type].append(e)
    return by_node, by_edge


def write_csv(
    directory: str, schema: SchemaGraph, nodes: Iterable[Node], edges: Iterable[Edge]
) -> None:
    by_node, by_edge = _group(schema, nodes, edges)
    for sub, groups, is_edge in (("nodes", by_node, False), ("edges", by_edge, True)):
        os.makedirs(os.path.join(directory, sub), exist_ok=True)
        for label, items in groups.items():
            el = schema.edge(label) if is_edge else schema.node(label)
            props = (
                [p.name for p in el.properties]
                if el
                else sorted({k for i in items for k in i.properties})
            )
            head = ([ID] if not is_edge or any(i.id is not None for i in items) else []) + (
                [SOURCE, TARGET] if is_edge else []
            )
            with open(
                os.path.join(directory, sub, f"{label}.csv"), "w", encoding="utf-8", newline=""
            ) as fh:
                w = csv.writer(fh, lineterminator="\n")
                w.writerow(head + props)
                for i in items:
                    lead = [i.id] if ID in head else []
                    if isinstance(i, Edge):
                        lead += [i.source, i.target]
                    w.writerow(
                        [_cell_text(x) for x in lead]
                        + [_cell_text(i.properties.get(p)) for p in props]
                    )


def _arrow_type(t: PropertyType) -> Any:
    import pyarrow as pa

    k = t.kind
    simple = {
        K.BOOLEAN: pa.bool_(),
        K.INT8: pa.int8(),
        K.INT16: pa.int16(),
        K.INT32: pa.int32(),
        K.INT64: pa.int64(),
        K.UINT8: pa.uint8(),
        K.UINT16: pa.uint16(),
        K.UINT32: pa.uint32(),
        K.UINT64: pa.uint64(),
        K.FLOAT32: pa.float32(),
        K.FLOAT64: pa.float64(),
        K.DATE: pa.date32(),
        K.LOCAL_DATETIME: pa.timestamp("us"),
        K.DATETIME: pa.timestamp("us", tz="UTC"),
    }
    if k in simple:
        return simple[k]
    if k == K.DECIMAL and t.precision is not None:
        return pa.decimal128(t.precision, t.scale or 0)
    if k == K.LIST and t.element is not None and t.element.kind in simple | {K.STRING: None}:
        inner = pa.string() if t.element.kind == K.STRING else _arrow_type(t.element)
        return pa.list_(inner)
    return pa.string()


def _to_arrow_value(v: Any, t: PropertyType) -> Any:
    if v is None:
        return None
    k = t.kind
    if k == K.DATE:
        return dt.date.fromisoformat(v)
    if k in (K.LOCAL_DATETIME, K.DATETIME):
        x = dt.datetime.fromisoformat(v)
        return x.astimezone(dt.UTC) if k == K.DATETIME else x
    if k == K.DECIMAL and t.precision is not None:
        return decimal.Decimal(str(v))
    if k == K.LIST and t.element is not None and str(_arrow_type(t)).startswith("list"):
        return [_to_arrow_value(x, t.element) for x in v]
    import pyarrow as pa

    if _arrow_type(t) == pa.string() and not isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return v


def write_parquet(
    directory: str, schema: SchemaGraph, nodes: Iterable[Node], edges: Iterable[Edge]
) -> None:
    pq = require("pyarrow.parquet", extra="engines", purpose="writing Parquet graphs")
    import pyarrow as pa

    by_node, by_edge = _group(schema, nodes, edges)
    kinds = {type(n.id) for items in by_node.values() for n in items}
    # A column has one type: a graph whose node ids mix strings and integers stores them all
    # as strings (consistently in node and edge files).
    as_text = str in kinds
    id_type = pa.string() if as_text else pa.int64()

    def ident(x: Any) -> Any:
        return None if x is None else str(x) if as_text else x

    for sub, groups, is_edge in (("nodes", by_node, False), ("edges", by_edge, True)):
        os.makedirs(os.path.join(directory, sub), exist_ok=True)
        for label, items in groups.items():
            el = schema.edge(label) if is_edge else schema.node(label)
            if el is None:
                raise SchemaError(f"no schema type for {label}", code="GRAPH_LAYOUT")
            cols: dict[str, Any] = {}
            fields = []
            if not is_edge or any(i.id is not None for i in items):
                ids = [ident(i.id) for i in items]
                cols[ID] = ids
                fields.append(
                    pa.field(
                        ID, pa.string() if any(isinstance(x, str) for x in ids) else pa.int64()
                    )
                )
            if is_edge:
                edges_of = [i for i in items if isinstance(i, Edge)]  # (all of them)
                cols[SOURCE] = [ident(e.source) for e in edges_of]
                cols[TARGET] = [ident(e.target) for e in edges_of]
                fields += [pa.field(SOURCE, id_type), pa.field(TARGET, id_type)]
            for p in el.properties:
                cols[p.name] = [_to_arrow_value(i.properties.get(p.name), p.type) for i in items]
                fields.append(pa.field(p.name, _arrow_type(p.type)))
            table = pa.table(cols, schema=pa.schema(fields))
            pq.write_table(table, os.path.join(directory, sub, f"{label}.parquet"))


# -- value checks --------------------------------------------------------------------------------

_DURATION = re.compile(
    r"-?P(?=\d|T\d)(\d+(\.\d+)?Y)?(\d+(\.\d+)?M)?(\d+(\.\d+)?W)?(\d+(\.\d+)?D)?"
    r"(T(?=\d)(\d+(\.\d+)?H)?(\d+(\.\d+)?M)?(\d+(\.\d+)?S)?)?\Z"
)
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)\Z")


def check_value(v: Any, t: PropertyType) -> str | None:
    """Why ``v`` is not a value of ``t`` (None when it is)."""
    k = t.kind
    name = str(t)
    if k == K.ANY or k == K.JSON:
        return None
    if k == K.BOOLEAN:
        return None if isinstance(v, bool) else f"expected {name}, got {v!r}"
    if k in INTEGER_RANGES:
        if not isinstance(v, int) or isinstance(v, bool):
            return f"expected {name}, got {v!r}"
        lo, hi = INTEGER_RANGES[k]
        return None if lo <= v <= hi else f"{v} is out of the range of {name}"
    if k in (K.FLOAT32, K.FLOAT64):
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        return None if ok else f"expected {name}, got {v!r}"
    if k == K.DECIMAL:
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            return f"expected {name}, got {v!r}"
        text = str(v)
        if not _DECIMAL.match(text):
            return f"expected {name}, got {v!r}"
        if t.precision is not None:
            d = decimal.Decimal(text).normalize()
            _, digits, exp = d.as_tuple()
            scale = max(0, -int(exp))
            whole = len(digits) + int(exp)  # digits before the point
            if scale > (t.scale or 0) or max(whole, 0) > t.precision - (t.scale or 0):
                return f"{v} does not fit {name}"
        return None
    if k in (
        K.STRING,
        K.UUID,
        K.BYTES,
        K.DATE,
        K.TIME,
        K.LOCAL_TIME,
        K.DATETIME,
        K.LOCAL_DATETIME,
        K.DURATION,
    ):
        if not isinstance(v, str):
            return f"expected {name} text, got {v!r}"
        return _check_text(v, t)
    if k == K.POINT:
        if isinstance(v, dict) and all(isinstance(v.get(c), (int, float)) for c in ("x", "y")):
            return None
        return f"expected a point {{x, y}}, got {v!r}"
    if k == K.LIST:
        if not isinstance(v, list):
            return f"expected {name}, got {v!r}"
        assert t.element is not None
        for i, x in enumerate(v):
            if x is None:
                return f"element {i} is null"
            why = check_value(x, t.element)
            if why:
                return f"element {i}: {why}"
        return None
    if k == K.MAP:
        if not isinstance(v, dict):
            return f"expected {name}, got {v!r}"
        if t.value is not None:
            for key, x in v.items():
                why = check_value(x, t.value) if x is not None else None
                if why:
                    return f"key {key!r}: {why}"
        return None
    return None


def _check_text(v: str, t: PropertyType) -> str | None:
    k = t.kind
    try:
        if k == K.STRING:
            if t.length is not None and len(v) > t.length:
                return f"{len(v)} characters exceed {t}"
        elif k == K.UUID:
            uuid.UUID(v)
        elif k == K.BYTES:
            raw = base64.b64decode(v, validate=True)
            if t.length is not None and len(raw) > t.length:
                return f"{len(raw)} bytes exceed {t}"
        elif k == K.DATE:
            dt.date.fromisoformat(v)
        elif k in (K.TIME, K.LOCAL_TIME):
            x = dt.time.fromisoformat(v)
            if (x.tzinfo is None) != (k == K.LOCAL_TIME):
                return f"{v!r} {'has' if k == K.LOCAL_TIME else 'lacks'} a time-zone offset ({t})"
        elif k in (K.DATETIME, K.LOCAL_DATETIME):
            if "T" not in v:
                return f"{v!r} is not an ISO 8601 date-time (no 'T')"
            y = dt.datetime.fromisoformat(v)
            if (y.tzinfo is None) != (k == K.LOCAL_DATETIME):
                return (
                    f"{v!r} {'has' if k == K.LOCAL_DATETIME else 'lacks'} a time-zone offset ({t})"
                )
        elif k == K.DURATION and not _DURATION.match(v):
            return f"{v!r} is not an ISO 8601 duration"
    except (ValueError, binascii.Error):
        return f"{v!r} is not a valid {t}"
    return None


# -- validation ----------------------------------------------------------------------------------


@dataclass
class ValidationReport:
    issues: list[Issue] = field(default_factory=list)
    nodes: Counter[str] = field(default_factory=Counter)
    edges: Counter[str] = field(default_factory=Counter)
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return not self.issues

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.ok,
            "nodes": dict(self.nodes),
            "edges": dict(self.edges),
            "issues": [i.to_dict() for i in self.issues],
            "truncated": self.truncated,
        }


class _Stop(Exception):
    pass


def validate_graph(
    directory: str, schema: SchemaGraph, *, max_issues: int = 1000
) -> ValidationReport:
    """Check a graph directory against ``schema``; every problem is an :class:`Issue` with
    its file, row, field and reason (at most ``max_issues``, then ``truncated``)."""
    report = ValidationReport()

    def issue(loc: Location | None, fld: str | None, reason: str) -> None:
        report.issues.append(
            Issue(loc.file if loc else directory, loc.row if loc else None, fld, reason)
        )
        if len(report.issues) >= max_issues:
            report.truncated = True
            raise _Stop

    by_labels = {frozenset(n.labels): n for n in schema.node_types}
    node_type: dict[Any, str] = {}
    keys_seen: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    unique_seen: dict[tuple[str, str], set[Any]] = defaultdict(set)
    try:
        for loc, node in iter_nodes(directory, schema):
            nt = by_labels.get(frozenset(node.labels))
            if not isinstance(node.id, (str, int)) or isinstance(node.id, bool):
                issue(loc, "id", f"a node id must be a string or an integer, got {node.id!r}")
                continue
            if node.id in node_type:
                issue(loc, "id", f"node id {node.id!r} is used twice")
                continue
            if nt is None:
                known = ", ".join(sorted(schema.node_labels))
                issue(
                    loc,
                    "labels",
                    f"no node type has the labels {list(node.labels)} (known: {known})",
                )
                node_type[node.id] = ""
                continue
            node_type[node.id] = nt.label
            report.nodes[nt.label] += 1
            _check_properties(loc, nt, node.properties, issue)
            if nt.keys:
                kv = tuple(hashable(node.properties.get(k)) for k in nt.keys)
                if None not in kv:
                    if kv in keys_seen[nt.label]:
                        issue(
                            loc,
                            ",".join(nt.keys),
                            f"duplicate key {kv if len(kv) > 1 else kv[0]!r} of {nt.label}",
                        )
                    keys_seen[nt.label].add(kv)
            for p in nt.properties:
                if p.unique and node.properties.get(p.name) is not None:
                    v = hashable(node.properties[p.name])
                    seen = unique_seen[(nt.label, p.name)]
                    if v in seen:
                        issue(loc, p.name, f"value {node.properties[p.name]!r} is not unique")
                    seen.add(v)
        keys_seen.clear()
        unique_seen.clear()
        _validate_edges(directory, schema, node_type, report, issue)
    except _Stop:
        pass
    return report


def hashable(v: Any) -> Any:
    """A JSON value as something a set or a Counter can hold (lists -> tuples, maps -> sorted
    pairs), so that equal values compare equal."""
    if isinstance(v, list):
        return tuple(hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, hashable(x)) for k, x in v.items()))
    return v


def _check_properties(
    loc: Location, el: NodeType | EdgeType, props: dict[str, Any], issue: Any
) -> None:
    for name, value in props.items():
        p = el.prop(name)
        if p is None:
            known = ", ".join(el.property_names) or "none"
            issue(loc, name, f"{el.label} has no property {name!r} (its properties: {known})")
            continue
        why = check_value(value, p.type)
        if why:
            issue(loc, name, why)
    for p in el.properties:
        if p.required and props.get(p.name) is None:
            issue(loc, p.name, f"required property of {el.label} is missing")


def _validate_edges(
    directory: str,
    schema: SchemaGraph,
    node_type: dict[Any, str],
    report: ValidationReport,
    issue: Any,
) -> None:
    identity: set[tuple[Any, ...]] = set()
    out_count: Counter[tuple[str, Any]] = Counter()
    in_count: Counter[tuple[str, Any]] = Counter()
    has_out: set[tuple[str, Any]] = set()
    has_in: set[tuple[str, Any]] = set()
    pairs: dict[str, set[tuple[Any, Any]]] = defaultdict(set)
    implied_by: set[str] = {x for e in schema.edge_types for x in e.implies}
    needs_pairs = {e.label for e in schema.edge_types if e.implies} | implied_by
    first_loc: dict[tuple[str, Any, Any], Location] = {}
    for loc, edge in iter_edges(directory, schema):
        et = schema.edge(edge.type)
        if et is None:
            issue(
                loc,
                "type",
                f"unknown edge type {edge.type!r} (known: {', '.join(schema.edge_labels)})",
            )
            continue
        report.edges[et.label] += 1
        ends_ok = True
        for fld, end in (("source", edge.source), ("target", edge.target)):
            if end not in node_type:
                issue(loc, fld, f"no node with id {end!r}")
                ends_ok = False
        if not ends_ok:
            continue
        s_type, t_type = node_type[edge.source], node_type[edge.target]
        if s_type and t_type and not et.connects(s_type, t_type):
            allowed = ", ".join(str(p) for p in et.endpoints)
            reverse = " (the edge is reversed)" if et.connects(t_type, s_type) else ""
            issue(
                loc,
                "endpoints",
                f"{et.label} cannot connect ({s_type})->({t_type}){reverse}; allowed: {allowed}",
            )
        _check_properties(loc, et, edge.properties, issue)
        ident = (
            et.label,
            edge.source,
            edge.target,
            *(hashable(edge.properties.get(k)) for k in et.keys),
        )
        if ident in identity:
            keys = f" and key {[edge.properties.get(k) for k in et.keys]}" if et.keys else ""
            issue(
                loc,
                None,
                f"duplicate {et.label} edge from {edge.source!r} to {edge.target!r}{keys}",
            )
        identity.add(ident)
        out_count[(et.label, edge.source)] += 1
        in_count[(et.label, edge.target)] += 1
        has_out.add((et.label, edge.source))
        has_in.add((et.label, edge.target))
        if et.label in needs_pairs:
            pairs[et.label].add((edge.source, edge.target))
            first_loc.setdefault((et.label, edge.source, edge.target), loc)
        card = et.cardinality
        if card is not None:
            if card.source_max_one and out_count[(et.label, edge.source)] == 2:
                issue(
                    loc,
                    "source",
                    f"{et.label} is {card.value}: node {edge.source!r} has more than one "
                    "outgoing edge",
                )
            if card.target_max_one and in_count[(et.label, edge.target)] == 2:
                issue(
                    loc,
                    "target",
                    f"{et.label} is {card.value}: node {edge.target!r} has more than one "
                    "incoming edge",
                )
    identity.clear()
    for et in schema.edge_types:
        if (
            et.source_participation == Participation.TOTAL
            or et.target_participation == Participation.TOTAL
        ):
            for nid, label in node_type.items():
                if (
                    et.source_participation == Participation.TOTAL
                    and label in et.sources
                    and (et.label, nid) not in has_out
                ):
                    issue(
                        None,
                        et.label,
                        f"participation of {label} is total, but node {nid!r} has no "
                        f"outgoing {et.label} edge",
                    )
                if (
                    et.target_participation == Participation.TOTAL
                    and label in et.targets
                    and (et.label, nid) not in has_in
                ):
                    issue(
                        None,
                        et.label,
                        f"participation of {label} is total, but node {nid!r} has no "
                        f"incoming {et.label} edge",
                    )
        for other in et.implies:
            for s, t in sorted(pairs[et.label] - pairs[other], key=repr)[:50]:
                issue(
                    first_loc[(et.label, s, t)],
                    et.label,
                    f"{et.label} implies {other}, but there is no {other} edge from {s!r} to {t!r}",
                )


__all__ = [
    "Edge",
    "Issue",
    "Location",
    "Node",
    "ValidationReport",
    "check_value",
    "detect_layout",
    "hashable",
    "iter_edges",
    "iter_nodes",
    "validate_graph",
    "write_csv",
    "write_jsonl",
    "write_parquet",
]
