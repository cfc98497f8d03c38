"""Read-only enforcement shared by the adapters, and what a query's IR says about its result.

An evaluation runs model-written queries against a benchmark graph; a write there must fail
before it changes anything. Two lines of defence, because neither is enough alone:

1. **the IR**: gqlir reads the query and refuses every write construct it finds (CREATE/INSERT,
   MERGE, SET, REMOVE, DELETE, FOREACH, CALL subqueries that contain them, procedure calls not
   known to be read-only, schema and catalog commands, transaction control). SQL is read with
   sqlglot: only queries (SELECT, set operations) without data-changing parts pass.
2. **the engine**: read-only transactions or access modes where the engine has them (adapters
   declare ``enforces_read_only``). A query gqlir cannot read is run read-only only on such an
   engine; elsewhere it is refused, since nothing could stop it from writing.
"""

from __future__ import annotations

from typing import Any

from .. import ir
from ..errors import EngineError, GqlirError
from ..ir.analysis import write_clause

__all__ = [
    "READ_ONLY_PROCEDURES",
    "analyse",
    "check_read_only",
    "ir_columns",
    "ir_ordered",
    "ir_writes",
]

# Procedures that only read (Neo4j, ArcadeDB, Kuzu, TuGraph catalogue procedures), by
# lower-case name. Anything else called in a read-only run is refused.
READ_ONLY_PROCEDURES = frozenset(
    """db.labels db.relationshiptypes db.propertykeys db.schema.visualization
    db.schema.nodetypeproperties db.schema.reltypeproperties db.indexes db.constraints
    dbms.components dbms.procedures dbms.functions db.info show_tables table_info
    show_functions db.vertexlabels db.edgelabels db.getvertexschema db.getedgeschema
    db.listlabelindexes""".split()
)


def _write_name(node: ir.Node) -> str | None:
    if isinstance(node, ir.ProcedureCall):
        if node.name.lower() in READ_ONLY_PROCEDURES:
            return None
        return f"CALL {node.name} (a procedure not known to be read-only)"
    return write_clause(node)


def ir_writes(statement: ir.Node) -> tuple[str, ...]:
    """The write constructs anywhere in ``statement`` (subqueries included), in order."""
    found: list[str] = []
    for node in statement.walk():
        name = _write_name(node)
        if name is not None and name not in found:
            found.append(name)
    return tuple(found)


def ir_ordered(statement: ir.Node) -> bool:
    """Whether the result order is meaningful: the final projection has an ORDER BY."""
    if isinstance(statement, ir.Program):
        queries = [s for s in statement.statements if isinstance(s, ir.Query)]
        return ir_ordered(queries[-1]) if queries else False
    if isinstance(statement, ir.LinearQuery):
        for step in reversed(statement.steps):
            if isinstance(step, ir.Projection):
                return bool(step.order_by)
            if isinstance(step, (ir.Finish, ir.UseGraph)):
                continue
            return False
    return False


def ir_columns(statement: Any) -> list[str] | None:
    """The result's column names from the final projection, where the IR determines them (an
    alias, a variable, or ``variable.key``): engines that report no columns for an empty result
    get them from here. None when some column would be named by its expression text."""
    if isinstance(statement, ir.Program):
        queries = [s for s in statement.statements if isinstance(s, ir.Query)]
        statement = queries[-1] if queries else None
    while isinstance(statement, ir.SetOperation):
        statement = statement.left
    if not isinstance(statement, ir.LinearQuery) or not statement.steps:
        return None
    last = statement.steps[-1]
    if not isinstance(last, ir.Projection) or last.star:
        return None
    names: list[str] = []
    for item in last.items:
        if item.alias is not None:
            names.append(item.alias)
        elif isinstance(item.expr, ir.Variable):
            names.append(item.expr.name)
        elif isinstance(item.expr, ir.Property) and isinstance(item.expr.subject, ir.Variable):
            names.append(f"{item.expr.subject.name}.{item.expr.key}")
        else:
            return None
    return names


# -- SQL through sqlglot -------------------------------------------------------------------------


def _sql_analysis(text: str, flavour: str | None) -> tuple[bool, tuple[str, ...] | None]:
    try:
        import sqlglot
        from sqlglot import exp
        from sqlglot.errors import SqlglotError
    except ImportError:
        return False, None
    try:
        statements = [s for s in sqlglot.parse(text, read=flavour or None) if s is not None]
    except SqlglotError:
        return False, None
    if not statements:
        return False, None
    writes: list[str] = []
    changing = (
        exp.Insert,
        exp.Update,
        exp.Delete,
        exp.Merge,
        exp.Create,
        exp.Drop,
        exp.Alter,
        exp.TruncateTable,
        exp.Command,
        exp.Set,
        exp.Transaction,
        exp.Commit,
        exp.Rollback,
        exp.Copy,
        exp.Pragma,
        exp.Use,
    )
    for s in statements:
        if not isinstance(s, exp.Query):
            writes.append(s.key.upper())
            continue
        for node in s.walk():
            if isinstance(node, changing):
                writes.append(node.key.upper())
            elif isinstance(node, exp.Into):
                writes.append("SELECT INTO")
    last = statements[-1]
    ordered = isinstance(last, exp.Query) and last.args.get("order") is not None
    return ordered, tuple(dict.fromkeys(writes))


def analyse(text: str, dialect: str) -> tuple[Any, bool, tuple[str, ...] | None]:
    """(IR or None, ordered, writes or None when the text could not be read) for ``text`` in
    ``dialect``. The engine, not gqlir, judges validity: a text gqlir cannot read still runs."""
    from ..dialect import get_dialect

    d = get_dialect(dialect)
    if d.family == "sql":
        ordered, writes = _sql_analysis(text, getattr(d, "sql_dialect", None))
        return None, ordered, writes
    from ..api import parse

    try:
        statement = parse(text, d.name)
    except GqlirError:
        return None, False, None
    return statement, ir_ordered(statement), ir_writes(statement)


def check_read_only(prepared: Any, engine: str, enforces: bool) -> None:
    """Refuse a read-only run that would write, or that cannot be shown not to write on an
    engine without a read-only mode of its own."""
    if prepared.writes:
        raise EngineError(
            f"{engine}: refused in a read-only run: the query writes "
            f"({', '.join(prepared.writes)})",
            code="READ_ONLY",
        )
    if prepared.writes is None and not enforces:
        raise EngineError(
            f"{engine}: refused in a read-only run: gqlir cannot read this "
            f"{prepared.dialect} text to check that it does not write, and {engine} has no "
            "read-only mode of its own",
            code="READ_ONLY",
        )
