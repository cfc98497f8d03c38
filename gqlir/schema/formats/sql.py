"""SQL DDL in any sqlglot dialect: ``CREATE TABLE`` with primary, foreign and unique keys, and
``CREATE INDEX``, for the tables of :mod:`gqlir.schema.relational`.

Statements are built as sqlglot expression trees and rendered by sqlglot (never assembled as
text), with every identifier quoted, so names keep their case in case-folding engines
(PostgreSQL, Oracle) and no name can change a statement's structure. Reading parses the DDL
with sqlglot in the same dialect and maps the tables back to a graph with
:func:`gqlir.schema.relational.to_graph`.

sqlglot renders some types that the engine behind a dialect does not have (unsigned integers in
PostgreSQL, arrays in SQLite); :data:`LACKS` lists those per dialect, and such types are written
as the nearest type the engine has (the round-trip check reports the change). Sources: SQLite
https://www.sqlite.org/datatype3.html, PostgreSQL https://www.postgresql.org/docs/15/datatype.html,
DuckDB https://duckdb.org/docs/sql/data_types/overview, Oracle
https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Types.html.
"""

from __future__ import annotations

from typing import Any

from ...errors import SchemaError
from ...optional import require
from ..model import SchemaGraph
from ..relational import (
    Column,
    ForeignKey,
    RelationalSchema,
    Table,
    to_graph,
    to_relational,
    topological,
)
from ..types import INTEGER_KINDS, PropertyType, TypeKind

K = TypeKind
_UNSIGNED = {K.UINT8, K.UINT16, K.UINT32, K.UINT64}

# Kinds an engine has no column type for, although sqlglot would render a name.
LACKS: dict[str, frozenset[TypeKind]] = {
    "sqlite": frozenset(_UNSIGNED | {K.LIST, K.MAP}),
    "postgres": frozenset(_UNSIGNED | {K.MAP}),
    "oracle": frozenset(_UNSIGNED | {K.LIST, K.MAP, K.DURATION}),
    "tsql": frozenset(_UNSIGNED | {K.LIST, K.MAP, K.DURATION, K.TIME}),
    "mysql": frozenset({K.LIST, K.MAP, K.DURATION, K.TIME}),
    "bigquery": frozenset(_UNSIGNED | {K.MAP, K.TIME}),
}
_DEFAULT_LACKS = frozenset({K.POINT, K.ANY})


def _sqlglot() -> Any:
    return require("sqlglot", extra="sql", purpose="reading and writing SQL schemas")


def _dialect(variant: str | None) -> str:
    sqlglot = _sqlglot()
    name = (variant or "").lower()
    if name in ("", "ansi", "standard"):
        return ""
    try:
        sqlglot.Dialect.get_or_raise(name)
    except (ValueError, KeyError):
        raise SchemaError(f"sqlglot has no SQL dialect {variant!r}", code="SCHEMA_FORMAT") from None
    return name


def _substitute(t: PropertyType, dialect: str) -> PropertyType:
    """The type to write for ``t`` in an engine that lacks some kinds."""
    lacks = LACKS.get(dialect, frozenset()) | _DEFAULT_LACKS
    if t.kind == K.LIST and t.element is not None and K.LIST not in lacks:
        return PropertyType(K.LIST, element=_substitute(t.element, dialect))
    if t.kind == K.MAP and t.value is not None and K.MAP not in lacks:
        return PropertyType(K.MAP, value=_substitute(t.value, dialect))
    if t.kind not in lacks:
        return t
    wider = {
        K.UINT8: PropertyType(K.INT16),
        K.UINT16: PropertyType(K.INT32),
        K.UINT32: PropertyType(K.INT64),
        K.UINT64: PropertyType(K.DECIMAL, precision=20, scale=0),
        K.TIME: PropertyType(K.STRING),
        K.DURATION: PropertyType(K.STRING),
    }
    return wider.get(t.kind, PropertyType(K.JSON))


