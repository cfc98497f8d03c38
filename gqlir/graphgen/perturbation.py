"""Perturbation: an observed graph made from a clean one by seeded noise, with a complete log.

Seven families (NGDBench's graph-level types, with its attribute noise split by value kind);
each ratio is the share of the family's *eligible* elements changed, and exactly
``round(ratio × eligible)`` are changed when the graph allows it:

=====================  ==========================================  ============================
family                 eligible elements (ratio of …)              change
=====================  ==========================================  ============================
missing_edges          edges                                       removed (not leaving an end
                                                                   node without edges, by default)
false_edges            edges (count added = ratio × edges)         an edge of an existing type
                                                                   between two non-adjacent nodes
relation_type_noise    edges with another type that can connect    retyped to the most similar
                       their end nodes                             such type
node_type_noise        nodes                                       relabelled as the most similar
                                                                   other node type
name_typos             nodes with a name field of >= 3 characters  one typo in one name field
numeric_noise          elements with a nonzero numeric property    every such property scaled
                                                                   by 10^±1..4
string_noise           elements with another non-empty text        every such property's case
                                                                   swapped / noise characters in
=====================  ==========================================  ============================

Only node-type noise makes values or structure invalid by design (a relabelled node keeps its
properties and edges, which its new type may not declare or allow). Every other family keeps
the observed graph valid for the schema's types: changed values are of the property's type
(integers in range, decimals of the scale, texts within their length, unique values still
unique), false and retyped edges connect endpoint types their type allows, never duplicate an
edge, and respect one-edge-per-node cardinalities. Removing or retyping an edge may leave a
node without an edge its type's *total participation* requires, or an implied edge missing:
that is the incompleteness being simulated.

NGDBench applies its perturbations with Python's unseeded ``random``; here every family has its
own stream derived from the seed, so a run is reproducible byte for byte.
"""

from __future__ import annotations

import copy
import json
import os
import random
from array import array
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..schema.graphdata import Edge, Node, check_value, iter_edges, iter_nodes
from ..schema.model import EdgeType, NodeType, SchemaGraph
from ..schema.types import TypeKind
from .defaults import default_spec, norm
from .errors import GraphGenError
from .noiselog import (
    LOG_FILE,
    LOG_FORMAT,
    LOG_VERSION,
    LogWriter,
    edge_record,
    graph_digest,
)
from .seeds import stream
from .similarity import most_similar
from .sinks import GraphWriter
from .typos import scale_number, string_noise, typo
from .values import NUMERIC_KINDS, compile_spec

K = TypeKind
CONFIG_FILE = "perturb.json"
FORMAT = "gqlir-perturb"

#: NGDBench's default profile (incomplete_edges, false_edges, relation_type_noise, name_typos,
#: node_type_noise, attribute_noise), attribute noise split into numeric and string noise
DEFAULT_RATIOS: dict[str, float] = {
    "missing_edges": 0.05,
    "false_edges": 0.1,
    "relation_type_noise": 0.1,
    "node_type_noise": 0.1,
    "name_typos": 0.2,
    "numeric_noise": 0.1,
    "string_noise": 0.1,
}
FAMILIES = tuple(DEFAULT_RATIOS)
#: NGDBench profile names accepted in a config
ALIASES = {
    "incomplete_edges": ("missing_edges",),
    "attribute_noise": ("numeric_noise", "string_noise"),
}
NAME_FIELDS = {"name", "title", "firstname", "lastname", "fullname", "nickname", "username"}
CONFIG_KEYS = {
    "format",
    "version",
    "seed",
    "ratios",
    "avoid_dangling_edges",
    "compatible_relations_only",
    "attribute_elements",
    "name_fields",
}


