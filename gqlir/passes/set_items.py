"""Cypher's SET items in GQL SET statements (pass ``set-items``).

* **Order.** Cypher assigns a SET's items in order, so a later item reads what an earlier one
  wrote (``SET n.a = n.b, n.b = n.a`` leaves both equal; the reference evaluator,
  :mod:`gqlir.eval.writes`, does the same). A GQL SET statement is one statement over the
  incoming record (opengql/grammar ``GQL.g4``: ``setStatement : SET setItemList``), whose items
  an engine may evaluate before it assigns any. Separate statements run one after the other
  whichever way an engine orders one statement's items, so an item that reads a variable an
  earlier item of the clause wrote starts a new SET statement: ``SET n.a = n.b SET n.b = n.a``.
* **``+=``.** ``SET n += {k: v}`` sets the keys it names and keeps the others (Neo4j Cypher
  manual, SET, "Mutate specific properties using a map and +="), which is ``SET n.k = v`` for
  each key; a target without ``+=`` (capability ``set_merge_map``, which TuGraph GQL has) gets
  the items. The items of one ``+=`` stay in one statement: Cypher computes the whole map
  before it sets any key.
"""

from __future__ import annotations

from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node, rewrite_each

__all__ = ["applies", "lower_set_items"]


def applies(target: Dialect) -> bool:
    return target.capabilities.graph_writes


def lower_set_items(node: Node, target: Dialect) -> Node:
    """Every SET clause of ``node`` as the GQL SET statements that assign in Cypher's order."""
    merge_map = target.capabilities.set_merge_map

    def lower(inner: q.LinearQuery) -> q.LinearQuery:
        steps: list[q.Step] = []
        for step in inner.steps:
            steps.extend(_statements(step, merge_map) if type(step) is q.SetClause else (step,))
        if len(steps) != len(inner.steps) or any(
            a is not b for a, b in zip(steps, inner.steps, strict=True)
        ):
            return replace(inner, steps=tuple(steps))
        return inner

    return rewrite_each(node, q.LinearQuery, lower)


def _statements(step: q.SetClause, merge_map: bool) -> list[q.Step]:
    """``step`` as one SET per run of items that read nothing an earlier item of the run
    wrote (the same step when that is one run and nothing is expanded)."""
    groups: list[list[q.SetItem]] = [[]]
    written: set[str] = set()
    changed = False
    for item in step.items:
        value = getattr(item, "value", None)
        reads = {v.name for v in value.find_all(e.Variable)} if value is not None else set()
        if groups[-1] and not reads.isdisjoint(written):
            groups.append([])
            written = set()
        expanded = _expanded(item, merge_map)
        changed = changed or expanded != [item]
        groups[-1].extend(expanded)
        written.add(_target(item))
    if len(groups) == 1 and not changed:
        return [step]
    return [replace(step, items=tuple(group)) for group in groups if group] or [step]


def _expanded(item: q.SetItem, merge_map: bool) -> list[q.SetItem]:
    """``n += {k: v, …}`` as ``n.k = v, …`` where the target has no ``+=``."""
    if (
        isinstance(item, q.SetProperties)
        and item.merge
        and not merge_map
        and isinstance(item.value, e.MapLiteral)
        and item.value.entries
    ):
        subject = e.Variable(item.variable, pos=item.pos)
        return [
            q.SetProperty(subject, key, value, pos=item.pos) for key, value in item.value.entries
        ]
    return [item]


def _target(item: q.SetItem) -> str:
    """The variable an item writes to."""
    if isinstance(item, (q.SetProperty, q.SetDynamicProperty)):
        return item.subject.name if isinstance(item.subject, e.Variable) else ""
    return item.variable
