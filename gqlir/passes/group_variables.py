"""A variable-length relationship whose variable is bound earlier is refused for GQL.

Cypher (Neo4j 4 and 5, deprecated) matches ``MATCH ()-[rs*]->()`` with ``rs`` already bound to
a list as the path along exactly those relationships. In GQL the variable of a quantified edge
pattern is a group variable, which the pattern itself declares and binds to the list of edges
it matched (ISO/IEC 39075 16.7 ``graphPatternQuantifier``, "group degree of reference";
opengql/grammar GQLParser.g4 ``quantifiedPathPrimary``); a group variable cannot be bound in
advance, so such a MATCH is refused where the printer reaches it (a
:class:`~gqlir.ir.RefusedStep` naming the relationship). The scope follows
:mod:`gqlir.analysis.scope` as the printer does; expressions are walked only where they hold a
subquery (which may hold a MATCH).
"""

from __future__ import annotations

from typing import Any

from ..analysis.scope import projection_scope
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node
from .gql_projections import NESTED
from .scoped import ScopedRewrite

__all__ = ["lower_group_variables"]

_MESSAGE = (
    "Cypher matches the relationships of a bound list; a GQL group variable cannot be bound "
    "in advance"
)


def lower_group_variables(root: Node, target: Dialect) -> Node:
    """``root`` with each MATCH that quantifies a relationship bound earlier refused."""
    from .pipeline import summary_of

    walk = _GroupVariables(target)
    walk.nested = not summary_of(root).kinds.isdisjoint(NESTED)
    return walk.run(root)


class _GroupVariables(ScopedRewrite):
    nested = True

    def step(self, step: q.Step) -> q.Step:
        if type(step) is not q.Match or not step.patterns:  # type: ignore[attr-defined]
            return super().step(step)
        bound = self.scope
        refused = next(
            (
                rel
                for pattern in step.patterns  # type: ignore[attr-defined]
                for rel in pattern.find_all(p.RelPattern)
                if rel.quantifier is not None and rel.variable in bound
            ),
            None,
        )
        new = super().step(step)
        if refused is None:
            return new
        return q.RefusedStep(
            step,
            refused,
            "variable-length relationship bound earlier",
            _MESSAGE,
            pos=refused.pos,
        )

    # (without subqueries, only the steps are followed: their scope, not their parts)
    def expr(self, node: e.Expr) -> e.Expr:
        return super().expr(node) if self.nested else node

    def children(self, node: Any, skip: str = "") -> Any:
        return super().children(node, skip) if self.nested else node

    def projection(self, step: q.Projection) -> q.Projection:
        if self.nested:
            return super().projection(step)
        self.scope = projection_scope(step, self.scope)  # type: ignore[arg-type]
        return step