def resolve_config(config: dict[str, Any] | None, seed: int | None) -> dict[str, Any]:
    """The complete perturbation config: every ratio and option, defaults filled in."""
    cfg = copy.deepcopy(config or {})
    if not isinstance(cfg, dict):
        raise GraphGenError("a perturbation config is a JSON object")
    unknown = set(cfg) - CONFIG_KEYS
    if unknown:
        raise GraphGenError(f"perturbation config: unknown key(s) {', '.join(sorted(unknown))}")
    ratios = dict(DEFAULT_RATIOS)
    given = cfg.get("ratios", {})
    if not isinstance(given, dict):
        raise GraphGenError("perturbation config: 'ratios' is an object of family: ratio")
    for name, value in given.items():
        targets = ALIASES.get(name, (name,))
        for t in targets:
            if t not in DEFAULT_RATIOS:
                raise GraphGenError(
                    f"perturbation config: unknown noise family {name!r}; known: "
                    f"{', '.join(FAMILIES)} (or NGDBench's {', '.join(ALIASES)})"
                )
            if (
                not isinstance(value, (int, float))
                or isinstance(value, bool)
                or not 0 <= value <= 1
            ):
                raise GraphGenError(f"perturbation config: ratio of {name} must be in [0, 1]")
            ratios[t] = float(value)
    elements = cfg.get("attribute_elements", ["nodes"])
    if not isinstance(elements, list) or not set(elements) <= {"nodes", "edges"}:
        raise GraphGenError("perturbation config: attribute_elements is a list of nodes/edges")
    out = {
        "format": FORMAT,
        "version": 1,
        "seed": seed if seed is not None else cfg.get("seed", 0),
        "ratios": ratios,
        "avoid_dangling_edges": bool(cfg.get("avoid_dangling_edges", True)),
        "compatible_relations_only": bool(cfg.get("compatible_relations_only", True)),
        "attribute_elements": list(elements),
    }
    if "name_fields" in cfg:
        out["name_fields"] = list(cfg["name_fields"])
    if not isinstance(out["seed"], int) or isinstance(out["seed"], bool):
        raise GraphGenError("perturbation config: 'seed' must be an integer")
    return out


# -- which properties a family may change --------------------------------------------------------


class _Fields:
    """Per node and edge type: its name fields, numeric fields and other text fields."""

    def __init__(self, schema: SchemaGraph, name_fields: list[str] | None) -> None:
        self.names: dict[str, list[str]] = {}
        self.numbers: dict[str, list[str]] = {}
        self.texts: dict[str, list[str]] = {}
        self.unique: set[tuple[str, str]] = set()
        wanted = set(name_fields) if name_fields is not None else None
        for owner in schema.elements():
            key = _owner_key(owner)
            keys = set(owner.keys) if isinstance(owner, NodeType) else set()
            for p in owner.properties:
                if p.unique or (keys and owner.keys == (p.name,)):
                    self.unique.add((key, p.name))
            self.names[key] = [
                p.name
                for p in owner.properties
                if p.type.kind == K.STRING
                and isinstance(owner, NodeType)
                and (
                    p.name in wanted
                    if wanted is not None
                    else norm(p.name) in NAME_FIELDS or norm(p.name).endswith("name")
                )
            ]
            idlike = {
                p.name
                for p in owner.properties
                if norm(p.name) == "id" or norm(p.name).endswith("id")
            }
            self.numbers[key] = [
                p.name
                for p in owner.properties
                if p.type.kind in NUMERIC_KINDS
                and p.name not in keys
                and p.name not in idlike
                and (key, p.name) not in self.unique
            ]
            self.texts[key] = [
                p.name
                for p in owner.properties
                if p.type.kind == K.STRING
                and p.name not in keys
                and p.name not in idlike
                and p.name not in self.names[key]
            ]


def _owner_key(owner: NodeType | EdgeType) -> str:
    return ("node:" if isinstance(owner, NodeType) else "edge:") + owner.label


# -- the scan: structure and eligibility, no property data ---------------------------------------


