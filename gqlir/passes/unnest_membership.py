"""Cypher's ``x IN l`` where the target writes membership as GoogleSQL's ``x IN UNNEST(l)``.

GoogleSQL's ``x IN UNNEST(l)`` has Cypher's three-valued rules, except that ``UNNEST(NULL)`` is
empty, so the answer is false where Cypher's ``x IN null`` is null (zetasql docs/operators.md,
"IN operator", semantic rules; openCypher 9, "Lists"): a list that may be null is tested first,
``CASE WHEN l IS NULL THEN NULL ELSE x IN UNNEST(l) END``, which evaluates it twice, so it must
be repeatable (else refused). A literal list is never null. GoogleSQL has no arrays of arrays,
so a list item is refused. Selected by the capability ``membership_unnest``. The guarded form
is ``x IN coalesce(l, [])`` in the IR, which the printer writes ``x IN UNNEST(l)`` (the form
the Spanner reader builds for it).
"""

from __future__ import annotations

from typing import Any

from ..ir import expr as e
from .exprs import pure

__all__ = ["is_guarded", "membership"]

_EMPTY = e.ListLiteral(())


def is_guarded(container: e.Expr) -> bool:
    """``coalesce(l, [])``: a list whose null needs no guard (UNNEST of it is empty)."""
    return (
        isinstance(container, e.FunctionCall)
        and container.name == "coalesce"
        and len(container.args) == 2
        and container.args[1] == _EMPTY
    )


def membership(walk: Any, node: e.In) -> e.Expr:
    if not walk.caps.membership_unnest:
        return node
    if walk.type_of(node.item).kind == "list":
        # GoogleSQL has no arrays of arrays for UNNEST to compare a list with
        raise walk.unsupported("IN with a list item", node)
    container = node.container
    if isinstance(container, e.ListLiteral) or is_guarded(container):
        return node
    if isinstance(container, e.CollectSubquery) and walk.caps.array_subquery:
        return node  # x IN { subquery }: membership in its rows, never null
    if not pure(container):
        raise walk.unsupported(
            "IN", node, rewrite="bind the list to a variable, or test it for null first"
        )
    guarded = e.In(node.item, e.FunctionCall("coalesce", (container, _EMPTY)), pos=node.pos)
    return e.Case(None, (e.CaseWhen(e.IsNull(container), e.Null()),), guarded, pos=node.pos)
