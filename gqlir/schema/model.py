"""The SchemaGraph: node types, edge types, typed properties and the semantic annotations that
benchmark builders use to generate realistic questions.

Like the query IR, a schema is made of frozen dataclasses with structural equality, so "read →
write → read gives the same schema" is a plain ``==``. A few facts are normalised when a type is
built, so that equal meaning gives equal values whatever format a schema came from:

* a key property is required, and is neither ``unique`` (when it is the only key property) nor
  ``indexed`` on its own: the key implies both;
* a ``unique`` property is not also ``indexed``: uniqueness implies an index in every target.

Edges are identified by their endpoints and their key properties: two edges of one type with the
same source, target and key values are the same edge. An edge type without endpoint pairs may
connect any nodes (what a schema-free database, or a Neo4j constraint script, says about it).

The annotations follow CypherBench's ``graph_info.json``: cardinality (how many edges of the type
a node may have on each side), participation (whether every node of an endpoint type has one),
entailment (an edge of this type implies an edge of another type between the same nodes),
symmetry (the relation holds both ways and is stored once), and time sensitivity (the relation
holds for a period, recorded in its properties).

Phrase annotations say how a question names a type in English (``phrase`` of a node type or
property: "side effect", ``plural``: "side effects"; of an edge type: "treats", ``inverse``: "is
treated by"). They change no meaning, so a format that cannot carry them drops them as notes,
not losses (:func:`is_note`).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Iterator
from dataclasses import Field, dataclass, field, replace
from typing import Any

from ..errors import SchemaError
from .types import PropertyType, parse_type

FORMAT_NAME = "gqlir-schema"
FORMAT_VERSION = 1


def _phrase() -> Any:
    """An optional phrase annotation (see the module docstring)."""
    return field(default=None, metadata={"note": True})


def is_note(f: Field) -> bool:
    """Whether a model field is an annotation whose loss changes no meaning."""
    return bool(f.metadata.get("note"))


class Cardinality(enum.Enum):
    """Edges per node on each side: ``n:1`` means a source node has at most one edge of the
    type (each source relates to one target) while a target may have many."""

    ONE_TO_ONE = "1:1"
    ONE_TO_MANY = "1:n"
    MANY_TO_ONE = "n:1"
    MANY_TO_MANY = "n:m"

    @property
    def source_max_one(self) -> bool:
        """At most one edge per source node."""
        return self in (Cardinality.ONE_TO_ONE, Cardinality.MANY_TO_ONE)

    @property
    def target_max_one(self) -> bool:
        """At most one edge per target node."""
        return self in (Cardinality.ONE_TO_ONE, Cardinality.ONE_TO_MANY)

    @staticmethod
    def of(source_max_one: bool, target_max_one: bool) -> Cardinality:
        if source_max_one and target_max_one:
            return Cardinality.ONE_TO_ONE
        if source_max_one:
            return Cardinality.MANY_TO_ONE
        if target_max_one:
            return Cardinality.ONE_TO_MANY
        return Cardinality.MANY_TO_MANY


class Participation(enum.Enum):
    """Whether every node of an endpoint type takes part in at least one edge of the type."""

    TOTAL = "total"
    PARTIAL = "partial"


@dataclass(frozen=True, slots=True)
class Property:
    """A typed property. ``unit`` names the unit of a quantity (``km``, ``USD``);
    ``categorical`` marks a string with few distinct values (CypherBench's ``categorical``)."""

    name: str
    type: PropertyType
    required: bool = False
    unique: bool = False
    indexed: bool = False
    unit: str | None = None
    description: str | None = None
    categorical: bool = False
    phrase: str | None = _phrase()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise SchemaError("a property needs a non-empty name")
        if not isinstance(self.type, PropertyType):
            raise SchemaError(f"property {self.name!r}: type must be a PropertyType")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One (source node type, target node type) pair an edge type may connect."""

    source: str
    target: str

    def __str__(self) -> str:
        return f"({self.source})->({self.target})"


def _normalise_properties(
    owner: str, properties: tuple[Property, ...], keys: tuple[str, ...]
) -> tuple[Property, ...]:
    names = [p.name for p in properties]
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise SchemaError(f"{owner}: property {n!r} is declared twice")
        seen.add(n)
    for k in keys:
        if k not in seen:
            raise SchemaError(f"{owner}: key property {k!r} is not a property")
    if len(set(keys)) != len(keys):
        raise SchemaError(f"{owner}: a key property is listed twice")
    out = []
    for p in properties:
        if p.name in keys:
            p = replace(p, required=True, indexed=False, unique=p.unique and len(keys) > 1)
        if p.unique and p.indexed:
            p = replace(p, indexed=False)
        out.append(p)
    return tuple(out)


class _ElementType:
    """What node and edge types share: named, typed properties and a key."""

    __slots__ = ()
    label: str
    properties: tuple[Property, ...]
    keys: tuple[str, ...]

    def prop(self, name: str) -> Property | None:
        for p in self.properties:
            if p.name == name:
                return p
        return None

    @property
    def property_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.properties)


@dataclass(frozen=True, slots=True)
class NodeType(_ElementType):
    """A node type: its label (the type's name), further labels every such node carries, its
    properties and key."""

    label: str
    properties: tuple[Property, ...] = ()
    keys: tuple[str, ...] = ()
    extra_labels: tuple[str, ...] = ()
    description: str | None = None
    phrase: str | None = _phrase()
    plural: str | None = _phrase()

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not self.label:
            raise SchemaError("a node type needs a label")
        object.__setattr__(self, "properties", tuple(self.properties))
        object.__setattr__(self, "keys", tuple(self.keys))
        object.__setattr__(self, "extra_labels", tuple(self.extra_labels))
        if self.label in self.extra_labels:
            raise SchemaError(f"node {self.label}: its label is also an extra label")
        object.__setattr__(
            self,
            "properties",
            _normalise_properties(f"node {self.label}", self.properties, self.keys),
        )

    @property
    def labels(self) -> tuple[str, ...]:
        return (self.label, *self.extra_labels)


@dataclass(frozen=True, slots=True)
class EdgeType(_ElementType):
    """An edge type (relationship type) and the node types it connects."""

    label: str
    endpoints: tuple[Endpoint, ...] = ()
    properties: tuple[Property, ...] = ()
    keys: tuple[str, ...] = ()
    cardinality: Cardinality | None = None
    source_participation: Participation | None = None
    target_participation: Participation | None = None
    implies: tuple[str, ...] = ()
    symmetric: bool = False
    time_sensitive: bool = False
    description: str | None = None
    phrase: str | None = _phrase()
    inverse: str | None = _phrase()

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not self.label:
            raise SchemaError("an edge type needs a label")
        object.__setattr__(self, "endpoints", tuple(self.endpoints))
        object.__setattr__(self, "implies", tuple(self.implies))
        object.__setattr__(self, "keys", tuple(self.keys))
        if len(set(self.endpoints)) != len(self.endpoints):
            raise SchemaError(f"edge {self.label}: an endpoint pair is listed twice")
        object.__setattr__(
            self,
            "properties",
            _normalise_properties(f"edge {self.label}", tuple(self.properties), self.keys),
        )

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.source for e in self.endpoints))

    @property
    def targets(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.target for e in self.endpoints))

    def connects(self, source: str, target: str) -> bool:
        return not self.endpoints or Endpoint(source, target) in self.endpoints


@dataclass(frozen=True, eq=False)
class SchemaGraph:
    """A property-graph schema: node types and edge types, each identified by its label.

    Equality ignores declaration order (of types, properties, endpoints): order carries no
    meaning, and several formats (Neo4j's catalog, relational schemas) do not keep it.
    """

    name: str = ""
    node_types: tuple[NodeType, ...] = ()
    edge_types: tuple[EdgeType, ...] = ()
    description: str | None = None
    _nodes: dict[str, NodeType] = field(init=False, compare=False, repr=False)
    _edges: dict[str, EdgeType] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "node_types", tuple(self.node_types))
        object.__setattr__(self, "edge_types", tuple(self.edge_types))
        nodes: dict[str, NodeType] = {}
        for n in self.node_types:
            if n.label in nodes:
                raise SchemaError(f"node type {n.label!r} is declared twice")
            nodes[n.label] = n
        edges: dict[str, EdgeType] = {}
        for e in self.edge_types:
            if e.label in edges:
                raise SchemaError(f"edge type {e.label!r} is declared twice")
            edges[e.label] = e
        for e in self.edge_types:
            for ep in e.endpoints:
                for end in (ep.source, ep.target):
                    if end not in nodes:
                        raise SchemaError(
                            f"edge {e.label}: endpoint {end!r} is not a node type",
                            code="SCHEMA_UNKNOWN_ENDPOINT",
                        )
            for other in e.implies:
                if other not in edges:
                    raise SchemaError(f"edge {e.label}: implied edge type {other!r} is unknown")
            if e.symmetric and e.endpoints:
                pairs = set(e.endpoints)
                if any(Endpoint(p.target, p.source) not in pairs for p in pairs):
                    raise SchemaError(
                        f"edge {e.label}: a symmetric edge type needs every endpoint pair "
                        "in both directions"
                    )
        object.__setattr__(self, "_nodes", nodes)
        object.__setattr__(self, "_edges", edges)

    def _identity(self) -> tuple[Any, ...]:
        c = self.canonical()
        return (c.name, c.description, c.node_types, c.edge_types)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SchemaGraph):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    # -- lookups ---------------------------------------------------------------------------
    def node(self, label: str) -> NodeType | None:
        return self._nodes.get(label)

    def edge(self, label: str) -> EdgeType | None:
        return self._edges.get(label)

    @property
    def node_labels(self) -> tuple[str, ...]:
        return tuple(self._nodes)

    @property
    def edge_labels(self) -> tuple[str, ...]:
        return tuple(self._edges)

    def all_node_labels(self) -> set[str]:
        """Every label a node may carry (type labels and extra labels)."""
        out: set[str] = set()
        for n in self.node_types:
            out.update(n.labels)
        return out

    def node_types_with_label(self, label: str) -> tuple[NodeType, ...]:
        return tuple(n for n in self.node_types if label in n.labels)

    def elements(self) -> Iterator[NodeType | EdgeType]:
        yield from self.node_types
        yield from self.edge_types

    # -- rebuilding ------------------------------------------------------------------------
    def replace(self, **changes: Any) -> SchemaGraph:
        return replace(self, **changes)

    def canonical(self) -> SchemaGraph:
        """The same schema with types, endpoints and properties in name order (for comparing
        schemas from formats that do not keep declaration order)."""

        def props(ps: Iterable[Property]) -> tuple[Property, ...]:
            return tuple(sorted(ps, key=lambda p: p.name))

        return SchemaGraph(
            name=self.name,
            description=self.description,
            node_types=tuple(
                replace(
                    n, properties=props(n.properties), extra_labels=tuple(sorted(n.extra_labels))
                )
                for n in sorted(self.node_types, key=lambda n: n.label)
            ),
            edge_types=tuple(
                replace(
                    e,
                    properties=props(e.properties),
                    endpoints=tuple(sorted(e.endpoints, key=lambda p: (p.source, p.target))),
                    implies=tuple(sorted(e.implies)),
                )
                for e in sorted(self.edge_types, key=lambda e: e.label)
            ),
        )

    # -- gqlir's own JSON ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return schema_to_dict(self)

    def to_json(self) -> str:
        """gqlir's JSON text: one line per property, so that diffs of schema files read well."""
        return compact_json(self.to_dict()) + "\n"

    @staticmethod
    def from_dict(data: Any) -> SchemaGraph:
        return schema_from_dict(data)

    @staticmethod
    def from_json(text: str) -> SchemaGraph:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SchemaError(
                f"not valid JSON: {exc.msg}", text=text, offset=exc.pos, code="SCHEMA_JSON"
            ) from None
        return schema_from_dict(data)


# -- JSON serialisation (docs/schema-format.md) ------------------------------------------------


def _property_to_dict(p: Property) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "type": str(p.type)}
    if p.required:
        out["required"] = True
    if p.unique:
        out["unique"] = True
    if p.indexed:
        out["indexed"] = True
    if p.categorical:
        out["categorical"] = True
    if p.unit is not None:
        out["unit"] = p.unit
    if p.description is not None:
        out["description"] = p.description
    return out | _phrases_to_dict(p, ("phrase",))


def _phrases_to_dict(
    element: Property | NodeType | EdgeType, names: tuple[str, ...]
) -> dict[str, str]:
    return {n: getattr(element, n) for n in names if getattr(element, n) is not None}


def schema_to_dict(schema: SchemaGraph) -> dict[str, Any]:
    """The schema as gqlir's JSON document (defaults are left out)."""
    out: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "name": schema.name}
    if schema.description is not None:
        out["description"] = schema.description
    nodes = []
    for n in schema.node_types:
        d: dict[str, Any] = {"label": n.label}
        if n.extra_labels:
            d["extra_labels"] = list(n.extra_labels)
        if n.description is not None:
            d["description"] = n.description
        d |= _phrases_to_dict(n, ("phrase", "plural"))
        if n.keys:
            d["key"] = list(n.keys)
        d["properties"] = [_property_to_dict(p) for p in n.properties]
        nodes.append(d)
    edges = []
    for e in schema.edge_types:
        d = {"label": e.label, "endpoints": [[p.source, p.target] for p in e.endpoints]}
        if e.description is not None:
            d["description"] = e.description
        d |= _phrases_to_dict(e, ("phrase", "inverse"))
        if e.keys:
            d["key"] = list(e.keys)
        d["properties"] = [_property_to_dict(p) for p in e.properties]
        if e.cardinality is not None:
            d["cardinality"] = e.cardinality.value
        part = {}
        if e.source_participation is not None:
            part["source"] = e.source_participation.value
        if e.target_participation is not None:
            part["target"] = e.target_participation.value
        if part:
            d["participation"] = part
        if e.implies:
            d["implies"] = list(e.implies)
        if e.symmetric:
            d["symmetric"] = True
        if e.time_sensitive:
            d["time_sensitive"] = True
        edges.append(d)
    out["nodes"] = nodes
    out["edges"] = edges
    return out


class _Reader:
    """Reads gqlir's schema JSON with errors that name the JSON path of the problem."""

    def __init__(self) -> None:
        self.path: list[str] = []

    def fail(self, message: str) -> SchemaError:
        where = "".join(self.path) or "the document"
        return SchemaError(f"{where}: {message}", code="SCHEMA_JSON")

    def obj(self, value: Any, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail("expected an object")
        unknown = set(value) - allowed
        if unknown:
            raise self.fail(f"unknown field(s) {', '.join(sorted(unknown))}")
        return value

    def str_(self, d: dict[str, Any], key: str, default: Any = ...) -> Any:
        if key not in d:
            if default is ...:
                raise self.fail(f"missing {key!r}")
            return default
        v = d[key]
        if not isinstance(v, str):
            raise self.fail(f"{key!r} must be a string")
        return v

    def bool_(self, d: dict[str, Any], key: str) -> bool:
        v = d.get(key, False)
        if not isinstance(v, bool):
            raise self.fail(f"{key!r} must be true or false")
        return v

    def strs(self, d: dict[str, Any], key: str) -> tuple[str, ...]:
        v = d.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.fail(f"{key!r} must be a list of strings")
        return tuple(v)

    def enum_(self, d: dict[str, Any], key: str, cls: type[enum.Enum]) -> Any:
        if key not in d:
            return None
        try:
            return cls(d[key])
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in cls)
            raise self.fail(f"{key!r} must be one of {allowed}") from None

    def properties(self, d: dict[str, Any]) -> tuple[Property, ...]:
        raw = d.get("properties", [])
        if not isinstance(raw, list):
            raise self.fail("'properties' must be a list")
        out = []
        for i, p in enumerate(raw):
            self.path.append(f".properties[{i}]")
            p = self.obj(
                p,
                {
                    "name",
                    "type",
                    "required",
                    "unique",
                    "indexed",
                    "unit",
                    "description",
                    "categorical",
                    "phrase",
                },
            )
            try:
                ptype = parse_type(self.str_(p, "type"))
            except SchemaError as exc:
                raise self.fail(exc.message) from None
            out.append(
                Property(
                    name=self.str_(p, "name"),
                    type=ptype,
                    required=self.bool_(p, "required"),
                    unique=self.bool_(p, "unique"),
                    indexed=self.bool_(p, "indexed"),
                    unit=self.str_(p, "unit", None),
                    description=self.str_(p, "description", None),
                    categorical=self.bool_(p, "categorical"),
                    phrase=self.str_(p, "phrase", None),
                )
            )
            self.path.pop()
        return tuple(out)


def schema_from_dict(data: Any) -> SchemaGraph:
    """Build a schema from gqlir's JSON document; errors name the offending JSON path."""
    r = _Reader()
    d = r.obj(data, {"format", "version", "name", "description", "nodes", "edges"})
    fmt = d.get("format", FORMAT_NAME)
    if fmt != FORMAT_NAME:
        raise r.fail(f"'format' is {fmt!r}, expected {FORMAT_NAME!r}")
    version = d.get("version", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise r.fail(f"unsupported version {version!r} (this gqlir reads {FORMAT_VERSION})")
    nodes = []
    for i, n in enumerate(d.get("nodes", [])):
        r.path = [f"nodes[{i}]"]
        n = r.obj(
            n, {"label", "extra_labels", "description", "key", "properties", "phrase", "plural"}
        )
        try:
            nodes.append(
                NodeType(
                    label=r.str_(n, "label"),
                    properties=r.properties(n),
                    keys=r.strs(n, "key"),
                    extra_labels=r.strs(n, "extra_labels"),
                    description=r.str_(n, "description", None),
                    phrase=r.str_(n, "phrase", None),
                    plural=r.str_(n, "plural", None),
                )
            )
        except SchemaError as exc:
            if exc.code == "SCHEMA_JSON":
                raise
            raise r.fail(exc.message) from None
    edges = []
    for i, e in enumerate(d.get("edges", [])):
        r.path = [f"edges[{i}]"]
        e = r.obj(
            e,
            {
                "label",
                "endpoints",
                "description",
                "key",
                "properties",
                "cardinality",
                "participation",
                "implies",
                "symmetric",
                "time_sensitive",
                "phrase",
                "inverse",
            },
        )
        eps = e.get("endpoints", [])
        if not isinstance(eps, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in eps
        ):
            raise r.fail("'endpoints' must be a list of [source, target] label pairs")
        part = e.get("participation", {})
        part = r.obj(part, {"source", "target"})
        try:
            edges.append(
                EdgeType(
                    label=r.str_(e, "label"),
                    endpoints=tuple(Endpoint(s, t) for s, t in eps),
                    properties=r.properties(e),
                    keys=r.strs(e, "key"),
                    cardinality=r.enum_(e, "cardinality", Cardinality),
                    source_participation=r.enum_(part, "source", Participation),
                    target_participation=r.enum_(part, "target", Participation),
                    implies=r.strs(e, "implies"),
                    symmetric=r.bool_(e, "symmetric"),
                    time_sensitive=r.bool_(e, "time_sensitive"),
                    description=r.str_(e, "description", None),
                    phrase=r.str_(e, "phrase", None),
                    inverse=r.str_(e, "inverse", None),
                )
            )
        except SchemaError as exc:
            if exc.code == "SCHEMA_JSON":
                raise
            raise r.fail(exc.message) from None
    r.path = []
    return SchemaGraph(
        name=r.str_(d, "name", ""),
        description=r.str_(d, "description", None),
        node_types=tuple(nodes),
        edge_types=tuple(edges),
    )


def compact_json(value: Any, depth: int = 0, width: int = 100) -> str:
    """Indented JSON whose small objects and lists stay on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + 2 * depth <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {compact_json(v, depth + 1, width)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    items = [pad + compact_json(v, depth + 1, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
