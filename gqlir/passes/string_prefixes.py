"""Cypher's STARTS WITH / ENDS WITH / CONTAINS where the target has no such predicates.

ISO GQL has no string predicate but has ``LEFT``/``RIGHT`` and ``CHAR_LENGTH`` (ISO/IEC 39075
20.25 ``characterStringFunction``, 20.23 ``lengthExpression``), so ``a STARTS WITH b`` is
``LEFT(a, CHAR_LENGTH(b)) = b``; GoogleSQL has ``STARTS_WITH``/``ENDS_WITH`` (zetasql
docs/string_functions.md) and no CONTAINS operator. Cypher answers null when an operand is
not a string (openCypher 9, "String matching"), where ``LEFT`` fails: an operand that may be
something else is tested with ``IS TYPED STRING`` first (and evaluated twice, so it must be
repeatable), one known never to be a string makes the answer null, as in Cypher. CONTAINS with
no target function is refused (no GQL function finds a substring), except ``CONTAINS ''``,
which is ``STARTS WITH ''``. Selected by the capabilities ``string_predicates``,
``string_predicate_functions`` and ``type_predicates``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..analysis.types import runtime_kinds
from ..ir import expr as e
from ..ir import marks
from .exprs import all_of, pure, repeatable, typed

__all__ = ["string_match"]

_STRING = frozenset({"string"})


def string_match(walk: Any, node: e.StringMatch) -> e.Expr:
    caps = walk.caps
    if caps.string_predicates:
        return node
    kinds = []
    for operand in (node.left, node.right):
        vtype = walk.type_of(operand)
        # (null makes the answer null in both: it needs no test)
        kinds.append(_STRING if vtype.kind == "null" else runtime_kinds(vtype))
        if "string" not in kinds[-1]:
            if walk.cannot_fail(node.left, node.right):
                return e.Null(pos=node.pos)  # never a string: null, as in Cypher
            raise walk.unsupported(
                node.op.value,
                node,
                message=f"{node.op.value} on a {vtype.kind} gives null in Cypher and an "
                f"error in {walk.dialect.name}",
            )
    if isinstance(node.right, e.Null) and walk.cannot_fail(node.left):
        return e.Null(pos=node.pos)  # whatever the left side is
    if node.op is e.StringOp.CONTAINS and node.right == e.String(""):
        # every string contains '' as it starts with it (and a non-string neither does)
        node = replace(node, op=e.StringOp.STARTS_WITH)
    if caps.string_predicate_functions and node.op is not e.StringOp.CONTAINS:
        name = marks.STRING_FUNCTIONS[node.op]
        return e.FunctionCall(name, (node.left, node.right), pos=node.pos)
    if node.op is e.StringOp.CONTAINS:
        raise walk.unsupported(
            "CONTAINS",
            node,
            rewrite="no GQL function finds a substring; test a prefix or suffix with "
            "LEFT/RIGHT, or filter in the application",
        )
    if not pure(node.right):
        raise walk.unsupported(node.op.value, node, message="the pattern is not constant")
    length: e.Expr = e.FunctionCall("char_length", (node.right,))
    if isinstance(node.right, e.String):
        length = e.Integer(len(node.right.value))
    side = "left" if node.op is e.StringOp.STARTS_WITH else "right"
    part = e.FunctionCall(side, (node.left, length))
    test: e.Expr = e.Comparison(e.CompOp.EQ, part, node.right, pos=node.pos)
    strings = all_of(
        *(typed(x, k, "string", "STRING") for x, k in zip((node.left, node.right), kinds))
    )
    if strings is True:
        return test
    unsure = walk.unsupported(
        node.op.value,
        node,
        message=f"an operand may be a string or another value, which {node.op.value} "
        f"answers null for in Cypher and {walk.dialect.name}'s {side.upper()} fails on",
    )
    if not caps.type_predicates:
        if "mixed" in (walk.type_of(node.left).kind, walk.type_of(node.right).kind):
            raise unsure
        return test  # a statically typed dialect: a property has its schema's type
    if not repeatable(node.left):
        raise unsure  # (it is evaluated twice, by the test and by LEFT/RIGHT)
    test = e.FunctionCall(marks.EQ, (part, node.right))
    return e.Case(None, (e.CaseWhen(strings, test),), None, pos=node.pos)  # type: ignore[arg-type]