_TO_SQLGLOT = {
    K.BOOLEAN: "BOOLEAN",
    K.INT8: "TINYINT",
    K.INT16: "SMALLINT",
    K.INT32: "INT",
    K.INT64: "BIGINT",
    K.UINT8: "UTINYINT",
    K.UINT16: "USMALLINT",
    K.UINT32: "UINT",
    K.UINT64: "UBIGINT",
    K.FLOAT32: "FLOAT",
    K.FLOAT64: "DOUBLE",
    K.DATE: "DATE",
    K.TIME: "TIMETZ",
    K.LOCAL_TIME: "TIME",
    K.DATETIME: "TIMESTAMPTZ",
    K.LOCAL_DATETIME: "TIMESTAMP",
    K.DURATION: "INTERVAL",
    K.JSON: "JSON",
    K.UUID: "UUID",
}


_ORACLE_INT_WIDTH = {K.INT8: 3, K.INT16: 5, K.INT32: 10, K.INT64: 19}
_ORACLE_WIDTH_INT = {v: k for k, v in _ORACLE_INT_WIDTH.items()}


def sql_type(t: PropertyType, dialect: str) -> Any:
    """The sqlglot DataType for ``t`` in ``dialect`` (after :func:`_substitute`)."""
    from sqlglot import exp

    t = _substitute(t, dialect)
    k = t.kind
    DT = exp.DataType
    if dialect == "oracle":
        # Oracle has one exact numeric type; integers are NUMBER(p) by their decimal width
        # (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Types.html),
        # and a VARCHAR2 (not a CLOB, which cannot be a key) holds strings.
        width = _ORACLE_INT_WIDTH.get(k)
        if width is not None:
            return DT(
                this=DT.Type.DECIMAL,
                expressions=[exp.DataTypeParam(this=exp.Literal.number(width))],
            )
        if k == K.STRING and t.length is None:
            return DT(
                this=DT.Type.VARCHAR, expressions=[exp.DataTypeParam(this=exp.Literal.number(4000))]
            )
    if k == K.DECIMAL:
        if t.precision is None:
            return DT(this=DT.Type.DECIMAL)
        params = [exp.DataTypeParam(this=exp.Literal.number(t.precision))]
        if t.scale is not None:
            params.append(exp.DataTypeParam(this=exp.Literal.number(t.scale)))
        return DT(this=DT.Type.DECIMAL, expressions=params)
    if k in (K.STRING, K.BYTES):
        base = DT.Type.VARCHAR if k == K.STRING else DT.Type.VARBINARY
        if t.length is None:
            return DT(this=DT.Type.TEXT if k == K.STRING else DT.Type.VARBINARY)
        return DT(this=base, expressions=[exp.DataTypeParam(this=exp.Literal.number(t.length))])
    if k == K.LIST:
        assert t.element is not None
        return DT(this=DT.Type.ARRAY, expressions=[sql_type(t.element, dialect)], nested=True)
    if k == K.MAP:
        value = sql_type(t.value, dialect) if t.value is not None else DT(this=DT.Type.JSON)
        return DT(this=DT.Type.MAP, expressions=[DT(this=DT.Type.TEXT), value], nested=True)
    return DT(this=getattr(DT.Type, _TO_SQLGLOT[k]))


def _ident(name: str) -> Any:
    from sqlglot import exp

    return exp.Identifier(this=name, quoted=True)


def _table_ref(name: str) -> Any:
    from sqlglot import exp

    return exp.Table(this=_ident(name))


