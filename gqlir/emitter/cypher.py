"""The Cypher-family emitter (Neo4j, openCypher 9, TuGraph, and later Kuzu).

Output is canonical and readable: upper-case keywords, one space around binary operators,
clauses separated by one space (or one per line with ``pretty``), the fewest parentheses that
keep ``parse(emit(x)) == x`` (see :mod:`gqlir.emitter.precedence`). What the target dialect cannot
express with the same meaning raises :class:`~gqlir.errors.UnsupportedError`; the decision is
always taken from the dialect's capabilities, never from its name.

Forms chosen where Cypher offers several (the Cypher builder reads each back to the same IR):

* a :class:`Filter` step is ``WITH * WHERE cond``, or ``WHERE cond`` attached to the ``WITH``
  of the projection it follows (``WITH … ORDER BY … LIMIT … WHERE cond`` filters after the
  limit, which is what the two IR steps mean). It is never merged into a ``MATCH``'s WHERE,
  whose meaning differs under OPTIONAL MATCH;
* a :class:`Let` is ``LET x = e`` or, without LET, ``WITH *, e AS x`` (the pass
  ``let-bindings`` has split a LET whose binding reads one bound before it);
* quantifiers: ``*``, ``*n``, ``*m..``, ``*m..n`` in star syntax; ``{n}``, ``{m,}``, ``{m,n}``
  in braces syntax and on parenthesised paths. A star-syntax dialect that also has quantified
  path patterns gets the braces form throughout a graph pattern that needs it (a path selector,
  a quantified path, a quantified relationship with WHERE): Neo4j refuses to mix the two;
* label expressions ``:A&B|!C`` with ``full`` label expressions, ``:A:B`` on nodes and
  ``:R1|R2`` on relationships with ``colon`` ones;
* an EXISTS subquery that is one plain MATCH is written in its short form
  ``EXISTS { (a)-->(b) WHERE … }`` where the dialect reads it (``exists_pattern_form``).

Meanings the printer does not decide: the lowering passes (:mod:`gqlir.passes`, the Cypher
family's in ``pipeline.LOWERINGS``) have rewritten the query before it writes it, relationship
uniqueness (``cypher-uniqueness``), GQL's element predicates (``element-predicates``), Kuzu's
null-giving ``sum``/``collect`` (``aggregate-defaults``), 1-based list positions
(``list-positions``) and ``REMOVE`` as ``SET … = null`` (``removed-properties``) among them;
what a pass refuses stays in the IR (:class:`~gqlir.ir.Untranslatable`,
:class:`~gqlir.ir.RefusedStep`, :class:`~gqlir.ir.RefusedSearch`) and is raised here where the
query writes it. What remains here are refusals of syntax the target lacks (a capability says
so) and the choice among spellings of one meaning (docs/architecture.md, "What is still decided
in the printers").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..dialect import Dialect
from ..ir import ddl as d
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import (
    column_name,
    reads_only,
)
from ..ir.node import Node
from ..passes.cypher_uniqueness import edges_may_repeat
from . import precedence as prec
from .base import emits, quote_identifier
from .graph import GraphTextGenerator

#: openCypher 9's reserved words, and the keywords gqlir's Cypher grammar never reads as a
#: variable; a variable, alias or function name spelled like one is quoted. Labels, types and
#: property keys may be any word and are not affected.
# fmt: off
CYPHER_RESERVED = frozenset({
    "ALL", "ASC", "ASCENDING", "BY", "CREATE", "DELETE", "DESC", "DESCENDING", "DETACH", "EXISTS",
    "LIMIT", "MATCH", "MERGE", "ON", "OPTIONAL", "ORDER", "REMOVE", "RETURN", "SET", "SKIP",
    "WHERE", "WITH", "UNION", "UNWIND", "AND", "AS", "CONTAINS", "DISTINCT", "ENDS", "IN", "IS",
    "NOT", "OR", "STARTS", "XOR", "CASE", "ELSE", "END", "THEN", "WHEN", "NULL", "TRUE", "FALSE",
    "CONSTRAINT", "DO", "FOR", "REQUIRE", "UNIQUE", "MANDATORY", "SCALAR", "OF", "ADD", "DROP",
    "NODETACH", "FOREACH", "CALL", "YIELD", "IF", "FROM", "FIELDTERMINATOR", "SHORTESTPATH",
    "ALLSHORTESTPATHS",
})
# fmt: on

# Function names that Cypher reads as special forms when followed by `(`: quoted when a plain
# function call has one of them as its name.
_SPECIAL_FORMS = frozenset({"all", "any", "none", "single", "reduce", "exists"})
# Variables that, followed by `{`, read as a subquery keyword instead of a map projection.
_SUBQUERY_WORDS = frozenset({"COUNT", "EXISTS", "COLLECT"})
# A list literal whose first item starts like this would read back as a list comprehension.
_COMPREHENSION_START = re.compile(r"(?:[^\W\d]\w*|`(?:[^`]|``)*`) IN\b")
_TYPE_NAME = re.compile(r"[A-Z][A-Z0-9_]*(?: [A-Z][A-Z0-9_]*)*")
_ON_ERROR = frozenset({"CONTINUE", "BREAK", "FAIL"})
_MATCH_MODE_WORDS = {
    p.MatchMode.DIFFERENT_EDGES: "DIFFERENT RELATIONSHIPS",
    p.MatchMode.REPEATABLE_ELEMENTS: "REPEATABLE ELEMENTS",
}
_ARROWS = {  # direction -> (opening, closing, abbreviated)
    p.Direction.OUT: ("-[", "]->", "-->"),
    p.Direction.IN: ("<-[", "]-", "<--"),
    p.Direction.EITHER: ("-[", "]-", "--"),
    p.Direction.BOTH: ("<-[", "]->", "<-->"),
    p.Direction.UNDIRECTED: ("~[", "]~", "~"),
}
_SHORTEST_FUNCTIONS = {
    p.SearchKind.ANY_SHORTEST: "shortestPath",
    p.SearchKind.ALL_SHORTEST: "allShortestPaths",
}

# Label-expression precedence: ! binds tighter than &, which binds tighter than |.
_L_OR, _L_AND, _L_NOT = 1, 2, 3


class CypherGenerator(GraphTextGenerator):
    """Renders Graph-IR as Cypher text for one Cypher-family dialect."""

    FAMILY_RESERVED = CYPHER_RESERVED

    def __init__(self, dialect: Dialect, *, pretty: bool = False) -> None:
        super().__init__(dialect, pretty=pretty)
        #: The quantifier syntax chosen for the graph pattern being written (None: the
        #: dialect's own).
        self.edge_syntax: str | None = None
        #: Words written after the ``*`` of the quantified relationship being written
        #: (``TRAIL``, ``SHORTEST``), for dialects that put path modes and searches there.
        self.star_words = ""

    def generate(self, node: Node) -> str:
        """Render a query, a single step (as a one-step query), or any expression or pattern,
        lowered already to what the dialect's expressions mean (:func:`gqlir.emitter.emit`
        runs :mod:`gqlir.passes.cypher_lowering`)."""
        self._root = node
        if isinstance(node, q.Step):
            return self.join_clauses(self.clauses((node,), node))
        return self.gen(node)

    def identifier(self, name: str) -> str:
        return super().identifier(self._writable(name))

    def schema_name(self, name: str) -> str:
        return super().schema_name(self._writable(name))

    def parameter(self, name: str) -> str:
        return super().parameter(self._writable(name))

    def _writable(self, name: str) -> str:
        """``name``, refused where the dialect cannot escape its quote character in a name
        (Kuzu keeps a doubled backtick as two)."""
        quote = self.caps.identifier_quote
        if self.caps.identifier_escape == "none" and quote in name:
            raise self.unsupported(
                "name with a quote character",
                None,
                message=f"{self.dialect.name} cannot write {quote} inside a name: {name!r}",
                rewrite="rename it",
            )
        return name

    # =========================================================================================
    # queries
    # =========================================================================================
    @emits(q.LinearQuery)
    def linear_query(self, query: q.LinearQuery) -> str:
        return self.join_clauses(self.clauses(query.steps, query))

    def clauses(
        self, steps: tuple[q.Step, ...], owner: Node, *, lead: str | None = None
    ) -> list[str]:
        """The clauses of a linear query. The last projection is the RETURN; a filter joins
        the WITH before it where Cypher lets it (see the module docstring)."""
        if not steps:
            raise self.unsupported("empty query", owner)
        out: list[str] = [] if lead is None else [lead]
        takes_where = False
        last = len(steps) - 1
        for i, step in enumerate(steps):
            if isinstance(step, q.Projection):
                final = i == last
                out.append(self.projection(step, final=final))
                # A filter on the projected columns may join the WITH (the parser reads it
                # back as the same filter step).
                takes_where = not final and step.where is None
                names = {column_name(item) for item in step.items}
            elif isinstance(step, q.Filter):
                if takes_where and (steps[i - 1].star or reads_only(step.condition, names)):
                    out[-1] = f"{out[-1]} WHERE {self.gen(step.condition)}"
                else:
                    out.append(self.filter(step))
                takes_where = False
            else:
                out.append(self.gen(step))
                takes_where = False
        return out

    @emits(q.SetOperation)
    def set_operation(self, query: q.SetOperation, lead: str | None = None) -> str:
        branches = self._set_branches(query)
        keyword = self._set_keyword(query)
        sep = self.clause_separator()
        texts = []
        for branch in branches:
            if isinstance(branch, q.LinearQuery):
                texts.append(self.join_clauses(self.clauses(branch.steps, branch, lead=lead)))
            elif lead is None:
                texts.append(self.gen(branch))
            else:
                raise self.unsupported(f"IR node {type(branch).__name__}", branch)
        return (sep + keyword + sep).join(texts)

    def _set_keyword(self, query: q.SetOperation) -> str:
        caps = self.caps
        if query.op is q.SetOp.UNION:
            if query.all:
                self.require(caps.union_all, "UNION ALL", query)
                return "UNION ALL"
            self.require(caps.union_distinct, "UNION", query)
            return "UNION"
        if query.op is q.SetOp.OTHERWISE:
            self.require(caps.otherwise, "OTHERWISE", query)
            if query.all:
                raise self.unsupported("OTHERWISE ALL", query)
            return "OTHERWISE"
        self.require(caps.except_intersect, query.op.value, query)
        return f"{query.op.value} ALL" if query.all else query.op.value

    @emits(q.ConditionalQuery)
    def conditional_query(self, query: q.ConditionalQuery) -> str:
        self.require(
            self.caps.conditional_queries,
            "conditional query",
            query,
            rewrite="one CALL subquery per branch, each filtered on its condition and the "
            "negation of the earlier ones, combined with UNION ALL",
        )
        parts = []
        for branch in query.branches:
            body = self.join_clauses(self.clauses(branch.query.steps, branch.query))
            parts.append(f"WHEN {self.gen(branch.condition)} THEN {body}")
        if query.otherwise is not None:
            body = self.join_clauses(self.clauses(query.otherwise.steps, query.otherwise))
            parts.append(f"ELSE {body}")
        return self.join_clauses(parts)

    def block(self, query: q.Query, *, lead: str | None = None) -> str:
        """A braced subquery body; ``lead`` is a clause written first in every branch (the
        importing WITH of a legacy CALL subquery)."""
        self.depth += 1
        try:
            if isinstance(query, q.LinearQuery):
                body = self.join_clauses(self.clauses(query.steps, query, lead=lead))
            elif isinstance(query, q.SetOperation):
                body = self.set_operation(query, lead)
            elif lead is None:
                body = self.gen(query)
            else:
                raise self.unsupported(f"IR node {type(query).__name__}", query)
        finally:
            self.depth -= 1
        if self.pretty:
            return "{\n" + "  " * (self.depth + 1) + body + "\n" + "  " * self.depth + "}"
        return "{ " + body + " }"

    # =========================================================================================
    # steps
    # =========================================================================================
    @emits(q.Projection)
    def projection_step(self, step: q.Projection) -> str:
        return self.projection(step, final=False)

    def projection(self, step: q.Projection, *, final: bool) -> str:
        if step.group_by is not None:
            raise self.unsupported(
                "explicit GROUP BY",
                step,
                rewrite="return the grouping keys as items: Cypher groups by the non-aggregate "
                "items of WITH/RETURN",
            )
        parts = ["RETURN" if final else "WITH"]
        if step.distinct:
            parts.append("DISTINCT")
        items = ["*"] if step.star else []
        items.extend(self.projected_item(item, final=final) for item in step.items)
        if not items:
            raise self.unsupported("empty projection", step)
        parts.append(", ".join(items))
        if step.order_by:
            parts.append("ORDER BY " + ", ".join(self.gen(item) for item in step.order_by))
        if step.skip is not None:
            parts.append("SKIP " + self.gen(step.skip))
        if step.limit is not None:
            parts.append("LIMIT " + self.gen(step.limit))
        if step.where is not None:
            if final:
                raise self.unsupported(
                    "RETURN … WHERE", step, rewrite="filter in a WITH before the RETURN"
                )
            parts.append("WHERE " + self.gen(step.where))
        return " ".join(parts)

    @emits(q.ReturnItem)
    def return_item(self, item: q.ReturnItem) -> str:
        return self.projected_item(item, final=False)

    def projected_item(self, item: q.ReturnItem, *, final: bool) -> str:
        """``expr AS alias``; the alias is left out where Cypher would give the column that
        name anyway: a variable's own name, or in RETURN the expression's text."""
        text = self.gen(item.expr)
        alias = item.alias
        if alias is None:
            return text
        if isinstance(item.expr, e.Variable) and alias == item.expr.name:
            return text
        if final and alias == text:
            return text
        return f"{text} AS {self.identifier(alias)}"

    @emits(q.SortItem)
    def sort_item(self, item: q.SortItem) -> str:
        key = self.gen(item.expr)
        text = f"{key} DESC" if item.descending else key
        # Where the dialect puts nulls when nothing is said: high values come last ascending.
        default_first = item.descending if self.caps.nulls_sort_high else not item.descending
        if item.nulls_first != default_first or not self.caps.null_order_fixed:
            if not self.caps.null_ordering_syntax:
                null_key = self.gen(e.IsNull(item.expr))
                order = " DESC" if item.nulls_first else ""
                raise self.unsupported(
                    "null ordering",
                    item,
                    rewrite=f"sort by `{null_key}{order}` before `{text}`",
                )
            text += " NULLS FIRST" if item.nulls_first else " NULLS LAST"
        return text

    @emits(q.Filter)
    def filter(self, step: q.Filter) -> str:
        return "WITH * WHERE " + self.gen(step.condition)

    @emits(q.Let)
    def let(self, step: q.Let) -> str:
        if not step.bindings:
            raise self.unsupported("empty LET", step)
        if self.caps.let_step:
            return "LET " + ", ".join(self.gen(b) for b in step.bindings)
        # (a binding that reads one before it is in a LET of its own: pass let-bindings)
        return "WITH *, " + ", ".join(
            f"{self.gen(b.value)} AS {self.identifier(b.variable)}" for b in step.bindings
        )

    @emits(q.Binding)
    def binding(self, binding: q.Binding) -> str:
        return f"{self.identifier(binding.variable)} = {self.gen(binding.value)}"

    @emits(q.Unwind)
    def unwind(self, step: q.Unwind) -> str:
        if step.index is not None:
            raise self.unsupported(
                "FOR WITH ORDINALITY",
                step,
                rewrite="UNWIND range(0, size(list) - 1) AS i WITH *, list[i] AS x "
                "(the position is i, plus 1 for ORDINALITY)",
            )
        return f"UNWIND {self.gen(step.source)} AS {self.identifier(step.variable)}"

    @emits(q.Match)
    def match(self, step: q.Match) -> str:
        if not step.patterns:
            raise self.unsupported("empty MATCH", step)
        parts = ["OPTIONAL MATCH" if step.optional else "MATCH"]
        mode = self.match_mode(step)
        if mode:
            parts.append(mode)
        parts.append(self.pattern_list(step.patterns))
        if step.where is not None:
            parts.append("WHERE " + self.gen(step.where))
        return " ".join(parts)

    def match_mode(self, step: q.Match) -> str:
        """Nothing for the dialect's default edge uniqueness, the mode's keywords otherwise.

        Where the dialect cannot write a mode, a MATCH with at most one fixed-length
        relationship means the same under either mode and is written without one.
        """
        if step.mode.name == self.caps.default_match_mode or not edges_may_repeat(step):
            return ""
        words = _MATCH_MODE_WORDS[step.mode]
        rewrite = None
        if step.mode is p.MatchMode.REPEATABLE_ELEMENTS:
            rewrite = "write each relationship pattern in its own MATCH clause"
        self.require(self.caps.match_modes, words, step, rewrite=rewrite)
        return words

    @emits(q.Create)
    def create(self, step: q.Create) -> str:
        keyword = self.caps.create_keyword.upper()
        if keyword not in ("CREATE", "INSERT"):
            raise self.unsupported(f"create keyword {keyword}", step)
        self.require(self.caps.graph_writes, keyword, step)
        if not step.patterns:
            raise self.unsupported(f"empty {keyword}", step)
        return f"{keyword} {self.pattern_list(step.patterns)}"

    @emits(q.Merge)
    def merge(self, step: q.Merge) -> str:
        self.require(self.caps.graph_writes and self.caps.merge, "MERGE", step)
        parts = ["MERGE " + self.pattern_list((step.pattern,))]
        parts.extend(self.gen(action) for action in step.actions)
        return " ".join(parts)

    @emits(q.MergeAction)
    def merge_action(self, action: q.MergeAction) -> str:
        head = "ON CREATE SET " if action.on_create else "ON MATCH SET "
        return head + self.set_items(action.items, action)

    @emits(q.SetClause)
    def set_clause(self, step: q.SetClause) -> str:
        self.require(self.caps.graph_writes, "SET", step)
        return "SET " + self.set_items(step.items, step)

    def set_items(self, items: tuple[q.SetItem, ...], owner: Node) -> str:
        if not items:
            raise self.unsupported("empty SET", owner)
        return ", ".join(self.gen(item) for item in items)

    @emits(q.SetProperty)
    def set_property(self, item: q.SetProperty) -> str:
        target = f"{self.postfix_subject(item.subject)}.{self.schema_name(item.key)}"
        return f"{target} = {self.gen(item.value)}"

    @emits(q.SetDynamicProperty)
    def set_dynamic_property(self, item: q.SetDynamicProperty) -> str:
        self.require(self.caps.dynamic_property, "dynamic property", item)
        target = f"{self.postfix_subject(item.subject)}[{self.gen(item.key)}]"
        return f"{target} = {self.gen(item.value)}"

    @emits(q.SetProperties)
    def set_properties(self, item: q.SetProperties) -> str:
        op = " += " if item.merge else " = "
        self.require(
            self.caps.set_map,
            "SET n" + op.rstrip() + " map",
            item,
            rewrite="set each property: SET n.k = map.k",
        )
        return self.identifier(item.variable) + op + self.gen(item.value)

    @emits(q.SetLabels, q.RemoveLabels)
    def label_list(self, item: q.SetLabels | q.RemoveLabels) -> str:
        if isinstance(item, q.SetLabels):
            self.require(self.caps.set_labels, "SET labels", item)
        if not item.labels:
            raise self.unsupported("empty label list", item)
        return self.identifier(item.variable) + "".join(
            ":" + self.schema_name(label) for label in item.labels
        )

    @emits(q.Remove)
    def remove(self, step: q.Remove) -> str:
        if not step.items:
            raise self.unsupported("empty REMOVE", step)
        self.require(self.caps.graph_writes and self.caps.remove_clause, "REMOVE", step)
        return "REMOVE " + ", ".join(self.gen(item) for item in step.items)

    @emits(q.RemoveProperty)
    def remove_property(self, item: q.RemoveProperty) -> str:
        return f"{self.postfix_subject(item.subject)}.{self.schema_name(item.key)}"

    @emits(q.Delete)
    def delete(self, step: q.Delete) -> str:
        self.require(self.caps.graph_writes, "DELETE", step)
        if not step.targets:
            raise self.unsupported("empty DELETE", step)
        keyword = "DETACH DELETE " if step.detach else "DELETE "
        return keyword + ", ".join(self.gen(target) for target in step.targets)

    @emits(q.Foreach)
    def foreach(self, step: q.Foreach) -> str:
        self.require(self.caps.graph_writes and self.caps.foreach, "FOREACH", step)
        if not step.body:
            raise self.unsupported("empty FOREACH", step)
        for inner in step.body:
            if not isinstance(inner, q.UPDATING_STEPS):
                raise self.unsupported(
                    "non-updating clause in FOREACH",
                    inner,
                    rewrite="use UNWIND followed by the clauses, or a CALL subquery",
                )
        body = " ".join(self.gen(inner) for inner in step.body)
        source = self.bar_safe(step.source)
        return f"FOREACH ({self.identifier(step.variable)} IN {source} | {body})"

    @emits(q.CallSubquery)
    def call_subquery(self, step: q.CallSubquery) -> str:
        caps = self.caps
        self.require(caps.call_subquery, "CALL subquery", step)
        keyword = "CALL"
        if step.optional:
            self.require(caps.optional_call, "OPTIONAL CALL", step)
            keyword = "OPTIONAL CALL"
        if caps.call_scope:
            if step.imports is None:
                scope = "(*)"
            else:
                scope = "(" + ", ".join(self.identifier(v) for v in step.imports) + ")"
            text = f"{keyword} {scope} {self.block(step.query)}"
        else:
            # Legacy form: the subquery opens with an importing WITH.
            lead = None
            if step.imports is None:
                lead = "WITH *"
            elif step.imports:
                lead = "WITH " + ", ".join(self.identifier(v) for v in step.imports)
            text = f"{keyword} {self.block(step.query, lead=lead)}"
        if step.in_transactions is not None:
            text = f"{text} {self.gen(step.in_transactions)}"
        return text

    @emits(q.InTransactions)
    def in_transactions(self, node: q.InTransactions) -> str:
        self.require(self.caps.call_in_transactions, "CALL IN TRANSACTIONS", node)
        parts = ["IN TRANSACTIONS"]
        if node.rows is not None:
            parts.append(f"OF {self.gen(node.rows)} ROWS")
        if node.on_error is not None:
            word = node.on_error.upper()
            if word not in _ON_ERROR:
                raise self.unsupported(
                    "ON ERROR behaviour",
                    node,
                    message=f"ON ERROR {node.on_error!r} cannot be expressed in "
                    f"{self.dialect.name} (known: CONTINUE, BREAK, FAIL)",
                )
            parts.append("ON ERROR " + word)
        if node.report_status is not None:
            parts.append("REPORT STATUS AS " + self.identifier(node.report_status))
        return " ".join(parts)

    @emits(q.ProcedureCall)
    def procedure_call(self, step: q.ProcedureCall) -> str:
        self.require(self.caps.procedure_calls, "procedure call", step)
        keyword = "CALL "
        if step.optional:
            self.require(self.caps.optional_call, "OPTIONAL CALL", step)
            keyword = "OPTIONAL CALL "
        text = keyword + self.qualified_name(step.name)
        if step.args is not None:
            text += "(" + ", ".join(self.gen(arg) for arg in step.args) + ")"
        if step.yield_star:
            if step.yields:
                raise self.unsupported("YIELD * with items", step)
            text += " YIELD *"
        elif step.yields is not None:
            if not step.yields:
                raise self.unsupported("empty YIELD", step)
            text += " YIELD " + ", ".join(self.gen(item) for item in step.yields)
        if step.where is not None:
            if not (step.yield_star or step.yields):
                raise self.unsupported(
                    "procedure WHERE without YIELD",
                    step,
                    rewrite="YIELD the fields the condition uses",
                )
            text += " WHERE " + self.gen(step.where)
        return text

    @emits(q.YieldItem)
    def yield_item(self, item: q.YieldItem) -> str:
        text = self.schema_name(item.field)
        if item.alias is not None:
            text = f"{text} AS {self.identifier(item.alias)}"
        return text

    @emits(q.UseGraph)
    def use_graph(self, step: q.UseGraph) -> str:
        self.require(self.caps.use_graph, "USE", step)
        return "USE " + self.qualified_name(step.graph)

    @emits(q.LoadCsv)
    def load_csv(self, step: q.LoadCsv) -> str:
        self.require(self.caps.load_csv, "LOAD CSV", step)
        parts = ["LOAD CSV"]
        if step.with_headers:
            parts.append("WITH HEADERS")
        parts.append(f"FROM {self.gen(step.source)} AS {self.identifier(step.variable)}")
        if step.field_terminator is not None:
            parts.append("FIELDTERMINATOR " + self.string(step.field_terminator))
        return " ".join(parts)

    # =========================================================================================
    # schema commands
    # =========================================================================================
    def schema_target(self, target: d.SchemaTarget) -> str:
        """The pattern of a schema command; its variable is ``n`` or ``r`` (the IR keeps none)."""
        labels = ":" + "|".join(self.schema_name(x) for x in target.labels) if target.labels else ""
        if target.kind is d.ElementKind.NODE:
            return f"(n{labels})"
        return f"()-[r{labels}]-()"

    def _target_properties(self, target: d.SchemaTarget, keys: tuple) -> list[str]:
        var = "n" if target.kind is d.ElementKind.NODE else "r"
        return [f"{var}.{self.schema_name(key)}" for key in keys]

    def _options(self, options: e.Expr | None) -> list[str]:
        return [] if options is None else ["OPTIONS " + self.gen(options)]

    @emits(d.CreateIndex)
    def create_index(self, node: d.CreateIndex) -> str:
        self.require(self.caps.schema_commands, "CREATE INDEX", node)
        kind = node.index_type
        if kind not in self.caps.index_types:
            raise self.unsupported(
                f"{self._keyword_word(kind, node)} index",
                node,
                rewrite="a RANGE index (CREATE INDEX)" if kind == "BTREE" else None,
            )
        parts = ["CREATE"]
        if kind != "RANGE":
            parts.append(kind)
        parts.append("INDEX")
        if node.name is not None:
            parts.append(self.schema_name(node.name))
        if node.if_not_exists:
            parts.append("IF NOT EXISTS")
        parts.append("FOR " + self.schema_target(node.target))
        props = self._target_properties(node.target, node.properties)
        if kind == "LOOKUP":
            node_kind = node.target.kind is d.ElementKind.NODE
            parts.append("ON EACH " + ("labels(n)" if node_kind else "type(r)"))
        elif kind == "FULLTEXT":
            parts.append("ON EACH [" + ", ".join(props) + "]")
        else:
            parts.append("ON (" + ", ".join(props) + ")")
        return " ".join(parts + self._options(node.options))

    @emits(d.CreateConstraint)
    def create_constraint(self, node: d.CreateConstraint) -> str:
        self.require(self.caps.schema_commands, "CREATE CONSTRAINT", node)
        element = "NODE" if node.target.kind is d.ElementKind.NODE else "RELATIONSHIP"
        kind = node.kind
        if f"{element} {kind.value}" not in self.caps.constraint_kinds:
            raise self.unsupported(f"{element.lower()} {kind.value} constraint", node)
        parts = ["CREATE CONSTRAINT"]
        if node.name is not None:
            parts.append(self.schema_name(node.name))
        if node.if_not_exists:
            parts.append("IF NOT EXISTS")
        parts.append("FOR " + self.schema_target(node.target))
        props = self._target_properties(node.target, node.properties)
        parts.append("REQUIRE " + (props[0] if len(props) == 1 else "(" + ", ".join(props) + ")"))
        if kind is d.ConstraintKind.UNIQUE:
            parts.append("IS UNIQUE")
        elif kind is d.ConstraintKind.NOT_NULL:
            parts.append("IS NOT NULL")
        elif kind is d.ConstraintKind.KEY:
            parts.append(f"IS {element} KEY")
        else:
            if node.property_type is None:
                raise self.unsupported("property type constraint without a type", node)
            parts.append("IS :: " + self.gen(node.property_type))
        return " ".join(parts + self._options(node.options))

    @emits(d.DropIndex, d.DropConstraint)
    def drop_schema_object(self, node: d.DropIndex | d.DropConstraint) -> str:
        what = "INDEX" if isinstance(node, d.DropIndex) else "CONSTRAINT"
        self.require(self.caps.schema_commands, f"DROP {what}", node)
        if node.name is None:
            return self._drop_by_schema(node, what)
        text = f"DROP {what} {self.schema_name(node.name)}"
        return text + " IF EXISTS" if node.if_exists else text

    def _drop_by_schema(self, node: d.DropIndex | d.DropConstraint, what: str) -> str:
        """Neo4j 4's DROP INDEX ON :L(p) / DROP CONSTRAINT ON … ASSERT …: Neo4j 5 drops only
        by name, and which name the database gave the object is not in the text."""
        self.require(
            self.caps.legacy_schema_syntax,
            f"DROP {what} by its definition",
            node,
            rewrite=f"find its name with SHOW {what.lower()}s and DROP {what} <name>",
        )
        target = node.target
        if target is None:
            raise self.unsupported(f"DROP {what} without a name or a definition", node)
        props = self._target_properties(target, node.properties)
        if isinstance(node, d.DropIndex):
            label = self.schema_name(target.labels[0])
            keys = ", ".join(self.schema_name(k) for k in node.properties)
            return f"DROP INDEX ON :{label}({keys})"
        listed = props[0] if len(props) == 1 else "(" + ", ".join(props) + ")"
        kind = node.kind
        if kind is d.ConstraintKind.UNIQUE:
            return f"DROP CONSTRAINT ON {self.schema_target(target)} ASSERT {listed} IS UNIQUE"
        if kind is d.ConstraintKind.KEY and target.kind is d.ElementKind.NODE:
            return f"DROP CONSTRAINT ON {self.schema_target(target)} ASSERT {listed} IS NODE KEY"
        if kind is d.ConstraintKind.NOT_NULL:
            return f"DROP CONSTRAINT ON {self.schema_target(target)} ASSERT {listed} IS NOT NULL"
        raise self.unsupported(f"DROP CONSTRAINT ON … ASSERT … IS {kind.value}", node)

    @emits(d.Show)
    def show(self, node: d.Show) -> str:
        self.require(self.caps.schema_commands, "SHOW", node)
        plural = {
            "INDEX": "INDEXES",
            "CONSTRAINT": "CONSTRAINTS",
            "PROCEDURE": "PROCEDURES",
            "FUNCTION": "FUNCTIONS",
            "DATABASE": "DATABASES",
            "TRANSACTION": "TRANSACTIONS",
            "SETTING": "SETTINGS",
        }
        words = ["SHOW"]
        if node.filter == "BTREE" and "BTREE" not in self.caps.index_types:
            raise self.unsupported("SHOW BTREE INDEXES", node, rewrite="SHOW RANGE INDEXES")
        if node.filter is not None:
            words.extend(self._keyword_word(w, node) for w in node.filter.split())
        words.append(self._keyword_word(plural.get(node.kind, node.kind), node))
        if node.yield_ is not None:
            words.append("YIELD " + self.projection(node.yield_, final=False).removeprefix("WITH "))
        if node.where is not None:
            words.append("WHERE " + self.gen(node.where))
        if node.return_ is not None:
            if node.yield_ is None:
                raise self.unsupported("SHOW … RETURN without YIELD", node)
            words.append(self.projection(node.return_, final=True))
        return " ".join(words)

    def _keyword_word(self, word: str, node: Node) -> str:
        """A keyword carried as data in the IR: it must be a plain word, never free text."""
        if not word.isalpha():
            raise self.unsupported("schema command keyword", node)
        return word.upper()

    # =========================================================================================
    # patterns
    # =========================================================================================
    def pattern_list(self, patterns: tuple[p.PathPattern, ...]) -> str:
        """The comma-separated path patterns of one graph pattern, with one quantifier syntax."""
        outer = self.edge_syntax
        if self.caps.quantified_paths and any(self._needs_braces(x) for x in patterns):
            self.edge_syntax = "braces"
        try:
            return ", ".join(self.gen(pattern) for pattern in patterns)
        finally:
            self.edge_syntax = outer

    def _needs_braces(self, pattern: p.PathPattern) -> bool:
        """Whether ``pattern`` is written with GQL-style syntax that Neo4j will not mix with
        ``-[*]->``: a path selector, a quantified path, a quantified relationship with WHERE."""
        search = pattern.search
        if (
            search is not None
            and self.shortest_function(pattern) is None
            and (search.kind is not p.SearchKind.ALL or self.caps.shortest_prefix)
        ):
            return True
        for inner in pattern.path.walk():
            if isinstance(inner, p.ParenPath):
                return True
            if isinstance(inner, p.RelPattern) and inner.quantifier and inner.where is not None:
                return True
        return False

    @emits(p.PathPattern)
    def path_pattern(self, pattern: p.PathPattern) -> str:
        if self.edge_syntax is None and self.caps.quantified_paths and self._needs_braces(pattern):
            return self.pattern_list((pattern,))
        head = "" if pattern.variable is None else self.identifier(pattern.variable) + " = "
        if pattern.search is not None:
            function = self.shortest_function(pattern)
            if function is not None:
                return head + function
        words = self.quantifier_words(pattern)
        if words:
            self.star_words = words
            try:
                return head + self.gen(pattern.path)
            finally:
                self.star_words = ""
        parts = []
        if pattern.search is not None:
            selector = self.search(pattern.search)
            if selector:
                parts.append(selector)
        if pattern.mode is not None:
            parts.append(self.path_mode(pattern.mode, pattern))
        parts.append(self.gen(pattern.path))
        return head + " ".join(parts)

    def quantifier_words(self, pattern: p.PathPattern) -> str:
        """``SHORTEST``, ``ALL SHORTEST`` or a path mode written inside the one quantified
        relationship of ``pattern`` (Kuzu's ``-[* SHORTEST 1..5]->``), or nothing where the
        dialect writes them elsewhere or the pattern is not one such relationship."""
        caps, search, mode = self.caps, pattern.search, pattern.mode
        by_search = search is not None and caps.shortest_in_quantifier and not caps.shortest_prefix
        by_mode = (
            mode is not None
            and mode.value not in caps.path_modes
            and mode.value in caps.quantifier_path_modes
        )
        if not (by_search or by_mode):
            return ""
        rel = _only_relationship(pattern.path)
        construct = search.kind.value if by_search else f"{mode.value} path mode"  # type: ignore[union-attr]
        if rel is None or rel.quantifier is None:
            raise self.unsupported(
                construct,
                pattern,
                message=f"{self.dialect.name} writes it inside the quantifier of a single "
                "variable-length relationship",
            )
        if rel.quantifier.lower < 1 or rel.quantifier.upper is None:
            raise self.unsupported(
                construct,
                rel.quantifier,
                message=f"{self.dialect.name} needs bounds from 1 to a given maximum here",
                rewrite="give the quantifier bounds 1..n",
            )
        if not by_search:
            return mode.value  # type: ignore[union-attr]
        if search.kind not in _QUANTIFIER_SEARCHES or (mode is not None and not by_mode):  # type: ignore[union-attr]
            raise self.unsupported(construct, search, message="only SHORTEST and ALL SHORTEST")
        if rel.quantifier.lower != 1 or rel.where is not None:
            raise self.unsupported(
                construct, rel, message=f"{self.dialect.name}'s shortest paths start at length 1"
            )
        self._check_search(search, pattern)
        return _QUANTIFIER_SEARCHES[search.kind]  # type: ignore[union-attr]

    def _check_search(self, search: p.Search | None, at: Node) -> None:
        """Raise the refusal a pass marked on ``search`` (shortest-ends), in whichever spelling
        the search is written."""
        if type(search) is p.RefusedSearch:
            raise self._pass_refusal(search.construct, search.message, search.rewrite, at.pos, at)

    def shortest_function(self, pattern: p.PathPattern) -> str | None:
        """``shortestPath(...)`` / ``allShortestPaths(...)`` where the dialect has them and the
        pattern is what they accept: one variable-length relationship of minimum length 0 or 1
        between two nodes, with no element WHERE on it and no path mode."""
        search = pattern.search
        name = _SHORTEST_FUNCTIONS.get(search.kind) if search is not None else None
        if name is None or not self.caps.shortest_function or pattern.mode is not None:
            return None
        chain = pattern.path
        if not isinstance(chain, p.PathChain) or len(chain.elements) != 3:
            return None
        left, rel, right = chain.elements
        if not (
            isinstance(left, p.NodePattern)
            and isinstance(rel, p.RelPattern)
            and isinstance(right, p.NodePattern)
            and rel.quantifier is not None
            and rel.quantifier.lower in (0, 1)
            and rel.where is None
        ):
            return None
        self._check_search(search, pattern)  # (written as the function: its mark raised here)
        inner = self.gen(left) + self.rel_pattern(rel, force_star=True) + self.gen(right)
        return f"{name}({inner})"

    @emits(p.Search)
    def search(self, search: p.Search) -> str:
        self._check_search(search, search)
        kind = search.kind
        if kind is p.SearchKind.ALL:
            # Every path is also what no prefix means: only written where it can be.
            return "ALL" if self.caps.shortest_prefix else ""
        if kind in (p.SearchKind.ANY_CHEAPEST, p.SearchKind.CHEAPEST_K):
            raise self.unsupported(kind.value, search)
        rewrite = None
        if kind in _SHORTEST_FUNCTIONS and self.caps.shortest_function:
            rewrite = (
                f"{_SHORTEST_FUNCTIONS[kind]}() takes a single variable-length relationship "
                "of minimum length 0 or 1 between two node patterns"
            )
        self.require(self.caps.shortest_prefix, kind.value, search, rewrite=rewrite)
        if kind is p.SearchKind.ANY:
            return "ANY" if search.k is None else "ANY " + self.count(search.k, search)
        if kind is p.SearchKind.ANY_SHORTEST:
            return "ANY SHORTEST"
        if kind is p.SearchKind.ALL_SHORTEST:
            return "ALL SHORTEST"
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
        if path.variable is not None:
            raise self.unsupported("subpath variable", path)
        parts = []
        if path.mode is not None:
            parts.append(self.path_mode(path.mode, path))
        parts.append(self.gen(path.path))
        if path.where is not None:
            parts.append("WHERE " + self.gen(path.where))
        text = "(" + " ".join(parts) + ")"
        if path.quantifier is not None:
            text += self.gen(path.quantifier)
        return text

    @emits(p.NodePattern)
    def node_pattern(self, node: p.NodePattern) -> str:
        inner = "" if node.variable is None else self.identifier(node.variable)
        if node.labels is not None:
            inner += self.node_labels(node.labels, node)
        if node.properties is not None:
            props = self.element_properties(node.properties)
            inner = f"{inner} {props}" if inner else props
        if node.where is not None:
            inner = self._inline_where(inner, node.where, node)
        return "(" + inner + ")"

    @emits(p.RelPattern)
    def rel_pattern_node(self, rel: p.RelPattern) -> str:
        return self.rel_pattern(rel)

    def rel_pattern(self, rel: p.RelPattern, *, force_star: bool = False) -> str:
        """A relationship pattern; ``force_star`` writes its quantifier in star syntax (inside
        ``shortestPath()``, whatever the dialect's usual syntax)."""
        if rel.direction is p.Direction.UNDIRECTED:
            self.require(self.caps.undirected_edges, "undirected edge", rel)
        if rel.cost is not None:
            raise self.unsupported("edge cost", rel, rewrite="sum the costs in a CALL subquery")
        opening, closing, abbreviated = _ARROWS[rel.direction]
        star = braces = ""
        if rel.quantifier is not None:
            syntax = "star" if force_star else self.edge_syntax or self.caps.quantified_edge_syntax
            if syntax == "star" and rel.where is not None and not force_star:
                # `*m..n` cannot carry an element WHERE: the braces form can.
                self.require(
                    self.caps.quantified_paths,
                    "quantified relationship with WHERE",
                    rel,
                    rewrite="test the relationships in the MATCH WHERE, e.g. "
                    "all(r IN rels WHERE ...)",
                )
                syntax = "braces"
            if syntax == "star":
                star = self.star_quantifier(rel.quantifier)
            elif syntax == "braces":
                braces = self.gen(rel.quantifier)
            else:
                raise self.unsupported("quantified relationship", rel)
        inner = "" if rel.variable is None else self.identifier(rel.variable)
        if rel.types is not None:
            inner += self.rel_types(rel.types, rel)
        inner += star
        if rel.properties is not None:
            props = self.element_properties(rel.properties)
            inner = f"{inner} {props}" if inner else props
        if rel.where is not None:
            inner = self._inline_where(inner, rel.where, rel)
        if not inner and not star and self.caps.anonymous_edge_shorthand:
            return abbreviated + braces
        return opening + inner + closing + braces

    def _inline_where(self, inner: str, where: e.Expr, element: Node) -> str:
        self.require(
            self.caps.inline_where,
            "inline WHERE",
            element,
            rewrite="move the condition into the MATCH ... WHERE",
        )
        condition = "WHERE " + self.gen(where)
        return f"{inner} {condition}" if inner else condition

    def element_properties(self, props: e.Expr) -> str:
        if not isinstance(props, (e.MapLiteral, e.Parameter)):
            raise self.unsupported(
                "property map expression",
                props,
                rewrite="compare the properties in WHERE",
            )
        return self.gen(props)

    def star_quantifier(self, quant: p.Quantifier) -> str:
        """Cypher 9 variable length: ``*`` (1 or more), ``*n``, ``*m..``, ``*m..n``; with words
        inside the quantifier (Kuzu), ``* TRAIL m..n`` with both bounds."""
        lower = self.count(quant.lower, quant)
        self.check_upper_bound(quant)
        if self.star_words:
            words, self.star_words = self.star_words, ""
            return f"* {words} {lower}..{self.count(quant.upper, quant)}"
        if quant.upper is None:
            self._check_unbounded(quant)
            return "*" if quant.lower == 1 else f"*{lower}.."
        upper = self.count(quant.upper, quant)
        return f"*{lower}" if quant.lower == quant.upper else f"*{lower}..{upper}"

    @emits(p.Quantifier)
    def brace_quantifier(self, quant: p.Quantifier) -> str:
        """GQL-style bounds: ``{n}``, ``{m,}``, ``{m,n}``."""
        lower = self.count(quant.lower, quant)
        self.check_upper_bound(quant)
        if quant.upper is None:
            self._check_unbounded(quant)
            return "{" + lower + ",}"
        upper = self.count(quant.upper, quant)
        return "{" + lower + "}" if quant.lower == quant.upper else "{" + lower + "," + upper + "}"

    def _check_unbounded(self, quant: p.Quantifier) -> None:
        self.require(
            self.caps.unbounded_quantifiers,
            "unbounded quantifier",
            quant,
            rewrite="give the quantifier an upper bound",
        )

    # -- labels -------------------------------------------------------------------------------
    def node_labels(self, labels: p.LabelExpr, node: Node) -> str:
        mode = self.caps.label_expressions
        limit = self.caps.max_node_labels
        if mode == "full":
            names = _conjunction(labels)
            if limit and names is not None and len(names) > limit:
                raise self.unsupported("multiple labels", node, rewrite=_LABEL_REWRITE)
            return ":" + self.label_expr(labels)
        names = self._plain_labels(labels, mode, self._colon_list(node), node)
        if limit and len(names) > limit:
            raise self.unsupported("multiple labels", node, rewrite=_LABEL_REWRITE)
        return "".join(":" + self.schema_name(name) for name in names)

    def _colon_list(self, node: Node) -> Callable[[p.LabelExpr], list[str] | None]:
        """How ``:A:B`` reads in this dialect: all of the labels, or any of them (Kuzu)."""
        meaning = self.caps.colon_labels
        if meaning == "and":
            return _conjunction
        if meaning == "or":
            return _disjunction
        raise self.unsupported(f"label lists meaning {meaning!r}", node)

    def rel_types(self, types: p.LabelExpr, node: Node) -> str:
        mode = self.caps.label_expressions
        if mode == "full":
            return ":" + self.label_expr(types)
        names = self._plain_labels(types, mode, _disjunction, node)
        return ":" + "|".join(self.schema_name(name) for name in names)

    def _plain_labels(
        self,
        labels: p.LabelExpr,
        mode: str,
        flatten: Callable[[p.LabelExpr], list[str] | None],
        node: Node,
    ) -> list[str]:
        """The names of a label expression the dialect can only write as a list of names."""
        if mode == "colon":
            names = flatten(labels)
        elif mode == "single":
            names = [labels.name] if isinstance(labels, p.Label) else None
        else:
            raise self.unsupported(f"label expressions ({mode})", node)
        if names is None:
            raise self.unsupported("label expression", node, rewrite=_LABEL_REWRITE)
        return names

    def label_expr(self, labels: p.LabelExpr, need: int = _L_OR) -> str:
        """A full label expression (``A&B|!C``, ``%``) with parentheses from precedence."""
        if isinstance(labels, p.Label):
            return self.schema_name(labels.name)
        if isinstance(labels, p.LabelAny):
            return "%"
        if isinstance(labels, p.LabelNot):
            text, level = "!" + self.label_expr(labels.operand, _L_NOT), _L_NOT
        elif isinstance(labels, p.LabelAnd):
            text = (
                self.label_expr(labels.left, _L_AND) + "&" + self.label_expr(labels.right, _L_NOT)
            )
            level = _L_AND
        elif isinstance(labels, p.LabelOr):
            text = self.label_expr(labels.left, _L_OR) + "|" + self.label_expr(labels.right, _L_AND)
            level = _L_OR
        else:
            raise self.unsupported(f"IR node {type(labels).__name__}", labels)
        return f"({text})" if level < need else text

    # =========================================================================================
    # expressions
    # =========================================================================================
    def operand(self, node: e.Expr, need: int) -> str:
        """``node`` rendered, parenthesised if it binds less tightly than ``need`` (or, where
        the dialect ranks operators otherwise than Cypher, if it is an operator at all)."""
        text = self.gen(node)
        level = prec.precedence(node)
        if self.caps.operator_parentheses and level < prec.LABEL_TEST:
            return f"({text})"
        return f"({text})" if level < need else text

    def postfix_subject(self, node: e.Expr) -> str:
        """The subject of ``.key``, ``[i]`` or a label test. A number is parenthesised too:
        ``1.x`` would lex as the start of a float."""
        if isinstance(node, (e.Integer, e.Float)):
            return "(" + self.gen(node) + ")"
        return self.operand(node, prec.POSTFIX)

    def binary(self, left: e.Expr, op: str, right: e.Expr, level: int) -> str:
        left_need = level + 1 if level in prec.NON_ASSOCIATIVE else level
        return f"{self.operand(left, left_need)} {op} {self.operand(right, level + 1)}"

    def bar_safe(self, node: e.Expr) -> str:
        """``node`` where a ``|`` follows it (comprehensions, reduce, FOREACH): parenthesised
        if it ends in a label or type union whose ``|`` would run on."""
        text = self.gen(node)
        return f"({text})" if _has_bar(node) else text

    # -- literals ------------------------------------------------------------------------------
    @emits(e.Null)
    def null(self, node: e.Null) -> str:
        return "null"

    @emits(e.Boolean)
    def boolean(self, node: e.Boolean) -> str:
        return "true" if node.value else "false"

    @emits(e.Float)
    def float_(self, node: e.Float) -> str:
        value = self.finite_float(node)
        # repr round-trips exactly; Cypher 9 exponents take no '+' sign.
        return repr(value).replace("e+", "e")

    @emits(e.TemporalLiteral)
    def temporal(self, node: e.TemporalLiteral) -> str:
        if self.caps.temporal_literals != "function":
            raise self.unsupported("temporal literal", node)
        name = self.function_name(node.kind.value, node)
        return f"{name}({self.string(node.text)})"

    @emits(e.ListLiteral)
    def list_literal(self, node: e.ListLiteral) -> str:
        items = [self.gen(item) for item in node.items]
        if items and _COMPREHENSION_START.match(items[0]):
            items[0] = f"({items[0]})"
        return "[" + ", ".join(items) + "]"

    @emits(e.MapLiteral)
    def map_literal(self, node: e.MapLiteral) -> str:
        entries = (f"{self.schema_name(key)}: {self.gen(value)}" for key, value in node.entries)
        return "{" + ", ".join(entries) + "}"

    @emits(e.Variable)
    def variable(self, node: e.Variable) -> str:
        return self.identifier(node.name)

    # -- access ----------------------------------------------------------------------------------
    @emits(e.Property)
    def property(self, node: e.Property) -> str:
        return f"{self.postfix_subject(node.subject)}.{self.schema_name(node.key)}"

    @emits(e.Index)
    def index(self, node: e.Index) -> str:
        self.require(self.caps.subscript, "subscript", node)
        return f"{self.postfix_subject(node.subject)}[{self.gen(node.index)}]"

    @emits(e.Slice)
    def slice(self, node: e.Slice) -> str:
        self.require(self.caps.slicing and self.caps.slice_syntax == "..", "list slice", node)
        start = "" if node.start is None else self.gen(node.start)
        end = "" if node.end is None else self.gen(node.end)
        return f"{self.postfix_subject(node.subject)}[{start}..{end}]"

    # -- operators -----------------------------------------------------------------------------
    @emits(e.Arithmetic)
    def arithmetic(self, node: e.Arithmetic) -> str:
        return self.binary(node.left, node.op.value, node.right, prec.ARITHMETIC[node.op])

    @emits(e.Negate)
    def negate(self, node: e.Negate) -> str:
        text = self.operand(node.operand, prec.UNARY)
        # `-5` would read back as the literal -5, `--x` as an arrow, `-[` as a relationship.
        if text[:1] in ("-", "[") or text[:1].isdigit():
            text = f"({text})"
        return "-" + text

    @emits(e.UnaryPlus)
    def unary_plus(self, node: e.UnaryPlus) -> str:
        text = self.operand(node.operand, prec.UNARY)
        if text[:1] in ("-", "+"):
            text = f"({text})"
        return "+" + text

    @emits(e.Concat)
    def concat(self, node: e.Concat) -> str:
        self.require(
            self.caps.concat_operator,
            "|| concatenation",
            node,
            rewrite="`+` concatenates when both operands are strings or both are lists",
        )
        return self.binary(node.left, "||", node.right, prec.ADDITIVE)

    @emits(e.Comparison)
    def comparison(self, node: e.Comparison) -> str:
        return self.binary(node.left, node.op.value, node.right, prec.COMPARISON)

    @emits(e.And)
    def and_(self, node: e.And) -> str:
        return self.binary(node.left, "AND", node.right, prec.AND)

    @emits(e.Or)
    def or_(self, node: e.Or) -> str:
        return self.binary(node.left, "OR", node.right, prec.OR)

    @emits(e.Xor)
    def xor(self, node: e.Xor) -> str:
        return self.binary(node.left, "XOR", node.right, prec.XOR)

    @emits(e.Not)
    def not_(self, node: e.Not) -> str:
        return "NOT " + self.operand(node.operand, prec.NOT)

    @emits(e.IsTruth)
    def is_truth(self, node: e.IsTruth) -> str:
        rewrite = {
            e.TruthValue.TRUE: "coalesce(x = true, false)",
            e.TruthValue.FALSE: "coalesce(x = false, false)",
            e.TruthValue.UNKNOWN: "x IS NULL",
        }[node.value]
        if node.negated:
            rewrite = (
                f"NOT {rewrite}" if node.value is not e.TruthValue.UNKNOWN else "x IS NOT NULL"
            )
        raise self.unsupported(f"IS {node.value.value}", node, rewrite=rewrite)

    @emits(e.IsNull)
    def is_null(self, node: e.IsNull) -> str:
        test = " IS NOT NULL" if node.negated else " IS NULL"
        return self.operand(node.operand, prec.PREDICATE + 1) + test

    @emits(e.StringMatch)
    def string_match(self, node: e.StringMatch) -> str:
        self.require(self.caps.string_predicates, node.op.value, node)
        return self.binary(node.left, node.op.value, node.right, prec.PREDICATE)

    @emits(e.RegexMatch)
    def regex_match(self, node: e.RegexMatch) -> str:
        self.require(self.caps.regex_match, "regular expression match", node)
        return self.binary(node.left, "=~", node.right, prec.PREDICATE)

    @emits(e.Like)
    def like(self, node: e.Like) -> str:
        raise self.unsupported(
            "NOT LIKE" if node.negated else "LIKE",
            node,
            rewrite="a regular expression: x =~ '(?s)' + pattern with % as .* and _ as . "
            "(other characters escaped)",
        )

    @emits(e.In)
    def in_(self, node: e.In) -> str:
        self.require(self.caps.list_membership, "IN", node)
        return self.binary(node.item, "IN", node.container, prec.PREDICATE)

    @emits(e.HasLabels)
    def has_labels(self, node: e.HasLabels) -> str:
        self.require(
            self.caps.label_predicate,
            "label predicate",
            node,
            rewrite="'A' IN labels(n)",
        )
        subject = self.postfix_subject(node.subject)
        labels = node.labels
        mode = self.caps.label_expressions
        if mode == "full":
            return subject + ":" + self.label_expr(labels)
        names = self._plain_labels(labels, mode, self._colon_list(node), node)
        return subject + "".join(":" + self.schema_name(name) for name in names)

    @emits(e.TypeTest)
    def type_test(self, node: e.TypeTest) -> str:
        self.require(
            self.caps.type_predicates,
            "type predicate",
            node,
            rewrite="valueType(x) = 'INTEGER' or the type functions (toInteger ...)",
        )
        test = " IS NOT :: " if node.negated else " IS :: "
        operand = self.operand(node.operand, prec.PREDICATE + 1)
        return operand + test + self.type_ref(node.type, node)

    def type_ref(self, ref: e.TypeRef, at: Node) -> str:
        """A type: ``INTEGER``, ``LIST<STRING> NOT NULL``, ``INTEGER | STRING``.

        A closed union is a TypeRef named ANY with alternatives; written bare, or as
        ``ANY<...> NOT NULL`` when the whole union excludes null.
        """
        if ref.alternatives:
            if ref.name != "ANY" or ref.element is not None:
                raise self.unsupported(
                    "value type", at, message=f"a type union named {ref.name!r} is not a type"
                )
            members = " | ".join(self.type_ref(member, at) for member in ref.alternatives)
            return f"ANY<{members}> NOT NULL" if ref.not_null else members
        if not _TYPE_NAME.fullmatch(ref.name):
            raise self.unsupported("value type", at, message=f"{ref.name!r} is not a type name")
        text = ref.name
        if ref.element is not None:
            text += "<" + self.type_ref(ref.element, at) + ">"
        elif ref.name == "LIST":
            text += "<ANY>"  # Cypher names a list type with its element type
        if ref.not_null:
            text += " NOT NULL"
        return text

    @emits(e.Cast)
    def cast(self, node: e.Cast) -> str:
        self.require(
            self.caps.cast,
            "CAST",
            node,
            rewrite="toInteger()/toFloat()/toString()/toBoolean() (null on failure, not an error)",
        )
        return f"CAST({self.gen(node.operand)} AS {self.type_ref(node.type, node)})"

    @emits(e.Case)
    def case(self, node: e.Case) -> str:
        if not node.whens:
            raise self.unsupported("CASE without WHEN", node)
        parts = ["CASE"]
        if node.subject is not None:
            parts.append(self.gen(node.subject))
        parts.extend(self.gen(when) for when in node.whens)
        if node.default is not None:
            parts.append("ELSE " + self.gen(node.default))
        parts.append("END")
        return " ".join(parts)

    @emits(e.CaseWhen)
    def case_when(self, node: e.CaseWhen) -> str:
        return f"WHEN {self.gen(node.condition)} THEN {self.gen(node.result)}"

    # -- calls ---------------------------------------------------------------------------------
    def function_name(self, canonical: str, node: Node) -> str:
        """A function's name in this dialect, quoted where it would read as something else.

        Only the family's own keywords make the first part quoted: a dialect's reserved words
        (Neo4j lists COUNT) do not stop ``count(...)`` from being a call.
        """
        if canonical in self.caps.unsupported_functions:
            raise self.unsupported(f"function {canonical}()", node)
        surface = self.dialect.function_name(canonical)
        quote = self.caps.identifier_quote
        if surface.lower() in _SPECIAL_FORMS:
            return quote_identifier(surface, quote)
        first, dot, rest = surface.partition(".")
        head = self.schema_name(first)
        if first.upper() in self.FAMILY_RESERVED:
            head = quote_identifier(first, quote)
        return head + dot + (self.qualified_name(rest) if dot else "")

    @emits(e.FunctionCall)
    def function_call(self, node: e.FunctionCall) -> str:
        name = self.function_name(node.name, node)
        return f"{name}({', '.join(self.gen(arg) for arg in node.args)})"

    @emits(e.Aggregate)
    def aggregate(self, node: e.Aggregate) -> str:
        name = self.function_name(node.name, node)
        args = ", ".join(self.gen(arg) for arg in node.args)
        return f"{name}(DISTINCT {args})" if node.distinct else f"{name}({args})"

    # -- list and map constructions ------------------------------------------------------------
    @emits(e.ListComprehension)
    def list_comprehension(self, node: e.ListComprehension) -> str:
        self.require(self.caps.list_comprehension, "list comprehension", node)
        has_projection = node.projection is not None
        source = (
            self.bar_safe(node.source)
            if has_projection and node.where is None
            else self.gen(node.source)
        )
        text = f"[{self.identifier(node.variable)} IN {source}"
        if node.where is not None:
            where = self.bar_safe(node.where) if has_projection else self.gen(node.where)
            text += " WHERE " + where
        if node.projection is not None:
            text += " | " + self.gen(node.projection)
        return text + "]"

    @emits(e.ListPredicate)
    def list_predicate(self, node: e.ListPredicate) -> str:
        self.require(self.caps.list_predicates, f"{node.quantifier.value}() list predicate", node)
        text = (
            f"{node.quantifier.value}({self.identifier(node.variable)} IN {self.gen(node.source)}"
        )
        if node.predicate is not None:
            text += " WHERE " + self.gen(node.predicate)
        return text + ")"

    @emits(e.Reduce)
    def reduce(self, node: e.Reduce) -> str:
        self.require(self.caps.reduce, "reduce", node)
        return (
            f"reduce({self.identifier(node.accumulator)} = {self.gen(node.init)}, "
            f"{self.identifier(node.variable)} IN {self.bar_safe(node.source)} | "
            f"{self.gen(node.expression)})"
        )

    @emits(e.PatternComprehension)
    def pattern_comprehension(self, node: e.PatternComprehension) -> str:
        self.require(self.caps.pattern_comprehension, "pattern comprehension", node)
        text = "[" + self.pattern_list((node.pattern,))
        if node.where is not None:
            text += " WHERE " + self.bar_safe(node.where)
        return f"{text} | {self.gen(node.projection)}]"

    @emits(e.MapProjection)
    def map_projection(self, node: e.MapProjection) -> str:
        self.require(self.caps.map_projection, "map projection", node)
        subject = self.identifier(node.subject)
        if node.subject.upper() in _SUBQUERY_WORDS:
            subject = quote_identifier(node.subject, self.caps.identifier_quote)
        items = ", ".join(self.gen(item) for item in node.items)
        return f"{subject} {{{items}}}"

    @emits(e.MapProjectionItem)
    def map_projection_item(self, item: e.MapProjectionItem) -> str:
        kind = item.kind
        if kind is e.MapItemKind.PROPERTY:
            return "." + self.schema_name(item.key)
        if kind is e.MapItemKind.VARIABLE:
            return self.identifier(item.key)
        if kind is e.MapItemKind.ALL:
            return ".*"
        if item.value is None:
            raise self.unsupported("map projection entry without a value", item)
        return f"{self.schema_name(item.key)}: {self.gen(item.value)}"

    # -- subqueries ----------------------------------------------------------------------------
    @emits(e.Exists)
    def exists(self, node: e.Exists) -> str:
        match = self._single_plain_match(node.query)
        steps = getattr(node.query, "steps", ())
        # one relationship means the same under either match mode
        predicate = match or (
            steps[0]
            if len(steps) == 1 and isinstance(steps[0], q.Match) and not steps[0].optional
            and not edges_may_repeat(steps[0])
            else None
        )  # fmt: skip
        if (
            not self.caps.exists_subquery
            and self.caps.pattern_predicate
            and node.pattern_predicate  # read as one: no new variables, a relationship at least
            and predicate is not None
            and predicate.where is None
            and len(predicate.patterns) == 1
        ):
            return self.pattern_list(predicate.patterns)
        self.require(self.caps.exists_subquery, "EXISTS subquery", node)
        if match is not None and self.caps.exists_pattern_form:
            text = self.pattern_list(match.patterns)
            if match.where is not None:
                text += " WHERE " + self.gen(match.where)
            return "EXISTS { " + text + " }"
        return "EXISTS " + self.block(node.query)

    def _single_plain_match(self, query: q.Query) -> q.Match | None:
        """The Match of a subquery that is exactly one non-optional MATCH in the default mode."""
        if not isinstance(query, q.LinearQuery) or len(query.steps) != 1:
            return None
        step = query.steps[0]
        if (
            isinstance(step, q.Match)
            and step.patterns
            and not step.optional
            and step.mode.name == self.caps.default_match_mode
        ):
            return step
        return None

    @emits(e.CountSubquery)
    def count_subquery(self, node: e.CountSubquery) -> str:
        if not self.caps.count_subquery:
            sized = self._pattern_size(node)
            if sized is not None:
                return sized
        self.require(
            self.caps.count_subquery,
            "COUNT subquery",
            node,
            rewrite="a CALL subquery returning count(*), or size() of a pattern comprehension",
        )
        return "COUNT " + self.block(node.query)

    def _pattern_size(self, node: e.CountSubquery) -> str | None:
        """``size((a)-->())``, Neo4j 4's count of a pattern's matches, where the dialect has no
        COUNT { } and the subquery is one bare pattern."""
        query = node.query
        if not (self.caps.pattern_count_size and isinstance(query, q.LinearQuery)):
            return None
        match = query.steps[0] if len(query.steps) == 1 else None
        if not isinstance(match, q.Match) or match.where is not None or match.optional:
            return None
        if len(match.patterns) != 1 or match.patterns[0].variable is not None:
            return None
        return "size(" + self.pattern_list(match.patterns) + ")"

    @emits(e.CollectSubquery)
    def collect_subquery(self, node: e.CollectSubquery) -> str:
        self.require(
            self.caps.collect_subquery,
            "COLLECT subquery",
            node,
            rewrite="a CALL subquery returning collect(...), or a pattern comprehension",
        )
        return "COLLECT " + self.block(node.query)

    @emits(e.ValueSubquery)
    def value_subquery(self, node: e.ValueSubquery) -> str:
        self.require(
            self.caps.value_subquery,
            "VALUE subquery",
            node,
            rewrite="a CALL subquery that returns the value as a column",
        )
        return "VALUE " + self.block(node.query)


_LABEL_REWRITE = "test the labels in WHERE, e.g. (n) WHERE n:A AND n:B"


#: Searches a dialect with ``shortest_in_quantifier`` writes after the ``*``.
_QUANTIFIER_SEARCHES = {
    p.SearchKind.ANY_SHORTEST: "SHORTEST",
    p.SearchKind.ALL_SHORTEST: "ALL SHORTEST",
}


def _only_relationship(path: p.PathExpr) -> p.RelPattern | None:
    """The relationship of a node-relationship-node chain, or None for any other path."""
    if not isinstance(path, p.PathChain) or len(path.elements) != 3:
        return None
    left, rel, right = path.elements
    if isinstance(left, p.NodePattern) and isinstance(right, p.NodePattern):
        return rel if isinstance(rel, p.RelPattern) else None
    return None


def _conjunction(labels: p.LabelExpr) -> list[str] | None:
    """``A & B & C`` as names, or None if it is not a conjunction of plain labels."""
    if isinstance(labels, p.Label):
        return [labels.name]
    if isinstance(labels, p.LabelAnd):
        left, right = _conjunction(labels.left), _conjunction(labels.right)
        if left is not None and right is not None:
            return left + right
    return None


def _disjunction(labels: p.LabelExpr) -> list[str] | None:
    """``R1 | R2`` as names, or None if it is not a disjunction of plain types."""
    if isinstance(labels, p.Label):
        return [labels.name]
    if isinstance(labels, p.LabelOr):
        left, right = _disjunction(labels.left), _disjunction(labels.right)
        if left is not None and right is not None:
            return left + right
    return None


def _type_has_union(ref: e.TypeRef) -> bool:
    return bool(ref.alternatives) or (ref.element is not None and _type_has_union(ref.element))


def _has_bar(node: Node) -> bool:
    """Whether rendering ``node`` writes a ``|`` outside brackets (label or type unions)."""
    for inner in node.walk():
        if isinstance(inner, e.HasLabels) and any(
            isinstance(x, p.LabelOr) for x in inner.labels.walk()
        ):
            return True
        if isinstance(inner, e.TypeTest) and _type_has_union(inner.type):
            return True
    return False
