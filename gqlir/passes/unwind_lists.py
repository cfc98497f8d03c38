"""UNWIND (GQL's ``FOR``) of a value known not to be a list is refused.

Cypher's UNWIND of a non-list value gives one row with the value (openCypher 9, UNWIND: "using
UNWIND on an expression that does not return a list … will return the value itself"; null
gives no rows). GQL's ``FOR x IN v`` takes a list (opengql/grammar GQLParser.g4 ``forItemSource
: valueExpression`` whose type must be a list or binding table, ISO/IEC 39075 14.8), so an
UNWIND whose source the type analysis knows to be a scalar, a map or an element (a literal, a
bound variable of a known kind) is refused with the rewrite ``UNWIND a list: [value]``; one
of unknown type (a parameter, a property) is written as it is. The scope follows
:mod:`gqlir.analysis.scope` as the printer does; the refusal replaces the step
(:class:`~gqlir.ir.RefusedStep`), raised where the printer reaches it. Expressions are walked
only where they hold a subquery (which may hold an UNWIND).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..analysis.scope import deferred_unwind_bindings, projection_scope, unwind_bindings
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node, rebuilt
from .gql_projections import NESTED
from .scoped import ScopedRewrite

__all__ = ["lower_unwind_lists"]


def lower_unwind_lists(
    root: Node, target: Dialect, properties: Mapping[tuple[str, str], str] | None = None
) -> Node:
    """``root`` with each UNWIND of a known non-list refused."""
    from .pipeline import summary_of

    walk = _UnwindLists(target, properties)
    walk.nested = not summary_of(root).kinds.isdisjoint(NESTED)
    return walk.run(root)


class _UnwindLists(ScopedRewrite):
    nested = True

    def step(self, step: q.Step) -> q.Step:
        if type(step) is not q.Unwind:
            return super().step(step)
        source = step.source
        written = self.expr(source)
        if type(source) is e.ListLiteral:  # (a list, whatever its elements' type)
            refused = False
            bound = deferred_unwind_bindings(step, self.scope)
        else:
            found = self.type_of(source)
            refused = found.known and found.kind != "list"
            bound = unwind_bindings(step, found)
        self.scope = {**self.scope, **bound}
        if refused:
            return q.RefusedStep(
                step,
                source,
                "UNWIND of a non-list value",
                rewrite="UNWIND a list: [value]",
                pos=source.pos,
            )
        return step if written is source else rebuilt(step, source=written)

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
