"""A LET as the LET statements GQL can write: one per group of bindings that do not read each
other, and none that binds a variable already in scope.

GQL's LET statement (opengql/grammar GQL.g4 14.7 ``letStatement : LET
letVariableDefinitionList``, ``letVariableDefinition : bindingVariable EQUALS_OPERATOR
valueExpression``) declares new binding variables for the statements after it, so one of its
definitions cannot read a variable another definition of the same LET declares: a LET whose
binding reads one bound before it in the same LET is written as a new LET from that binding on
(``LET a = 1, b = a + 1`` is ``LET a = 1 LET b = a + 1``, which gqlir's GQL reader reads back
as the same query). A binding of a variable already in scope would declare it again, so it is
refused (rewrite "bind the value under a new name") where the printer reaches it: the bindings
before it are a LET of their own, the rest a :class:`~gqlir.ir.RefusedStep`. Only the names in
scope are read (the walk is :mod:`.gql_steps`').
"""

from __future__ import annotations

from collections.abc import Collection

from ..ir import query as q
from ..ir.analysis import names_in
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
    """``bindings`` in groups: a binding that names one bound earlier in its group starts the
    next. Every name the value holds counts (``names_in``: a pattern's variables in an EXISTS
    too), so a group may be split where it need not be, never kept where it must not."""
    out: list[list[q.Binding]] = [[]]
    bound: set[str] = set()
    for binding in bindings:
        if out[-1] and not bound.isdisjoint(names_in(binding.value)):
            out.append([])
            bound = set()
        out[-1].append(binding)
        bound.add(binding.variable)
    return [tuple(group) for group in out]