def create_table(t: Table, dialect: str) -> Any:
    """A sqlglot ``CREATE TABLE`` expression for a relational table."""
    from sqlglot import exp

    cols: list[Any] = []
    for c in t.columns:
        constraints = []
        if not c.nullable:
            constraints.append(exp.ColumnConstraint(kind=exp.NotNullColumnConstraint()))
        cols.append(
            exp.ColumnDef(
                this=_ident(c.name), kind=sql_type(c.type, dialect), constraints=constraints
            )
        )
    if t.primary_key:
        cols.append(exp.PrimaryKey(expressions=[_ident(c) for c in t.primary_key]))
    for u in t.unique:
        cols.append(exp.UniqueColumnConstraint(this=exp.Schema(expressions=[_ident(c) for c in u])))
    for fk in t.foreign_keys:
        cols.append(
            exp.ForeignKey(
                expressions=[_ident(c) for c in fk.columns],
                reference=exp.Reference(
                    this=exp.Schema(
                        this=_table_ref(fk.ref_table),
                        expressions=[_ident(c) for c in fk.ref_columns],
                    )
                ),
            )
        )
    return exp.Create(kind="TABLE", this=exp.Schema(this=_table_ref(t.name), expressions=cols))


def create_indexes(t: Table) -> list[Any]:
    from sqlglot import exp

    out = []
    for cols in t.indexes:
        out.append(
            exp.Create(
                kind="INDEX",
                this=exp.Index(
                    this=_ident(f"{t.name}_{'_'.join(cols)}_idx"),
                    table=_table_ref(t.name),
                    params=exp.IndexParameters(columns=[exp.Column(this=_ident(c)) for c in cols]),
                ),
            )
        )
    return out


def tables_sql(rel: RelationalSchema, dialect: str) -> list[str]:
    """The DDL statements (without the terminating ``;``) that create ``rel``."""
    out = []
    tables = topological(rel)
    for t in tables:
        out.append(create_table(t, dialect).sql(dialect=dialect, pretty=True))
    for t in tables:
        out.extend(e.sql(dialect=dialect) for e in create_indexes(t))
    return out


def write(schema: SchemaGraph, variant: str | None) -> str:
    dialect = _dialect(variant)
    rel, _ = to_relational(schema)
    return "".join(s + ";\n\n" for s in tables_sql(rel, dialect)).rstrip("\n") + "\n"


# -- reading -------------------------------------------------------------------------------------

_FROM_SQLGLOT: dict[str, TypeKind] = {
    "BOOLEAN": K.BOOLEAN,
    "BIT": K.BOOLEAN,
    "TINYINT": K.INT8,
    "SMALLINT": K.INT16,
    "MEDIUMINT": K.INT32,
    "INT": K.INT32,
    "BIGINT": K.INT64,
    "UTINYINT": K.UINT8,
    "USMALLINT": K.UINT16,
    "UMEDIUMINT": K.UINT32,
    "UINT": K.UINT32,
    "UBIGINT": K.UINT64,
    "FLOAT": K.FLOAT32,
    "DOUBLE": K.FLOAT64,
    "DECIMAL": K.DECIMAL,
    "BIGDECIMAL": K.DECIMAL,
    "MONEY": K.DECIMAL,
    "TEXT": K.STRING,
    "VARCHAR": K.STRING,
    "NVARCHAR": K.STRING,
    "CHAR": K.STRING,
    "NCHAR": K.STRING,
    "MEDIUMTEXT": K.STRING,
    "LONGTEXT": K.STRING,
    "TINYTEXT": K.STRING,
    "NAME": K.STRING,
    "BINARY": K.BYTES,
    "VARBINARY": K.BYTES,
    "BLOB": K.BYTES,
    "MEDIUMBLOB": K.BYTES,
    "LONGBLOB": K.BYTES,
    "DATE": K.DATE,
    "DATE32": K.DATE,
    "TIME": K.LOCAL_TIME,
    "TIMETZ": K.TIME,
    "TIMESTAMP": K.LOCAL_DATETIME,
    "DATETIME": K.LOCAL_DATETIME,
    "DATETIME2": K.LOCAL_DATETIME,
    "TIMESTAMPNTZ": K.LOCAL_DATETIME,
    "TIMESTAMP_S": K.LOCAL_DATETIME,
    "TIMESTAMP_MS": K.LOCAL_DATETIME,
    "TIMESTAMP_NS": K.LOCAL_DATETIME,
    "TIMESTAMPTZ": K.DATETIME,
    "TIMESTAMPLTZ": K.DATETIME,
    "DATETIMEOFFSET": K.DATETIME,
    "INTERVAL": K.DURATION,
    "ARRAY": K.LIST,
    "LIST": K.LIST,
    "MAP": K.MAP,
    "JSON": K.JSON,
    "JSONB": K.JSON,
    "UUID": K.UUID,
    "UNIQUEIDENTIFIER": K.UUID,
}


