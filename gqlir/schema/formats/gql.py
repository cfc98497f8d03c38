"""ISO GQL graph types: ``CREATE GRAPH TYPE name { element type, … }``.

Grammar: ISO/IEC 39075:2024 §18.2-18.3 (<nested graph type specification>, <node type
specification>, <edge type specification>), as encoded in opengql/grammar ``GQL.g4``
(https://github.com/opengql/grammar). The writer uses the pattern forms
``(:Label {p TYPE NOT NULL})`` and ``(:A)-[:R {…}]->(:B)``, which the embedded engine grafeo
accepts too; the reader also takes the phrase forms (``NODE TYPE n :L {…}``,
``DIRECTED EDGE TYPE e :R CONNECTING (a -> b)``), aliases and key label sets.

A graph type has no keys, uniqueness, indexes, descriptions, units or relation annotations, and
an edge type always has its endpoint node types: those are reported by the round-trip check.
An edge label with several endpoint pairs becomes one edge type per pair (same label set and
properties); the reader merges them back.
"""

from __future__ import annotations

from ...errors import SchemaError
from ..model import EdgeType, Endpoint, NodeType, Property, SchemaGraph
from ..types import GQL, PropertyType
from ._ddl import QIDENT, Cursor, quote_ident

# Words the writer quotes as names (GQL reserved words that could appear where a name goes).
RESERVED = frozenset(
    """ABS ACOS ALL ALL_DIFFERENT AND ANY ARRAY AS ASC ASCENDING ASIN AT ATAN AVG BIG BIGINT
    BINARY BOOL BOOLEAN BOTH BTRIM BY BYTES CALL CASE CAST CEIL CEILING CHAR CHAR_LENGTH
    CHARACTER_LENGTH CHARACTERISTICS CLOSE COALESCE COLLECT_LIST COMMIT COPY COS COSH COT COUNT
    CREATE CURRENT_DATE CURRENT_GRAPH CURRENT_PROPERTY_GRAPH CURRENT_SCHEMA CURRENT_TIME
    CURRENT_TIMESTAMP DATE DATETIME DAY DEC DECIMAL DEGREES DELETE DESC DESCENDING DETACH
    DISTINCT DOUBLE DROP DURATION DURATION_BETWEEN ELEMENT_ID ELSE END EXCEPT EXISTS EXP FALSE
    FILTER FINISH FLOAT FLOAT16 FLOAT32 FLOAT64 FLOAT128 FLOAT256 FLOOR FOR FROM GROUP HAVING
    HOME_GRAPH HOME_PROPERTY_GRAPH HOME_SCHEMA HOUR IF IMPLIES IN INSERT INT INTEGER INT8
    INTEGER8 INT16 INTEGER16 INT32 INTEGER32 INT64 INTEGER64 INT128 INTEGER128 INT256 INTEGER256
    INTERSECT INTERVAL IS LEADING LEFT LET LIKE LIMIT LIST LN LOCAL LOCAL_DATETIME LOCAL_TIME
    LOCAL_TIMESTAMP LOG LOG10 LOWER LTRIM MATCH MAX MIN MINUTE MOD MONTH NEXT NODETACH NORMALIZE
    NOT NOTHING NULL NULLS NULLIF OCTET_LENGTH OF OFFSET OPTIONAL OR ORDER OTHERWISE PARAMETER
    PARAMETERS PATH PATH_LENGTH PATHS PERCENTILE_CONT PERCENTILE_DISC POWER PRECISION
    PROPERTY_EXISTS RADIANS REAL RECORD REMOVE REPLACE RESET RETURN RIGHT ROLLBACK RTRIM SAME
    SCHEMA SECOND SELECT SESSION SESSION_USER SET SIGNED SIN SINH SIZE SKIP SMALL SMALLINT SQRT
    START STDDEV_POP STDDEV_SAMP STRING SUM TAN TANH THEN TIME TIMESTAMP TRAILING TRIM TRUE
    TYPED UBIGINT UINT UINT8 UINT16 UINT32 UINT64 UINT128 UINT256 UNION UNKNOWN UNSIGNED UPPER
    USE USMALLINT VALUE VARBINARY VARCHAR VARIABLE WHEN WHERE WITH XOR YEAR YIELD ZONED
    ZONED_DATETIME ZONED_TIME ABSTRACT AGGREGATE AGGREGATES ALTER CATALOG CLEAR CLONE
    CONSTRAINT CURRENT_ROLE CURRENT_USER DATA DIRECTORY DRYRUN EXACT EXISTING FUNCTION GQLSTATUS
    GRANT INSTANT INFINITY NUMBER NUMERIC ON OPEN PARTITION PROCEDURE PRODUCT PROJECT QUERY
    RECORDS REFERENCE RENAME REVOKE SUBSTRING SYSTEM_USER TEMPORAL UNIQUE UNIT VALUES NODE
    VERTEX EDGE RELATIONSHIP TYPE GRAPH LABEL LABELS DIRECTED UNDIRECTED CONNECTING KEY TO
    PROPERTY""".split()
)


