"""Graph-IR → SQL/PGQ: ``SELECT … FROM GRAPH_TABLE (g MATCH … COLUMNS (…))`` in each flavour.

The whole statement is a sqlglot tree rendered by sqlglot (design decision 5): the SQL around
the graph table by sqlglot's own nodes, the GRAPH_TABLE operator and its graph pattern by node
classes defined here, which a subclass of the flavour's sqlglot generator renders (labels and
variables are sqlglot identifiers, conditions and columns sqlglot expressions, so quoting stays
structural). The graph pattern language is the one SQL/PGQ shares with GQL; what differs by
flavour is its form (:class:`gqlir.sqlpgqforms.Form`, data in ``dialects/sqlpgq.toml``'s ``[form]``
tables, each fact with its source):

* ``sqlpgq`` (ISO/IEC 9075-16): labels after ``IS``, the whole pattern language shared with
  GQL (match modes, path modes, search prefixes, quantified paths, element predicates);
* ``sqlpgq:oracle``: labels after ``IS``, bounded quantifiers, label disjunctions, no path
  modes or search prefixes (Oracle sqlrf graph_table-operator.html, graph-pattern.html, its
  SQL/PGQ compliance table);
* ``sqlpgq:duckdb`` (DuckPGQ): labels after ``:``, quantified edges under ``ANY SHORTEST``
  (one row per endpoint), path variables (duckdb.org/community_extensions/extensions/duckpgq);
* ``sqlpgq:postgres`` (PostgreSQL 19, docs/19/queries-graph.html): labels after ``IS``; one
  path pattern, no quantifiers or search prefixes;
* ``sqlpgq:bigquery`` (GoogleSQL, shared by Spanner Graph and BigQuery):
  ``GRAPH_TABLE (g <GQL linear query ending in RETURN>)``, the query written by the Spanner
  GQL emitter.

The IR's last projection becomes the SELECT around the graph table: its plain items are
COLUMNS read by name, an aggregate reads COLUMNS of its arguments, and DISTINCT, ORDER BY,
OFFSET and LIMIT are SQL's. A query that goes on after its graph pattern (WITH, UNWIND of a
collected list) reads the GRAPH_TABLE as a derived table whose COLUMNS are the properties the rest
reads (and the key of an element carried whole), and the rest is the SQL emitter's pipeline over
it; an UNWIND before the MATCH arrives here after it (the ``unwind-joins`` pass,
:mod:`gqlir.passes.unwind_join`), joined by the comparisons it fed. A query that needs more (OPTIONAL MATCH, a MATCH after WITH, and what a form cannot
state by its capabilities in ``dialects/sqlpgq.toml``: edge uniqueness where it matches
homomorphically and has no DIFFERENT EDGES, an unbounded quantifier in Oracle, one row per path
of a DuckPGQ quantified edge, …) raises :class:`~gqlir.errors.UnsupportedError`.
:mod:`gqlir.parser.sqlpgq` reads this output back to the same IR; ``CREATE``/``DROP PROPERTY
GRAPH`` are written in the standard's spelling, which every form reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..analysis.aggregates import aggregates
from ..analysis.types import ANY, VType, property_type
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import property_graph as pg
from ..ir import query as q
from ..ir.node import Node
from ..ir.predicates import AllDifferent, IsDirected, IsEndpoint, PropertyExists, Same
from ..parser.sqlpgq import edges_may_coincide
from ..sqlpgqforms import form_of
from .base import emits
from .sql import (
    SqlGenerator,
    _and,
    _EdgeB,
    _Frame,
    _NodeB,
    _paren,
    _PathB,
    _ValueB,
    refuse_writes,
)

__all__ = ["SqlPgqGenerator"]


#: A name SQL reads bare (ISO/IEC 9075-2 5.2 <regular identifier>, kept to ASCII).
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# -- the GRAPH_TABLE operator as sqlglot nodes ----------------------------------------------------


#: The GRAPH_TABLE node classes and their arguments (sqlglot's ``arg_types``: required or not).
_NODE_ARGS: dict[str, dict[str, bool]] = {
    # GRAPH_TABLE (this MATCH patterns WHERE where COLUMNS (columns)) or (this body)
    "GraphTable": {
        "this": True,
        "mode": False,
        "patterns": False,
        "where": False,
        "columns": False,
        "body": False,
        "alias": False,
    },
    "GraphPath": {"expressions": True, "prefix": False, "variable": False},
    "GraphNode": {"this": False, "label": False, "where": False},
    "GraphEdge": {
        "this": False,
        "label": False,
        "where": False,
        "direction": True,
        "quantifier": False,
    },
    "GraphLabel": {"this": False, "op": False, "expressions": False},
    "GraphEndpoint": {"this": True, "edge": True, "endpoint": True, "negated": False},
    # x [NOT] LIKE pattern [ESCAPE 'c'] (sqlglot writes a negated LIKE as NOT (x LIKE p))
    "GraphLike": {"this": True, "expression": True, "negated": False, "escape": False},
    # DATE '…', TIMESTAMP '…', TIME '…': SQL's typed literals (ISO/IEC 9075-2 5.3)
    "GraphTyped": {"this": True, "kind": True},
    # x IS [NOT] NULL (sqlglot writes the negation as NOT x IS NULL)
    "GraphIsNull": {"this": True, "negated": False},
    # ((…) WHERE …){m,n}: a parenthesised path pattern
    "GraphParen": {"expressions": True, "where": False, "mode": False, "quantifier": False},
    # x IS [NOT] DIRECTED, x IS [NOT] LABELED label: GQL's element predicates
    "GraphPredicate": {"this": True, "text": True, "label": False},
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
    # left or right (Oracle's table 'Arrow Tokens for Edge Patterns': <-[ ]-> or -[ ]-)
    p.Direction.BOTH: ("<-[", "]->"),
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
        text = f"{prefix} {body}" if prefix else body
        variable = node.args.get("variable")
        return f"{self.sql(variable)} = {text}" if variable is not None else text

    def table_sql(self: Any, node: Any) -> str:
        graph = self.sql(node, "this")
        body = node.args.get("body")
        if body is not None:
            inner = f"{graph} {body}"
        else:
            mode = node.args.get("mode")
            inner = f"{graph} MATCH " + (f"{mode} " if mode else "")
            inner += ", ".join(self.sql(x) for x in node.args["patterns"])
            if node.args.get("where") is not None:
                inner += f" WHERE {self.sql(node, 'where')}"
            inner += " COLUMNS (" + ", ".join(self.sql(c) for c in node.args["columns"]) + ")"
        alias = node.args.get("alias")
        text = f"GRAPH_TABLE ({inner})"
        return f"{text} AS {self.sql(alias)}" if alias is not None else text

    def endpoint_sql(self: Any, node: Any) -> str:
        negated = "NOT " if node.args.get("negated") else ""
        word = node.args["endpoint"].upper()
        return f"{self.sql(node, 'this')} IS {negated}{word} OF {self.sql(node, 'edge')}"

    def like_sql(self: Any, node: Any) -> str:
        negated = "NOT " if node.args.get("negated") else ""
        text = f"{self.sql(node, 'this')} {negated}LIKE {self.sql(node, 'expression')}"
        escape = node.args.get("escape")
        return text if escape is None else f"{text} ESCAPE {self.sql(escape)}"

    def quantifier_text(quantifier: Any) -> str:
        low, high = quantifier
        return "{" + str(low) + "," + ("" if high is None else str(high)) + "}"

    def paren_sql(self: Any, node: Any) -> str:
        body = "".join(self.sql(x) for x in node.expressions)
        mode = node.args.get("mode")
        if mode:
            body = f"{mode} {body}"
        if node.args.get("where") is not None:
            body += f" WHERE {self.sql(node, 'where')}"
        quantifier = node.args.get("quantifier")
        return f"({body})" + (quantifier_text(quantifier) if quantifier is not None else "")

    def predicate_sql(self: Any, node: Any) -> str:
        text = f"{self.sql(node, 'this')} {node.args['text']}"
        label = node.args.get("label")
        return f"{text} {self.sql(label)}" if label is not None else text

    def is_null_sql(self: Any, node: Any) -> str:
        negated = "NOT " if node.args.get("negated") else ""
        return f"{self.sql(node, 'this')} IS {negated}NULL"

    def typed_sql(self: Any, node: Any) -> str:
        return f"{node.args['kind']} {self.sql(node, 'this')}"

    transforms = dict(getattr(base, "TRANSFORMS", {}))
    transforms.update(
        {
            nodes["GraphTable"]: table_sql,
            nodes["GraphPath"]: path_sql,
            nodes["GraphNode"]: node_sql,
            nodes["GraphEdge"]: edge_sql,
            nodes["GraphLabel"]: label_sql,
            nodes["GraphEndpoint"]: endpoint_sql,
            nodes["GraphLike"]: like_sql,
            nodes["GraphTyped"]: typed_sql,
            nodes["GraphIsNull"]: is_null_sql,
            nodes["GraphParen"]: paren_sql,
            nodes["GraphPredicate"]: predicate_sql,
        }
    )
    return type(f"Pgq{base.__name__}", (base,), {"TRANSFORMS": transforms})


# -- the emitter ----------------------------------------------------------------------------------


@dataclass
class _GroupB:
    """The variable of a quantified edge: the list of its edges."""

    name: str


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
        self.form = form_of(dialect)

    def generate(self, node: Node) -> str:
        from ..parser.sql import require_sqlglot

        require_sqlglot()
        from sqlglot.dialects.dialect import Dialect as SqlglotDialect
        from sqlglot.errors import ErrorLevel
        from sqlglot.errors import UnsupportedError as SqlglotUnsupported

        if isinstance(node, (pg.CreatePropertyGraph, pg.DropPropertyGraph)):
            return self.property_graph_ddl(node)
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

    # -- property graph DDL --------------------------------------------------------------------

    def name(self, text: str) -> str:
        return self.ident(text).sql(dialect=self.flavour or None)

    def property_graph_ddl(self, node: pg.CreatePropertyGraph | pg.DropPropertyGraph) -> str:
        """CREATE / DROP PROPERTY GRAPH as the standard spells it, which every form reads."""
        if isinstance(node, pg.DropPropertyGraph):
            exists = "IF EXISTS " if node.if_exists else ""
            return f"DROP PROPERTY GRAPH {exists}{self.name(node.name)}"
        head = "CREATE OR REPLACE" if node.or_replace else "CREATE"
        exists = " IF NOT EXISTS" if node.if_not_exists else ""
        text = f"{head} PROPERTY GRAPH{exists} {self.name(node.name)}"
        if not node.vertices:
            if not self.form.empty_graphs:
                raise self.unsupported("property graph without element tables", node)
            return text
        text += " VERTEX TABLES (" + ", ".join(self._element_table(v) for v in node.vertices)
        text += ")"
        if node.edges:
            text += " EDGE TABLES (" + ", ".join(self._element_table(e) for e in node.edges)
            text += ")"
        return text

    def _element_table(self, t: pg.ElementTable) -> str:
        def cols(names: tuple[str, ...]) -> str:
            return "(" + ", ".join(self.name(c) for c in names) + ")"

        parts = [self.name(t.table)]
        if t.alias is not None:
            parts.append(f"AS {self.name(t.alias)}")
        if t.key is not None:
            parts.append(f"KEY {cols(t.key)}")
        for word, end in (("SOURCE", t.source), ("DESTINATION", t.destination)):
            if end is not None and not end.columns:
                parts.append(f"{word} {self.name(end.table)}")
            elif end is not None:
                ref = f" {cols(end.referenced)}" if end.referenced else ""
                parts.append(
                    f"{word} KEY {cols(end.columns)} REFERENCES {self.name(end.table)}{ref}"
                )
        implicit = pg.ElementLabel(None)
        for label in () if t.labels == (implicit,) else t.labels:
            # the shortest spelling: LABEL x exposes all columns, PROPERTIES alone is the
            # default label's (DuckPGQ writes only these forms)
            props = None
            if label.all_columns:
                if label.except_columns:
                    props = f"PROPERTIES ARE ALL COLUMNS EXCEPT {cols(label.except_columns)}"
            elif not label.properties:
                props = "NO PROPERTIES"
            else:
                items = [
                    self.name(x.column)
                    if x.column == x.name
                    else f"{self.name(x.column)} AS {self.name(x.name)}"
                    for x in label.properties
                ]
                props = "PROPERTIES (" + ", ".join(items) + ")"
            if label.label is not None:
                parts.append(f"LABEL {self.name(label.label)}")
            elif props is None:
                parts.append("DEFAULT LABEL")
            if props is not None:
                parts.append(props)
        return " ".join(parts)

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
            if isinstance(first, q.Unwind) and self.caps.graph_pattern_first:
                # the unwind-joins pass moved every UNWIND that a MATCH follows
                raise self.unsupported(
                    "UNWIND not followed by MATCH",
                    first,
                    message="an UNWIND before the graph pattern is written as a join with the "
                    "GRAPH_TABLE only when a MATCH follows it, and SQL/PGQ output reads one "
                    "graph pattern",
                    rewrite="UNWIND … MATCH … with the MATCH right after the UNWIND",
                )
            raise self.unsupported(
                _name(first) if head < len(steps) - 1 else "query without MATCH", first
            )
        frame = _Frame()
        patterns = []
        listed = [pp for m in matches for pp in m.patterns]
        if not self.caps.path_pattern_lists and len(listed) > 1:
            raise self.unsupported(
                "several path patterns",
                listed[1],
                message=f"{self.dialect.name} matches one path pattern per GRAPH_TABLE",
            )
        for m in matches:
            for pp in m.patterns:
                self._declare(pp, frame)
        for m in matches:
            for pp in m.patterns:
                patterns.append(self.path(pp, frame))
        mode = self._match_mode(matches)
        where = _and(
            [self.expr(m.where, frame) for m in matches if m.where is not None]
            + [self.expr(f, frame) for f in filters]
        )
        rest = steps[head:]
        if len(rest) > 1:
            return self._pipeline(graph, mode, patterns, where, frame, rest)
        columns, outer, proj2 = self._columns(rest[0], frame)  # type: ignore[arg-type]
        if not columns:
            # COLUMNS lists at least one column (count(*) reads none): a constant one
            from sqlglot import exp

            columns = [exp.alias_(exp.Literal.number(1), self.ident("one"))]
        table = _nodes()["GraphTable"](
            this=self.ident(graph), mode=mode, patterns=patterns, where=where, columns=columns
        )
        outer.sources.append(table)
        return self.select(proj2, outer, final=True)

    def _pipeline(
        self,
        graph: str,
        mode: str | None,
        patterns: list,
        where: Any,
        inner: _Frame,
        rest: list[q.Step],
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
            mode=mode,
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

    def _match_mode(self, matches: list[q.Match]) -> str | None:
        """The match mode to write, if any. SQL/PGQ matches homomorphically unless told
        (capability ``default_match_mode``); where the IR asks for different edges and two edge
        patterns could bind one edge, the form must say DIFFERENT EDGES or the query is
        refused."""
        modes = {m.mode for m in matches}
        if len(modes) > 1:
            raise self.unsupported(
                "MATCH steps with different match modes",
                matches[0],
                message="one GRAPH_TABLE has one graph pattern, and so one match mode",
            )
        (mode,) = modes
        if mode.name == self.caps.default_match_mode:
            return None
        if mode is p.MatchMode.DIFFERENT_EDGES and not _edges_may_coincide(matches):
            return None
        if not self.caps.match_modes:
            raise self.unsupported(
                "two edge patterns that may match one edge",
                matches[0],
                message=f"{self.dialect.name} matches homomorphically (one edge may bind two "
                "edge patterns) and has no DIFFERENT EDGES match mode",
            )
        return mode.value

    def _declare(self, pp: p.PathPattern, frame: _Frame) -> None:
        if pp.variable is not None:
            from sqlglot import exp

            length = exp.Anonymous(
                this=self.dialect.function_name("length"),
                expressions=[exp.column(self.ident(pp.variable))],
            )
            frame.bindings.setdefault(pp.variable, _PathB(length))  # type: ignore[arg-type]
        for node in pp.walk():
            if isinstance(node, p.NodePattern) and node.variable:
                label = node.labels.name if isinstance(node.labels, p.Label) else None
                frame.bindings.setdefault(node.variable, _ElementB(node.variable, label, False))  # type: ignore[arg-type]
            elif isinstance(node, p.RelPattern) and node.variable:
                if node.quantifier is not None:
                    # a group variable: written in the pattern, not readable as an edge
                    frame.bindings.setdefault(node.variable, _GroupB(node.variable))  # type: ignore[arg-type]
                    continue
                label = node.types.name if isinstance(node.types, p.Label) else None
                frame.bindings.setdefault(node.variable, _ElementB(node.variable, label, True))  # type: ignore[arg-type]

    # -- patterns ------------------------------------------------------------------------------

    def path(self, pp: p.PathPattern, frame: _Frame) -> Any:
        caps = self.caps
        if pp.variable is not None and not self.caps.path_variables:
            raise self.unsupported("path variable", pp)
        words = []
        if pp.search is not None and pp.search.kind != p.SearchKind.ALL:
            if not caps.shortest_prefix or pp.search.kind.value not in caps.search_prefixes:
                raise self.unsupported(f"path search {pp.search.kind.value}", pp)
            words.append(_search_words(pp.search))
        if pp.mode is not None:
            if pp.mode.value not in caps.path_modes:
                raise self.unsupported(f"path mode {pp.mode.value}", pp)
            words.append(pp.mode.value)
        if caps.quantifier_rows == "endpoint":
            self._check_endpoint_rows(pp)
        prefix = " ".join(words) or None
        if not isinstance(pp.path, p.PathChain):
            raise self.unsupported("path union", pp)
        elements = self._elements(pp.path.elements, frame)
        variable = self.ident(pp.variable) if pp.variable is not None else None
        return _nodes()["GraphPath"](expressions=elements, prefix=prefix, variable=variable)

    def _elements(self, elements: tuple, frame: _Frame) -> list:
        out = []
        for x in elements:
            if isinstance(x, p.NodePattern):
                out.append(self._node(x, frame))
            elif isinstance(x, p.RelPattern):
                out.append(self._edge(x, frame))
            elif (
                isinstance(x, p.ParenPath)
                and isinstance(x.path, p.PathChain)
                and x.variable is None
                and self.caps.quantified_paths
                and self.form.quantified_paths
            ):
                # ((a)-[e]->(b) WHERE …){m,n}: the standard's quantified path (G035)
                quantifier = x.quantifier
                unbounded = quantifier is not None and quantifier.upper is None
                if unbounded and not self.caps.unbounded_quantifiers:
                    raise self.unsupported("unbounded quantifier", x)
                out.append(
                    _nodes()["GraphParen"](
                        expressions=self._elements(x.path.elements, frame),
                        where=self.expr(x.where, frame) if x.where is not None else None,
                        mode=x.mode.value if x.mode is not None else None,
                        quantifier=(quantifier.lower, quantifier.upper) if quantifier else None,
                    )
                )
            else:
                raise self.unsupported("parenthesised path", x)
        return out

    def _check_endpoint_rows(self, pp: p.PathPattern) -> None:
        """DuckPGQ: a quantified edge gives one row per reachable endpoint, which is the
        meaning of ANY SHORTEST over a path of that edge alone; one row per path is refused."""
        quantified = [
            x for x in pp.walk() if isinstance(x, p.RelPattern) and x.quantifier is not None
        ]
        if not quantified:
            return
        alone = isinstance(pp.path, p.PathChain) and len(pp.path.elements) == 3
        if any(x.direction not in (p.Direction.OUT, p.Direction.EITHER) for x in quantified):
            raise self.unsupported(
                f"quantified edge {quantified[0].direction.value}",
                quantified[0],
                message="DuckPGQ finds paths along -[ ]-> and -[ ]- only: 'Cannot do shortest "
                "path for edge type MATCH_EDGE_LEFT' (test/sql/path_finding/undirected_paths"
                ".test)",
                rewrite="turn the pattern around: (b)-[e]->{m,n}(a)",
            )
        if pp.search is None or pp.search.kind is not p.SearchKind.ANY_SHORTEST or not alone:
            raise self.unsupported(
                "quantified edge with one row per path",
                quantified[0],
                message=f"{self.dialect.name} returns one row per reachable endpoint of a "
                "quantified edge (ANY SHORTEST over a path of that edge alone), not one row "
                "per path",
            )

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
        if r.direction not in _ARROWS or (
            r.direction is p.Direction.BOTH and not self.form.both_directions
        ):
            raise self.unsupported(f"edge direction {r.direction.value}", r)
        if r.cost is not None:
            raise self.unsupported("edge cost", r)
        quantifier = None
        if r.quantifier is not None:
            if not self.form.quantifiers or not self.caps.quantified_paths:
                raise self.unsupported("quantified edge", r)
            if r.quantifier.upper is None and not self.caps.unbounded_quantifiers:
                raise self.unsupported(
                    "unbounded quantifier",
                    r,
                    message=f"{self.dialect.name} takes bounded quantifiers only ({{n,m}})",
                )
            quantifier = (r.quantifier.lower, r.quantifier.upper)
        return _nodes()["GraphEdge"](
            this=self.ident(r.variable) if r.variable else None,
            label=self._label(r.types, r) if r.types is not None else None,
            where=self._conditions(r.variable, r.properties, r.where, frame, r),
            direction=r.direction,
            quantifier=quantifier,
        )

    def _label(self, labels: p.LabelExpr, node: Node) -> Any:
        from sqlglot import exp

        cls = _nodes()["GraphLabel"]
        if self.caps.label_expressions == "or" and not isinstance(labels, (p.Label, p.LabelOr)):
            raise self.unsupported(
                "label expression other than a disjunction",
                node,
                message=f"{self.dialect.name} label expressions are names joined by | only",
            )
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
        if isinstance(labels, p.LabelAny) and self.caps.label_expressions == "full":
            return cls(this=exp.Var(this="%"))
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
        for s in _explicit_null_order(proj):
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

    @emits(e.FunctionCall)
    def function(self, node: e.FunctionCall) -> Any:
        """A function of the host SQL that the IR does not know (Oracle's VERTEX_ID, DuckPGQ's
        vertices(p) …) is kept as it was written; the IR's own functions as SQL writes them."""
        from sqlglot import exp

        from ..ir import functions

        if functions.lookup(node.name) is None:
            return exp.Anonymous(this=node.name, expressions=[self._argument(a) for a in node.args])
        if not node.args and node.name in _NILADIC:
            return exp.Var(this=_NILADIC[node.name])
        return super().function(node)

    def _argument(self, value: e.Expr) -> Any:
        """An argument of a host SQL function: an element or path variable by its name (as in
        VERTEX_ID(a), path_length(p)), anything else as a value."""
        from sqlglot import exp

        if isinstance(value, e.Variable):
            b = self._frame.lookup(value.name)
            if isinstance(b, (_ElementB, _PathB)):
                return exp.column(self.ident(value.name))
        return self.sub(value)

    @emits(e.Like)
    def like(self, node: e.Like) -> Any:
        """SQL's LIKE, with the escape character the IR asks for; the flavour's default one
        (PostgreSQL's backslash, none elsewhere) is not written."""
        from sqlglot import exp

        default = self.form.like_escape_char
        escape = None if node.escape == default else exp.Literal.string(node.escape or "")
        return _nodes()["GraphLike"](
            this=_paren(self.sub(node.left)),
            expression=_paren(self.sub(node.pattern)),
            negated=node.negated,
            escape=escape,
        )

    @emits(e.IsNull)
    def is_null(self, node: e.IsNull) -> Any:
        return _nodes()["GraphIsNull"](this=_paren(self.sub(node.operand)), negated=node.negated)

    @emits(e.Aggregate)
    def aggregate(self, node: e.Aggregate) -> Any:
        """MIN and MAX of a property whose type the schema does not give: a property of
        SQL/PGQ is a column of one type (Oracle sqlrf value-expressions-graph_table.html:
        properties of one name must have union-compatible types), so no value of another type
        is compared with it; PostgreSQL's strings sort by the database's collation, so there
        the type must be known."""
        from sqlglot import exp

        if (
            node.name in ("min", "max")
            and len(node.args) == 1
            and not self.form.collated_strings
            and self.kind(node.args[0], self._frame) is None
            and isinstance(node.args[0], e.Variable | e.Property)
        ):
            value = self.sub(node.args[0])
            return (exp.Min if node.name == "min" else exp.Max)(this=value)
        return super().aggregate(node)

    @emits(e.TemporalLiteral)
    def temporal(self, node: e.TemporalLiteral) -> Any:
        from sqlglot import exp

        kind = _TYPED_LITERALS.get(node.kind)
        if kind is None:
            return super().temporal(node)
        return _nodes()["GraphTyped"](this=exp.Literal.string(node.text), kind=kind)

    def _element_predicate(self, construct: str, node: Node) -> None:
        if construct not in self.caps.element_predicates:
            raise self.unsupported(construct, node)

    def _elements_named(self, values: tuple, node: Node) -> list:
        from sqlglot import exp

        out = []
        for x in values:
            if not isinstance(x, e.Variable) or not isinstance(
                self._frame.lookup(x.name), _ElementB
            ):
                raise self.unsupported("element predicate of a value", node)
            out.append(exp.column(self.ident(x.name)))
        return out

    @emits(Same)
    def same(self, node: Same) -> Any:
        from sqlglot import exp

        self._element_predicate("SAME", node)
        return exp.Anonymous(this="SAME", expressions=self._elements_named(node.elements, node))

    @emits(AllDifferent)
    def all_different(self, node: AllDifferent) -> Any:
        from sqlglot import exp

        self._element_predicate("ALL_DIFFERENT", node)
        args = self._elements_named(node.elements, node)
        return exp.Anonymous(this="ALL_DIFFERENT", expressions=args)

    @emits(PropertyExists)
    def property_exists(self, node: PropertyExists) -> Any:
        from sqlglot import exp

        self._element_predicate("PROPERTY_EXISTS", node)
        (subject,) = self._elements_named((node.subject,), node)
        args = [subject, exp.column(self.ident(node.key))]
        return exp.Anonymous(this="PROPERTY_EXISTS", expressions=args)

    @emits(IsDirected)
    def is_directed(self, node: IsDirected) -> Any:
        self._element_predicate("IS DIRECTED", node)
        (subject,) = self._elements_named((node.operand,), node)
        text = "IS NOT DIRECTED" if node.negated else "IS DIRECTED"
        return _nodes()["GraphPredicate"](this=subject, text=text)

    @emits(e.HasLabels)
    def has_labels(self, node: e.HasLabels) -> Any:
        if not self.caps.is_labeled:
            raise self.unsupported("IS LABELED", node)
        (subject,) = self._elements_named((node.subject,), node)
        label = self._label(node.labels, node)
        return _nodes()["GraphPredicate"](this=subject, text="IS LABELED", label=label)

    @emits(IsEndpoint)
    def is_endpoint(self, node: IsEndpoint) -> Any:
        """``a IS [NOT] SOURCE OF e`` (ISO/IEC 9075-16 feature G112; Oracle supports it)."""
        self._element_predicate("IS SOURCE OF", node)
        for side in (node.node, node.edge):
            if not isinstance(side, e.Variable) or not isinstance(
                self._frame.lookup(side.name), _ElementB
            ):
                raise self.unsupported("IS SOURCE OF / IS DESTINATION OF of a value", node)
        return _nodes()["GraphEndpoint"](
            this=self.ident(node.node.name),  # type: ignore[attr-defined]
            edge=self.ident(node.edge.name),  # type: ignore[attr-defined]
            endpoint=node.endpoint.value,
            negated=node.negated,
        )

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
        if isinstance(b, _GroupB):
            raise self.unsupported(
                "property of a group variable",
                node,
                message=f"{b.name} binds the list of edges of a quantified edge; reading its "
                "properties (an aggregate along the path, LISTAGG(e.p)) has no IR form",
            )
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


