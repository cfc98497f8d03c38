"""UNWIND (GQL's ``FOR``) of a value known not to be a list is refused.

Cypher's UNWIND of a value that is not a list gives one row with the value, and of null none
(as Neo4j runs it, and as the reference evaluator states it: ``gqlir/eval/interpreter.py``
``_unwind``). GQL's ``FOR x IN v`` iterates a list (opengql/grammar GQL.g4 14.8 ``forStatement :
FOR forItem …``, ``forItemSource : valueExpression``, a collection), so an
UNWIND whose source the type analysis knows to be a scalar, a map or an element (a literal, a
bound variable of a known kind) is refused with the rewrite ``UNWIND a list: [value]``; one
of unknown type (a parameter, a property) is written as it is. The scope follows
:mod:`gqlir.analysis.scope` as the printer does; the refusal replaces the step
(:class:`~gqlir.ir.RefusedStep`), raised where the printer reaches it. The walk is
:mod:`.gql_steps`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..analysis.scope import Deferred, deferred_unwind_bindings, unwind_bindings
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import rebuilt

if TYPE_CHECKING:
    from .scoped import ScopedRewrite

__all__ = ["unwind"]


def unwind(walk: ScopedRewrite, step: q.Unwind) -> q.Step:
    """``step`` (refused, or with its source rewritten by the walk); the walk's scope then
    holds what it binds."""
    source = step.source
    written = walk.expr(source)
    if _a_list(source, walk.scope):  # (whatever its elements' type: asked only if read)
        refused = False
        bound = deferred_unwind_bindings(step, walk.scope)
    else:
        found = walk.type_of(source)
        refused = found.known and found.kind != "list"
        bound = unwind_bindings(step, found)
    walk.scope = {**walk.scope, **bound}
    if refused:
        return q.RefusedStep(
            step,
            source,
            "UNWIND of a non-list value",
            rewrite="UNWIND a list: [value]",
            pos=source.pos,
        )
    return step if written is source else rebuilt(step, source=written)


def _a_list(source: e.Expr, scope: dict[str, Any]) -> bool:
    """Whether ``source`` is a list literal or a variable bound to one (whose kind is known
    without inferring its elements' type)."""
    if type(source) is e.Variable:
        bound = scope.get(source.name)
        if type(bound) is not Deferred or bound.element or bound.found is not None:
            return False
        source = bound.expr
    return type(source) is e.ListLiteral
