"""Sizing a graph for a schema: how many nodes of each type, how many edges of each type, and
how each edge type is drawn, so that the schema's cardinality and participation annotations
can hold and the edge total meets the target.

Edge types fall in three modes by their (effective) cardinality:

* ``functional`` — at most one edge per node on one side (``n:1``: per source; ``1:n``: per
  target, the *anchor* side); each chosen anchor gets exactly one edge;
* ``matching`` — ``1:1``: a matching between the two sides;
* ``many`` — ``n:m``: every anchor (source) gets a degree from a degree distribution.

An edge type that implies another is drawn first and its pairs become mandatory edges of the
implied type, which therefore also inherits nothing it could not honour: the implying type
takes on the implied type's at-most-one constraints.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

from ..schema.model import Cardinality, EdgeType, Participation, SchemaGraph
from .config import FORMAT, VERSION
from .defaults import default_spec
from .distributions import cumulative_split
from .errors import GraphGenError
from .seeds import stream

DEFAULT_EDGES_PER_NODE = 5.0
DEFAULT_DEGREE = {"dist": "power_law", "exponent": 2.3}
DEFAULT_POPULARITY = {"dist": "zipf", "s": 0.8}
DEFAULT_FRACTION = 0.8


@dataclass(frozen=True, slots=True)
class Pair:
    """One (source type, target type) pair of an edge type and its share of the edges."""

    source: str
    target: str
    weight: float

    @property
    def key(self) -> str:
        return f"{self.source}->{self.target}"


def effective_cardinality(schema: SchemaGraph, et: EdgeType) -> Cardinality:
    """The edge type's cardinality tightened by every type it implies (transitively): an
    implied ``n:1`` type allows one edge per source, so the implying type can have no more."""
    src, tgt = False, False
    seen: set[str] = set()
    todo = [et.label]
    while todo:
        e = schema.edge(todo.pop())
        if e is None or e.label in seen:
            continue
        seen.add(e.label)
        if e.cardinality is not None:
            src |= e.cardinality.source_max_one
            tgt |= e.cardinality.target_max_one
        todo.extend(e.implies)
    return Cardinality.of(src, tgt)


def edge_mode(schema: SchemaGraph, et: EdgeType) -> tuple[str, str]:
    """(mode, anchor side) of an edge type."""
    card = effective_cardinality(schema, et)
    if card.source_max_one and card.target_max_one:
        return "matching", "source"
    if card.source_max_one:
        return "functional", "source"
    if card.target_max_one:
        return "functional", "target"
    return "many", "source"


def generation_order(schema: SchemaGraph) -> list[EdgeType]:
    """Edge types in schema order, except that a type comes after every type implying it."""
    implied_by: dict[str, list[str]] = {e.label: [] for e in schema.edge_types}
    for e in schema.edge_types:
        for other in e.implies:
            implied_by[other].append(e.label)
    out: list[EdgeType] = []
    state: dict[str, int] = {}

    def visit(label: str) -> None:
        if state.get(label) == 2:
            return
        if state.get(label) == 1:
            raise GraphGenError(f"edge types imply each other in a cycle through {label}")
        state[label] = 1
        for before in implied_by[label]:
            visit(before)
        state[label] = 2
        et = schema.edge(label)
        assert et is not None
        out.append(et)

    for e in schema.edge_types:
        visit(e.label)
    return out


def _pairs(schema: SchemaGraph, et: EdgeType) -> list[tuple[str, str]]:
    if not et.endpoints:
        raise GraphGenError(
            f"edge {et.label}: no endpoint pairs in the schema, so there is nothing to connect"
        )
    pairs = [(p.source, p.target) for p in et.endpoints]
    if et.symmetric:
        # stored once: of a pair and its reverse only the first (by label) is drawn
        pairs = [(s, t) for s, t in pairs if s <= t]
    return pairs


def anchor_total(et: EdgeType, anchor: str) -> bool:
    part = et.source_participation if anchor == "source" else et.target_participation
    return part == Participation.TOTAL


def other_total(et: EdgeType, anchor: str) -> bool:
    part = et.target_participation if anchor == "source" else et.source_participation
    return part == Participation.TOTAL


def resolve(
    schema: SchemaGraph,
    config: dict[str, Any] | None = None,
    *,
    seed: int | None = None,
    target_edges: int | None = None,
) -> dict[str, Any]:
    """The complete config for ``schema``: every count, pair weight, distribution and value
    spec filled in, from what ``config`` gives and defaults for the rest. ``seed`` and
    ``target_edges`` override the config's."""
    cfg = copy.deepcopy(config or {})
    if seed is not None:
        cfg["seed"] = seed
    if target_edges is not None:
        cfg["target_edges"] = target_edges
    cfg.setdefault("seed", 0)
    seed = cfg["seed"]
    for label in cfg.get("nodes", {}):
        if schema.node(label) is None:
            raise GraphGenError(f"config.nodes: {label!r} is not a node type of the schema")
    for label in cfg.get("edges", {}):
        if schema.edge(label) is None:
            raise GraphGenError(f"config.edges: {label!r} is not an edge type of the schema")
    nodes = {n.label: dict(cfg.get("nodes", {}).get(n.label, {})) for n in schema.node_types}
    edges = {e.label: dict(cfg.get("edges", {}).get(e.label, {})) for e in schema.edge_types}
    for et in schema.edge_types:
        _resolve_edge_shape(schema, et, edges[et.label])
    _size(schema, cfg, nodes, edges)
    for nt in schema.node_types:
        nodes[nt.label]["properties"] = _resolve_properties(
            nt, nodes[nt.label].get("properties", {}), seed, is_node=True
        )
    for et in schema.edge_types:
        edges[et.label]["properties"] = _resolve_properties(
            et, edges[et.label].get("properties", {}), seed, is_node=False
        )
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "seed": seed}
    if schema.name:
        out["schema"] = schema.name
    if "target_edges" in cfg:
        out["target_edges"] = cfg["target_edges"]
    out["edges_per_node"] = cfg.get("edges_per_node", DEFAULT_EDGES_PER_NODE)
    out["layout"] = cfg.get("layout", "jsonl")
    out["nodes"] = nodes
    out["edges"] = edges
    return out


