"""Path modes a target cannot write but that change nothing under its match mode, dropped.

Rule: under ``DIFFERENT EDGES`` no edge repeats anywhere in the MATCH, so every path in it is
already a trail: ``WALK`` and ``TRAIL`` on one of its path patterns (or parenthesised sub-paths)
keep the same rows without the word. A target with no path modes whose MATCH keeps edges
distinct by itself (TuGraph GQL: ``dialects/tugraph-gql.toml`` ``path_modes``,
``default_match_mode``) gets the MATCH without them; ``SIMPLE`` and ``ACYCLIC`` (distinct
nodes) are left for the printer to refuse.

Capabilities read: ``path_modes``, ``default_match_mode``, ``match_modes``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from ..dialect import Dialect
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node

__all__ = ["DROPPED", "applies", "drop_redundant_path_modes"]

#: The path modes this pass drops.
DROPPED = frozenset({p.PathMode.WALK, p.PathMode.TRAIL})


def applies(target: Dialect) -> bool:
    """Whether the target lacks WALK or TRAIL but keeps a MATCH's edges distinct unasked."""
    caps = target.capabilities
    return (
        not {"WALK", "TRAIL"} <= set(caps.path_modes)
        and caps.default_match_mode == "DIFFERENT_EDGES"
        and not caps.match_modes
    )


def drop_redundant_path_modes(root: Node, target: Dialect) -> Node:
    """``root`` with WALK and TRAIL dropped inside every DIFFERENT EDGES MATCH."""
    if not applies(target):
        return root

    def strip(node: Node) -> Node:
        if isinstance(node, (p.PathPattern, p.ParenPath)) and node.mode in DROPPED:
            return replace(node, mode=None)
        return node

    def match(node: Node) -> Node:
        if isinstance(node, q.Match) and node.mode is p.MatchMode.DIFFERENT_EDGES:
            patterns = tuple(cast(p.PathPattern, x.transform(strip)) for x in node.patterns)
            if any(a is not b for a, b in zip(patterns, node.patterns, strict=True)):
                return replace(node, patterns=patterns)
        return node

    return match(root) if isinstance(root, q.Match) else root.transform(match)