#: SQL's typed literals for the IR's temporal kinds of the same meaning (ISO/IEC 9075-2 5.3
#: <datetime literal>: DATE, TIME and TIMESTAMP without time zone)
_TYPED_LITERALS = {
    e.TemporalKind.DATE: "DATE",
    e.TemporalKind.LOCAL_TIME: "TIME",
    e.TemporalKind.LOCAL_DATETIME: "TIMESTAMP",
}

#: The current date and time, as SQL's niladic functions name them (ISO/IEC 9075-2 6.32
#: <datetime value function>): what GQL's CURRENT_DATE … read as
_NILADIC = {
    "date": "CURRENT_DATE",
    "localtime": "LOCALTIME",
    "localdatetime": "LOCALTIMESTAMP",
    "datetime": "CURRENT_TIMESTAMP",
    "time": "CURRENT_TIME",
}


def _edges_may_coincide(matches: list[q.Match]) -> bool:
    return edges_may_coincide([pp for m in matches for pp in m.patterns])


def _search_words(search: p.Search) -> str:
    """A search prefix as written: ANY SHORTEST, ALL SHORTEST, ANY 2, SHORTEST 3 GROUPS …"""
    words = search.kind.value
    if "k" in words.split():
        return words.replace("k", str(search.k))
    if search.kind is p.SearchKind.ANY and search.k not in (None, 1):
        return f"ANY {search.k}"
    return words


