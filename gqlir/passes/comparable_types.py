"""Comparisons and lists whose operands' types GQL would reject, refused by their known types.

Cypher compares values of different types as false (``=``, ``<>``) or null (``<`` …)
(openCypher 9, "Comparability and equality"); GQL raises a data exception when the operands
are not comparable (ISO/IEC 39075 19.3 ``comparisonPredicate``, syntax rules: the operands
shall be comparable), so a comparison, or a simple CASE's ``=``, of values known to be of
different types is refused. A dialect whose lists have one element type (``typed_lists``:
GoogleSQL arrays, zetasql docs/data-types.md "Array type") would fail on Cypher's ``[1, 'a']``,
change ``[1, 2.5]`` to ``[1.0, 2.5]``, and has no array of arrays: a list literal's items must
be of one known type (or null). Types come from :mod:`gqlir.analysis.types` in the walk's
scope; nothing is rewritten.
"""

from __future__ import annotations

from typing import Any

from ..analysis.types import ANY, NUMERIC, VType, literal_type
from ..ir import expr as e
from ..ir.analysis import BOOLEAN_VALUED

__all__ = [
    "UNTYPED",
    "check_case",
    "check_comparison",
    "check_list",
    "comparable",
    "may_differ",
]

#: Operands whose type is unknown where no schema is given (properties, parameters) or that
#: compare with anything (null): a comparison with one is never refused for its types.
UNTYPED = frozenset({e.Property, e.Parameter, e.Null})


def check_comparison(walk: Any, node: e.Comparison) -> e.Expr:
    _check(walk, node, node.left, node.right, node.op)
    return node


def check_case(walk: Any, node: e.Case) -> e.Expr:
    """A simple CASE compares its operand with each WHEN value by ``=``."""
    if node.subject is not None:
        for when in node.whens:
            _check(walk, when, node.subject, when.condition, e.CompOp.EQ)
    return node


def check_list(walk: Any, node: e.ListLiteral) -> e.Expr:
    if not walk.caps.typed_lists or node.one_type:
        return node
    kinds = {walk.type_of(item).kind for item in node.items} - {"null"}
    name = walk.dialect.name
    if "list" in kinds:
        raise walk.unsupported("list of lists", node, message=f"{name} has no array of arrays")
    if len(kinds) > 1 or (len(node.items) > 1 and not all(_known(k) for k in kinds)):
        raise walk.unsupported(
            "list of mixed types",
            node,
            message=f"a {name} array has one element type: values of different (or unknown) "
            f"types would fail or be converted ({sorted(kinds)})",
        )
    return node


def may_differ(left: type, right: type, typed: bool = False) -> bool:
    """Whether operands of these classes may have known types GQL cannot compare (``typed``: a
    schema types the properties): not two literals of one type (or two numbers), not two
    boolean-valued expressions, not an operand of unknown type or null."""
    if left in _SCALARS and right in _SCALARS:
        return not (left is right or (left in _NUMBERS and right in _NUMBERS))
    if left in _BOOLEANS and right in _BOOLEANS:
        return False
    untyped = _ALWAYS_UNTYPED if typed else UNTYPED
    return left not in untyped and right not in untyped


def _check(walk: Any, at: Any, left: e.Expr, right: e.Expr, op: e.CompOp) -> None:
    if not may_differ(type(left), type(right), bool(walk.types.properties)):
        return
    lt = walk.type_of(left)
    if lt.kind in _UNKNOWN:
        return
    rt = walk.type_of(right)
    if not comparable(lt, rt):
        raise walk.unsupported(
            "comparison of different types",
            at,
            message=f"comparing {_describe(lt)} with {_describe(rt)} is "
            f"{'false' if op in (e.CompOp.EQ, e.CompOp.NE) else 'null'} in Cypher and "
            f"an error in {walk.dialect.name}",
        )


_SCALARS = frozenset({e.Integer, e.Float, e.String, e.Boolean})
_BOOLEANS = frozenset(BOOLEAN_VALUED) | {e.Boolean}
#: Of unknown type (or null) whatever the schema says.
_ALWAYS_UNTYPED = frozenset({e.Parameter, e.Null})
_NUMBERS = frozenset({e.Integer, e.Float})
#: Kinds comparable with anything (``mixed`` is not: values of several types).
_UNKNOWN = frozenset({"any", "property", "null"})


def _known(kind: str) -> bool:
    """Whether a value of ``kind`` has one runtime type (``number`` may be either)."""
    return VType(kind).known and kind != "number"


def comparable(a: VType, b: VType) -> bool:
    """Whether GQL can compare values of these types without raising (unknown counts as yes;
    values known to be of several incomparable types count as no)."""
    if "null" in (a.kind, b.kind):
        return True
    if "mixed" in (a.kind, b.kind):
        return False
    if not (a.known and b.known):
        return True
    if a.kind in NUMERIC and b.kind in NUMERIC:
        return True
    if a.kind != b.kind:
        return False
    if a.kind == "list":
        if isinstance(a.const, e.ListLiteral) and isinstance(b.const, e.ListLiteral):
            return all(
                comparable(literal_type(x), literal_type(y))
                for x, y in zip(a.const.items, b.const.items)
            )
        return comparable(a.element or ANY, b.element or ANY)
    if a.kind == "map" and isinstance(a.const, e.MapLiteral) and isinstance(b.const, e.MapLiteral):
        left, right = dict(a.const.entries), dict(b.const.entries)
        if set(left) != set(right):
            return False
        return all(comparable(literal_type(left[k]), literal_type(right[k])) for k in left)
    return True


def _describe(t: VType) -> str:
    """``a list of integer``, ``an integer``: for messages."""
    if t.kind == "mixed":
        return "values of several types"
    if t.kind == "list" and t.element is not None and t.element.known:
        return f"a list of {t.element.kind}"
    return ("an " if t.kind[0] in "aeiou" else "a ") + t.kind
