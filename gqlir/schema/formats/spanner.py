"""Spanner Graph DDL: input tables (``CREATE TABLE … PRIMARY KEY (…)``), foreign keys, indexes,
and ``CREATE PROPERTY GRAPH … NODE TABLES (…) EDGE TABLES (…)``.

Grammar sources: https://cloud.google.com/spanner/docs/reference/standard-sql/data-definition-language
(CREATE TABLE: the primary key follows the column list; ALTER TABLE … ADD CONSTRAINT … FOREIGN
KEY; CREATE [UNIQUE] [NULL_FILTERED] INDEX) and
https://cloud.google.com/spanner/docs/reference/standard-sql/graph-schema-statements
(CREATE PROPERTY GRAPH). Types: :data:`gqlir.schema.types.SPANNER`. No Spanner engine runs
here, so the output is checked by golden tests against this grammar.

Tables follow :mod:`gqlir.schema.relational`. Foreign keys are separate ``ALTER TABLE``
statements after all tables, so tables may reference each other in any order. Uniqueness
(``unique`` properties, 1:n / n:1 cardinality) becomes ``CREATE UNIQUE INDEX``. Unlike
Text2GQL-Bench's translator, temporal properties keep their types (``TIMESTAMP``, ``DATE``)
and edge tables are keyed by their endpoints and edge keys only.
"""

from __future__ import annotations

from typing import Any

from ...errors import SchemaError
from ..model import SchemaGraph
from ..relational import Column, ForeignKey, RelationalSchema, Table, to_relational
from ..types import SPANNER
from . import _pgq
from ._ddl import Cursor, quote_ident

# GoogleSQL reserved keywords
# (https://cloud.google.com/spanner/docs/reference/standard-sql/lexical#reserved_keywords)
# plus the words of the DDL forms read here.
RESERVED = frozenset(
    """ALL AND ANY ARRAY AS ASC ASSERT_ROWS_MODIFIED AT BETWEEN BY CASE CAST COLLATE CONTAINS
    CREATE CROSS CUBE CURRENT DEFAULT DEFINE DESC DISTINCT ELSE END ENUM ESCAPE EXCEPT EXCLUDE
    EXISTS EXTRACT FALSE FETCH FOLLOWING FOR FROM FULL GROUP GROUPING GROUPS HASH HAVING IF
    IGNORE IN INNER INTERSECT INTERVAL INTO IS JOIN LATERAL LEFT LIKE LIMIT LOOKUP MERGE NATURAL
    NEW NO NOT NULL NULLS OF ON OR ORDER OUTER OVER PARTITION PRECEDING PROTO RANGE RECURSIVE
    RESPECT RIGHT ROLLUP ROWS SELECT SET SOME STRUCT TABLESAMPLE THEN TO TREAT TRUE UNBOUNDED
    UNION UNNEST USING WHEN WHERE WINDOW WITH WITHIN GRAPH TABLE TABLES NODE EDGE LABEL
    PROPERTIES KEY SOURCE DESTINATION REFERENCES PRIMARY FOREIGN CONSTRAINT INDEX UNIQUE
    PROPERTY COLUMNS OPTIONS""".split()
)


def _q(name: str) -> str:
    return quote_ident(name, "`", RESERVED)


def _cols(cols: tuple[str, ...]) -> str:
    return "(" + ", ".join(_q(c) for c in cols) + ")"


def model(schema: SchemaGraph) -> tuple[RelationalSchema, _pgq.PropertyGraph]:
    """The tables and the property graph that :func:`write` prints (the ZetaSQL checker builds
    its catalog from the same pair)."""
    rel, mapping = to_relational(schema)
    return rel, _pgq.from_mapping(schema.name or "graph", schema, mapping)


def write(schema: SchemaGraph, variant: str | None) -> str:
    rel, pg = model(schema)
    out: list[str] = []
    for t in rel.tables:
        lines = []
        for c in t.columns:
            lines.append(
                f"  {_q(c.name)} {SPANNER.render(c.type)}" + ("" if c.nullable else " NOT NULL")
            )
        out.append(
            f"CREATE TABLE {_q(t.name)} (\n"
            + ",\n".join(lines)
            + f"\n) PRIMARY KEY {_cols(t.primary_key)}"
        )
    for t in rel.tables:
        for i, fk in enumerate(t.foreign_keys, start=1):
            out.append(
                f"ALTER TABLE {_q(t.name)} ADD CONSTRAINT {_q(f'FK_{t.name}_{i}')} FOREIGN KEY "
                f"{_cols(fk.columns)} REFERENCES {_q(fk.ref_table)} {_cols(fk.ref_columns)}"
            )
    for t in rel.tables:
        for cols in t.unique:
            name = _q(f"{t.name}_{'_'.join(cols)}_unique")
            out.append(f"CREATE UNIQUE INDEX {name} ON {_q(t.name)} {_cols(cols)}")
        for cols in t.indexes:
            out.append(
                f"CREATE INDEX {_q(f'{t.name}_{"_".join(cols)}_idx')} ON {_q(t.name)} {_cols(cols)}"
            )
    out.append(_pgq.render(pg, _pgq.Style(quote=_q, vertex_keyword="NODE")))
    return "".join(s + ";\n\n" for s in out).rstrip("\n") + "\n"


# -- reading -------------------------------------------------------------------------------------


def _type_text(c: Cursor) -> str:
    start = c.tok.offset
    c.ident("a type")
    if c.at("(") or c.at("<"):
        c.skip_balanced()
    return c.text[start : c.tok.offset]


