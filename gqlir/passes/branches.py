"""Lowering a query one linear query at a time: each branch of a set operation is lowered on
its own, since the rules of such passes look only at the steps of one linear query."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from ..ir import query as q
from ..ir.node import Node

__all__ = ["each_linear_query"]


def each_linear_query(root: Node, lower: Callable[[q.LinearQuery], Node]) -> Node:
    """``root`` with ``lower`` applied to each linear query of its set operations (``root``
    itself when nothing changed; other nodes are returned as they are)."""
    if isinstance(root, q.SetOperation):
        left = each_linear_query(root.left, lower)
        right = each_linear_query(root.right, lower)
        if left is root.left and right is root.right:
            return root
        return replace(root, left=cast(Any, left), right=cast(Any, right))
    if isinstance(root, q.LinearQuery):
        return lower(root)
    return root