def _explicit_null_order(proj: q.Projection) -> list[q.SortItem]:
    """The sort keys with each ``x IS NULL`` key that places the nulls of the next key ``x``
    folded into it as NULLS FIRST / LAST: the SQL reader states a flavour's null placement
    that way, and reads ``x NULLS FIRST`` back to the same two keys."""
    items = {i.alias: i.expr for i in proj.items}
    keys = list(proj.order_by)
    out: list[q.SortItem] = []
    k = 0
    while k < len(keys):
        s = keys[k]
        nxt = keys[k + 1] if k + 1 < len(keys) else None
        if isinstance(s.expr, e.IsNull) and not s.expr.negated and nxt is not None:
            value = nxt.expr
            if isinstance(value, e.Variable) and value.name in items:
                value = items[value.name]
            if value == s.expr.operand and s.descending == s.nulls_first:
                out.append(q.SortItem(nxt.expr, nxt.descending, s.descending))
                k += 2
                continue
        out.append(s)
        k += 1
    return out


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
    from dataclasses import fields

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
                return self.query_text(query)

        self.generator = Body(dialect, pretty=pretty, graph="g")

    def generate(self, node: q.Query) -> str:
        if isinstance(node, q.LinearQuery) and node.steps and isinstance(node.steps[0], q.UseGraph):
            from dataclasses import replace

            node = replace(node, steps=node.steps[1:])
        from ..passes.pipeline import lower

        return self.generator.generate(lower(node, self.generator.dialect))
