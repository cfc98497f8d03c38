"""The GQL-family emitter (ISO GQL, Google Spanner Graph, TuGraph GQL).

A translation that succeeds means the same thing as its input; everything the target cannot say
with the same meaning raises :class:`~gqlir.errors.UnsupportedError`. Decisions are taken from
the dialect's capabilities, never from its name. The IR has Cypher's meanings where Cypher and
GQL differ (``+`` is polymorphic, ``sum()`` of nothing is 0, ``WITH`` groups implicitly), so most
of this module is about writing those meanings in GQL's vocabulary:

* **Projections.** Cypher's WITH / RETURN reach the printer lowered
  (:mod:`gqlir.passes.gql_projections`): explicit columns, implicit grouping made explicit in
  ``group_by`` (keys bound by ``LET`` where GQL groups by variables), sort keys that name
  columns, and the ``LET`` / ``FILTER`` / second ``RETURN`` steps around them. A projection that
  is not the last step is ``RETURN … NEXT``; a ``*`` projection with no items is a standalone
  ``ORDER BY``/``OFFSET``/``LIMIT`` statement; ``UNWIND`` is ``FOR``; a filter is ``FILTER``.
  ``OFFSET`` is written before ``LIMIT``. Every sort key carries ``NULLS FIRST``/``NULLS LAST``
  unless the target's default placement is known to match Cypher's (nulls last ascending).
* **Types and lowered forms.** The rules that read the types of expressions, and the forms
  GQL writes Cypher's expressions in, are lowering passes run first (:mod:`gqlir.passes.
  gql_expressions`, :mod:`gqlir.passes.gql_forms`): Cypher's ``+``, ``size()``,
  ``toString()``, walks over constant lists, ``STARTS WITH`` as ``LEFT``, walks over lists
  known at run time as ``FOR`` subqueries, ``sum()`` as ``COALESCE(SUM(x), 0)``, ``%`` and
  ``^`` as ``MOD``/``POWER``, ``COUNT { … }`` as ``VALUE { … }``, and the refusals of
  comparisons of known different types. A refusal a pass finds is left in the IR
  (:class:`~gqlir.ir.Untranslatable`) and raised here where the query writes it; the calls
  the passes mark (:mod:`gqlir.ir.marks`) are written with their fixed GQL spellings. The one
  walk still written here is over an aggregate's list, once the projection has computed the
  aggregate first (:meth:`GqlGenerator.lower`).
* **Edge uniqueness.** Cypher never binds one relationship twice in a MATCH. ISO GQL's default
  match mode (DIFFERENT EDGES) is the same; Spanner repeats edges unless told, so a MATCH whose
  result uniqueness can change is written with ``TRAIL`` when all its relationships are in one
  path pattern (TRAIL is per path), with ``ALL_DIFFERENT(r1, r2, …)`` when they are named
  fixed-length relationships of several path patterns, and refused otherwise.
* **Spanner.** The query starts with ``GRAPH g`` (from ``USE g`` in the IR or the ``graph``
  option, never a silent default), parameters are ``@p``, quantifiers need an upper bound, and a
  top-level result never holds a graph element: such a column is refused, or with
  ``spanner_elements="to_json"`` wrapped in ``SAFE_TO_JSON`` (which changes the value's form, so
  only on request).

Names: a variable must be a regular identifier that is not a reserved word in ISO GQL
(``bindingVariable : REGULAR_IDENTIFIER``), so another name is refused, never renamed. Result
column names, labels, property keys and record fields are delimited (backticks, backslash
escapes) when they are not plain or are reserved.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import replace
from typing import Any, Literal

from ..analysis.scope import (
    Deferred,
    ScopeTypes,
    call_results,
    column_scope,
    deferred_unwind_bindings,
    path_bindings,
    pattern_bindings,
)
from ..analysis.types import (
    ANY,
    TEMPORAL,
    VType,
    property_kinds,
)
from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import catalog as c
from ..ir import ddl, marks
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import predicates as pr
from ..ir import query as q
from ..ir.analysis import (
    names_in,
)
from ..ir.node import Node
from ..passes import list_walks
from ..passes.date_parts import NAMES as DATE_PART_CALLS
from ..passes.date_parts import PART_FIRST
from ..passes.edge_uniqueness import uniqueness_matters
from ..passes.exprs import conjoin as _conjoin
from ..passes.function_support import aggregate_function, literal_form
from ..passes.gql_primaries import is_primary
from ..passes.pipeline import lower
from ..passes.scoped import UNLOWERED, stopping_at_refusals
from ..passes.unnest_membership import is_guarded
from .base import emits, is_plain_name, quote_identifier, quote_string
from .graph import GraphTextGenerator

__all__ = ["ElementPolicy", "GqlGenerator", "VType", "emit_gql"]

ElementPolicy = Literal["refuse", "to_json"]

# -- precedence ---------------------------------------------------------------------------------
# GQL's boolean grammar puts XOR at OR's level (booleanValueExpression : term ((OR | XOR) term)*),
# and every predicate (comparison, IS NULL, IS LABELED, IS TYPED, IS TRUE) is a boolean primary.
_OR, _AND, _NOT, _PRED, _ADD, _MUL, _UNARY, _POSTFIX, _ATOM = 1, 3, 4, 5, 7, 8, 10, 12, 13

_ARROWS = {  # direction -> (opening, closing, abbreviated)
    p.Direction.OUT: ("-[", "]->", "->"),
    p.Direction.IN: ("<-[", "]-", "<-"),
    p.Direction.EITHER: ("-[", "]-", "-"),
    p.Direction.BOTH: ("<-[", "]->", "<->"),
    p.Direction.UNDIRECTED: ("~[", "]~", "~"),
}
_MATCH_MODE_WORDS = {
    p.MatchMode.DIFFERENT_EDGES: "DIFFERENT EDGES",
    p.MatchMode.REPEATABLE_ELEMENTS: "REPEATABLE ELEMENTS",
}
_TYPE_NAME = re.compile(r"[A-Z][A-Z0-9_]*(?: [A-Z][A-Z0-9_]*)*")

# =============================================================================================
# the generator
# =============================================================================================


class GqlGenerator(GraphTextGenerator):
    """Renders Graph-IR as the text of one GQL-family dialect.

    ``graph`` names the property graph for dialects whose queries must name it (Spanner's
    ``GRAPH g``) when the IR does not start with ``USE g``; for the others it adds ``USE g``.
    ``spanner_elements`` says what to do with a graph element in the top-level result of a
    dialect that cannot return one: ``"refuse"`` (the default, nothing changes silently) or
    ``"to_json"`` (the dialect's JSON function, e.g. ``SAFE_TO_JSON``). ``rename_variables``
    gives a variable whose name cannot be a variable in the dialect (a reserved word such as
    ``count``) another name throughout the query; result columns keep their names, so the
    result is the same. On by default; off, such a variable is refused.
    """

    def __init__(
        self,
        dialect: Dialect,
        *,
        pretty: bool = False,
        graph: str | None = None,
        spanner_elements: ElementPolicy = "refuse",
        rename_variables: bool = True,
        schema: Any = None,
    ) -> None:
        super().__init__(dialect, pretty=pretty)
        if spanner_elements not in ("refuse", "to_json"):
            raise UnsupportedError(
                "graph element policy",
                dialect.name,
                f"spanner_elements must be 'refuse' or 'to_json', not {spanner_elements!r}",
            )
        self.graph = graph
        #: The graph the query being written reads (expression subqueries may name it).
        self.query_graph: str | None = None
        self.element_policy: ElementPolicy = spanner_elements
        self.rename_variables = rename_variables
        #: Variables renamed because their names cannot be variables here (rename_variables).
        self.renamed: dict[str, str] = {}
        #: Names used anywhere in the query being written; fresh names avoid them (collected
        #: on the first request: most queries need none).
        self._used: set[str] | None = None
        self._root: Node | None = None
        self._fresh_count = 0
        self._type_names = _type_names(self.caps.type_names)
        graph_schema = schema_graph(schema) if schema is not None else None
        #: (node|edge, property) -> value kind, from the schema the graph conforms to.
        self.property_kinds = property_kinds(graph_schema) if graph_schema is not None else {}
        #: The type analysis over the variables in scope (a binding's type is inferred when
        #: first asked: most are never asked).
        self._types = ScopeTypes({}, self.property_kinds)
        #: The schema as a SchemaGraph, for the passes that read it (type(r) and labels(n)).
        self.graph_schema = graph_schema

    @property
    def scope(self) -> dict[str, VType]:
        """Variables in scope and what is known of their values (replaced, never changed)."""
        return self._types.scope

    @scope.setter
    def scope(self, value: dict[str, VType]) -> None:
        self._types.scope = value

    # =========================================================================================
    # entry points
    # =========================================================================================
    def generate(self, node: Node) -> str:
        """A whole query (with the graph prefix where the dialect needs one), a single step, or
        an expression or pattern on its own."""
        self._used, self._root = None, node
        self.scope = {}
        self.renamed = {}
        if isinstance(node, q.Query):
            return self.top(node)
        if isinstance(node, q.Step):
            return self.join_clauses(self.step_clauses(node, final=True))
        if isinstance(node, e.Expr):
            return self.expr(node)
        return self.gen(node)

    def preflight(self, node: Node) -> None:
        """Refuse before lowering what :meth:`top` refuses before writing anything (a query
        for a dialect that must name its graph, with no graph named): the same refusal,
        without lowering a query that cannot be written."""
        if isinstance(node, q.Query) and self.caps.graph_prefix_required:
            self._graph_of(node)

    def _graph_of(self, query: q.Query) -> tuple[str | None, q.Query]:
        """The graph the query selects first (or the ``graph`` option), and the query without
        that selection."""
        graph = self.graph
        if (
            isinstance(query, q.LinearQuery)
            and query.steps
            and isinstance(query.steps[0], q.UseGraph)
        ):
            graph = query.steps[0].graph
            query = replace(query, steps=query.steps[1:])
        elif isinstance(query, q.SetOperation) and self.caps.graph_prefix_required:
            # GRAPH g selects the graph of every branch (the reader puts it in each)
            graphs = _branch_graphs(query)
            if len(graphs) == 1 and None not in graphs:
                graph = graphs.pop()
                query = _without_graph(query)
        if self.caps.graph_prefix_required and graph is None:
            raise self.unsupported(
                "graph name",
                query,
                rewrite="pass graph=<property graph name> (the CLI's --graph), or start the "
                "query with USE <graph>",
                message=f"{self.dialect.name} queries start with GRAPH <name>, and no graph "
                "was named",
            )
        return graph, query

    def top(self, query: q.Query) -> str:
        """The query as the user runs it: graph selection, then the body."""
        graph, query = self._graph_of(query)
        prefix: list[str] = []
        lead: str | None = None
        if self.caps.graph_prefix_required:
            assert graph is not None
            prefix.append("GRAPH " + self.graph_name(graph))
        elif graph is not None:
            self.require(self.caps.use_graph, "USE", query)
            lead = "USE " + self.graph_name(graph)
        self.query_graph = graph
        body = self.query_text(query, lead=lead)
        return self.join_clauses([*prefix, body])

    def graph_name(self, name: str) -> str:
        if self.caps.graph_prefix_required and (name.startswith("/") or name in _PREDEFINED_REFS):
            raise self.unsupported(
                "graph reference",
                None,
                message=f"{self.dialect.name} names a graph by its name, not {name!r}",
            )
        return self.catalog_ref(name, None)  # type: ignore[arg-type]

    # =========================================================================================
    # queries
    # =========================================================================================
    def query_text(self, query: q.Query, *, lead: str | None = None) -> str:
        if isinstance(query, q.LinearQuery):
            return self.join_clauses(self.linear(query, lead=lead))
        if isinstance(query, q.SetOperation):
            return self.set_operation(query, lead=lead)
        if isinstance(query, q.ConditionalQuery):
            raise self.unsupported(
                "conditional query",
                query,
                rewrite="one CALL subquery per branch, each filtered on its condition and the "
                "negation of the earlier ones, combined with UNION ALL",
            )
        raise self.unsupported(f"IR node {type(query).__name__}", query)

    @emits(q.LinearQuery, q.SetOperation, q.ConditionalQuery)
    def query_node(self, query: q.Query) -> str:
        return self.query_text(query)

    def linear(self, query: q.LinearQuery, *, lead: str | None = None) -> list[str]:
        """The statements of a linear query; projections other than the last end a statement
        with ``NEXT``. ``lead`` (``USE g``) opens every statement."""
        steps = query.steps
        if not steps:
            raise self.unsupported("empty query", query)
        out: list[str] = []
        opening = True
        last = len(steps) - 1
        for i, step in enumerate(steps):
            if opening and lead is not None:
                out.append(lead)
            opening = False
            clauses = self.step_clauses(step, final=i == last)
            out.extend(clauses)
            if clauses and clauses[-1] == "NEXT":
                opening = True
        tail = steps[-1]
        if isinstance(tail, q.ProcedureCall) and len(steps) == 1:
            out.append(self.standalone_call_result(tail))
        return out

    def step_clauses(self, step: q.Step, *, final: bool) -> list[str]:
        if isinstance(step, q.Projection):
            return self.projection(step, final=final)
        text = self.gen(step)
        return [text] if text else []

    def set_operation(self, query: q.SetOperation, *, lead: str | None) -> str:
        branches = self._set_branches(query)
        keyword = self._set_keyword(query)
        sep = self.clause_separator()
        texts = []
        outer = self.scope
        for branch in branches:
            self.scope = dict(outer)
            if isinstance(branch, q.LinearQuery):
                clauses = self.linear(branch, lead=lead)
                if "NEXT" in clauses:
                    # A branch with NEXT is a nested query specification in braces.
                    self.require(
                        self.caps.braced_query_branches,
                        "NEXT inside a set operation branch",
                        branch,
                        rewrite="move the branch into a CALL subquery",
                    )
                    texts.append("{ " + self.join_clauses(clauses) + " }")
                else:
                    texts.append(self.join_clauses(clauses))
            else:
                raise self.unsupported(f"IR node {type(branch).__name__}", branch)
        self.scope = outer
        return (sep + keyword + sep).join(texts)

    def _set_keyword(self, query: q.SetOperation) -> str:
        caps = self.caps
        distinct = " DISTINCT" if caps.set_op_distinct_keyword else ""
        if query.op is q.SetOp.UNION:
            if query.all:
                self.require(caps.union_all, "UNION ALL", query)
                return "UNION ALL"
            self.require(caps.union_distinct, "UNION", query)
            return "UNION" + distinct
        if query.op is q.SetOp.OTHERWISE:
            self.require(caps.otherwise, "OTHERWISE", query)
            if query.all:
                raise self.unsupported("OTHERWISE ALL", query)
            return "OTHERWISE"
        self.require(caps.except_intersect, query.op.value, query)
        return f"{query.op.value} ALL" if query.all else query.op.value + distinct

    def block(self, query: q.Query, scope: dict[str, VType], *, expression: bool = False) -> str:
        """A braced subquery body, written in ``scope`` (the outer scope is restored after).
        An ``expression`` subquery (EXISTS, VALUE) that does not open with MATCH names its
        graph where the dialect needs one."""
        outer = self.scope
        self.scope = dict(scope)
        self.depth += 1
        try:
            body = self.query_text(query)
        finally:
            self.depth -= 1
            self.scope = outer
        if (
            expression
            and self.caps.graph_prefix_required
            and self.query_graph is not None
            and not re.match(r"(?:OPTIONAL\s+)?MATCH\b", body)
        ):
            # "Match should be the first operator when the graph reference is omitted"
            # (Spanner's analyser): an expression subquery that starts otherwise names its graph
            body = "GRAPH " + self.graph_name(self.query_graph) + " " + body
        if self.pretty:
            return "{\n" + "  " * (self.depth + 1) + body + "\n" + "  " * self.depth + "}"
        return "{ " + body + " }"

    # =========================================================================================
    # projections (lowered by gqlir.passes.gql_projections: the columns, the GROUP BY keys, the
    # sort keys and the LET / FILTER / RETURN steps around them are in the IR)
    # =========================================================================================
    def projection(self, step: q.Projection, *, final: bool) -> list[str]:
        """``RETURN … [NEXT]``: a projection before the last step feeds the next statement. A
        ``*`` projection with no items there only orders or pages the rows: a standalone
        ``ORDER BY`` / ``OFFSET`` / ``LIMIT`` statement."""
        if step.where is not None:
            raise self.unsupported("WITH … WHERE", step.where, rewrite="filter in a later step")
        if step.star and not step.items and not final:
            has_page = step.order_by or step.skip is not None or step.limit is not None
            return self.page_statement(step) if has_page else []
        cols = self._columns(step)
        parts = ["RETURN"]
        if step.distinct:
            parts.append("DISTINCT")
        parts.append(", ".join(self.column(x, a, final=final) for x, a in cols))
        if step.group_by is not None:
            group = self._explicit_group_by(step)
            if group:
                parts.append(group)
        incoming = self.scope
        parts.extend(self._ordering_and_paging(step))
        self.scope = column_scope(cols, incoming)  # type: ignore[assignment]
        return [" ".join(parts)] if final else [" ".join(parts), "NEXT"]

    def _columns(self, step: q.Projection) -> list[tuple[e.Expr, str]]:
        """The projected columns as (expression, name); ``*`` is the variables in scope."""
        cols: list[tuple[e.Expr, str]] = []
        for item in step.items:
            alias = item.alias
            if alias is None:
                if not isinstance(item.expr, e.Variable):
                    raise self.unsupported(
                        "unnamed return item", item, rewrite="name the item with AS"
                    )
                alias = item.expr.name
            cols.append((item.expr, alias))
        if step.star:
            names = {a for _, a in cols}
            cols = [(e.Variable(n), n) for n in sorted(self.scope) if n not in names] + cols
        if not cols:
            raise self.unsupported("empty projection", step)
        return cols

    def column(self, value: e.Expr, alias: str, *, final: bool) -> str:
        """One RETURN item. A column that feeds a later statement is a binding variable, so its
        name must be a variable name; a final column may have any name."""
        text = self.expr(value)
        if isinstance(value, e.Variable) and value.name == alias:
            if final and text != self.column_name(alias):
                return f"{text} AS {self.column_name(alias)}"
            return text
        name = self.column_name(alias) if final else self.variable_name(alias, value)
        return f"{text} AS {name}"

    def _explicit_group_by(self, step: q.Projection) -> str:
        assert step.group_by is not None
        mode = self.caps.group_by
        if not mode:
            raise self.unsupported("explicit GROUP BY", step)
        if not step.group_by:
            return "GROUP BY ()" if mode == "variables" else ""
        # (a key that is not a variable, where the target groups by variables: refused by the
        # pass gql-projections, projection_grouping.explicit_keys)
        return "GROUP BY " + ", ".join(self.expr(key) for key in step.group_by)

    def page_statement(self, step: q.Projection) -> list[str]:
        """``WITH * ORDER BY … SKIP … LIMIT …``: standalone ordering and paging statements (one
        the target cannot write was refused by the pass gql-projections)."""
        return [" ".join(self._ordering_and_paging(step))]

    def _ordering_and_paging(self, step: q.Projection) -> list[str]:
        """``ORDER BY …``, ``OFFSET …`` and ``LIMIT …`` of a projection, in GQL's order."""
        parts = []
        if step.order_by:
            parts.append("ORDER BY " + ", ".join(self.sort_item(s) for s in step.order_by))
        if step.skip is not None:
            parts.append("OFFSET " + self.page_count(step.skip))
        if step.limit is not None:
            parts.append("LIMIT " + self.page_count(step.limit))
        return parts

    def page_count(self, value: e.Expr) -> str:
        """OFFSET / LIMIT take an unsigned integer or a parameter (another count was refused by
        the pass gql-projections, :mod:`gqlir.passes.projection_pages`)."""
        if isinstance(value, e.Parameter):
            return self.parameter(value.name)
        if isinstance(value, e.Integer):
            return str(value.value)
        if not isinstance(value, e.Untranslatable):
            raise self.unsupported("computed SKIP/LIMIT", value)
        return self.expr(value)

    @emits(q.SortItem)
    def sort_item(self, item: q.SortItem) -> str:
        """A sort key (one of mixed types is refused by :mod:`gqlir.passes.projection_sorting`)."""
        text = self.expr(item.expr)
        if item.descending:
            text += " DESC"
        default_first = item.descending if self.caps.nulls_sort_high else not item.descending
        if item.nulls_first != default_first or not self.caps.null_order_fixed:
            self.require(self.caps.null_ordering_syntax, "null ordering", item)
            text += " NULLS FIRST" if item.nulls_first else " NULLS LAST"
        return text

    @emits(q.Projection)
    def projection_node(self, step: q.Projection) -> str:
        return self.join_clauses(self.projection(step, final=False))

    @emits(q.ReturnItem)
    def return_item(self, item: q.ReturnItem) -> str:
        alias = item.alias
        if alias is None:
            return self.expr(item.expr)
        return self.column(item.expr, alias, final=True)

    def standalone_call_result(self, call: q.ProcedureCall) -> str:
        """A query that is only a procedure call returns the call's rows: GQL needs a RETURN
        (one without YIELD was refused by the pass standalone-calls)."""
        if call.yield_star:
            return "RETURN *"
        if not call.yields:
            raise self.unsupported("standalone CALL without YIELD", call)
        return "RETURN " + ", ".join(
            self.variable_name(item.alias or item.field) for item in call.yields
        )

    # =========================================================================================
    # reading steps
    # =========================================================================================
    @emits(q.Filter)
    def filter(self, step: q.Filter) -> str:
        self.require(self.caps.filter_step, "FILTER", step)
        return "FILTER " + self.expr(step.condition)

    @emits(q.Let)
    def let(self, step: q.Let) -> str:
        """``LET x = e, …`` (the pass let-steps split one whose binding reads another and
        refused one binding a variable in scope)."""
        if not step.bindings:
            raise self.unsupported("empty LET", step)
        self.require(self.caps.let_step, "LET", step)
        texts = [
            f"{self.variable_name(b.variable, b)} = {self.expr(b.value)}" for b in step.bindings
        ]
        scope = self.scope
        bound = {b.variable: Deferred(b.value, scope) for b in step.bindings}
        self.scope = {**scope, **bound}  # type: ignore[dict-item]
        return "LET " + ", ".join(texts)

    @emits(q.Binding)
    def binding(self, binding: q.Binding) -> str:
        return f"{self.variable_name(binding.variable, binding)} = {self.expr(binding.value)}"

    @emits(q.Unwind)
    def unwind(self, step: q.Unwind) -> str:
        # (an UNWIND of a non-list was refused by the pass unwind-lists)
        text = f"FOR {self.variable_name(step.variable, step)} IN {self.expr(step.source)}"
        if step.index is not None:
            # for_index holds the words written after WITH ("OFFSET", "OFFSET AS", ...).
            word = "ORDINALITY" if step.index_base == 1 else "OFFSET"
            forms = [f for f in self.caps.for_index if f.split()[0] == word]
            if step.index_base not in (0, 1) or not forms:
                raise self.unsupported(
                    f"FOR WITH {word}",
                    step,
                    rewrite="number the elements with a separate list of positions",
                )
            text += f" WITH {forms[0]} {self.variable_name(step.index, step)}"
        self.scope = {**self.scope, **deferred_unwind_bindings(step, self.scope)}
        return text

    @emits(q.Match)
    def match(self, step: q.Match) -> str:
        if not step.patterns:
            raise self.unsupported("empty MATCH", step)
        # (a quantified relationship bound earlier: the pass group-variables)
        self._bind_patterns(step.patterns)
        parts = ["OPTIONAL MATCH" if step.optional else "MATCH"]
        mode = self._match_mode(step)
        if mode:
            parts.append(mode)
        parts.append(", ".join(self.path_pattern(x) for x in step.patterns))
        where = step.where
        if where is not None:
            parts.append("WHERE " + self.expr(where))
        return " ".join(parts)

    def _match_mode(self, step: q.Match) -> str:
        """The match mode words, where the target has them and the mode is not its implicit
        one (a target without them had the pass :mod:`gqlir.passes.edge_uniqueness`)."""
        if not self.caps.match_modes or (
            step.mode.name == self.caps.default_match_mode
            and (self.caps.match_mode_implicit or not uniqueness_matters(step))
        ):
            return ""
        return _MATCH_MODE_WORDS[step.mode]

    def _bind_patterns(self, patterns: tuple[p.PathPattern, ...]) -> None:
        """Add the variables a graph pattern binds to the scope."""
        self.scope = {**self.scope, **pattern_bindings(patterns)}

    @emits(q.CallSubquery)
    def call_subquery(self, step: q.CallSubquery) -> str:
        caps = self.caps
        self.require(caps.call_subquery, "CALL subquery", step)
        if step.in_transactions is not None:
            raise self.unsupported("CALL IN TRANSACTIONS", step)
        keyword = "CALL"
        if step.optional:
            self.require(caps.optional_call, "OPTIONAL CALL", step)
            keyword = "OPTIONAL CALL"
        imports = sorted(self.scope) if step.imports is None else list(step.imports)
        inner = {name: self.scope.get(name, ANY) for name in imports}
        scope = "(" + ", ".join(self.variable_name(v, step) for v in imports) + ") "
        if step.imports is None and caps.call_whole_scope:
            scope = ""  # CALL { } sees the whole incoming scope there
        outer = self.scope
        body = self.block(step.query, inner)
        self.scope = {**outer, **call_results(step.query, inner)}
        return f"{keyword} {scope}{body}"

    @emits(q.ProcedureCall)
    def procedure_call(self, step: q.ProcedureCall) -> str:
        self.require(self.caps.procedure_calls, "procedure call", step)
        keyword = "CALL "
        if step.optional:
            self.require(self.caps.optional_call, "OPTIONAL CALL", step)
            keyword = "OPTIONAL CALL "
        if step.args is None:
            raise self.unsupported(
                "procedure call without arguments",
                step,
                rewrite="pass the arguments explicitly: CALL proc($a, $b)",
            )
        text = keyword + self.qualified_name(step.name)
        text += "(" + ", ".join(self.expr(arg) for arg in step.args) + ")"
        if step.yields:
            if step.yield_star:
                raise self.unsupported("YIELD * with items", step)
            text += " YIELD " + ", ".join(self.gen(item) for item in step.yields)
            new = {item.alias or item.field: ANY for item in step.yields}
            self.scope = {**self.scope, **new}
        elif step.yields is not None and not step.yield_star:
            raise self.unsupported("empty YIELD", step)
        if step.where is not None:
            if not (step.yield_star or step.yields):
                raise self.unsupported(
                    "procedure WHERE without YIELD",
                    step,
                    rewrite="YIELD the fields the condition uses",
                )
            text += " FILTER " + self.expr(step.where)
        return text

    @emits(q.YieldItem)
    def yield_item(self, item: q.YieldItem) -> str:
        if item.alias is None:
            return self.variable_name(item.field, item)
        return f"{self.schema_name(item.field)} AS {self.variable_name(item.alias, item)}"

    @emits(q.UseGraph)
    def use_graph(self, step: q.UseGraph) -> str:
        raise self.unsupported(
            "USE inside a query",
            step,
            rewrite="select the graph once, at the start of the query",
        )

    @emits(q.LoadCsv)
    def load_csv(self, step: q.LoadCsv) -> str:
        raise self.unsupported("LOAD CSV", step)

    # =========================================================================================
    # writing steps
    # =========================================================================================
    @emits(q.Create)
    def create(self, step: q.Create) -> str:
        self.require(self.caps.graph_writes, self.caps.create_keyword, step)
        if self.caps.create_keyword.upper() != "INSERT":
            raise self.unsupported(f"create keyword {self.caps.create_keyword}", step)
        if not step.patterns:
            raise self.unsupported("empty INSERT", step)
        text = "INSERT " + ", ".join(self.insert_path(x) for x in step.patterns)
        self._bind_patterns(step.patterns)
        return text

    def insert_path(self, pattern: p.PathPattern) -> str:
        """An insert pattern: nodes and directed edges with a label set and literal properties
        (GQL's insertPathPattern has no path variables, quantifiers or WHERE)."""
        if pattern.variable is not None:
            raise self.unsupported(
                "path variable in CREATE",
                pattern,
                rewrite="MATCH the path after creating it",
            )
        if pattern.search is not None or pattern.mode is not None:
            raise self.unsupported("path prefix in CREATE", pattern)
        chain = pattern.path
        if not isinstance(chain, p.PathChain) or not chain.elements:
            raise self.unsupported("path union in CREATE", pattern)
        out = []
        for element in chain.elements:
            if isinstance(element, p.NodePattern):
                out.append("(" + self._insert_filler(element) + ")")
            elif isinstance(element, p.RelPattern):
                if element.quantifier is not None:
                    raise self.unsupported("quantified relationship in CREATE", element)
                if element.direction not in (p.Direction.OUT, p.Direction.IN):
                    self.require(
                        element.direction is p.Direction.UNDIRECTED and self.caps.undirected_edges,
                        "relationship without direction in CREATE",
                        element,
                    )
                opening, closing, _ = _ARROWS[element.direction]
                out.append(opening + self._insert_filler(element) + closing)
            else:
                raise self.unsupported("quantified path in CREATE", element)
        return "".join(out)

    def _insert_filler(self, element: p.NodePattern | p.RelPattern) -> str:
        if element.where is not None:
            raise self.unsupported("WHERE in CREATE", element)
        text = "" if element.variable is None else self.variable_name(element.variable, element)
        labels = element.labels if isinstance(element, p.NodePattern) else element.types
        if labels is not None:
            names = _conjunction(labels)
            if names is None:
                raise self.unsupported("label expression in CREATE", element)
            limit = self.caps.max_node_labels
            if limit and isinstance(element, p.NodePattern) and len(names) > limit:
                raise self.unsupported("multiple labels", element)
            text += ":" + "&".join(self.schema_name(name) for name in names)
        if element.properties is not None:
            props = self.property_map(element.properties, element)
            text = f"{text} {props}" if text else props
        return text

    @emits(q.SetClause)
    def set_clause(self, step: q.SetClause) -> str:
        """One SET statement (the pass ``set-items`` split Cypher's clause where its order
        matters and wrote ``+=`` as items where the target lacks it)."""
        self.require(self.caps.graph_writes, "SET", step)
        if not step.items:
            raise self.unsupported("empty SET", step)
        items = [text for item in step.items for text in self.set_item(item)]
        # SET n += {} sets nothing: the clause is a no-op, written as nothing.
        return "SET " + ", ".join(items) if items else ""

    def set_item(self, item: q.SetItem) -> list[str]:
        if isinstance(item, q.SetProperty):
            subject = self._write_subject(item.subject, item)
            return [f"{subject}.{self.schema_name(item.key)} = {self.expr(item.value)}"]
        if isinstance(item, q.SetDynamicProperty):
            raise self.unsupported("dynamic property", item)
        if isinstance(item, q.SetProperties):
            name = self.variable_name(item.variable, item)
            if not isinstance(item.value, e.MapLiteral):
                raise self.unsupported(
                    "SET from a map value",
                    item,
                    rewrite="set each property: SET n.k = map.k",
                )
            if item.merge:
                if not item.value.entries:
                    return []
                return [f"{name} += {self.property_map(item.value, item)}"]
            self.require(self.caps.set_map, "SET n = map", item)
            return [f"{name} = {self.property_map(item.value, item, empty_ok=True)}"]
        if isinstance(item, q.SetLabels):
            self.require(self.caps.set_labels, "SET labels", item)
            if not item.labels:
                raise self.unsupported("empty label list", item)
            name = self.variable_name(item.variable, item)
            return [f"{name}:{self.schema_name(label)}" for label in item.labels]
        raise self.unsupported(f"IR node {type(item).__name__}", item)

    def _write_subject(self, subject: e.Expr, item: Node) -> str:
        if not isinstance(subject, e.Variable):
            raise self.unsupported(
                "property write on an expression",
                item,
                rewrite="bind the element to a variable first",
            )
        return self.variable_name(subject.name, subject)

    @emits(q.Remove)
    def remove(self, step: q.Remove) -> str:
        self.require(self.caps.graph_writes and self.caps.remove_clause, "REMOVE", step)
        if not step.items:
            raise self.unsupported("empty REMOVE", step)
        items: list[str] = []
        for item in step.items:
            if isinstance(item, q.RemoveProperty):
                subject = self._write_subject(item.subject, item)
                items.append(f"{subject}.{self.schema_name(item.key)}")
            else:
                if not item.labels:
                    raise self.unsupported("empty label list", item)
                name = self.variable_name(item.variable, item)
                items.extend(f"{name}:{self.schema_name(label)}" for label in item.labels)
        return "REMOVE " + ", ".join(items)

    @emits(q.Delete)
    def delete(self, step: q.Delete) -> str:
        self.require(self.caps.graph_writes, "DELETE", step)
        if not step.targets:
            raise self.unsupported("empty DELETE", step)
        # (a path was walked or refused by the pass path-deletes)
        keyword = "DETACH DELETE " if step.detach else "DELETE "
        return keyword + ", ".join(self.expr(target) for target in step.targets)

    @emits(q.Merge)
    def merge(self, step: q.Merge) -> str:
        """MERGE reaches the printer only where the target lacks the statements the pass
        ``merge`` (:mod:`gqlir.passes.merge`) writes it with."""
        raise self.unsupported("MERGE", step)

    @emits(q.ScopeNote)
    def scope_note(self, step: q.ScopeNote) -> str:
        """Nothing to write: the scope forgets a lowering's helpers and learns its kinds."""
        scope = {k: v for k, v in self.scope.items() if k not in step.hidden}
        self.scope = {**scope, **{name: VType(kind) for name, kind in step.kinds}}
        return ""

    @emits(q.Foreach)
    def foreach(self, step: q.Foreach) -> str:
        raise self.unsupported("FOREACH", step, rewrite="FOR x IN list followed by the updates")

    @emits(ddl.CreateIndex, ddl.CreateConstraint, ddl.DropIndex, ddl.DropConstraint, ddl.Show)
    def schema_command(self, node: Node) -> str:
        raise self.unsupported(
            {
                ddl.CreateIndex: "CREATE INDEX",
                ddl.CreateConstraint: "CREATE CONSTRAINT",
                ddl.DropIndex: "DROP INDEX",
                ddl.DropConstraint: "DROP CONSTRAINT",
                ddl.Show: "SHOW",
            }[type(node)],
            node,
        )

    # =========================================================================================
    # catalog, session and transaction statements
    # =========================================================================================
    def catalog_ref(self, ref: str, at: Node) -> str:
        """A catalog reference as the IR keeps it: a predefined one (``HOME_GRAPH``), an absolute
        path (``/dir/g``) or a dotted name."""
        if ref in _PREDEFINED_REFS:
            return ref
        if ref.startswith("/"):
            parts = [part for part in ref[1:].split("/") if part]
            return "/" + "/".join(self.schema_name(part) for part in parts)
        return ".".join(self.schema_name(part) for part in ref.split("."))

    def _catalog(self, construct: str, node: Node) -> None:
        self.require(
            self.caps.catalog_statements,
            construct,
            node,
            rewrite="run the command through the database's own API or DDL",
        )

    @emits(c.Program)
    def program(self, node: c.Program) -> str:
        """Statements of one request, in order (GQL writes them one after the other)."""
        if not node.statements:
            raise self.unsupported("empty request", node)
        texts = []
        for statement in node.statements:
            if isinstance(statement, q.Query):
                self.scope = {}
                texts.append(self.top(statement))
            else:
                texts.append(self.gen(statement))
        return self.join_clauses(texts)

    @emits(c.SessionSetSchema)
    def session_set_schema(self, node: c.SessionSetSchema) -> str:
        self._catalog("SESSION SET", node)
        return "SESSION SET SCHEMA " + self.catalog_ref(node.schema, node)

    @emits(c.SessionSetGraph)
    def session_set_graph(self, node: c.SessionSetGraph) -> str:
        self._catalog("SESSION SET", node)
        return "SESSION SET GRAPH " + self.catalog_ref(node.graph, node)

    @emits(c.SessionSetTimeZone)
    def session_set_time_zone(self, node: c.SessionSetTimeZone) -> str:
        self._catalog("SESSION SET", node)
        return "SESSION SET TIME ZONE " + self.string(node.zone)

    @emits(c.SessionSetParameter)
    def session_set_parameter(self, node: c.SessionSetParameter) -> str:
        self._catalog("SESSION SET", node)
        parts = ["SESSION SET VALUE"]
        if node.if_not_exists:
            parts.append("IF NOT EXISTS")
        parts.append(self.parameter(node.name))
        if node.type is not None:
            parts.append(":: " + self.type_ref(node.type, node))
        parts.append("= " + self.expr(node.value))
        return " ".join(parts)

    @emits(c.SessionReset)
    def session_reset(self, node: c.SessionReset) -> str:
        self._catalog("SESSION RESET", node)
        target = node.target
        if target is c.SessionResetTarget.ALL:
            return "SESSION RESET"
        if target is c.SessionResetTarget.PARAMETER:
            if node.parameter is None:
                raise self.unsupported("SESSION RESET PARAMETER without a name", node)
            return "SESSION RESET PARAMETER " + self.parameter(node.parameter)
        if target in (c.SessionResetTarget.PARAMETERS, c.SessionResetTarget.CHARACTERISTICS):
            return "SESSION RESET ALL " + target.value
        return "SESSION RESET " + target.value

    @emits(c.SessionClose)
    def session_close(self, node: c.SessionClose) -> str:
        self._catalog("SESSION CLOSE", node)
        return "SESSION CLOSE"

    @emits(c.StartTransaction)
    def start_transaction(self, node: c.StartTransaction) -> str:
        self._catalog("START TRANSACTION", node)
        return "START TRANSACTION READ ONLY" if node.read_only else "START TRANSACTION"

    @emits(c.Commit, c.Rollback)
    def end_transaction(self, node: c.Commit | c.Rollback) -> str:
        word = "COMMIT" if isinstance(node, c.Commit) else "ROLLBACK"
        self._catalog(word, node)
        return word

    @emits(c.CreateSchema, c.DropSchema)
    def schema_statement(self, node: c.CreateSchema | c.DropSchema) -> str:
        if isinstance(node, c.CreateSchema):
            self._catalog("CREATE SCHEMA", node)
            guard = " IF NOT EXISTS" if node.if_not_exists else ""
            return f"CREATE SCHEMA{guard} {self.catalog_ref(node.path, node)}"
        self._catalog("DROP SCHEMA", node)
        guard = " IF EXISTS" if node.if_exists else ""
        return f"DROP SCHEMA{guard} {self.catalog_ref(node.path, node)}"

    @emits(c.CreateGraph)
    def create_graph(self, node: c.CreateGraph) -> str:
        self._catalog("CREATE GRAPH", node)
        head = self._create_head("GRAPH", node.or_replace, node.if_not_exists, node)
        source = node.graph_type
        if isinstance(source, c.OpenGraphType):
            of = "ANY"
        elif isinstance(source, c.GraphTypeName):
            of = ":: " + self.catalog_ref(source.name, node)
        elif isinstance(source, c.GraphTypeLike):
            of = "LIKE " + self.catalog_ref(source.graph, node)
        else:
            of = self.gen(source)
        text = f"{head} {self.catalog_ref(node.name, node)} {of}"
        if node.copy_of is not None:
            text += " AS COPY OF " + self.catalog_ref(node.copy_of, node)
        return text

    @emits(c.CreateGraphType)
    def create_graph_type(self, node: c.CreateGraphType) -> str:
        self._catalog("CREATE GRAPH TYPE", node)
        head = self._create_head("GRAPH TYPE", node.or_replace, node.if_not_exists, node)
        source = node.source
        if isinstance(source, c.GraphTypeName):
            of = "COPY OF " + self.catalog_ref(source.name, node)
        elif isinstance(source, c.GraphTypeLike):
            of = "LIKE " + self.catalog_ref(source.graph, node)
        else:
            of = self.gen(source)
        return f"{head} {self.catalog_ref(node.name, node)} {of}"

    def _create_head(self, what: str, or_replace: bool, if_not_exists: bool, node: Node) -> str:
        if or_replace and if_not_exists:
            raise self.unsupported("CREATE OR REPLACE … IF NOT EXISTS", node)
        if or_replace:
            return f"CREATE OR REPLACE {what}"
        return f"CREATE {what} IF NOT EXISTS" if if_not_exists else f"CREATE {what}"

    @emits(c.DropGraph, c.DropGraphType)
    def drop_graph(self, node: c.DropGraph | c.DropGraphType) -> str:
        what = "GRAPH" if isinstance(node, c.DropGraph) else "GRAPH TYPE"
        self._catalog(f"DROP {what}", node)
        guard = " IF EXISTS" if node.if_exists else ""
        return f"DROP {what}{guard} {self.catalog_ref(node.name, node)}"

    @emits(c.GraphTypeSpec)
    def graph_type_spec(self, node: c.GraphTypeSpec) -> str:
        if not node.elements:
            raise self.unsupported("empty graph type", node)
        return "{" + ", ".join(self.gen(element) for element in node.elements) + "}"

    @emits(c.NodeType)
    def node_type(self, node: c.NodeType) -> str:
        head = "" if node.name is None else f"NODE {self.schema_name(node.name)} "
        return head + "(" + self._type_filler(node, alias=node.alias) + ")"

    @emits(c.EdgeType)
    def edge_type(self, node: c.EdgeType) -> str:
        head = ""
        if node.name is not None:
            kind = "DIRECTED" if node.directed else "UNDIRECTED"
            head = f"{kind} EDGE {self.schema_name(node.name)} "
        source, destination = self._endpoint(node.source), self._endpoint(node.destination)
        filler = self._type_filler(node, alias=None)
        if node.directed:
            return f"{head}{source}-[{filler}]->{destination}"
        return f"{head}{source}~[{filler}]~{destination}"

    def _endpoint(self, node: c.NodeType) -> str:
        """An edge type's endpoint: a node type's alias, or a filler that matches one."""
        if node.alias is not None:
            return "(" + self.variable_name(node.alias, node) + ")"
        return "(" + self._type_filler(node, alias=None) + ")"

    def _type_filler(self, node: c.NodeType | c.EdgeType, *, alias: str | None) -> str:
        """``alias :Key => :A&B {p TYPE, …}``: key labels, implied labels, property types."""
        parts = [] if alias is None else [self.variable_name(alias, node)]
        if node.key_labels is not None:
            key = ":" + "&".join(self.schema_name(x) for x in node.key_labels) + " "
            parts.append((key if node.key_labels else "") + "=>")
        if node.labels:
            parts.append(":" + "&".join(self.schema_name(x) for x in node.labels))
        if node.properties:
            parts.append("{" + ", ".join(self.gen(x) for x in node.properties) + "}")
        return " ".join(parts)

    @emits(c.PropertyType)
    def property_type(self, node: c.PropertyType) -> str:
        return f"{self.schema_name(node.name)} {self.type_ref(node.type, node)}"

    @emits(c.OpenGraphType, c.GraphTypeName, c.GraphTypeLike)
    def graph_type_source(self, node: Node) -> str:
        raise self.unsupported(f"IR node {type(node).__name__} outside CREATE GRAPH", node)

    # =========================================================================================
    # patterns
    # =========================================================================================
    @emits(p.PathPattern)
    def path_pattern(self, pattern: p.PathPattern) -> str:
        head = "" if pattern.variable is None else self.variable_name(pattern.variable) + " = "
        parts = []
        path_text = self.gen(pattern.path)
        if pattern.search is not None:
            selector = self.search(pattern.search)
            if selector:
                parts.append(selector)
        if pattern.mode is not None:
            mode = self.path_mode(pattern.mode, pattern)
            if parts and not self.caps.search_with_mode:
                path_text = f"({mode} {path_text})"
            else:
                parts.append(mode)
        parts.append(path_text)
        return head + " ".join(parts)

    @emits(p.Search)
    def search(self, search: p.Search) -> str:
        kind = search.kind
        allowed = kind.value in self.caps.search_prefixes
        self.require(allowed, kind.value, search)
        if kind is p.SearchKind.ALL:
            return "ALL"
        if kind is p.SearchKind.ANY:
            return "ANY" if search.k is None else "ANY " + self.count(search.k, search)
        if kind is p.SearchKind.ANY_SHORTEST:
            return "ANY SHORTEST"
        if kind is p.SearchKind.ALL_SHORTEST:
            return "ALL SHORTEST"
        if kind is p.SearchKind.ANY_CHEAPEST:
            return "ANY CHEAPEST"
        if kind is p.SearchKind.CHEAPEST_K:
            return "CHEAPEST " + self.count(search.k, search)
        if kind is p.SearchKind.SHORTEST_K_GROUPS:
            if search.k is None:
                return "SHORTEST GROUPS"
            return f"SHORTEST {self.count(search.k, search)} GROUPS"
        if search.k is None:
            raise self.unsupported("SHORTEST k without k", search)
        return "SHORTEST " + self.count(search.k, search)

    @emits(p.ParenPath)
    def paren_path(self, path: p.ParenPath) -> str:
        self.require(self.caps.quantified_paths, "quantified path pattern", path)
        # Inside its parentheses a quantified path's variables are single elements; outside
        # they are group (list) variables.
        inner: dict[str, VType] = {}
        path_bindings(path.path, inner, group=False)
        outer = self.scope
        self.scope = {**outer, **inner}
        try:
            return self._paren_path(path)
        finally:
            self.scope = outer

    def _paren_path(self, path: p.ParenPath) -> str:
        parts = []
        if path.variable is not None:
            parts.append(self.variable_name(path.variable, path) + " =")
        if path.mode is not None:
            parts.append(self.path_mode(path.mode, path))
        parts.append(self.gen(path.path))
        if path.where is not None:
            parts.append("WHERE " + self.expr(path.where))
        text = "(" + " ".join(parts) + ")"
        if path.quantifier is not None:
            text += self.gen(path.quantifier)
        return text

    @emits(p.NodePattern)
    def node_pattern(self, node: p.NodePattern) -> str:
        return "(" + self._filler(node, node.labels) + ")"

    @emits(p.RelPattern)
    def rel_pattern(self, rel: p.RelPattern) -> str:
        if rel.direction is p.Direction.UNDIRECTED:
            self.require(self.caps.undirected_edges, "undirected edge", rel)
        opening, closing, abbreviated = _ARROWS[rel.direction]
        outer = self.scope
        if rel.variable is not None and rel.quantifier is not None:
            # its WHERE sees one edge at a time
            self.scope = {**outer, rel.variable: VType("edge")}
        try:
            inner = self._filler(rel, rel.types)
            cost = self._cost(rel)
        finally:
            self.scope = outer
        if cost:
            inner = f"{inner} {cost}" if inner else cost
        quantifier = "" if rel.quantifier is None else self.gen(rel.quantifier)
        if not inner and not quantifier:
            return abbreviated
        return opening + inner + closing + quantifier

    def _cost(self, rel: p.RelPattern) -> str:
        """Spanner's ``COST expr`` after the rest of the edge filler."""
        if rel.cost is None:
            return ""
        self.require(
            self.caps.edge_cost,
            "edge cost",
            rel,
            rewrite="sum the costs of the path's edges after matching it",
        )
        return "COST " + self.expr(rel.cost)

    def _filler(self, element: p.NodePattern | p.RelPattern, labels: p.LabelExpr | None) -> str:
        """Variable, label expression, then properties or WHERE (GQL's element pattern has one
        or the other: properties with a WHERE become conditions in it)."""
        text = "" if element.variable is None else self.variable_name(element.variable, element)
        if labels is not None:
            if isinstance(element, p.NodePattern):
                names = _conjunction(labels)
                limit = self.caps.max_node_labels
                if limit and names is not None and len(names) > limit:
                    raise self.unsupported(
                        "multiple labels",
                        element,
                        rewrite="test the labels in WHERE, e.g. (n) WHERE n IS LABELED A",
                    )
            text += ":" + self.label_expr(labels)
        where = element.where
        props = element.properties
        if props is not None and where is not None:
            if element.variable is None or not isinstance(props, e.MapLiteral):
                raise self.unsupported(
                    "property map with element WHERE",
                    element,
                    rewrite="name the element and compare its properties in the WHERE",
                )
            subject = e.Variable(element.variable)
            conds = [e.Comparison(e.CompOp.EQ, e.Property(subject, k), v) for k, v in props.entries]
            conds.append(where)
            where = _conjoin(conds)
            props = None
        if props is not None:
            text = (
                f"{text} {self.property_map(props, element)}"
                if text
                else self.property_map(props, element)
            )
        if where is not None:
            self.require(self.caps.inline_where, "inline WHERE", element)
            cond = "WHERE " + self.expr(where)
            text = f"{text} {cond}" if text else cond
        return text

    def property_map(self, props: e.Expr, owner: Node, *, empty_ok: bool = False) -> str:
        """``{k: v, …}``: GQL's property specifications take literal keys, not a map value."""
        if not isinstance(props, e.MapLiteral):
            raise self.unsupported(
                "property map parameter",
                owner,
                rewrite="list the properties: {name: $map.name}",
            )
        if not props.entries and not empty_ok:
            return ""
        entries = (f"{self.schema_name(k)}: {self.expr(v)}" for k, v in props.entries)
        return "{" + ", ".join(entries) + "}"

    @emits(p.Quantifier)
    def quantifier(self, quant: p.Quantifier) -> str:
        lower = self.count(quant.lower, quant)
        self.check_upper_bound(quant)
        if quant.upper is None:
            self.require(
                self.caps.unbounded_quantifiers,
                "unbounded quantifier",
                quant,
                rewrite=f"give it an upper bound, e.g. {{{lower},10}}, if the data allows",
            )
            return "{" + lower + ",}"
        upper = self.count(quant.upper, quant)
        return "{" + lower + "}" if quant.lower == quant.upper else "{" + lower + "," + upper + "}"

    def label_expr(self, labels: p.LabelExpr, need: int = 1) -> str:
        """``A&B|!C``, ``%``; ``!`` binds tighter than ``&``, which binds tighter than ``|``."""
        if isinstance(labels, p.Label):
            return self.schema_name(labels.name)
        if isinstance(labels, p.LabelAny):
            return "%"
        if isinstance(labels, (p.LabelNot, p.LabelAnd)) and self.caps.label_expressions == "or":
            word = "negation (!)" if isinstance(labels, p.LabelNot) else "conjunction (&)"
            raise self.unsupported(
                f"label {word}", labels, rewrite="test the label in the MATCH's WHERE"
            )
        if isinstance(labels, p.LabelNot):
            text, level = "!" + self.label_expr(labels.operand, 3), 3
        elif isinstance(labels, p.LabelAnd):
            text = self.label_expr(labels.left, 2) + "&" + self.label_expr(labels.right, 3)
            level = 2
        elif isinstance(labels, p.LabelOr):
            text = self.label_expr(labels.left, 1) + "|" + self.label_expr(labels.right, 2)
            level = 1
        else:
            raise self.unsupported(f"IR node {type(labels).__name__}", labels)
        return f"({text})" if level < need else text

    # =========================================================================================
    # names
    # =========================================================================================
    def quote(self, name: str) -> str:
        """A delimited identifier. An empty one is refused: GoogleSQL rejects it ("Invalid empty
        identifier") and SQL, whose rules GQL's follow, requires a non-empty body."""
        if not name:
            raise self.unsupported("empty name", None, rewrite="give the element a name")
        if self.caps.identifier_escape == "backslash":
            return quote_string(name, self.caps.identifier_quote)
        return quote_identifier(name, self.caps.identifier_quote)

    def usable_variable(self, name: str) -> bool:
        """Whether ``name`` can be written as a binding variable (under its own name)."""
        regular = is_plain_name(name) and name.upper() not in self.reserved
        return regular or self.caps.quoted_variables

    def variable_name(self, name: str, at: Node | None = None) -> str:
        """A binding variable: a regular identifier that is not reserved, or quoted where the
        dialect allows delimited variables; refused otherwise (never renamed)."""
        if is_plain_name(name) and name.upper() not in self.reserved:
            return name
        if self.caps.quoted_variables:
            return self.quote(name)
        if self.rename_variables:
            new = self.renamed.get(name)
            if new is None:
                new = self.fresh(name + "_" if is_plain_name(name) else "_g")
                self.renamed[name] = new
            return new
        raise self.unsupported(
            "variable name",
            at,
            message=f"{name!r} cannot be a variable in {self.dialect.name}: variables are "
            "regular identifiers that are not reserved words",
            rewrite="rename the variable",
        )

    def identifier(self, name: str) -> str:
        return self.variable_name(name)

    def column_name(self, name: str) -> str:
        """A result column's name: delimited when it is not a plain, unreserved word."""
        if is_plain_name(name) and name.upper() not in self.reserved:
            return name
        return self.quote(name)

    def schema_name(self, name: str) -> str:
        """A label, property key or record field: GQL's identifier excludes reserved words."""
        if is_plain_name(name) and name.upper() not in self.reserved:
            return name
        return self.quote(name)

    def qualified_name(self, name: str) -> str:
        return ".".join(self.schema_name(part) for part in name.split("."))

    def parameter(self, name: str) -> str:
        """``$name``; any other name (``$`1```) is delimited, which GQL's parameter names and
        GoogleSQL's both allow."""
        if is_plain_name(name):
            return self.caps.param_sigil + name
        return self.caps.param_sigil + self.quote(name)

    @property
    def used(self) -> set[str]:
        if self._used is None:
            self._used = names_in(self._root) if self._root is not None else set()
        return self._used

    def fresh(self, stem: str = "_g") -> str:
        """A variable name used nowhere in the query (``stem`` itself if it is free)."""
        if stem != "_g" and stem not in self.used and stem.upper() not in self.reserved:
            self.used.add(stem)
            return stem
        while True:
            self._fresh_count += 1
            name = f"{stem}{self._fresh_count}"
            if name not in self.used and name not in self.scope:
                self.used.add(name)
                return name

    # =========================================================================================
    # expressions
    # =========================================================================================
    def expr(self, node: e.Expr) -> str:
        """Render an expression after the rewrites that give it a GQL spelling."""
        return self.gen(self.lower(node))

    def operand(self, node: e.Expr, need: int) -> str:
        lowered = self.lower(node)
        text = self.gen(lowered)
        return f"({text})" if _level(lowered) < need else text

    def primary(self, node: e.Expr) -> str:
        """``node`` as a value expression primary (what IS NULL, ``.key`` and ``||`` take)."""
        lowered = self.lower(node)
        text = self.gen(lowered)
        return text if is_primary(lowered) else f"({text})"

    def binary(self, left: e.Expr, op: str, right: e.Expr, level: int) -> str:
        left_need = level + 1 if level == _PRED else level
        return f"{self.operand(left, left_need)} {op} {self.operand(right, level + 1)}"

    # -- rewrites ------------------------------------------------------------------------------
    def lower(self, node: e.Expr) -> e.Expr:
        """The walk over a list the pass gql-forms left because the list aggregates
        (:func:`gqlir.passes.list_walks.over_aggregate`): written once the projection has
        computed the aggregate first, else refused. Every other form is the passes'."""
        cls = type(node)
        if cls in _WALKS and (cls is not e.FunctionCall or node.name == "size"):  # type: ignore[attr-defined]
            return list_walks.over_aggregate(self, node)
        return node

    # -- literals ------------------------------------------------------------------------------
    @emits(e.Null)
    def null(self, node: e.Null) -> str:
        return "NULL"

    @emits(e.Boolean)
    def boolean(self, node: e.Boolean) -> str:
        return "TRUE" if node.value else "FALSE"

    @emits(e.Float)
    def float_(self, node: e.Float) -> str:
        value = self.finite_float(node)
        text = repr(value)
        if not self.caps.float_literal_exponent:
            return text
        # ISO GQL reads 1.5 as an exact number; an exponent makes it approximate (a float).
        mantissa, _, exponent = text.partition("e")
        return f"{mantissa}E{int(exponent) if exponent else 0}"

    @emits(e.TemporalLiteral)
    def temporal(self, node: e.TemporalLiteral) -> str:
        """``DATE '…'`` / GoogleSQL's ``TIMESTAMP '…'`` where the value has that form
        (:func:`gqlir.passes.function_support.literal_form`), else the constructor of its kind
        (DATE, ZONED_TIME, LOCAL_TIME, ZONED_DATETIME, LOCAL_DATETIME, DURATION), which Neo4j's
        analogous-cypher.adoc pairs with Cypher's date(), time() … one to one. ``TIME '…'`` and
        ``DATETIME '…'`` are not used: they are local or zoned by their text."""
        form = literal_form(node, self.caps)
        if form == "DATE":
            return "DATE " + self.string(node.text)
        if form == "TIMESTAMP":
            # GoogleSQL's TIMESTAMP literal: a zone name follows the time after a space
            return "TIMESTAMP " + self.string(re.sub(r"\[([^\]]+)\]$", r" \1", node.text))
        surface = self.function_name(node.kind.value, node)
        return f"{surface}({self.string(node.text)})"

    @emits(e.ListLiteral)
    def list_literal(self, node: e.ListLiteral) -> str:
        return "[" + ", ".join(self.expr(item) for item in node.items) + "]"

    @emits(e.MapLiteral)
    def map_literal(self, node: e.MapLiteral) -> str:
        self.require(
            self.caps.map_literals,
            "map value",
            node,
            rewrite="return the entries as separate columns",
        )
        entries = (f"{self.schema_name(key)}: {self.expr(value)}" for key, value in node.entries)
        return "{" + ", ".join(entries) + "}"

    @emits(e.Variable)
    def variable(self, node: e.Variable) -> str:
        return self.variable_name(node.name, node)

    # -- access ----------------------------------------------------------------------------------
    @emits(e.Property)
    def property(self, node: e.Property) -> str:
        kind = self.type_of(node.subject).kind
        if kind in TEMPORAL | {"duration", "point", "property"}:
            raise self.unsupported(
                "temporal accessor" if kind != "point" else "point accessor",
                node,
                message=f".{node.key} reads a component of a {kind} value, which "
                f"{self.dialect.name} has no syntax for",
            )
        if kind == "null" and not self.caps.literal_null_operands:
            # GoogleSQL types a bare NULL as INT64, which has no fields
            raise self.unsupported("property of a null value", node)
        if kind in ("integer", "float", "string", "boolean", "list", "path"):
            raise self.unsupported(
                "property of a non-element",
                node,
                message=f"a {kind} has no property {node.key!r}",
            )
        return f"{self.primary(node.subject)}.{self.schema_name(node.key)}"

    @emits(e.Index)
    def index(self, node: e.Index) -> str:
        raise self.unsupported("subscript", node)

    @emits(e.ArrayElement)
    def array_element(self, node: e.ArrayElement) -> str:
        word = ("SAFE_" if node.safe else "") + ("ORDINAL" if node.ordinal else "OFFSET")
        self.require(self.caps.googlesql_expressions, f"array subscript [{word}()]", node)
        return f"{self.primary(node.subject)}[{word}({self.expr(node.index)})]"

    @emits(e.SafeCast)
    def safe_cast(self, node: e.SafeCast) -> str:
        self.require(self.caps.googlesql_expressions, "SAFE_CAST", node)
        return f"SAFE_CAST({self.expr(node.operand)} AS {self.type_ref(node.type, node)})"

    @emits(e.Struct)
    def struct(self, node: e.Struct) -> str:
        self.require(self.caps.googlesql_expressions, "STRUCT", node)
        fields = []
        for f in node.fields:
            value = self.expr(f.value)
            fields.append(
                value if f.name is None else f"{value} AS {self.variable_name(f.name, node)}"
            )
        return "STRUCT(" + ", ".join(fields) + ")"

    @emits(e.Slice)
    def slice(self, node: e.Slice) -> str:
        raise self.unsupported("list slice", node)

    # -- operators -----------------------------------------------------------------------------
    @emits(e.Arithmetic)
    def arithmetic(self, node: e.Arithmetic) -> str:
        level = _ADD if node.op in (e.ArithOp.ADD, e.ArithOp.SUB) else _MUL
        if node.op is e.ArithOp.DIV_FLOAT:
            return self.binary(node.left, "/", node.right, level)
        if node.op not in (e.ArithOp.ADD, e.ArithOp.SUB, e.ArithOp.MUL, e.ArithOp.DIV):
            raise self.unsupported(f"operator {node.op.value}", node)
        return self.binary(node.left, node.op.value, node.right, level)

    @emits(e.Negate)
    def negate(self, node: e.Negate) -> str:
        text = self.operand(node.operand, _UNARY)
        if text[:1] in ("-", "+") or text[:1].isdigit():
            text = f"({text})"
        return "-" + text

    @emits(e.UnaryPlus)
    def unary_plus(self, node: e.UnaryPlus) -> str:
        text = self.operand(node.operand, _UNARY)
        if text[:1] in ("-", "+"):
            text = f"({text})"
        return "+" + text

    @emits(e.Concat)
    def concat(self, node: e.Concat) -> str:
        self.require(self.caps.concat_operator, "|| concatenation", node)
        left = self.lower(node.left)
        left_text = self.gen(left) if isinstance(left, e.Concat) else self.primary(left)
        return f"{left_text} || {self.primary(node.right)}"

    @emits(e.Comparison)
    def comparison(self, node: e.Comparison) -> str:
        return self.binary(node.left, node.op.value, node.right, _PRED)

    @emits(e.And)
    def and_(self, node: e.And) -> str:
        return self.binary(node.left, "AND", node.right, _AND)

    @emits(e.Or)
    def or_(self, node: e.Or) -> str:
        return self.binary(node.left, "OR", node.right, _OR)

    @emits(e.Xor)
    def xor(self, node: e.Xor) -> str:
        self.require(self.caps.xor_operator, "XOR", node)  # (boolean_forms writes it as <>)
        return self.binary(node.left, "XOR", node.right, _OR)

    @emits(e.Not)
    def not_(self, node: e.Not) -> str:
        # booleanFactor : NOT? booleanTest: the operand is a predicate or a primary, so a
        # nested NOT (or AND, OR) is parenthesised.
        return "NOT " + self.operand(node.operand, _PRED)

    @emits(e.IsTruth)
    def is_truth(self, node: e.IsTruth) -> str:
        test = " IS NOT " if node.negated else " IS "
        return self.primary(node.operand) + test + node.value.value

    @emits(e.IsNull)
    def is_null(self, node: e.IsNull) -> str:
        test = " IS NOT NULL" if node.negated else " IS NULL"
        return self.primary(node.operand) + test

    @emits(e.StringMatch)
    def string_match(self, node: e.StringMatch) -> str:
        raise self.unsupported(node.op.value, node)

    @emits(e.RegexMatch)
    def regex_match(self, node: e.RegexMatch) -> str:
        raise self.unsupported(
            "regular expression match",
            node,
            rewrite="no GQL operator matches a regular expression",
        )

    @emits(e.Like)
    def like(self, node: e.Like) -> str:
        word = "NOT LIKE" if node.negated else "LIKE"
        self.require(self.caps.like_operator, word, node)  # (its escape: the pass like-patterns)
        return self.binary(node.left, word, node.pattern, _PRED)

    @emits(e.In)
    def in_(self, node: e.In) -> str:
        """``x IN l``, or GoogleSQL's ``x IN UNNEST(l)`` (the pass gql-forms has guarded a list
        that may be null, :mod:`gqlir.passes.unnest_membership`)."""
        container = node.container
        if not self.caps.membership_unnest:
            self.require(self.caps.list_membership, "IN", node)
            item = self.operand(node.item, _PRED + 1)
            return f"{item} IN {self.operand(container, _PRED + 1)}"
        item = self.operand(node.item, _PRED + 1)
        if isinstance(container, e.CollectSubquery) and self.caps.array_subquery:
            return f"{item} IN {self.block(container.query, self.scope, expression=True)}"
        if is_guarded(container):
            container = container.args[0]  # type: ignore[attr-defined]
        return f"{item} IN UNNEST({self.expr(container)})"

    @emits(e.HasLabels)
    def has_labels(self, node: e.HasLabels) -> str:
        subject = self._element(node.subject, node, "label test on an expression")
        labels = self.label_expr(node.labels)
        if self.caps.is_labeled:
            return f"{subject} IS LABELED {labels}"
        self.require(self.caps.label_predicate, "label predicate", node)
        return f"{subject}:{labels}"

    # -- graph element predicates ----------------------------------------------------------
    def _element(self, node: e.Expr, at: Node, construct: str) -> str:
        """An element reference (the pass element-references refused any but a variable)."""
        if not isinstance(node, e.Variable):
            raise self.unsupported(construct, at)
        return self.variable_name(node.name, at)

    def _element_predicate(self, form: str, node: Node) -> None:
        self.require(form in self.caps.element_predicates, form, node)

    @emits(pr.IsDirected)
    def is_directed(self, node: pr.IsDirected) -> str:
        self._element_predicate("IS DIRECTED", node)
        subject = self._element(node.operand, node, "IS DIRECTED")
        return subject + (" IS NOT DIRECTED" if node.negated else " IS DIRECTED")

    @emits(pr.IsEndpoint)
    def is_endpoint(self, node: pr.IsEndpoint) -> str:
        self._element_predicate("IS SOURCE OF", node)
        construct = f"IS {node.endpoint.value} OF"
        subject = self._element(node.node, node, construct)
        edge = self._element(node.edge, node, construct)
        test = " IS NOT " if node.negated else " IS "
        return f"{subject}{test}{node.endpoint.value} OF {edge}"

    @emits(pr.Same, pr.AllDifferent)
    def element_list_predicate(self, node: pr.Same | pr.AllDifferent) -> str:
        name = "SAME" if isinstance(node, pr.Same) else "ALL_DIFFERENT"
        self._element_predicate(name, node)
        return f"{name}(" + ", ".join(self._element(x, node, name) for x in node.elements) + ")"

    @emits(pr.PropertyExists)
    def property_exists(self, node: pr.PropertyExists) -> str:
        self._element_predicate("PROPERTY_EXISTS", node)
        subject = self._element(node.subject, node, "PROPERTY_EXISTS")
        return f"PROPERTY_EXISTS({subject}, {self.schema_name(node.key)})"

    @emits(e.TypeTest)
    def type_test(self, node: e.TypeTest) -> str:
        self.require(self.caps.type_predicates, "type predicate", node)
        test = " IS NOT TYPED " if node.negated else " IS TYPED "
        return self.primary(node.operand) + test + self.type_ref(node.type, node)

    def type_ref(self, ref: e.TypeRef, at: Node) -> str:
        """A value type in the dialect's names (``INTEGER`` is ``INT64``, ``MAP`` ``RECORD``)."""
        if ref.alternatives:
            if ref.name != "ANY" or ref.element is not None:
                raise self.unsupported("value type", at)
            members = " | ".join(self.type_ref(member, at) for member in ref.alternatives)
            return f"ANY<{members}> NOT NULL" if ref.not_null else members
        if not _TYPE_NAME.fullmatch(ref.name):
            raise self.unsupported("value type", at, message=f"{ref.name!r} is not a type name")
        name = self._type_names.get(ref.name, ref.name)
        if name == "-":
            raise self.unsupported(f"type {ref.name}", at)
        text = name
        if ref.element is not None:
            text += "<" + self.type_ref(ref.element, at) + ">"
        if ref.not_null:
            text += " NOT NULL"
        return text

    @emits(e.Cast)
    def cast(self, node: e.Cast) -> str:
        self.require(self.caps.cast, "CAST", node)
        return f"CAST({self.expr(node.operand)} AS {self.type_ref(node.type, node)})"

    @emits(e.Case)
    def case(self, node: e.Case) -> str:
        """CASE, simple only where its operands are primaries (the pass case-forms)."""
        parts = ["CASE"]
        subject = node.subject
        if subject is not None:
            parts.append(self.gen(subject))
            parts.extend(
                f"WHEN {self.gen(when.condition)} THEN {self.expr(when.result)}"
                for when in node.whens
            )
        else:
            parts.extend(self.gen(when) for when in node.whens)
        if node.default is not None:
            parts.append("ELSE " + self.expr(node.default))
        parts.append("END")
        return " ".join(parts)

    @emits(e.CaseWhen)
    def case_when(self, node: e.CaseWhen) -> str:
        return f"WHEN {self.expr(node.condition)} THEN {self.expr(node.result)}"

    # -- calls ---------------------------------------------------------------------------------
    def function_name(self, canonical: str, node: Node) -> str:
        """A built-in's name in this dialect (a function it lacks was refused by the pass
        function-support; one a printer-time walk builds is refused here)."""
        surface = self.dialect.functions.get(canonical)
        if surface is None or canonical in self.caps.unsupported_functions:
            raise self.unsupported(f"function {canonical}()", node)
        return surface

    @emits(e.FunctionCall)
    def function_call(self, node: e.FunctionCall) -> str:
        name = node.name
        args = node.args
        if name in marks.CALLS:
            return self._marked_call(node)
        if name in DATE_PART_CALLS:
            return self._date_part_call(node)
        surface = self.function_name(name, node)
        if surface.startswith("@") and len(args) == 1:  # a system property: x.@id (TuGraph)
            return f"{self.primary(args[0])}.{surface}"
        if surface in _OPERATOR_SURFACES:  # an operator (TuGraph's bitwise ones), parenthesised
            if len(args) == 1:
                return f"({surface}{self.primary(args[0])})"
            return f"({self.primary(args[0])} {surface} {self.primary(args[1])})"
        return f"{surface}({', '.join(self.expr(arg) for arg in args)})"

    def _date_part_call(self, node: e.FunctionCall) -> str:
        """GoogleSQL's ``EXTRACT(part FROM d)`` and ``INTERVAL n part``, whose part is a keyword
        (held as a string argument in the IR, checked by the pass date-parts)."""
        surface = self.function_name(node.name, node)
        extract = node.name == PART_FIRST
        part = node.args[0] if extract else node.args[-1]
        assert isinstance(part, e.String)
        if extract:
            return f"{surface}({part.value} FROM {self.expr(node.args[1])})"
        if node.name == "googlesql.interval":
            return f"{surface} {self.primary(node.args[0])} {part.value}"
        values = ", ".join(self.expr(arg) for arg in node.args[:-1])
        return f"{surface}({values}, {part.value})"

    def _marked_call(self, node: e.FunctionCall) -> str:
        """Calls the rewrites build with fixed GQL spellings."""
        args = node.args
        if node.name == marks.MOD:
            return f"MOD({self.expr(args[0])}, {self.expr(args[1])})"
        if node.name == marks.POWER:
            return f"POWER({self.expr(args[0])}, {self.expr(args[1])})"
        if node.name == marks.ADD:
            return self.binary(args[0], "+", args[1], _ADD)
        if node.name == marks.EQ:
            return self.binary(args[0], "=", args[1], _PRED)
        if node.name in marks.STRING_FUNCTION_NAMES:
            return f"{node.name}({self.expr(args[0])}, {self.expr(args[1])})"
        if node.name in _NILADIC:
            return _NILADIC[node.name]
        if node.name == marks.TO_JSON:
            return self.caps.element_json_function + "(" + self.expr(args[0]) + ")"
        raise self.unsupported(f"function {node.name}()", node)

    @emits(e.Aggregate)
    def aggregate(self, node: e.Aggregate) -> str:
        name = node.name
        surface = self.function_name(aggregate_function(name), node)
        if len(node.args) != 1 and name not in ("percentilecont", "percentiledisc"):
            raise self.unsupported(f"function {name}()", node)
        args = ", ".join(self.expr(arg) for arg in node.args)
        if node.distinct:
            args = "DISTINCT " + args
        if name == marks.COLLECT and self.caps.collect_keeps_nulls:
            args += " IGNORE NULLS"
        return f"{surface}({args})"

    # -- constructions that only exist through rewrites ----------------------------------------
    @emits(e.ListComprehension)
    def list_comprehension(self, node: e.ListComprehension) -> str:
        raise self.unsupported("list comprehension", node)

    @emits(e.ListPredicate)
    def list_predicate(self, node: e.ListPredicate) -> str:
        raise self.unsupported(f"{node.quantifier.value}() list predicate", node)

    @emits(e.Reduce)
    def reduce(self, node: e.Reduce) -> str:
        raise self.unsupported("reduce", node)

    @emits(e.PatternComprehension)
    def pattern_comprehension(self, node: e.PatternComprehension) -> str:
        raise self.unsupported(
            "pattern comprehension",
            node,
            rewrite="a CALL subquery with MATCH … RETURN COLLECT_LIST(…) (which drops nulls)",
        )

    @emits(e.MapProjection)
    def map_projection(self, node: e.MapProjection) -> str:
        raise self.unsupported(
            "map projection", node, rewrite="return the properties as separate columns"
        )

    @emits(e.MapProjectionItem)
    def map_projection_item(self, node: e.MapProjectionItem) -> str:
        raise self.unsupported("map projection", node)

    # -- subqueries ----------------------------------------------------------------------------
    @emits(e.Exists)
    def exists(self, node: e.Exists) -> str:
        self.require(self.caps.exists_subquery, "EXISTS subquery", node)
        return "EXISTS " + self.block(node.query, self.scope, expression=True)

    @emits(e.CountSubquery)
    def count_subquery(self, node: e.CountSubquery) -> str:
        raise self.unsupported("COUNT subquery", node)

    @emits(e.CollectSubquery)
    def collect_subquery(self, node: e.CollectSubquery) -> str:
        if self.caps.array_subquery:
            return "ARRAY " + self.block(node.query, self.scope, expression=True)
        raise self.unsupported(
            "COLLECT subquery",
            node,
            rewrite="VALUE { … RETURN COLLECT_LIST(x) } where null elements may be dropped",
        )

    @emits(e.ValueSubquery)
    def value_subquery(self, node: e.ValueSubquery) -> str:
        self.require(self.caps.value_subquery, "VALUE subquery", node)
        return "VALUE " + self.block(node.query, self.scope, expression=True)

    # =========================================================================================
    # types
    # =========================================================================================
    def type_of(self, node: e.Expr) -> VType:
        """What is known of ``node``'s value in the current scope (see :class:`VType`)."""
        return self._types.of(node)


# -- helpers used by the generator ---------------------------------------------------------------


def _branch_graphs(query: q.Query) -> set[str | None]:
    """The graphs the branches of a set operation select first (None: a branch selects none)."""
    if isinstance(query, q.SetOperation):
        return _branch_graphs(query.left) | _branch_graphs(query.right)
    if isinstance(query, q.LinearQuery) and query.steps and isinstance(query.steps[0], q.UseGraph):
        return {query.steps[0].graph}
    return {None}


def _without_graph(query: q.Query) -> q.Query:
    if isinstance(query, q.SetOperation):
        return replace(query, left=_without_graph(query.left), right=_without_graph(query.right))
    assert isinstance(query, q.LinearQuery)
    return replace(query, steps=query.steps[1:])


#: Function surfaces that are operators (a dialect file spelling a function as one).
_OPERATOR_SURFACES = frozenset(["&", "|", "^", "<<", ">>", "~"])
#: GQL's niladic value functions (the pass temporal-calls writes date() and datetime() so)
_NILADIC = {marks.CURRENT_DATE: "CURRENT_DATE", marks.CURRENT_TIMESTAMP: "CURRENT_TIMESTAMP"}
#: Catalog references that are keywords, not names (kept upper-case by the GQL front end).
_PREDEFINED_REFS = frozenset(
    {
        "HOME_GRAPH",
        "HOME_PROPERTY_GRAPH",
        "CURRENT_GRAPH",
        "CURRENT_PROPERTY_GRAPH",
        "HOME_SCHEMA",
        "CURRENT_SCHEMA",
    }
)
#: What :meth:`GqlGenerator.lower` may still write as a walk.
_WALKS = frozenset({e.In, e.ListPredicate, e.Index, e.FunctionCall})


@functools.cache
def _type_names(pairs: tuple[str, ...]) -> dict[str, str]:
    """The dialect's type spellings (``INT64=INTEGER`` …) as a mapping (read, never changed)."""
    return dict(item.split("=", 1) for item in pairs)


def schema_graph(schema: Any) -> Any:
    """``schema`` as a SchemaGraph: one already, or anything :func:`gqlir.sqlmapping.mapping_for`
    reads (a graph folder, a schema file, a database)."""
    from ..schema.model import SchemaGraph

    if isinstance(schema, SchemaGraph):
        return schema
    from ..sqlmapping import mapping_for

    return mapping_for(schema).schema


def _level(node: e.Expr) -> int:
    """The precedence level of ``node``'s outermost operator (what its operands are
    parenthesised against)."""
    cls = type(node)
    level = _LEVELS.get(cls)
    if level is None:
        level = _LEVELS[cls] = _class_level(cls)
    if level != _BY_NODE:
        return level
    if isinstance(node, e.Arithmetic):
        return _ADD if node.op in (e.ArithOp.ADD, e.ArithOp.SUB) else _MUL
    if isinstance(node, e.FunctionCall) and node.name == marks.ADD:
        return _ADD  # written as a + b
    if isinstance(node, (e.Integer, e.Float)):
        return _UNARY if math.copysign(1.0, float(node.value)) < 0 else _ATOM
    return _ATOM


def _class_level(cls: type) -> int:
    """The level of every node of class ``cls``, or :data:`_BY_NODE` where it depends on the
    node (an arithmetic operator, a marked ``+``, a number's sign)."""
    if issubclass(cls, (e.Or, e.Xor)):
        return _OR
    if issubclass(cls, e.And):
        return _AND
    if issubclass(cls, e.Not):
        return _NOT
    if issubclass(
        cls,
        (
            e.Comparison,
            e.IsNull,
            e.IsTruth,
            e.HasLabels,
            e.TypeTest,
            e.In,
            e.Exists,
            e.Like,
            pr.IsDirected,
            pr.IsEndpoint,
        ),
    ):
        return _PRED
    if issubclass(cls, (e.Arithmetic, e.FunctionCall)):
        return _BY_NODE
    if issubclass(cls, e.Concat):
        return _ADD
    if issubclass(cls, (e.Negate, e.UnaryPlus)):
        return _UNARY
    if issubclass(cls, (e.Integer, e.Float)):
        return _BY_NODE
    if issubclass(cls, e.Property):
        return _POSTFIX
    return _ATOM


#: class -> its level (see _class_level), found once per class
_BY_NODE = -1
_LEVELS: dict[type, int] = {
    e.Variable: _ATOM,
    e.Parameter: _ATOM,
    e.String: _ATOM,
    e.Boolean: _ATOM,
    e.Null: _ATOM,
    e.Property: _POSTFIX,
}


def _conjunction(labels: p.LabelExpr) -> list[str] | None:
    """``A & B & C`` as names, or None if it is not a conjunction of plain labels."""
    if isinstance(labels, p.Label):
        return [labels.name]
    if isinstance(labels, p.LabelAnd):
        left, right = _conjunction(labels.left), _conjunction(labels.right)
        if left is not None and right is not None:
            return left + right
    return None


def emit_gql(
    node: Node,
    dialect: str | Dialect,
    *,
    pretty: bool = False,
    graph: str | None = None,
    spanner_elements: ElementPolicy = "refuse",
    rename_variables: bool = True,
    schema: Any = None,
) -> str:
    """:func:`gqlir.emitter.emit` with the GQL emitter's options (``graph``,
    ``spanner_elements``, ``rename_variables``, ``schema``: see :class:`GqlGenerator`); the
    dialect must be of the gql family."""
    from ..dialect import get_dialect

    target = get_dialect(dialect)
    if target.family != "gql":
        raise UnsupportedError(f"dialect family {target.family}", target.name)

    def printer() -> GqlGenerator:
        return GqlGenerator(
            target,
            pretty=pretty,
            graph=graph,
            spanner_elements=spanner_elements,
            rename_variables=rename_variables,
            schema=schema,
        )

    generator = printer()

    def lowered(node: Node) -> Node:
        return lower(
            node,
            target,
            properties=generator.property_kinds,
            schema=generator.graph_schema,
            options={"spanner_elements": spanner_elements},
        )

    try:
        generator.preflight(node)
        with stopping_at_refusals() as stopped:
            first = lowered(node)
        try:
            return generator.generate(first)
        except UnsupportedError as refused:
            if not stopped or refused.construct != UNLOWERED:
                raise
        # (written past a refusal a pass left, up to a step left unlowered: in full after all)
        return printer().generate(lowered(node))
    except RecursionError:
        raise UnsupportedError(
            "nesting depth",
            target.name,
            "the query is nested too deeply to be written out",
            offset=getattr(node, "pos", None),
        ) from None
