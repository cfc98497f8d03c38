"""Graph-IR → SQL, as sqlglot expression trees rendered by sqlglot in any of its dialects.

Nothing here formats query text: every table, column, alias, literal and parameter is a sqlglot
node, and sqlglot renders (and quotes) it for the target flavour (design decision 5). Patterns
are lowered through a schema mapping (:mod:`gqlir.sqlmapping`, the emitter option ``schema=``):

* **Nodes** are rows of their label's table; **edges** rows of their edge table, joined to
  their endpoints' keys, or for an edge stored as a foreign key, the foreign-key columns of the
  source row. A node without a label takes its type from an edge whose type has one endpoint
  pair.
* **Edge uniqueness.** Cypher never binds one relationship twice in a MATCH, so two edge
  patterns of one table in a MATCH must be different rows: their identifying columns differ.
* **Variable-length edges** are a recursive CTE over trails: each row carries the edges taken,
  as a text of escaped edge identities, and an edge already on the trail is not taken again
  (Cypher's relationship uniqueness); each trail is one row, as each path is one match.
* **OPTIONAL MATCH** is a LEFT JOIN of a derived table holding the optional pattern's rows
  (its columns prefixed by their table alias) on the conditions that tie it to the rows so far
  and on the OPTIONAL MATCH's WHERE.
* **WITH** is a derived table whose columns are the projected values (a projected node keeps
  its key and property columns, prefixed with the variable); **RETURN** is the final SELECT.
  Implicit grouping becomes ``GROUP BY`` the non-aggregate items.
* **Meanings made explicit.** ``sum`` of no values is 0 in the IR (``COALESCE(SUM(x), 0)``;
  the SQL front end's ``CASE WHEN count(x) < 1 THEN NULL ELSE sum(x) END`` is plain ``SUM``);
  integer division truncates (DuckDB's ``//``); ``+`` on strings is ``||``; STARTS WITH / ENDS
  WITH / CONTAINS compare substrings (never LIKE, whose wildcards and case rules vary); every
  sort key's null placement is written out (sqlglot emulates NULLS FIRST/LAST where a flavour
  lacks it). Comparing values of different types, returning graph elements, and Cypher's list
  functions have no SQL meaning and raise :class:`UnsupportedError`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..analysis.aggregates import aggregates
from ..analysis.types import (
    ANY,
    TypeAnalysis,
    VType,
    from_value_kind,
    property_type,
    value_kind_of,
)
from ..dialect import Dialect
from ..errors import SchemaError, UnsupportedError
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import write_clause
from ..ir.node import Node
from ..schema.relational import EdgeTable, NodeTable
from ..schema.types import INTEGER_KINDS, TypeKind, value_kind
from ..sqlflavours import (
    AT_PARAMETERS,
    COLLATED_STRINGS,
    CONTEXT_TYPED,
    DOTTED_QUOTED_NAMES,
    DYNAMIC_COLUMNS,
    EXACT_COLLATION,
    LIST_VALUES,
    TEXT_TEMPORALS,
)
from .base import Generator, emits

__all__ = ["SqlGenerator", "value_kind"]

K = TypeKind
_NUMERIC = ("int", "float")


# -- bindings of variables to columns ------------------------------------------------------------


@dataclass
class _NodeB:
    """A node variable: the rows of ``alias`` (a table or a derived table) and its columns."""

    alias: str
    label: str
    cols: dict[str, str]  # property -> column
    key: tuple[str, ...]  # key columns
    nullable: bool = False
    #: other columns of the node's table an edge may need (foreign keys), by base name
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class _EdgeB:
    """An edge variable: its row (the source node's row for a foreign-key edge)."""

    alias: str
    label: str
    cols: dict[str, str]
    ident: tuple[str, ...]  # columns that identify the edge
    table: EdgeTable | None  # None once carried through a WITH
    nullable: bool = False


@dataclass
class _ValueB:
    expr: Any  # a sqlglot expression
    kind: str | None = None


@dataclass
class _PathB:
    """A path variable: SQL keeps no path value, only what a query can read of it, its
    length (the edges of its fixed hops plus the depth of each variable-length hop)."""

    length: Any  # a sqlglot expression


_Bound = _NodeB | _EdgeB | _ValueB | _PathB


@dataclass
class _Frame:
    """The FROM clause being built: sources, joins, conditions and variable bindings."""

    parent: _Frame | None = None
    sources: list[Any] = field(default_factory=list)  # aliased tables / derived tables
    joins: list[tuple[str, Any, Any]] = field(default_factory=list)  # (kind, source, on)
    where: list[Any] = field(default_factory=list)
    bindings: dict[str, _Bound] = field(default_factory=dict)
    aliases: set[str] = field(default_factory=set)
    #: the order Cypher gives the rows (a WITH … ORDER BY), as sort keys over this frame's
    #: columns; empty: no order; None: an order the keys cannot carry (UNWIND's list order)
    order: list[Any] | None = field(default_factory=list)

    def lookup(self, name: str) -> _Bound | None:
        f: _Frame | None = self
        while f is not None:
            b = f.bindings.get(name)
            if b is not None:
                return b
            f = f.parent
        return None


class SqlGenerator(Generator):
    """Renders Graph-IR queries as SQL of one sqlglot flavour through a schema mapping."""

    def __init__(self, dialect: Dialect, *, pretty: bool = False, schema: Any = None) -> None:
        super().__init__(dialect, pretty=pretty)
        self.flavour = dialect.sql_dialect or ""
        self._mapping_source = schema
        self._mapping: Any = None
        self._alias_serial = 0
        self._cte_serial = 0
        self.ctes: list[Any] = []
        self._cte_columns: dict[str, list[str]] = {}
        # the kinds of the last query's result columns (None: unknown), for set operations
        self._result_kinds: list[str | None] = []

    @property
    def mapping(self) -> Any:
        if self._mapping is None:
            if self._mapping_source is None:
                raise SchemaError(
                    f"writing {self.dialect.name} needs a schema mapping (emit(..., schema=...), "
                    "or --schema on the command line): node and edge types must map to tables",
                    code="SCHEMA_REQUIRED",
                )
            from ..sqlmapping import mapping_for

            self._mapping = mapping_for(self._mapping_source, dialect=self.flavour or None)
        return self._mapping

    # =========================================================================================
    # entry
    # =========================================================================================

    def generate(self, node: Node) -> str:
        from ..parser.sql import require_sqlglot

        require_sqlglot()
        from sqlglot.errors import ErrorLevel
        from sqlglot.errors import UnsupportedError as SqlglotUnsupported

        tree = self.sql_tree(node)
        self.refuse_unwritable(tree, node)
        try:
            return tree.sql(
                dialect=self.flavour or None,
                pretty=self.pretty,
                unsupported_level=ErrorLevel.RAISE,
            )
        except SqlglotUnsupported as exc:
            raise self.unsupported(
                str(exc).split("\n")[0], node, message=f"{self.dialect.name}: {exc}"
            ) from None

    def refuse_unwritable(self, tree: Any, node: Node) -> None:
        """Refuse names and strings the flavour's text cannot carry as they are: a NUL
        character anywhere (SQLite ends the statement there, PostgreSQL refuses it in names and
        strings), a dot in a name where the flavour splits quoted names at dots."""
        from sqlglot import exp

        dotted = self.flavour in DOTTED_QUOTED_NAMES
        for x in tree.walk():
            if not isinstance(x, (exp.Identifier, exp.Literal)):
                continue
            text = str(x.this)
            if "\x00" in text:
                what = "NUL character"
            elif dotted and "." in text and isinstance(x, exp.Identifier):
                what = "name with a dot"
            else:
                continue
            raise self.unsupported(
                what, node, message=f"{self.dialect.name} cannot write {text!r} as it is"
            )

    def sql_tree(self, node: Node) -> Any:
        """The sqlglot expression of a query (or of an expression, for tests)."""
        if isinstance(node, q.Query):
            self.ctes = []
            tree = self.query(node, None)
            if self.ctes:
                tree = self._with_ctes(tree)
            return tree
        if isinstance(node, e.Expr):
            return self.expr(node, _Frame())
        raise self.unsupported(f"{type(node).__name__} as a SQL statement", node)

    def _with_ctes(self, tree: Any) -> Any:
        from sqlglot import exp

        tree.set("with_", exp.With(expressions=list(self.ctes), recursive=True))
        return tree

    # =========================================================================================
    # queries
    # =========================================================================================

    def set_operation(self, node: q.SetOperation, left: Any, right: Any) -> Any:
        """``left`` and ``right`` (already written) joined by the node's set operator."""
        from sqlglot import exp

        op = {
            q.SetOp.UNION: exp.union,
            q.SetOp.INTERSECT: exp.intersect,
            q.SetOp.EXCEPT: exp.except_,
        }.get(node.op)
        if op is None:
            raise self.unsupported(node.op.value, node)
        return op(left, right, distinct=not node.all)

    def query(self, node: q.Query, parent: _Frame | None) -> Any:

        if isinstance(node, q.SetOperation):
            left = self.query(node.left, parent)
            left_kinds = self._result_kinds
            right = self.query(node.right, parent)
            self._check_union_kinds(node, left_kinds, self._result_kinds)
            return self.set_operation(node, left, right)
        if isinstance(node, q.LinearQuery):
            return self.linear(node, parent)
        raise self.unsupported(type(node).__name__, node)

    def _check_union_kinds(
        self, node: q.SetOperation, left: list[str | None], right: list[str | None]
    ) -> None:
        """A column that holds strings in one branch and numbers or booleans in the other is
        refused where the flavour gives a result column one type: the values would change
        type (DuckDB casts the integers to text) or the query would fail. Both kinds unknown
        or alike is fine, and so are two kinds of number."""
        if self.flavour in DYNAMIC_COLUMNS:
            self._result_kinds = [a if a == b else None for a, b in zip(left, right)]
            return
        for i, (a, b) in enumerate(zip(left, right)):
            if a is None or b is None or a == b or {a, b} <= {"int", "float"}:
                continue
            raise self.unsupported(
                "UNION of columns of different types",
                node,
                message=f"column {i + 1} holds {a} values in one branch and {b} values in the "
                f"other; {self.flavour or 'SQL'} gives a result column one type",
                rewrite="cast both to one type (toString(x))",
            )
        self._result_kinds = [a if a == b else None for a, b in zip(left, right)]

    def linear(self, node: q.LinearQuery, parent: _Frame | None) -> Any:
        frame = _Frame(parent)
        steps = list(node.steps)
        refuse_writes(self, steps)
        if not steps or not isinstance(steps[-1], q.Projection):
            raise self.unsupported("query without RETURN", node)
        return self.steps_into(steps, frame)

    def steps_into(self, steps: list[q.Step], frame: _Frame) -> Any:
        """The SELECT of ``steps`` (ending in the query's RETURN) read over ``frame``."""
        for i, step in enumerate(steps):
            last = i == len(steps) - 1
            if isinstance(step, q.Match):
                if step.optional:
                    self.optional_match(step, frame)
                else:
                    self.match(step, frame)
            elif isinstance(step, q.Filter):
                frame.where.append(self.condition(step.condition, frame))
            elif isinstance(step, q.CallSubquery):
                self.call(step, frame)
            elif isinstance(step, q.Unwind):
                self.unwind(step, frame)
            elif isinstance(step, q.Let):
                for b in step.bindings:
                    frame.bindings[b.variable] = _ValueB(
                        self.expr(b.value, frame), self.kind(b.value, frame)
                    )
            elif isinstance(step, q.Projection):
                if last:
                    kinds = [self.kind(i.expr, frame) for i in step.items]
                    tree = self.select(step, frame, final=True)
                    self._result_kinds = kinds  # after select(): its subqueries set their own
                    return tree
                frame = self.wrap(step, frame)
                if step.where is not None:  # a WITH's WHERE filters the projected rows
                    frame.where.append(self.condition(step.where, frame))
            else:
                raise self.unsupported(_step_name(step), step)
        raise AssertionError("unreachable")

    # -- MATCH ----------------------------------------------------------------------------------

    def match(self, step: q.Match, frame: _Frame) -> None:
        conds: list[Any] = []
        self._check_var_length(step)
        edges = self.patterns(step.patterns, frame, conds)
        if step.mode == p.MatchMode.DIFFERENT_EDGES:
            conds.extend(self.different_edges(edges))
        if step.where is not None:
            conds.append(self.condition(step.where, frame))
        frame.where.extend(conds)

    def optional_match(self, step: q.Match, frame: _Frame) -> None:
        """``frame LEFT JOIN (the pattern's rows) AS o ON (ties to bound rows) AND where``."""
        from sqlglot import exp

        for pp in step.patterns:
            if pp.variable is not None:
                raise self.unsupported(
                    "path variable in OPTIONAL MATCH",
                    pp,
                    message="the length of a path that may not match is not carried through "
                    "the LEFT JOIN",
                )
        sub = _Frame(parent=frame)
        conds: list[Any] = []
        self._check_var_length(step)
        edges = self.patterns(step.patterns, sub, conds)
        if step.mode == p.MatchMode.DIFFERENT_EDGES:
            conds.extend(self.different_edges(edges))
        if step.where is not None:
            conds.append(self.condition(step.where, sub))
        if not sub.sources:
            if sub.bindings:
                raise self.unsupported(
                    "OPTIONAL MATCH that binds only an edge stored as a foreign key", step
                )
            return  # nothing new is bound: the rows stay as they are
        inner_aliases = set(sub.aliases)
        o = self._alias("o")
        columns = []
        for alias, table in self._tables_of(sub):
            for col in table:
                columns.append(
                    exp.alias_(
                        exp.column(_ident(col), table=_ident(alias)), _ident(f"{alias}__{col}")
                    )
                )
        inner_conds = [c for c in conds if not _touches(c, frame_aliases(frame))]
        outer_conds = [c for c in conds if _touches(c, frame_aliases(frame))]
        body = self._assemble(sub, columns, inner_conds)
        on = [_reroute(c, inner_aliases, o) for c in outer_conds]
        frame.joins.append(
            (
                "LEFT",
                exp.Subquery(this=body, alias=exp.TableAlias(this=_ident(o))),
                _and(on) or exp.true(),
            )
        )
        for name, b in sub.bindings.items():
            frame.bindings[name] = _rebase(b, o)

    def _check_var_length(self, step: q.Match) -> None:
        """Cypher keeps every relationship of a MATCH distinct; a trail's edges are checked
        among themselves only, so a variable-length relationship cannot share its type with
        another relationship of the MATCH."""
        quantified: list[str] = []
        fixed: list[str] = []
        for node in step.walk():
            if isinstance(node, p.RelPattern) and isinstance(node.types, p.Label):
                (quantified if node.quantifier is not None else fixed).append(node.types.name)
        for t in quantified:
            if quantified.count(t) > 1 or t in fixed:
                raise self.unsupported(
                    "variable-length relationship sharing its type with another in one MATCH",
                    step,
                )

    def call(self, step: q.CallSubquery, frame: _Frame) -> None:
        """``CALL () { … }`` is a derived table joined to every row; ``CALL (x) { … RETURN
        agg }``, one aggregate without grouping (exactly one row per outer row), is a
        correlated scalar subquery."""
        from sqlglot import exp

        if step.optional or step.in_transactions is not None:
            raise self.unsupported(
                "OPTIONAL CALL" if step.optional else "CALL IN TRANSACTIONS", step
            )
        items = _result_items(step.query)
        if not items or any(i.alias is None for i in items):
            raise self.unsupported("CALL subquery without named results", step)
        if not step.imports:
            body = self.query(step.query, None)
            alias = self._claim_alias(frame, "c")
            frame.sources.append(exp.Subquery(this=body, alias=exp.TableAlias(this=_ident(alias))))
            for i in items:
                frame.bindings[i.alias] = _ValueB(  # type: ignore[index]
                    exp.column(_ident(i.alias), table=_ident(alias)), None
                )
            return
        last = step.query.steps[-1] if isinstance(step.query, q.LinearQuery) else None
        if (
            not isinstance(last, q.Projection)
            or len(items) != 1
            or not all(aggregates(i.expr) for i in items)
            or last.limit is not None
            or last.skip is not None
        ):
            raise self.unsupported(
                "correlated CALL subquery",
                step,
                message="only a CALL that returns one aggregate (one row per outer row) has a "
                "portable SQL form, a scalar subquery",
            )
        body = self.linear(step.query, frame)  # type: ignore[arg-type]
        frame.bindings[items[0].alias] = _ValueB(exp.Subquery(this=body), None)  # type: ignore[index]

    def unwind(self, step: q.Unwind, frame: _Frame) -> None:
        """One row per element: a literal list is a derived table of its values (every
        flavour); any other list is ``UNNEST`` where the flavour has lists. The rows after it
        are in the list's order, which SQL does not keep for a later collect()."""
        from sqlglot import exp

        if step.index is not None:
            raise self.unsupported("UNWIND with the element's position", step)
        if step.variable in frame.bindings:
            raise self.unsupported("UNWIND into a variable already bound", step)
        alias = self._claim_alias(frame, "u")
        source = step.source
        if isinstance(source, e.ListLiteral):
            kind = self._literal_list(source, frame, step)
            if not source.items:
                frame.where.append(exp.false())  # no element: no row
            rows = [
                exp.select(exp.alias_(self.expr(x, frame), _ident(step.variable)))
                for x in source.items
            ] or [exp.select(exp.alias_(exp.Null(), _ident(step.variable)))]
            union = rows[0]
            for r in rows[1:]:
                union = exp.union(union, r, distinct=False)
            frame.sources.append(exp.Subquery(this=union, alias=exp.TableAlias(this=_ident(alias))))
        else:
            kind = self.kind(source, frame)
            if not isinstance(source, e.Parameter) and not _is_list(kind):
                raise self.unsupported(
                    "UNWIND of a value not known to be a list",
                    step,
                    message="UNWIND of a single value gives one row, of a list one row per "
                    "element; SQL's UNNEST takes only lists",
                )
            self._require_lists("UNWIND of a list that is not a literal", step)
            if isinstance(source, e.Parameter) and self.flavour in CONTEXT_TYPED:
                raise self.unsupported(
                    "UNWIND of a parameter",
                    step,
                    message=f"{self.flavour} must know the type of the list's elements, which "
                    "a parameter does not give",
                    rewrite="a literal list",
                )
            value = self.expr(source, frame)
            if isinstance(source, e.Parameter):
                # a null list gives no row; DuckDB's UNNEST refuses an untyped null ("UNNEST
                # requires a single list or array as input"), so it unnests an empty list
                value = exp.Coalesce(this=value, expressions=[exp.Array(expressions=[])])
            if frame.joins and _touches(value, frame_aliases(frame)):
                raise self.unsupported("UNWIND of a list read after OPTIONAL MATCH", step)
            frame.sources.append(
                exp.Unnest(
                    expressions=[value],
                    alias=exp.TableAlias(this=_ident(alias), columns=[_ident(step.variable)]),
                )
            )
            kind = _element_kind(kind)
        frame.bindings[step.variable] = _ValueB(
            exp.column(_ident(step.variable), table=_ident(alias)), kind
        )
        frame.order = None

    def _literal_list(self, source: e.ListLiteral, frame: _Frame, node: Node) -> str | None:
        """The kind of a literal list's elements, which must be constants of one kind (a
        result column has one type in the flavours with typed columns)."""
        kinds = set()
        for x in source.items:
            if any(isinstance(n, (e.Variable, e.ListLiteral, e.MapLiteral)) for n in x.walk()):
                raise self.unsupported(
                    "UNWIND of a list of row values or nested lists",
                    node,
                    message="a literal list of constants or parameters becomes rows; one whose "
                    "elements read the current row or are lists or maps does not",
                )
            if not isinstance(x, e.Null):
                kinds.add(self.kind(x, frame))
        if len(kinds) > 1 and self.flavour not in DYNAMIC_COLUMNS:
            raise self.unsupported(
                "UNWIND of a list of values of different types",
                node,
                message=f"{self.flavour or 'SQL'} gives a column one type",
            )
        return kinds.pop() if len(kinds) == 1 else None

    def _require_lists(self, construct: str, node: Node) -> None:
        if self.flavour not in LIST_VALUES:
            raise self.unsupported(
                construct,
                node,
                message=f"{self.flavour or 'this SQL flavour'} has no list values (SQLite's "
                "JSON arrays are text); DuckDB and PostgreSQL have them",
            )

    def _tables_of(self, frame: _Frame) -> list[tuple[str, list[str]]]:
        """(alias, columns) of every source of a frame (tables, CTEs and derived tables)."""
        from sqlglot import exp

        out = []
        items = list(frame.sources) + [j[1] for j in frame.joins]
        for s in items:
            alias = s.alias_or_name
            if isinstance(s, exp.Table) and s.name in self._cte_columns:
                out.append((alias, self._cte_columns[s.name]))
            elif isinstance(s, exp.Table):
                table = self.mapping.table(s.name)
                out.append((alias, [c.name for c in table.columns]))
            else:
                out.append((alias, [c.alias_or_name for c in s.this.selects]))
        return out

    def patterns(self, patterns: tuple, frame: _Frame, conds: list) -> list[_EdgeB]:
        edges: list[_EdgeB] = []
        for pp in patterns:
            if pp.search is not None and pp.search.kind != p.SearchKind.ALL:
                raise self.unsupported(f"path search {pp.search.kind.value}", pp)
            if pp.mode is not None and pp.mode != p.PathMode.TRAIL:
                raise self.unsupported(f"path mode {pp.mode.value}", pp)
            if not isinstance(pp.path, p.PathChain):
                raise self.unsupported("path union", pp)
            depths: list[Any] = []
            edges.extend(self.chain(pp.path, frame, conds, depths))
            if pp.variable is not None:
                if frame.lookup(pp.variable) is not None:
                    raise self.unsupported("a path variable bound twice", pp)
                hops = len(pp.path.elements) // 2 - len(depths)
                frame.bindings[pp.variable] = _PathB(_length(hops, depths))
        return edges

    def chain(
        self, chain: p.PathChain, frame: _Frame, conds: list, depths: list | None = None
    ) -> list[_EdgeB]:
        """The joins of one chain; ``depths`` collects the depth column of each
        variable-length hop (for the path's length)."""
        elements = list(chain.elements)
        if any(isinstance(x, p.ParenPath) for x in elements):
            raise self.unsupported("quantified path pattern", chain)
        if any(isinstance(x, p.NodePattern) != (i % 2 == 0) for i, x in enumerate(elements)):
            # GQL's (a)(b) is one node matched by both patterns; the joins below pair each
            # edge with the nodes on either side of it.
            raise self.unsupported("adjacent node patterns", chain)
        labels = self._infer_labels(elements)
        nodes: list[_NodeB] = []
        for i in range(0, len(elements), 2):
            n = elements[i]
            assert isinstance(n, p.NodePattern)
            nodes.append(self.node(n, labels[i // 2], frame, conds))
        edges = []
        for i in range(1, len(elements), 2):
            r = elements[i]
            assert isinstance(r, p.RelPattern)
            left, right = nodes[i // 2], nodes[i // 2 + 1]
            if r.quantifier is not None:
                depth = self.var_length(r, left, right, frame, conds)
                if depths is not None:
                    depths.append(depth)
            else:
                edges.append(self.edge(r, left, right, frame, conds))
        return edges

    def _infer_labels(self, elements: list) -> list[str | None]:
        """Each node's label: its own, or the endpoint type of an adjacent edge type that has
        a single endpoint pair."""
        labels: list[str | None] = []
        for i in range(0, len(elements), 2):
            labels.append(
                _single_label(elements[i].labels, elements[i]) if elements[i].labels else None
            )
        for i in range(1, len(elements), 2):
            r = elements[i]
            if r.types is None:
                continue
            label = _single_label(r.types, r)
            tables = self.mapping.edges(label)
            if len(tables) != 1:
                continue
            t = tables[0]
            src, dst = (
                (t.source, t.target)
                if r.direction == p.Direction.OUT
                else ((t.target, t.source) if r.direction == p.Direction.IN else (None, None))
            )
            if src is not None:
                labels[i // 2] = labels[i // 2] or src
                labels[i // 2 + 1] = labels[i // 2 + 1] or dst
        return labels

    def node(self, n: p.NodePattern, label: str | None, frame: _Frame, conds: list) -> _NodeB:
        from sqlglot import exp

        bound = frame.lookup(n.variable) if n.variable else None
        if bound is not None:
            if not isinstance(bound, _NodeB):
                raise self.unsupported("a variable used as a node and as something else", n)
            if label is not None and bound.label != label:
                conds.append(exp.false())
            b = bound
        else:
            if label is None:
                raise self.unsupported(
                    "node pattern without a label",
                    n,
                    message="a node without a label (or an edge that fixes it) could be a row of "
                    "any node table",
                    rewrite="give the node its label, (x:Label): each label is one table",
                )
            nmap: NodeTable | None = self.mapping.node(label)
            if nmap is None:
                raise SchemaError(f"no table holds nodes of type {label!r}", code="SCHEMA_MAPPING")
            alias = self._claim_alias(frame, n.variable or label[:1].lower())
            frame.sources.append(_table(nmap.table, alias))
            fk_cols = {c for t in self.mapping.fk_edges(nmap.table) for c in t.target_columns}
            b = _NodeB(
                alias,
                label,
                dict(nmap.columns),
                nmap.key_columns,
                extra={c: c for c in sorted(fk_cols)},
            )
            if n.variable:
                frame.bindings[n.variable] = b
        if n.properties is not None:
            conds.extend(self._property_map(n.properties, b, frame, n))
        if n.where is not None:
            conds.append(self.condition(n.where, frame))
        return b

    def edge(
        self, r: p.RelPattern, left: _NodeB, right: _NodeB, frame: _Frame, conds: list
    ) -> _EdgeB:
        from sqlglot import exp

        if r.types is None:
            raise self.unsupported(
                "relationship pattern without a type",
                r,
                rewrite="give the relationship its type, -[:TYPE]->: each type is one table",
            )
        if r.cost is not None:
            raise self.unsupported("edge cost", r)
        label = _single_label(r.types, r)
        if r.variable and frame.lookup(r.variable) is not None:
            raise self.unsupported("a relationship variable bound twice", r)
        if r.direction in (p.Direction.OUT, p.Direction.IN):
            src, dst = (left, right) if r.direction == p.Direction.OUT else (right, left)
            table = self._edge_table(label, src.label, dst.label, r)
            b, on = self._edge_join(table, src, dst, frame, r)
            conds.extend(on)
        elif r.direction in (p.Direction.EITHER, p.Direction.BOTH):
            forward = self._edge_table(label, left.label, right.label, r, quiet=True)
            backward = self._edge_table(label, right.label, left.label, r, quiet=True)
            if forward is None and backward is None:
                self._edge_table(label, left.label, right.label, r)
            if forward is not None and backward is not None and forward is not backward:
                raise self.unsupported("undirected pattern over two edge tables", r)
            table = forward or backward
            assert table is not None
            b, on1 = self._edge_join(table, left, right, frame, r, add=True)
            on2 = self._edge_conditions(table, right, left, b)
            options = []
            if forward is not None:
                options.append(_and(on1))
            if backward is not None:
                options.append(_and(on2))
            conds.append(options[0] if len(options) == 1 else exp.or_(*options))
        else:
            raise self.unsupported("undirected edge", r)
        if r.variable:
            frame.bindings[r.variable] = b
        if r.properties is not None:
            conds.extend(self._property_map(r.properties, b, frame, r))
        if r.where is not None:
            conds.append(self.condition(r.where, frame))
        return b

    def _edge_table(
        self, label: str, src: str, dst: str, node: Node, quiet: bool = False
    ) -> EdgeTable | None:
        for t in self.mapping.edges(label):
            if t.source == src and t.target == dst:
                return t
        if quiet:
            return None
        if not self.mapping.edges(label):
            raise SchemaError(f"no table holds edges of type {label!r}", code="SCHEMA_MAPPING")
        raise self.unsupported(
            f"edge {label} from {src} to {dst}",
            node,
            message=f"the schema has no {label} edges from {src} to {dst}",
        )

    def _edge_join(
        self, table: EdgeTable, src: _NodeB, dst: _NodeB, frame: _Frame, r: Node, add: bool = True
    ) -> tuple[_EdgeB, list]:
        if table.in_node_table:
            b = _EdgeB(src.alias, table.label, {}, src.key, table, src.nullable)
        else:
            alias = self._claim_alias(
                frame, getattr(r, "variable", None) or table.label[:1].lower()
            )
            frame.sources.append(_table(table.table, alias))
            ident = tuple(self.mapping.table(table.table).primary_key) or (
                table.source_columns + table.target_columns
            )
            b = _EdgeB(alias, table.label, dict(table.columns), ident, table)
        return b, self._edge_conditions(table, src, dst, b)

    def _edge_conditions(self, table: EdgeTable, src: _NodeB, dst: _NodeB, b: _EdgeB) -> list:
        out = []
        if table.in_node_table:
            # the edge is the source row's foreign key, equal to the target's key
            if b.alias != src.alias:
                out += [_eq(_col(b.alias, c), _col(src.alias, d)) for c, d in zip(b.ident, src.key)]
            for c, k in zip(table.target_columns, table.target_key):
                fk = src.extra.get(c)
                if fk is None:
                    raise self.unsupported(f"edge {table.label} of a node carried without it", None)
                out.append(_eq(_col(src.alias, fk), _col(dst.alias, self._key_col(dst, k))))
            return out
        for c, k in zip(table.source_columns, table.source_key):
            out.append(_eq(_col(b.alias, c), _col(src.alias, self._key_col(src, k))))
        for c, k in zip(table.target_columns, table.target_key):
            out.append(_eq(_col(b.alias, c), _col(dst.alias, self._key_col(dst, k))))
        return out

    def _key_col(self, b: _NodeB, column: str) -> str:
        """The column of node binding ``b`` that holds base-table key column ``column``."""
        nmap = self.mapping.node(b.label)
        if column in nmap.key_columns:
            return b.key[nmap.key_columns.index(column)]
        prop = self.mapping.property_of(nmap, column)
        if prop is not None and prop in b.cols:
            return b.cols[prop]
        if column in b.extra:
            return b.extra[column]
        raise self.unsupported(f"column {nmap.table}.{column} of a carried node", None)

    def different_edges(self, edges: list[_EdgeB]) -> list:
        """Two edge patterns of one table in a MATCH bind different rows."""
        from sqlglot import exp

        out = []
        for i, a in enumerate(edges):
            for b in edges[i + 1 :]:
                if a.table is None or a.table is not b.table:
                    continue
                same = _and(
                    [_eq(_col(a.alias, c), _col(b.alias, d)) for c, d in zip(a.ident, b.ident)]
                )
                out.append(exp.Not(this=exp.Paren(this=same)))
        return out

    def _property_map(self, props: e.Expr, b: _NodeB | _EdgeB, frame: _Frame, node: Node) -> list:
        if not isinstance(props, e.MapLiteral):
            raise self.unsupported("property map that is not a literal map", node)
        return [self._prop_eq(b, key, value, frame, node) for key, value in props.entries]

    def _prop_eq(
        self, b: _NodeB | _EdgeB, key: str, value: e.Expr, frame: _Frame, node: Node
    ) -> Any:
        column = self._property(b, key, node)
        return self.comparison(
            e.CompOp.EQ,
            column,
            self.expr(value, frame),
            self._prop_kind(b, key),
            self.kind(value, frame),
            node,
        )

    # -- variable-length edges ------------------------------------------------------------------

    def var_length(
        self, r: p.RelPattern, left: _NodeB, right: _NodeB, frame: _Frame, conds: list
    ) -> Any:
        """A recursive CTE of trails (see the module docstring), joined to both ends; returns
        the column holding each trail's number of edges."""
        from sqlglot import exp

        if r.variable is not None:
            raise self.unsupported("variable bound to a list of relationships", r)
        if r.types is None:
            raise self.unsupported("variable-length relationship without a type", r)
        if r.properties is not None or r.where is not None:
            raise self.unsupported("variable-length relationship with a condition", r)
        assert r.quantifier is not None
        label = _single_label(r.types, r)
        if r.direction == p.Direction.IN:
            src, dst = right, left
        elif r.direction == p.Direction.OUT:
            src, dst = left, right
        else:
            raise self.unsupported("variable-length relationship in either direction", r)
        table = self._edge_table(label, src.label, dst.label, r)
        upper = r.quantifier.upper
        if (upper is None or upper > 1) and (
            src.label != dst.label or len(self.mapping.edges(label)) > 1
        ):
            # The CTE walks one edge table and joins an edge's end to the next one's start by
            # key: only sound when every hop stays in that one table between nodes of one label.
            raise self.unsupported(
                "variable-length relationship over several edge tables",
                r,
                message=f"a path of {label} edges may pass through nodes of other labels, or "
                f"use {label} edges of other tables, which the recursive query does not walk",
            )
        if r.quantifier.lower == 0:
            raise self.unsupported(
                "variable-length relationship of length zero",
                r,
                rewrite="a lower bound of 1, and the zero-length case separately",
            )
        name = self._cte_name()
        start, end, depth, trail = (_ident(x) for x in ("start_key", "end_key", "depth", "trail"))
        rel_table = self.mapping.table(table.table)
        if len(table.source_columns) != 1:
            raise self.unsupported("variable-length path over a composite key", r)
        s_col, d_col = table.source_columns[0], table.target_columns[0]
        ident_cols = list(rel_table.primary_key) or [s_col, d_col]
        if table.in_node_table:
            raise self.unsupported("variable-length path over a foreign key", r)

        def token(alias: str) -> Any:
            parts: list[Any] = [exp.Literal.string("|")]
            for k, c in enumerate(ident_cols):
                if k:
                    parts.append(exp.Literal.string(">"))
                parts.append(
                    self._escaped(
                        exp.column(_ident(c), table=_ident(alias)), rel_table.column(c).type.kind
                    )
                )
            parts.append(exp.Literal.string("|"))
            return _concat(parts)

        e1 = "e"
        base = exp.select(
            exp.alias_(_col(e1, s_col), start),
            exp.alias_(_col(e1, d_col), end),
            exp.alias_(exp.Literal.number(1), depth),
            exp.alias_(token(e1), trail),
        ).from_(_table(table.table, e1))
        step_sel = exp.select(
            exp.column(start, table=_ident("p")),
            exp.alias_(_col(e1, d_col), end),
            exp.alias_(
                exp.Add(
                    this=exp.column(depth, table=_ident("p")), expression=exp.Literal.number(1)
                ),
                depth,
            ),
            exp.alias_(_concat([exp.column(trail, table=_ident("p")), token(e1)]), trail),
        ).from_(exp.Table(this=_ident(name), alias=exp.TableAlias(this=_ident("p"))))
        step_sel = step_sel.join(
            _table(table.table, e1),
            on=_eq(_col(e1, s_col), exp.column(end, table=_ident("p"))),
        )
        guards = [
            _eq(
                exp.StrPosition(this=exp.column(trail, table=_ident("p")), substr=token(e1)),
                exp.Literal.number(0),
            )
        ]
        if r.quantifier.upper is not None:
            guards.append(
                exp.LT(
                    this=exp.column(depth, table=_ident("p")),
                    expression=exp.Literal.number(r.quantifier.upper),
                )
            )
        step_sel = step_sel.where(_and(guards))
        cte_body = exp.union(base, step_sel, distinct=False)
        self.ctes.append(
            exp.CTE(
                this=cte_body,
                alias=exp.TableAlias(this=_ident(name), columns=[start, end, depth, trail]),
            )
        )
        self._cte_columns[name] = ["start_key", "end_key", "depth", "trail"]
        alias = self._claim_alias(frame, "path")
        lower = r.quantifier.lower
        src_key = self._key_col(src, table.source_key[0])
        dst_key = self._key_col(dst, table.target_key[0])
        path_conds = [
            _eq(exp.column(start, table=_ident(alias)), _col(src.alias, src_key)),
            _eq(exp.column(end, table=_ident(alias)), _col(dst.alias, dst_key)),
        ]
        if lower > 1:
            path_conds.append(
                exp.GTE(
                    this=exp.column(depth, table=_ident(alias)),
                    expression=exp.Literal.number(lower),
                )
            )
        frame.sources.append(exp.Table(this=_ident(name), alias=exp.TableAlias(this=_ident(alias))))
        conds.extend(path_conds)
        return exp.column(depth, table=_ident(alias))

    def _escaped(self, column: Any, kind: TypeKind) -> Any:
        """An edge-key value as text that cannot contain the trail's separators."""
        from sqlglot import exp

        text = exp.cast(column, exp.DataType.build("TEXT"))
        if kind in INTEGER_KINDS:
            return text
        for old, new in (("\\", "\\\\"), ("|", "\\p"), (">", "\\g")):
            text = exp.Anonymous(
                this="REPLACE", expressions=[text, exp.Literal.string(old), exp.Literal.string(new)]
            )
        return text

    # -- WITH ----------------------------------------------------------------------------------

    def wrap(self, proj: q.Projection, frame: _Frame) -> _Frame:
        """A WITH: the projection as a derived table, and a frame over it."""
        from sqlglot import exp

        names: dict[str, _Bound] = {}
        agg_names = {
            i.alias or (i.expr.name if isinstance(i.expr, e.Variable) else "")
            for i in proj.items
            if aggregates(i.expr)
        }
        if proj.star:
            for name, b in frame.bindings.items():
                names[name] = b
        for item in proj.items:
            name = item.alias or (item.expr.name if isinstance(item.expr, e.Variable) else None)
            if name is None:
                raise self.unsupported("WITH item without a name", item)
            names[name] = self._item_binding(item.expr, frame)
        columns = []
        aggregated: list[bool] = []
        kinds: list[str | None] = []
        new = _Frame(parent=frame.parent)
        w = self._alias("w")
        for name, b in names.items():
            start = len(columns)
            if isinstance(b, _NodeB):
                cols = {}
                for prop, col in b.cols.items():
                    cname = f"{name}__{prop}"
                    columns.append(exp.alias_(_col(b.alias, col), _ident(cname)))
                    cols[prop] = cname
                key = []
                for k in b.key:
                    prop = next((pp for pp, c in b.cols.items() if c == k), None)
                    if prop is None:
                        cname = f"{name}__{k}"
                        columns.append(exp.alias_(_col(b.alias, k), _ident(cname)))
                        key.append(cname)
                    else:
                        key.append(cols[prop])
                extra = {}
                for base, col in b.extra.items():
                    cname = f"{name}__fk__{base}"
                    columns.append(exp.alias_(_col(b.alias, col), _ident(cname)))
                    extra[base] = cname
                new.bindings[name] = _NodeB(w, b.label, cols, tuple(key), b.nullable, extra)
            elif isinstance(b, _EdgeB):
                cols = {}
                for prop, col in b.cols.items():
                    cname = f"{name}__{prop}"
                    columns.append(exp.alias_(_col(b.alias, col), _ident(cname)))
                    cols[prop] = cname
                ident = []
                for k, c in enumerate(b.ident):
                    cname = f"{name}__id{k}"
                    columns.append(exp.alias_(_col(b.alias, c), _ident(cname)))
                    ident.append(cname)
                new.bindings[name] = _EdgeB(w, b.label, cols, tuple(ident), None, b.nullable)
            elif isinstance(b, _PathB):
                columns.append(exp.alias_(b.length, _ident(f"{name}__length")))
                new.bindings[name] = _PathB(exp.column(_ident(f"{name}__length"), table=_ident(w)))
            else:
                columns.append(exp.alias_(b.expr, _ident(name)))
                new.bindings[name] = _ValueB(exp.column(_ident(name), table=_ident(w)), b.kind)
            agg = name in agg_names
            aggregated.extend(agg for _ in range(len(columns) - start))
            kinds.extend(self._column_kinds(b, len(columns) - start))
        body = self.select(
            proj, frame, final=False, columns=columns, aggregated=aggregated, kinds=kinds
        )
        new.sources.append(exp.Subquery(this=body, alias=exp.TableAlias(this=_ident(w))))
        new.aliases.add(w)
        new.order = self._carried_order(proj, new)
        return new

    def _column_kinds(self, b: _Bound, n: int) -> list[str | None]:
        """The kinds of the ``n`` columns a WITH writes for binding ``b``: its properties', then
        unknown for key and foreign-key columns that are no property."""
        if isinstance(b, _ValueB):
            return [b.kind]
        if isinstance(b, _PathB):
            return ["int"]
        props = [self._prop_kind(b, prop) for prop in b.cols]
        return (props + [None] * n)[:n]

    def _carried_order(self, proj: q.Projection, new: _Frame) -> list[Any] | None:
        """A WITH's ORDER BY as sort keys over its own columns (a derived table's ORDER BY
        does not order what reads it, so a later collect() orders by these), or None where a
        key reads a value the WITH does not keep."""
        from sqlglot import exp

        keys = []
        for s in _fold_null_keys(proj.order_by):
            try:
                value = self.expr(s.expr, new)
            except UnsupportedError:
                return None
            keys.append(exp.Ordered(this=value, desc=s.descending, nulls_first=s.nulls_first))
        return keys

    def _item_binding(self, value: e.Expr, frame: _Frame) -> _Bound:
        if isinstance(value, e.Variable):
            b = frame.lookup(value.name)
            if b is None:
                raise self.unsupported(f"unknown variable {value.name}", value)
            return b
        return _ValueB(self.expr(value, frame), self.kind(value, frame))

    # -- the final SELECT ---------------------------------------------------------------------

    def select(
        self,
        proj: q.Projection,
        frame: _Frame,
        final: bool,
        columns: list | None = None,
        aggregated: list[bool] | None = None,
        kinds: list[str | None] | None = None,
    ) -> Any:
        """The SELECT of a projection: the final one (its items as columns) or a WITH's
        (``columns`` given, which ``aggregated`` flags and ``kinds`` types)."""
        from sqlglot import exp

        aggregating = any(aggregates(i.expr) for i in proj.items)
        if final:
            kinds = [self.kind(i.expr, frame) for i in proj.items]
        assert kinds is not None
        if proj.group_by is not None:
            raise self.unsupported("GROUP BY other than the implicit keys", proj)
        if final:
            if proj.star:
                raise self.unsupported("RETURN *", proj)
            columns = []
            for item in proj.items:
                b = frame.lookup(item.expr.name) if isinstance(item.expr, e.Variable) else None
                if isinstance(b, _PathB):
                    raise self.unsupported(
                        "path in the result",
                        item,
                        message="a SQL result holds values, not paths",
                        rewrite="return length(p) or the properties of its nodes",
                    )
                if isinstance(b, (_NodeB, _EdgeB)):
                    raise self.unsupported(
                        "graph element in the result",
                        item,
                        message="a SQL result holds values, not nodes or relationships",
                        rewrite="return the element's properties",
                    )
                name = item.alias or _text_name(item.expr)
                value = self.expr(item.expr, frame)
                if isinstance(value, exp.Column) and value.name == name:
                    columns.append(value)  # the column's own name is the result's
                else:
                    columns.append(exp.alias_(value, _ident(name)))
        assert columns is not None
        group: list[Any] = []
        having = None
        if aggregating:
            if final:
                aggregated = [aggregates(i.expr) for i in proj.items]
            keys = [
                c.this if isinstance(c, exp.Alias) else c
                for c, agg in zip(columns, aggregated or [])
                if not agg
            ]
            # a constant key does not split the groups, but without any other key it still
            # means "no rows, no groups" (a SQL aggregate without GROUP BY gives one row)
            group = [k.copy() for k in keys if not _sql_constant(k)]
            if group:
                self._exact_keys(
                    [k for k, agg in zip(kinds, aggregated or []) if not agg], proj, "GROUP BY"
                )
            if keys and not group:
                having = exp.GT(this=exp.Count(this=exp.Star()), expression=exp.Literal.number(0))
        if proj.distinct:
            self._exact_keys(kinds, proj, "DISTINCT")
        order = []
        for s in _fold_null_keys(proj.order_by):
            order.extend(self.sort_items(s, proj, frame, columns))
        body = self._assemble(
            frame, columns, frame.where, distinct=proj.distinct, group=group, order=order
        )
        if having is not None:
            body = body.having(having)
        if proj.skip is not None:
            body = body.offset(self._count(proj.skip, proj))
        if proj.limit is not None:
            body = body.limit(self._count(proj.limit, proj))
        return body

    def sort_items(self, s: q.SortItem, proj: q.Projection, frame: _Frame, columns: list) -> list:
        from sqlglot import exp

        value = None
        if isinstance(s.expr, e.Variable):
            name = s.expr.name
            item = next((i for i in proj.items if (i.alias or "") == name), None)
            if item is not None and _constant(item.expr):
                return []  # ordering by a constant changes nothing
            # by name: a WITH of a node spreads it over several columns, so positions differ
            col = next((c for c in columns if c.alias_or_name == name), None)
            if item is not None and col is not None:
                if isinstance(col, exp.Column):
                    value = col.copy()  # a table's column, qualified: never ambiguous
                else:
                    value = exp.column(_ident(col.alias_or_name))
        resolved = _resolve_aliases(s.expr, proj)
        if value is None:
            if _constant(resolved):
                return []
            value = self.expr(resolved, frame)
        kind = self.kind(resolved, frame)
        if kind == "string":
            value = self.exact_strings(value, s, "ORDER BY strings")
        elif kind is None and self.flavour in COLLATED_STRINGS:
            raise self.unsupported(
                "ORDER BY a value of unknown type",
                s,
                message=f"{self.flavour} orders strings by a collation that ignores case",
            )
        return [exp.Ordered(this=value, desc=s.descending, nulls_first=s.nulls_first)]

    def _count(self, value: e.Expr, node: Node) -> Any:
        from sqlglot import exp

        if isinstance(value, e.Integer):
            return exp.Literal.number(value.value)
        if isinstance(value, e.Parameter):
            return self.expr(value, _Frame())
        raise self.unsupported("SKIP or LIMIT that is not an integer or a parameter", node)

    def _assemble(
        self,
        frame: _Frame,
        columns: list,
        where: list,
        distinct: bool = False,
        group: list | None = None,
        order: list | None = None,
    ) -> Any:
        from sqlglot import exp

        sel = exp.Select(expressions=list(columns) or [exp.Literal.number(1)])
        if distinct:
            sel.set("distinct", exp.Distinct())
        sources = list(frame.sources)
        if frame.joins and not sources:
            sources.append(exp.select(exp.Literal.number(1)).subquery(self._alias("one")))
        if sources:
            sel = sel.from_(sources[0])
            for s in sources[1:]:
                sel = sel.join(s, join_type="CROSS")
        for kind, source, on in frame.joins:
            sel = sel.join(source, on=on, join_type=kind)
        cond = _and(where)
        if cond is not None:
            sel = sel.where(cond)
        if group:
            sel = sel.group_by(*group)
        if order:
            sel = sel.order_by(*order)
        return sel

    # =========================================================================================
    # expressions
    # =========================================================================================

    def condition(self, value: e.Expr, frame: _Frame) -> Any:
        return self.expr(value, frame)

    def expr(self, value: e.Expr, frame: _Frame) -> Any:
        self._frame = frame
        return self.gen(value)

    def sub(self, value: e.Expr) -> Any:
        return self.expr(value, self._frame)

    @emits(e.Cast)
    def cast(self, node: e.Cast) -> Any:
        """A CAST read from GQL (``CAST(x AS STRING)``) is not written: its conversions are
        GQL's, and the SQL engines convert each in their own way."""
        raise self.unsupported(
            "CAST",
            node,
            message=f"CAST to {node.type.name}: DuckDB, PostgreSQL and SQLite each convert "
            "values their own way (a float's or a boolean's text, a string that is not a "
            "number), so gqlir's SQL output writes no CAST",
        )

    # -- atoms ---------------------------------------------------------------------------------

    @emits(e.Null)
    def null(self, node: e.Null) -> Any:
        from sqlglot import exp

        return exp.Null()

    @emits(e.Boolean)
    def boolean(self, node: e.Boolean) -> Any:
        from sqlglot import exp

        return exp.true() if node.value else exp.false()

    @emits(e.Integer)
    def integer(self, node: e.Integer) -> Any:
        from sqlglot import exp

        if node.value < 0:
            return exp.Neg(this=exp.Literal.number(-node.value))
        return exp.Literal.number(node.value)

    @emits(e.Float)
    def float_(self, node: e.Float) -> Any:
        from sqlglot import exp

        if node.value != node.value or node.value in (float("inf"), float("-inf")):
            raise self.unsupported("non-finite float", node)
        if node.value < 0:
            return exp.Neg(this=exp.Literal.number(repr(-node.value)))
        return exp.Literal.number(repr(node.value))

    @emits(e.String)
    def string_(self, node: e.String) -> Any:
        from sqlglot import exp

        self.refuse_surrogates(node.value, node)
        return exp.Literal.string(node.value)

    @emits(e.TemporalLiteral)
    def temporal(self, node: e.TemporalLiteral) -> Any:
        from sqlglot import exp

        types = {
            e.TemporalKind.DATE: "DATE",
            e.TemporalKind.LOCAL_DATETIME: "TIMESTAMP",
            e.TemporalKind.LOCAL_TIME: "TIME",
        }
        sql_type = types.get(node.kind)
        if sql_type is None:
            raise self.unsupported(f"{node.kind.value} literal", node)
        text = exp.Literal.string(node.text)
        if self.flavour in TEXT_TEMPORALS:
            return text
        return exp.cast(text, exp.DataType.build(sql_type))

    @emits(e.Parameter)
    def parameter_(self, node: e.Parameter) -> Any:

        if not spells_parameter(self.flavour, node.name):
            raise self.unsupported(
                "parameter name",
                node,
                message=f"{self.dialect.name} cannot write the parameter name {node.name!r}: a "
                "SQL parameter is the flavour's sigil and a plain name (letters, digits, _), "
                "which has no quoted form",
                rewrite="rename the parameter to a plain name",
            )
        return parameter_node(self.flavour, node.name)

    @emits(e.Variable)
    def variable(self, node: e.Variable) -> Any:
        b = self._frame.lookup(node.name)
        if b is None:
            raise self.unsupported(f"unknown variable {node.name}", node)
        if isinstance(b, _ValueB):
            return b.expr.copy()
        if isinstance(b, _PathB):
            raise self.unsupported(
                "path as a value",
                node,
                message="SQL keeps no path value: only length(p) of a path can be written",
            )
        raise self.unsupported(
            "graph element as a value",
            node,
            message="a node or relationship has no SQL value (compare or return its properties)",
        )

    @emits(e.Property)
    def property_(self, node: e.Property) -> Any:
        if not isinstance(node.subject, e.Variable):
            raise self.unsupported("property of a computed value", node)
        b = self._frame.lookup(node.subject.name)
        if b is None:
            raise self.unsupported(f"unknown variable {node.subject.name}", node)
        if isinstance(b, _ValueB):
            raise self.unsupported("property of a value that is not an element", node)
        return self._property(b, node.key, node)

    def _property(self, b: _NodeB | _EdgeB, key: str, node: Node) -> Any:
        from sqlglot import exp

        col = b.cols.get(key)
        if col is None:
            # Cypher reads a missing property as null
            return exp.Null()
        return _col(b.alias, col)

    # -- operators -----------------------------------------------------------------------------

    @emits(e.And)
    def and_(self, node: e.And) -> Any:
        from sqlglot import exp

        return exp.And(this=_paren(self.sub(node.left)), expression=_paren(self.sub(node.right)))

    @emits(e.Or)
    def or_(self, node: e.Or) -> Any:
        from sqlglot import exp

        return exp.Or(this=_paren(self.sub(node.left)), expression=_paren(self.sub(node.right)))

    @emits(e.Xor)
    def xor(self, node: e.Xor) -> Any:
        from sqlglot import exp

        left, right = self.sub(node.left), self.sub(node.right)
        return exp.NEQ(this=_paren(left), expression=_paren(right))

    @emits(e.Not)
    def not_(self, node: e.Not) -> Any:
        from sqlglot import exp

        return exp.Not(this=_paren(self.sub(node.operand)))

    @emits(e.IsNull)
    def is_null(self, node: e.IsNull) -> Any:
        from sqlglot import exp

        test = exp.Is(this=_paren(self.sub(node.operand)), expression=exp.Null())
        return exp.Not(this=test) if node.negated else test

    @emits(e.Comparison)
    def comparison_(self, node: e.Comparison) -> Any:
        elements = [
            self._frame.lookup(x.name) if isinstance(x, e.Variable) else None
            for x in (node.left, node.right)
        ]
        if any(isinstance(b, (_NodeB, _EdgeB)) for b in elements):
            return self.element_comparison(node, elements[0], elements[1])
        return self.comparison(
            node.op,
            self.sub(node.left),
            self.sub(node.right),
            self.kind(node.left, self._frame),
            self.kind(node.right, self._frame),
            node,
        )

    def element_comparison(self, node: e.Comparison, a: Any, b: Any) -> Any:
        """``a = b`` / ``a <> b`` of two nodes (or two relationships): the same row of the
        same table, so equal keys; of different tables, never the same element (null when
        either side is null, as Cypher compares null)."""
        from sqlglot import exp

        if node.op not in (e.CompOp.EQ, e.CompOp.NE):
            raise self.unsupported(f"{node.op.value} on graph elements", node)
        if type(a) is not type(b) or not isinstance(a, (_NodeB, _EdgeB)):
            raise self.unsupported(
                "comparison of a graph element with another kind of value",
                node,
                message="only two nodes or two relationships compare as elements",
            )
        ka = a.key if isinstance(a, _NodeB) else a.ident
        kb = b.key if isinstance(b, _NodeB) else b.ident
        if a.label == b.label and len(ka) == len(kb):
            same = _and([_eq(_col(a.alias, x), _col(b.alias, y)) for x, y in zip(ka, kb)])
        else:
            missing = exp.or_(
                exp.Is(this=_col(a.alias, ka[0]), expression=exp.Null()),
                exp.Is(this=_col(b.alias, kb[0]), expression=exp.Null()),
            )
            same = exp.Case().when(missing, exp.Null()).else_(exp.false())
        return same if node.op == e.CompOp.EQ else exp.Not(this=exp.Paren(this=same))

    def comparison(
        self, op: e.CompOp, left: Any, right: Any, lk: str | None, rk: str | None, node: Node
    ) -> Any:
        from sqlglot import exp

        if _is_list(lk) or _is_list(rk):
            raise self.unsupported(
                "comparison of lists",
                node,
                message="Cypher compares lists element by element with its own null rules",
            )

        if lk and rk and lk != rk and not (lk in _NUMERIC and rk in _NUMERIC):
            raise self.unsupported(
                "comparison of values of different types",
                node,
                message="Cypher gives null or false where SQL engines convert or order the types",
            )
        if "string" in (lk, rk):
            left = self.exact_strings(left, node)
        cls = {
            e.CompOp.EQ: exp.EQ,
            e.CompOp.NE: exp.NEQ,
            e.CompOp.LT: exp.LT,
            e.CompOp.LE: exp.LTE,
            e.CompOp.GT: exp.GT,
            e.CompOp.GE: exp.GTE,
        }[op]
        return cls(this=_paren(left), expression=_paren(right))

    def exact_strings(self, operand: Any, node: Node, what: str = "string comparison") -> Any:
        """A string operand that compares as the graph languages compare strings: as it is,
        or with the flavour's exact collation where the default one ignores case."""
        from sqlglot import exp

        if self.flavour not in COLLATED_STRINGS:
            return operand
        collation = EXACT_COLLATION.get(self.flavour)
        if collation is None:
            raise self.unsupported(
                what,
                node,
                message=f"{self.flavour} compares strings under a collation that ignores case "
                "and pads with spaces, and no collation compares them exactly",
            )
        return exp.Collate(this=_paren(operand), expression=exp.Var(this=collation))

    def _exact_keys(self, kinds: list[str | None], node: Node, what: str) -> None:
        """GROUP BY and DISTINCT over strings group 'a' and 'A' together under the default
        collation of MySQL and SQL Server; MySQL cannot group by a collated key and still
        select the column (ONLY_FULL_GROUP_BY), so such keys are refused."""
        if self.flavour in COLLATED_STRINGS and any(k in ("string", None) for k in kinds):
            raise self.unsupported(
                f"{what} over strings",
                node,
                message=f"{self.flavour}'s default collation puts strings that differ in case "
                "(or trailing spaces) in one group",
            )

    @emits(e.Arithmetic)
    def arithmetic(self, node: e.Arithmetic) -> Any:
        from sqlglot import exp

        lk, rk = self.kind(node.left, self._frame), self.kind(node.right, self._frame)
        left, right = _paren(self.sub(node.left)), _paren(self.sub(node.right))
        if node.op == e.ArithOp.ADD:
            if lk == "string" and rk == "string":
                return exp.DPipe(this=left, expression=right, safe=True)
            if lk not in _NUMERIC or rk not in _NUMERIC:
                raise self.unsupported(
                    "+ on values not known to be numbers or strings",
                    node,
                    message="Cypher's + adds numbers and concatenates strings and lists",
                )
            return exp.Add(this=left, expression=right)
        if lk not in _NUMERIC or rk not in _NUMERIC:
            raise self.unsupported(f"{node.op.value} on values not known to be numbers", node)
        if node.op == e.ArithOp.SUB:
            return exp.Sub(this=left, expression=right)
        if node.op == e.ArithOp.MUL:
            return exp.Mul(this=left, expression=right)
        if node.op == e.ArithOp.DIV_FLOAT:
            # the quotient keeps its fraction: sqlglot's untyped division, which it writes
            # with a cast where the flavour's / of integers truncates
            return exp.Div(this=left, expression=right, typed=False, safe=False)
        if node.op == e.ArithOp.DIV:
            if lk == "int" and rk == "int":
                if self._typed_division():
                    return exp.Div(this=left, expression=right, typed=True, safe=False)
                return exp.IntDiv(this=left, expression=right)
            return exp.Div(
                this=exp.cast(left, exp.DataType.build("DOUBLE")),
                expression=right,
                typed=False,
                safe=False,
            )
        if node.op == e.ArithOp.MOD:
            if lk != "int" or rk != "int":
                raise self.unsupported("% on floats", node)
            return exp.Mod(this=left, expression=right)
        raise self.unsupported("^", node, rewrite="POWER() where the flavour has it")

    def _typed_division(self) -> bool:
        from sqlglot.dialects.dialect import Dialect as SqlglotDialect

        return bool(SqlglotDialect.get_or_raise(self.flavour or None).TYPED_DIVISION)

    @emits(e.Negate)
    def negate(self, node: e.Negate) -> Any:
        from sqlglot import exp

        if self.kind(node.operand, self._frame) not in _NUMERIC:
            raise self.unsupported("- on a value not known to be a number", node)
        return exp.Neg(this=_paren(self.sub(node.operand)))

    @emits(e.Concat)
    def concat(self, node: e.Concat) -> Any:
        from sqlglot import exp

        for side in (node.left, node.right):
            if self.kind(side, self._frame) != "string" and not isinstance(side, e.Null):
                raise self.unsupported("|| on a value not known to be a string", node)
        return exp.DPipe(
            this=_paren(self.sub(node.left)), expression=_paren(self.sub(node.right)), safe=True
        )

    @emits(e.StringMatch)
    def string_match(self, node: e.StringMatch) -> Any:
        """Substring tests, never LIKE: its wildcards and case rules differ by flavour."""
        from sqlglot import exp

        for side in (node.left, node.right):
            if self.kind(side, self._frame) not in ("string", None):
                raise self.unsupported(f"{node.op.value} on a value that is not a string", node)
            if self.kind(side, self._frame) is None and not isinstance(side, e.Null):
                raise self.unsupported(f"{node.op.value} on a value not known to be a string", node)
        value = _paren(self.exact_strings(self.sub(node.left), node, node.op.value))
        pattern = _paren(self.sub(node.right))
        length = exp.Length(this=pattern.copy())
        if node.op == e.StringOp.STARTS_WITH:
            head = exp.Substring(this=value, start=exp.Literal.number(1), length=length)
            return exp.EQ(this=head, expression=pattern)
        if node.op == e.StringOp.ENDS_WITH:
            start = exp.Add(
                this=exp.Sub(this=exp.Length(this=value.copy()), expression=length),
                expression=exp.Literal.number(1),
            )
            tail = exp.Substring(this=value.copy(), start=start)
            fits = exp.GTE(this=exp.Length(this=value), expression=length.copy())
            return exp.And(this=fits, expression=exp.EQ(this=tail, expression=pattern))
        return exp.GT(
            this=exp.StrPosition(this=value, substr=pattern), expression=exp.Literal.number(0)
        )

    @emits(e.In)
    def in_(self, node: e.In) -> Any:
        from sqlglot import exp

        if not isinstance(node.container, e.ListLiteral):
            raise self.unsupported("IN over a list that is not a literal", node)
        if not node.container.items:
            return exp.false()
        kind = self.kind(node.item, self._frame)
        for x in node.container.items:
            xk = self.kind(x, self._frame)
            if kind and xk and kind != xk and not (kind in _NUMERIC and xk in _NUMERIC):
                raise self.unsupported("IN over values of different types", node)
        item = self.sub(node.item)
        if kind == "string":
            item = self.exact_strings(item, node, "IN over strings")
        return exp.In(
            this=_paren(item),
            expressions=[self.sub(x) for x in node.container.items],
        )

    @emits(e.Case)
    def case(self, node: e.Case) -> Any:
        from sqlglot import exp

        folded = _sql_sum(node)
        if folded is not None:
            return exp.Sum(
                this=self.sub(folded.args[0])
                if not folded.distinct
                else exp.Distinct(expressions=[self.sub(folded.args[0])])
            )
        out = exp.Case(this=self.sub(node.subject) if node.subject is not None else None)
        for w in node.whens:
            out = out.when(self.sub(w.condition), self.sub(w.result))
        if node.default is not None:
            out = out.else_(self.sub(node.default))
        return out

    # -- functions and aggregates --------------------------------------------------------------

    @emits(e.FunctionCall)
    def function(self, node: e.FunctionCall) -> Any:
        from sqlglot import exp

        name = node.name
        if name == "length" and len(node.args) == 1 and isinstance(node.args[0], e.Variable):
            path = self._frame.lookup(node.args[0].name)
            if isinstance(path, _PathB):
                return path.length.copy()
        args = [self.sub(a) for a in node.args]
        kinds = [self.kind(a, self._frame) for a in node.args]
        if name in ("upper", "lower") and kinds[0] in ("string", None):
            return (exp.Upper if name == "upper" else exp.Lower)(this=args[0])
        if name in ("char_length", "size") and kinds[0] == "string":
            return exp.Length(this=args[0])
        if name == "size" and _is_list(kinds[0]):
            self._require_lists("size() of a list", node)
            return exp.Anonymous(this="CARDINALITY", expressions=args)
        if name == "abs" and kinds[0] in _NUMERIC:
            return exp.Abs(this=args[0])
        if name == "coalesce":
            return exp.Coalesce(this=args[0], expressions=args[1:])
        if name == "nullif":
            return exp.Nullif(this=args[0], expression=args[1])
        if name == "tofloat" and kinds[0] in _NUMERIC:
            return exp.cast(args[0], exp.DataType.build("DOUBLE"))
        if name == "substring" and kinds[0] == "string" and isinstance(node.args[1], e.Integer):
            start = exp.Literal.number(node.args[1].value + 1)
            return exp.Substring(
                this=args[0], start=start, length=args[2] if len(args) > 2 else None
            )
        raise self.unsupported(f"function {name}()", node)

    @emits(e.Aggregate)
    def aggregate(self, node: e.Aggregate) -> Any:
        from sqlglot import exp

        if len(node.args) != 1:
            raise self.unsupported(f"aggregate {node.name}", node)
        arg = node.args[0]
        b = self._frame.lookup(arg.name) if isinstance(arg, e.Variable) else None
        if isinstance(b, (_NodeB, _EdgeB)):
            if node.name != "count":
                raise self.unsupported(f"{node.name}() of a graph element", node)
            return exp.Count(this=self._element_count(b, node.distinct))
        value = self.sub(arg)
        kind = self.kind(arg, self._frame)
        if node.name == "collect":
            return self.collect(value, kind, node)
        if node.distinct:
            value = exp.Distinct(expressions=[value])
        if node.name == "count":
            return exp.Count(this=value)
        # sum() and avg() of anything but numbers fail in Cypher and in SQL alike, so a value
        # of unknown type is fine; one known to be something else is not
        if node.name == "sum":
            if kind not in (*_NUMERIC, None):
                raise self.unsupported("sum() of values that are not numbers", node)
            return exp.Coalesce(this=exp.Sum(this=value), expressions=[exp.Literal.number(0)])
        if node.name == "avg":
            if kind not in (*_NUMERIC, None):
                raise self.unsupported("avg() of values that are not numbers", node)
            return exp.Avg(this=value)
        if node.name in ("min", "max"):
            if kind not in ("int", "float", "string"):
                raise self.unsupported(f"{node.name}() of values of unknown type", node)
            if kind == "string":
                value = self.exact_strings(value, node, f"{node.name}() of strings")
            return (exp.Min if node.name == "min" else exp.Max)(this=value)
        raise self.unsupported(f"aggregate {node.name}()", node)

    def _element_count(self, b: _NodeB | _EdgeB, distinct: bool) -> Any:
        """What COUNT counts for an element: one of its key columns, never null for an element
        that exists (all null for an OPTIONAL MATCH that did not match); for DISTINCT over a
        composite key, the key columns as one text in the trails' escaped form."""
        from sqlglot import exp

        ident = b.key if isinstance(b, _NodeB) else b.ident
        if not distinct:
            return _col(b.alias, ident[0])
        if len(ident) == 1:
            return exp.Distinct(expressions=[_col(b.alias, ident[0])])
        parts: list[Any] = []
        for k, c in enumerate(ident):
            if k:
                parts.append(exp.Literal.string(">"))
            parts.append(self._escaped(_col(b.alias, c), TypeKind.STRING))
        return exp.Distinct(expressions=[_concat(parts)])

    def collect(self, value: Any, kind: str | None, node: e.Aggregate) -> Any:
        """``collect(x)``: ``ARRAY_AGG`` of the non-null values, in the order a WITH … ORDER BY
        gave the rows, and an empty list (not null) when there are none."""
        from sqlglot import exp

        self._require_lists("collect()", node)
        if _is_list(kind) or kind == "other":
            raise self.unsupported("collect() of lists", node)
        order = self._frame.order
        if order is None:
            raise self.unsupported(
                "collect() of rows in UNWIND's order",
                node,
                message="Cypher collects the rows in the order of the list UNWIND read; SQL's "
                "UNNEST gives rows in no order an aggregate can follow",
            )
        arg = exp.Distinct(expressions=[value]) if node.distinct else value.copy()
        if order and node.distinct and any(o.this != value for o in order):
            raise self.unsupported(
                "collect(DISTINCT x) of rows ordered by another value",
                node,
                message="SQL orders a DISTINCT aggregate only by its own argument",
            )
        if order:
            arg = exp.Order(this=arg, expressions=[o.copy() for o in order])
        kept = exp.Filter(
            this=exp.ArrayAgg(this=arg),
            expression=exp.Where(
                this=exp.Not(this=exp.Is(this=value.copy(), expression=exp.Null()))
            ),
        )
        empty = exp.Array(expressions=[])
        element = _SQL_TYPES.get(kind or "")
        if self.flavour in CONTEXT_TYPED:
            if element is None:
                raise self.unsupported(
                    "collect() of values of unknown type",
                    node,
                    message=f"{self.flavour} needs the element type of an empty list",
                )
            empty = exp.cast(empty, exp.DataType.build(f"{element}[]", dialect="postgres"))
        return exp.Coalesce(this=kept, expressions=[empty])

    @emits(e.CountStar)
    def count_star(self, node: e.CountStar) -> Any:
        from sqlglot import exp

        return exp.Count(this=exp.Star())

    @emits(e.Exists)
    def exists(self, node: e.Exists) -> Any:
        from sqlglot import exp

        return exp.Exists(this=self._subquery_rows(node.query, node))

    @emits(e.CountSubquery)
    def count_subquery(self, node: e.CountSubquery) -> Any:
        from sqlglot import exp

        rows = self._subquery_rows(node.query, node)
        counted = exp.select(exp.Count(this=exp.Star())).from_(rows.subquery(self._alias("c")))
        return exp.Subquery(this=counted)

    def _subquery_rows(self, query: q.Query, node: Node) -> Any:
        """The rows of an EXISTS / COUNT body: its MATCH steps, correlated with the enclosing
        rows (SQL subqueries see the outer aliases)."""
        outer = self._frame
        if not isinstance(query, q.LinearQuery):
            raise self.unsupported("EXISTS over a set operation", node)
        steps = list(query.steps)
        if steps and isinstance(steps[-1], q.Projection):
            last = steps[-1]
            if _aggregates_any(last) or last.limit is not None or last.skip is not None:
                raise self.unsupported("EXISTS over a query that aggregates or pages", node)
            steps = steps[:-1]
        frame = _Frame(parent=outer)
        for step in steps:
            if isinstance(step, q.Match) and not step.optional:
                self.match(step, frame)
            elif isinstance(step, q.Filter):
                frame.where.append(self.condition(step.condition, frame))
            else:
                raise self.unsupported(f"{_step_name(step)} in a subquery", step)
        self._frame = outer
        return self._assemble(frame, [], frame.where)

    # =========================================================================================
    # types
    # =========================================================================================

    def kind(self, value: e.Expr, frame: _Frame) -> str | None:
        """What is known of ``value``'s type, in the SQL translators' names (int, float,
        string, bool, a temporal kind, list<…>, other, or None): the one type analysis
        (:mod:`gqlir.analysis.types`) over the frame's bindings and the mapping's columns."""
        return value_kind_of(_FrameTypes(self, frame).of(value))

    def binding_type(self, b: Any) -> VType:
        """What a variable bound to ``b`` holds."""
        if isinstance(b, _NodeB):
            return VType("node")
        if isinstance(b, _EdgeB):
            return VType("edge")
        if isinstance(b, _ValueB):
            return from_value_kind(b.kind)
        return ANY

    def _prop_kind(self, b: _NodeB | _EdgeB, key: str) -> str | None:
        return value_kind_of(self.property_type(b, key))

    def property_type(self, b: Any, key: str) -> VType:
        """What property ``key`` of the element bound to ``b`` holds, from the mapping."""
        if not isinstance(b, (_NodeB, _EdgeB)):
            return ANY
        schema = self.mapping.schema
        element = schema.node(b.label) if isinstance(b, _NodeB) else schema.edge(b.label)
        prop = element.prop(key) if element is not None else None
        return ANY if prop is None else property_type(prop.type.kind)

    # =========================================================================================
    # names
    # =========================================================================================

    def _alias(self, stem: str) -> str:
        self._alias_serial += 1
        return f"{stem}{self._alias_serial}"

    def _claim_alias(self, frame: _Frame, wanted: str) -> str:
        taken: set[str] = set()
        f: _Frame | None = frame
        while f is not None:
            taken |= {a.lower() for a in f.aliases}
            f = f.parent
        name, k = wanted, 1
        while name.lower() in taken:
            k += 1
            name = f"{wanted}_{k}"
        frame.aliases.add(name)
        return name

    def _cte_name(self) -> str:
        self._cte_serial += 1
        return f"trails{self._cte_serial}"


# -- helpers -------------------------------------------------------------------------------------

_PLAIN_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: SQL types of the value kinds, for a typed empty list.
_SQL_TYPES = {
    "int": "BIGINT",
    "float": "DOUBLE PRECISION",
    "string": "TEXT",
    "bool": "BOOLEAN",
    "date": "DATE",
    "localdatetime": "TIMESTAMP",
    "localtime": "TIME",
}


@cache
def spells_parameter(flavour: str, name: str) -> bool:
    """Whether ``flavour`` can write a parameter named ``name``. Named placeholders (SQLite's
    ``:name``, DuckDB's ``$name``, psycopg's ``%(name)s``) take a bare name with no quoted form,
    so anything else would be written into the query's text; a plain name must also read back
    as the same parameter in the flavour (``:select`` is a keyword after the colon)."""
    if not _PLAIN_PARAMETER.fullmatch(name):
        return False
    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    text = exp.select(parameter_node(flavour, name)).sql(dialect=flavour or None)
    try:
        (back,) = sqlglot.parse_one(text, read=flavour or None).expressions
    except (SqlglotError, ValueError):
        return False
    return isinstance(back, (exp.Placeholder, exp.Parameter)) and back.name == name


class _FrameTypes(TypeAnalysis):
    """The type analysis over a frame's bindings (see :meth:`SqlGenerator.kind`)."""

    __slots__ = ("frame", "gen")

    def __init__(self, gen: SqlGenerator, frame: _Frame) -> None:
        self.gen, self.frame = gen, frame

    def variable(self, name: str) -> VType:
        return self.gen.binding_type(self.frame.lookup(name))

    def property(self, node: e.Property, subject: VType) -> VType:
        if not isinstance(node.subject, e.Variable):
            return ANY
        return self.gen.property_type(self.frame.lookup(node.subject.name), node.key)


def _list_kind(element: str | None) -> str:
    """The kind of a list whose elements are of kind ``element`` (None: unknown)."""
    return f"list<{element or '?'}>"


def _is_list(kind: str | None) -> bool:
    return kind is not None and kind.startswith("list<")


def _element_kind(kind: str | None) -> str | None:
    inner = kind[5:-1] if _is_list(kind) else "?"  # type: ignore[index]
    return None if inner == "?" else inner


def _length(fixed: int, depths: list) -> Any:
    """A path's number of edges: ``fixed`` hops and the depth columns of variable ones."""
    from sqlglot import exp

    parts = ([exp.Literal.number(fixed)] if fixed or not depths else []) + list(depths)
    out = parts[0]
    for x in parts[1:]:
        out = exp.Add(this=out, expression=x)
    return out


def parameter_node(flavour: str, name: str) -> Any:
    """The flavour's named parameter: ``@name`` where it has that form, else sqlglot's
    placeholder for the flavour (``:name``, ``$name``, ``%(name)s``)."""
    from sqlglot import exp

    if flavour in AT_PARAMETERS:
        return exp.Parameter(this=exp.Var(this=name))
    return exp.Placeholder(this=name)


def _ident(name: str) -> Any:
    from sqlglot import exp

    return exp.Identifier(this=name, quoted=True)


def _table(name: str, alias: str) -> Any:
    from sqlglot import exp

    return exp.Table(this=_ident(name), alias=exp.TableAlias(this=_ident(alias)))


def _col(alias: str, column: str) -> Any:
    from sqlglot import exp

    return exp.Column(this=_ident(column), table=_ident(alias))


def _eq(a: Any, b: Any) -> Any:
    from sqlglot import exp

    return exp.EQ(this=a, expression=b)


def _and(conds: list) -> Any:
    from sqlglot import exp

    conds = [c for c in conds if c is not None]
    if not conds:
        return None
    return exp.and_(*conds) if len(conds) > 1 else conds[0]


def _paren(x: Any) -> Any:
    """``x`` as an operand: operators (which sqlglot may class as functions, like AND) are
    parenthesised, atoms and function calls are not, so no precedence can regroup them."""
    from sqlglot import exp

    operator = isinstance(x, (exp.Binary, exp.Unary, exp.Not))
    atom = isinstance(
        x,
        (exp.Column, exp.Literal, exp.Null, exp.Boolean, exp.Paren, exp.Placeholder, exp.Subquery),
    )
    if atom or (isinstance(x, exp.Func) and not operator):
        return x
    return exp.Paren(this=x)


def _concat(parts: list) -> Any:
    from sqlglot import exp

    out = parts[0]
    for x in parts[1:]:
        out = exp.DPipe(this=out, expression=x, safe=True)
    return out


def frame_aliases(frame: _Frame) -> set[str]:
    out: set[str] = set()
    f: _Frame | None = frame
    while f is not None:
        out |= set(f.aliases)
        f = f.parent
    return out


def _touches(cond: Any, aliases: set[str]) -> bool:
    from sqlglot import exp

    return any(c.table in aliases for c in cond.find_all(exp.Column))


def _reroute(cond: Any, inner: set[str], o: str) -> Any:
    """Columns of the optional pattern's tables, as columns of its derived table ``o``."""
    from sqlglot import exp

    def fix(node: Any) -> Any:
        if isinstance(node, exp.Column) and node.table in inner:
            return exp.Column(this=_ident(f"{node.table}__{node.name}"), table=_ident(o))
        return node

    return cond.copy().transform(fix)


def _rebase(b: _Bound, o: str) -> _Bound:
    """A binding of the optional pattern, now read from its derived table (and null when the
    pattern did not match)."""
    if isinstance(b, _NodeB):
        return _NodeB(
            o,
            b.label,
            {k: f"{b.alias}__{c}" for k, c in b.cols.items()},
            tuple(f"{b.alias}__{c}" for c in b.key),
            True,
            {k: f"{b.alias}__{c}" for k, c in b.extra.items()},
        )
    if isinstance(b, _EdgeB):
        return _EdgeB(
            o,
            b.label,
            {k: f"{b.alias}__{c}" for k, c in b.cols.items()},
            tuple(f"{b.alias}__{c}" for c in b.ident),
            b.table,
            True,
        )
    return b


def _single_label(labels: Any, node: Node) -> str:
    if isinstance(labels, p.Label):
        return labels.name
    raise UnsupportedError(
        "label expression",
        "sql",
        "a row has one table: only a single label can be matched",
        offset=node.pos,
    )


def _aggregates_any(proj: q.Projection) -> bool:
    return any(aggregates(i.expr) for i in proj.items)


def _result_items(query: q.Query) -> tuple[q.ReturnItem, ...]:
    if isinstance(query, q.SetOperation):
        return _result_items(query.left)
    last = query.steps[-1] if isinstance(query, q.LinearQuery) and query.steps else None
    return last.items if isinstance(last, q.Projection) else ()


def _constant(x: e.Expr) -> bool:
    return isinstance(x, (e.Integer, e.Float, e.String, e.Boolean, e.Null))


def _sql_constant(x: Any) -> bool:
    from sqlglot import exp

    return isinstance(x, (exp.Literal, exp.Null, exp.Boolean)) or (
        isinstance(x, exp.Neg) and isinstance(x.this, exp.Literal)
    )


def _text_name(x: e.Expr) -> str:
    if isinstance(x, e.Property):
        return x.key
    if isinstance(x, e.Variable):
        return x.name
    return "value"


def _resolve_aliases(x: e.Expr, proj: q.Projection) -> e.Expr:
    """A sort key over the projection's aliases, as the projected expressions."""
    aliases = {i.alias: i.expr for i in proj.items if i.alias}

    def swap(n: Node) -> Node:
        if isinstance(n, e.Variable) and n.name in aliases:
            return aliases[n.name]
        return n

    return x.transform(swap)  # type: ignore[return-value]


def _sql_sum(node: e.Case) -> e.Aggregate | None:
    """``CASE WHEN count(x) < 1 THEN NULL ELSE sum(x) END`` (SQL's SUM, as the SQL and GQL
    front ends read it)."""
    if (
        node.subject is not None
        or len(node.whens) != 1
        or not isinstance(node.default, e.Aggregate)
    ):
        return None
    agg = node.default
    w = node.whens[0]
    cond = w.condition
    if (
        agg.name == "sum"
        and isinstance(w.result, e.Null)
        and isinstance(cond, e.Comparison)
        and cond.op == e.CompOp.LT
        and cond.right == e.Integer(1)
        and cond.left == e.Aggregate("count", agg.args, agg.distinct)
    ):
        return agg
    return None


def _fold_null_keys(order: tuple[q.SortItem, ...]) -> list[q.SortItem]:
    """``x IS NULL DESC, x`` (the SQL front end's spelling of a null placement) is ``x NULLS
    FIRST`` again."""
    out: list[q.SortItem] = []
    i = 0
    while i < len(order):
        s = order[i]
        nxt = order[i + 1] if i + 1 < len(order) else None
        if (
            nxt is not None
            and isinstance(s.expr, e.IsNull)
            and not s.expr.negated
            and s.expr.operand == nxt.expr
        ):
            out.append(q.SortItem(nxt.expr, nxt.descending, s.descending))
            i += 2
            continue
        out.append(s)
        i += 1
    return out


def _step_name(step: q.Step) -> str:
    names = {
        q.Unwind: "UNWIND",
        q.CallSubquery: "CALL subquery",
        q.ProcedureCall: "procedure call",
        q.Create: "CREATE",
        q.Merge: "MERGE",
        q.SetClause: "SET",
        q.Remove: "REMOVE",
        q.Delete: "DELETE",
        q.Foreach: "FOREACH",
        q.LoadCsv: "LOAD CSV",
        q.UseGraph: "USE",
        q.Finish: "FINISH",
    }
    return names.get(type(step), type(step).__name__)


def refuse_writes(generator: Any, steps: list[q.Step]) -> None:
    """SQL output reads only: a write is refused by its own name (CREATE/INSERT, SET …)."""
    for step in steps:
        for node in step.walk():
            name = write_clause(node)
            if name is not None:
                raise generator.unsupported(
                    name,
                    node,
                    message=f"{generator.dialect.name} output reads only: gqlir writes no "
                    "INSERT, UPDATE or DELETE statements",
                )