def _q(name: str) -> str:
    return quote_ident(name, "`", RESERVED)


def _props(props: tuple[Property, ...]) -> str:
    if not props:
        return ""
    items = []
    for p in props:
        text = f"{_q(p.name)} {GQL.render(p.type)}"
        if p.required:
            text += " NOT NULL"
        items.append(text)
    return " {" + ", ".join(items) + "}"


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    lines = []
    for n in schema.node_types:
        labels = "&".join(_q(x) for x in n.labels)
        lines.append(f"  (:{labels}{_props(n.properties)})")
    for e in schema.edge_types:
        for ep in e.endpoints:
            source, target = schema.node(ep.source), schema.node(ep.target)
            assert source is not None and target is not None  # SchemaGraph checks endpoints
            src = "&".join(_q(x) for x in source.labels)
            dst = "&".join(_q(x) for x in target.labels)
            lines.append(f"  (:{src})-[:{_q(e.label)}{_props(e.properties)}]->(:{dst})")
    name = _q(schema.name or "graph_type")
    return f"CREATE GRAPH TYPE {name} {{\n" + ",\n".join(lines) + "\n}\n"


class _Filler:
    def __init__(self) -> None:
        self.labels: tuple[str, ...] = ()
        self.properties: tuple[Property, ...] = ()
        self.has_properties = False


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    c = Cursor(text)
    name = ""
    nodes: list[tuple[str | None, str | None, _Filler]] = []  # (type name, alias, filler)
    edges: list[tuple[object, object, _Filler, str]] = []  # (src ref, dst ref, filler, dir)
    c.expect_kw("CREATE")
    c.accept_kw("OR", "REPLACE")
    c.accept_kw("PROPERTY")
    c.expect_kw("GRAPH", "TYPE")
    c.accept_kw("IF", "NOT", "EXISTS")
    name = c.qualified("the graph type's name")
    c.accept_kw("AS")
    c.expect("{")
    while not c.at("}"):
        _element(c, nodes, edges)
        if not c.accept(","):
            break
    c.expect("}")
    c.statement_end()
    if not c.at_end():
        raise c.error("only one CREATE GRAPH TYPE statement is read")
    return _build(c, name, nodes, edges)


def _element(c: Cursor, nodes: list, edges: list) -> None:
    type_name: str | None = None
    kind = None
    if c.at_kw("DIRECTED", "UNDIRECTED"):
        kind = "edge"
        if c.next().value.upper() == "UNDIRECTED":
            raise c.error("undirected edge types cannot be represented (use a symmetric edge type)")
    if c.at_kw("NODE", "VERTEX"):
        c.next()
        kind = "node"
    elif c.at_kw("EDGE", "RELATIONSHIP"):
        c.next()
        kind = "edge"
    if kind is not None:
        c.accept_kw("TYPE")
        named = not (c.at("(") or c.at(":") or c.at("{"))
        if named and not c.at_kw("LABEL", "LABELS", "IS", "CONNECTING"):
            type_name = c.ident("a type name")
    if c.at("("):
        start = c.i
        alias, filler = _endpoint(c)
        if kind == "node" or not (c.at("-[") or c.at("<-[") or c.at("~") or c.at("-")):
            nodes.append((type_name, alias, filler))
            return
        src = (alias, filler)
        if c.accept("-["):
            ef = _filler(c)
            c.expect("]->")
            direction = "->"
        elif c.accept("<-["):
            ef = _filler(c)
            c.expect("]-")
            direction = "<-"
        else:
            raise c.error("undirected edge types cannot be represented (use a symmetric edge type)")
        dst = _endpoint(c)
        if direction == "<-":
            src, dst = dst, src
        edges.append((src, dst, ef, type_name or ""))
        del start
        return
    # phrase forms
    filler = _filler(c)
    if kind == "edge" or c.at_kw("CONNECTING"):
        c.expect_kw("CONNECTING")
        c.expect("(")
        a = c.ident("a node type")
        if c.accept("->") or c.accept_kw("TO"):
            b = c.ident("a node type")
        elif c.accept("<-"):
            b, a = a, c.ident("a node type")
        else:
            raise c.error("expected '->' or TO in the endpoint pair")
        c.expect(")")
        edges.append(((a, None), (b, None), filler, type_name or ""))
        return
    alias = None
    if c.accept_kw("AS"):
        alias = c.ident("an alias")
    nodes.append((type_name, alias, filler))


