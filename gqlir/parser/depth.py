"""A guard against IR too deep for recursive consumers (equality, emitters, evaluators).

The parser itself never recurses, so it would happily build a 5,000-level expression; the
recursive code downstream would then fail with RecursionError. Queries that deep are not real
queries, so they are refused here with a ParseError.
"""

from __future__ import annotations

from ..errors import ParseError
from ..ir import Node

MAX_DEPTH = 200


def check_depth(root: Node, limit: int = MAX_DEPTH) -> None:
    stack: list[tuple[Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise ParseError(
                f"query is nested more than {limit} levels deep",
                offset=node.pos,
                code="PARSE_TOO_DEEP",
            )
        for child in node.children():
            stack.append((child, depth + 1))