def _resolve_edge_shape(schema: SchemaGraph, et: EdgeType, e: dict[str, Any]) -> None:
    mode, anchor = edge_mode(schema, et)
    e["mode"], e["anchor"] = mode, anchor
    known = {f"{s}->{t}" for s, t in _pairs(schema, et)}
    given = e.get("pairs", {})
    for key in given:
        if key not in known:
            raise GraphGenError(
                f"config.edges.{et.label}.pairs: {key!r} is not one of {', '.join(sorted(known))}"
            )
    e["pairs"] = {f"{s}->{t}": given.get(f"{s}->{t}") for s, t in _pairs(schema, et)}
    if mode == "many":
        e.setdefault("degree", dict(DEFAULT_DEGREE))
        e.setdefault("popularity", dict(DEFAULT_POPULARITY))
    elif mode == "functional":
        e.setdefault("popularity", dict(DEFAULT_POPULARITY))
        e.setdefault("fraction", DEFAULT_FRACTION)
    else:
        e.setdefault("fraction", DEFAULT_FRACTION)
    e.setdefault("self_loops", False)


def _resolve_properties(
    owner: Any, given: dict[str, Any], seed: int, *, is_node: bool
) -> dict[str, Any]:
    for name in given:
        if owner.prop(name) is None:
            kind = "node" if is_node else "edge"
            raise GraphGenError(
                f"config: {kind} {owner.label} has no property {name!r} "
                f"(its properties: {', '.join(owner.property_names) or 'none'})"
            )
    out = {}
    for p in owner.properties:
        if p.name in given:
            spec = dict(given[p.name])
            if p.required:
                spec.pop("null_ratio", None)
        else:
            rng = stream(seed, "defaults", owner.label, p.name)
            spec = default_spec(owner, p, is_node=is_node, rng=rng)
        out[p.name] = spec
    return out


# -- sizing --------------------------------------------------------------------------------------