@dataclass
class _Scan:
    """What the first pass keeps: node ids and types, edge ends and types as compact arrays,
    which elements each attribute family may touch, and the values of unique text fields."""

    node_ids: list[Any] = field(default_factory=list)
    node_index: dict[Any, int] = field(default_factory=dict)
    node_type: array = field(default_factory=lambda: array("i"))
    src: array = field(default_factory=lambda: array("q"))
    dst: array = field(default_factory=lambda: array("q"))
    edge_type: array = field(default_factory=lambda: array("i"))
    named: list[int] = field(default_factory=list)
    numeric: dict[str, list[int]] = field(default_factory=lambda: {"node": [], "edge": []})
    textual: dict[str, list[int]] = field(default_factory=lambda: {"node": [], "edge": []})
    taken: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))


def _scan(directory: str, schema: SchemaGraph, fields: _Fields, cfg: dict[str, Any]) -> _Scan:
    sc = _Scan()
    node_labels = list(schema.node_labels)
    node_pos = {label: i for i, label in enumerate(node_labels)}
    edge_pos = {label: i for i, label in enumerate(schema.edge_labels)}
    edges_too = "edges" in cfg["attribute_elements"]
    for _, node in iter_nodes(directory, schema):
        i = len(sc.node_ids)
        if node.id in sc.node_index:
            raise GraphGenError(f"{directory}: node id {node.id!r} is used twice")
        sc.node_ids.append(node.id)
        sc.node_index[node.id] = i
        label = node.labels[0] if node.labels else ""
        sc.node_type.append(node_pos.get(label, -1))
        key = "node:" + label
        props = node.properties
        if any(
            isinstance(props.get(f), str) and len(props[f]) >= 3 for f in fields.names.get(key, ())
        ):
            sc.named.append(i)
        _eligible(sc, fields, key, props, "node", i)
        for f in fields.names.get(key, []) + fields.texts.get(key, []):
            if (key, f) in fields.unique and isinstance(props.get(f), str):
                sc.taken[(key, f)].add(props[f])
    for j, (loc, edge) in enumerate(iter_edges(directory, schema)):
        try:
            sc.src.append(sc.node_index[edge.source])
            sc.dst.append(sc.node_index[edge.target])
        except KeyError as exc:
            raise GraphGenError(f"{loc}: no node with id {exc.args[0]!r}") from None
        sc.edge_type.append(edge_pos.get(edge.type, -1))
        if edges_too:
            _eligible(sc, fields, "edge:" + edge.type, edge.properties, "edge", j)
    return sc


def _eligible(
    sc: _Scan, fields: _Fields, key: str, props: dict[str, Any], kind: str, i: int
) -> None:
    if any(
        _is_number(props.get(f)) and props[f] not in (0, "0") for f in fields.numbers.get(key, ())
    ):
        sc.numeric[kind].append(i)
    if any(isinstance(props.get(f), str) and props[f] for f in fields.texts.get(key, ())):
        sc.textual[kind].append(i)


def _is_number(v: Any) -> bool:
    if isinstance(v, bool) or v is None:
        return False
    if isinstance(v, (int, float)):
        return True
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


# -- choosing what changes -----------------------------------------------------------------------


@dataclass
class _Proposal:
    """A false edge or a retyped edge, before the structural check."""

    src: int
    dst: int
    etype: int
    clean_index: int | None = None  # set for a retyped edge
    similarity: float = 0.0