def property_type(dt: Any, dialect: str) -> PropertyType:
    """The PropertyType of a sqlglot DataType (unknown types read as ANY)."""
    name = dt.this.name
    kind = _FROM_SQLGLOT.get(name, K.ANY)
    if dialect == "sqlite" and kind == K.INT32:
        kind = K.INT64  # SQLite integers are 64-bit whatever the declared name
    if dialect == "sqlite" and kind == K.FLOAT32:
        kind = K.FLOAT64  # REAL is an 8-byte float in SQLite
    args = [e for e in dt.expressions]
    nums = []
    for a in args:
        inner = getattr(a, "this", None)
        if inner is not None and getattr(inner, "is_int", False):
            nums.append(int(inner.name))
    if dialect == "oracle":
        if kind in INTEGER_KINDS:
            return PropertyType(K.DECIMAL, precision=38, scale=0)
        if kind == K.DECIMAL and len(nums) == 1 and nums[0] in _ORACLE_WIDTH_INT:
            return PropertyType(_ORACLE_WIDTH_INT[nums[0]])
        if kind == K.STRING and nums == [4000]:
            return PropertyType(K.STRING)
    if kind == K.DECIMAL:
        if nums:
            return PropertyType(kind, precision=nums[0], scale=nums[1] if len(nums) > 1 else None)
        return PropertyType(kind)
    if kind in (K.STRING, K.BYTES):
        if name in ("VARCHAR", "NVARCHAR", "VARBINARY", "TEXT") and nums:
            return PropertyType(kind, length=nums[0])
        return PropertyType(kind)
    if kind == K.LIST:
        if args and hasattr(args[0], "this") and args[0].__class__.__name__ == "DataType":
            return PropertyType(K.LIST, element=property_type(args[0], dialect))
        return PropertyType(K.LIST, element=PropertyType(K.ANY))
    if kind == K.MAP:
        types = [a for a in args if a.__class__.__name__ == "DataType"]
        if len(types) == 2 and types[1].this.name != "JSON":
            return PropertyType(K.MAP, value=property_type(types[1], dialect))
        return PropertyType(K.MAP)
    return PropertyType(kind)


def _names(exprs: list[Any]) -> tuple[str, ...]:
    out = []
    for e in exprs:
        while (
            e.__class__.__name__ in ("Ordered", "Column") and getattr(e, "this", None) is not None
        ):
            e = e.this
        out.append(e.name)
    return tuple(out)


