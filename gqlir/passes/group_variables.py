"""A variable-length relationship whose variable is bound earlier is refused for GQL.

Cypher (Neo4j) matches ``MATCH ()-[rs*]->()`` with ``rs`` already bound to a list as the path
along exactly those relationships. In GQL the variable of a quantified edge pattern is a group
variable, which the pattern itself declares and binds to the list of edges it matched
(opengql/grammar GQL.g4 16.7 ``pathFactor : pathPrimary graphPatternQuantifier``, 16.11
``graphPatternQuantifier``); a group variable cannot be bound in advance, so such a MATCH is
refused where the printer reaches it (a
:class:`~gqlir.ir.RefusedStep` naming the relationship), and so is a pattern comprehension
with such a pattern, which GQL writes as a ``VALUE { MATCH … }`` subquery (refused in place). The scope follows
:mod:`gqlir.analysis.scope` as the printer does (the walk is :mod:`.gql_steps`').
"""

from __future__ import annotations

from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q

__all__ = ["CONSTRUCT", "bound_earlier", "in_comprehension", "quantified_bound"]

_MESSAGE = (
    "Cypher matches the relationships of a bound list; a GQL group variable cannot be bound "
    "in advance"
)


#: The construct refused.
CONSTRUCT = "variable-length relationship bound earlier"


def bound_earlier(step: q.Match, scope: dict[str, object]) -> q.RefusedStep | None:
    """``step`` refused where it quantifies a relationship bound in ``scope`` (else None)."""
    for pattern in step.patterns:
        rel = quantified_bound(pattern, scope)
        if rel is not None:
            return q.RefusedStep(step, rel, CONSTRUCT, _MESSAGE, pos=rel.pos)
    return None


def in_comprehension(node: e.PatternComprehension, scope: dict[str, object]) -> e.Expr:
    """A pattern comprehension refused in place where its pattern quantifies a relationship
    bound in ``scope`` (it becomes a ``VALUE { MATCH … }`` subquery in GQL), else ``node``."""
    rel = quantified_bound(node.pattern, scope)
    if rel is None:
        return node
    return e.Untranslatable(node, CONSTRUCT, _MESSAGE, pos=rel.pos)


def quantified_bound(pattern: p.PathPattern, scope: dict[str, object]) -> p.RelPattern | None:
    """The first quantified relationship of ``pattern`` whose variable ``scope`` binds."""
    for rel in pattern.find_all(p.RelPattern):
        if rel.quantifier is not None and rel.variable in scope:
            return rel
    return None
