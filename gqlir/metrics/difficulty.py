"""Query difficulty and pattern categories, read deterministically from the Graph-IR.

Text2GQL-Bench grades difficulty with an LLM prompt; its rubric (paper, Table 2) is structural,
so gqlir applies it as rules over measured features (:class:`QueryFeatures`):

=============  ===================================================================================
extra hard     ≥ 3 relationship patterns, or a MATCH after a projection (multi-step: ``WITH`` or
               GQL ``NEXT`` between reading stages), nested aggregation, UNION, or a subquery
hard           2 relationship patterns, a variable-length path, two MATCH clauses, ≥ 3
               conditions, or ≥ 2 aggregates
medium         1 relationship pattern, one aggregate, or 2 conditions
easy           otherwise: one node pattern, no aggregation, at most one condition
=============  ===================================================================================

A condition is an atomic predicate (comparison, string or list test, null test, label test,
pattern predicate) in a WHERE or filter, or an entry of an inline property map.

CypherBench's categories come from its templates: the MATCH category (``basic_(n)-(m0*)``,
``special_optional-match`` …, with ``*`` marking a node constrained by a literal property) and
the RETURN pattern (``n_argmax``, ``n_group_by`` …, CypherBench's ``n_prop_combined`` merging the
plain property returns).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass

from .. import ir
from ..analysis.aggregates import aggregates, aggregates_in

__all__ = [
    "LEVELS",
    "QueryFeatures",
    "classify",
    "cypherbench_match_category",
    "cypherbench_return_category",
    "query_features",
    "text2gql_level",
]

LEVELS = ("easy", "medium", "hard", "extra hard")

_ATOMIC = (
    ir.Comparison,
    ir.StringMatch,
    ir.RegexMatch,
    ir.Like,
    ir.In,
    ir.IsNull,
    ir.IsTruth,
    ir.HasLabels,
    ir.Exists,
    ir.ListPredicate,
)
_SUBQUERIES = (ir.Exists, ir.CountSubquery, ir.CollectSubquery, ir.ValueSubquery)


@dataclass(frozen=True, slots=True)
class QueryFeatures:
    """What the classifier measures (every count covers all UNION branches)."""

    relationships: int  # relationship patterns in MATCH steps
    longest_path: int  # most relationship patterns in one path pattern
    variable_length: bool
    match_steps: int  # MATCH and OPTIONAL MATCH steps
    staged_match: bool  # a MATCH after a projection (WITH / RETURN … NEXT)
    optional_match: bool
    conditions: int
    aggregates: int
    nested_aggregation: bool
    grouping: bool  # an aggregating projection with grouping keys
    subqueries: int
    union: bool
    ordered: bool
    limited: bool
    writes: bool

    def to_dict(self) -> dict:
        return asdict(self)


def _linear_queries(query: ir.Node) -> Iterator[ir.LinearQuery]:
    """The top-level linear parts: UNION branches and leading CALL bodies, not subqueries
    inside expressions."""
    if isinstance(query, ir.SetOperation):
        yield from _linear_queries(query.left)
        yield from _linear_queries(query.right)
    elif isinstance(query, ir.ConditionalQuery):
        for branch in query.branches:
            yield from _linear_queries(branch.query)
        if query.otherwise is not None:
            yield from _linear_queries(query.otherwise)
    elif isinstance(query, ir.LinearQuery):
        yield query
        for step in query.steps:
            if isinstance(step, ir.CallSubquery):
                yield from _linear_queries(step.query)
    elif isinstance(query, ir.Program):
        for statement in query.statements:
            yield from _linear_queries(statement)


def _conditions(expr: ir.Expr | None) -> int:
    if expr is None:
        return 0
    count = 0
    stack: list[ir.Node] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, _ATOMIC):
            count += 1
            continue  # a pattern predicate or a comparison is one condition
        stack.extend(node.children())
    return count


def _pattern_conditions(pattern: ir.PathPattern) -> int:
    count = 0
    for node in pattern.walk():
        if isinstance(node, (ir.NodePattern, ir.RelPattern)):
            if isinstance(node.properties, ir.MapLiteral):
                count += len(node.properties.entries)
            elif node.properties is not None:
                count += 1
            count += _conditions(node.where)
        elif isinstance(node, ir.ParenPath):
            count += _conditions(node.where)
    return count


def _is_aggregating(step: ir.Projection) -> bool:
    return any(aggregates(item.expr) for item in step.items)


def _nests(agg: ir.Node) -> bool:
    """Whether an aggregate's argument holds another aggregate (``count(count(x))``), which
    Cypher rejects; an aggregate in a subquery of the argument is the subquery's own."""
    return any(aggregates(child) for child in agg.children())