def parse_tables(text: str, dialect: str, *, skip: Any = None) -> RelationalSchema:
    """The tables (and indexes) of SQL DDL text. ``skip`` lets a caller pass statements sqlglot
    cannot parse (SQL/PGQ's CREATE PROPERTY GRAPH) out before this is called."""
    sqlglot = _sqlglot()
    try:
        statements = sqlglot.parse(text, read=dialect or None)
    except sqlglot.errors.ParseError as exc:
        errs = getattr(exc, "errors", None) or [{}]
        line, col = errs[0].get("line"), errs[0].get("col")
        offset = None
        if line:
            lines = text.split("\n")
            offset = sum(len(x) + 1 for x in lines[: line - 1]) + max(0, (col or 1) - 1)
        raise SchemaError(
            f"SQL: {errs[0].get('description', str(exc))}",
            text=text,
            offset=offset,
            code="SCHEMA_SYNTAX",
        ) from None
    tables: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    indexes: list[tuple[str, tuple[str, ...], bool]] = []
    from sqlglot import exp

    for st in statements:
        if st is None:
            continue
        if not isinstance(st, exp.Create):
            raise SchemaError(
                f"SQL: only CREATE TABLE and CREATE INDEX are read, not {st.key.upper()}",
                code="SCHEMA_SYNTAX",
            )
        kind = (st.args.get("kind") or "").upper()
        if kind == "INDEX":
            idx = st.this
            table = idx.args["table"].name
            params = idx.args.get("params")
            cols = _names(params.args.get("columns") or []) if params else ()
            indexes.append((table, cols, bool(st.args.get("unique"))))
            continue
        if kind != "TABLE":
            raise SchemaError(f"SQL: CREATE {kind} is not read", code="SCHEMA_SYNTAX")
        schema = st.this
        if not isinstance(schema, exp.Schema):
            raise SchemaError(
                "SQL: CREATE TABLE without columns (AS SELECT) is not read", code="SCHEMA_SYNTAX"
            )
        name = schema.this.name
        spec: dict[str, Any] = {"columns": [], "pk": (), "fks": [], "unique": [], "indexes": []}
        for item in schema.expressions:
            if isinstance(item, exp.ColumnDef):
                nullable = True
                for cc in item.args.get("constraints") or []:
                    ck = cc.args.get("kind")
                    if isinstance(ck, exp.NotNullColumnConstraint) and not ck.args.get(
                        "allow_null"
                    ):
                        nullable = False
                    elif isinstance(ck, exp.PrimaryKeyColumnConstraint):
                        spec["pk"] = (item.name,)
                        nullable = False
                    elif isinstance(ck, exp.UniqueColumnConstraint):
                        spec["unique"].append((item.name,))
                    elif isinstance(ck, exp.Reference):
                        ref = ck.this
                        spec["fks"].append(
                            ForeignKey((item.name,), ref.this.name, _names(ref.expressions))
                        )
                kind_dt = item.args.get("kind")
                ptype = (
                    property_type(kind_dt, dialect) if kind_dt is not None else PropertyType(K.ANY)
                )
                spec["columns"].append(Column(item.name, ptype, nullable))
                continue
            node = item
            if isinstance(node, exp.Constraint):
                subs = node.expressions
            else:
                subs = [node]
            for sub in subs:
                if isinstance(sub, exp.PrimaryKey):
                    spec["pk"] = _names(sub.expressions)
                elif isinstance(sub, exp.ForeignKey):
                    ref = sub.args["reference"].this
                    spec["fks"].append(
                        ForeignKey(_names(sub.expressions), ref.this.name, _names(ref.expressions))
                    )
                elif isinstance(sub, exp.UniqueColumnConstraint):
                    target = sub.this
                    spec["unique"].append(_names(target.expressions if target is not None else []))
        tables[name.lower()] = spec | {"name": name}
        order.append(name.lower())
    for table, cols, unique in indexes:
        indexed = tables.get(table.lower())
        if indexed is None:
            raise SchemaError(f"SQL: index on unknown table {table!r}", code="SCHEMA_SYNTAX")
        (indexed["unique"] if unique else indexed["indexes"]).append(cols)
    out = []
    for key in order:
        spec = tables[key]
        pk = spec["pk"]
        columns = tuple(
            Column(c.name, c.type, c.nullable and c.name not in pk) for c in spec["columns"]
        )
        out.append(
            Table(
                spec["name"],
                columns,
                primary_key=pk,
                foreign_keys=tuple(spec["fks"]),
                unique=tuple(dict.fromkeys(spec["unique"])),
                indexes=tuple(dict.fromkeys(spec["indexes"])),
            )
        )
    return RelationalSchema(tuple(out))


def read(text: str, variant: str | None, *, name: str = "") -> SchemaGraph:
    dialect = _dialect(variant)
    schema, _ = to_graph(parse_tables(text, dialect), name=name)
    return schema
