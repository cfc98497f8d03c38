"""Kuzu DDL: ``CREATE NODE TABLE``, ``CREATE REL TABLE`` and ``COMMENT ON TABLE``.

Grammar: https://docs.kuzudb.com/cypher/data-definition/create-table/ (a node table has one
primary-key column; a rel table lists ``FROM a TO b`` pairs, its properties and optionally a
multiplicity ``MANY_ONE | ONE_MANY | MANY_MANY | ONE_ONE``, where ``MANY_ONE`` means each source
node has at most one such edge: gqlir's ``n:1``) and
https://docs.kuzudb.com/cypher/data-definition/comment/ . Types: :data:`gqlir.schema.types.KUZU`.

A node type without a key gets a ``SERIAL`` primary key named ``surrogate_id``; the reader takes a
``SERIAL`` primary key for such a surrogate, so the node type reads back without a key. Kuzu has
no NOT NULL, UNIQUE or secondary indexes, no composite keys and no keys on rel tables: the
round-trip check reports those.
"""

from __future__ import annotations

from dataclasses import replace

from ...errors import SchemaError
from ..model import Cardinality, EdgeType, Endpoint, NodeType, Property, SchemaGraph
from ..types import KUZU, PropertyType, TypeKind
from ._ddl import Cursor, Token, quote_ident, quote_string

RESERVED = frozenset(
    """ACYCLIC ALL AND ANY AS ASC ASCENDING BY CALL CASE CAST COLUMN CREATE DBTYPE DEFAULT DESC
    DESCENDING DISTINCT ELSE END ENDS EXISTS FALSE FROM GLOB GROUP HEADERS IN INSTALL IS LIMIT
    MACRO MATCH NOT NULL ON ONLY OPTIONAL OR ORDER PRIMARY PROFILE RETURN SHORTEST SINGLE SKIP
    STARTS THEN TO TRAIL TRUE UNION UNWIND WHEN WHERE WITH WSHORTEST XOR YIELD KEY TABLE NODE
    REL GROUP SERIAL COMMENT""".split()
)
SURROGATE = "surrogate_id"  # Kuzu reserves _id
_MULTIPLICITY = {
    Cardinality.MANY_TO_ONE: "MANY_ONE",
    Cardinality.ONE_TO_MANY: "ONE_MANY",
    Cardinality.MANY_TO_MANY: "MANY_MANY",
    Cardinality.ONE_TO_ONE: "ONE_ONE",
}
_FROM_MULTIPLICITY = {v: k for k, v in _MULTIPLICITY.items()}


def _q(name: str) -> str:
    return quote_ident(name, "`", RESERVED)


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    out: list[str] = []
    for n in schema.node_types:
        cols = [f"{_q(p.name)} {KUZU.render(p.type)}" for p in n.properties]
        if n.keys:
            cols.append(f"PRIMARY KEY ({_q(n.keys[0])})")
        else:
            cols.insert(0, f"{_q(SURROGATE)} SERIAL")
            cols.append(f"PRIMARY KEY ({_q(SURROGATE)})")
        out.append(f"CREATE NODE TABLE {_q(n.label)}({', '.join(cols)})")
    for e in schema.edge_types:
        if not e.endpoints:
            continue
        parts = [f"FROM {_q(ep.source)} TO {_q(ep.target)}" for ep in e.endpoints]
        parts += [f"{_q(p.name)} {KUZU.render(p.type)}" for p in e.properties]
        if e.cardinality is not None:
            parts.append(_MULTIPLICITY[e.cardinality])
        out.append(f"CREATE REL TABLE {_q(e.label)}({', '.join(parts)})")
    for el in schema.elements():
        if el.description is not None:
            out.append(f"COMMENT ON TABLE {_q(el.label)} IS {quote_string(el.description)}")
    return "".join(s + ";\n" for s in out)


def _type_text(c: Cursor) -> str:
    start = c.tok.offset
    c.ident("a type")
    while True:
        if c.at("(") or c.at("["):
            c.skip_balanced()
        else:
            break
    return c.text[start : c.tok.offset]


def _column(c: Cursor) -> tuple[str, str, bool, Token]:
    name = c.ident("a column name")
    tok = c.tok
    ttext = _type_text(c)
    pk = False
    while not c.at(",") and not c.at(")"):
        if c.accept_kw("PRIMARY", "KEY"):
            pk = True
        elif c.accept_kw("DEFAULT"):
            c.raw_until(",", ")")
        else:
            raise c.error(f"unexpected {c.describe()} in a column definition")
    return name, ttext, pk, tok


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    c = Cursor(text)
    nodes: list[NodeType] = []
    edges: list[EdgeType] = []
    comments: dict[str, str] = {}
    while not c.at_end():
        if c.accept_kw("CREATE", "NODE", "TABLE"):
            c.accept_kw("IF", "NOT", "EXISTS")
            label = c.ident("a table name")
            c.expect("(")
            props: list[Property] = []
            key: str | None = None
            serial: set[str] = set()
            while not c.at(")"):
                if c.accept_kw("PRIMARY", "KEY"):
                    c.expect("(")
                    key = c.ident("a key column")
                    c.expect(")")
                else:
                    col, ttext, pk, tok = _column(c)
                    if pk:
                        key = col
                    if ttext.upper() == "SERIAL":
                        serial.add(col)
                        props.append(Property(col, PropertyType(TypeKind.INT64)))
                    else:
                        try:
                            props.append(Property(col, KUZU.parse(ttext)))
                        except SchemaError as exc:
                            raise c.error(exc.message, tok) from None
                if not c.accept(","):
                    break
            c.expect(")")
            if key is None:
                raise c.error(f"node table {label} has no PRIMARY KEY")
            if key in serial:  # a surrogate key: not a property of the node type
                nodes.append(NodeType(label, tuple(p for p in props if p.name != key)))
            else:
                nodes.append(NodeType(label, tuple(props), keys=(key,)))
        elif c.accept_kw("CREATE", "REL", "TABLE"):
            c.accept_kw("GROUP")
            c.accept_kw("IF", "NOT", "EXISTS")
            label = c.ident("a table name")
            c.expect("(")
            eps: list[Endpoint] = []
            props = []
            card = None
            while not c.at(")"):
                if c.accept_kw("FROM"):
                    src = c.ident("a node table")
                    c.expect_kw("TO")
                    eps.append(Endpoint(src, c.ident("a node table")))
                elif c.tok.value.upper() in _FROM_MULTIPLICITY and c.peek().value in (",", ")"):
                    card = _FROM_MULTIPLICITY[c.next().value.upper()]
                else:
                    col, ttext, _, tok = _column(c)
                    try:
                        props.append(Property(col, KUZU.parse(ttext)))
                    except SchemaError as exc:
                        raise c.error(exc.message, tok) from None
                if not c.accept(","):
                    break
            c.expect(")")
            edges.append(EdgeType(label, tuple(eps), tuple(props), cardinality=card))
        elif c.accept_kw("COMMENT", "ON", "TABLE"):
            label = c.ident("a table name")
            c.expect_kw("IS")
            comments[label] = c.string()
        else:
            raise c.error(f"unexpected {c.describe()}: expected CREATE NODE/REL TABLE or COMMENT")
        c.statement_end()
    nodes = [replace(n, description=comments.get(n.label)) for n in nodes]
    edges = [replace(e, description=comments.get(e.label)) for e in edges]
    return SchemaGraph(name=name, node_types=tuple(nodes), edge_types=tuple(edges))