def _endpoint(c: Cursor) -> tuple[str | None, _Filler]:
    c.expect("(")
    alias = None
    if c.tok.kind in ("ident", QIDENT) and not c.at_kw("LABEL", "LABELS", "IS"):
        alias = c.ident()
    filler = _filler(c)
    c.expect(")")
    return alias, filler


def _filler(c: Cursor) -> _Filler:
    f = _Filler()
    labels: list[str] = []
    while True:
        if c.accept_kw("LABEL"):
            labels.append(c.ident("a label"))
        elif c.accept_kw("LABELS") or c.accept(":") or c.accept_kw("IS"):
            labels.append(c.ident("a label"))
            while c.accept("&"):
                labels.append(c.ident("a label"))
        elif c.accept("=>") or c.accept_kw("IMPLIES"):
            continue
        else:
            break
    f.labels = tuple(labels)
    if c.accept("{"):
        f.has_properties = True
        props = []
        while not c.at("}"):
            pname = c.ident("a property name")
            if not c.accept("::"):
                c.accept_kw("TYPED")
            tok = c.tok
            raw = c.raw_until(",", "}")
            required = False
            words = raw.split()
            if len(words) >= 2 and [w.upper() for w in words[-2:]] == ["NOT", "NULL"]:
                required = True
                raw = " ".join(words[:-2])
            try:
                ptype: PropertyType = GQL.parse(raw)
            except SchemaError as exc:
                raise c.error(exc.message, tok) from None
            props.append(Property(pname, ptype, required=required))
            if not c.accept(","):
                break
        c.expect("}")
        f.properties = tuple(props)
    return f


def _build(c: Cursor, name: str, nodes: list, edges: list) -> SchemaGraph:
    node_types: list[NodeType] = []
    by_ref: dict[str, NodeType] = {}
    for type_name, alias, filler in nodes:
        if not filler.labels:
            raise c.error(
                f"node type {type_name or alias or ''} has no label: "
                "gqlir names node types by label"
            )
        nt = NodeType(filler.labels[0], filler.properties, extra_labels=filler.labels[1:])
        node_types.append(nt)
        for ref in (type_name, alias):
            if ref:
                by_ref[ref] = nt
    by_label = {n.label: n for n in node_types}

    def resolve(ref: tuple[str | None, _Filler | None]) -> str:
        alias, filler = ref
        if filler is not None and filler.labels:
            label = filler.labels[0]
            if label in by_label:
                return label
            raise c.error(f"edge endpoint :{label} is not a declared node type")
        if alias and alias in by_ref:
            return by_ref[alias].label
        if alias and alias in by_label:
            return alias
        raise c.error(f"edge endpoint {alias or '()'} does not name a node type")

    merged: dict[str, tuple[list[Endpoint], tuple[Property, ...]]] = {}
    for src, dst, filler, type_name in edges:
        label = filler.labels[0] if filler.labels else type_name
        if not label:
            raise c.error("an edge type needs a label")
        if len(filler.labels) > 1:
            raise c.error(f"edge type {label} has several labels; gqlir edge types have one")
        ep = Endpoint(resolve(src), resolve(dst))
        if label in merged:
            eps, props = merged[label]
            if props != filler.properties:
                raise c.error(f"edge label {label} is declared with different property types")
            if ep not in eps:
                eps.append(ep)
        else:
            merged[label] = ([ep], filler.properties)
    edge_types = [EdgeType(label, tuple(eps), props) for label, (eps, props) in merged.items()]
    return SchemaGraph(name=name, node_types=tuple(node_types), edge_types=tuple(edge_types))
