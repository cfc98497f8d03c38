"""Graph-IR → SQL/PGQ: ``SELECT … FROM GRAPH_TABLE (g MATCH … COLUMNS (…))`` in each flavour.

The whole statement is a sqlglot tree rendered by sqlglot (design decision 5): the SQL around
the graph table by sqlglot's own nodes, the GRAPH_TABLE operator and its graph pattern by node
classes defined here, which a subclass of the flavour's sqlglot generator renders (labels and
variables are sqlglot identifiers, conditions and columns sqlglot expressions, so quoting stays
structural). The graph pattern language is the one SQL/PGQ shares with GQL; what differs by
flavour is in :data:`FORMS`, each fact with its source:

* ``sqlpgq`` (ISO/IEC 9075-16) and ``sqlpgq:oracle``: labels after ``IS``, quantifiers
  ``{m,n}``, ``ANY SHORTEST`` (Oracle sqlrf graph_table-operator.html, graph-pattern.html);
* ``sqlpgq:duckdb`` (DuckPGQ): labels after ``:``, quantifiers, ``ANY SHORTEST``
  (duckdb.org/community_extensions/extensions/duckpgq);
* ``sqlpgq:postgres`` (PostgreSQL 19, docs/19/queries-graph.html): labels after ``IS``; no
  quantifiers or search prefixes in the documented graph pattern grammar;
* ``sqlpgq:bigquery`` (GoogleSQL, shared by Spanner Graph and BigQuery):
  ``GRAPH_TABLE (g <GQL linear query ending in RETURN>)``, the query written by the Spanner
  GQL emitter.

The IR's last projection becomes the SELECT around the graph table: its plain items are
COLUMNS read by name, an aggregate reads COLUMNS of its arguments, and DISTINCT, ORDER BY,
OFFSET and LIMIT are SQL's. A query that goes on after its graph pattern (WITH, UNWIND of a
collected list) reads the GRAPH_TABLE as a derived table whose COLUMNS are the properties the rest
reads (and the key of an element carried whole), and the rest is the SQL emitter's pipeline over
it. A query that needs more (OPTIONAL MATCH, a MATCH after WITH, two edges of one type in a
pattern, whose uniqueness differs between flavours) raises
:class:`~gqlir.errors.UnsupportedError`. :mod:`gqlir.parser.sqlpgq` reads this output back to
the same IR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..analysis.aggregates import aggregates
from ..analysis.types import ANY, VType, property_type
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node
from .base import emits
from .sql import SqlGenerator, _and, _EdgeB, _Frame, _NodeB, _ValueB, refuse_writes

__all__ = ["FORMS", "SqlPgqGenerator"]


@dataclass(frozen=True)
class Form:
    """How a flavour writes GRAPH_TABLE."""

    label_keyword: str  # "IS" or ":"
    quantifiers: bool
    search_prefixes: tuple[str, ...]  # ir.SearchKind values
    returns: bool = False  # GRAPH_TABLE (g … RETURN …) (GoogleSQL)
    #: the case an unquoted name is folded to ("upper", "lower"), or "" where case never matters
    folds: str = "upper"
    source: str = ""


STANDARD = Form(
    "IS",
    True,
    ("ANY SHORTEST",),
    source="ISO/IEC 9075-16:2023; Oracle 23ai sqlrf graph_table-operator.html; unquoted names "
    "are upper case (ISO/IEC 9075-2 5.2 SR 21; Oracle sqlrf 'Database Object Naming Rules')",
)
FORMS: dict[str, Form] = {
    "": STANDARD,
    "oracle": STANDARD,
    "duckdb": Form(
        ":",
        True,
        ("ANY SHORTEST",),
        folds="",
        source="DuckPGQ, duckdb.org/community_extensions/extensions/duckpgq; names are case "
        "insensitive, quoted or not (duckdb.org/docs/sql/dialect/keywords_and_identifiers)",
    ),
    "postgres": Form(
        "IS",
        False,
        (),
        folds="lower",
        source="PostgreSQL docs/19/queries-graph.html (no quantifiers or path searches); "
        "unquoted names are lower case (docs sql-syntax-lexical.html, 4.1.1)",
    ),
    "bigquery": Form(
        "IS",
        True,
        (),
        returns=True,
        folds="",
        source="GoogleSQL graph queries (Spanner Graph, BigQuery): GRAPH_TABLE with a GQL query",
    ),
}


#: A name SQL reads bare (ISO/IEC 9075-2 5.2 <regular identifier>, kept to ASCII).
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# -- the GRAPH_TABLE operator as sqlglot nodes ----------------------------------------------------


#: The GRAPH_TABLE node classes and their arguments (sqlglot's ``arg_types``: required or not).
_NODE_ARGS: dict[str, dict[str, bool]] = {
    # GRAPH_TABLE (this MATCH patterns WHERE where COLUMNS (columns)) or (this body)
    "GraphTable": {
        "this": True,
        "patterns": False,
        "where": False,
        "columns": False,
        "body": False,
        "alias": False,
    },
    "GraphPath": {"expressions": True, "prefix": False},
    "GraphNode": {"this": False, "label": False, "where": False},
    "GraphEdge": {
        "this": False,
        "label": False,
        "where": False,
        "direction": True,
        "quantifier": False,
    },
    "GraphLabel": {"this": False, "op": False, "expressions": False},
}


def _node_classes() -> dict[str, type]:
    """sqlglot expression classes for the operator (made on first use: sqlglot is imported
    lazily)."""
    from sqlglot import exp

    return {
        name: type(name, (exp.Expression,), {"arg_types": args})
        for name, args in _NODE_ARGS.items()
    }


@cache
def _nodes() -> dict[str, type]:
    return _node_classes()


_ARROWS = {
    p.Direction.OUT: ("-[", "]->"),
    p.Direction.IN: ("<-[", "]-"),
    p.Direction.EITHER: ("-[", "]-"),
}


@cache
def _generator_class(base: type, label_keyword: str) -> type:
    """The flavour's sqlglot generator, taught to write the GRAPH_TABLE nodes."""
    nodes = _nodes()

    def label_sql(self: Any, node: Any) -> str:
        op = node.args.get("op")
        if op is None:
            return self.sql(node, "this")
        if op == "!":
            return "!" + _label_operand(self, node.expressions[0], "!")
        return f" {op} ".join(_label_operand(self, x, op) for x in node.expressions)

    def _label_operand(self: Any, node: Any, parent: str) -> str:
        text = self.sql(node)
        if node.args.get("op") not in (None, "!") and node.args.get("op") != parent:
            return f"({text})"
        return text

    def element(self: Any, node: Any) -> str:
        parts = []
        var = self.sql(node, "this")
        if var:
            parts.append(var)
        label = node.args.get("label")
        if label is not None:
            text = self.sql(label)
            parts.append(f"IS {text}" if label_keyword == "IS" else f":{text}")
        where = node.args.get("where")
        if where is not None:
            parts.append(f"WHERE {self.sql(where)}")
        if label_keyword == ":" and var and label is not None:
            parts[0:2] = [parts[0] + parts[1]]
        return " ".join(parts)

    def node_sql(self: Any, node: Any) -> str:
        return f"({element(self, node)})"

    def edge_sql(self: Any, node: Any) -> str:
        left, right = _ARROWS[node.args["direction"]]
        text = f"{left}{element(self, node)}{right}"
        quantifier = node.args.get("quantifier")
        if quantifier is not None:
            low, high = quantifier
            text += "{" + str(low) + "," + ("" if high is None else str(high)) + "}"
        return text

    def path_sql(self: Any, node: Any) -> str:
        body = "".join(self.sql(x) for x in node.expressions)
        prefix = node.args.get("prefix")
        return f"{prefix} {body}" if prefix else body

    def table_sql(self: Any, node: Any) -> str:
        graph = self.sql(node, "this")
        body = node.args.get("body")
        if body is not None:
            inner = f"{graph} {body}"
        else:
            inner = f"{graph} MATCH " + ", ".join(self.sql(x) for x in node.args["patterns"])
            if node.args.get("where") is not None:
                inner += f" WHERE {self.sql(node, 'where')}"
            inner += " COLUMNS (" + ", ".join(self.sql(c) for c in node.args["columns"]) + ")"
        alias = node.args.get("alias")
        text = f"GRAPH_TABLE ({inner})"
        return f"{text} AS {self.sql(alias)}" if alias is not None else text

    transforms = dict(getattr(base, "TRANSFORMS", {}))
    transforms.update(
        {
            nodes["GraphTable"]: table_sql,
            nodes["GraphPath"]: path_sql,
            nodes["GraphNode"]: node_sql,
            nodes["GraphEdge"]: edge_sql,
            nodes["GraphLabel"]: label_sql,
        }
    )
    return type(f"Pgq{base.__name__}", (base,), {"TRANSFORMS": transforms})