def _create_table(c: Cursor, tables: dict[str, dict[str, Any]], order: list[str]) -> None:
    name = c.qualified("a table name")
    c.expect("(")
    spec: dict[str, Any] = {"name": name, "columns": [], "fks": [], "pk": ()}
    while not c.at(")"):
        if c.accept_kw("CONSTRAINT"):
            c.ident("a constraint name")
        if c.accept_kw("FOREIGN", "KEY"):
            spec["fks"].append(_fk_tail(c))
        elif c.at_kw("CHECK"):
            c.next()
            c.skip_balanced()
        else:
            col = c.ident("a column name")
            tok = c.tok
            ttext = _type_text(c)
            try:
                ptype = SPANNER.parse(ttext)
            except SchemaError as exc:
                raise c.error(exc.message, tok) from None
            nullable = True
            while not c.at(",") and not c.at(")"):
                if c.accept_kw("NOT", "NULL"):
                    nullable = False
                elif c.at_kw("DEFAULT", "AS", "OPTIONS") or c.at_kw("STORED", "HIDDEN"):
                    c.next()
                    if c.at("("):
                        c.skip_balanced()
                else:
                    raise c.error(f"unexpected {c.describe()} in a column definition")
            spec["columns"].append(Column(col, ptype, nullable))
        if not c.accept(","):
            break
    c.expect(")")
    c.expect_kw("PRIMARY", "KEY")
    c.expect("(")
    pk = []
    while not c.at(")"):
        pk.append(c.ident("a key column"))
        c.accept_kw("ASC") or c.accept_kw("DESC")
        if not c.accept(","):
            break
    c.expect(")")
    spec["pk"] = tuple(pk)
    while c.accept(","):
        if c.accept_kw("INTERLEAVE", "IN", "PARENT") or c.accept_kw("INTERLEAVE", "IN"):
            c.qualified("a parent table")
            if c.accept_kw("ON", "DELETE"):
                c.accept_kw("CASCADE") or c.accept_kw("NO", "ACTION")
        elif c.accept_kw("ROW", "DELETION", "POLICY"):
            c.skip_balanced()
        else:
            raise c.error(f"unexpected {c.describe()} after PRIMARY KEY")
    key = name.lower()
    if key in tables:
        raise c.error(f"table {name} is declared twice")
    tables[key] = spec
    order.append(key)


def _fk_tail(c: Cursor) -> ForeignKey:
    cols = _paren_names(c)
    c.expect_kw("REFERENCES")
    ref = c.qualified("a table")
    refcols = _paren_names(c)
    while c.accept_kw("ON", "DELETE"):
        c.accept_kw("CASCADE") or c.accept_kw("NO", "ACTION")
    c.accept_kw("NOT", "ENFORCED") or c.accept_kw("ENFORCED")
    return ForeignKey(cols, ref, refcols)


def _paren_names(c: Cursor) -> tuple[str, ...]:
    c.expect("(")
    out = []
    while not c.at(")"):
        out.append(c.ident("a column"))
        c.accept_kw("ASC") or c.accept_kw("DESC")
        if not c.accept(","):
            break
    c.expect(")")
    return tuple(out)


def read(text: str, variant: str | None, *, name: str = "") -> SchemaGraph:
    c = Cursor(text)
    tables: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    unique: list[tuple[str, tuple[str, ...], bool]] = []
    graph = None
    while not c.at_end():
        start = c.tok
        if c.accept_kw("CREATE", "TABLE"):
            c.accept_kw("IF", "NOT", "EXISTS")
            _create_table(c, tables, order)
        elif c.accept_kw("ALTER", "TABLE"):
            tname = c.qualified("a table")
            c.expect_kw("ADD")
            if c.accept_kw("CONSTRAINT"):
                c.ident("a constraint name")
            c.expect_kw("FOREIGN", "KEY")
            spec = tables.get(tname.lower())
            if spec is None:
                raise c.error(f"ALTER TABLE of unknown table {tname}", start)
            spec["fks"].append(_fk_tail(c))
        elif c.at_kw("CREATE") and (c.peek().is_kw("UNIQUE", "NULL_FILTERED", "INDEX")):
            c.next()
            is_unique = c.accept_kw("UNIQUE")
            c.accept_kw("NULL_FILTERED")
            c.expect_kw("INDEX")
            c.accept_kw("IF", "NOT", "EXISTS")
            c.qualified("an index name")
            c.expect_kw("ON")
            tname = c.qualified("a table")
            cols = _paren_names(c)
            if c.accept_kw("STORING"):
                c.skip_balanced()
            while c.accept(","):
                c.expect_kw("INTERLEAVE", "IN")
                c.qualified("a table")
            unique.append((tname, cols, is_unique))
        elif c.at_kw("CREATE"):
            graph = _pgq.parse_graph(text, start.offset)
            while not c.at_end() and not c.at(";"):
                c.next()
        else:
            raise c.error(f"unexpected {c.describe()}: expected a CREATE or ALTER TABLE statement")
        c.statement_end()
    if graph is None:
        raise SchemaError("Spanner DDL: no CREATE PROPERTY GRAPH statement", code="SCHEMA_SYNTAX")
    for tname, cols, is_unique in unique:
        spec = tables.get(tname.lower())
        if spec is None:
            raise SchemaError(f"Spanner DDL: index on unknown table {tname}", code="SCHEMA_SYNTAX")
        spec.setdefault("unique" if is_unique else "indexes", []).append(cols)
    rel = RelationalSchema(
        tuple(
            Table(
                s["name"],
                tuple(s["columns"]),
                primary_key=s["pk"],
                foreign_keys=tuple(s["fks"]),
                unique=tuple(s.get("unique", [])),
                indexes=tuple(s.get("indexes", [])),
            )
            for s in (tables[k] for k in order)
        )
    )
    return _pgq.to_schema(rel, graph)
