"""An enclosing query's element named again in a subquery's pattern (pass ``correlated-elements``).

In Cypher and ISO GQL, ``EXISTS { MATCH (a)-[:R]->(b) }`` with ``a`` bound outside matches from
that very node. Spanner rejects it: "graph element names cannot be redefined in an inner graph
subquery" (capability ``subquery_rebinds_elements`` off; its source in ``dialects/spanner.toml``).
The same meaning is a fresh variable equal to the outer one::

    EXISTS { MATCH (a)-[:R]->(b) }  →  EXISTS { MATCH (_g1)-[:R]->(b) WHERE _g1 = a }

This holds in every expression subquery (EXISTS, VALUE, ARRAY, and the COUNT and COLLECT forms
written with them) and in a pattern comprehension the printer writes as a VALUE subquery (its
pattern, condition and projection read the fresh variable); a CALL names what it imports, so it
binds them afresh. The fresh variable
would be a column of a later ``*`` projection in the subquery, so there the MATCH is refused
(a :class:`~gqlir.ir.RefusedStep`, raised where the printer writes it).
"""

from __future__ import annotations

from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node
from .exprs import non_null_literal
from .fresh import FreshNames
from .scoped import ScopedRewrite

__all__ = ["KINDS", "applies", "lower_correlated_elements"]

#: Expression subqueries: they see the enclosing scope's elements.
_EXPRESSION_SUBQUERIES = (e.Exists, e.ValueSubquery, e.CollectSubquery, e.CountSubquery)
_ELEMENTS = frozenset({"node", "edge"})
#: What the pass rewrites inside of (the query holds none: it is skipped).
KINDS = frozenset({*_EXPRESSION_SUBQUERIES, e.PatternComprehension})


def applies(target: Dialect) -> bool:
    return not target.capabilities.subquery_rebinds_elements


def lower_correlated_elements(node: Node, target: Dialect) -> Node:
    """Every subquery pattern element that names an element of an enclosing query, renamed
    and compared with it."""
    return _Correlated(target, node).run(node)


