"""Putting a graph directory (docs/graph-format.md) into engines that have no loader in
:mod:`gqlir.schema.loaders`: typed values from the JSON values of the graph data, and a loader
for openCypher engines (ArcadeDB in process, Neo4j/TuGraph/ArcadeDB over Bolt).

Graph data holds temporal values as ISO 8601 text; every engine must store them typed, or
``WHERE p.birthday < date('1990-01-01')`` would compare text with a date. The schema gives the
type of each property.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import SchemaError
from ..eval import temporal as tm
from ..schema.graphdata import iter_edges, iter_nodes
from ..schema.model import SchemaGraph
from ..schema.types import PropertyType, TypeKind

K = TypeKind
_EPOCH = _dt.date(1970, 1, 1).toordinal()
LOAD_KEY = "__gqlir_load_id"  # the temporary property that connects edges to their nodes

__all__ = ["LOAD_KEY", "load_cypher", "reference_value"]


_TEMPORAL_KINDS = {
    K.DATE: "date",
    K.DATETIME: "datetime",
    K.LOCAL_DATETIME: "localdatetime",
    K.TIME: "time",
    K.LOCAL_TIME: "localtime",
    K.DURATION: "duration",
}


def reference_value(v: Any, t: PropertyType | None) -> Any:
    """A graph-data value as the reference evaluator holds it: temporal values as
    :mod:`gqlir.eval.temporal` values, decimals as floats (openCypher has no decimal type)."""
    if v is None or t is None:
        return v
    k = t.kind
    if k in _TEMPORAL_KINDS and isinstance(v, str):
        return tm.parse_temporal(_TEMPORAL_KINDS[k], v)
    if k == K.DECIMAL:
        return float(v)
    if k == K.LIST and isinstance(v, list) and t.element is not None:
        return [reference_value(x, t.element) for x in v]
    if k in (K.MAP, K.JSON, K.POINT) and not isinstance(v, str):
        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    return v


def _utc_text(v: str, kind: TypeKind) -> str:
    """A zoned datetime's or time's ISO text as the local text of the same instant in UTC."""
    value = tm.parse_temporal(_TEMPORAL_KINDS[kind], v)
    if kind == K.DATETIME:
        nanos = value.epoch_nanos()
        days, rest = divmod(nanos, tm.NANOS_PER_DAY)
        return str(tm.LocalDateTime(_dt.date.fromordinal(_EPOCH + days), rest))
    return str(tm.LocalTime(value.utc_nanos() % tm.NANOS_PER_DAY))


def _cypher_param_value(v: Any, t: PropertyType, zoned_as_utc: bool = False) -> Any:
    """The parameter value the Cypher loader sends: temporal values stay ISO text (the
    statement converts them with date() …), decimals become floats (Cypher has no decimal);
    with ``zoned_as_utc`` zoned values are sent as their UTC local text."""
    if v is None:
        return None
    k = t.kind
    if zoned_as_utc and k in (K.DATETIME, K.TIME) and isinstance(v, str):
        return _utc_text(v, k)
    if k == K.DECIMAL:
        return float(v)
    if k == K.LIST and isinstance(v, list) and t.element is not None:
        if t.element.kind == K.DECIMAL:
            return [float(x) for x in v]
        return v
    if k in (K.MAP, K.JSON, K.POINT) and not isinstance(v, str):
        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    return v


def _cypher_expr(ref: str, t: PropertyType, zoned_as_utc: bool = False) -> str:
    fn = _TEMPORAL_KINDS.get(t.kind)
    if zoned_as_utc and fn in ("datetime", "time"):
        fn = "local" + fn
    return f"{fn}({ref})" if fn else ref


def _chunks(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def load_cypher(
    execute: Callable[[str, dict[str, Any]], Any],
    schema: SchemaGraph,
    directory: str,
    *,
    batch: int = 1000,
    index: Callable[[str], Any] | None = None,
    keyed: bool = False,
    zoned_as_utc: bool = False,
) -> dict[str, int]:
    """Create the nodes and edges of ``directory`` with openCypher ``UNWIND $rows … CREATE``
    statements sent to ``execute(text, parameters)``; returns elements per label.

    Each node gets a temporary ``LOAD_KEY`` property that edges are matched on; ``index(label)``
    is called per label before the edges are made (engines that need an index for the lookup
    create it there) and the property is removed at the end. With ``keyed`` (engines whose
    schema admits no extra property, TuGraph) edges are matched on each node type's first key
    property instead, and every node type must have one. With ``zoned_as_utc`` (engines with
    no zoned temporal types, FalkorDB) a DATETIME or TIME is stored as the local date-time or
    time of its instant in UTC. Identifiers are backtick-quoted and every value is a parameter.
    """
    from ..schema.formats._ddl import quote_ident

    def q(name: str) -> str:
        return quote_ident(name, "`")

    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    label_of: dict[Any, str] = {}
    key_of: dict[Any, Any] = {}
    for _, node in iter_nodes(directory, schema):
        nt = schema.node(node.labels[0])
        if nt is None:
            raise SchemaError(f"node {node.id!r}: no node type {node.labels[0]}", code="GRAPH_LOAD")
        types = {p.name: p.type for p in nt.properties}
        row = {
            k: _cypher_param_value(v, types[k], zoned_as_utc) if k in types else v
            for k, v in node.properties.items()
        }
        if keyed:
            if not nt.keys:
                raise SchemaError(
                    f"node type {nt.label} has no key to connect its edges by", code="GRAPH_LOAD"
                )
            key: Any = row.get(nt.keys[0])
        else:
            key = f"{nt.label}:{node.id}"
        label_of[node.id] = nt.label
        key_of[node.id] = key
        by_label[nt.label].append({"k": key, "p": row})
    counts: dict[str, int] = {}
    for nt in schema.node_types:
        rows = by_label.get(nt.label, [])
        counts[nt.label] = len(rows)
        if not rows:
            continue
        labels = "".join(f":{q(x)}" for x in nt.labels)
        sets = ", ".join(
            ([] if keyed else [f"{q(LOAD_KEY)}: r.k"])
            + [
                f"{q(p.name)}: {_cypher_expr('r.p.' + q(p.name), p.type, zoned_as_utc)}"
                for p in nt.properties
            ]
        )
        text = f"UNWIND $rows AS r CREATE (n{labels} {{{sets}}})"
        for chunk in _chunks(rows, batch):
            execute(text, {"rows": chunk})
        if index is not None:
            index(nt.label)
    by_edge: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for _, edge in iter_edges(directory, schema):
        et = schema.edge(edge.type)
        if et is None:
            raise SchemaError(f"edge type {edge.type} is not in the schema", code="GRAPH_LOAD")
        if edge.source not in label_of or edge.target not in label_of:
            raise SchemaError(
                f"edge {edge.type} {edge.source!r}->{edge.target!r}: unknown node",
                code="GRAPH_LOAD",
            )
        types = {p.name: p.type for p in et.properties}
        s, t = label_of[edge.source], label_of[edge.target]
        by_edge[(et.label, s, t)].append(
            {
                "s": key_of[edge.source],
                "t": key_of[edge.target],
                "p": {
                    k: _cypher_param_value(v, types[k], zoned_as_utc) if k in types else v
                    for k, v in edge.properties.items()
                },
            }
        )
    for (label, s, t), rows in by_edge.items():
        et = schema.edge(label)
        assert et is not None
        sets = ", ".join(
            f"{q(p.name)}: {_cypher_expr('r.p.' + q(p.name), p.type, zoned_as_utc)}"
            for p in et.properties
        )
        props = f" {{{sets}}}" if sets else ""
        sk, tk = (LOAD_KEY, LOAD_KEY)
        if keyed:
            src_t, dst_t = schema.node(s), schema.node(t)
            assert src_t is not None and dst_t is not None
            sk, tk = src_t.keys[0], dst_t.keys[0]
        text = (
            f"UNWIND $rows AS r MATCH (a:{q(s)} {{{q(sk)}: r.s}}) "
            f"MATCH (b:{q(t)} {{{q(tk)}: r.t}}) CREATE (a)-[:{q(label)}{props}]->(b)"
        )
        for chunk in _chunks(rows, batch):
            execute(text, {"rows": chunk})
        counts[label] = counts.get(label, 0) + len(rows)
    if not keyed:
        for nt in schema.node_types:
            if counts.get(nt.label):
                execute(f"MATCH (n:{q(nt.label)}) REMOVE n.{q(LOAD_KEY)}", {})
    return counts