def query_features(query: ir.Node) -> QueryFeatures:
    """Measure ``query`` (an IR statement)."""
    from ..engines.safety import ir_writes

    rels = longest = match_steps = conditions = n_aggregates = subqueries = 0
    var_length = staged = optional = nested = grouping = ordered = limited = False
    for linear in _linear_queries(query):
        seen_projection = False
        aggregated_before = False
        for step in linear.steps:
            if isinstance(step, ir.Match):
                match_steps += 1
                optional = optional or step.optional
                staged = staged or seen_projection
                conditions += _conditions(step.where)
                for pattern in step.patterns:
                    count = sum(1 for n in pattern.walk() if isinstance(n, ir.RelPattern))
                    rels += count
                    longest = max(longest, count)
                    conditions += _pattern_conditions(pattern)
                    var_length = var_length or any(
                        isinstance(n, ir.ParenPath)
                        or (isinstance(n, ir.RelPattern) and n.quantifier is not None)
                        for n in pattern.walk()
                    )
            elif isinstance(step, ir.Filter):
                conditions += _conditions(step.condition)
            elif isinstance(step, ir.Projection):
                seen_projection = True
                conditions += _conditions(step.where)
                ordered = ordered or bool(step.order_by)
                limited = limited or step.limit is not None
                if _is_aggregating(step):
                    found = [a for item in step.items for a in aggregates_in(item.expr)]
                    n_aggregates += len(found)
                    nested = nested or aggregated_before
                    nested = nested or any(_nests(a) for a in found)
                    grouping = grouping or any(not aggregates(i.expr) for i in step.items)
                    aggregated_before = True
            elif isinstance(step, ir.CallSubquery):
                subqueries += 1
        for node in linear.walk():
            if isinstance(node, _SUBQUERIES):
                subqueries += 1
    union = any(isinstance(n, ir.SetOperation) for n in query.walk())
    return QueryFeatures(
        relationships=rels,
        longest_path=longest,
        variable_length=var_length,
        match_steps=match_steps,
        staged_match=staged,
        optional_match=optional,
        conditions=conditions,
        aggregates=n_aggregates,
        nested_aggregation=nested,
        grouping=grouping,
        subqueries=subqueries,
        union=union,
        ordered=ordered,
        limited=limited,
        writes=bool(ir_writes(query)) if isinstance(query, ir.Statement) else False,
    )


def text2gql_level(f: QueryFeatures) -> tuple[str, list[str]]:
    """Text2GQL-Bench's level of a query with features ``f``, and the reasons for it."""
    rules = [
        (
            "extra hard",
            [
                (f.relationships >= 3, f"{f.relationships} relationship patterns"),
                (f.staged_match, "a MATCH after a projection (multi-step)"),
                (f.nested_aggregation, "nested aggregation"),
                (f.union, "UNION"),
                (f.subqueries > 0, "a subquery"),
            ],
        ),
        (
            "hard",
            [
                (f.relationships == 2, "2 relationship patterns"),
                (f.variable_length, "a variable-length path"),
                (f.match_steps >= 2, f"{f.match_steps} MATCH clauses"),
                (f.conditions >= 3, f"{f.conditions} conditions"),
                (f.aggregates >= 2, f"{f.aggregates} aggregates"),
            ],
        ),
        (
            "medium",
            [
                (f.relationships == 1, "1 relationship pattern"),
                (f.aggregates == 1, "an aggregate"),
                (f.conditions == 2, "2 conditions"),
            ],
        ),
    ]
    for level, tests in rules:
        reasons = [why for hit, why in tests if hit]
        if reasons:
            return level, reasons
    return "easy", ["one node pattern, no aggregation, at most one condition"]


