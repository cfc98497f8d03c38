"""The mapping file: a gqlir schema document (docs/schema-format.md) whose node types, edge
types and properties carry an ``rdf`` block saying where in an RDF graph their elements and
values come from (docs/rdf.md).

Reading it strips the ``rdf`` blocks, reads the rest as a :class:`SchemaGraph` (so the schema
rules and their messages are the schema format's own), and checks the RDF side against the
schema: every error names the JSON path and points at the line and column of the value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import SchemaError
from ..schema.model import Endpoint, Property, SchemaGraph, schema_from_dict
from ..schema.types import INTEGER_KINDS, PropertyType, TypeKind
from .errors import MappingError
from .jsontext import JsonPath, load_json, locate, parse_path_text, path_text
from .terms import RDF, RDFS, XSD, is_valid_iri
from .units import registry_problem, unit_problem

FORMAT_NAME = "gqlir-rdf-mapping"
FORMAT_VERSION = 1

K = TypeKind

WIKIDATA_PREFIXES = {
    "wd": "http://www.wikidata.org/entity/",
    "wdt": "http://www.wikidata.org/prop/direct/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "psv": "http://www.wikidata.org/prop/statement/value/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "pqv": "http://www.wikidata.org/prop/qualifier/value/",
    "wikibase": "http://wikiba.se/ontology#",
    "schema": "http://schema.org/",
}
COMMON_PREFIXES = {"rdf": RDF, "rdfs": RDFS, "xsd": XSD}
MODELS = ("wikidata", "plain")
RANKS = ("highest", "non_deprecated")
SOURCES = ("label", "id", "iri")
FILLABLE = INTEGER_KINDS | {K.BOOLEAN, K.FLOAT32, K.FLOAT64, K.DECIMAL, K.STRING, K.DATE}
NUMERIC = INTEGER_KINDS | {K.FLOAT32, K.FLOAT64, K.DECIMAL}
DEFAULT_MIN_PRECISION = {"date": 11, "year": 9}  # Wikidata: 11 = day, 9 = year
_PROPERTY_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_LANGUAGE_TAG = re.compile(r"([a-z]{1,8}(-[a-z0-9]{1,8})*)?\Z")  # "" is a literal without a tag


@dataclass(frozen=True, slots=True)
class ValueSpec:
    """How one property of the schema is filled.

    ``source`` is ``predicate`` (a statement or triple of the element), ``qualifier`` (a
    qualifier of an edge's statement), or ``label`` / ``id`` / ``iri`` (the entity itself).
    ``shape`` says which parts of an RDF value are read: ``time`` (value and precision),
    ``quantity`` (amount and unit) or ``plain``.
    """

    name: str
    type: PropertyType
    source: str
    predicate: str | None = None
    shape: str = "plain"
    year: bool = False
    min_precision: int | None = None
    unit: str | None = None
    source_unit: str | None = None
    rank: str = "highest"
    required: bool = False

    @property
    def element_type(self) -> PropertyType:
        """The type of one value (the element type of a list)."""
        if self.type.kind == K.LIST and self.type.element is not None:
            return self.type.element
        return self.type

    @property
    def is_list(self) -> bool:
        return self.type.kind == K.LIST


@dataclass(frozen=True, slots=True)
class NodeMapping:
    """Which RDF resources become nodes of a type: instances of ``classes`` (with their
    subclasses when asked), matching every ``where`` pattern, and, with ``linked_by``, only those
    an edge of the listed types connects to a node already in the graph."""

    label: str
    classes: tuple[str, ...] = ()
    subclasses: bool = False
    where: tuple[tuple[str, str | None], ...] = ()
    linked_by: tuple[str, ...] = ()
    properties: tuple[ValueSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class EdgeMapping:
    """Which statements (or triples) become edges of a type; ``inverse`` when the edge points
    from the RDF object to the RDF subject."""

    label: str
    predicate: str
    endpoints: tuple[Endpoint, ...]
    inverse: bool = False
    rank: str = "highest"
    properties: tuple[ValueSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class Mapping:
    """A parsed mapping file. ``nodes`` are in fetch order: types fetched by class first, then
    the ``linked_by`` types after the types they depend on."""

    schema: SchemaGraph
    model: str
    prefixes: dict[str, str]
    instance_of: str
    subclass_of: str
    label_predicate: str
    languages: tuple[str, ...]
    units: dict[str, str]
    unit_definitions: tuple[str, ...]
    page_size: int
    batch_size: int
    ids: str
    nodes: tuple[NodeMapping, ...]
    edges: tuple[EdgeMapping, ...]
    _by_label: dict[str, NodeMapping] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_label.update({n.label: n for n in self.nodes})

    def node(self, label: str) -> NodeMapping:
        return self._by_label[label]

    @property
    def languages_text(self) -> str:
        """The label languages for messages (``en, fr``; a plain literal is ``(none)``)."""
        return ", ".join(lang or "(none)" for lang in self.languages)

    def edge(self, label: str) -> EdgeMapping:
        return next(e for e in self.edges if e.label == label)

    def statement_iri(self, prefix: str, property_id: str) -> str:
        """A property's IRI in one of the statement-model namespaces (``p:P569``,
        ``ps:P569``, ``pqv:P580`` …), from the mapping's prefixes."""
        return self.prefixes[prefix] + property_id

    @property
    def wikibase(self) -> str:
        return self.prefixes["wikibase"]