class _Planner:
    """Picks the elements each family changes (seeded, exact counts where the graph allows)."""

    def __init__(self, schema: SchemaGraph, sc: _Scan, cfg: dict[str, Any]) -> None:
        self.schema, self.sc, self.cfg = schema, sc, cfg
        self.seed = cfg["seed"]
        self.ratios = cfg["ratios"]
        self.edge_types = list(schema.edge_types)
        self.node_labels = list(schema.node_labels)
        self.by_type: dict[int, list[int]] = defaultdict(list)
        for i, t in enumerate(sc.node_type):
            self.by_type[t].append(i)
        self.targets: dict[str, int] = {}
        self._alternatives: dict[tuple[int, int, int], tuple[list[int], float]] = {}

    def rng(self, family: str) -> random.Random:
        return stream(self.seed, "perturb", family)

    def sample(self, family: str, population: list[int], part: str = "") -> list[int]:
        """``round(ratio × len(population))`` of the population, chosen by the family's stream
        (``part`` names a separate stream, for nodes and edges of one family)."""
        k = round(self.ratios[family] * len(population))
        self.targets[family] = k
        return sorted(self.rng(family + part).sample(population, k)) if k else []

    def missing_edges(self) -> set[int]:
        m = len(self.sc.src)
        k = round(self.ratios["missing_edges"] * m)
        self.targets["missing_edges"] = k
        rng = self.rng("missing_edges")
        chosen: set[int] = set()
        if not k:
            return chosen
        avoid = self.cfg["avoid_dangling_edges"]
        degree = array("l", [0]) * len(self.sc.node_ids)
        if avoid:
            for s, t in zip(self.sc.src, self.sc.dst):
                degree[s] += 1
                degree[t] += 1
        for _ in range(40 * k + 1000):
            if len(chosen) == k:
                break
            j = rng.randrange(m)
            if j in chosen:
                continue
            s, t = self.sc.src[j], self.sc.dst[j]
            if avoid and (degree[s] <= 1 or degree[t] <= 1 or (s == t and degree[s] <= 2)):
                continue
            degree[s] -= 1
            degree[t] -= 1
            chosen.add(j)
        return chosen

    def alternatives(self, j: int) -> tuple[list[int], float]:
        """The edge types clean edge ``j`` could be retyped to (tied for the most similar
        label; only those that can connect its end nodes' types, unless the config allows any)
        and their similarity. Cached per (type, source type, target type)."""
        e, s, t = self.sc.edge_type[j], self.sc.src[j], self.sc.dst[j]
        key = (e, self.sc.node_type[s], self.sc.node_type[t])
        if key not in self._alternatives:
            sl = self.node_labels[key[1]] if key[1] >= 0 else None
            tl = self.node_labels[key[2]] if key[2] >= 0 else None
            others = [
                i
                for i, et in enumerate(self.edge_types)
                if i != e
                and (
                    not self.cfg["compatible_relations_only"]
                    or (sl is not None and tl is not None and et.connects(sl, tl))
                )
            ]
            if e < 0 or not others:
                self._alternatives[key] = ([], 0.0)
            else:
                names = [self.edge_types[i].label for i in others]
                best, score = most_similar(self.edge_types[e].label, names)
                self._alternatives[key] = ([others[names.index(b)] for b in best], score)
        return self._alternatives[key]

    def retypes(self, removed: set[int]) -> list[_Proposal]:
        """``round(ratio × edges that have an alternative type)`` retyped edges."""
        m = len(self.sc.src)
        eligible = sum(1 for j in range(m) if j not in removed and self.alternatives(j)[0])
        k = round(self.ratios["relation_type_noise"] * eligible)
        self.targets["relation_type_noise"] = k
        return self.draw_retypes(self.rng("relation_type_noise"), set(removed), k)

    def draw_retypes(self, rng: random.Random, taken: set[int], want: int) -> list[_Proposal]:
        """Up to ``want`` more retyped edges, none of them in ``taken`` (which grows)."""
        sc = self.sc
        out: list[_Proposal] = []
        for _ in range(40 * want + 1000):
            if len(out) == want:
                break
            j = rng.randrange(len(sc.src))
            if j in taken:
                continue
            taken.add(j)
            alts, score = self.alternatives(j)
            if alts:
                out.append(_Proposal(sc.src[j], sc.dst[j], rng.choice(alts), j, score))
        return out

    def false_edge(self, rng: random.Random, weights: list[float]) -> _Proposal | None:
        for _ in range(100):
            e = rng.choices(range(len(self.edge_types)), weights=weights)[0]
            et = self.edge_types[e]
            pairs = [
                (self.node_labels.index(p.source), self.node_labels.index(p.target))
                for p in et.endpoints
                if self.by_type[self.node_labels.index(p.source)]
                and self.by_type[self.node_labels.index(p.target)]
            ]
            if not pairs:
                continue
            st, tt = rng.choice(pairs)
            s, t = rng.choice(self.by_type[st]), rng.choice(self.by_type[tt])
            if s != t:
                return _Proposal(s, t, e)
        return None

    def false_edges(self) -> int:
        k = round(self.ratios["false_edges"] * len(self.sc.src))
        self.targets["false_edges"] = k
        return k