def _size(
    schema: SchemaGraph,
    cfg: dict[str, Any],
    nodes: dict[str, dict[str, Any]],
    edges: dict[str, dict[str, Any]],
) -> None:
    """Fill node and edge counts (and pair weights) that the config leaves open."""
    free_nodes = [label for label, n in nodes.items() if "count" not in n]
    free_edges = [label for label, e in edges.items() if "count" not in e]
    target = cfg.get("target_edges")
    open_degrees = [
        label
        for label in free_edges
        if edges[label]["mode"] == "many" and edges[label]["degree"]["dist"] != "fixed"
    ]
    if (free_nodes or open_degrees) and target is None:
        raise GraphGenError(
            "the config leaves counts open: give target_edges (--edges N) or every count"
        )
    per_node = float(cfg.get("edges_per_node", DEFAULT_EDGES_PER_NODE))
    scale = 1.0
    for _ in range(60):
        if target is not None and free_nodes:
            base = target / per_node / len(nodes) * scale
            for label in free_nodes:
                weight = float(nodes[label].get("weight", 1.0))
                nodes[label]["count"] = max(2, round(base * weight))
        _meet_node_constraints(schema, nodes, free_nodes)
        counts = {label: n["count"] for label, n in nodes.items()}
        trial = copy.deepcopy(edges)
        short = _size_edges(schema, trial, counts, target, free_edges)
        if short <= 0 or not free_nodes:
            break
        scale *= 0.8  # the structural edges alone exceed the target: fewer nodes
    else:
        short = 1
    if short > 0:
        # without a target every edge count is fixed by the config or the schema: none is short
        assert target is not None
        raise GraphGenError(
            f"{target} edges are too few for this schema: the participation and cardinality "
            f"annotations need about {target + short}; ask for more edges or set counts"
        )
    edges.update(trial)


def _meet_node_constraints(
    schema: SchemaGraph, nodes: dict[str, dict[str, Any]], free: list[str]
) -> None:
    """Grow free node counts until every total participation can be met: a functional type
    whose other side is total needs at least as many anchors as other nodes; a matching needs
    the total side no larger than the other."""
    for _ in range(20):
        changed = False
        for et in schema.edge_types:
            mode, anchor = edge_mode(schema, et)
            if mode == "many":
                continue
            pairs = _pairs(schema, et)
            sides = [(s, t) if anchor == "source" else (t, s) for s, t in pairs]
            need: list[tuple[list[str], str]] = []
            if other_total(et, anchor):
                for other in {o for _, o in sides}:
                    need.append(([a for a, o in sides if o == other], other))
            if mode == "matching" and anchor_total(et, anchor):
                for a in {a for a, _ in sides}:
                    need.append(([o for x, o in sides if x == a], a))
            for providers, needy in need:
                have = sum(nodes[p]["count"] for p in set(providers))
                loop = mode == "functional" and needy in providers  # no self-loop left over
                want = nodes[needy]["count"] + (1 if loop else 0)
                if have >= want:
                    continue
                grow = [p for p in set(providers) if p in free and p != needy]
                if not grow:
                    if needy in free and needy not in providers:
                        nodes[needy]["count"] = max(1, have)
                        changed = True
                        continue
                    raise GraphGenError(
                        f"edge {et.label}: every {needy} needs its own edge from "
                        f"{', '.join(sorted(set(providers)))}, but there are only {have} of "
                        f"those for {nodes[needy]['count']} {needy} nodes; adjust the counts"
                    )
                each = math.ceil((want - have) / len(grow))
                for p in sorted(grow):
                    nodes[p]["count"] += each
                changed = True
        if not changed:
            return
    raise GraphGenError("node counts that meet every participation annotation were not found")


