"""A query that is only a procedure call without YIELD is refused for GQL.

Cypher's standalone ``CALL proc()`` (a query that is only the call, which may leave out YIELD)
returns the procedure's rows with all its output fields (Neo4j Cypher manual, CALL procedure).
A GQL query ends with a result statement (opengql/grammar GQL.g4 14.3
``ambientLinearQueryStatement : simpleLinearQueryStatement? primitiveResultStatement``, 14.10
``primitiveResultStatement : returnStatement orderByAndPageStatement? | FINISH``), so the
printer writes ``RETURN`` of the
yielded fields (``RETURN *`` after ``YIELD *``); without YIELD the fields are not known at
translation time, and ``FINISH`` returns no rows, so the query is refused. The refusal is a
:class:`~gqlir.ir.RefusedStep` after the call, raised where the RETURN would be written (the
call's own refusals come first; the walk is :mod:`.gql_steps`').
"""

from __future__ import annotations

from ..ir import query as q
from ..ir.node import rebuilt

__all__ = ["lone_call"]


def lone_call(query: q.LinearQuery) -> q.LinearQuery:
    """``query`` refused after its call where it is only a procedure call without YIELD."""
    steps = query.steps
    if len(steps) != 1 or type(steps[0]) is not q.ProcedureCall:
        return query
    call: q.ProcedureCall = steps[0]
    if call.yield_star or call.yields:
        return query
    refused = q.RefusedStep(
        call,
        call,
        "standalone CALL without YIELD",
        rewrite="YIELD the procedure's output fields",
        pos=call.pos,
    )
    return rebuilt(query, steps=(call, refused))