def _check_structure(
    schema: SchemaGraph, sc: _Scan, proposals: list[_Proposal], is_false: list[bool]
) -> list[bool]:
    """Which proposals would break the graph's structure: duplicate an edge (a symmetric type's
    reverse included), give a node a second edge of a one-edge-per-node type, or (false edges)
    join two nodes already adjacent; checked against every clean edge in one pass over the
    arrays, and against the proposals before them."""
    types = list(schema.edge_types)
    bad = [False] * len(proposals)
    tables: dict[str, dict[tuple[int, ...], list[int]]] = {
        kind: defaultdict(list) for kind in ("dup", "out", "in", "adj")
    }
    for i, p in enumerate(proposals):
        et = types[p.etype]
        keys: list[tuple[str, tuple[int, ...]]] = [("dup", (p.src, p.dst, p.etype))]
        if et.symmetric:
            keys.append(("dup", (p.dst, p.src, p.etype)))
        if et.cardinality is not None and et.cardinality.source_max_one:
            keys.append(("out", (p.src, p.etype)))
        if et.cardinality is not None and et.cardinality.target_max_one:
            keys.append(("in", (p.dst, p.etype)))
        if is_false[i]:
            keys.append(("adj", (min(p.src, p.dst), max(p.src, p.dst))))
        if any(key in tables[kind] for kind, key in keys):
            bad[i] = True
            continue
        for kind, key in keys:
            tables[kind][key].append(i)
    dup, out_one, in_one, adj = (tables[k] for k in ("dup", "out", "in", "adj"))
    for s, t, e in zip(sc.src, sc.dst, sc.edge_type):
        hits: list[int] = []
        if dup:
            hits += dup.get((s, t, e), ())
        if out_one:
            hits += out_one.get((s, e), ())
        if in_one:
            hits += in_one.get((t, e), ())
        if adj:
            hits += adj.get((min(s, t), max(s, t)), ())
        for i in hits:
            bad[i] = True
    return bad


# -- the run -------------------------------------------------------------------------------------


@dataclass
class PerturbResult:
    directory: str
    config: dict[str, Any]
    changes: dict[str, int]
    targets: dict[str, int]
    clean: dict[str, int]
    observed: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "seed": self.config["seed"],
            "changes": self.changes,
            "targets": self.targets,
            "clean": self.clean,
            "observed": self.observed,
        }


class _Values:
    """Property values for false and retyped edges, from the generator's default specs."""

    def __init__(self, schema: SchemaGraph, seed: int) -> None:
        self.schema, self.seed = schema, seed
        self._gens: dict[str, list[tuple[str, bool, Any]]] = {}
        self._serial: dict[str, int] = defaultdict(int)

    def make(
        self, et: EdgeType, keep: dict[str, Any] | None = None, required_only: bool = False
    ) -> dict[str, Any]:
        if et.label not in self._gens:
            gens = []
            for p in et.properties:
                spec = default_spec(
                    et,
                    p,
                    is_node=False,
                    rng=stream(self.seed, "perturb-defaults", et.label, p.name),
                )
                rng = stream(self.seed, "perturb-values", et.label, p.name)
                gen = compile_spec(
                    spec, p.type, rng=rng, count=1 << 40, where=f"edge {et.label}.{p.name}"
                )
                gens.append((p.name, p.required, gen))
            self._gens[et.label] = gens
        k = self._serial[et.label]
        self._serial[et.label] += 1
        props: dict[str, Any] = {}
        for name, required, gen in self._gens[et.label]:
            old = (keep or {}).get(name)
            declared = et.prop(name)
            if old is not None and declared is not None and check_value(old, declared.type) is None:
                props[name] = old
            elif required or not required_only:
                v = gen(k, props)
                if v is not None:
                    props[name] = v
        return props