# -- the emitter ----------------------------------------------------------------------------------


@dataclass
class _ElementB:
    """A pattern variable inside GRAPH_TABLE: its properties are ``var.property``."""

    name: str
    label: str | None
    edge: bool


class SqlPgqGenerator(SqlGenerator):
    """Renders Graph-IR queries as SQL/PGQ of one flavour (see the module docstring)."""

    def __init__(self, dialect: Dialect, *, pretty: bool = False, schema: Any = None) -> None:
        super().__init__(dialect, pretty=pretty, schema=schema)
        self.form = FORMS.get(self.flavour, STANDARD)

    def generate(self, node: Node) -> str:
        from ..parser.sql import require_sqlglot

        require_sqlglot()
        from sqlglot.dialects.dialect import Dialect as SqlglotDialect
        from sqlglot.errors import ErrorLevel
        from sqlglot.errors import UnsupportedError as SqlglotUnsupported

        if not isinstance(node, q.Query):
            return super().generate(node)
        tree = self.pgq_query(node)
        self.refuse_unwritable(tree, node)
        base = SqlglotDialect.get_or_raise(self.flavour or None)
        cls = _generator_class(type(base).generator_class, self.form.label_keyword)
        generator = cls(dialect=base, pretty=self.pretty, unsupported_level=ErrorLevel.RAISE)
        try:
            return generator.generate(tree)
        except SqlglotUnsupported as exc:
            raise self.unsupported(str(exc).split("\n")[0], node) from None

    def ident(self, name: str) -> Any:
        """A graph, label, variable, property or column name, quoted unless the flavour reads
        it bare as the same name: a plain name that is no reserved word (the dialect's list)
        and has no letter the flavour folds to the other case."""
        from sqlglot import exp

        folded = {"upper": name.upper(), "lower": name.lower()}.get(self.form.folds, name)
        bare = (
            _PLAIN_NAME.fullmatch(name) is not None
            and name.upper() not in self.reserved
            and folded == name
        )
        return exp.Identifier(this=name, quoted=not bare)

    # -- queries -------------------------------------------------------------------------------

    def pgq_query(self, node: q.Query) -> Any:

        if isinstance(node, q.SetOperation):
            return self.set_operation(node, self.pgq_query(node.left), self.pgq_query(node.right))
        if not isinstance(node, q.LinearQuery):
            raise self.unsupported(type(node).__name__, node)
        return self.pgq_linear(node)

    def pgq_linear(self, node: q.LinearQuery) -> Any:

        steps = list(node.steps)
        graph = None
        if steps and isinstance(steps[0], q.UseGraph):
            graph = steps.pop(0).graph
        if graph is None and self._mapping_source is not None:
            graph = self.mapping.name
        if graph is None:
            raise self.unsupported(
                "graph name",
                node,
                rewrite="USE <graph> in the query, or a schema (whose name names the graph)",
                message="GRAPH_TABLE names the property graph it reads, and none was given",
            )
        refuse_writes(self, steps)
        if not steps or not isinstance(steps[-1], q.Projection):
            raise self.unsupported("query without RETURN", node)
        if self.form.returns:
            return self._google(node, graph)
        matches: list[q.Match] = []
        filters: list[e.Expr] = []
        head = 0  # the graph part: the leading MATCHes and the filters right after them
        for step in steps[:-1]:
            if isinstance(step, q.Match) and not step.optional and not filters:
                matches.append(step)
            elif isinstance(step, q.Filter) and matches:
                filters.append(step.condition)
            else:
                break
            head += 1
        if not matches:
            first = steps[0]
            raise self.unsupported(
                _name(first) if head < len(steps) - 1 else "query without MATCH", first
            )
        self._check_edges(matches)
        frame = _Frame()
        patterns = []
        for m in matches:
            for pp in m.patterns:
                self._declare(pp, frame)
        for m in matches:
            for pp in m.patterns:
                patterns.append(self.path(pp, frame))
        where = _and(
            [self.expr(m.where, frame) for m in matches if m.where is not None]
            + [self.expr(f, frame) for f in filters]
        )
        rest = steps[head:]
        if len(rest) > 1:
            return self._pipeline(graph, patterns, where, frame, rest)
        columns, outer, proj2 = self._columns(rest[0], frame)  # type: ignore[arg-type]
        table = _nodes()["GraphTable"](
            this=self.ident(graph), patterns=patterns, where=where, columns=columns
        )
        outer.sources.append(table)
        return self.select(proj2, outer, final=True)

    def _pipeline(
        self, graph: str, patterns: list, where: Any, inner: _Frame, rest: list[q.Step]
    ) -> Any:
        """A query that goes on after its graph pattern (WITH, UNWIND, …): the GRAPH_TABLE is
        a derived table whose COLUMNS are what the rest reads of each element (its properties,
        and its key where the element itself is carried, grouped or compared), and the rest is
        SQL over it, as the SQL emitter writes it over tables."""
        from sqlglot import exp

        for step in rest[:-1]:
            if isinstance(step, q.Match):
                raise self.unsupported(
                    "OPTIONAL MATCH" if step.optional else "MATCH after WITH",
                    step,
                    message="SQL/PGQ output holds one graph pattern, read before the pipeline",
                )
        keys, whole = _read_after(rest)
        alias = self._alias("gt")
        columns: list[Any] = []
        outer = _Frame()
        for name, b in inner.bindings.items():
            if not isinstance(b, _ElementB):
                continue
            if name in whole and (b.edge or self._key_property(b) is None):
                raise self.unsupported(
                    "element without a key carried past the graph pattern",
                    rest[0],
                    message=f"{name} is used as a whole after the graph pattern, and COLUMNS "
                    "can only hand out its properties: it needs a single key property in the "
                    "schema" + (" (edges have none)" if b.edge else ""),
                )
            if b.label is None and name in whole | {v for v, _ in keys}:
                raise self.unsupported(
                    "element without a label read past the graph pattern", rest[0]
                )
            props = self._properties_of(b, {k for v, k in keys})
            cols: dict[str, str] = {}
            for prop in props:
                column = f"{name}__{prop}"
                value = self.expr(e.Property(e.Variable(name), prop), inner)
                columns.append(exp.alias_(value, self.ident(column)))
                cols[prop] = column
            key = self._key_property(b)
            if b.edge:
                outer.bindings[name] = _EdgeB(alias, b.label or "", cols, (), None)
            else:
                key_cols = (cols[key],) if key is not None and key in cols else ()
                outer.bindings[name] = _NodeB(alias, b.label or "", cols, key_cols)
        if not columns:
            raise self.unsupported("graph pattern whose rows the rest does not read", rest[0])
        table = _nodes()["GraphTable"](
            this=self.ident(graph),
            patterns=patterns,
            where=where,
            columns=columns,
            alias=exp.TableAlias(this=self.ident(alias)),
        )
        outer.sources.append(table)
        outer.aliases.add(alias)
        return self.steps_into(rest, outer)

    def _properties_of(self, b: _ElementB, read: set[str]) -> list[str]:
        """The properties of ``b``'s label the rest of the query may read: those it names that
        the schema declares (another is null, as in Cypher), and the key."""
        schema = self.mapping.schema
        element = schema.edge(b.label) if b.edge else schema.node(b.label)
        declared = [prop.name for prop in element.properties] if element is not None else []
        key = self._key_property(b)
        return [name for name in declared if name in read or name == key]

    def _google(self, node: q.LinearQuery, graph: str) -> Any:
        from sqlglot import exp

        from ..dialect import get_dialect

        body = _GraphTableBody(get_dialect("spanner"), pretty=False).generate(node)
        table = _nodes()["GraphTable"](this=self.ident(graph), body=body)
        return exp.select(exp.Star()).from_(table)

    def _check_edges(self, matches: list[q.Match]) -> None:
        """Edge uniqueness differs between SQL/PGQ engines (homomorphism in PostgreSQL's
        rewrite to joins); two edges that could be one are refused rather than guessed."""
        edges = [x for m in matches for x in m.walk() if isinstance(x, p.RelPattern)]
        labels = [x.types.name if isinstance(x.types, p.Label) else None for x in edges]
        if len(edges) > 1 and (None in labels or len(set(labels)) < len(labels)):
            raise self.unsupported(
                "two edge patterns that may match one edge",
                edges[0],
                message="edge uniqueness within a graph pattern differs between SQL/PGQ engines",
            )

    def _declare(self, pp: p.PathPattern, frame: _Frame) -> None:
        for node in pp.walk():
            if isinstance(node, p.NodePattern) and node.variable:
                label = node.labels.name if isinstance(node.labels, p.Label) else None
                frame.bindings.setdefault(node.variable, _ElementB(node.variable, label, False))  # type: ignore[arg-type]
            elif isinstance(node, p.RelPattern) and node.variable:
                if node.quantifier is not None:
                    continue  # a group variable: written in the pattern, not readable as an edge
                label = node.types.name if isinstance(node.types, p.Label) else None
                frame.bindings.setdefault(node.variable, _ElementB(node.variable, label, True))  # type: ignore[arg-type]

    # -- patterns ------------------------------------------------------------------------------

    def path(self, pp: p.PathPattern, frame: _Frame) -> Any:
        if pp.variable is not None:
            raise self.unsupported("path variable", pp)
        if pp.mode is not None:
            raise self.unsupported(f"path mode {pp.mode.value}", pp)
        prefix = None
        if pp.search is not None and pp.search.kind != p.SearchKind.ALL:
            if pp.search.kind.value not in self.form.search_prefixes:
                raise self.unsupported(f"path search {pp.search.kind.value}", pp)
            prefix = pp.search.kind.value
        if not isinstance(pp.path, p.PathChain):
            raise self.unsupported("path union", pp)
        elements = []
        for x in pp.path.elements:
            if isinstance(x, p.NodePattern):
                elements.append(self._node(x, frame))
            elif isinstance(x, p.RelPattern):
                elements.append(self._edge(x, frame))
            else:
                raise self.unsupported("parenthesised path", x)
        return _nodes()["GraphPath"](expressions=elements, prefix=prefix)

    def _conditions(
        self, var: str | None, props: e.Expr | None, where: e.Expr | None, frame: _Frame, node: Node
    ) -> Any:
        conds = []
        if props is not None:
            if not isinstance(props, e.MapLiteral) or var is None:
                raise self.unsupported("property map on an element without a variable", node)
            for key, value in props.entries:
                conds.append(
                    self.expr(
                        e.Comparison(e.CompOp.EQ, e.Property(e.Variable(var), key), value), frame
                    )
                )
        if where is not None:
            conds.append(self.expr(where, frame))
        return _and(conds)

    def _node(self, n: p.NodePattern, frame: _Frame) -> Any:
        return _nodes()["GraphNode"](
            this=self.ident(n.variable) if n.variable else None,
            label=self._label(n.labels, n) if n.labels is not None else None,
            where=self._conditions(n.variable, n.properties, n.where, frame, n),
        )

    def _edge(self, r: p.RelPattern, frame: _Frame) -> Any:
        if r.direction not in _ARROWS:
            raise self.unsupported(f"edge direction {r.direction.value}", r)
        if r.cost is not None:
            raise self.unsupported("edge cost", r)
        quantifier = None
        if r.quantifier is not None:
            if not self.form.quantifiers:
                raise self.unsupported("quantified edge", r)
            quantifier = (r.quantifier.lower, r.quantifier.upper)
        return _nodes()["GraphEdge"](
            this=self.ident(r.variable) if r.variable else None,
            label=self._label(r.types, r) if r.types is not None else None,
            where=self._conditions(r.variable, r.properties, r.where, frame, r),
            direction=r.direction,
            quantifier=quantifier,
        )

    def _label(self, labels: p.LabelExpr, node: Node) -> Any:
        cls = _nodes()["GraphLabel"]
        if isinstance(labels, p.Label):
            return cls(this=self.ident(labels.name))
        if isinstance(labels, p.LabelOr):
            return cls(
                op="|",
                expressions=[self._label(labels.left, node), self._label(labels.right, node)],
            )
        if isinstance(labels, p.LabelAnd):
            return cls(
                op="&",
                expressions=[self._label(labels.left, node), self._label(labels.right, node)],
            )
        if isinstance(labels, p.LabelNot):
            return cls(op="!", expressions=[self._label(labels.operand, node)])
        raise self.unsupported("% label wildcard", node)

    # -- COLUMNS and the SELECT around the graph table ---------------------------------------

    def _columns(self, proj: q.Projection, frame: _Frame) -> tuple[list, _Frame, q.Projection]:
        """The COLUMNS the projection reads, and the projection over them."""
        from sqlglot import exp

        if proj.star:
            raise self.unsupported("RETURN *", proj)
        columns: list[Any] = []
        names: dict[Any, str] = {}
        outer = _Frame()
        taken = {i.alias for i in proj.items if i.alias}

        def column(value: e.Expr, wanted: str | None) -> e.Variable:
            if isinstance(value, e.Variable) and isinstance(frame.lookup(value.name), _ElementB):
                raise self.unsupported(
                    "graph element in the result",
                    value,
                    message="COLUMNS produce values, not graph elements",
                    rewrite="return the element's properties",
                )
            if value in names:
                return e.Variable(names[value])
            name = wanted if wanted and wanted not in names.values() else None
            k = len(names) + 1
            while name is None or (name in names.values()) or (wanted != name and name in taken):
                name = f"c{k}"
                k += 1
            names[value] = name
            columns.append(exp.alias_(self.expr(value, frame), self.ident(name)))
            outer.bindings[name] = _ValueB(exp.column(self.ident(name)), self.kind(value, frame))
            return e.Variable(name)

        def over_columns(value: e.Expr) -> e.Expr:
            """An aggregating expression with its aggregates' arguments read from COLUMNS."""
            if isinstance(value, e.Aggregate) and self._element_arg(value, frame) is not None:
                return self._element_aggregate(value, frame, column)
            if isinstance(value, e.Aggregate):
                return e.Aggregate(
                    value.name, tuple(column(a, None) for a in value.args), value.distinct
                )
            if isinstance(value, (e.CountStar, e.Integer, e.Float, e.String, e.Boolean, e.Null)):
                return value
            if not aggregates(value):
                raise self.unsupported(
                    "grouping key inside an aggregating item",
                    value,
                    rewrite="return the key as an item of its own",
                )
            return _rebuild(value, over_columns)

        items = []
        for item in proj.items:
            if aggregates(item.expr):
                items.append(q.ReturnItem(over_columns(item.expr), item.alias))
            else:
                items.append(q.ReturnItem(column(item.expr, item.alias), item.alias))
        aliases = {i.alias for i in proj.items}
        order = []
        for s in proj.order_by:
            if isinstance(s.expr, e.Variable) and s.expr.name in aliases:
                order.append(s)
            elif any(s.expr == i.expr for i in proj.items):
                alias = next(i.alias for i in proj.items if s.expr == i.expr)
                order.append(q.SortItem(e.Variable(alias), s.descending, s.nulls_first))  # type: ignore[arg-type]
            elif aggregates(s.expr):
                order.append(q.SortItem(over_columns(s.expr), s.descending, s.nulls_first))
            else:
                if proj.distinct or any(aggregates(i.expr) for i in proj.items):
                    raise self.unsupported("ORDER BY an expression that is not returned", s)
                order.append(q.SortItem(column(s.expr, None), s.descending, s.nulls_first))
        outer_proj = q.Projection(
            tuple(items),
            distinct=proj.distinct,
            order_by=tuple(order),
            skip=proj.skip,
            limit=proj.limit,
        )
        return columns, outer, outer_proj

    def _element_arg(self, agg: e.Aggregate, frame: _Frame) -> _ElementB | None:
        arg = agg.args[0] if len(agg.args) == 1 else None
        b = frame.lookup(arg.name) if isinstance(arg, e.Variable) else None
        return b if isinstance(b, _ElementB) else None

    def _element_aggregate(self, agg: e.Aggregate, frame: _Frame, column: Any) -> e.Expr:
        """``count(x)`` of an element is ``count(*)``: the output has no OPTIONAL MATCH, so an
        element is never null. ``count(DISTINCT x)`` counts its key property, which COLUMNS
        can hand out; other aggregates of elements have no value to read."""
        b = self._element_arg(agg, frame)
        assert b is not None
        if agg.name != "count":
            raise self.unsupported(
                f"{agg.name}() of a graph element",
                agg,
                message="the SELECT around GRAPH_TABLE sees only the values COLUMNS hand out, "
                "and an element is not a value",
                rewrite=f"{agg.name}() of one of its properties",
            )
        if not agg.distinct:
            return e.CountStar()
        key = self._key_property(b)
        if key is None:
            raise self.unsupported(
                "count(DISTINCT x) of a graph element without a key property",
                agg,
                message=f"{b.name} has no single key property in the schema, and the SELECT "
                "around GRAPH_TABLE can count only values that COLUMNS hand out, not elements",
                rewrite="count(DISTINCT x.<key>) of a property that identifies it",
            )
        return e.Aggregate("count", (column(e.Property(e.Variable(b.name), key), None),), True)

    def _key_property(self, b: _ElementB) -> str | None:
        """The one property that identifies a node of ``b``'s label (the schema's key)."""
        if b.edge or b.label is None or self._mapping_source is None:
            return None
        node = self.mapping.schema.node(b.label)
        keys = tuple(node.keys) if node is not None else ()
        return keys[0] if len(keys) == 1 else None

    @emits(e.Comparison)
    def comparison_(self, node: e.Comparison) -> Any:
        """``a = b`` / ``a <> b`` of two nodes: their key properties compared (nodes of one
        label with one key property); the pattern language has no element equality that
        every flavour reads."""
        from sqlglot import exp

        sides = [
            self._frame.lookup(x.name) if isinstance(x, e.Variable) else None
            for x in (node.left, node.right)
        ]
        if not any(isinstance(b, _ElementB) for b in sides):
            return super().comparison_(node)
        a, b = sides
        if (
            node.op not in (e.CompOp.EQ, e.CompOp.NE)
            or not isinstance(a, _ElementB)
            or not isinstance(b, _ElementB)
            or a.label != b.label
            or self._key_property(a) is None
        ):
            raise self.unsupported(
                "comparison of graph elements",
                node,
                message="only two nodes of one label with a single key property in the schema "
                "compare, by that key",
            )
        key = self._key_property(a)
        left = exp.Column(this=self.ident(key), table=self.ident(a.name))
        right = exp.Column(this=self.ident(key), table=self.ident(b.name))
        cls = exp.EQ if node.op == e.CompOp.EQ else exp.NEQ
        return cls(this=left, expression=right)

    @emits(e.Exists)
    def exists(self, node: e.Exists) -> Any:
        raise self._graph_subquery(node, "EXISTS subquery")

    @emits(e.CountSubquery)
    def count_subquery(self, node: e.CountSubquery) -> Any:
        raise self._graph_subquery(node, "COUNT subquery")

    def _graph_subquery(self, node: Node, construct: str) -> Any:
        return self.unsupported(
            f"{construct} inside GRAPH_TABLE",
            node,
            message="GRAPH_TABLE's WHERE holds SQL value expressions, and a SQL subquery cannot "
            "see the graph pattern's variables (the standard has no pattern predicate there)",
            rewrite="match the pattern in the MATCH itself when it must exist",
        )

    # -- properties inside GRAPH_TABLE ---------------------------------------------------------

    def _property(self, b: Any, key: str, node: Node) -> Any:
        from sqlglot import exp

        if isinstance(b, _ElementB):
            return exp.Column(this=self.ident(key), table=self.ident(b.name))
        return super()._property(b, key, node)

    def binding_type(self, b: Any) -> VType:
        if isinstance(b, _ElementB):
            return VType("edge" if b.edge else "node")
        return super().binding_type(b)

    def property_type(self, b: Any, key: str) -> VType:
        if not isinstance(b, _ElementB):
            return super().property_type(b, key)
        if self._mapping_source is None or b.label is None:
            return ANY
        schema = self.mapping.schema
        element = schema.edge(b.label) if b.edge else schema.node(b.label)
        prop = element.prop(key) if element is not None else None
        return ANY if prop is None else property_type(prop.type.kind)