# -- CypherBench categories -----------------------------------------------------------------------


def _outer_projections(query: ir.Node) -> list[ir.Projection]:
    """The projections of the query's own pipeline (the last UNION branch), not of CALL
    bodies or subqueries."""
    while isinstance(query, ir.SetOperation):
        query = query.right
    if isinstance(query, ir.LinearQuery):
        return [s for s in query.steps if isinstance(s, ir.Projection)]
    return []


def _final_projection(query: ir.Node) -> ir.Projection | None:
    projections = _outer_projections(query)
    return projections[-1] if projections else None


def _answer_variable(query: ir.Node, nodes: list[ir.NodePattern]) -> str | None:
    final = _final_projection(query)
    named = {n.variable for n in nodes if n.variable}
    if final is not None:
        for item in final.items:
            for node in item.expr.walk():
                if isinstance(node, ir.Variable) and node.name in named:
                    return node.name
    return nodes[0].variable if nodes else None


def _constrained(node: ir.NodePattern, match: ir.Match) -> bool:
    """The node is pinned by a literal property (inline map or ``v.p = literal``)."""
    if isinstance(node.properties, ir.MapLiteral) and node.properties.entries:
        return True
    if node.variable is None or match.where is None:
        return False
    for cmp in match.where.walk():
        if isinstance(cmp, ir.Comparison) and cmp.op is ir.CompOp.EQ:
            sides = (cmp.left, cmp.right)
            has_prop = any(
                isinstance(s, ir.Property)
                and isinstance(s.subject, ir.Variable)
                and s.subject.name == node.variable
                for s in sides
            )
            if has_prop and any(isinstance(s, (ir.String, ir.Integer, ir.Float)) for s in sides):
                return True
    return False


def _time_sensitive(query: ir.Node, rel_vars: set[str]) -> bool:
    for node in query.walk():
        if (
            isinstance(node, ir.IsNull)
            and isinstance(node.operand, ir.Property)
            and isinstance(node.operand.subject, ir.Variable)
            and node.operand.subject.name in rel_vars
        ):
            return True
    return False


def cypherbench_match_category(query: ir.Node) -> str:
    """CypherBench's MATCH category of ``query`` (``other`` outside its templates)."""
    linears = list(_linear_queries(query))
    if any(isinstance(n, ir.SetOperation) for n in query.walk()):
        return "special_union"
    matches = [s for lq in linears for s in lq.steps if isinstance(s, ir.Match)]
    if not matches:
        return "other"
    if any(m.optional for m in matches):
        return "special_optional-match"
    chains = [p.path for m in matches for p in m.patterns if isinstance(p.path, ir.PathChain)]
    rels = [e for c in chains for e in c.elements if isinstance(e, ir.RelPattern)]
    rel_vars = {r.variable for r in rels if r.variable}
    if _time_sensitive(query, rel_vars):
        return "special_time-sensitive"
    nodes: list[ir.NodePattern] = []
    owner: dict[int, ir.Match] = {}
    for m in matches:
        for p in m.patterns:
            for e in p.path.walk() if isinstance(p.path, ir.PathChain) else ():
                if isinstance(e, ir.NodePattern):
                    nodes.append(e)
                    owner[id(e)] = m
    if not rels and len(chains) >= 2:
        return "special_comparison"
    answer = _answer_variable(query, nodes)
    order: list[str] = []
    for n in nodes:
        key = n.variable or f"#{id(n)}"
        if key not in order:
            order.append(key)
    names: dict[str, str] = {}
    for key in order:
        names[key] = "n" if key == answer else f"m{len([v for v in names.values() if v != 'n'])}"

    def show(n: ir.NodePattern) -> str:
        key = n.variable or f"#{id(n)}"
        return f"({names[key]}{'*' if _constrained(n, owner[id(n)]) else ''})"

    def chain_text(c: ir.PathChain) -> str:
        shown = [show(e) for e in c.elements if isinstance(e, ir.NodePattern)]
        if shown and shown[-1].startswith("(n") and not shown[0].startswith("(n"):
            shown.reverse()  # CypherBench names a pattern from the answer node, either direction
        return "-".join(shown)

    distinct_nodes = len(order)
    if len(rels) == 0:
        return "basic_" + show(nodes[0])
    if any(r.quantifier is not None for r in rels):
        return "other"
    if len(chains) == 1 and len(rels) <= 2:
        return "basic_" + chain_text(chains[0])
    if len(rels) == 2 and distinct_nodes == 2:
        first = (
            next(n for n in nodes if (n.variable or f"#{id(n)}") == answer) if answer else nodes[0]
        )
        other = next(n for n in nodes if n is not first and n.variable != first.variable)
        return f"basic_{show(first)}={show(other)}"
    if len(chains) == 2 and len(rels) == 2:
        grouped = _final_projection(query)
        if distinct_nodes == 3 and grouped is not None and _is_aggregating(grouped):
            return "special_three-node-groupby"
        return "basic_" + ",".join(chain_text(c) for c in chains)
    return "other"


