"""A variable-length relationship whose variable is bound earlier is refused for GQL.

Cypher (Neo4j) matches ``MATCH ()-[rs*]->()`` with ``rs`` already bound to a list as the path
along exactly those relationships. In GQL the variable of a quantified edge pattern is a group
variable, which the pattern itself declares and binds to the list of edges it matched
(opengql/grammar GQL.g4 16.7 ``pathFactor : pathPrimary graphPatternQuantifier``, 16.11
``graphPatternQuantifier``); a group variable cannot be bound in advance, so such a MATCH is
refused where the printer reaches it (a
:class:`~gqlir.ir.RefusedStep` naming the relationship). The scope follows
:mod:`gqlir.analysis.scope` as the printer does (the walk is :mod:`.gql_steps`').
"""

from __future__ import annotations

from ..ir import pattern as p
from ..ir import query as q

__all__ = ["bound_earlier"]

_MESSAGE = (
    "Cypher matches the relationships of a bound list; a GQL group variable cannot be bound "
    "in advance"
)


def bound_earlier(step: q.Match, scope: dict[str, object]) -> q.RefusedStep | None:
    """``step`` refused where it quantifies a relationship bound in ``scope`` (else None)."""
    for pattern in step.patterns:
        for rel in pattern.find_all(p.RelPattern):
            if rel.quantifier is not None and rel.variable in scope:
                return q.RefusedStep(
                    step,
                    rel,
                    "variable-length relationship bound earlier",
                    _MESSAGE,
                    pos=rel.pos,
                )
    return None