def _read_after(steps: list[q.Step]) -> tuple[set[tuple[str, str]], set[str]]:
    """What ``steps`` read of variables: (variable, key) property reads, and the variables
    used as a whole (carried, grouped, counted, compared). A renamed variable's reads count
    for every variable, so the property keys are taken as read of each element."""
    props: set[tuple[str, str]] = set()
    seen_as_subject: set[int] = set()
    whole: set[str] = set()
    for step in steps:
        for node in step.walk():
            if isinstance(node, e.Property) and isinstance(node.subject, e.Variable):
                props.add((node.subject.name, node.key))
                seen_as_subject.add(id(node.subject))
        for node in step.walk():
            if isinstance(node, e.Variable) and id(node) not in seen_as_subject:
                whole.add(node.name)
    return props, whole


def _rebuild(value: e.Expr, fn: Any) -> e.Expr:
    """``value`` with each direct sub-expression replaced by ``fn`` of it."""
    from dataclasses import fields, replace

    changes = {}
    for f in fields(value):
        if f.name == "pos":
            continue
        x = getattr(value, f.name)
        if isinstance(x, e.Expr):
            changes[f.name] = fn(x)
        elif isinstance(x, tuple) and any(isinstance(y, (e.Expr, e.CaseWhen)) for y in x):
            changes[f.name] = tuple(
                fn(y)
                if isinstance(y, e.Expr)
                else e.CaseWhen(fn(y.condition), fn(y.result))
                if isinstance(y, e.CaseWhen)
                else y
                for y in x
            )
    return replace(value, **changes)


def _name(step: q.Step) -> str:
    from .sql import _step_name

    return _step_name(step)


class _GraphTableBody:
    """The GQL query inside GoogleSQL's GRAPH_TABLE: the Spanner GQL emitter's text without
    the ``GRAPH g`` prefix (the operator names the graph)."""

    def __init__(self, dialect: Dialect, pretty: bool) -> None:
        from .gql import GqlGenerator

        class Body(GqlGenerator):
            def top(self, query: q.Query) -> str:
                return self.query_text(query, top=True)

        self.generator = Body(dialect, pretty=pretty, graph="g")

    def generate(self, node: q.Query) -> str:
        if isinstance(node, q.LinearQuery) and node.steps and isinstance(node.steps[0], q.UseGraph):
            from dataclasses import replace

            node = replace(node, steps=node.steps[1:])
        from ..passes.pipeline import lower

        return self.generator.generate(lower(node, self.generator.dialect))