def cypherbench_return_category(query: ir.Node) -> str:
    """CypherBench's RETURN pattern family of ``query`` (its aggregation level: ``n_prop``,
    ``n_name_prop``, ``n_prop_distinct`` and ``n_prop_array_distinct`` are ``n_prop_combined``)."""
    final = _final_projection(query)
    if final is None:
        return "other"
    exprs = [item.expr for item in final.items]
    grouped = [p for p in _outer_projections(query) if _is_aggregating(p)]
    aggregating = bool(grouped)
    if any(isinstance(n, ir.SetOperation) for n in query.walk()):
        return "n_union_count" if aggregating else "n_union_name"
    if any(isinstance(e, ir.Case) for x in exprs for e in x.walk()):
        return "n_m0_comparison_argmax"
    if exprs and all(isinstance(x, (ir.Comparison, ir.And, ir.Or, ir.Not)) for x in exprs):
        return "n_m0_comparison_boolean"
    if exprs and all(isinstance(x, ir.Arithmetic) for x in exprs):
        return "n_m0_comparison_arithmetic"
    if aggregating:
        group_exprs = [item.expr for item in grouped[-1].items]
        keys = [x for x in group_exprs if not aggregates(x)]
        if not keys:
            return "n_agg"
        counts = [a for x in group_exprs for a in aggregates_in(x)]
        if any(isinstance(a, ir.Aggregate) and a.name == "count" and a.distinct for a in counts):
            return "n_m0_group_by_count"
        return "n_group_by"
    if final.order_by:
        limit = final.limit
        return "n_argmax" if isinstance(limit, ir.Integer) and limit.value == 1 else "n_order_by"
    linear = next(iter(_linear_queries(query)), None)
    steps = linear.steps if linear is not None else ()
    if any(isinstance(s, ir.Filter) for s in steps) or any(
        isinstance(s, ir.Projection) and s.where is not None for s in steps
    ):
        return "n_where"
    props = [x for x in exprs if isinstance(x, ir.Property)]
    if props and len(props) == len(exprs):
        if [p.key for p in props] == ["name"] and not final.distinct:
            return "n_name"
        return "n_prop_combined"
    return "other"


@dataclass(frozen=True, slots=True)
class Classification:
    level: str
    reasons: list[str]
    match_category: str
    return_category: str
    features: QueryFeatures

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "reasons": list(self.reasons),
            "match_category": self.match_category,
            "return_category": self.return_category,
            "features": self.features.to_dict(),
        }


def classify(text: str | ir.Node, dialect: str = "neo4j") -> Classification:
    """Difficulty level, reasons, CypherBench categories and features of a query (text is
    parsed in ``dialect``; a ``ParseError`` propagates)."""
    from ..api import parse

    query = parse(text, dialect) if isinstance(text, str) else text
    features = query_features(query)
    level, reasons = text2gql_level(features)
    return Classification(
        level,
        reasons,
        cypherbench_match_category(query),
        cypherbench_return_category(query),
        features,
    )
