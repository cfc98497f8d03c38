"""Read-only enforcement shared by the adapters, and what a query's IR says about its result.

An evaluation runs model-written queries against a benchmark graph; in a read-only run the
query must read the graph and nothing else: no write, and no file, setting or session touched
(an engine's read-only transaction still lets Kuzu ``EXPORT DATABASE`` and DuckDB
``read_csv``). The rule is an allow-list, decided before the query reaches the engine:

1. **the IR** (Cypher and GQL dialects): gqlir must read the query, and every node of its IR
   must be one a read may hold: reading clauses (MATCH, UNWIND, LET, FILTER, WITH/RETURN …),
   subqueries of the same, expressions and patterns, functions of gqlir's catalogue
   (:mod:`gqlir.ir.functions`) and procedures known to only read (:data:`READ_ONLY_PROCEDURES`).
   Anything else (LOAD CSV, an unknown function or procedure, a write, a schema, session or
   transaction command) is refused.
2. **SQL**, read with sqlglot: only queries (SELECT, set operations), reading only tables and
   views the database holds (or the query's own CTEs) and table functions that generate values
   (``generate_series``, ``unnest`` …); a function sqlglot does not know is refused unless
   :data:`SQL_FUNCTIONS` lists it, and of those it knows, the ones that read or write files or
   advance sequences are refused.
3. **the engine**: read-only transactions or access modes where the engine has them (adapters
   declare ``enforces_read_only``), a second line behind the first two.

A text gqlir cannot read is refused in a read-only run on every engine: nothing shows it only
reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ir
from ..errors import EngineError, GqlirError
from ..ir import catalog, ddl
from ..ir import expr as ir_expr
from ..ir import pattern as ir_pattern
from ..ir import predicates as ir_predicates
from ..ir import query as ir_query
from ..ir.analysis import write_clause
from ..ir.functions import FUNCTIONS

__all__ = [
    "READ_ONLY_PROCEDURES",
    "SQL_FUNCTIONS",
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


# IR nodes a read-only query may hold besides expressions, patterns and predicates (procedure
# calls and functions are checked by name)
_READ_NODES = (
    ir_query.Match,
    ir_query.Unwind,
    ir_query.Binding,
    ir_query.Let,
    ir_query.Filter,
    ir_query.ReturnItem,
    ir_query.SortItem,
    ir_query.Projection,
    ir_query.Finish,
    ir_query.UseGraph,
    ir_query.CallSubquery,
    ir_query.YieldItem,
    ir_query.ProcedureCall,
    ir_query.LinearQuery,
    ir_query.SetOperation,
    ir_query.ConditionalBranch,
    ir_query.ConditionalQuery,
    catalog.Program,
    ddl.Show,
)
_READ_MODULES = frozenset({ir_expr.__name__, ir_pattern.__name__, ir_predicates.__name__})
_NAMES = {
    ir_query.LoadCsv: "LOAD CSV (reads files)",
    ir_query.InTransactions: "CALL … IN TRANSACTIONS",
}


def ir_outside(statement: ir.Node) -> tuple[str, ...]:
    """What in ``statement`` a read-only query may not hold (writes included), in order: the
    allow-list of reading clauses, expressions, catalogue functions and read-only
    procedures."""
    found: list[str] = []
    for node in statement.walk():
        name = _write_name(node)
        if name is None and isinstance(node, ir_expr.FunctionCall):
            if node.name.lower() not in FUNCTIONS:
                name = f"{node.name}() (a function not known to only read)"
        elif name is None and not (
            isinstance(node, _READ_NODES) or type(node).__module__ in _READ_MODULES
        ):
            name = _NAMES.get(type(node), type(node).__name__)
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


# Functions sqlglot does not know (it reads them as anonymous) that only compute a value.
SQL_FUNCTIONS = frozenset(
    """abs acos asin atan atan2 ceil ceiling char char_length coalesce concat concat_ws cos
    cot date datetime degrees exp floor format greatest hex ifnull iif instr julianday least
    len length like list_extract list_value ln log log10 log2 lower ltrim nullif octet_length
    pi position power printf quote radians regexp_matches regexp_replace replace reverse
    round rtrim sign sin sqrt strftime string_agg strlen strpos substr substring tan time
    total trim trunc typeof unicode upper""".split()
)
# Table functions that generate values (any other function in FROM may read outside).
_SQL_TABLE_FUNCTIONS = frozenset({"generate_series", "range", "unnest", "json_each", "json_tree"})


def _sql_function_outside(node: Any) -> str | None:
    from sqlglot import exp

    if isinstance(node, exp.Anonymous):
        name = str(node.name).lower()
        return None if name in SQL_FUNCTIONS else f"{name}() (a function not known to only read)"
    io = (exp.ReadCSV, exp.ReadParquet, exp.ToFile, exp.NextValueFor)
    if isinstance(node, io):
        return f"{node.sql_name()}() (reads or writes outside the graph)"
    return None


def _sql_table_outside(table: Any, allowed: set[str]) -> str | None:
    from sqlglot import exp

    source = table.this
    if isinstance(source, exp.Identifier):
        name = ".".join(p.name for p in table.parts).lower()
        return None if name in allowed else f"{name!r} (not a table of the database)"
    if isinstance(source, exp.Func):
        fname = (source.name if isinstance(source, exp.Anonymous) else source.sql_name()).lower()
        if fname in _SQL_TABLE_FUNCTIONS or isinstance(source, (exp.GenerateSeries, exp.Unnest)):
            return None
        return f"{fname}() in FROM (a table function not known to only read)"
    return None


def sql_outside(text: str, dialect: str, tables: set[str]) -> tuple[str, ...]:
    """What in the SQL ``text`` a read-only query may not do (module docstring): read a table
    not in ``tables`` (or the query's CTEs), call a function not known to only read."""
    import sqlglot
    from sqlglot import exp

    from ..dialect import get_dialect

    flavour = getattr(get_dialect(dialect), "sql_dialect", None)
    found: list[str] = []
    for statement in sqlglot.parse(text, read=flavour or None):
        if statement is None:
            continue
        allowed = tables | {str(c.alias_or_name).lower() for c in statement.find_all(exp.CTE)}
        for node in statement.walk():
            if isinstance(node, exp.Table):
                why = _sql_table_outside(node, allowed)
            elif isinstance(node, exp.Func):
                why = _sql_function_outside(node)
            else:
                why = None
            if why is not None and why not in found:
                found.append(why)
    return tuple(found)


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


def check_read_only(
    prepared: Any, engine: str, tables: Callable[[], set[str]] | None = None
) -> None:
    """Refuse, in a read-only run, a query that would write or do anything but read the graph
    (module docstring), or that gqlir cannot read. ``tables``: the names of the tables and
    views an SQL query may read (lower case, plain and schema-qualified)."""
    if prepared.writes:
        raise EngineError(
            f"{engine}: refused in a read-only run: the query writes "
            f"({', '.join(prepared.writes)})",
            code="READ_ONLY",
        )
    if prepared.statement is not None:
        outside = ir_outside(prepared.statement)
    elif prepared.writes is not None and tables is not None:
        outside = sql_outside(prepared.text, prepared.dialect, tables())
    else:
        raise EngineError(
            f"{engine}: refused in a read-only run: gqlir cannot read this "
            f"{prepared.dialect} text to check that it only reads the graph",
            code="READ_ONLY",
        )
    if outside:
        raise EngineError(
            f"{engine}: refused in a read-only run: the query may only read the graph, and "
            f"it holds {', '.join(outside)}",
            code="READ_ONLY",
        )
