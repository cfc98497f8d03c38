"""A guard against IR too deep for recursive consumers (equality, emitters, evaluators).

The parser itself never recurses, so it would happily build a 5,000-level expression; the
recursive code downstream would then fail with RecursionError. Queries that deep are not real
queries, so they are refused here with a ParseError.
"""

from __future__ import annotations

from ..errors import ParseError
from ..ir.node import Node, _field_names

MAX_DEPTH = 200


def check_depth(root: Node, limit: int = MAX_DEPTH) -> None:
    """Raise ParseError if the IR under ``root`` is more than ``limit`` nodes deep."""
    stack: list[tuple[object, int]] = [(root, 1)]
    pop = stack.pop
    push = stack.append
    while stack:
        value, depth = pop()
        if isinstance(value, Node):
            if depth > limit:
                raise ParseError(
                    f"query is nested more than {limit} levels deep",
                    offset=value.pos,
                    code="PARSE_TOO_DEEP",
                )
            depth += 1
            for name in _field_names(type(value)):
                child = getattr(value, name)
                if child is not None and not isinstance(child, (str, int, float, bool)):
                    push((child, depth))
        elif type(value) is tuple:
            for item in value:
                if item is not None and not isinstance(item, (str, int, float, bool)):
                    push((item, depth))
