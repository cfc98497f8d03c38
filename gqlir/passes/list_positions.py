"""List positions on a target that counts them from 1.

The IR counts a list's positions from 0, and from the end with negatives, as Cypher does
(``l[0]`` is the first element, ``l[-1]`` the last; Neo4j Cypher manual, "Lists"). Kuzu counts
from 1: ``l[1]`` is the first element and ``l[0]`` raises "List extract takes 1-based position"
(dialects/kuzu.toml, ``list_index_base``: Kuzu's list-functions.md, ``list_extract``; observed).
A literal position from the start is shifted by the target's base, and a negative one is kept;
a string subscript is a map key and is kept. Any other subscript could be a position of either
sign or a key, so it is refused in place (:class:`~gqlir.ir.expr.Untranslatable`), as is a
``[a..b]`` slice with bounds where the target writes that syntax but counts from its base.

After this pass a literal position in a subscript is the target's own count: the printer writes
it as it stands.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node

__all__ = ["applies", "lower_list_positions"]


def applies(target: Dialect) -> bool:
    caps = target.capabilities
    return caps.list_index_base != 0 and (
        caps.subscript or (caps.slicing and caps.slice_syntax == "..")
    )


def lower_list_positions(root: Node, target: Dialect) -> Node:
    """``root`` with each subscript's literal position counted from the target's base, and
    the subscripts and slices that cannot be shifted refused."""
    caps = target.capabilities
    base = caps.list_index_base
    # (where the target has no subscript or no `..` slice, the printer refuses the syntax)
    subscripts, slices = caps.subscript, caps.slicing and caps.slice_syntax == ".."
    position_message = (
        f"{target.name} counts list positions from {base}; only a literal position can be "
        "shifted to it"
    )
    slice_message = f"{target.name} counts list positions from {base}; the IR's slice is 0-based"

    def rewrite(node: Node) -> Node:
        if isinstance(node, e.Index) and subscripts:
            index = node.index
            if isinstance(index, e.String):  # a map key, not a position
                return node
            if not isinstance(index, e.Integer):
                return e.Untranslatable(node, "list subscript", position_message, pos=node.pos)
            if index.value < 0:  # from the end: as every dialect counts
                return node
            shifted = e.Integer(index.value + base, pos=index.pos)
            return e.Index(node.subject, shifted, pos=node.pos)
        if isinstance(node, e.Slice) and slices:
            if node.start is None and node.end is None:
                return node
            return e.Untranslatable(node, "list slice", slice_message, pos=node.pos)
        return node

    return root.transform(rewrite)


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: positions change, and a refused
    subscript is kept inside the Untranslatable."""
    return replace(summary, kinds=summary.kinds | {e.Untranslatable})
