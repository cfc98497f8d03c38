"""Lowering for a Cypher-family target whose expressions do not mean what Cypher's do.

Each rule reads one capability of the target (its cited fact is in the dialect file) and
rewrites the IR to a form that has Cypher's meaning on that target, or refuses the construct.
Every rule is a no-op under Cypher's own capabilities, so the pass changes nothing for Neo4j or
openCypher 9.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import Any

from ..analysis.aggregates import aggregates
from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import column_name, free_variables, names_in, write_clause
from ..ir.node import Node

_SCALAR_LITERALS = (e.Boolean, e.Integer, e.Float, e.String, e.TemporalLiteral)
_TEMPORAL_CONSTRUCTORS = frozenset(
    {"date", "datetime", "localdatetime", "time", "localtime", "duration"}
)
_SUB_SECOND_KEYS = frozenset({"millisecond", "microsecond", "nanosecond", "milliseconds",
                              "microseconds", "nanoseconds"})  # fmt: skip


def needs_lowering(dialect: Dialect) -> bool:
    """Whether any rule of this pass applies to ``dialect`` (so Cypher itself skips the walk)."""
    c = dialect.capabilities
    return not (
        c.membership_null_unknown
        and c.list_equality_null_unknown
        and not c.simple_case_null_matches
        and not c.string_plus_null_empty
        and c.contains_empty_true
        and c.index_out_of_range_null
        and not c.order_by_reads_shadowed
        and not c.with_distinct_constants_kept
        and c.unreferenced_edges_counted
        and c.undirected_quantified
        and c.pattern_comprehension_keeps_nulls
        and c.integer_rounding_float
        and c.round_half_up
        and c.to_integer_truncates
        and c.sum_keeps_integers
        and c.quantified_edge_list
        and c.match_rebinds_edges
        and c.pattern_reads_comprehension
        and c.filter_after_optional
        and c.limit_zero_writes
        and c.read_after_write
        and c.sub_second_temporals
    )


def needed(summary: Any, dialect: Dialect, typed: bool = False) -> bool:
    """Whether a query (its pipeline ``summary``) holds anything a rule of this pass reads on
    ``dialect``: the node kinds :meth:`_Lowering.rules` lists for it (functions by name, and a
    query's steps only where it orders or keeps DISTINCT), or anything at all for a dialect
    whose MATCH and WITH rules read every step (FalkorDB)."""
    caps = dialect.capabilities
    if _reads_every_step(caps):
        return True
    kinds = summary.kinds
    if not caps.unreferenced_edges_counted and p.RelPattern in kinds:
        return True
    if not kinds.isdisjoint(_rule_kinds(dialect)):
        return True
    # (= of two lists and a literal subscript read list literals; the + rule, a +)
    lists = not (caps.list_equality_null_unknown and caps.index_out_of_range_null)
    if lists and e.ListLiteral in kinds:
        return True
    if caps.string_plus_null_empty and summary.adds:
        return True
    if not summary.functions.isdisjoint(_rule_functions(dialect)):
        return True
    if caps.order_by_reads_shadowed and q.SortItem in kinds:
        return True
    return caps.with_distinct_constants_kept and summary.distinct_projections


def _reads_every_step(caps: Any) -> bool:
    """Whether a rule of :meth:`_Lowering.scoped` (relationship variables across the steps, a
    filter after an OPTIONAL MATCH, a LIMIT after writes, a read after a write) applies."""
    return not (
        caps.quantified_edge_list
        and caps.match_rebinds_edges
        and caps.filter_after_optional
        and caps.limit_zero_writes
        and caps.read_after_write
    )


@functools.cache
def _rule_kinds(dialect: Dialect) -> frozenset[type]:
    """The node kinds whose rule does something on ``dialect`` (see :meth:`_Lowering.rules`;
    comparisons, subscripts, ``+``, calls and a query's steps are told apart further by
    :func:`needed`)."""
    c = dialect.capabilities
    by_capability = {
        e.In: not c.membership_null_unknown,
        e.Case: c.simple_case_null_matches,
        e.StringMatch: not c.contains_empty_true,
        p.RelPattern: not c.undirected_quantified,
        e.PatternComprehension: not c.pattern_comprehension_keeps_nulls,
        e.TemporalLiteral: not c.sub_second_temporals,
        e.Aggregate: not c.sum_keeps_integers,
        e.ListComprehension: not c.pattern_reads_comprehension,
        e.ListPredicate: not c.pattern_reads_comprehension,
        e.Reduce: not c.pattern_reads_comprehension,
    }
    return frozenset(kind for kind, rule in by_capability.items() if rule)


@functools.cache
def _rule_functions(dialect: Dialect) -> frozenset[str]:
    """The functions whose call a rule reads on ``dialect`` (:meth:`_Lowering.function_call`)."""
    c = dialect.capabilities
    names: set[str] = set()
    if not c.integer_rounding_float:
        names |= {"ceil", "floor"}
    if not (c.round_half_up and c.integer_rounding_float):
        names.add("round")
    if not c.to_integer_truncates:
        names.add("tointeger")
    if not c.sub_second_temporals:
        names |= _TEMPORAL_CONSTRUCTORS
    return frozenset(names)


def lower(root: Node, dialect: Dialect) -> Node:
    """``root`` with every construct whose meaning differs on ``dialect`` rewritten."""
    if not needs_lowering(dialect):
        return root
    return _Lowering(root, dialect).run()


class _Lowering:
    def __init__(self, root: Node, dialect: Dialect) -> None:
        self.root = root
        self.dialect = dialect
        self.caps = dialect.capabilities
        self._sites: Counter[str] | None = None

    # (each found when a rule first asks: most queries need none of them)
    @cached_property
    def taken(self) -> set[str]:
        return names_in(self.root)

    @cached_property
    def reads(self) -> Counter[str]:
        """How often each name is read (a relationship nothing reads is only bound)."""
        return Counter(x.name for x in self.root.walk() if isinstance(x, e.Variable))

    @cached_property
    def star(self) -> bool:
        return any(isinstance(x, q.Projection) and x.star for x in self.root.walk())

    @property
    def binding_sites(self) -> Counter[str]:
        """How many places of the query bind each name (a projection's alias is one)."""
        if self._sites is None:
            self._sites = Counter()
            for node in self.root.walk():
                if isinstance(node, q.Projection):
                    self._sites.update(a for a in map(column_name, node.items) if a)
                    continue
                if isinstance(node, q.ReturnItem):
                    continue  # counted with its projection
                for attribute in ("variable", "accumulator", "alias"):
                    name = getattr(node, attribute, None)
                    if isinstance(name, str):
                        self._sites[name] += 1
        return self._sites

    def run(self) -> Node:
        root = self.root
        caps = self.caps
        if _reads_every_step(caps):
            root = root.transform(
                lambda node: self.scoped(node) if isinstance(node, q.LinearQuery) else node
            )
        if not self.caps.unreferenced_edges_counted:
            # a pattern predicate or EXISTS only asks whether a match exists
            tests = {
                id(m)
                for x in root.walk()
                if isinstance(x, e.Exists)
                for m in x.query.walk()
                if isinstance(m, q.Match)
            }

            def counted(node: Node) -> Node:
                if isinstance(node, q.Match) and id(node) not in tests:
                    return self.reference_edges(node)
                return node

            root = root.transform(counted)
        return root.transform(self.rewrite)

    def refuse(self, construct: str, node: Node, message: str) -> UnsupportedError:
        return UnsupportedError(construct, self.dialect.name, message, offset=node.pos)

    def fresh(self, stem: str) -> str:
        name = next(f"{stem}{i}" for i in range(1, 1_000_000) if f"{stem}{i}" not in self.taken)
        self.taken.add(name)
        return name

    def rewrite(self, node: Node) -> Node:
        rule = self.rules.get(type(node))
        return node if rule is None else rule(node)

    @cached_property
    def rules(self) -> dict[type, Callable[[Any], Node]]:
        """Node class -> the rule for it on this target (a class no rule reads is absent)."""
        caps = self.caps
        rules: dict[type, Callable[[Any], Node]] = {}
        if not caps.membership_null_unknown:
            rules[e.In] = self.membership
        if not caps.list_equality_null_unknown:
            rules[e.Comparison] = self.list_equality
        if caps.simple_case_null_matches:
            rules[e.Case] = lambda x: x if x.subject is None else _searched_case(x)
        if caps.string_plus_null_empty:
            rules[e.Arithmetic] = _null_propagating_plus
        if not caps.contains_empty_true:
            rules[e.StringMatch] = _contains_empty
        if not caps.index_out_of_range_null:
            rules[e.Index] = _literal_subscript
        if caps.order_by_reads_shadowed or caps.with_distinct_constants_kept:
            rules[q.LinearQuery] = self.query_rules
        if not caps.undirected_quantified:
            rules[p.RelPattern] = self.check_undirected_quantifier
        if not caps.pattern_comprehension_keeps_nulls:
            rules[e.PatternComprehension] = self.keep_nulls
        if not caps.sub_second_temporals:
            rules[e.TemporalLiteral] = self.check_whole_seconds
        rules[e.FunctionCall] = self.function_call
        if not caps.sum_keeps_integers:
            rules[e.Aggregate] = lambda x: _integer_sum(x) if x.name == "sum" else x
        if not caps.pattern_reads_comprehension:
            for kind in (e.ListComprehension, e.ListPredicate, e.Reduce):
                rules[kind] = self.check_patterns_in
        return rules

    def query_rules(self, node: q.LinearQuery) -> q.LinearQuery:
        if self.caps.order_by_reads_shadowed:
            node = self.unshadow_order_by(node)
        if self.caps.with_distinct_constants_kept:
            self.check_distinct_constants(node)
        return node

    def function_call(self, node: e.FunctionCall) -> e.Expr:
        if not self.caps.sub_second_temporals:
            self.check_whole_seconds(node)
        return self.numeric_function(node)

    def check_patterns_in(
        self, node: e.ListComprehension | e.ListPredicate | e.Reduce
    ) -> e.ListComprehension | e.ListPredicate | e.Reduce:
        """A pattern inside a list comprehension, list predicate or reduce() must not read
        its variable: the target evaluates such a pattern with the variable unbound."""
        for inner in node.walk():
            if inner is node or not isinstance(
                inner, (e.PatternComprehension, e.Exists, e.CountSubquery)
            ):
                continue
            if node.variable in names_in(inner):
                raise self.refuse(
                    "pattern reading a list comprehension's variable",
                    inner,
                    f"{self.dialect.name} evaluates a pattern inside a list comprehension "
                    "without its variable",
                )
        return node

    # -- relationship variables across the steps of a query -------------------------------
    def scoped(self, query: q.LinearQuery) -> q.LinearQuery:
        """Refuse a MATCH that binds a relationship variable bound before it (the target
        matches every relationship instead), and read a variable-length relationship's
        variable, which the target binds to a path, through ``relationships()`` until a
        projection turns it into a list."""
        caps = self.caps
        bound: set[str] = set()
        paths: set[str] = set()
        edges: set[str] = set()  # -[r*1..1]-: one relationship, read as [r]
        optional: set[str] = set()  # bound by an OPTIONAL MATCH
        wrote = False
        steps: list[q.Step] = []
        for step in query.steps:
            self.check_filter_after_optional(step, optional)
            if (
                wrote
                and not caps.limit_zero_writes
                and isinstance(step, q.Projection)
                and step.limit is not None
            ):
                step = self.limit_after_writes(step, steps)
            if (
                not caps.read_after_write
                and isinstance(step, (q.Match, q.Unwind))
                and steps
                and any(write_clause(x) for x in steps[-1].walk())
            ):
                # a reading clause right after a write needs a WITH there
                steps.append(q.Projection(items=(), star=True))
            wrote = wrote or any(write_clause(x) for x in step.walk())
            if isinstance(step, q.Match) and step.optional:
                optional |= names_in(step) - bound
            if isinstance(step, q.Match):
                for pattern in step.patterns:
                    for rel in pattern.walk():
                        if not isinstance(rel, p.RelPattern) or rel.variable is None:
                            continue
                        if rel.variable in bound and not caps.match_rebinds_edges:
                            raise self.refuse(
                                "relationship variable bound before the MATCH",
                                rel,
                                f"{self.dialect.name} matches every relationship there, not "
                                "the one already bound",
                            )
                        if rel.quantifier is not None and not caps.quantified_edge_list:
                            q_ = rel.quantifier
                            # -[r*1..1]- is matched as one relationship there: r is an edge
                            single = q_.lower == 1 and q_.upper == 1
                            (edges if single else paths).add(rel.variable)
                if step.where is not None and (paths | edges) & names_in(step.where):
                    raise self.refuse(
                        "variable-length relationship read in its MATCH's WHERE",
                        step.where,
                        f"{self.dialect.name} binds the variable to one relationship there; "
                        "filter in a WITH after the MATCH",
                    )
            if (paths or edges) and isinstance(step, q.Projection) and not step.star:
                # WHERE and ORDER BY read the projected columns where the names are the same
                columns = {column_name(i) for i in step.items}
                items = tuple(_read_as_relationships(i, paths, edges) for i in step.items)
                later, later_edges = paths - columns, edges - columns
                step = replace(
                    step,
                    items=items,
                    where=step.where and _read_as_relationships(step.where, later, later_edges),
                    order_by=tuple(
                        _read_as_relationships(x, later, later_edges) for x in step.order_by
                    ),
                )
            elif paths or edges:
                step = _read_as_relationships(step, paths, edges)
            steps.append(step)
            if isinstance(step, q.Projection) and not step.star:
                paths, edges = set(), set()
                bound = {n for n in (column_name(i) for i in step.items) if n is not None}
                # a column computed from a variable of an OPTIONAL MATCH may be null as well
                # (an aggregate's is computed after the match: no test reaches into it)
                optional = {
                    n
                    for i in step.items
                    if (n := column_name(i)) is not None
                    and optional & names_in(i.expr)
                    and not aggregates(i.expr)
                }
            else:
                bound |= names_in(step)
        return replace(query, steps=tuple(steps))

    def limit_after_writes(self, step: q.Projection, steps: list[q.Step]) -> q.Projection:
        """``… CREATE … RETURN x LIMIT 0`` as ``… CREATE … WITH * WHERE false RETURN x``: the
        target skips the whole query under a LIMIT 0, its writes included. A LIMIT known only
        at run time is refused."""
        if step.limit == e.Integer(0):
            steps.append(q.Projection(items=(), star=True, where=e.Boolean(False)))
            return replace(step, limit=None)
        if isinstance(step.limit, e.Integer):
            return step
        raise self.refuse(
            "LIMIT of a parameter after a write",
            step,
            f"{self.dialect.name} writes nothing when the limit is 0",
        )

    def check_filter_after_optional(self, step: q.Step, optional: set[str]) -> None:
        if self.caps.filter_after_optional or not optional:
            return
        test = step.where if isinstance(step, q.Projection) else None
        if isinstance(step, q.Filter):
            test = step.condition
        if test is not None and optional & names_in(test):
            raise self.refuse(
                "WITH … WHERE on a variable of an OPTIONAL MATCH",
                test,
                f"{self.dialect.name} moves the test into the OPTIONAL MATCH, which then "
                "keeps a row of nulls that the WHERE would drop",
            )

    # -- relationships matched once per edge ----------------------------------------------
    def reference_edges(self, match: q.Match) -> q.Match:
        """Every fixed-length relationship that nothing else reads gets a name and the test
        ``r IS NOT NULL`` (always true): the target matches a relationship that no other part
        of the query names only once per pair of end nodes, and one it reads once per edge."""
        unread: list[str] = []

        def name_edge(node: Node) -> Node:
            if not isinstance(node, p.RelPattern) or node.quantifier is not None:
                return node
            name = node.variable
            if name is None:
                if self.star:
                    raise self.refuse(
                        "anonymous relationship under a * projection",
                        node,
                        f"{self.dialect.name} counts an anonymous relationship once per pair "
                        "of end nodes; naming it would add a column to the * projection",
                    )
                name = self.fresh("_e")
                node = replace(node, variable=name)
            if self.reads[name] == 0:
                unread.append(name)
            return node

        patterns = tuple(pattern.transform(name_edge) for pattern in match.patterns)
        if not unread:
            return match
        test: e.Expr | None = None
        for name in unread:
            known = e.IsNull(e.Variable(name), negated=True)
            test = known if test is None else e.And(test, known)
        assert test is not None
        where = test if match.where is None else e.And(test, match.where)
        return replace(match, patterns=patterns, where=where)  # type: ignore[arg-type]

    def check_undirected_quantifier(self, node: p.RelPattern) -> p.RelPattern:
        if node.quantifier is not None and node.direction is p.Direction.EITHER:
            raise self.refuse(
                "undirected variable-length relationship",
                node,
                f"{self.dialect.name} finds other paths than Cypher for an undirected "
                "variable-length relationship",
            )
        return node

    # -- pattern comprehension ------------------------------------------------------------
    def keep_nulls(self, node: e.PatternComprehension) -> e.Expr:
        """``[(a)-->(b) | b.x]`` as ``[v IN [(a)-->(b) | [b.x]] | v[0]]``: the target drops
        null values from a pattern comprehension, never a list holding one."""
        wrapped = replace(node, projection=e.ListLiteral((node.projection,)))
        v = self.fresh("_v")
        return e.ListComprehension(v, wrapped, None, e.Index(e.Variable(v), e.Integer(0)))

    # -- temporal values ------------------------------------------------------------------
    def check_whole_seconds(
        self, node: e.TemporalLiteral | e.FunctionCall
    ) -> e.TemporalLiteral | e.FunctionCall:
        """A temporal value with a fraction of a second is refused where the target keeps
        whole seconds only (it would drop the fraction)."""
        if isinstance(node, e.TemporalLiteral):
            text = node.text
            clock = text.split("T", 1)[1] if "T" in text else text
            fraction = node.kind.value != "date" and re.search(r"\d[.,]\d", clock) is not None
        else:
            arg = node.args[0] if node.args else None
            fraction = (
                node.name in _TEMPORAL_CONSTRUCTORS
                and isinstance(arg, e.MapLiteral)
                and any(k.lower() in _SUB_SECOND_KEYS for k, _ in arg.entries)
            )
        if fraction:
            raise self.refuse(
                "fraction of a second",
                node,
                f"{self.dialect.name}'s temporal values have whole seconds",
            )
        return node

    # -- numeric functions ----------------------------------------------------------------
    def numeric_function(self, node: e.FunctionCall) -> e.Expr:
        caps = self.caps
        name, args = node.name, node.args
        if name in ("ceil", "floor") and len(args) == 1 and not caps.integer_rounding_float:
            # an integer argument gives an integer there; * 1.0 makes it Cypher's float
            return e.Arithmetic(e.ArithOp.MUL, node, e.Float(1.0))
        exact_round = caps.round_half_up and caps.integer_rounding_float
        if name == "round" and len(args) == 1 and not exact_round:
            # Cypher's round(x) is Java's Math.round: floor(x + 0.5), a float
            (x,) = args
            return e.FunctionCall("floor", (e.Arithmetic(e.ArithOp.ADD, x, e.Float(0.5)),))
        if name == "round" and len(args) > 1 and not exact_round:
            # (the target's round() is another function, of one argument: FalkorDB's)
            raise self.refuse(
                "round() with a precision",
                node,
                f"{self.dialect.name}'s round() takes one argument and rounds otherwise; a "
                "precision or rounding mode has no counterpart there",
            )
        if name == "tointeger" and len(args) == 1 and not caps.to_integer_truncates:
            return _truncating_to_integer(node)
        return node

    # -- WITH DISTINCT of constants --------------------------------------------------------
    def check_distinct_constants(self, query: q.LinearQuery) -> None:
        """The target keeps every incoming row of a WITH DISTINCT whose columns are all
        constants (a final RETURN DISTINCT is right): refused. A column is constant when it
        reads no parameter and no variable, or only variables bound to constants (the target
        propagates them: ``WITH 1 AS c WITH DISTINCT c`` keeps every row too); a parameter is
        not one there. Runs after ORDER BY is split off a projection, which may make a
        RETURN DISTINCT a WITH DISTINCT."""
        steps = query.steps
        if not any(type(x) is q.Projection and x.distinct for x in steps[:-1]):
            return  # (no WITH DISTINCT)
        constant: set[str] = set()
        for i, step in enumerate(steps):
            if not isinstance(step, q.Projection) or step.star:
                continue
            columns = {column_name(item): item.expr for item in step.items}
            fixed = {
                name
                for name, expr in columns.items()
                if name is not None
                and free_variables(expr) <= constant
                and not any(isinstance(x, e.Parameter) for x in expr.walk())
            }
            final = i == len(query.steps) - 1
            if step.distinct and not final and columns and len(fixed) == len(columns):
                raise self.refuse(
                    "DISTINCT of constants only",
                    step,
                    f"{self.dialect.name} keeps every row of a WITH DISTINCT whose columns are "
                    "all constants (RETURN DISTINCT is right)",
                )
            constant = fixed

    # -- x IN list --------------------------------------------------------------------------
    def membership(self, node: e.In) -> e.Expr:
        """Cypher's IN: true on a match; else null where the item or an element is null; false
        on an empty list. A list of non-null scalar literals needs no rewrite; any other list
        literal is a disjunction of equalities."""
        item, container = node.item, node.container
        if isinstance(container, e.Null):
            return e.Null()
        if isinstance(container, e.ListLiteral) and container.items:
            if all(isinstance(x, _SCALAR_LITERALS) for x in container.items):
                return node
            return self.any_equal(item, container.items)
        y = self.fresh("_v")
        holds_null = e.ListPredicate(e.ListQuantifier.ANY, y, container, e.IsNull(e.Variable(y)))
        unknown = e.Or(e.IsNull(item), holds_null)
        size = e.FunctionCall("size", (container,))
        return e.Case(
            None,
            (
                e.CaseWhen(node, e.Boolean(True)),
                e.CaseWhen(e.IsNull(container), e.Null()),
                e.CaseWhen(e.Comparison(e.CompOp.EQ, size, e.Integer(0)), e.Boolean(False)),
                e.CaseWhen(unknown, e.Null()),
            ),
            e.Boolean(False),
        )

    def any_equal(self, item: e.Expr, elements: tuple[e.Expr, ...]) -> e.Expr:
        """``x IN [a, b]`` is Cypher's three-valued ``x = a OR x = b``; each ``=`` is lowered
        like any other (a list element compared element by element)."""
        test: e.Expr | None = None
        for element in elements:
            equal = self.list_equality(e.Comparison(e.CompOp.EQ, item, element))
            test = equal if test is None else e.Or(test, equal)
        assert test is not None
        return test

    # -- list = list ------------------------------------------------------------------------
    def list_equality(self, node: e.Comparison) -> e.Expr:
        """``=``/``<>`` of two list literals: element by element (Cypher's three-valued AND).
        Any other comparison that may meet a null inside a list or map was refused before
        (:mod:`gqlir.passes.composites`)."""
        if node.op not in (e.CompOp.EQ, e.CompOp.NE):
            return node
        left, right = node.left, node.right
        if not (isinstance(left, e.ListLiteral) and isinstance(right, e.ListLiteral)):
            return node
        equal = _elementwise_equal(left, right)
        return equal if node.op is e.CompOp.EQ else e.Not(equal)

    # -- ORDER BY after an alias that shadows a variable -----------------------------------
    def unshadow_order_by(self, query: q.LinearQuery) -> q.LinearQuery:
        steps: list[q.Step] = []
        for step in query.steps:
            if (
                isinstance(step, q.Projection)
                and step.order_by
                and _shadows_in_order(step, self.binding_sites)
            ):
                steps.extend(self.project_then_order(step))
            else:
                steps.append(step)
        return query if len(steps) == len(query.steps) else replace(query, steps=tuple(steps))

    def project_then_order(self, step: q.Projection) -> tuple[q.Projection, q.Projection]:
        """``RETURN -x AS x ORDER BY x`` as ``WITH -x AS x RETURN x ORDER BY x``: the sort then
        sees only the projected columns (and the variables it reads, carried along)."""
        columns = [column_name(item) for item in step.items]
        reads = set().union(*(free_variables(s.expr) for s in step.order_by))
        if step.where is not None:
            reads |= free_variables(step.where)
        carried = sorted(reads - set(columns))
        keys_aggregate = any(aggregates(s.expr) for s in step.order_by)
        if step.star or None in columns or keys_aggregate or (carried and step.distinct):
            raise self.refuse(
                "ORDER BY after an alias that shadows a variable",
                step,
                f"{self.dialect.name}'s ORDER BY reads the variable, not the column of that "
                "name; project the columns in a WITH first",
            )
        if carried and any(aggregates(item.expr) for item in step.items):
            raise self.refuse(
                "ORDER BY after an alias that shadows a variable",
                step,
                "the sort reads variables that an aggregating projection drops",
            )
        first = q.Projection(
            items=step.items + tuple(q.ReturnItem(e.Variable(v), v) for v in carried),
            distinct=step.distinct,
            group_by=step.group_by,
        )
        second = replace(
            step,
            items=tuple(q.ReturnItem(e.Variable(c), c) for c in columns),  # type: ignore[arg-type]
            distinct=False,
            group_by=None,
        )
        return first, second


def _read_as_relationships(
    step: Node, paths: set[str], edges: set[str] | frozenset[str] = frozenset()
) -> Any:
    """``step`` with each read of a name in ``paths`` (a path on the target) as
    ``relationships(name)``, of one in ``edges`` (a single relationship there) as ``[name]``;
    an unaliased projection of one keeps its name."""
    if not paths and not edges:
        return step
    names = paths | edges
    read_as: dict[e.Expr, str] = {}

    def read(node: Node) -> Node:
        if isinstance(node, e.Variable) and node.name in names:
            if node.name in paths:
                listed: e.Expr = e.FunctionCall("relationships", (node,))
            else:
                listed = e.ListLiteral((node,))
            read_as[listed] = node.name
            return listed
        if isinstance(node, q.ReturnItem) and node.alias is None and node.expr in read_as:
            return replace(node, alias=read_as[node.expr])
        return node

    return step.transform(read)


def _integer_sum(node: e.Aggregate) -> e.Expr:
    """``sum(x)`` as an integer when every value summed is one: the target's sum is always a
    float. A value is an integer when it reads the same as its toInteger() (a float never
    does: ``toString(2.0)`` is not ``'2'``); DISTINCT sums stay as they are."""
    if node.distinct or len(node.args) != 1:
        return node
    (x,) = node.args
    whole = e.Comparison(
        e.CompOp.EQ,
        e.FunctionCall("tostring", (x,)),
        e.FunctionCall("tostring", (e.FunctionCall("tointeger", (x,)),)),
    )
    integers = e.Aggregate("count", (e.Case(None, (e.CaseWhen(whole, e.Integer(1)),), None),))
    all_integers = e.Comparison(e.CompOp.EQ, e.Aggregate("count", (x,)), integers)
    return e.Case(
        None,
        (e.CaseWhen(all_integers, e.FunctionCall("tointeger", (node,))),),
        node,
    )


def _truncating_to_integer(node: e.FunctionCall) -> e.Expr:
    """``toInteger(x)`` toward zero where the target's rounds toward negative infinity: a
    negative non-integral number (or numeric string) is negated, converted and negated back;
    integers, nulls and everything else take the target's own toInteger()."""
    (x,) = node.args
    as_float = e.FunctionCall("tofloat", (x,))
    fractional_negative = e.And(
        e.Comparison(e.CompOp.LT, as_float, e.Integer(0)),
        e.Not(e.Comparison(e.CompOp.EQ, x, node)),
    )
    toward_zero = e.Negate(e.FunctionCall("tointeger", (e.Negate(as_float),)))
    return e.Case(None, (e.CaseWhen(fractional_negative, toward_zero),), node)


def _shadows_in_order(step: q.Projection, sites: Counter[str]) -> bool:
    """Whether an ORDER BY key reads a column whose alias names another value than the
    variable of that name (which the target's ORDER BY would read instead): an alias that
    nothing else in the query binds shadows nothing."""
    if not step.order_by:
        return False
    reads = set().union(*(free_variables(s.expr) for s in step.order_by))
    for item in step.items:
        name = item.alias
        shadowing = name is not None and sites[name] > 1
        if shadowing and name in reads and item.expr != e.Variable(name):
            return True
    return False


def _elementwise_equal(left: e.ListLiteral, right: e.ListLiteral) -> e.Expr:
    if len(left.items) != len(right.items):
        return e.Boolean(False)
    test: e.Expr = e.Boolean(True)
    for a, b in zip(left.items, right.items, strict=True):
        if isinstance(a, e.ListLiteral) and isinstance(b, e.ListLiteral):
            pair = _elementwise_equal(a, b)
        else:
            pair = e.Comparison(e.CompOp.EQ, a, b)
        test = pair if test == e.Boolean(True) else e.And(test, pair)
    return test


def _searched_case(node: e.Case) -> e.Case:
    """``CASE x WHEN v …`` as ``CASE WHEN x = v …``: the target's simple CASE takes a null
    ``v`` as a match, its ``=`` does not."""
    subject = node.subject
    assert subject is not None
    whens = tuple(
        e.CaseWhen(e.Comparison(e.CompOp.EQ, subject, w.condition), w.result) for w in node.whens
    )
    return e.Case(None, whens, node.default)


def _null_propagating_plus(node: e.Arithmetic) -> e.Expr:
    """``a + b`` is null where either side is null; the target reads a null string as ''.
    A numeric literal operand makes it numeric addition, which propagates nulls there too."""
    if node.op is not e.ArithOp.ADD:
        return node
    left, right = node.left, node.right
    if isinstance(left, (e.Integer, e.Float)) or isinstance(right, (e.Integer, e.Float)):
        return node
    if isinstance(left, _SCALAR_LITERALS) and isinstance(right, _SCALAR_LITERALS):
        return node
    tests = [e.IsNull(x) for x in (left, right) if not isinstance(x, _SCALAR_LITERALS)]
    either_null = tests[0] if len(tests) == 1 else e.Or(*tests)
    return e.Case(None, (e.CaseWhen(either_null, e.Null()),), node)


def _contains_empty(node: e.StringMatch) -> e.Expr:
    """``s CONTAINS ''`` is true for every string: the target says false, but its
    ``STARTS WITH ''`` is true, so an empty needle is tested with that."""
    if node.op is not e.StringOp.CONTAINS:
        return node
    right = node.right
    starts = e.StringMatch(e.StringOp.STARTS_WITH, node.left, right)
    if isinstance(right, e.String):
        return starts if right.value == "" else node
    empty = e.Comparison(e.CompOp.EQ, right, e.String(""))
    return e.Or(node, e.And(empty, starts))


def _literal_subscript(node: e.Index) -> e.Expr:
    """A literal position in a list literal is known to be in range or not: out of range it
    is null (the target raises)."""
    subject, index = node.subject, node.index
    if not (isinstance(subject, e.ListLiteral) and type(getattr(index, "value", None)) is int):
        return node
    position = index.value  # type: ignore[attr-defined]
    size = len(subject.items)
    return node if -size <= position < size else e.Null()
