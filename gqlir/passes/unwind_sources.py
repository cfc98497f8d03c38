"""UNWIND (GQL's ``FOR``) of a value known not to be a list is refused.

GQL's ``FOR x IN l`` takes a list value expression (ISO/IEC 39075 14.8 ``forStatement``:
``FOR forItemAlias forItemSource``, ``forItemSource : valueExpression`` of a list type), while
Cypher's ``UNWIND v AS x`` of a non-list ``v`` yields one row with ``x = v`` (Neo4j Cypher
manual, UNWIND: "Using UNWIND on an expression that is not a list … will return the same
result as using UNWIND on a list that just contains that expression"). So a source whose type is
known (:mod:`gqlir.analysis.types`, with the variables in scope) and is not a list is refused,
with the rewrite ``UNWIND a list: [value]``; the refusal stays in the IR at the source
(:class:`~gqlir.ir.expr.Untranslatable`) for the printer to raise where it writes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..analysis.scope import unwind_bindings
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node
from .scoped import ScopedRewrite

__all__ = ["lower_unwind_sources"]


def lower_unwind_sources(
    root: Node, target: Dialect, properties: Mapping[tuple[str, str], str] | None = None
) -> Node:
    """``root`` with each UNWIND of a known non-list value refused at its source."""
    return _UnwindSources(target, properties).run(root)


class _UnwindSources(ScopedRewrite):
    def step(self, step: q.Step) -> q.Step:
        if type(step) is q.Unwind:
            unwind: q.Unwind = step  # type: ignore[assignment]
            source_type = self.type_of(unwind.source)
            if source_type.known and source_type.kind != "list":
                source = unwind.source
                refused = e.Untranslatable(
                    source,
                    "UNWIND of a non-list value",
                    "",
                    "UNWIND a list: [value]",
                    pos=source.pos,
                )
                self.scope = {**self.scope, **unwind_bindings(unwind, source_type)}
                return replace(unwind, source=refused)
        return super().step(step)
