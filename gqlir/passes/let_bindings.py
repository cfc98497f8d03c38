"""The bindings of one LET on a target that writes LET as a WITH.

GQL's ``LET a = 1, b = a + 1`` binds in order: a binding sees the ones before it (ISO/IEC
39075 14.7 <let statement>: a let variable definition list is the same as a sequence of let
statements, one per definition). A Cypher target without LET writes it ``WITH *, 1 AS a``,
and the items of one WITH cannot see each other (openCypher 9, "WITH": the projected names
are bound for the following clause, not within the projection), so a binding that reads one
bound before it in the same step starts a new step: ``WITH *, 1 AS a WITH *, a + 1 AS b``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import query as q
from ..ir.node import Node, rewrite_each
from .let_steps import groups

__all__ = ["applies", "lower_let_bindings", "summarized"]


def applies(target: Dialect) -> bool:
    return not target.capabilities.let_step


def lower_let_bindings(root: Node, target: Dialect) -> Node:
    """Every LET of ``root`` split where a binding reads one bound before it in the step."""
    return rewrite_each(root, q.LinearQuery, _split_lets)


def _split_lets(query: q.LinearQuery) -> q.LinearQuery:
    if not any(type(x) is q.Let and len(x.bindings) > 1 for x in query.steps):
        return query
    steps: list[q.Step] = []
    for step in query.steps:
        if type(step) is q.Let and len(step.bindings) > 1:
            steps.extend(_split(step))
        else:
            steps.append(step)
    if len(steps) == len(query.steps):
        return query
    return replace(query, steps=tuple(steps))


def _split(step: q.Let) -> list[q.Let]:
    parts = groups(step.bindings)  # (the grouping the GQL family's let-steps uses)
    if len(parts) == 1:
        return [step]
    return [replace(step, bindings=group) for group in parts]


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: bindings are moved."""
    return summary
