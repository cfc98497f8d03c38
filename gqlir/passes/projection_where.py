"""``WITH … WHERE`` on a variable the WITH drops, for a GQL target.

Rule: Cypher's ``WITH a WHERE b.x > 1`` filters with the incoming scope as well as the
projected columns (openCypher 9, "WITH": "WHERE … can reference variables from the preceding
scope"; the IR's ``Projection.where``). GQL has no WHERE on RETURN: a ``FILTER`` statement after
``RETURN … NEXT`` sees only the returned columns (GQL.g4 ``filterStatement``; ISO/IEC 39075
14.10). So the projection keeps the variables the condition reads as extra columns, ``FILTER``
runs after its ordering and paging, and a second projection drops them. Where the projection
aggregates, is DISTINCT or ``*``, an extra column would change its rows: refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..analysis.aggregates import aggregates
from ..ir import expr as e
from ..ir import query as q
from .projection_sorting import variables

if TYPE_CHECKING:
    from .gql_projections import GqlProjections

__all__ = ["lower"]


def lower(walk: GqlProjections, step: q.Projection, *, final: bool, top: bool) -> list[q.Step]:
    """``step`` (with a WHERE) as a projection keeping what the WHERE reads, FILTER, and a
    projection of the columns."""
    assert step.where is not None
    aliases = [item.alias or getattr(item.expr, "name", "") for item in step.items]
    if step.distinct or step.star or any(aggregates(i.expr) for i in step.items):
        raise walk.unsupported(
            "WITH … WHERE on a dropped variable",
            step.where,
            rewrite="keep the variable in the WITH",
        )
    # (variables a subquery of the condition binds are not the incoming scope's)
    hidden = sorted(v for v in variables(step.where) - set(aliases) if v in walk.scope)
    first = replace(
        step,
        items=step.items + tuple(q.ReturnItem(e.Variable(v), v) for v in hidden),
        where=None,
    )
    out = walk.projection_steps(first, final=False, top=top)
    out.append(q.Filter(step.where, pos=step.where.pos))
    second = q.Projection(tuple(q.ReturnItem(e.Variable(a), a) for a in aliases), pos=step.pos)
    out.extend(walk.projection_steps(second, final=final, top=top))
    return out
