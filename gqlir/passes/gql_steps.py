"""The GQL family's step rules: a walk over the steps with their scope, four rule families.

Each rule writes a step as GQL can, or refuses it as a :class:`~gqlir.ir.RefusedStep` the
printer raises where it reaches it, and is a module of its own stating its rule and its
sources: :mod:`.unwind_lists` (UNWIND of a value known not to be a list),
:mod:`.group_variables` (a quantified relationship whose variable is bound earlier) and
:mod:`.standalone_calls` (a query that is only a procedure call without YIELD) run as the pass
gql-steps; :mod:`.let_steps` (a LET split where a binding reads another, refused where it binds
a variable in scope) as the pass let-steps, before the passes that write LETs of their own
(which bind fresh names that no binding of theirs reads). The walk
follows the scope as :mod:`gqlir.analysis.scope` states it (the printer follows the same
rules); a query without subqueries has its steps followed, not their parts (no expression of
it can hold a step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..analysis.scope import ScopeTypes, pattern_bindings, projection_scope
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import free_variables
from ..ir.node import Node
from . import group_variables, let_steps, standalone_calls, unwind_lists
from .gql_projections import NESTED
from .scoped import ScopedRewrite

__all__ = ["KINDS", "lower_gql_steps", "lower_let_steps"]

#: The node kinds a query holds where a rule may apply.
KINDS = frozenset({q.Unwind, p.Quantifier, q.ProcedureCall})


def lower_gql_steps(
    root: Node, target: Dialect, properties: Mapping[tuple[str, str], str] | None = None
) -> Node:
    """``root`` with the steps the rules of gql-steps refuse refused."""
    return _walk(GqlSteps, root, target, properties)


def lower_let_steps(root: Node, target: Dialect) -> Node:
    """``root`` with its LETs as GQL writes them."""
    return _walk(LetSteps, root, target, None)


def _walk(cls: type[GqlSteps], root: Node, target: Dialect, properties: Any) -> Node:
    from .pipeline import summary_of

    kinds = summary_of(root).kinds
    if cls is GqlSteps and _plainly_written(root, kinds, properties):
        return root
    walk = cls(target, properties)
    # (a pattern comprehension's pattern is read where it may quantify a bound relationship)
    walk.nested = not kinds.isdisjoint(NESTED) or (
        p.Quantifier in kinds and e.PatternComprehension in kinds
    )
    walk.quantified = p.Quantifier in kinds
    return walk.run(root)


class GqlSteps(ScopedRewrite):
    """The walk (expressions are followed only where they may hold a subquery)."""

    nested = True
    #: Whether the query holds a quantifier (else no MATCH is looked into).
    quantified = True

    def _query(self, query: q.Query) -> q.Query:
        new = super()._query(query)
        return standalone_calls.lone_call(new) if type(new) is q.LinearQuery else new

    def step(self, step: q.Step) -> q.Step:
        cls = type(step)
        if cls is q.Unwind:
            return unwind_lists.unwind(self, step)  # type: ignore[arg-type]
        if cls is q.Match and self.quantified and step.patterns:  # type: ignore[attr-defined]
            refused = group_variables.bound_earlier(step, self.scope)  # type: ignore[arg-type]
            if refused is not None:
                self.scope = {**self.scope, **pattern_bindings(step.patterns)}  # type: ignore[attr-defined]
                return refused
        return super().step(step)

    def expr(self, node: e.Expr) -> e.Expr:
        if not self.nested:
            return node
        if self.quantified and type(node) is e.PatternComprehension:
            refused = group_variables.in_comprehension(node, self.scope)  # type: ignore[arg-type]
            if refused is not node:
                return refused
        return super().expr(node)

    def children(self, node: Any, skip: str = "") -> Any:
        return super().children(node, skip) if self.nested else node

    def projection(self, step: q.Projection) -> q.Projection:
        if self.nested:
            return super().projection(step)
        self.scope = projection_scope(step, self.scope)  # type: ignore[assignment]
        return step


class LetSteps(GqlSteps):
    """The walk of let-steps: each LET replaced by the steps :mod:`.let_steps` writes."""

    def _query(self, query: q.Query) -> q.Query:
        return ScopedRewrite._query(self, query)

    def step(self, step: q.Step) -> q.Step:
        return ScopedRewrite.step(self, step)

    def _steps(self, steps: tuple[q.Step, ...]) -> tuple[q.Step, ...]:
        out: list[q.Step] | None = None
        for i, step in enumerate(steps):
            written = let_steps.let_steps(step, self.scope) if type(step) is q.Let else None
            news = [self.step(x) for x in written] if written is not None else [self.step(step)]
            if out is None and (len(news) != 1 or news[0] is not step):
                out = list(steps[:i])
            if out is not None:
                out.extend(news)
        return steps if out is None else tuple(out)


def _plainly_written(root: Node, kinds: frozenset[type], properties: Any) -> bool:
    """Whether no rule of gql-steps can apply to ``root`` without following its scope: a query
    without subqueries, quantifiers or procedure calls whose every UNWIND reads no variable and
    is of a list or of a type not known (found without a scope)."""
    if type(root) is not q.LinearQuery or not kinds.isdisjoint(_SCOPED):
        return False
    types = None
    for step in root.steps:
        if type(step) is not q.Unwind:
            continue
        source = step.source
        if type(source) is e.ListLiteral:
            continue
        if free_variables(source):
            return False
        if types is None:
            types = ScopeTypes({}, properties)
        found = types.of(source)
        if found.known and found.kind != "list":
            return False
    return True


#: What makes a rule of gql-steps depend on the scope (or on a subquery's).
_SCOPED = frozenset({*NESTED, p.Quantifier, q.ProcedureCall, q.Foreach})