def _size_edges(
    schema: SchemaGraph,
    edges: dict[str, dict[str, Any]],
    counts: dict[str, int],
    target: int | None,
    free: list[str],
) -> int:
    """Fill edge counts and pair weights; returns how many edges the target lacks (> 0 when
    the structural edges leave too little for the many-to-many types' minimums)."""
    minimum: dict[str, int] = {}
    for et in generation_order(schema):
        e = edges[et.label]
        anchor = e["anchor"]
        pairs = _pairs(schema, et)
        for s, t in pairs:
            key = f"{s}->{t}"
            if e["pairs"].get(key) is None:
                a = s if anchor == "source" else t
                e["pairs"][key] = counts[a]
        implied_from = sum(
            edges[d.label].get("count", 0) for d in schema.edge_types if et.label in d.implies
        )
        if e["mode"] == "many":
            anchors = sum(counts[s] for s, _ in pairs)  # a degree is per pair
            others = sum(counts[t] for t in {t for _, t in pairs})
        else:  # at most one edge per anchor node, whatever the pair
            anchors = sum(counts[a] for a in {s if anchor == "source" else t for s, t in pairs})
            others = sum(counts[o] for o in {t if anchor == "source" else s for s, t in pairs})
        if e["mode"] == "functional":
            need = others if other_total(et, anchor) else 0
            full = anchors if anchor_total(et, anchor) else round(e["fraction"] * anchors)
            e.setdefault("count", min(anchors, max(full, need, implied_from)))
        elif e["mode"] == "matching":
            if anchor_total(et, anchor) or other_total(et, anchor):
                full = max(anchors if anchor_total(et, anchor) else 0, others)
            else:
                full = round(e["fraction"] * min(anchors, others))
            if et.symmetric and all(s == t for s, t in pairs):
                full = min(full, anchors // 2)
            e.setdefault("count", min(anchors, others, max(full, implied_from)))
        else:
            low = implied_from
            low += others if other_total(et, anchor) else 0
            low += anchors if anchor_total(et, anchor) else 0
            minimum[et.label] = low
            degree = e["degree"]
            if degree["dist"] == "fixed":
                value = round(degree["value"])
                for s, t in pairs:
                    e["pairs"][f"{s}->{t}"] = counts[s]
                e["count"] = value * anchors
            elif degree["dist"] == "poisson" and "mean" not in degree and "count" in e:
                degree["mean"] = round(e["count"] / max(anchors, 1), 4)
    structural = sum(e["count"] for e in edges.values() if "count" in e)
    open_many = [label for label in free if "count" not in edges[label]]
    budget = target - structural if target is not None else 0
    short = max(0, -budget) if free else 0
    if not open_many:
        return short
    weights = [float(edges[label].get("weight", 1.0)) for label in open_many]
    shares = cumulative_split(max(budget, 0), weights)
    for label, share in zip(open_many, shares):
        open_type = schema.edge(label)
        assert open_type is not None  # the config's edge labels are the schema's
        edges[label]["count"] = max(share, minimum[label])
        short += max(0, minimum[label] - share)
        edges[label]["count"] = min(edges[label]["count"], _capacity(schema, open_type, counts))
        degree = edges[label]["degree"]
        if degree["dist"] == "poisson" and "mean" not in degree:
            anchors = sum(counts[s] for s, _ in _pairs(schema, open_type))
            degree["mean"] = round(edges[label]["count"] / max(anchors, 1), 4)
    for et in generation_order(schema):
        implied_from = sum(
            edges[d.label]["count"] for d in schema.edge_types if et.label in d.implies
        )
        if edges[et.label]["mode"] == "many" and edges[et.label]["count"] < implied_from:
            edges[et.label]["count"] = implied_from
    return short


def _capacity(schema: SchemaGraph, et: EdgeType, counts: dict[str, int]) -> int:
    """The most edges a many-to-many type can have without duplicates."""
    total = 0
    for s, t in _pairs(schema, et):
        if s == t:
            total += counts[s] * (counts[s] - 1) // (2 if et.symmetric else 1)
        else:
            total += counts[s] * counts[t]
    return total


def pairs_of(schema: SchemaGraph, et: EdgeType, e: dict[str, Any]) -> list[Pair]:
    """The pairs of an edge type with their resolved weights."""
    return [Pair(s, t, float(e["pairs"][f"{s}->{t}"])) for s, t in _pairs(schema, et)]


def split_by_pairs(count: int, pairs: list[Pair]) -> list[int]:
    return cumulative_split(count, [p.weight for p in pairs])


__all__ = [
    "Pair",
    "anchor_total",
    "edge_mode",
    "effective_cardinality",
    "generation_order",
    "other_total",
    "pairs_of",
    "resolve",
    "split_by_pairs",
]
