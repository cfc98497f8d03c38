"""LIKE as a target writes it: with a backslash as its escape, and no ESCAPE clause.

GoogleSQL's LIKE has no ESCAPE clause and reads a backslash in the pattern as an escape
(https://cloud.google.com/spanner/docs/reference/standard-sql/operators, comparison operators:
"You can escape \\, _, or % using two backslashes"); the GQL printer writes every LIKE so, for
every target with ``like_operator``. A LIKE read with another escape character, or with none
(SQL's ``LIKE p ESCAPE '!'``, a ``LIKE`` without ESCAPE), keeps its meaning there only where its
pattern is a string literal holding neither a backslash nor that escape character; any other is
refused in place (:class:`~gqlir.ir.expr.Untranslatable`), for the printer to raise where it
writes it.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node

__all__ = ["applies", "lower_like_patterns"]


def applies(target: Dialect) -> bool:
    return target.capabilities.like_operator


def lower_like_patterns(root: Node, target: Dialect) -> Node:
    """``root`` with each LIKE the target's escape rules would read otherwise refused."""
    return root.transform(_rewrite)


def _rewrite(node: Node) -> Node:
    if type(node) is not e.Like:
        return node
    like: e.Like = node
    escape, pattern = like.escape, like.pattern
    if escape == "\\":
        return like
    literal = pattern.value if isinstance(pattern, e.String) else None
    if literal is not None and "\\" not in literal and (escape is None or escape not in literal):
        return like
    word = "NOT LIKE" if like.negated else "LIKE"
    construct = f"{word} with a pattern that is not a literal without \\"
    return e.Untranslatable(like, construct, pos=like.pos)
