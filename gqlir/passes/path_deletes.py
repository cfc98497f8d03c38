"""``DELETE p`` of a path, where GQL deletes only nodes and edges (pass ``path-deletes``).

Cypher's ``DELETE`` takes paths as well as nodes and relationships, and deletes every element
of a path ("The DELETE clause is used to delete nodes, relationships or paths",
https://neo4j.com/docs/cypher-manual/4.4/clauses/delete). GQL deletes nodes and edges
(opengql/grammar ``GQL.g4``, ``deleteStatement``); a path's elements are its ``ELEMENTS(p)``.
So a ``DELETE`` that ends its query and names paths becomes a walk over their elements::

    DELETE p, n      →  FOR _e IN COALESCE(ELEMENTS(p), []) || [n] DELETE _e

The walk multiplies the rows, which only the query's end may see, so a ``DELETE`` of a path
before other steps is refused (left as :class:`~gqlir.ir.Untranslatable` around the path, which
the printer raises where it writes it); deleting takes the set of what all rows name, as
Cypher's does. A path of a target with no ``ELEMENTS()``, or a DELETE that also names a value
whose kind is not known, is refused the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node
from .fresh import FreshNames
from .scoped import ScopedRewrite

__all__ = ["applies", "lower_path_deletes"]

_REWRITE = "delete the path's relationships and nodes by variable"


def applies(target: Dialect) -> bool:
    return target.capabilities.graph_writes


def lower_path_deletes(
    node: Node, target: Dialect, properties: Mapping[tuple[str, str], str] | None = None
) -> Node:
    """Every ``DELETE`` of ``node`` that names a path, as a walk over the path's elements or
    refused."""
    return _PathDeletes(target, node, properties).run(node)


class _PathDeletes(ScopedRewrite):
    def __init__(
        self, target: Dialect, root: Node, properties: Mapping[tuple[str, str], str] | None
    ) -> None:
        super().__init__(target, properties)
        funcs = target.functions
        self.walks = "elements" in funcs and "elements" not in self.caps.unsupported_functions
        self.names = FreshNames(root, "_e")

    def _steps(self, steps: tuple[q.Step, ...]) -> tuple[q.Step, ...]:
        out: list[q.Step] | None = None
        last = len(steps) - 1
        for i, step in enumerate(steps):
            if isinstance(step, q.Delete):
                new: tuple[q.Step, ...] = self.delete(step, final=i == last)
            else:
                new = (self.step(step),)
            if out is not None:
                out.extend(new)
            elif new != (step,) or new[0] is not step:
                out = [*steps[:i], *new]
        return steps if out is None else tuple(out)

    def delete(self, step: q.Delete, *, final: bool) -> tuple[q.Step, ...]:
        kinds = [self.type_of(target).kind for target in step.targets]
        if "path" not in kinds:
            return (step,)
        if final and self.walks and all(k in ("path", "node", "edge", "null") for k in kinds):
            return self._walk(step, kinds)
        targets = tuple(
            e.Untranslatable(t, "DELETE of a path", "", _REWRITE, pos=t.pos) if k == "path" else t
            for t, k in zip(step.targets, kinds, strict=True)
        )
        return (replace(step, targets=targets),)

    def _walk(self, step: q.Delete, kinds: list[str]) -> tuple[q.Step, ...]:
        parts: list[e.Expr] = []
        for target, kind in zip(step.targets, kinds, strict=True):
            if kind == "path":
                elements = e.FunctionCall("elements", (target,))
                parts.append(
                    elements
                    if len(step.targets) == 1
                    else e.FunctionCall("coalesce", (elements, e.ListLiteral(())))
                )
            else:
                parts.append(e.ListLiteral((target,)))
        source = parts[0]
        for part in parts[1:]:
            source = e.Concat(source, part)
        item = self.names.named("_e")
        walk = q.Unwind(source, item, pos=step.pos)
        return walk, replace(step, targets=(e.Variable(item),))