class _Reader:
    """Reads the RDF side of a mapping; errors carry the JSON path and the text position."""

    def __init__(self, text: str, origin: str) -> None:
        self.text = text
        self.origin = origin
        self.prefixes: dict[str, str] = {}
        self.model = "wikidata"
        self.unit_definitions: tuple[str, ...] = ()

    def fail(self, path: JsonPath, message: str) -> MappingError:
        offset = locate(self.text, path)
        return MappingError(
            f"{self.origin}: {path_text(path)}: {message}", text=self.text, offset=offset
        )

    def obj(self, value: Any, path: JsonPath, allowed: Sequence[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, "expected an object")
        for key in value:
            if key not in allowed:
                raise self.fail(
                    [*path, key], f"unknown field {key!r} (allowed: {', '.join(allowed)})"
                )
        return value

    def table(self, d: dict[str, Any], key: str, path: JsonPath) -> dict[str, Any]:
        """An object with free keys (prefixes, units)."""
        v = d.get(key, {})
        if not isinstance(v, dict):
            raise self.fail([*path, key], f"{key!r} must be an object")
        return v

    def get(self, d: dict[str, Any], key: str, path: JsonPath, kind: type, default: Any) -> Any:
        if key not in d:
            return default
        v = d[key]
        if kind is int and isinstance(v, bool):
            raise self.fail([*path, key], f"{key!r} must be an integer")
        if not isinstance(v, kind):
            names = {str: "a string", bool: "true or false", int: "an integer", list: "a list"}
            raise self.fail([*path, key], f"{key!r} must be {names.get(kind, kind.__name__)}")
        return v

    def strings(self, d: dict[str, Any], key: str, path: JsonPath) -> tuple[str, ...]:
        """A string or a list of strings."""
        v = d.get(key, [])
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.fail([*path, key], f"{key!r} must be a string or a list of strings")
        return tuple(v)

    def choice(
        self, d: dict[str, Any], key: str, path: JsonPath, options: Sequence[str], default: Any
    ) -> Any:
        v = self.get(d, key, path, str, default)
        if v is not default and v not in options:
            raise self.fail([*path, key], f"{key!r} must be one of {', '.join(options)}")
        return v

    def iri(self, text: str, path: JsonPath) -> str:
        """A prefixed name (``wd:Q5``), ``<full IRI>`` or a bare absolute IRI, expanded."""
        if text.startswith("<") and text.endswith(">"):
            iri = text[1:-1]
        else:
            prefix, sep, local = text.partition(":")
            if sep and prefix in self.prefixes:
                iri = self.prefixes[prefix] + local
            elif "://" in text:
                iri = text
            else:
                raise self.fail(
                    path,
                    f"unknown prefix in {text!r}: declare it under rdf.prefixes or write the "
                    "full IRI in <…>",
                )
        if not is_valid_iri(iri):
            raise self.fail(path, f"{text!r} is not a valid IRI")
        return iri

    def predicate(self, text: str, path: JsonPath) -> str:
        """A statement property id (wikidata model) or a predicate IRI (plain model)."""
        if self.model == "wikidata":
            if not _PROPERTY_ID.match(text):
                raise self.fail(
                    path,
                    f"{text!r}: in the wikidata model a predicate is a property id such as "
                    "'P569' (its statement IRIs come from the p:, ps:, psv:, pq: prefixes)",
                )
            return text
        return self.iri(text, path)

    def unit(self, expression: str, path: JsonPath) -> str:
        why = unit_problem(expression, self.unit_definitions)
        if why:
            raise self.fail(path, why)
        return expression


def parse_mapping(text: str, origin: str = "<mapping>") -> Mapping:
    """Read a mapping from its JSON text; ``origin`` names it in messages."""
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise MappingError(
            f"{origin}: not valid JSON: {exc.msg}", text=text, offset=exc.pos
        ) from None
    except ValueError as exc:
        raise MappingError(f"{origin}: not valid JSON: {exc}") from None
    r = _Reader(text, origin)
    top = r.obj(data, [], ("format", "version", "name", "description", "rdf", "nodes", "edges"))
    if top.get("format") != FORMAT_NAME:
        raise r.fail(["format"] if "format" in top else [], f"'format' must be {FORMAT_NAME!r}")
    if top.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        raise r.fail(["version"], f"unsupported version (this gqlir reads {FORMAT_VERSION})")
    schema = _read_schema(r, top)
    settings = _read_settings(r, top.get("rdf", {}))
    nodes = tuple(_read_node(r, schema, raw, i) for i, raw in enumerate(_list(r, top, "nodes")))
    edges = tuple(_read_edge(r, schema, raw, i) for i, raw in enumerate(_list(r, top, "edges")))
    ordered = _fetch_order(r, schema, nodes)
    return Mapping(schema=schema, nodes=ordered, edges=edges, **settings)


def load_mapping(path: str) -> Mapping:
    """Read a mapping file."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise MappingError(f"cannot read {path!r}: {exc}") from None
    return parse_mapping(text, path)


def _list(r: _Reader, d: dict[str, Any], key: str, path: JsonPath = ()) -> list[Any]:
    v = d.get(key, [])
    if not isinstance(v, list):
        raise r.fail([*path, key], f"{key!r} must be a list")
    return v


def _read_values(
    r: _Reader, properties: Sequence[Property], raw: dict[str, Any], at: JsonPath, edge: bool
) -> tuple[ValueSpec, ...]:
    """The value specs of a node or edge type's properties (``raw`` is its JSON object)."""
    raw_props = raw.get("properties", [])
    return tuple(
        _read_value(r, p, raw_props[j], [*at, "properties", j], edge)
        for j, p in enumerate(properties)
    )


def _without_rdf(value: Any) -> Any:
    """The document with every ``rdf`` block removed: the plain schema document."""
    if isinstance(value, dict):
        return {k: _without_rdf(v) for k, v in value.items() if k != "rdf"}
    if isinstance(value, list):
        return [_without_rdf(v) for v in value]
    return value


def _read_schema(r: _Reader, top: dict[str, Any]) -> SchemaGraph:
    doc = {k: v for k, v in top.items() if k in ("name", "description", "nodes", "edges")}
    try:
        return schema_from_dict(_without_rdf(doc))
    except SchemaError as exc:
        where, sep, message = exc.message.partition(": ")
        path = parse_path_text(where) if sep and re.match(r"(nodes|edges)\[", where) else []
        raise r.fail(path, message if path else exc.message) from None


def _read_settings(r: _Reader, raw: Any) -> dict[str, Any]:
    base = ["rdf"]
    d = r.obj(
        raw,
        base,
        (
            "model",
            "prefixes",
            "instance_of",
            "subclass_of",
            "labels",
            "units",
            "unit_definitions",
            "page_size",
            "batch_size",
            "ids",
        ),
    )
    r.model = r.choice(d, "model", base, MODELS, "wikidata")
    prefixes = dict(COMMON_PREFIXES)
    if r.model == "wikidata":
        prefixes |= WIKIDATA_PREFIXES
    declared = r.table(d, "prefixes", base)
    for name, iri in declared.items():
        if not isinstance(iri, str) or not is_valid_iri(iri):
            raise r.fail([*base, "prefixes", name], "a prefix must map to an absolute IRI")
        prefixes[name] = iri
    r.prefixes = prefixes
    definitions = r.strings(d, "unit_definitions", base)
    problem = registry_problem(definitions) if definitions else None
    if problem:
        raise r.fail([*base, "unit_definitions", problem[0]], problem[1])
    r.unit_definitions = definitions
    wikidata = r.model == "wikidata"
    labels = r.obj(d.get("labels", {}), [*base, "labels"], ("predicate", "languages"))
    languages = tuple(
        lang.lower() for lang in r.strings(labels, "languages", [*base, "labels"])
    ) or ("en",)
    for j, lang in enumerate(languages):
        if not _LANGUAGE_TAG.match(lang):
            raise r.fail([*base, "labels", "languages", j], f"{lang!r} is not a language tag")
    units_raw = r.table(d, "units", base)
    units = {}
    for key, expr in units_raw.items():
        path = [*base, "units", key]
        if not isinstance(expr, str):
            raise r.fail(path, "a unit must be given as a pint unit expression (a string)")
        units[r.iri(key, path)] = r.unit(expr, path)
    out = {
        "model": r.model,
        "prefixes": prefixes,
        "instance_of": r.iri(
            r.get(d, "instance_of", base, str, "wdt:P31" if wikidata else "rdf:type"),
            [*base, "instance_of"],
        ),
        "subclass_of": r.iri(
            r.get(d, "subclass_of", base, str, "wdt:P279" if wikidata else "rdfs:subClassOf"),
            [*base, "subclass_of"],
        ),
        "label_predicate": r.iri(
            r.get(labels, "predicate", [*base, "labels"], str, "rdfs:label"),
            [*base, "labels", "predicate"],
        ),
        "languages": languages,
        "units": units,
        "unit_definitions": definitions,
        "ids": r.choice(d, "ids", base, ("local", "iri"), "local"),
    }
    for key, default in (("page_size", 1000), ("batch_size", 200)):
        n = r.get(d, key, base, int, default)
        if n < 1:
            raise r.fail([*base, key], f"{key!r} must be at least 1")
        out[key] = n
    return out


def _rdf_block(
    r: _Reader, raw: dict[str, Any], at: JsonPath, what: str, allowed: Sequence[str]
) -> dict[str, Any]:
    """The ``rdf`` block of a node type, edge type or property, which every one needs."""
    if "rdf" not in raw:
        raise r.fail(at, f"{what} has no 'rdf' block")
    return r.obj(raw["rdf"], [*at, "rdf"], allowed)


def _read_node(r: _Reader, schema: SchemaGraph, raw: dict[str, Any], i: int) -> NodeMapping:
    path: list[str | int] = ["nodes", i, "rdf"]
    nt = schema.node_types[i]
    allowed = ("class", "subclasses", "where", "linked_by")
    d = _rdf_block(r, raw, ["nodes", i], f"node type {nt.label}", allowed)
    classes = tuple(
        r.iri(c, [*path, "class"] + ([j] if isinstance(d["class"], list) else []))
        for j, c in enumerate(r.strings(d, "class", path))
    )
    linked_by = r.strings(d, "linked_by", path)
    if not classes and not linked_by:
        raise r.fail(path, f"node type {nt.label} needs a 'class', 'linked_by', or both")
    for j, label in enumerate(linked_by):
        et = schema.edge(label)
        where = [*path, "linked_by"] + ([j] if isinstance(d["linked_by"], list) else [])
        if et is None:
            raise r.fail(where, f"{label!r} is not an edge type of the schema")
        if nt.label not in et.sources and nt.label not in et.targets:
            raise r.fail(where, f"edge type {label} does not connect {nt.label}")
    where_patterns = []
    for j, pattern in enumerate(_list(r, d, "where", path)):
        p = r.obj(pattern, [*path, "where", j], ("predicate", "object"))
        if "predicate" not in p:
            raise r.fail([*path, "where", j], "a 'where' pattern needs a 'predicate'")
        pred = r.iri(r.get(p, "predicate", [*path, "where", j], str, ""), [*path, "where", j])
        obj = r.get(p, "object", [*path, "where", j], str, None)
        where_patterns.append((pred, r.iri(obj, [*path, "where", j, "object"]) if obj else None))
    return NodeMapping(
        label=nt.label,
        classes=classes,
        subclasses=r.get(d, "subclasses", path, bool, False),
        where=tuple(where_patterns),
        linked_by=linked_by,
        properties=_read_values(r, nt.properties, raw, ["nodes", i], edge=False),
    )


def _read_edge(r: _Reader, schema: SchemaGraph, raw: dict[str, Any], i: int) -> EdgeMapping:
    path: list[str | int] = ["edges", i, "rdf"]
    et = schema.edge_types[i]
    d = _rdf_block(r, raw, ["edges", i], f"edge type {et.label}", ("predicate", "inverse", "rank"))
    if not et.endpoints:
        raise r.fail(
            ["edges", i], f"edge type {et.label} needs endpoints: they say which nodes it joins"
        )
    if "predicate" not in d:
        raise r.fail(path, f"edge type {et.label} needs a 'predicate'")
    default_rank = "non_deprecated" if et.time_sensitive else "highest"
    rank = r.choice(d, "rank", path, RANKS, default_rank)
    if "rank" in d and r.model != "wikidata":
        raise r.fail([*path, "rank"], "ranks exist in the wikidata (statement) model only")
    return EdgeMapping(
        label=et.label,
        predicate=r.predicate(r.get(d, "predicate", path, str, ""), [*path, "predicate"]),
        endpoints=et.endpoints,
        inverse=r.get(d, "inverse", path, bool, False),
        rank=rank,
        properties=_read_values(r, et.properties, raw, ["edges", i], edge=True),
    )


def _read_value(
    r: _Reader, prop: Property, raw: dict[str, Any], at: JsonPath, edge: bool
) -> ValueSpec:
    path = [*at, "rdf"]
    keys = ("qualifier",) if edge else ("predicate", "from", "rank")
    allowed = (*keys, "year", "min_precision", "unit", "source_unit")
    d = _rdf_block(r, raw, at, f"property {prop.name!r}", allowed)
    ptype: PropertyType = prop.type
    element = ptype.element if ptype.kind == K.LIST and ptype.element is not None else ptype
    if element.kind not in FILLABLE or (ptype.kind == K.LIST and element.kind == K.LIST):
        supported = "BOOLEAN, integers, FLOAT32/64, DECIMAL, STRING, DATE and lists of them"
        raise r.fail([*at, "type"], f"{ptype} cannot be filled from RDF (supported: {supported})")
    if not edge and ("from" in d) == ("predicate" in d):
        raise r.fail(path, "give either 'predicate' or 'from'")
    if edge and "qualifier" not in d:
        raise r.fail(path, "an edge property needs a 'qualifier'")
    if edge and r.model != "wikidata":
        raise r.fail(path, "edge properties come from qualifiers: the wikidata model only")
    if "rank" in d and r.model != "wikidata":
        raise r.fail([*path, "rank"], "ranks exist in the wikidata (statement) model only")
    year = r.get(d, "year", path, bool, False)
    if year and element.kind not in INTEGER_KINDS:
        raise r.fail([*path, "year"], "'year' fills an integer property")
    unit = r.get(d, "unit", path, str, None) or (prop.unit if element.kind in NUMERIC else None)
    if unit is not None:
        if element.kind not in NUMERIC:
            raise r.fail([*path, "unit"], "a unit needs a numeric property")
        r.unit(unit, [*path, "unit"] if "unit" in d else [*at, "unit"])
    source_unit = r.get(d, "source_unit", path, str, None)
    if source_unit is not None:
        if unit is None:
            raise r.fail([*path, "source_unit"], "'source_unit' needs a target unit ('unit')")
        r.unit(source_unit, [*path, "source_unit"])
    shape = "time" if (year or element.kind == K.DATE) else ("quantity" if unit else "plain")
    if shape == "quantity" and r.model == "plain" and source_unit is None:
        raise r.fail(
            path, "in the plain model a quantity needs 'source_unit': triples carry no unit"
        )
    min_precision = r.get(d, "min_precision", path, int, None)
    if min_precision is not None:
        if shape != "time":
            raise r.fail([*path, "min_precision"], "'min_precision' applies to dates and years")
        if not 0 <= min_precision <= 14:
            raise r.fail([*path, "min_precision"], "a time precision is between 0 and 14")
    elif shape == "time":
        min_precision = DEFAULT_MIN_PRECISION["year" if year else "date"]
    source = "qualifier" if edge else ("predicate" if "predicate" in d else d["from"])
    predicate = None
    if source in ("predicate", "qualifier"):
        predicate = r.predicate(r.get(d, source, path, str, ""), [*path, source])
    elif source not in SOURCES:
        raise r.fail([*path, "from"], f"'from' must be one of {', '.join(SOURCES)}")
    elif ptype.kind != K.STRING or year or unit:
        raise r.fail([*path, "from"], f"'from': {source!r} fills a STRING property")
    return ValueSpec(
        name=prop.name,
        type=ptype,
        source=source,
        predicate=predicate,
        shape=shape,
        year=year,
        min_precision=min_precision,
        unit=unit,
        source_unit=source_unit,
        rank=r.choice(d, "rank", path, RANKS, "highest"),
        required=prop.required,
    )


def _fetch_order(
    r: _Reader, schema: SchemaGraph, nodes: tuple[NodeMapping, ...]
) -> tuple[NodeMapping, ...]:
    """Node types in an order where every ``linked_by`` type comes after the types at the other
    end of its edges; a cycle is an error (nothing would start it)."""
    deps: dict[str, set[str]] = {}
    for n in nodes:
        need: set[str] = set()
        for label in n.linked_by:
            et = schema.edge(label)
            assert et is not None
            for ep in et.endpoints:
                if ep.source == n.label:
                    need.add(ep.target)
                if ep.target == n.label:
                    need.add(ep.source)
        deps[n.label] = need
    done: list[NodeMapping] = []
    placed: set[str] = set()
    pending = list(nodes)
    while pending:
        ready = [n for n in pending if deps[n.label] <= placed]
        if not ready:
            stuck = pending[0]
            i = schema.node_labels.index(stuck.label)
            cycle = ", ".join(sorted(n.label for n in pending))
            raise r.fail(
                ["nodes", i, "rdf", "linked_by"],
                f"the linked_by rules of {cycle} depend on each other in a cycle: give one of "
                "them a class and no linked_by",
            )
        done.extend(ready)
        placed.update(n.label for n in ready)
        pending = [n for n in pending if n.label not in placed]
    return tuple(done)