class _Correlated(ScopedRewrite):
    def __init__(self, target: Dialect, root: Node) -> None:
        super().__init__(target)
        self.fresh = FreshNames(root)
        #: Element variables of the queries enclosing the expression subquery being walked.
        self.correlated: frozenset[str] = frozenset()
        #: Whether the step being walked is followed by no ``*`` projection in its query.
        self.may_bind_extra = True

    def expr(self, node: e.Expr) -> e.Expr:
        comprehension = isinstance(node, e.PatternComprehension)
        if not (comprehension or isinstance(node, _EXPRESSION_SUBQUERIES)):
            return super().expr(node)
        outer = self.correlated
        self.correlated = outer | {
            n for n in self.scope if self.type_of(e.Variable(n)).kind in _ELEMENTS
        }
        try:
            if comprehension:
                node = self._comprehension(node)  # type: ignore[arg-type]
            return super().expr(node)
        finally:
            self.correlated = outer

    def _comprehension(self, node: e.PatternComprehension) -> e.PatternComprehension:
        """``[(a)-->(b) | a.x]`` as ``[(_g1)-->(b) WHERE _g1 = a | _g1.x]``, where the printer
        writes it as a VALUE subquery: its projection is never null (a variable of the pattern,
        or a literal), and the target has VALUE."""
        if not self.caps.value_subquery or not _never_null(node.projection, node.pattern):
            return node
        fresh: dict[str, str] = {}
        for element in node.pattern.walk():
            if isinstance(element, (p.NodePattern, p.RelPattern)):
                name = element.variable
                if name in self.correlated and name not in fresh:
                    fresh[name] = self.fresh()
        if not fresh:
            return node

        def rename(inner: Node) -> Node:
            if isinstance(inner, (p.NodePattern, p.RelPattern)) and inner.variable in fresh:
                return replace(inner, variable=fresh[inner.variable])
            if isinstance(inner, e.Variable) and inner.name in fresh:
                return e.Variable(fresh[inner.name], pos=inner.pos)
            return inner

        where = _equalities(fresh)
        if node.where is not None:
            where = e.And(where, node.where.transform(rename))  # type: ignore[arg-type]
        return replace(
            node,
            pattern=node.pattern.transform(rename),  # type: ignore[arg-type]
            where=where,
            projection=node.projection.transform(rename),  # type: ignore[arg-type]
        )

    def _steps(self, steps: tuple[q.Step, ...]) -> tuple[q.Step, ...]:
        out: list[q.Step] | None = None
        star = _star_follows(steps)
        for i, step in enumerate(steps):
            self.may_bind_extra = not star[i]
            new = self.step(step)
            if out is not None:
                out.append(new)
            elif new is not step:
                out = [*steps[:i], new]
        return steps if out is None else tuple(out)

    def step(self, step: q.Step) -> q.Step:
        if isinstance(step, q.CallSubquery):
            outer, self.correlated = self.correlated, frozenset()
            try:
                return super().step(step)
            finally:
                self.correlated = outer
        if isinstance(step, q.Match) and self.correlated and not self._refused_first(step):
            new = self._rebind(step)
            if isinstance(new, q.RefusedStep):
                return new
            bound = super().step(new)
            return step if new is step and bound is step else bound
        return super().step(step)

    def _refused_first(self, step: q.Match) -> bool:
        """Whether the printer refuses the MATCH before it reads its elements: no pattern, or
        a variable-length relationship bound earlier."""
        if not step.patterns:
            return True
        return any(
            rel.quantifier is not None and rel.variable in self.scope
            for pattern in step.patterns
            for rel in pattern.find_all(p.RelPattern)
        )

    def _rebind(self, step: q.Match) -> q.Step:
        fresh: dict[str, str] = {}
        refused: list[Node] = []

        def rename(node: Node) -> Node:
            if isinstance(node, (p.NodePattern, p.RelPattern)) and node.variable in self.correlated:
                if not self.may_bind_extra:
                    refused.append(node)
                    return node
                if node.variable not in fresh:
                    fresh[node.variable] = self.fresh()
                return replace(node, variable=fresh[node.variable])
            return node

        patterns = tuple(x.transform(rename) for x in step.patterns)
        if refused:
            return q.RefusedStep(
                step,
                refused[0],
                "element of the enclosing query in a subquery pattern",
                rewrite="return named columns instead of * from the subquery",
                pos=refused[0].pos,
            )
        if not fresh:
            return step
        where = _equalities(fresh)
        if step.where is not None:
            where = e.And(where, step.where)
        return replace(step, patterns=patterns, where=where)  # type: ignore[arg-type]


def _equalities(fresh: dict[str, str]) -> e.Expr:
    """``_g1 = a AND _g2 = r`` for the fresh names of ``a`` and ``r``."""
    where: e.Expr | None = None
    for outer, name in fresh.items():
        same = e.Comparison(e.CompOp.EQ, e.Variable(name), e.Variable(outer))
        where = same if where is None else e.And(where, same)
    assert where is not None
    return where


def _never_null(node: e.Expr, pattern: p.PathPattern) -> bool:
    """Whether ``node`` has a value on every match of ``pattern`` (the printer writes a pattern
    comprehension as a VALUE subquery only then): a literal list or map, a non-null literal,
    or a variable the pattern binds."""
    if isinstance(node, e.Variable):
        return node.name == pattern.variable or any(
            isinstance(x, (p.NodePattern, p.RelPattern)) and x.variable == node.name
            for x in pattern.walk()
        )
    return isinstance(node, (e.ListLiteral, e.MapLiteral)) or non_null_literal(node)


def _star_follows(steps: tuple[q.Step, ...]) -> list[bool]:
    """For each step, whether the first projection after it keeps every variable (``*``)."""
    out = [False] * len(steps)
    star = False
    for i in range(len(steps) - 1, -1, -1):
        out[i] = star
        if isinstance(steps[i], q.Projection):
            star = steps[i].star  # type: ignore[attr-defined]
    return out
