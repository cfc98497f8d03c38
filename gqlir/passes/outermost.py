"""Refusals of the outermost nodes of one class, found in one walk that stops where it refuses.

A printer raises a refusal where it reaches the refused node and writes nothing inside it, so a
rule that refuses a node (a MATCH, a CASE) needs to look at the outermost ones only: what is
inside a refused node is never written. The walk skips the IR's leaves and rebuilds the query
only when it refuses something (most queries, for most targets, it leaves alone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ir import expr as e
from ..ir import query as q
from ..ir.node import CHILD_GETTERS, Node, node_getter

__all__ = ["refuse_outermost"]


#: What holds no node worth looking into.
_LEAVES = frozenset(
    {str, int, float, bool, type(None), e.Null, e.Boolean, e.Integer, e.Float, e.String}
    | {e.Variable, e.Parameter}
)


def refuse_outermost(
    root: Node, kind: type, refuse: Callable[[Any], Node], skip: tuple[type, ...] = ()
) -> Node:
    """``root`` with each outermost node of class ``kind`` that ``refuse`` replaces (returns
    anything but the node itself) replaced; nothing inside a replaced node is asked, nor
    inside a node of a class in ``skip`` (which the caller knows holds none). The steps of a
    FOREACH body that do not update are not asked either: the printer refuses the FOREACH
    there, before it writes them."""
    found: dict[int, Node] = {}
    stack: list[Any] = [root]
    pop, extend, leaves, getters = stack.pop, stack.extend, _LEAVES, CHILD_GETTERS
    prop, foreach = e.Property, q.Foreach
    while stack:
        node = pop()
        cls = type(node)
        if cls in leaves:
            continue
        if skip and isinstance(node, skip):
            continue
        if cls is foreach:
            stack.append(node.source)
            extend(x for x in node.body if isinstance(x, q.UPDATING_STEPS))
            continue
        if cls is prop:  # (the commonest node: a property of a variable)
            stack.append(node.subject)
            continue
        if cls is tuple:
            extend(node)
            continue
        if cls is kind:
            new = refuse(node)
            if new is not node:
                found[id(node)] = new
                continue
        extend((getters.get(cls) or node_getter(cls))(node))
    if not found:
        return root
    return root.transform(lambda x: found.get(id(x), x))