def perturb(
    clean: str,
    out: str,
    schema: SchemaGraph,
    config: dict[str, Any] | None = None,
    *,
    seed: int | None = None,
) -> PerturbResult:
    """Write the observed graph (JSON lines), ``noise.jsonl``, ``perturb.json`` and
    ``schema.json`` to ``out`` from the clean graph directory ``clean``."""
    cfg = resolve_config(config, seed)
    if os.path.abspath(clean) == os.path.abspath(out):
        raise GraphGenError("the observed graph needs its own directory (--out)")
    fields = _Fields(schema, cfg.get("name_fields"))
    sc = _scan(clean, schema, fields, cfg)
    planner = _Planner(schema, sc, cfg)
    removed = planner.missing_edges()
    retypes, false_edges = _structural_noise(schema, sc, planner, removed)
    # node-type noise needs another type to move a node to
    movable = list(range(len(sc.node_ids))) if len(schema.node_types) > 1 else []
    relabel = planner.sample("node_type_noise", movable)
    typos_at = planner.sample("name_typos", sc.named)
    numeric = {k: planner.sample("numeric_noise", sc.numeric[k], ":" + k) for k in ("node", "edge")}
    textual = {k: planner.sample("string_noise", sc.textual[k], ":" + k) for k in ("node", "edge")}
    planner.targets["numeric_noise"] = len(numeric["node"]) + len(numeric["edge"])
    planner.targets["string_noise"] = len(textual["node"]) + len(textual["edge"])

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "schema.json"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(schema.to_json())
    with open(os.path.join(out, CONFIG_FILE), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(json.dumps(cfg, indent=2) + "\n")
    log = LogWriter(os.path.join(out, LOG_FILE))
    header = {
        "record": "header",
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "seed": cfg["seed"],
        "config": cfg,
        "clean": {"nodes": len(sc.node_ids), "edges": len(sc.src), "digest": graph_digest(clean)},
    }
    log.write(header)
    run = _Applier(schema, sc, cfg, fields, log)
    run.relabel, run.typos = set(relabel), set(typos_at)
    run.numeric = {k: set(v) for k, v in numeric.items()}
    run.textual = {k: set(v) for k, v in textual.items()}
    run.removed = removed
    run.retypes = {p.clean_index: p for p in retypes if p.clean_index is not None}
    with GraphWriter(out, schema, "jsonl") as writer:
        writer.nodes("", run.nodes(clean))
        n_edges = writer.edges("", run.edges(clean))
        n_edges += writer.edges("", run.added(false_edges, n_edges))
    clean_size = {"nodes": len(sc.node_ids), "edges": len(sc.src)}
    observed_size = {"nodes": len(sc.node_ids), "edges": n_edges}
    changes = {f: run.changes.get(f, 0) for f in FAMILIES}
    targets = {f: planner.targets.get(f, 0) for f in FAMILIES}
    log.write(
        {
            "record": "summary",
            "clean": clean_size,
            "observed": observed_size,
            "changes": changes,
            "targets": targets,
        }
    )
    log.close()
    return PerturbResult(out, cfg, changes, targets, clean_size, observed_size)


def _structural_noise(
    schema: SchemaGraph, sc: _Scan, planner: _Planner, removed: set[int]
) -> tuple[list[_Proposal], list[_Proposal]]:
    """Retyped and false edges that pass the structural check, redrawn until they do."""
    retypes = planner.retypes(removed)
    k_false = planner.false_edges()
    rng = planner.rng("false_edges")
    counts = [0.0] * len(planner.edge_types)
    for e in sc.edge_type:
        if e >= 0:
            counts[e] += 1
    weights = [c if c else 0.0 for c in counts]
    if not any(weights):
        weights = [1.0] * len(weights)
    fakes: list[_Proposal] = []
    retry_rng = planner.rng("relation_type_noise:redraw")
    tried = set(removed) | {p.clean_index for p in retypes if p.clean_index is not None}
    for _ in range(30):
        while len(fakes) < k_false:
            p = planner.false_edge(rng, weights)
            if p is None:
                break
            fakes.append(p)
        want = planner.targets["relation_type_noise"] - len(retypes)
        if want > 0:
            retypes += planner.draw_retypes(retry_rng, tried, want)
        bad = _check_structure(
            schema, sc, retypes + fakes, [False] * len(retypes) + [True] * len(fakes)
        )
        n = len(retypes)
        retypes = [p for p, b in zip(retypes, bad[:n]) if not b]
        fakes = [p for p, b in zip(fakes, bad[n:]) if not b]
        if not any(bad):
            break
    return retypes, fakes


class _Applier:
    """The second pass: streams the clean graph, applies the chosen changes, logs each."""

    def __init__(
        self, schema: SchemaGraph, sc: _Scan, cfg: dict[str, Any], fields: _Fields, log: LogWriter
    ) -> None:
        self.schema, self.sc, self.cfg, self.fields, self.log = schema, sc, cfg, fields, log
        seed = cfg["seed"]
        self.rngs = {f: stream(seed, "perturb", f, "apply") for f in FAMILIES}
        self.values = _Values(schema, seed)
        self.changes: dict[str, int] = defaultdict(int)
        self.relabel: set[int] = set()
        self.typos: set[int] = set()
        self.numeric: dict[str, set[int]] = {}
        self.textual: dict[str, set[int]] = {}
        self.removed: set[int] = set()
        self.retypes: dict[int, _Proposal] = {}
        self._relabel_cache: dict[str, tuple[list[str], float]] = {}

    def _count(self, family: str) -> None:
        self.changes[family] += 1

    def nodes(self, clean: str) -> Iterator[Node]:
        for i, (_, node) in enumerate(iter_nodes(clean, self.schema)):
            labels = list(node.labels)
            props = dict(node.properties)
            key = "node:" + (labels[0] if labels else "")
            where = {"element": "node", "node": node.id}
            if i in self.relabel:
                labels = self._relabel(node, labels)
            if i in self.typos:
                self._typo(key, props, where)
            if i in self.numeric.get("node", ()):
                self._numbers(key, props, where)
            if i in self.textual.get("node", ()):
                self._texts(key, props, where)
            yield Node(node.id, tuple(labels), props)

    def _relabel(self, node: Node, labels: list[str]) -> list[str]:
        current = labels[0] if labels else ""
        if current not in self._relabel_cache:
            others = [n.label for n in self.schema.node_types if n.label != current]
            self._relabel_cache[current] = most_similar(current, others)
        best, score = self._relabel_cache[current]
        nt = self.schema.node(self.rngs["node_type_noise"].choice(best))
        assert nt is not None
        new = list(nt.labels)
        self.log.write(
            {
                "record": "relabel_node",
                "family": "node_type_noise",
                "node": node.id,
                "old": labels,
                "new": new,
                "similarity": score,
            }
        )
        self._count("node_type_noise")
        return new

    def _set(
        self,
        family: str,
        where: dict[str, Any],
        name: str,
        old: Any,
        new: Any,
        op: str,
        props: dict[str, Any],
    ) -> None:
        props[name] = new
        self.log.write(
            {
                "record": "set_property",
                "family": family,
                **where,
                "property": name,
                "old": old,
                "new": new,
                "operation": op,
            }
        )

    def _unique_ok(self, key: str, name: str, new: str) -> bool:
        if (key, name) not in self.fields.unique:
            return True
        taken = self.sc.taken[(key, name)]
        if new in taken:
            return False
        taken.add(new)
        return True

    def _max_length(self, key: str, name: str) -> int | None:
        owner = self.schema.node(key[5:]) if key.startswith("node:") else self.schema.edge(key[5:])
        p = owner.prop(name) if owner else None
        return p.type.length if p is not None else None

    def _typo(self, key: str, props: dict[str, Any], where: dict[str, Any]) -> None:
        rng = self.rngs["name_typos"]
        names = [
            f
            for f in self.fields.names.get(key, ())
            if isinstance(props.get(f), str) and len(props[f]) >= 3
        ]
        if not names:
            return
        name = rng.choice(names)
        for _ in range(10):
            made = typo(props[name], rng, self._max_length(key, name))
            if made is not None and self._unique_ok(key, name, made[0]):
                self._set("name_typos", where, name, props[name], made[0], made[1], props)
                self._count("name_typos")
                return

    def _numbers(self, key: str, props: dict[str, Any], where: dict[str, Any]) -> None:
        rng = self.rngs["numeric_noise"]
        owner = self.schema.node(key[5:]) if key.startswith("node:") else self.schema.edge(key[5:])
        changed = False
        for name in self.fields.numbers.get(key, ()):
            p = owner.prop(name) if owner else None
            if p is None or not _is_number(props.get(name)):
                continue
            made = scale_number(props[name], p.type, rng)
            if made is not None:
                self._set("numeric_noise", where, name, props[name], made[0], made[1], props)
                changed = True
        if changed:
            self._count("numeric_noise")

    def _texts(self, key: str, props: dict[str, Any], where: dict[str, Any]) -> None:
        rng = self.rngs["string_noise"]
        changed = False
        for name in self.fields.texts.get(key, ()):
            if not isinstance(props.get(name), str) or not props[name]:
                continue
            for _ in range(10):
                made = string_noise(props[name], rng, self._max_length(key, name))
                if made is not None and self._unique_ok(key, name, made[0]):
                    self._set("string_noise", where, name, props[name], made[0], made[1], props)
                    changed = True
                    break
        if changed:
            self._count("string_noise")

    def edges(self, clean: str) -> Iterator[Edge]:
        o = 0
        types = list(self.schema.edge_types)
        for j, (_, edge) in enumerate(iter_edges(clean, self.schema)):
            if j in self.removed:
                self.log.write(
                    {
                        "record": "remove_edge",
                        "family": "missing_edges",
                        "clean_index": j,
                        "edge": edge_record(edge),
                    }
                )
                self._count("missing_edges")
                continue
            if j in self.retypes:
                et = types[self.retypes[j].etype]
                new = Edge(
                    et.label,
                    edge.source,
                    edge.target,
                    self.values.make(et, edge.properties, required_only=True),
                    edge.id,
                )
                self.log.write(
                    {
                        "record": "retype_edge",
                        "family": "relation_type_noise",
                        "clean_index": j,
                        "observed_index": o,
                        "old": edge_record(edge),
                        "new": edge_record(new),
                        "similarity": self.retypes[j].similarity,
                    }
                )
                self._count("relation_type_noise")
                edge = new
            key = "edge:" + edge.type
            where = {"element": "edge", "clean_index": j, "observed_index": o}
            if j in self.numeric.get("edge", ()) or j in self.textual.get("edge", ()):
                props = dict(edge.properties)
                if j in self.numeric.get("edge", ()):
                    self._numbers(key, props, where)
                if j in self.textual.get("edge", ()):
                    self._texts(key, props, where)
                edge = Edge(edge.type, edge.source, edge.target, props, edge.id)
            yield edge
            o += 1

    def added(self, proposals: list[_Proposal], start: int) -> Iterator[Edge]:
        types = list(self.schema.edge_types)
        for n, p in enumerate(proposals):
            et = types[p.etype]
            edge = Edge(
                et.label, self.sc.node_ids[p.src], self.sc.node_ids[p.dst], self.values.make(et)
            )
            self.log.write(
                {
                    "record": "add_edge",
                    "family": "false_edges",
                    "observed_index": start + n,
                    "edge": edge_record(edge),
                }
            )
            self._count("false_edges")
            yield edge


__all__ = ["DEFAULT_RATIOS", "FAMILIES", "PerturbResult", "perturb", "resolve_config"]
