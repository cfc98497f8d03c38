"""SQL → Graph-IR: sqlglot parses (any of its dialects), a schema mapping resolves the names.

SQL names tables and columns; the IR names labels and properties. The
:class:`~gqlir.sqlmapping.SqlMapping` says which table holds which node or edge type, and
lowering follows it:

* **Tables.** A node table in ``FROM`` is a node pattern (its alias is the variable); an edge
  (association) table is an edge pattern from its source to its target type, with endpoint
  nodes of its own.
* **Joins the mapping explains become patterns.** Every column that holds a node's key is a
  reference to that node: a node table's key columns (the node itself), an edge table's source
  and target columns (its endpoints), a foreign-key column (the node the foreign-key edge points
  to). An equality of two such references to the same node type, covering the whole key, says
  the two are the same node, so their variables are unified; a foreign-key reference unified
  with a node is the edge ``(owner)-[:FK]->(node)``, always in the direction the data is stored
  (Neo4j's JDBC translator reverses it). Any other join condition is a value join: a WHERE
  comparison, never an invented edge. ``LEFT JOIN`` is ``OPTIONAL MATCH``; its ON condition
  stays with it.
* **Edge uniqueness.** Cypher and ISO GQL never bind one edge twice in a MATCH; SQL joins may
  join an association table with itself. Edge patterns of one type are put in separate MATCH
  steps, so nothing is excluded that SQL keeps.
* **Grouping.** SQL groups explicitly, the IR implicitly (by the non-aggregate items). A query
  whose GROUP BY keys are its non-aggregate select items (up to columns of a node whose key is
  grouped, which do not change the groups) is one projection; any other (keys not selected,
  HAVING, a constant next to an aggregate) is two: the keys and aggregates under fresh names,
  then a filter and the select list over them.
* **SQL meanings the IR spells differently.** ``SUM`` of no values is null (``CASE WHEN
  count(x) < 1 THEN NULL ELSE sum(x) END``, the GQL front end's form); a division whose divisor
  is not a non-zero literal is null on a zero divisor where the flavour says so (sqlglot's
  ``safe`` division: SQLite) and computes in floats where ``/`` is always a float division
  (sqlglot's untyped division: DuckDB); SQLite's ``LIKE`` ignores ASCII case; ``LIKE`` with a
  literal pattern becomes STARTS WITH / ENDS WITH / CONTAINS / = or a regular expression;
  ``x IN (subquery)`` and ``NOT IN`` in a condition become EXISTS tests with SQL's null rules;
  ORDER BY keeps the flavour's null placement (sqlglot fills it in): where it differs from the
  graph languages' (nulls where the largest values go) a leading ``key IS NULL`` key states it,
  and a key that can never be null simply takes theirs; text compared with a date or date-time
  column is a temporal literal (the graph holds the column typed; see
  :meth:`SqlReader._temporal_literal` for SQLite's text comparison).
* **Subqueries.** EXISTS is ``EXISTS { … }`` (correlated columns are the outer variables, and
  correlated key equalities unify as joins do); a scalar subquery that aggregates is a
  ``CALL`` subquery; a derived table or CTE is a pipeline prefix (the first one) or an
  uncorrelated ``CALL``; a recursive CTE that follows one edge type from a start set (with
  ``UNION``: a set of reachable rows) is a variable-length path ``-[:E]->{0,}`` searched with
  ``ANY SHORTEST`` (one path per reached node gives the same set without enumerating trails);
  a RIGHT JOIN as the first join is a LEFT JOIN with its two tables swapped.

Everything else (window functions, FULL joins and later RIGHT joins, scalar subqueries without an aggregate,
functions without a same-meaning graph function, …) raises :class:`UnsupportedError` naming the
construct.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .. import ir
from ..analysis.aggregates import aggregates, distinct_aggregates
from ..analysis.types import (
    ANY,
    TEMPORAL,
    TypeAnalysis,
    VType,
    from_value_kind,
    property_type,
    value_kind_of,
)
from ..dialect import Dialect
from ..errors import ParseError, SchemaError, SemanticError, UnsupportedError
from ..schema.model import Property
from ..schema.relational import EdgeTable, NodeTable, Table
from ..schema.types import TypeKind
from ..sqlflavours import COLLATED_STRINGS, LIKE_FOLDS_ASCII, MOD_BY_ZERO_IS_NULL, TEXT_TEMPORALS
from ..sqlmapping import SqlMapping
from .aggregates import null_below
from .literals import decimal, decode_float

__all__ = ["SqlReader", "parse_sql"]

K = TypeKind


_TEMPORAL_TYPES = frozenset(
    {K.DATE, K.DATETIME, K.LOCAL_DATETIME, K.TIME, K.LOCAL_TIME, K.DURATION}
)
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ISO_LOCAL_DATETIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")
_FLIP = {
    ir.CompOp.EQ: ir.CompOp.EQ,
    ir.CompOp.NE: ir.CompOp.NE,
    ir.CompOp.LT: ir.CompOp.GT,
    ir.CompOp.GT: ir.CompOp.LT,
    ir.CompOp.LE: ir.CompOp.GE,
    ir.CompOp.GE: ir.CompOp.LE,
}

_SQL_TYPES = {  # SQL type family -> IR cast type name
    "INT": "INTEGER",
    "FLOAT": "FLOAT",
    "TEXT": "STRING",
    "BOOLEAN": "BOOLEAN",
}


def parse_sql(text: str, dialect: Dialect, schema: Any) -> ir.Query:
    """Read SQL ``text`` of ``dialect`` (family ``sql``) into the IR through ``schema``.

    SQL/PGQ (grammar ``sqlpgq``) hands each GRAPH_TABLE to the GQL grammar first; its graph
    part needs no mapping, so ``schema`` is only required when tables are named too. Plain SQL
    without a ``schema`` reads each table as a node type and each join as a value join
    (:mod:`gqlir.schema.inferred`)."""
    from ..sqlmapping import mapping_for

    require_sqlglot()
    if dialect.grammar == "sqlpgq":
        from .property_graph import read_property_graph_statement
        from .sqlpgq import split_graph_tables

        statement = read_property_graph_statement(text, dialect)
        if statement is not None:
            return statement  # type: ignore[return-value]

        sql, tables = split_graph_tables(text, dialect)
        mapping = mapping_for(schema, dialect=dialect.sql_dialect) if schema is not None else None
        from ..sqlpgqforms import form_of

        reader = SqlReader(dialect, mapping, tables, folds=form_of(dialect).folds)
        query = reader.read(sql)
        return query
    if schema is None:
        from ..schema.inferred import tables_of_sql

        # No mapping: each table the query names is a node type and each join a value join.
        schema = tables_of_sql(text, dialect.sql_dialect).schema
    mapping = mapping_for(schema, dialect=dialect.sql_dialect)
    return SqlReader(dialect, mapping).read(text)


def require_sqlglot() -> None:
    """SQL goes through sqlglot, an optional dependency (the ``sql`` extra)."""
    from ..optional import require

    require("sqlglot", extra="sql", purpose="reading and writing SQL")


# =============================================================================================
# variables, groups and bindings
# =============================================================================================


@dataclass(eq=False)
class _Group:
    """One MATCH step to be: an inner join group, a LEFT JOIN (optional), or a foreign-key
    traversal added for a value (``late``)."""

    index: int
    optional: bool
    late: bool = False
    depth: int = 0
    nodes: list[_NodeVar] = field(default_factory=list)
    edges: list[_EdgeVar] = field(default_factory=list)
    where: list[ir.Expr] = field(default_factory=list)


@dataclass(eq=False)
class _NodeVar:
    token: str
    label: str
    group: _Group | None  # None: bound outside this SELECT (an outer query, a derived table)
    hidden: bool
    wanted: str  # the name to give it if it becomes the representative
    serial: int
    parent: _NodeVar | None = None
    nullable: bool = False  # bound by an optional group, or an outer nullable variable

    def find(self) -> _NodeVar:
        node = self
        while node.parent is not None:
            node = node.parent
        return node


@dataclass(eq=False)
class _EdgeVar:
    token: str
    label: str
    table: EdgeTable
    source: _NodeVar
    target: _NodeVar
    group: _Group
    named: bool  # bound to a SQL alias (its properties or identity may be used)
    wanted: str


@dataclass(eq=False)
class _TableBinding:
    alias: str
    table: Table
    node: NodeTable | None
    edge: EdgeTable | None
    var: _NodeVar | None = None
    edge_var: _EdgeVar | None = None


@dataclass(eq=False)
class _DerivedBinding:
    alias: str
    columns: list[tuple[str, str]]  # (SQL column name, IR variable)
    types: dict[str, str | None] = field(default_factory=dict)
    nullable: dict[str, bool] = field(default_factory=dict)


_Binding = _TableBinding | _DerivedBinding


@dataclass(frozen=True)
class _KeyRef:
    """A column that holds part ``index`` of the key of a node: the node variable itself, or a
    foreign key of ``owner`` along ``edge`` (materialised on demand)."""

    label: str
    index: int
    var: _NodeVar | None = None
    owner: _NodeVar | None = None
    edge: EdgeTable | None = None

    @property
    def target(self) -> tuple:
        if self.var is not None:
            return ("node", id(self.var.find()))
        assert self.owner is not None and self.edge is not None
        return ("fk", id(self.owner.find()), self.edge.label)


@dataclass(frozen=True)
class _Column:
    """An output column of a compiled SELECT: its SQL name and IR value."""

    name: str
    expr: ir.Expr


class _Scope:
    """The FROM clause of one SELECT: its bindings, match groups and extra steps."""

    def __init__(self, parent: _Scope | None, ctes: dict[str, Any]) -> None:
        self.parent = parent
        self.ctes = ctes
        self.bindings: dict[str, _Binding] = {}
        self.order: list[_Binding] = []
        self.groups: list[_Group] = []
        self.where: list[ir.Expr] = []
        self.prefix: list[ir.Step] = []  # inlined first derived table, uncorrelated CALLs
        self.calls: list[ir.Step] = []  # correlated CALL subqueries (scalar subqueries)
        self.fk_targets: dict[tuple[int, str], _NodeVar] = {}
        self.used_outer: set[str] = set()  # outer variable tokens referenced
        self.context: _Group | None = None  # the LEFT JOIN whose ON condition is being read
        self.depth: int = parent.depth + 1 if parent is not None else 0

    def new_group(self, optional: bool, late: bool = False) -> _Group:
        g = _Group(len(self.groups), optional, late, self.depth)
        self.groups.append(g)
        return g

    def lookup(self, alias: str) -> _Binding | None:
        return self.bindings.get(alias.lower())


# =============================================================================================
# the reader
# =============================================================================================


class SqlReader:
    """Lowers one SQL statement of one flavour into Graph-IR through a mapping."""

    def __init__(
        self,
        dialect: Dialect,
        mapping: SqlMapping | None,
        graph_tables: dict | None = None,
        folds: str = "",
    ) -> None:
        self.dialect = dialect
        #: the case unquoted names are folded to ("upper", "lower"; "": kept as written)
        self.folds = folds
        self.mapping: Any = mapping
        self.graph_tables = graph_tables or {}
        #: GRAPH_TABLE column variable -> the COLUMNS expression (folded after reading)
        self.graph_columns: dict[str, ir.Expr] = {}
        self.flavour = dialect.sql_dialect or ""
        self.text = ""
        self._serial = 0
        self._names: set[str] = set()
        self._tokens: dict[str, _NodeVar | _EdgeVar | None] = {}
        self._var_types: dict[str, str | None] = {}
        self._var_nullable: dict[str, bool] = {}

    # -- entry ---------------------------------------------------------------------------------

    def read(self, text: str) -> ir.Query:
        from sqlglot import exp

        from .sqlglot_io import parse

        self.text = text
        statements = parse(text, self.flavour or None)
        if len(statements) != 1:
            raise ParseError(
                f"expected one SQL statement, got {len(statements)}",
                text=text,
                offset=0,
                code="PARSE_STATEMENTS",
            )
        stmt = statements[0]
        if not isinstance(stmt, exp.Query):
            raise self.unsupported(f"SQL statement {stmt.key.upper()}", stmt)
        if self.folds:
            from .sqlpgq import fold_name

            for ident in stmt.find_all(exp.Identifier):
                if not ident.quoted:
                    ident.set("this", fold_name(ident.this, self.folds))
        self._names = set()
        self._tokens = {}
        self.graph_columns = {}
        for gt in self.graph_tables.values():
            for n in gt.match.walk():
                if isinstance(n, (ir.NodePattern, ir.RelPattern)) and n.variable:
                    self._names.add(n.variable.lower())
        query = self.query(stmt, None, {})
        query = self._finalise(query)
        if self.graph_columns:
            from .sqlpgq import fold_columns

            query = fold_columns(query, self.graph_columns)
        return query

    # -- errors --------------------------------------------------------------------------------

    def unsupported(
        self,
        construct: str,
        node: Any = None,
        rewrite: str | None = None,
        message: str | None = None,
    ) -> UnsupportedError:
        return UnsupportedError(
            construct,
            self.dialect.name,
            message
            or f"{construct} has no same-meaning graph query form (reading {self.dialect.name})",
            rewrite=rewrite,
            text=self.text,
            offset=_offset(node),
        )

    def semantic(self, message: str, node: Any = None) -> SemanticError:
        return SemanticError(message, text=self.text, offset=_offset(node), code="SQL_NAME")

    # -- names ---------------------------------------------------------------------------------

    def _token(self, kind: str, owner: _NodeVar | _EdgeVar | None = None) -> str:
        self._serial += 1
        token = f"\x00{kind}{self._serial}"
        self._tokens[token] = owner
        return token

    def _claim(self, wanted: str) -> str:
        base = _identifier(wanted)
        name, k = base, 1
        while name.lower() in self._names:
            k += 1
            name = f"{base}_{k}"
        self._names.add(name.lower())
        return name

    def _new_node(self, label: str, group: _Group | None, hidden: bool, wanted: str) -> _NodeVar:
        self._serial += 1
        var = _NodeVar("", label, group, hidden, wanted, self._serial)
        var.token = self._token("n", var)
        var.nullable = bool(group and group.optional)
        if group is not None:
            group.nodes.append(var)
        return var

    def _new_edge(
        self,
        table: EdgeTable,
        source: _NodeVar,
        target: _NodeVar,
        group: _Group,
        named: bool,
        wanted: str,
    ) -> _EdgeVar:
        edge = _EdgeVar("", table.label, table, source, target, group, named, wanted)
        edge.token = self._token("e", edge)
        group.edges.append(edge)
        return edge

    def _var(self, token: str) -> ir.Variable:
        return ir.Variable(token)

    # =========================================================================================
    # queries
    # =========================================================================================

    def query(self, node: Any, parent: _Scope | None, ctes: dict[str, Any]) -> ir.Query:
        """A SELECT or a set operation, as an IR query whose last step is its projection."""
        query, _ = self.query_columns(node, parent, ctes)
        return query

    def query_columns(
        self, node: Any, parent: _Scope | None, ctes: dict[str, Any]
    ) -> tuple[ir.Query, list[str]]:
        from sqlglot import exp

        ctes = self._ctes(node, ctes)
        if isinstance(node, exp.Subquery):
            return self.query_columns(node.this, parent, ctes)
        if isinstance(node, exp.Select):
            return self.select(node, parent, ctes)
        if isinstance(node, (exp.Union, exp.Intersect, exp.Except)):
            return self.set_operation(node, parent, ctes)
        raise self.unsupported(f"SQL query {node.key.upper()}", node)

    def _ctes(self, node: Any, ctes: dict[str, Any]) -> dict[str, Any]:
        with_ = node.args.get("with_") or node.args.get("with")
        if not with_:
            return ctes
        out = dict(ctes)
        for cte in with_.expressions:
            name = cte.alias_or_name.lower()
            out[name] = (cte, bool(with_.args.get("recursive")), out)
        return out

    def set_operation(
        self, node: Any, parent: _Scope | None, ctes: dict[str, Any]
    ) -> tuple[ir.Query, list[str]]:
        from sqlglot import exp

        op = {
            exp.Union: ir.SetOp.UNION,
            exp.Intersect: ir.SetOp.INTERSECT,
            exp.Except: ir.SetOp.EXCEPT,
        }[type(node)]
        left, names = self.query_columns(node.this, parent, ctes)
        right, right_names = self.query_columns(node.expression, parent, ctes)
        if len(names) != len(right_names):
            raise self.semantic(
                f"{op.value} branches have {len(names)} and {len(right_names)} columns", node
            )
        right = _rename_columns(right, names)
        distinct = node.args.get("distinct")
        query: ir.Query = ir.SetOperation(op, left, right, all=distinct is False)
        order = node.args.get("order")
        limit, offset = node.args.get("limit"), node.args.get("offset")
        if order or limit or offset:
            query = self._ordered_set_operation(query, names, node)
        return query, names

    def _ordered_set_operation(self, query: ir.Query, names: list[str], node: Any) -> ir.Query:
        """``… UNION … ORDER BY … LIMIT n``: the set operation runs in a CALL subquery, and a
        projection of its columns orders and pages the rows."""
        from sqlglot import exp

        items = tuple(ir.ReturnItem(ir.Variable(n), n) for n in names)
        order: list[ir.SortItem] = []
        for o in node.args.get("order").expressions if node.args.get("order") else []:
            key = o.this
            if isinstance(key, exp.Literal) and key.is_int:
                k = decimal(key.name, _offset(key))
                if not 1 <= k <= len(names):
                    raise self.semantic(f"ORDER BY position {k} is out of range", o)
                name = names[k - 1]
            elif isinstance(key, exp.Column) and not key.table and key.name in names:
                name = key.name
            else:
                raise self.unsupported("ORDER BY of a set operation by an expression", o)
            order.extend(self._sort_item(ir.Variable(name), o, nullable=True))
        skip, limit = self._paging(node)
        for n in names:
            self._names.add(n.lower())
        return ir.LinearQuery(
            (
                ir.CallSubquery(query, imports=()),
                ir.Projection(items, order_by=tuple(order), skip=skip, limit=limit),
            )
        )

    # -- SELECT -------------------------------------------------------------------------------

    def select(
        self, node: Any, parent: _Scope | None, ctes: dict[str, Any], extra: list | None = None
    ) -> tuple[ir.Query, list[str]]:
        from sqlglot import exp

        for unsupported in ("joins_lateral", "windows", "qualify", "connect", "prewhere"):
            if node.args.get(unsupported):
                raise self.unsupported(unsupported.upper(), node)
        if any(isinstance(x, exp.Window) for x in node.find_all(exp.Window)):
            raise self.unsupported("window function", node.find(exp.Window))
        scope = _Scope(parent, ctes)
        self.from_clause(node, scope)
        where = node.args.get("where")
        conjuncts = _conjuncts(where.this) if where else []
        self.where_clause(conjuncts, scope, extra or [])
        columns, steps = self.projection(node, scope)
        query = ir.LinearQuery(tuple(self.layout(scope) + steps))
        return query, [c.name for c in columns]

    # -- FROM ---------------------------------------------------------------------------------

    def from_clause(self, node: Any, scope: _Scope) -> None:
        from sqlglot import exp

        from_ = node.args.get("from_") or node.args.get("from")
        if from_ is None:
            if node.args.get("joins"):
                raise self.unsupported("JOIN without FROM", node)
            return
        joins = list(node.args.get("joins") or [])
        head = from_.this
        if joins and (joins[0].args.get("side") or "").upper() == "RIGHT":
            # A RIGHT JOIN B ON c is B LEFT JOIN A ON c: the right table leads
            if any(
                isinstance(x, exp.Star) or (isinstance(x, exp.Column) and x.is_star)
                for x in node.expressions
            ):
                raise self.unsupported(
                    "RIGHT JOIN with SELECT *",
                    joins[0],
                    rewrite="list the columns, or a LEFT JOIN with the tables swapped",
                )
            right = joins[0]
            head = right.this
            joins[0] = right.__class__(**{**right.args, "this": from_.this, "side": "LEFT"})
        first = self.bind(head, scope, scope.new_group(False), first=True)
        del first
        for join in joins:
            kind = (join.args.get("kind") or "").upper()
            side = (join.args.get("side") or "").upper()
            if join.args.get("method") or kind == "NATURAL":
                raise self.unsupported("NATURAL JOIN", join, rewrite="JOIN … ON the columns")
            if side in ("RIGHT", "FULL"):
                raise self.unsupported(
                    f"{side} JOIN",
                    join,
                    rewrite="a LEFT JOIN with the tables swapped" if side == "RIGHT" else None,
                )
            if kind in ("SEMI", "ANTI", "ASOF", "POSITIONAL"):
                raise self.unsupported(f"{kind} JOIN", join)
            on = join.args.get("on")
            using = join.args.get("using")
            if side == "LEFT":
                self.left_join(join.this, on, using, scope)
                continue
            group = self._inner_group(scope)
            binding = self.bind(join.this, scope, group)
            conds = _conjuncts(on) if on is not None else []
            if using:
                conds += self._using(using, binding, scope, join)
            if conds:
                self.where_clause(conds, scope, [], inner_group=group)
        if isinstance(from_.this, exp.Subquery) and from_.this.args.get("pivots"):
            raise self.unsupported("PIVOT", from_.this)

    def _inner_group(self, scope: _Scope) -> _Group:
        last = scope.groups[-1] if scope.groups else None
        if last is not None and not last.optional:
            return last
        return scope.new_group(False)

    def _using(self, using: list, binding: _Binding, scope: _Scope, node: Any) -> list:
        from sqlglot import exp

        conds = []
        for ident in using:
            name = ident.name
            left = None
            for b in reversed(scope.order[:-1]):
                if self._has_column(b, name):
                    left = b
                    break
            if left is None:
                raise self.semantic(f"USING column {name!r} is not in the tables before", node)
            conds.append(
                exp.EQ(
                    this=exp.column(name, table=left.alias),
                    expression=exp.column(name, table=binding.alias),
                )
            )
        return conds

    def bind(self, item: Any, scope: _Scope, group: _Group, first: bool = False) -> _Binding:
        """Bring a FROM item into scope: a table (node or edge pattern), a derived table or a
        CTE (a pipeline prefix or a CALL subquery)."""
        from sqlglot import exp

        if isinstance(item, exp.Subquery):
            alias = item.alias_or_name or f"subquery_{len(scope.order) + 1}"
            return self.derived(item.this, alias, scope, first, item)
        if not isinstance(item, exp.Table):
            raise self.unsupported(f"FROM item {item.key.upper()}", item)
        if item.args.get("db") or item.args.get("catalog"):
            raise self.unsupported("table in another schema", item)
        name = item.name
        alias = item.alias_or_name
        graph_table = self.graph_tables.get(name)
        if graph_table is not None:
            return self.graph_table(graph_table, item, scope, first)
        cte = scope.ctes.get(name.lower())
        if cte is not None:
            return self.cte_binding(cte, alias, scope, first, item)
        if self.mapping is None:
            raise SchemaError(
                f"table {name!r}: reading tables outside GRAPH_TABLE needs a schema mapping "
                "(schema=...)",
                text=self.text,
                offset=_offset(item),
                code="SCHEMA_REQUIRED",
            )
        table = self.mapping.table(name)
        if table is None:
            raise self.semantic(f"no table {name!r} in the schema mapping", item)
        if alias.lower() in scope.bindings:
            raise self.semantic(f"table alias {alias!r} is used twice", item)
        node_map = self.mapping.node_table(table.name)
        edge_map = self.mapping.edge_table(table.name)
        binding = _TableBinding(alias, table, node_map, edge_map)
        wanted = (item.args.get("alias") and alias) or table.name.lower()
        if node_map is not None:
            binding.var = self._new_node(node_map.label, group, False, wanted)
        elif edge_map is not None:
            src = self._new_node(edge_map.source, group, True, edge_map.source.lower())
            dst = self._new_node(edge_map.target, group, True, edge_map.target.lower())
            binding.edge_var = self._new_edge(edge_map, src, dst, group, True, wanted)
        else:
            raise self.semantic(f"table {name!r} holds neither nodes nor edges", item)
        scope.bindings[alias.lower()] = binding
        scope.order.append(binding)
        return binding

    def graph_table(self, gt: Any, item: Any, scope: _Scope, first: bool) -> _DerivedBinding:
        """A GRAPH_TABLE: its MATCH and a projection of its COLUMNS, as a derived table whose
        columns are folded back into their expressions once the query is read."""
        alias = item.args.get("alias")
        alias_name = alias.name if alias is not None and alias.name else "graph_table"
        columns = gt.columns
        if alias is not None and alias.columns:
            # AS t (a, b): the columns renamed in order (PostgreSQL docs/19 queries-graph.html)
            renamed = [c.name for c in alias.columns]
            if len(renamed) > len(columns):
                raise self.semantic(
                    f"GRAPH_TABLE has {len(columns)} columns and {len(renamed)} are named", item
                )
            columns = tuple(
                replace(c, alias=renamed[k]) if k < len(renamed) else c
                for k, c in enumerate(columns)
            )
        query = ir.LinearQuery((ir.UseGraph(gt.graph), gt.match, ir.Projection(columns)))
        names = [c.alias for c in columns]
        binding = self._derived_binding(query, names, alias_name, scope, first, item)
        for (_, var), column in zip(binding.columns, columns):
            self.graph_columns[var] = column.expr
        return binding

    def left_join(self, item: Any, on: Any, using: Any, scope: _Scope) -> None:
        from sqlglot import exp

        if isinstance(item, exp.Subquery) or (
            isinstance(item, exp.Table) and item.name.lower() in scope.ctes
        ):
            raise self.unsupported("LEFT JOIN of a derived table", item)
        group = scope.new_group(True)
        binding = self.bind(item, scope, group)
        conds = _conjuncts(on) if on is not None else []
        if using:
            conds += self._using(using, binding, scope, item)
        own = binding.var if isinstance(binding, _TableBinding) else None
        rest = self.unify_conjuncts(conds, scope, group, own=own, only=len(conds) == 1)
        scope.context = group
        try:
            for c in rest:
                group.where.append(self.condition(c, scope, group))
        finally:
            scope.context = None

    def derived(
        self, body: Any, alias: str, scope: _Scope, first: bool, node: Any
    ) -> _DerivedBinding:
        query, names = self.query_columns(body, None, scope.ctes)
        return self._derived_binding(query, names, alias, scope, first, node)

    def _derived_binding(
        self, query: ir.Query, names: list[str], alias: str, scope: _Scope, first: bool, node: Any
    ) -> _DerivedBinding:
        if alias.lower() in scope.bindings:
            raise self.semantic(f"table alias {alias!r} is used twice", node)
        variables = [self._claim(n) for n in names]
        types = {v: self._var_types.get(n) for v, n in zip(variables, names)}
        nullable = {v: True for v in variables}
        if isinstance(query, ir.LinearQuery) and isinstance(query.steps[-1], ir.Projection):
            last = query.steps[-1]
            for v, item in zip(variables, last.items):
                types[v] = self.type_of(item.expr)
                nullable[v] = self.nullable(item.expr)
        query = _rename_columns(query, variables)
        for v in variables:
            self._var_types[v] = types[v]
            self._var_nullable[v] = nullable[v]
        if not scope.prefix and isinstance(query, ir.LinearQuery):
            scope.prefix.extend(query.steps)
        else:
            scope.prefix.append(ir.CallSubquery(query, imports=()))
        binding = _DerivedBinding(alias, list(zip(names, variables)), types, nullable)
        scope.bindings[alias.lower()] = binding
        scope.order.append(binding)
        return binding

    def cte_binding(
        self, cte: tuple, alias: str, scope: _Scope, first: bool, node: Any
    ) -> _DerivedBinding:
        definition, recursive, ctes = cte
        name = definition.alias_or_name
        body = definition.this
        columns = (
            [c.name for c in (definition.args.get("alias").columns or [])]
            if (definition.args.get("alias"))
            else []
        )
        if recursive and _references(body, name):
            query, names = self.recursive_cte(body, name, columns, ctes, definition)
        else:
            inner = {k: v for k, v in ctes.items() if k != name.lower()}
            query, names = self.query_columns(body, None, inner)
            if columns:
                if len(columns) != len(names):
                    raise self.semantic(f"CTE {name} names {len(columns)} columns", definition)
                names = columns
        return self._derived_binding(query, names, alias, scope, first, node)

    # -- recursive CTEs -----------------------------------------------------------------------

    def recursive_cte(
        self, body: Any, name: str, columns: list[str], ctes: dict, node: Any
    ) -> tuple[ir.Query, list[str]]:
        """``base UNION step`` where the step follows one edge table from the CTE's column:
        the nodes reachable from the base's nodes by zero or more such edges, each once."""
        from sqlglot import exp

        if not isinstance(body, exp.Union):
            raise self.unsupported("recursive CTE that is not base UNION step", node)
        if body.args.get("distinct") is False:
            raise self.unsupported(
                "recursive CTE with UNION ALL",
                node,
                message="a recursive CTE with UNION ALL enumerates walks (and does not end on "
                "a cycle); only the UNION form, a set of reachable rows, has a graph meaning",
                rewrite="UNION",
            )
        base, step = body.this, body.expression
        if _references(base, name) or not isinstance(step, exp.Select):
            raise self.unsupported("recursive CTE whose base refers to itself", node)
        inner = {k: v for k, v in ctes.items() if k != name.lower()}
        base_query, base_names = self.query_columns(base, None, inner)
        if len(base_names) != 1:
            raise self.unsupported("recursive CTE with more than one column", node)
        out_name = columns[0] if columns else base_names[0]
        edge, forward = self._recursive_step(step, name, out_name, node)
        # the base's single column must be the key of a node of the step's type
        last = base_query.steps[-1] if isinstance(base_query, ir.LinearQuery) else None
        start_label = edge.source if forward else edge.target
        key_col = self._key_property(start_label)
        if (
            not isinstance(last, ir.Projection)
            or last.distinct
            or last.order_by
            or last.limit is not None
            or last.skip is not None
            or len(last.items) != 1
            or not isinstance(last.items[0].expr, ir.Property)
            or not isinstance(last.items[0].expr.subject, ir.Variable)
            or last.items[0].expr.key != key_col
            or self._label_of_token(last.items[0].expr.subject.name) != start_label
        ):
            raise self.unsupported(
                "recursive CTE whose base is not a node key",
                node,
                message="the base of a recursive CTE must select the key of the nodes the "
                "recursion starts from",
            )
        start = last.items[0].expr.subject
        end_label = edge.target if forward else edge.source
        end = self._new_node(end_label, None, False, "reached")
        rel = ir.RelPattern(
            ir.Direction.OUT if forward else ir.Direction.IN,
            types=ir.Label(edge.label),
            quantifier=ir.Quantifier(0, None),
        )
        path = ir.PathChain(
            (ir.NodePattern(start.name), rel, ir.NodePattern(end.token, ir.Label(end_label)))
        )
        # one shortest path per reached node: the same set of nodes as every path, without
        # enumerating the (exponentially many) trails
        search = ir.Search(ir.SearchKind.ANY_SHORTEST)
        steps = list(base_query.steps[:-1]) + [
            ir.Match((ir.PathPattern(path, search=search),)),
            ir.Projection(
                (ir.ReturnItem(ir.Property(ir.Variable(end.token), key_col), out_name),),
                distinct=True,
            ),
        ]
        return ir.LinearQuery(tuple(steps)), [out_name]

    def _recursive_step(self, step: Any, name: str, col: str, node: Any) -> tuple[EdgeTable, bool]:
        from sqlglot import exp

        from_ = step.args.get("from_") or step.args.get("from")
        joins = step.args.get("joins") or []
        items = [from_.this] + [j.this for j in joins] if from_ else []
        if (
            len(items) != 2
            or step.args.get("group")
            or step.args.get("having")
            or len(step.expressions) != 1
            or any((j.args.get("side") or "") for j in joins)
        ):
            raise self.unsupported("recursive CTE step that is not one edge table", node)
        tables = [t for t in items if isinstance(t, exp.Table)]
        edge_item = next((t for t in tables if t.name.lower() != name.lower()), None)
        cte_item = next((t for t in tables if t.name.lower() == name.lower()), None)
        if edge_item is None or cte_item is None:
            raise self.unsupported("recursive CTE step that is not one edge table", node)
        edge = self.mapping.edge_table(edge_item.name)
        if edge is None or len(edge.source_columns) != 1:
            raise self.unsupported("recursive CTE step over a table that holds no edges", edge_item)
        conds = _conjuncts(joins[0].args.get("on")) if joins[0].args.get("on") else []
        where = step.args.get("where")
        if where is not None:
            conds += _conjuncts(where.this)
        if len(conds) != 1 or not isinstance(conds[0], exp.EQ):
            raise self.unsupported("recursive CTE step with a condition", node)
        e_alias = edge_item.alias_or_name.lower()
        c_alias = cte_item.alias_or_name.lower()
        sides = {}
        for side in (conds[0].this, conds[0].expression):
            if not isinstance(side, exp.Column):
                raise self.unsupported("recursive CTE step with a condition", node)
            sides[side.table.lower() or ""] = side.name.lower()
        edge_col = sides.get(e_alias)
        if sides.get(c_alias) != col.lower() or edge_col is None:
            raise self.unsupported("recursive CTE step with a condition", node)
        out = step.expressions[0]
        out = out.this if isinstance(out, exp.Alias) else out
        if not isinstance(out, exp.Column) or out.table.lower() not in ("", e_alias):
            raise self.unsupported("recursive CTE step that selects an expression", node)
        src, dst = edge.source_columns[0].lower(), edge.target_columns[0].lower()
        if edge_col == src and out.name.lower() == dst:
            forward = True
        elif edge_col == dst and out.name.lower() == src:
            forward = False
        else:
            raise self.unsupported("recursive CTE step that does not follow an edge", node)
        if edge.source != edge.target:
            raise self.unsupported(
                "recursive CTE over an edge type between different node types", node
            )
        return edge, forward

    def _key_property(self, label: str) -> str:
        node = self.mapping.node(label)
        if node is None or len(node.key_columns) != 1:
            raise self.unsupported(f"node type {label} without a one-column key")
        prop = self.mapping.property_of(node, node.key_columns[0])
        if prop is None:
            raise self.unsupported(f"node type {label} whose key is not a property")
        return prop

    def _label_of_token(self, token: str) -> str | None:
        owner = self._tokens.get(token)
        if isinstance(owner, _NodeVar):
            return owner.label
        if isinstance(owner, _EdgeVar):
            return owner.label
        return None

    # -- joins and conditions -----------------------------------------------------------------

    def where_clause(
        self, conds: list, scope: _Scope, extra: list, inner_group: _Group | None = None
    ) -> None:
        """WHERE (or an inner join's ON): key equalities between inner nodes unify them; the
        other conjuncts are conditions on the whole row."""
        group = inner_group or _WhereGroup
        rest = self.unify_conjuncts(conds, scope, group, extra=extra)
        for c in rest:
            if isinstance(c, tuple):  # an IN-subquery equality: (inner column, outer value)
                scope.where.append(ir.Comparison(ir.CompOp.EQ, self.expr(c[0], scope), c[1].expr))
            else:
                scope.where.append(self.condition(c, scope, None))

    def unify_conjuncts(
        self,
        conds: list,
        scope: _Scope,
        group: Any,
        own: _NodeVar | None = None,
        only: bool = False,
        extra: list | None = None,
    ) -> list:
        """Unify the node variables that key equalities among ``conds`` identify; return the
        conjuncts that remain conditions. ``extra`` holds ``(column, outer _OuterKey)`` pairs
        for the equality of an IN subquery."""
        from sqlglot import exp

        candidates: dict[tuple, dict[int, list]] = {}
        refs: dict[tuple, tuple[_KeyRef, _KeyRef]] = {}
        items: list = list(conds) + list(extra or [])
        for c in items:
            if isinstance(c, tuple):
                left_refs = self.key_refs(c[0], scope)
                right_refs = [c[1].ref] if c[1].ref is not None else []
            elif isinstance(c, exp.EQ):
                left_refs = self.key_refs(c.this, scope)
                right_refs = self.key_refs(c.expression, scope)
            else:
                continue
            for a in left_refs:
                for b in right_refs:
                    if a.label != b.label or a.index != b.index:
                        continue
                    pair = (a.target, b.target)
                    refs.setdefault(pair, (a, b))
                    candidates.setdefault(pair, {}).setdefault(a.index, []).append(c)
        consumed: set[int] = set()
        for pair, by_index in candidates.items():
            a, b = refs[pair]
            size = len(self.mapping.node(a.label).key_columns)  # type: ignore[union-attr]
            if len(by_index) < size:
                continue
            if any(id(c) in consumed for cs in by_index.values() for c in cs):
                continue
            if not self._unify(a, b, scope, group, own, only):
                continue
            for cs in by_index.values():
                consumed.add(id(cs[0]))
        return [c for c in items if id(c) not in consumed]

    def key_refs(self, side: Any, scope: _Scope) -> list[_KeyRef]:
        """The node keys a column can denote (none for other expressions)."""
        from sqlglot import exp

        if not isinstance(side, exp.Column):
            return []
        found = self._find_column(side, scope, quiet=True)
        if found is None:
            return []
        binding, column, _ = found
        if not isinstance(binding, _TableBinding):
            return []
        return self._binding_key_refs(binding, column)

    def _binding_key_refs(self, binding: _TableBinding, column: str) -> list[_KeyRef]:
        low = column.lower()
        out: list[_KeyRef] = []
        if binding.node is not None and binding.var is not None:
            keys = [c.lower() for c in binding.node.key_columns]
            if low in keys:
                out.append(_KeyRef(binding.node.label, keys.index(low), var=binding.var))
            for e in self.mapping.fk_edges(binding.table.name):
                cols = [c.lower() for c in e.target_columns]
                if low in cols:
                    out.append(_KeyRef(e.target, cols.index(low), owner=binding.var, edge=e))
        if binding.edge is not None and binding.edge_var is not None:
            e = binding.edge
            src = [c.lower() for c in e.source_columns]
            dst = [c.lower() for c in e.target_columns]
            if low in src:
                out.append(_KeyRef(e.source, src.index(low), var=binding.edge_var.source))
            if low in dst:
                out.append(_KeyRef(e.target, dst.index(low), var=binding.edge_var.target))
        return out

    def _materialise(self, ref: _KeyRef, group: Any, scope: _Scope) -> _NodeVar:
        if ref.var is not None:
            return ref.var.find()
        assert ref.owner is not None and ref.edge is not None
        owner = ref.owner.find()
        home = _scope_of(owner, scope)
        if home is not scope:  # a foreign key of an enclosing query's row: a value there
            return self.fk_target(owner, ref.edge, home, None)
        return self.fk_target(owner, ref.edge, scope, group)

    def fk_target(
        self, owner: _NodeVar, edge: EdgeTable, scope: _Scope, group: _Group | None
    ) -> _NodeVar:
        """The node ``owner``'s foreign key ``edge`` points to: a hidden node joined by the
        edge in ``group`` (a join being read), or for a value (``group`` None) in the owner's
        group when the key is never null there, else in an OPTIONAL MATCH of its own."""
        key = (id(owner.find()), edge.label)
        found = scope.fk_targets.get(key)
        if found is not None:
            return found.find()
        owner_rep = owner.find()
        if group is None or group is _WhereGroup:
            total = self._fk_total(edge) and not owner_rep.nullable
            if (
                owner_rep.group is not None
                and not owner_rep.group.optional
                and (total or group is _WhereGroup)
            ):
                group = owner_rep.group
            else:
                group = scope.new_group(True, late=True)
        target = self._new_node(edge.target, group, True, edge.target.lower())
        target.nullable = group.optional or owner_rep.nullable
        self._new_edge(edge, owner_rep, target, group, False, edge.label.lower())
        scope.fk_targets[key] = target
        return target

    def _fk_total(self, edge: EdgeTable) -> bool:
        table = self.mapping.table(edge.table)
        assert table is not None
        return all(
            (c := table.column(col)) is not None and not c.nullable for col in edge.target_columns
        )

    def _unify(
        self,
        a: _KeyRef,
        b: _KeyRef,
        scope: _Scope,
        group: Any,
        own: _NodeVar | None,
        only: bool,
    ) -> bool:
        """Make two node references one variable where the join's meaning allows it."""
        join_group = None if group is _WhereGroup else group
        x = self._materialise(a, group, scope).find()
        y = self._materialise(b, group, scope).find()
        if x is y:
            return True
        if group is _WhereGroup and (x.nullable or y.nullable):
            return False  # a WHERE equality filters rows: only inner nodes can merge
        gx, gy = x.group, y.group
        if join_group is not None and join_group.optional:
            if gx is not join_group and gy is not join_group:
                return False
            own_rep = own.find() if own is not None else None
            if own_rep is not None and own_rep in (x, y) and not only:
                other = y if own_rep is x else x
                if other.group is not join_group:
                    return False
        elif join_group is None or (gx is not join_group and gy is not join_group):
            for v in (x, y):
                if v.group is not None and v.group.optional:
                    return False
        # the representative: the variable bound first
        first, second = sorted((x, y), key=_binding_order)
        second.parent = first
        first.nullable = first.nullable and second.nullable
        return True

    # =========================================================================================
    # columns and expressions
    # =========================================================================================

    def _has_column(self, binding: _Binding, name: str) -> bool:
        if isinstance(binding, _TableBinding):
            return binding.table.column(_case(binding.table, name)) is not None
        return any(c.lower() == name.lower() for c, _ in binding.columns)

    def _find_column(
        self, col: Any, scope: _Scope, quiet: bool = False
    ) -> tuple[_Binding, str, _Scope] | None:
        """The binding (searching outward through enclosing queries) that has the column."""
        table = col.table
        name = col.name
        s: _Scope | None = scope
        while s is not None:
            if table:
                b = s.lookup(table)
                if b is not None:
                    if not self._has_column(b, name):
                        if quiet:
                            return None
                        raise self.semantic(f"{table}.{name}: no such column", col)
                    return b, name, s
            else:
                found = [b for b in s.order if self._has_column(b, name)]
                if len(found) > 1:
                    if quiet:
                        return None
                    raise self.semantic(f"column {name!r} is ambiguous", col)
                if found:
                    return found[0], name, s
            s = s.parent
        if quiet:
            return None
        raise self.semantic(
            f"no column {table + '.' if table else ''}{name} in the tables in scope", col
        )

    def column(self, col: Any, scope: _Scope) -> ir.Expr:
        found = self._find_column(col, scope)
        assert found is not None
        binding, name, owner_scope = found
        value = self.binding_column(binding, name, owner_scope, col)
        if owner_scope is not scope:
            for v in value.find_all(ir.Variable):
                scope.used_outer.add(v.name)
                s = scope.parent
                while s is not None and s is not owner_scope:
                    s.used_outer.add(v.name)
                    s = s.parent
        return value

    def binding_column(self, binding: _Binding, name: str, scope: _Scope, node: Any) -> ir.Expr:
        if isinstance(binding, _DerivedBinding):
            for col, var in binding.columns:
                if col.lower() == name.lower():
                    return ir.Variable(var)
            raise self.semantic(f"{binding.alias}.{name}: no such column", node)
        column = _case(binding.table, name)
        if binding.node is not None and binding.var is not None:
            prop = self.mapping.property_of(binding.node, column)
            if prop is not None:
                return ir.Property(ir.Variable(binding.var.token), prop)
            for e in self.mapping.fk_edges(binding.table.name):
                if column in e.target_columns:
                    target = self.fk_target(binding.var, e, scope, scope.context)
                    key_col = e.target_key[e.target_columns.index(column)]
                    return self._key_value(target, key_col, node)
            raise self.unsupported(
                f"column {binding.table.name}.{column}",
                node,
                message=f"column {binding.table.name}.{column} is a surrogate key with no "
                "property in the graph",
            )
        edge = binding.edge
        assert edge is not None and binding.edge_var is not None
        if column in edge.source_columns:
            key_col = edge.source_key[edge.source_columns.index(column)]
            return self._key_value(binding.edge_var.source, key_col, node)
        if column in edge.target_columns:
            key_col = edge.target_key[edge.target_columns.index(column)]
            return self._key_value(binding.edge_var.target, key_col, node)
        prop = self.mapping.property_of(edge, column)
        if prop is None:
            raise self.semantic(f"{binding.alias}.{name}: no such column", node)
        return ir.Property(ir.Variable(binding.edge_var.token), prop)

    def _key_value(self, var: _NodeVar, key_col: str, node: Any) -> ir.Expr:
        nmap = self.mapping.node(var.label)
        assert nmap is not None
        prop = self.mapping.property_of(nmap, key_col)
        if prop is None:
            raise self.unsupported(
                f"column {nmap.table}.{key_col}",
                node,
                message=f"{nmap.table}.{key_col} is a surrogate key with no property in the graph",
            )
        return ir.Property(ir.Variable(var.token), prop)

    def condition(self, node: Any, scope: _Scope, group: _Group | None) -> ir.Expr:
        """A WHERE / ON / HAVING conjunct: where null and false mean the same (filter context)."""
        return self.expr(node, scope, filter_ctx=True)

    def expr(self, node: Any, scope: _Scope, filter_ctx: bool = False) -> ir.Expr:
        from sqlglot import exp

        method = getattr(self, "x_" + type(node).__name__.lower(), None)
        if method is not None:
            return method(node, scope, filter_ctx)
        if isinstance(node, exp.Func):
            return self.function(node, scope)
        raise self.unsupported(f"SQL expression {node.key.upper()}", node)

    # -- atoms ---------------------------------------------------------------------------------

    def x_column(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        from sqlglot import exp

        if isinstance(node.this, exp.Star):
            raise self.unsupported("* in an expression", node)
        return self.column(node, scope)

    def x_paren(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self.expr(node.this, scope, f)

    def x_literal(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        if node.is_string:
            return ir.String(node.this)
        text = node.this
        if re.fullmatch(r"[0-9]+", text):
            return ir.Integer(decimal(text, _offset(node)))
        try:
            return ir.Float(decode_float(text, _offset(node)))
        except ValueError:
            raise self.unsupported(f"numeric literal {text}", node) from None

    def x_null(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return ir.Null()

    def x_boolean(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return ir.Boolean(bool(node.this))

    def x_neg(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        inner = self.expr(node.this, scope)
        if isinstance(inner, ir.Integer):
            return ir.Integer(-inner.value)
        if isinstance(inner, ir.Float):
            return ir.Float(-inner.value)
        return ir.Negate(inner)

    def x_placeholder(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        name = node.name
        if not name:
            raise self.unsupported("positional ? parameter", node, rewrite=":name parameters")
        return ir.Parameter(name)

    def x_parameter(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return ir.Parameter(node.name)

    # -- logic ---------------------------------------------------------------------------------

    def x_and(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return ir.And(self.expr(node.this, scope, f), self.expr(node.expression, scope, f))

    def x_or(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return ir.Or(self.expr(node.this, scope, f), self.expr(node.expression, scope, f))

    def x_xor(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return ir.Xor(self.expr(node.this, scope), self.expr(node.expression, scope))

    def x_not(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        from sqlglot import exp

        inner = node.this
        while isinstance(inner, exp.Paren):
            inner = inner.this
        if isinstance(inner, exp.Is):
            return self._is(inner, scope, negated=True)
        if isinstance(inner, exp.In) and inner.args.get("query") is not None:
            return self._in_subquery(inner, scope, f, negated=True)
        if isinstance(inner, (exp.Like, exp.ILike)):
            return self._like(inner, scope, negated=not inner.args.get("negate"))
        return ir.Not(self.expr(inner, scope))

    def x_is(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._is(node, scope, negated=False)

    def _is(self, node: Any, scope: _Scope, negated: bool) -> ir.Expr:
        from sqlglot import exp

        target = node.expression
        operand = self.expr(node.this, scope)
        if isinstance(target, exp.Null):
            return ir.IsNull(operand, negated=negated)
        if isinstance(target, exp.Boolean):
            value = ir.TruthValue.TRUE if target.this else ir.TruthValue.FALSE
            return ir.IsTruth(operand, value, negated=negated)
        raise self.unsupported("IS with a value other than NULL, TRUE or FALSE", node)

    def _comparison(self, op: ir.CompOp, node: Any, scope: _Scope) -> ir.Expr:
        left = self.expr(node.this, scope)
        right = self.expr(node.expression, scope)
        return self._compare(op, left, right, node)

    def _compare(self, op: ir.CompOp, left: ir.Expr, right: ir.Expr, node: Any) -> ir.Expr:
        for a, b, flip in ((left, right, False), (right, left, True)):
            kind = self._temporal_kind(a)
            if kind is not None and isinstance(b, ir.String):
                op2, literal = self._temporal_literal(
                    kind, b.value, _FLIP[op] if flip else op, node
                )
                return (
                    ir.Comparison(op2, a, literal)
                    if not flip
                    else ir.Comparison(_FLIP[op2], literal, a)
                )
        if self.flavour in COLLATED_STRINGS and "string" in (
            self.type_of(left),
            self.type_of(right),
        ):
            raise self.unsupported(
                "string comparison under a collation",
                node,
                message=f"{self.flavour} compares strings under the column's collation "
                "(case-insensitive by default); graph comparisons are exact",
            )
        return ir.Comparison(op, left, right)

    def _schema_property(self, e: ir.Property) -> Property | None:
        """The schema's declaration of ``v.key`` where ``v`` is a node or edge variable."""
        if not isinstance(e.subject, ir.Variable):
            return None
        owner = self._tokens.get(e.subject.name)
        if owner is None:
            return None
        element = (
            self.mapping.schema.node(owner.label)
            if isinstance(owner, _NodeVar)
            else self.mapping.schema.edge(owner.label)
        )
        return element.prop(e.key) if element is not None else None

    def _temporal_kind(self, e: ir.Expr) -> TypeKind | None:
        """The temporal type of a stored property (the graph holds it typed)."""
        prop = self._schema_property(e) if isinstance(e, ir.Property) else None
        if prop is not None and prop.type.kind in _TEMPORAL_TYPES:
            return prop.type.kind
        return None

    def _temporal_literal(
        self, kind: TypeKind, text: str, op: ir.CompOp, node: Any
    ) -> tuple[ir.CompOp, ir.Expr]:
        """A text compared with a temporal column means a temporal value (the graph holds the
        column typed). SQLite stores such a column as ISO text and compares text, which is the
        same order as the values' when the text has the column's own form; a date-only text
        against a date-time column compares the date prefix in SQLite (so ``s > '2020-01-01'``
        holds from midnight on), and is cast to midnight by the other flavours."""
        if kind == K.DATE and _ISO_DATE.fullmatch(text):
            return op, ir.TemporalLiteral(ir.TemporalKind.DATE, text)
        if kind == K.LOCAL_DATETIME and _ISO_LOCAL_DATETIME.fullmatch(text):
            return op, ir.TemporalLiteral(ir.TemporalKind.LOCAL_DATETIME, text)
        if kind == K.LOCAL_DATETIME and _ISO_DATE.fullmatch(text):
            midnight = ir.TemporalLiteral(ir.TemporalKind.LOCAL_DATETIME, text + "T00:00:00")
            if self.flavour not in TEXT_TEMPORALS:
                return op, midnight
            prefix = {
                ir.CompOp.GE: ir.CompOp.GE,
                ir.CompOp.GT: ir.CompOp.GE,
                ir.CompOp.LT: ir.CompOp.LT,
                ir.CompOp.LE: ir.CompOp.LT,
            }.get(op)
            if prefix is not None:
                return prefix, midnight
        raise self.unsupported(
            "comparison of a temporal column with text",
            node,
            message=f"{text!r} compared with a {kind.value} column: the text is not in the "
            "column's ISO 8601 form, or the comparison depends on how the engine stores it",
            rewrite="a literal in the column's own form (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS)",
        )

    def x_eq(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._comparison(ir.CompOp.EQ, node, scope)

    def x_neq(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._comparison(ir.CompOp.NE, node, scope)

    def x_lt(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._comparison(ir.CompOp.LT, node, scope)

    def x_lte(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._comparison(ir.CompOp.LE, node, scope)

    def x_gt(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._comparison(ir.CompOp.GT, node, scope)

    def x_gte(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._comparison(ir.CompOp.GE, node, scope)

    def x_between(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        if node.args.get("symmetric") or node.args.get("negate"):
            raise self.unsupported("BETWEEN SYMMETRIC", node)
        value = self.expr(node.this, scope)
        low = self.expr(node.args["low"], scope)
        high = self.expr(node.args["high"], scope)
        if not _pure(value):
            raise self.unsupported("BETWEEN on an expression with a subquery", node)
        return ir.And(
            self._compare(ir.CompOp.GE, value, low, node),
            self._compare(ir.CompOp.LE, value, high, node),
        )

    def x_in(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        if node.args.get("negate"):
            raise self.unsupported("IN with a negate flag", node)
        if node.args.get("query") is not None:
            return self._in_subquery(node, scope, f, negated=False)
        if node.args.get("unnest") or node.args.get("field"):
            raise self.unsupported("IN UNNEST", node)
        item = self.expr(node.this, scope)
        values = tuple(self.expr(x, scope) for x in node.expressions)
        return ir.In(item, ir.ListLiteral(values))

    def x_exists(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return ir.Exists(self.subquery_body(node.this, scope))

    # -- arithmetic ----------------------------------------------------------------------------

    def _arith(self, op: ir.ArithOp, node: Any, scope: _Scope) -> ir.Expr:
        left = self.expr(node.this, scope)
        right = self.expr(node.expression, scope)
        for side in (left, right):
            if self.type_of(side) == "string":
                raise self.unsupported(
                    f"arithmetic {op.value} on a string",
                    node,
                    message="SQL converts strings to numbers in arithmetic; graph arithmetic "
                    "does not",
                )
        return ir.Arithmetic(op, left, right)

    def x_add(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._arith(ir.ArithOp.ADD, node, scope)

    def x_sub(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._arith(ir.ArithOp.SUB, node, scope)

    def x_mul(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._arith(ir.ArithOp.MUL, node, scope)

    def x_div(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        """SQL division, with the flavour's meaning as sqlglot records it: ``typed`` (integer
        operands divide to an integer, like the IR) or not (always a float division), ``safe``
        (a zero divisor gives null) or not."""
        left = self.expr(node.this, scope)
        right = self.expr(node.expression, scope)
        if not node.args.get("typed") and self.type_of(left) != "float":
            # the IR's float quotient, which every SQL target writes back as an untyped /
            return self._safe(ir.ArithOp.DIV_FLOAT, left, right, bool(node.args.get("safe")))
        return self._safe(ir.ArithOp.DIV, left, right, bool(node.args.get("safe")))

    def x_intdiv(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        left = self.expr(node.this, scope)
        right = self.expr(node.expression, scope)
        if self.type_of(left) != "int" or self.type_of(right) != "int":
            raise self.unsupported("integer division of values not known to be integers", node)
        return self._safe(ir.ArithOp.DIV, left, right, False)

    def x_mod(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        left = self.expr(node.this, scope)
        right = self.expr(node.expression, scope)
        return self._safe(ir.ArithOp.MOD, left, right, self.flavour in MOD_BY_ZERO_IS_NULL)

    def _safe(self, op: ir.ArithOp, left: ir.Expr, right: ir.Expr, safe: bool) -> ir.Expr:
        """A zero divisor gives null in a safe division: ``x / nullif(y, 0)`` is null there and
        x / y elsewhere (a non-zero literal divisor needs no guard)."""
        if safe and not (isinstance(right, (ir.Integer, ir.Float)) and right.value != 0):
            if not _pure(right):
                raise self.unsupported("division by a subquery", None)
            zero = ir.Comparison(ir.CompOp.EQ, right, ir.Integer(0))
            return ir.Case(None, (ir.CaseWhen(zero, ir.Null()),), ir.Arithmetic(op, left, right))
        return ir.Arithmetic(op, left, right)

    def x_dpipe(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        parts = []
        for side in (node.this, node.expression):
            value = self.expr(side, scope)
            if self.type_of(value) != "string":
                value = self._as_text(value, side)
            parts.append(value)
        return ir.Concat(parts[0], parts[1])

    def _as_text(self, value: ir.Expr, node: Any) -> ir.Expr:
        kind = self.type_of(value)
        if kind == "int":
            return ir.FunctionCall("tostring", (value,))
        if isinstance(value, ir.Null):
            return value
        raise self.unsupported(
            "|| on a value not known to be a string or an integer",
            node,
            message="SQL's || turns any value into text, with each flavour's own spelling of "
            "floats, booleans and dates",
        )

    # -- CASE ----------------------------------------------------------------------------------

    def x_case(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        subject = self.expr(node.this, scope) if node.this is not None else None
        whens = tuple(
            ir.CaseWhen(self.expr(w.this, scope), self.expr(w.args["true"], scope))
            for w in node.args.get("ifs") or []
        )
        default = node.args.get("default")
        return ir.Case(subject, whens, self.expr(default, scope) if default is not None else None)

    def x_if(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        false = node.args.get("false")
        return ir.Case(
            None,
            (ir.CaseWhen(self.expr(node.this, scope), self.expr(node.args["true"], scope)),),
            self.expr(false, scope) if false is not None else None,
        )

    # -- LIKE ----------------------------------------------------------------------------------

    def x_like(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._like(node, scope, negated=bool(node.args.get("negate")))

    def x_ilike(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        return self._like(node, scope, negated=bool(node.args.get("negate")))

    def _like(self, node: Any, scope: _Scope, negated: bool) -> ir.Expr:
        """LIKE with a literal pattern becomes the string predicate it means; SQLite's LIKE and
        every ILIKE compare ASCII letters without case, so both sides are lower-cased (exact
        when the pattern has no other cased letters)."""
        from sqlglot import exp

        if node.args.get("escape") is not None:
            raise self.unsupported("LIKE … ESCAPE", node)
        value = self.expr(node.this, scope)
        if self.type_of(value) not in ("string", None):
            raise self.unsupported("LIKE on a value that is not a string", node)
        pattern_node = node.expression
        if not (isinstance(pattern_node, exp.Literal) and pattern_node.is_string):
            raise self.unsupported(
                "LIKE with a pattern that is not a literal",
                node,
                message="only a literal LIKE pattern can be turned into a graph string predicate",
            )
        pattern = pattern_node.this
        fold = isinstance(node, exp.ILike) or self.flavour in LIKE_FOLDS_ASCII
        if self.flavour in COLLATED_STRINGS:
            raise self.unsupported("LIKE under a collation", node)
        if fold and any(ch.lower() != ch.upper() for ch in pattern):
            if any(not ch.isascii() and ch.lower() != ch.upper() for ch in pattern):
                raise self.unsupported(
                    "case-insensitive LIKE with non-ASCII letters",
                    node,
                    message="SQLite's LIKE folds only ASCII letters",
                )
            value = ir.FunctionCall("lower", (value,))
            pattern = pattern.lower()
        result = _like_predicate(value, pattern)
        return ir.Not(result) if negated else result

    # -- subqueries ----------------------------------------------------------------------------

    def subquery_body(self, node: Any, scope: _Scope, extra: list | None = None) -> ir.Query:
        """The body of EXISTS / IN: a correlated query over the enclosing scope, its projection
        dropped when it only names columns (existence does not depend on them)."""
        from sqlglot import exp

        body = node.this if isinstance(node, exp.Subquery) else node
        if not isinstance(body, exp.Select):
            raise self.unsupported("EXISTS or IN over a set operation", node)
        ctes = self._ctes(body, scope.ctes)
        inner = _Scope(scope, ctes)
        self.from_clause(body, inner)
        where = body.args.get("where")
        self.where_clause(_conjuncts(where.this) if where else [], inner, extra or [])
        plain = not (
            body.args.get("group")
            or body.args.get("having")
            or body.args.get("limit")
            or body.args.get("offset")
            or any(_has_aggregate(e) for e in body.expressions)
        )
        if plain:
            for e in body.expressions:  # still resolve the names, so typos are reported
                if not isinstance(e, exp.Star) and not (
                    isinstance(e, exp.Column) and isinstance(e.this, exp.Star)
                ):
                    self.expr(e.this if isinstance(e, exp.Alias) else e, inner)
            steps = self.layout(inner)
            if not steps:
                raise self.unsupported("EXISTS over a query without FROM", node)
            return ir.LinearQuery(tuple(steps))
        _, more = self.projection(body, inner)
        return ir.LinearQuery(tuple(self.layout(inner) + more))

    def _in_subquery(self, node: Any, scope: _Scope, f: bool, negated: bool) -> ir.Expr:
        """``x IN (SELECT y …)`` in a condition: EXISTS of the subquery's rows with ``y = x``
        (null and false mean the same in a condition). ``x NOT IN (…)`` is true when no ``y``
        equals ``x`` and none is null, and, for a null ``x``, only when there are no rows."""
        from sqlglot import exp

        if not f:
            raise self.unsupported(
                "IN subquery outside a condition",
                node,
                message="x IN (subquery) is null where the graph test would be false; only in "
                "WHERE, ON or HAVING do the two mean the same",
            )
        sub = node.args["query"]
        body = sub.this if isinstance(sub, exp.Subquery) else sub
        if not isinstance(body, exp.Select) or len(body.expressions) != 1:
            raise self.unsupported("IN over a subquery that is not one SELECT of one column", node)
        if (
            body.args.get("group")
            or body.args.get("having")
            or body.args.get("limit")
            or (_has_aggregate(body.expressions[0]))
        ):
            raise self.unsupported("IN over a grouped or limited subquery", node)
        outer = self.expr(node.this, scope)
        refs = self.key_refs(node.this, scope)
        outer_key = _OuterKey(outer, refs[0] if len(refs) == 1 else None)
        column = body.expressions[0]
        column = column.this if isinstance(column, exp.Alias) else column
        if isinstance(column, exp.Star):
            raise self.unsupported("IN over SELECT *", node)
        found = ir.Exists(self.subquery_body(sub, scope, extra=[(column, outer_key)]))
        if not negated:
            return found
        result: ir.Expr = ir.Not(found)
        probe = _Scope(scope, scope.ctes)
        self.from_clause(body, probe)
        inner_value = self.expr(column, probe)
        if self.nullable(inner_value):
            nulls = body.copy()
            cond = exp.Is(this=column.copy(), expression=exp.Null())
            nulls.set(
                "where",
                exp.Where(
                    this=exp.and_(nulls.args["where"].this, cond)
                    if nulls.args.get("where")
                    else cond
                ),
            )
            result = ir.And(result, ir.Not(ir.Exists(self.subquery_body(nulls, scope))))
        if self.nullable(outer):
            empty = ir.Not(ir.Exists(self.subquery_body(sub, scope)))
            result = ir.And(result, ir.Or(ir.IsNull(outer, negated=True), empty))
        return result

    def _one_row_at_most(self, body: Any, scope: _Scope) -> bool:
        """Whether a SELECT gives at most one row because its WHERE fixes the whole key of its
        one node table (``SELECT name FROM publisher AS P WHERE P.publisher_id = B.pid``):
        each key column equal to a literal, a parameter or a column of another table."""
        from sqlglot import exp

        from_ = body.args.get("from_") or body.args.get("from")
        where = body.args.get("where")
        if (
            from_ is None
            or where is None
            or body.args.get("joins")
            or body.args.get("group")
            or body.args.get("having")
            or not isinstance(from_.this, exp.Table)
            or from_.this.name.lower() in scope.ctes
            or self.mapping is None
        ):
            return False
        table = self.mapping.table(from_.this.name)
        node = self.mapping.node_table(table.name) if table is not None else None
        if node is None or not node.key_columns:
            return False
        alias = from_.this.alias_or_name.lower()

        def own(column: Any) -> bool:
            return isinstance(column, exp.Column) and column.table.lower() in ("", alias)

        def outside(value: Any) -> bool:
            if isinstance(value, (exp.Literal, exp.Placeholder, exp.Parameter)):
                return True
            return isinstance(value, exp.Column) and value.table.lower() not in ("", alias)

        fixed = set()
        for cond in _conjuncts(where.this):
            if isinstance(cond, exp.EQ):
                for a, b in ((cond.this, cond.expression), (cond.expression, cond.this)):
                    if own(a) and outside(b):
                        fixed.add(a.name.lower())
        return {k.lower() for k in node.key_columns} <= fixed

    def x_subquery(self, node: Any, scope: _Scope, f: bool) -> ir.Expr:
        """A scalar subquery that aggregates without grouping (exactly one row): a CALL
        subquery that binds its value, importing the outer variables it uses."""
        from sqlglot import exp

        body = node.this
        if not isinstance(body, exp.Select) or len(body.expressions) != 1:
            raise self.unsupported("scalar subquery that is not one SELECT of one column", node)
        item = body.expressions[0]
        if not _has_aggregate(item) and self._one_row_at_most(body, scope):
            # at most one row: its value is the MAX of the one value (null for no row)
            value = item.this if isinstance(item, exp.Alias) else item
            body = body.copy()
            body.set("expressions", [exp.Max(this=value.copy())])
            item = body.expressions[0]
        if body.args.get("group") or not _has_aggregate(item) or body.args.get("limit"):
            raise self.unsupported(
                "scalar subquery without an aggregate",
                node,
                message="a scalar subquery may give no row (null) or, in SQLite, pick one of "
                "several rows; only one that aggregates without GROUP BY always gives one row",
                rewrite="a join, or an aggregate such as MAX(…) in the subquery",
            )
        inner = _Scope(scope, self._ctes(body, scope.ctes))
        self.from_clause(body, inner)
        where = body.args.get("where")
        self.where_clause(_conjuncts(where.this) if where else [], inner, [])
        columns, more = self.projection(body, inner)
        steps = self.layout(inner) + more
        single = _single_row_extreme(steps)
        if single is not None:
            return single
        var = self._claim("sub")
        query = _rename_columns(ir.LinearQuery(tuple(steps)), [var])
        self._var_types[var] = self.type_of(columns[0].expr)
        self._var_nullable[var] = True
        imports = tuple(sorted(self._outer_tokens(query, inner)))
        call = ir.CallSubquery(query, imports=imports)
        if imports:
            scope.calls.append(call)
        else:
            scope.prefix.append(call)
        return ir.Variable(var)

    def _outer_tokens(self, query: ir.Query, inner: _Scope) -> set[str]:
        """The variables of enclosing queries a subquery refers to (a CALL's imports)."""
        out = {n for n in inner.used_outer if not n.startswith("\x00")}
        names: set[str] = set()
        for n in query.walk():
            if isinstance(n, ir.Variable):
                names.add(n.name)
            elif isinstance(n, (ir.NodePattern, ir.RelPattern)) and n.variable:
                names.add(n.variable)
        for token in names:
            owner = self._tokens.get(token)
            if isinstance(owner, _NodeVar):
                owner = owner.find()
                group = owner.group
            elif isinstance(owner, _EdgeVar):
                group = owner.group
            else:
                continue
            if group is not None and group.depth < inner.depth:
                out.add(owner.token)
        return out

    # -- functions -----------------------------------------------------------------------------

    def function(self, node: Any, scope: _Scope) -> ir.Expr:
        from sqlglot import exp

        if isinstance(node, exp.AggFunc):
            return self.aggregate(node, scope)
        simple = {
            exp.Upper: "upper",
            exp.Lower: "lower",
            exp.Abs: "abs",
            exp.Sqrt: "sqrt",
            exp.Ceil: "ceil",
            exp.Floor: "floor",
            exp.Sign: "sign",
            exp.Exp: "exp",
            exp.Ln: "log",
        }
        for cls, name in simple.items():
            if type(node) is cls:
                args = [self.expr(node.this, scope)]
                if cls in (exp.Ceil, exp.Floor) and node.args.get("decimals") is not None:
                    raise self.unsupported(f"{name.upper()} with a precision", node)
                return ir.FunctionCall(name, tuple(args))
        if isinstance(node, exp.Length):
            value = self.expr(node.this, scope)
            if self.type_of(value) != "string":
                raise self.unsupported(
                    "LENGTH of a value not known to be a string",
                    node,
                    message="SQL's LENGTH of a number measures its text",
                )
            return ir.FunctionCall("char_length", (value,))
        if isinstance(node, exp.Coalesce):
            args = [node.this] + list(node.expressions)
            if (
                len(args) == 2
                and isinstance(args[0], exp.Sum)
                and isinstance(args[1], exp.Literal)
                and args[1].this == "0"
            ):
                total = self.expr(args[0], scope)  # SQL's SUM: null for no values
                if isinstance(total, ir.Case) and isinstance(total.default, ir.Aggregate):
                    return total.default  # COALESCE(SUM(x), 0) is the IR's sum: 0 for none
            return ir.FunctionCall("coalesce", tuple(self.expr(a, scope) for a in args))
        if isinstance(node, exp.Nullif):
            return ir.FunctionCall(
                "nullif", (self.expr(node.this, scope), self.expr(node.expression, scope))
            )
        if isinstance(node, exp.Round):
            value = self.expr(node.this, scope)
            digits = node.args.get("decimals")
            places = self.expr(digits, scope) if digits is not None else ir.Integer(0)
            if not isinstance(places, ir.Integer) or places.value < 0:
                raise self.unsupported("ROUND to a precision that is not a literal", node)
            return ir.FunctionCall("round", (value, places))
        if isinstance(node, exp.Substring):
            return self._substring(node, scope)
        if isinstance(node, exp.Cast):
            return self._cast(node, scope)
        if isinstance(node, exp.Replace):
            return ir.FunctionCall(
                "replace",
                (
                    self.expr(node.this, scope),
                    self.expr(node.expression, scope),
                    self.expr(node.args["replacement"], scope),
                ),
            )
        if isinstance(node, exp.Concat):
            parts = [self.expr(a, scope) for a in node.expressions]
            if node.args.get("safe") is False or any(self.type_of(p) != "string" for p in parts):
                raise self.unsupported("CONCAT of values not known to be strings", node)
            out = parts[0]
            for p in parts[1:]:
                out = ir.Concat(out, p)
            return out
        raise self.unsupported(f"function {self._function_name(node)}", node)

    def _function_name(self, node: Any) -> str:
        """The function's name as written (sqlglot may have renamed it: strftime is its
        TIME_TO_STR)."""
        from sqlglot import exp

        if isinstance(node, exp.Anonymous):
            return str(node.this).upper()
        meta = getattr(node, "_meta", None) or {}
        start, end = meta.get("start"), meta.get("end")
        if start is not None and end is not None:
            word = self.text[start : end + 1]
            if re.fullmatch(r"\w+", word):
                return word.upper()
        return node.sql_name() if hasattr(node, "sql_name") else node.key.upper()

    def _substring(self, node: Any, scope: _Scope) -> ir.Expr:
        """SQL positions count from 1 (negative ones from the end in SQLite); the IR's from 0."""
        value = self.expr(node.this, scope)
        start = node.args.get("start")
        length = node.args.get("length")
        first = self.expr(start, scope) if start is not None else ir.Integer(1)
        if not isinstance(first, ir.Integer) or first.value < 1:
            raise self.unsupported("SUBSTR from a position that is not a positive literal", node)
        args: tuple[ir.Expr, ...] = (value, ir.Integer(first.value - 1))
        if length is not None:
            count = self.expr(length, scope)
            if not isinstance(count, ir.Integer) or count.value < 0:
                raise self.unsupported("SUBSTR of a length that is not a literal", node)
            args += (count,)
        return ir.FunctionCall("substring", args)

    def _cast(self, node: Any, scope: _Scope) -> ir.Expr:
        """A cast between number types keeps its meaning as the graph conversion functions;
        any other cast is the IR's CAST (whose failure is an error, as in most SQL engines)."""
        from sqlglot import exp

        value = self.expr(node.this, scope)
        to = node.to
        T = exp.DataType.Type
        if to.this in exp.DataType.INTEGER_TYPES:
            family = "INT"
        elif to.this in exp.DataType.REAL_TYPES:
            family = "FLOAT"
        elif to.this in exp.DataType.TEXT_TYPES:
            family = "TEXT"
        elif to.this == T.BOOLEAN:
            family = "BOOLEAN"
        else:
            raise self.unsupported(f"CAST to {to.sql(dialect=self.flavour or None)}", node)
        kind = self.type_of(value)
        if family == "FLOAT" and kind in ("int", "float"):
            return ir.FunctionCall("tofloat", (value,))
        if family == "INT" and kind == "int":
            return value
        if family == "INT" and kind == "float":
            return ir.FunctionCall("tointeger", (value,))
        if family == "TEXT" and kind == "string":
            return value
        if family == "TEXT" and kind == "int":
            return ir.FunctionCall("tostring", (value,))
        raise self.unsupported(
            f"CAST of a {kind or 'value of unknown type'} to {family}",
            node,
            message="SQL engines convert such values each in their own way",
        )

    def aggregate(self, node: Any, scope: _Scope) -> ir.Expr:
        from sqlglot import exp

        names = {exp.Count: "count", exp.Sum: "sum", exp.Avg: "avg", exp.Min: "min", exp.Max: "max"}
        name = names.get(type(node))
        if name is None:
            label = "GROUP_CONCAT" if isinstance(node, exp.GroupConcat) else node.key.upper()
            raise self.unsupported(f"aggregate {label}", node)
        arg = node.this
        distinct = False
        if isinstance(arg, exp.Distinct):
            if len(arg.expressions) != 1:
                raise self.unsupported(f"{name.upper()}(DISTINCT …) of several values", node)
            distinct = True
            arg = arg.expressions[0]
        if name == "count" and (arg is None or isinstance(arg, exp.Star)):
            return ir.CountStar()
        if isinstance(arg, exp.Star):
            raise self.unsupported(f"{name.upper()}(*)", node)
        value = self.expr(arg, scope)
        if aggregates(value):
            raise self.semantic("an aggregate inside an aggregate", node)
        if name in ("min", "max") and self.type_of(value) == "bool":
            raise self.unsupported(f"{name.upper()} of booleans", node)
        agg = ir.Aggregate(name, (value,), distinct)
        if name == "sum":
            return null_below(agg)
        return agg

    # =========================================================================================
    # SELECT list, grouping, ordering
    # =========================================================================================

    def select_items(self, node: Any, scope: _Scope) -> list[_Column]:
        from sqlglot import exp

        out: list[_Column] = []
        for e in node.expressions:
            if isinstance(e, exp.Star):
                out.extend(self._star(None, scope, e))
                continue
            if isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
                out.extend(self._star(e.table, scope, e))
                continue
            if isinstance(e, exp.Alias):
                out.append(_Column(e.alias, self.expr(e.this, scope)))
                continue
            if isinstance(e, exp.Column):
                out.append(_Column(e.name, self.expr(e, scope)))
                continue
            name = e.sql(dialect=self.flavour or None, normalize_functions="lower")
            out.append(_Column(name, self.expr(e, scope)))
        return out

    def _star(self, table: str | None, scope: _Scope, node: Any) -> list[_Column]:
        from sqlglot import exp

        bindings = scope.order
        if table:
            b = scope.lookup(table)
            if b is None:
                raise self.semantic(f"no table {table!r} in FROM", node)
            bindings = [b]
        if not bindings:
            raise self.semantic("SELECT * without FROM", node)
        out = []
        for b in bindings:
            names = (
                [c.name for c in b.table.columns]
                if isinstance(b, _TableBinding)
                else [c for c, _ in b.columns]
            )
            for n in names:
                out.append(_Column(n, self.column(exp.column(n, table=b.alias), scope)))
        return out

    def projection(self, node: Any, scope: _Scope) -> tuple[list[_Column], list[ir.Step]]:
        """The select list as one or two projections (and a HAVING filter); see the module
        docstring on grouping."""

        marks = (len(scope.prefix), len(scope.calls))
        columns = self.select_items(node, scope)
        columns = _unique_names(columns)
        distinct_node = node.args.get("distinct")
        if distinct_node is not None and distinct_node.args.get("on"):
            raise self.unsupported("DISTINCT ON", node)
        distinct = distinct_node is not None
        group_node = node.args.get("group")
        having_node = node.args.get("having")
        if group_node is not None and (
            group_node.args.get("rollup")
            or group_node.args.get("cube")
            or group_node.args.get("grouping_sets")
        ):
            raise self.unsupported("GROUP BY ROLLUP / CUBE / GROUPING SETS", group_node)
        keys = [
            self._group_key(k, columns, scope)
            for k in (group_node.expressions if group_node is not None else [])
        ]
        having = (
            self.expr(having_node.this, scope, filter_ctx=True) if having_node is not None else None
        )
        order_nodes = node.args.get("order").expressions if node.args.get("order") else []
        skip, limit = self._paging(node)
        aggregating = (
            group_node is not None or having is not None or any(aggregates(c.expr) for c in columns)
        )
        order = [s for o in order_nodes for s in self._order_key(o, columns, scope)]
        if not aggregating:
            names = {c.name for c in columns}
            if distinct and any(
                not {v.name for v in _free_variables(s.expr)} <= names for s in order
            ):
                raise self.unsupported(
                    "SELECT DISTINCT ordered by an expression it does not select", node
                )
            items = tuple(ir.ReturnItem(c.expr, c.name) for c in columns)
            return columns, [
                ir.Projection(
                    items, distinct=distinct, order_by=tuple(order), skip=skip, limit=limit
                )
            ]
        # scalar subqueries read in the select list, HAVING or ORDER BY of a grouped query
        # run after the grouping (their values are not grouping keys)
        late_calls = scope.prefix[marks[0] :] + scope.calls[marks[1] :]
        if any(isinstance(c, ir.CallSubquery) and c.imports for c in late_calls):
            raise self.unsupported("correlated scalar subquery in a grouped select list", node)
        del scope.prefix[marks[0] :]
        del scope.calls[marks[1] :]
        return columns, self._grouped(
            columns, keys, having, order, distinct, skip, limit, late_calls, node
        )

    def _group_key(self, key: Any, columns: list[_Column], scope: _Scope) -> ir.Expr:
        from sqlglot import exp

        if isinstance(key, exp.Literal) and key.is_int:
            k = decimal(key.name, _offset(key))
            if not 1 <= k <= len(columns):
                raise self.semantic(f"GROUP BY position {k} is out of range", key)
            return columns[k - 1].expr
        if (
            isinstance(key, exp.Column)
            and not key.table
            and self._find_column(key, scope, quiet=True) is None
        ):
            for c in columns:
                if c.name.lower() == key.name.lower():
                    return c.expr
        value = self.expr(key, scope)
        if aggregates(value):
            raise self.semantic("GROUP BY an aggregate", key)
        return value

    def _grouped(
        self,
        columns: list[_Column],
        keys: list[ir.Expr],
        having: ir.Expr | None,
        order: list[ir.SortItem],
        distinct: bool,
        skip: ir.Expr | None,
        limit: ir.Expr | None,
        late_calls: list[ir.Step],
        node: Any,
    ) -> list[ir.Step]:
        keys = _dedupe(keys)
        keyed_vars = self._keyed_variables(keys)
        # columns of a node whose whole key is grouped do not split the groups further
        exprs = [c.expr for c in columns] + ([having] if having is not None else [])
        exprs += [s.expr for s in order]
        for x in exprs:
            for bare in _bare_parts(x):
                subject = bare.subject if isinstance(bare, ir.Property) else None
                if (
                    bare not in keys
                    and isinstance(subject, ir.Variable)
                    and subject.name in keyed_vars
                ):
                    keys.append(bare)
        output = {c.name for c in columns}

        def on_output(e: ir.Expr) -> bool:
            if isinstance(e, ir.IsNull):
                e = e.operand
            return isinstance(e, ir.Variable) and e.name in output

        plain_items = [c for c in columns if not aggregates(c.expr)]
        one_step = (
            having is None
            and not late_calls
            and all(not aggregates(c.expr) or _aggregate_only(c.expr) for c in columns)
            and {_key(c.expr) for c in plain_items} == {_key(k) for k in keys}
            and all(on_output(s.expr) for s in order)
        )
        if one_step:
            items = tuple(ir.ReturnItem(c.expr, c.name) for c in columns)
            return [
                ir.Projection(
                    items, distinct=distinct, order_by=tuple(order), skip=skip, limit=limit
                )
            ]
        # two steps: keys and aggregates under fresh names, then the select list over them
        names: dict[Any, str] = {}
        first: list[ir.ReturnItem] = []
        for k in keys:
            v = self._claim(k.key if isinstance(k, ir.Property) else "grp")
            names[_key(k)] = v
            first.append(ir.ReturnItem(k, v))
            self._var_types[v] = self.type_of(k)
            self._var_nullable[v] = self.nullable(k)
        for a in distinct_aggregates(exprs):
            if _key(a) in names:
                continue
            v = self._claim("agg")
            names[_key(a)] = v
            first.append(ir.ReturnItem(a, v))
            self._var_types[v] = self.type_of(a)
            self._var_nullable[v] = self.nullable(a)

        visible = set(names.values()) | {
            i.alias
            for c in late_calls
            if isinstance(c, ir.CallSubquery)
            for i in _result_items(c.query)
            if i.alias
        }

        def over(e: ir.Expr) -> ir.Expr:
            def swap(n: ir.Node) -> ir.Node:
                name = names.get(_key(n)) if isinstance(n, ir.Expr) else None
                return ir.Variable(name) if name is not None else n

            out = _replace_top_down(e, swap)
            if any(v.name not in visible for v in _free_variables(out)):
                raise self.unsupported(
                    "column that is neither grouped nor aggregated",
                    node,
                    message="SQLite returns an arbitrary row's value for a column that is "
                    "neither grouped nor aggregated; a graph query has no such value",
                    rewrite="GROUP BY the column, or aggregate it (MIN, MAX)",
                )
            return out

        steps: list[ir.Step] = [ir.Projection(tuple(first)), *late_calls]
        if having is not None:
            steps.append(ir.Filter(over(having)))
        items = tuple(ir.ReturnItem(over(c.expr), c.name) for c in columns)
        final_order = tuple(
            s if on_output(s.expr) else replace(s, expr=over(s.expr)) for s in order
        )
        steps.append(
            ir.Projection(items, distinct=distinct, order_by=final_order, skip=skip, limit=limit)
        )
        return steps

    def _keyed_variables(self, keys: list[ir.Expr]) -> set[str]:
        """Node variables whose whole key is among the grouping keys."""
        props: dict[str, set[str]] = {}
        for k in keys:
            if isinstance(k, ir.Property) and isinstance(k.subject, ir.Variable):
                props.setdefault(k.subject.name, set()).add(k.key)
        out = set()
        for token, have in props.items():
            owner = self._tokens.get(token)
            if isinstance(owner, _NodeVar):
                node = self.mapping.node(owner.label)
                if node is None or not node.key_columns:
                    continue
                key_props = {self.mapping.property_of(node, c) for c in node.key_columns}
                if None not in key_props and key_props <= have:
                    out.add(token)
        return out

    def _order_key(self, o: Any, columns: list[_Column], scope: _Scope) -> list[ir.SortItem]:
        """An ORDER BY key: a position or an output column's alias names that column (as in
        SQLite, an alias wins over a table column); an expression that a column computes is
        that column."""
        from sqlglot import exp

        key = o.this
        expr: ir.Expr | None = None
        by_alias = {c.name.lower(): c for c in columns}
        if isinstance(key, exp.Literal) and key.is_int:
            k = decimal(key.name, _offset(key))
            if not 1 <= k <= len(columns):
                raise self.semantic(f"ORDER BY position {k} is out of range", o)
            expr = ir.Variable(columns[k - 1].name)
            value = columns[k - 1].expr
        elif isinstance(key, exp.Column) and not key.table and key.name.lower() in by_alias:
            col = by_alias[key.name.lower()]
            expr = ir.Variable(col.name)
            value = col.expr
        else:
            value = self.expr(key, scope)
            for c in columns:
                if c.expr == value:
                    expr = ir.Variable(c.name)
                    break
            if expr is None:
                expr = value
        return self._sort_item(expr, o, nullable=self.nullable(value))

    def _sort_item(self, expr: ir.Expr, o: Any, nullable: bool) -> list[ir.SortItem]:
        """One ORDER BY key with the flavour's null placement. Graph languages put nulls
        where the largest values go (last ascending, first descending); a key that cannot be
        null takes that placement, and where SQL's placement differs for a nullable key, a
        leading ``key IS NULL`` key states it, so every target can say it."""
        descending = bool(o.args.get("desc"))
        nulls_first = o.args.get("nulls_first")
        if nulls_first is None:
            nulls_first = self._default_nulls_first(descending)
        out = [ir.SortItem(expr, descending, descending)]
        if nullable and bool(nulls_first) != descending:
            if not _pure(expr):
                raise self.unsupported("null placement of an ORDER BY key with a subquery", o)
            nulls = bool(nulls_first)
            out.insert(0, ir.SortItem(ir.IsNull(expr), descending=nulls, nulls_first=nulls))
        return out

    def _default_nulls_first(self, descending: bool) -> bool:
        from sqlglot.dialects.dialect import Dialect as SqlglotDialect

        ordering = SqlglotDialect.get_or_raise(self.flavour or None).NULL_ORDERING
        if ordering == "nulls_are_small":
            return not descending
        if ordering == "nulls_are_large":
            return descending
        return False

    def _paging(self, node: Any) -> tuple[ir.Expr | None, ir.Expr | None]:
        from sqlglot import exp

        def count(arg: Any, what: str) -> ir.Expr | None:
            if arg is None:
                return None
            value = arg.args.get("expression") if isinstance(arg, (exp.Limit, exp.Offset)) else arg
            if isinstance(value, exp.Literal) and value.is_int:
                return ir.Integer(decimal(value.name, _offset(value)))
            raise self.unsupported(f"{what} that is not an integer literal", arg)

        limit = node.args.get("limit")
        if isinstance(limit, exp.Fetch):
            # FETCH FIRST n ROWS ONLY is LIMIT n; WITH TIES and PERCENT are not
            options = limit.args.get("limit_options")
            if options is not None and (
                options.args.get("percent") or options.args.get("with_ties")
            ):
                raise self.unsupported("FETCH FIRST … WITH TIES or PERCENT", limit)
            return count(node.args.get("offset"), "OFFSET"), count(limit.args.get("count"), "FETCH")
        return count(node.args.get("offset"), "OFFSET"), count(limit, "LIMIT")

    # =========================================================================================
    # layout: groups -> MATCH steps
    # =========================================================================================

    def layout(self, scope: _Scope) -> list[ir.Step]:
        """The steps that bind a SELECT's rows: its prefix (derived tables, uncorrelated
        subqueries), one MATCH per group (edge types split over several for uniqueness),
        OPTIONAL MATCH for LEFT JOINs and nullable foreign keys, correlated CALLs, then the
        WHERE condition (in the last MATCH when nothing optional follows it)."""
        steps: list[ir.Step] = list(scope.prefix)
        bound: set[int] = set()
        s = scope.parent
        while s is not None:
            for g in s.groups:
                for n in g.nodes:
                    bound.add(id(n.find()))
            s = s.parent
        last_inner: int | None = None
        for g in scope.groups:
            matches = self._group_matches(g, bound)
            if not matches:
                continue
            steps.extend(matches)
            if not g.optional:
                last_inner = len(steps) - 1
        steps.extend(scope.calls)
        # a condition goes to the first inner MATCH after which its variables are bound (a
        # filter commutes with the MATCHes, OPTIONAL MATCHes and CALLs after it); one on
        # variables bound later filters at the end
        bound_after: list[set[str]] = []
        seen: set[str] = set()
        for step in steps:
            seen = seen | _bound_by(step)
            bound_after.append(seen)
        mine = set(seen)
        placed: dict[int, list[ir.Expr]] = {}
        rest: list[ir.Expr] = []
        for c in scope.where:
            needed = _names_in(c) & mine
            at = next(
                (
                    i
                    for i, step in enumerate(steps)
                    if isinstance(step, ir.Match)
                    and not step.optional
                    and needed <= bound_after[i]
                    and (last_inner is not None and i <= last_inner)
                ),
                None,
            )
            if at is None:
                rest.append(c)
            else:
                placed.setdefault(at, []).append(c)
        for i, conds in placed.items():
            m = steps[i]
            assert isinstance(m, ir.Match)
            steps[i] = replace(m, where=_and_all([m.where, *conds]))
        if rest:
            steps.append(ir.Filter(_and_all(rest)))  # type: ignore[arg-type]
        return steps

    def _group_matches(self, g: _Group, bound: set[int]) -> list[ir.Match]:
        edges = list(g.edges)
        # split edges of one type over several MATCH steps (see the module docstring)
        layers: list[list[_EdgeVar]] = []
        for e in edges:
            for layer in layers:
                if all(x.label != e.label for x in layer):
                    layer.append(e)
                    break
            else:
                layers.append([e])
        if g.optional and len(layers) > 1:
            raise self.unsupported(
                "LEFT JOIN that repeats an edge type",
                None,
                message="an OPTIONAL MATCH cannot hold two edges of one type with SQL's meaning",
            )
        if not layers:
            layers = [[]]
        endpoints = {id(x.find()) for e in edges for x in (e.source, e.target)}
        out: list[ir.Match] = []
        for i, layer in enumerate(layers):
            patterns: list[ir.PathPattern] = []
            in_edges: set[int] = set()
            for chain in _chains(layer):
                if id(chain[-1].find()) in bound and id(chain[0].find()) not in bound:
                    chain = _reverse_chain(chain)
                elements: list[ir.PathElement] = []
                for item in chain:
                    if isinstance(item, tuple):
                        e, direction = item
                        elements.append(
                            ir.RelPattern(
                                direction,
                                variable=e.token if e.named else None,
                                types=ir.Label(e.label),
                            )
                        )
                    else:
                        rep = item.find()
                        in_edges.add(id(rep))
                        elements.append(self._node_pattern(rep, bound))
                patterns.append(ir.PathPattern(ir.PathChain(tuple(elements))))
            if i == 0:
                for n in g.nodes:
                    rep = n.find()
                    if id(rep) in in_edges or id(rep) in endpoints:
                        continue
                    if id(rep) in bound and (g.optional or not rep.nullable):
                        continue  # already bound: nothing to match
                    in_edges.add(id(rep))
                    patterns.append(ir.PathPattern(ir.PathChain((self._node_pattern(rep, bound),))))
            where = _and_all(g.where) if i == len(layers) - 1 else None
            if not patterns:
                if where is not None:
                    patterns.append(ir.PathPattern(ir.PathChain((ir.NodePattern(),))))
                    raise self.unsupported("LEFT JOIN condition on bound rows only", None)
                continue
            out.append(
                ir.Match(tuple(_dedupe_patterns(patterns)), where=where, optional=g.optional)
            )
        return out

    def _node_pattern(self, rep: _NodeVar, bound: set[int]) -> ir.NodePattern:
        if id(rep) in bound:
            return ir.NodePattern(rep.token)
        bound.add(id(rep))
        return ir.NodePattern(rep.token, ir.Label(rep.label))

    # =========================================================================================
    # types and nullability
    # =========================================================================================

    def type_of(self, e: ir.Expr) -> str | None:
        """What is known of a value's type: int, float, string, bool, date (any temporal kind),
        or None; the one type analysis (:mod:`gqlir.analysis.types`) over the reader's
        variables and the mapping's columns."""
        return _coarse(value_kind_of(_ReaderTypes(self).of(e)))

    def nullable(self, e: ir.Expr) -> bool:
        """Could the value be null? (False only when it certainly cannot.)"""
        if isinstance(e, (ir.Integer, ir.Float, ir.String, ir.Boolean, ir.CountStar)):
            return False
        if isinstance(e, ir.Aggregate):
            return e.name != "count"
        if isinstance(e, ir.Property) and isinstance(e.subject, ir.Variable):
            owner = self._tokens.get(e.subject.name)
            if isinstance(owner, _NodeVar):
                rep = owner.find()
                node = self.mapping.schema.node(rep.label)
                prop = node.prop(e.key) if node is not None else None
                return rep.nullable or prop is None or not prop.required
            if isinstance(owner, _EdgeVar):
                edge = self.mapping.schema.edge(owner.label)
                prop = edge.prop(e.key) if edge is not None else None
                return owner.group.optional or prop is None or not prop.required
            return True
        if isinstance(e, ir.Variable):
            return self._var_nullable.get(e.name, True)
        if isinstance(e, ir.Arithmetic) and e.op != ir.ArithOp.DIV and e.op != ir.ArithOp.MOD:
            return self.nullable(e.left) or self.nullable(e.right)
        if isinstance(e, ir.Negate):
            return self.nullable(e.operand)
        if isinstance(e, ir.FunctionCall) and e.name in (
            "upper",
            "lower",
            "char_length",
            "abs",
            "tofloat",
            "tostring",
        ):
            return self.nullable(e.args[0])
        return True

    # =========================================================================================
    # final names
    # =========================================================================================

    def _finalise(self, query: ir.Query) -> ir.Query:
        """Replace the placeholder tokens with variable names: a unified variable takes its
        representative's name; SQL aliases are kept where they are free; a hidden node is named
        after its type, or left anonymous when nothing refers to it."""
        counts: dict[str, int] = {}
        for v in query.find_all(ir.Variable):
            counts[v.name] = counts.get(v.name, 0) + 1
        for n in query.find_all(ir.NodePattern):
            if n.variable:
                counts[n.variable] = counts.get(n.variable, 0) + 1
        for r in query.find_all(ir.RelPattern):
            if r.variable:
                counts[r.variable] = counts.get(r.variable, 0) + 1
        names: dict[str, str | None] = {}
        reps: dict[str, _NodeVar | _EdgeVar] = {}
        for token, owner in self._tokens.items():
            if isinstance(owner, _NodeVar):
                reps[token] = owner.find()
            elif owner is not None:
                reps[token] = owner
        used: dict[int, int] = {}
        for token, rep in reps.items():
            used[id(rep)] = used.get(id(rep), 0) + counts.get(token, 0)
        ordered = sorted(
            {id(r): r for r in reps.values()}.values(),
            key=lambda r: (isinstance(r, _NodeVar) and r.hidden, r.token),
        )
        final: dict[int, str | None] = {}
        for rep in ordered:
            hidden = isinstance(rep, _NodeVar) and rep.hidden
            if used.get(id(rep), 0) == 0 or (hidden and used.get(id(rep), 0) <= 1):
                final[id(rep)] = None
            else:
                final[id(rep)] = self._claim(rep.wanted)
        for token, rep in reps.items():
            names[token] = final[id(rep)]

        def rename(node: ir.Node) -> ir.Node:
            if isinstance(node, ir.Variable) and node.name in names:
                name = names[node.name]
                if name is None:
                    raise AssertionError("an anonymous node is referred to")
                return replace(node, name=name)
            if isinstance(node, ir.NodePattern) and node.variable in names:
                return replace(node, variable=names[node.variable])
            if isinstance(node, ir.RelPattern) and node.variable in names:
                return replace(node, variable=names[node.variable])
            if isinstance(node, ir.CallSubquery) and node.imports:
                return replace(
                    node, imports=tuple(sorted({names.get(i) or i for i in node.imports}))
                )
            return node

        return query.transform(rename)  # type: ignore[return-value]


class _WhereGroupMarker:
    """Stands for "a WHERE condition" where a join group is expected."""


_WhereGroup: Any = _WhereGroupMarker()


@dataclass(frozen=True)
class _OuterKey:
    """The outer value of an IN subquery, and the node key it denotes (if it does)."""

    expr: ir.Expr
    ref: _KeyRef | None


# =============================================================================================
# helpers
# =============================================================================================


def _offset(node: Any) -> int | None:
    if node is None:
        return None
    best = None
    walk = node.walk() if hasattr(node, "walk") else ()
    for n in walk:
        meta = getattr(n, "_meta", None) or {}
        start = meta.get("start")
        if start is not None and (best is None or start < best):
            best = start
    return best


def _identifier(name: str) -> str:
    """A plain variable name from a SQL alias or name."""
    text = re.sub(r"\W+", "_", name).strip("_") or "v"
    if text[0].isdigit():
        text = "v_" + text
    return text


def _case(table: Table, name: str) -> str:
    low = name.lower()
    for c in table.columns:
        if c.name.lower() == low:
            return c.name
    return name


def _conjuncts(node: Any) -> list:
    from sqlglot import exp

    if node is None:
        return []
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _references(node: Any, name: str) -> bool:
    from sqlglot import exp

    return any(t.name.lower() == name.lower() for t in node.find_all(exp.Table))


def _has_aggregate(node: Any) -> bool:
    """Does a sqlglot expression aggregate (outside any subquery)?"""
    from sqlglot import exp

    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, exp.AggFunc):
            return True
        if isinstance(n, (exp.Subquery, exp.Select)) and n is not node:
            continue
        stack.extend(v for v in n.iter_expressions())
    return False


_SUBQUERY_EXPRS = (ir.Exists, ir.CountSubquery, ir.CollectSubquery, ir.ValueSubquery)


def _aggregate_only(e: ir.Expr) -> bool:
    """An expression whose only non-constant parts are aggregates (no grouping key inside)."""
    if isinstance(e, (ir.Aggregate, ir.CountStar)):
        return True
    if isinstance(e, (ir.Property, ir.Variable)):
        return False
    return all(_aggregate_only(c) for c in e.children() if isinstance(c, ir.Expr)) and all(
        _aggregate_only(c.condition) and _aggregate_only(c.result)
        for c in e.children()
        if isinstance(c, ir.CaseWhen)
    )


def _bare_parts(e: ir.Expr) -> Iterator[ir.Expr]:
    """Properties outside aggregates and subqueries."""
    if isinstance(e, (ir.Aggregate, ir.CountStar, *_SUBQUERY_EXPRS)):
        return
    if isinstance(e, ir.Property):
        yield e
        return
    for c in e.children():
        if isinstance(c, ir.Expr):
            yield from _bare_parts(c)
        elif isinstance(c, ir.CaseWhen):
            yield from _bare_parts(c.condition)
            yield from _bare_parts(c.result)


def _key(e: ir.Node) -> Any:
    return e


def _dedupe(keys: list[ir.Expr]) -> list[ir.Expr]:
    out: list[ir.Expr] = []
    for k in keys:
        if k not in out:
            out.append(k)
    return out


def _replace_top_down(e: ir.Expr, fn: Any) -> ir.Expr:
    new = fn(e)
    if new is not e:
        return new
    if isinstance(e, _SUBQUERY_EXPRS):
        return e
    changes = {}
    for name, value in e.field_values():
        if isinstance(value, ir.Node):
            changed = _replace_node(value, fn)
            if changed is not value:
                changes[name] = changed
        elif isinstance(value, tuple) and any(isinstance(v, ir.Node) for v in value):
            items = tuple(_replace_node(v, fn) if isinstance(v, ir.Node) else v for v in value)
            if any(a is not b for a, b in zip(items, value)):
                changes[name] = items
    return replace(e, **changes) if changes else e


def _replace_node(n: ir.Node, fn: Any) -> ir.Node:
    if isinstance(n, ir.Expr):
        return _replace_top_down(n, fn)
    if isinstance(n, ir.CaseWhen):
        return replace(
            n, condition=_replace_top_down(n.condition, fn), result=_replace_top_down(n.result, fn)
        )
    return n


def _free_variables(e: ir.Expr) -> Iterator[ir.Variable]:
    """Variables of an expression outside subqueries (which bind their own)."""
    if isinstance(e, _SUBQUERY_EXPRS):
        return
    if isinstance(e, ir.Variable):
        yield e
        return
    for c in e.children():
        if isinstance(c, ir.Expr):
            yield from _free_variables(c)
        elif isinstance(c, ir.CaseWhen):
            yield from _free_variables(c.condition)
            yield from _free_variables(c.result)


def _result_items(query: ir.Query) -> tuple[ir.ReturnItem, ...]:
    if isinstance(query, ir.SetOperation):
        return _result_items(query.left)
    last = query.steps[-1] if isinstance(query, ir.LinearQuery) else None
    return last.items if isinstance(last, ir.Projection) else ()


def _and_all(parts: list[ir.Expr | None]) -> ir.Expr | None:
    out: ir.Expr | None = None
    for p in parts:
        if p is None:
            continue
        out = p if out is None else ir.And(out, p)
    return out


def _pure(e: ir.Expr) -> bool:
    """No subquery and no volatile function: safe to evaluate twice."""
    for n in e.walk():
        if isinstance(n, (*_SUBQUERY_EXPRS,)):
            return False
        if isinstance(n, ir.FunctionCall) and n.name in ("rand", "randomuuid", "timestamp"):
            return False
    return True


def _like_predicate(value: ir.Expr, pattern: str) -> ir.Expr:
    """A literal LIKE pattern as the predicate it means."""
    if "_" not in pattern:
        body = pattern.strip("%")
        if "%" not in body:
            starts, ends = pattern.startswith("%"), pattern.endswith("%")
            if not starts and not ends:
                return ir.Comparison(ir.CompOp.EQ, value, ir.String(pattern))
            if not body:
                return ir.IsNull(value, negated=True)
            if starts and ends:
                return ir.StringMatch(ir.StringOp.CONTAINS, value, ir.String(body))
            if ends:
                return ir.StringMatch(ir.StringOp.STARTS_WITH, value, ir.String(body))
            return ir.StringMatch(ir.StringOp.ENDS_WITH, value, ir.String(body))
    regex = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern)
    return ir.RegexMatch(value, ir.String("(?s)" + regex))


class _ReaderTypes(TypeAnalysis):
    """The type analysis over the reader's variables (see :meth:`SqlReader.type_of`)."""

    __slots__ = ("reader",)

    def __init__(self, reader: SqlReader) -> None:
        self.reader = reader

    def variable(self, name: str) -> VType:
        return from_value_kind(self.reader._var_types.get(name))

    def property(self, node: ir.Property, subject: VType) -> VType:
        prop = self.reader._schema_property(node)
        return property_type(prop.type.kind) if prop is not None else ANY


def _coarse(kind: str | None) -> str | None:
    """The reader's coarser kinds: the temporal ones are all "date"; lists and others unknown."""
    if kind is None or kind in ("int", "float", "string", "bool", "date"):
        return kind
    return "date" if kind in TEMPORAL else None


def _unique_names(columns: list[_Column]) -> list[_Column]:
    """SQL allows two result columns of one name; graph results do not. Later ones are renamed
    ``name_1``, ``name_2`` … as DuckDB does."""
    seen: set[str] = set()
    out = []
    for c in columns:
        name = c.name
        k = 0
        while name.lower() in seen:
            k += 1
            name = f"{c.name}_{k}"
        seen.add(name.lower())
        out.append(_Column(name, c.expr) if name != c.name else c)
    return out


def _rename_columns(query: ir.Query, names: list[str]) -> ir.Query:
    """Give a query's result columns new names (the left branch's, or variable names)."""
    if isinstance(query, ir.SetOperation):
        return replace(
            query,
            left=_rename_columns(query.left, names),
            right=_rename_columns(query.right, names),
        )
    assert isinstance(query, ir.LinearQuery)
    last = query.steps[-1]
    assert isinstance(last, ir.Projection)
    old = [i.alias for i in last.items]
    items = tuple(replace(i, alias=n) for i, n in zip(last.items, names))
    order = tuple(
        replace(s, expr=ir.Variable(names[old.index(s.expr.name)]))
        if isinstance(s.expr, ir.Variable) and s.expr.name in old
        else s
        for s in last.order_by
    )
    return replace(query, steps=query.steps[:-1] + (replace(last, items=items, order_by=order),))


def _chains(edges: list[_EdgeVar]) -> list[list]:
    """Edges as chains of ``node, (edge, direction), node, …`` for readable patterns: an edge
    continues the chain that ends (or starts) at one of its endpoints."""
    chains: list[list] = []
    for e in edges:
        s, t = e.source.find(), e.target.find()
        for chain in chains:
            tail, head = chain[-1].find(), chain[0].find()
            if tail is s:
                chain.extend([(e, ir.Direction.OUT), e.target])
                break
            if tail is t:
                chain.extend([(e, ir.Direction.IN), e.source])
                break
            if head is t:
                chain[:0] = [e.source, (e, ir.Direction.OUT)]
                break
            if head is s:
                chain[:0] = [e.target, (e, ir.Direction.IN)]
                break
        else:
            chains.append([e.source, (e, ir.Direction.OUT), e.target])
    return chains


def _bound_by(step: ir.Step) -> set[str]:
    """The variables a MATCH or CALL step binds (or may bind)."""
    out: set[str] = set()
    if isinstance(step, ir.Match):
        for p in step.patterns:
            for n in p.walk():
                if isinstance(n, (ir.NodePattern, ir.RelPattern)) and n.variable:
                    out.add(n.variable)
    elif isinstance(step, ir.CallSubquery):
        out |= {i.alias for i in _result_items(step.query) if i.alias}
    elif isinstance(step, ir.Projection):
        out |= {i.alias for i in step.items if i.alias}
    return out


def _names_in(e: ir.Node) -> set[str]:
    out: set[str] = set()
    for n in e.walk():
        if isinstance(n, ir.Variable):
            out.add(n.name)
        elif isinstance(n, (ir.NodePattern, ir.RelPattern)) and n.variable:
            out.add(n.variable)
    return out


def _reverse_chain(chain: list) -> list:
    """The same chain written from its other end (directions flipped)."""
    flip = {ir.Direction.OUT: ir.Direction.IN, ir.Direction.IN: ir.Direction.OUT}
    return [(x[0], flip[x[1]]) if isinstance(x, tuple) else x for x in reversed(chain)]


def _dedupe_patterns(patterns: list[ir.PathPattern]) -> list[ir.PathPattern]:
    out: list[ir.PathPattern] = []
    for p in patterns:
        if p not in out:
            out.append(p)
    return out


def _scope_of(var: _NodeVar, scope: _Scope) -> _Scope:
    """The (enclosing) scope whose groups bind ``var``."""
    s: _Scope | None = scope
    while s is not None:
        if var.group is not None and any(g is var.group for g in s.groups):
            return s
        s = s.parent
    return scope


def _binding_order(v: _NodeVar) -> tuple:
    """Variables of enclosing queries first, then by group, real before hidden, then age."""
    if v.group is None:
        return (-1, -1, v.hidden, v.serial)
    return (v.group.depth, v.group.index, v.hidden, v.serial)


def _single_row_extreme(steps: list[ir.Step]) -> ir.Expr | None:
    """``x`` for a subquery that is only ``RETURN max(x)`` (or min) over the outer row: its
    tables all joined the outer query (a key equality unified them), so it aggregates one row,
    whose extreme is the value itself (not so avg: the average of an integer is a float).
    Written as a subquery, SQL would aggregate ``x`` over the outer query instead (an
    aggregate of outer references belongs to the outer query)."""
    if len(steps) != 1 or not isinstance(steps[0], ir.Projection):
        return None
    step = steps[0]
    if len(step.items) != 1 or step.where is not None or step.group_by is not None:
        return None
    value = step.items[0].expr
    if isinstance(value, ir.Aggregate) and value.name in ("max", "min") and len(value.args) == 1:
        return value.args[0]
    return None
