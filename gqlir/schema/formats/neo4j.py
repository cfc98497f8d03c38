"""Neo4j constraints and indexes (Cypher schema commands), and reading the schema of a live
Neo4j-compatible database over Bolt.

Written (Neo4j 5, https://neo4j.com/docs/cypher-manual/current/constraints/ and
…/indexes/search-performance-indexes/managing-indexes/):

* a property type constraint per property, ``REQUIRE n.p IS :: TYPE`` (Neo4j 5.9+), which
  declares the property and its type;
* ``IS NODE KEY`` / ``IS RELATIONSHIP KEY`` for keys, ``IS UNIQUE``, ``IS NOT NULL``;
* ``CREATE INDEX … FOR (n:L) ON (n.p)`` for indexed properties.

Neo4j declares no labels, relationship types or endpoints on their own: a node or edge type
without properties, edge endpoints, extra labels, descriptions, units and the relation
annotations cannot be written, and types Neo4j lacks (INT32, DECIMAL, …) are widened or become
strings; the round-trip check reports all of it.

:func:`read_live` reads a running database: ``db.schema.nodeTypeProperties()``,
``db.schema.relTypeProperties()``, ``SHOW CONSTRAINTS``, ``SHOW INDEXES`` and the distinct
(source labels, type, target labels) triples of the stored relationships.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ...errors import SchemaError
from ...optional import require
from ..model import EdgeType, Endpoint, NodeType, Property, SchemaGraph
from ..types import NEO4J, PropertyType, TypeKind
from ._ddl import Cursor, quote_ident

RESERVED = frozenset(
    """ALL ASC ASCENDING BY CREATE DELETE DESC DESCENDING DETACH EXISTS LIMIT MATCH MERGE ON
    OPTIONAL ORDER REMOVE RETURN SET SKIP WHERE WITH UNION UNWIND AND AS CONTAINS DISTINCT ENDS
    IN IS NOT OR STARTS XOR CASE ELSE END THEN WHEN FALSE NULL TRUE CONSTRAINT INDEX FOR REQUIRE
    KEY NODE RELATIONSHIP UNIQUE DROP IF TYPE""".split()
)


def _q(name: str) -> str:
    return quote_ident(name, "`", RESERVED)


def _cname(*parts: str) -> str:
    return "_".join(parts)


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    out: list[str] = []
    for el in schema.elements():
        is_node = isinstance(el, NodeType)
        v = "n" if is_node else "r"
        target = f"(n:{_q(el.label)})" if is_node else f"()-[r:{_q(el.label)}]-()"
        kind = "NODE KEY" if is_node else "RELATIONSHIP KEY"
        if el.keys:
            props = ", ".join(f"{v}.{_q(k)}" for k in el.keys)
            out.append(
                f"CREATE CONSTRAINT {_q(_cname(el.label, 'key'))} IF NOT EXISTS FOR {target} "
                f"REQUIRE ({props}) IS {kind}"
            )
        for p in el.properties:
            if p.type.kind != TypeKind.ANY:
                out.append(
                    f"CREATE CONSTRAINT {_q(_cname(el.label, p.name, 'type'))} IF NOT EXISTS "
                    f"FOR {target} REQUIRE {v}.{_q(p.name)} IS :: {NEO4J.render(p.type)}"
                )
            if p.required and p.name not in el.keys:
                out.append(
                    f"CREATE CONSTRAINT {_q(_cname(el.label, p.name, 'required'))} IF NOT EXISTS "
                    f"FOR {target} REQUIRE {v}.{_q(p.name)} IS NOT NULL"
                )
            if p.unique:
                out.append(
                    f"CREATE CONSTRAINT {_q(_cname(el.label, p.name, 'unique'))} IF NOT EXISTS "
                    f"FOR {target} REQUIRE {v}.{_q(p.name)} IS UNIQUE"
                )
            if p.indexed:
                out.append(
                    f"CREATE INDEX {_q(_cname(el.label, p.name, 'index'))} IF NOT EXISTS "
                    f"FOR {target} ON ({v}.{_q(p.name)})"
                )
    return "".join(s + ";\n" for s in out)


class _Element:
    """What the statements say about one label or relationship type."""

    def __init__(self) -> None:
        self.types: dict[str, PropertyType] = {}
        self.order: list[str] = []
        self.required: set[str] = set()
        self.unique: set[str] = set()
        self.indexed: set[str] = set()
        self.keys: tuple[str, ...] = ()

    def mention(self, prop: str) -> None:
        if prop not in self.order:
            self.order.append(prop)

    def build_properties(self) -> tuple[Property, ...]:
        return tuple(
            Property(
                p,
                self.types.get(p, PropertyType(TypeKind.ANY)),
                required=p in self.required,
                unique=p in self.unique,
                indexed=p in self.indexed,
            )
            for p in self.order
        )


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    c = Cursor(text, backslash_escapes=True)
    nodes: dict[str, _Element] = {}
    rels: dict[str, _Element] = {}
    while not c.at_end():
        if (
            c.accept_kw("CREATE", "CONSTRAINT")
            or c.accept_kw("CREATE", "INDEX")
            or c.accept_kw("CREATE", "RANGE", "INDEX")
        ):
            is_index = c.tokens[c.i - 1].is_kw("INDEX")
            if not c.at_kw("IF", "FOR"):
                c.ident("a name")
            c.accept_kw("IF", "NOT", "EXISTS")
            c.expect_kw("FOR")
            var, label, is_node = _target(c)
            el = (nodes if is_node else rels).setdefault(label, _Element())
            if is_index:
                c.expect_kw("ON")
                props = _prop_list(c, var)
                for p in props:
                    el.mention(p)
                if len(props) == 1:
                    el.indexed.add(props[0])
            else:
                c.expect_kw("REQUIRE")
                props = _prop_list(c, var)
                for p in props:
                    el.mention(p)
                c.expect_kw("IS")
                if c.accept("::") or c.accept_kw("TYPED"):
                    tok = c.tok
                    raw = c.raw_until(";")
                    try:
                        el.types[props[0]] = NEO4J.parse(raw)
                    except SchemaError as exc:
                        raise c.error(exc.message, tok) from None
                elif c.accept_kw("NOT", "NULL"):
                    el.required.update(props)
                elif c.accept_kw("UNIQUE"):
                    if len(props) == 1:
                        el.unique.add(props[0])
                elif (
                    c.accept_kw("NODE", "KEY")
                    or c.accept_kw("RELATIONSHIP", "KEY")
                    or c.accept_kw("KEY")
                ):
                    el.keys = tuple(props)
                else:
                    raise c.error(f"unexpected {c.describe()} in a constraint")
            if c.accept_kw("OPTIONS"):
                c.skip_balanced()
        else:
            raise c.error(f"unexpected {c.describe()}: expected CREATE CONSTRAINT or CREATE INDEX")
        c.statement_end()
    node_types = tuple(NodeType(lbl, e.build_properties(), keys=e.keys) for lbl, e in nodes.items())
    edge_types = tuple(
        EdgeType(lbl, (), e.build_properties(), keys=e.keys) for lbl, e in rels.items()
    )
    return SchemaGraph(name=name, node_types=node_types, edge_types=edge_types)


def _target(c: Cursor) -> tuple[str, str, bool]:
    """``(n:Label)`` or ``()-[r:TYPE]-()`` (arrows allowed)."""
    c.expect("(")
    if c.accept(")"):
        if not (c.accept("-[") or (c.accept("<-[")) or (c.accept("-") and c.accept("["))):
            raise c.error("expected a relationship pattern ()-[r:TYPE]-()")
        var = c.ident("a variable")
        c.expect(":")
        label = c.ident("a relationship type")
        if not (c.accept("]-") or c.accept("]->")):
            c.expect("]")
            c.accept("-") or c.accept("->")
        c.expect("(")
        c.expect(")")
        return var, label, False
    var = c.ident("a variable")
    c.expect(":")
    label = c.ident("a label")
    c.expect(")")
    return var, label, True


def _prop_list(c: Cursor, var: str) -> list[str]:
    paren = c.accept("(")
    out = []
    while True:
        v = c.ident("a variable")
        if v != var:
            raise c.error(f"expected {var}.property")
        c.expect(".")
        out.append(c.ident("a property"))
        if not (paren and c.accept(",")):
            break
    if paren:
        c.expect(")")
    return out


# -- live databases ------------------------------------------------------------------------------

# db.schema.nodeTypeProperties() type names (Neo4j 5 procedure reference,
# https://neo4j.com/docs/operations-manual/current/procedures/#procedure_db_schema_nodetypeproperties).
_LIVE_TYPES: dict[str, PropertyType] = {
    "String": PropertyType(TypeKind.STRING),
    "Long": PropertyType(TypeKind.INT64),
    "Integer": PropertyType(TypeKind.INT64),
    "Double": PropertyType(TypeKind.FLOAT64),
    "Float": PropertyType(TypeKind.FLOAT64),
    "Boolean": PropertyType(TypeKind.BOOLEAN),
    "Date": PropertyType(TypeKind.DATE),
    "DateTime": PropertyType(TypeKind.DATETIME),
    "LocalDateTime": PropertyType(TypeKind.LOCAL_DATETIME),
    "Time": PropertyType(TypeKind.TIME),
    "LocalTime": PropertyType(TypeKind.LOCAL_TIME),
    "Duration": PropertyType(TypeKind.DURATION),
    "Point": PropertyType(TypeKind.POINT),
}


def _live_type(names: list[str] | None) -> PropertyType:
    distinct = sorted(set(names or []))
    if len(distinct) != 1:
        return PropertyType(TypeKind.ANY)
    n = distinct[0]
    if n.endswith("Array"):
        return PropertyType(TypeKind.LIST, element=_live_type([n[: -len("Array")]]))
    return _LIVE_TYPES.get(n, PropertyType(TypeKind.ANY))


def _unwrap_type(s: str) -> str:
    """``:`Person``` → ``Person`` (db.schema.*TypeProperties names)."""
    s = s.lstrip(":")
    if s.startswith("`") and s.endswith("`"):
        s = s[1:-1].replace("``", "`")
    return s


def read_live(driver: Any, database: str | None = None, *, name: str = "") -> SchemaGraph:
    """The schema of a live Neo4j-compatible database.

    ``driver`` is a ``neo4j.Driver`` (or anything with ``session(database=…)`` whose ``run(q)``
    returns a result with ``data()``). Node types are the label combinations the database
    reports (a node with several labels gets the first as its type and the rest as extra
    labels); properties are mandatory when every node has them; types come from the stored
    values, narrowed by type constraints; keys, uniqueness and indexes come from SHOW
    CONSTRAINTS / SHOW INDEXES; endpoints from the stored relationships.
    """
    with driver.session(database=database) as session:
        node_rows = session.run("CALL db.schema.nodeTypeProperties()").data()
        rel_rows = session.run("CALL db.schema.relTypeProperties()").data()
        triples = session.run(
            "MATCH (a)-[r]->(b) RETURN DISTINCT labels(a) AS source, type(r) AS type, "
            "labels(b) AS target"
        ).data()
        constraints = session.run("SHOW CONSTRAINTS").data()
        indexes = session.run("SHOW INDEXES").data()
    nodes: dict[str, dict[str, Any]] = {}
    for row in node_rows:
        labels = sorted(row.get("nodeLabels") or [])
        if not labels:
            continue
        spec = nodes.setdefault(labels[0], {"extra": tuple(labels[1:]), "props": {}})
        pname = row.get("propertyName")
        if pname:
            spec["props"][pname] = (
                _live_type(row.get("propertyTypes")),
                bool(row.get("mandatory")),
            )
    rels: dict[str, dict[str, Any]] = {}
    for row in rel_rows:
        label = _unwrap_type(row.get("relType") or "")
        if not label:
            continue
        spec = rels.setdefault(label, {"props": {}, "endpoints": []})
        pname = row.get("propertyName")
        if pname:
            spec["props"][pname] = (
                _live_type(row.get("propertyTypes")),
                bool(row.get("mandatory")),
            )
    for row in triples:
        src, dst = sorted(row["source"] or []), sorted(row["target"] or [])
        if not src or not dst:
            continue
        spec = rels.setdefault(row["type"], {"props": {}, "endpoints": []})
        ep = Endpoint(src[0], dst[0])
        if ep not in spec["endpoints"]:
            spec["endpoints"].append(ep)
        for lab in (src, dst):
            nodes.setdefault(lab[0], {"extra": tuple(lab[1:]), "props": {}})
    keys: dict[str, tuple[str, ...]] = {}
    unique: set[tuple[str, str]] = set()
    required: set[tuple[str, str]] = set()
    typed: dict[tuple[str, str], PropertyType] = {}
    for row in constraints:
        ctype = (row.get("type") or "").upper()
        owners = row.get("labelsOrTypes") or []
        props = row.get("properties") or []
        if not owners or not props:
            continue
        owner = owners[0]
        if ctype.endswith("KEY"):
            keys[owner] = tuple(props)
        elif ctype.endswith("UNIQUENESS") and len(props) == 1:
            unique.add((owner, props[0]))
        elif ctype.endswith("PROPERTY_EXISTENCE"):
            required.update((owner, p) for p in props)
        elif ctype.endswith("PROPERTY_TYPE") and row.get("propertyType"):
            with contextlib.suppress(SchemaError):  # a type gqlir cannot name: keep the stored one
                typed[(owner, props[0])] = NEO4J.parse(row["propertyType"])
    indexed: set[tuple[str, str]] = set()
    for row in indexes:
        if row.get("owningConstraint") or (row.get("type") or "").upper() in ("LOOKUP",):
            continue
        owners = row.get("labelsOrTypes") or []
        props = row.get("properties") or []
        if owners and len(props) == 1:
            indexed.add((owners[0], props[0]))

    def build(owner: str, props: dict[str, tuple[PropertyType, bool]]) -> tuple[Property, ...]:
        out = []
        for pname, (ptype, mandatory) in props.items():
            out.append(
                Property(
                    pname,
                    typed.get((owner, pname), ptype),
                    required=mandatory or (owner, pname) in required,
                    unique=(owner, pname) in unique,
                    indexed=(owner, pname) in indexed,
                )
            )
        return tuple(out)

    node_types = []
    for label, spec in nodes.items():
        k = tuple(p for p in keys.get(label, ()) if p in spec["props"])
        node_types.append(
            NodeType(label, build(label, spec["props"]), keys=k, extra_labels=spec["extra"])
        )
    edge_types = []
    for label, spec in rels.items():
        k = tuple(p for p in keys.get(label, ()) if p in spec["props"])
        edge_types.append(
            EdgeType(label, tuple(spec["endpoints"]), build(label, spec["props"]), keys=k)
        )
    return SchemaGraph(name=name, node_types=tuple(node_types), edge_types=tuple(edge_types))


def connect(uri: str, user: str | None = None, password: str | None = None) -> Any:
    """A ``neo4j`` driver for ``uri`` (the optional ``neo4j`` package)."""
    neo4j = require("neo4j", extra="engines", purpose="reading the schema of a live database")
    auth = (user, password or "") if user else None
    return neo4j.GraphDatabase.driver(uri, auth=auth)


__all__ = ["connect", "read", "read_live", "write"]
