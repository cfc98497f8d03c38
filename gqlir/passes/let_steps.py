"""A LET as the LET statements GQL can write: one per group of bindings that do not read each
other, and none that binds a variable already in scope.

GQL's LET statement (opengql/grammar GQLParser.g4 ``letStatement : LET letVariableDefinitionList``)
defines its variables for the statements after it: a definition cannot read a variable another
definition of the same LET binds (ISO/IEC 39075 14.9, the scope of a let variable is the rest of
the query after the statement). A LET whose binding reads one bound before it in the same LET is
written as a new LET from that binding on (``LET a = 1, b = a + 1`` is ``LET a = 1 LET b = a +
1``, as a reader of GQL means it). A let variable must be new (14.9: it shall not be the name of
a binding variable in the incoming working record), so a binding of a variable in scope is
refused (rewrite "bind the value under a new name") where the printer reaches it: the bindings
before it are a LET of their own, the rest a :class:`~gqlir.ir.RefusedStep`. Only the names in
scope are read (the walk is :mod:`.gql_steps`').
"""

from __future__ import annotations

from collections.abc import Collection

from ..ir import expr as e
from ..ir import query as q
from ..ir.node import rebuilt

__all__ = ["groups", "let_steps"]


def let_steps(step: q.Let, scope: Collection[str]) -> list[q.Step] | None:
    """``step`` as the steps that write it in ``scope`` (None: it is written as it is)."""
    parts = groups(step.bindings)
    out: list[q.Step] = []
    bound = set(scope)
    for group in parts:
        for i, binding in enumerate(group):
            if binding.variable in bound:
                if i:
                    out.append(rebuilt(step, bindings=group[:i]))
                rest = rebuilt(step, bindings=group[i:])
                out.append(
                    q.RefusedStep(
                        rest,
                        binding,
                        "LET of a bound variable",
                        rewrite="bind the value under a new name",
                        pos=binding.pos,
                    )
                )
                return out
        out.append(rebuilt(step, bindings=group) if len(parts) > 1 else step)
        bound.update(binding.variable for binding in group)
    return out if len(out) > 1 else None


def groups(bindings: tuple[q.Binding, ...]) -> list[tuple[q.Binding, ...]]:
    """``bindings`` in groups: a binding that reads one bound earlier in its group starts the
    next."""
    out: list[list[q.Binding]] = [[]]
    bound: set[str] = set()
    for binding in bindings:
        if out[-1] and not bound.isdisjoint(v.name for v in binding.value.find_all(e.Variable)):
            out.append([])
            bound = set()
        out[-1].append(binding)
        bound.add(binding.variable)
    return [tuple(group) for group in out]
