"""Cypher's polymorphic ``+`` written as the one operation its operand types allow.

In Cypher, ``+`` adds numbers (and a duration to an instant), concatenates strings and lists,
appends an element to a list and prepends one, and joins a string with an integer as text
(openCypher 9, "Mathematical operators" and "String operators"; Neo4j Cypher manual, operators).
Where the target's ``+`` only adds (capability ``plus_concatenates`` false: ISO GQL's
``numericValueExpression``, GQL.g4 20.21, with ``||`` as ``CONCATENATION_OPERATOR``), each
``+`` is written as:

* ``a + b`` of numbers, or of an instant or a duration with a duration (or an unknown
  value, since Cypher fails on anything else), unchanged;
* ``a || b`` of strings or of lists; ``l || [x]`` / ``[x] || l`` of a list and a scalar;
  ``s || CAST(i AS STRING)`` of a string and an integer (the same digits);
* null where an operand is the null literal and the other cannot fail;
* where the types are only partly known, a CASE on ``IS TYPED`` that picks the operation per
  row (when the target has type predicates and the operands may be evaluated twice);
* otherwise refused, naming the types.

A ``+`` where Cypher fails unless the value is a number (an operand of ``-``, ``*``, ``/``,
``%`` or ``^`` beside a number literal, of a unary minus, or of ``sum()``/``avg()``/
``stDev()``) adds: a string or list it might build would fail there in Cypher, as ``+`` on one
fails in GQL. It is written as the IR's numeric ``+`` (:attr:`~gqlir.ir.ArithOp.ADD_NUMBERS`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..analysis.types import NUMERIC, TEMPORAL, VType, runtime_kinds
from ..ir import expr as e
from ..ir.analysis import cannot_fail
from .exprs import all_of, disjoin, dispatch, non_null_literal, repeatable, typed

if TYPE_CHECKING:
    from .gql_expressions import GqlExpressions as Lowering

__all__ = ["NUMERIC_AGGREGATES", "aggregate", "arithmetic", "negate", "numeric_add"]

#: Aggregates that fail in Cypher on a string or a list.
NUMERIC_AGGREGATES = frozenset({"sum", "avg", "stdev", "stdevp"})
#: Kinds known not to be a list (a stored property may hold a list, so "property" is not here).
_SCALAR = frozenset({"boolean", "integer", "float", "string", "node", "edge", "path", "map"})
_SCALAR |= TEMPORAL | {"duration", "point"}


def arithmetic(walk: Lowering, node: e.Arithmetic) -> e.Expr:
    if node.op is not e.ArithOp.ADD:
        return _numeric_operands(node)
    if walk.caps.plus_concatenates:
        return node
    return _add(walk, node, walk.type_of(node.left), walk.type_of(node.right))


def negate(walk: Lowering, node: e.Negate) -> e.Expr:
    """Cypher negates numbers and durations only: a + under the minus adds."""
    operand = numeric_add(node.operand)
    return node if operand is node.operand else replace(node, operand=operand)


def aggregate(walk: Lowering, node: e.Aggregate) -> e.Expr:
    if node.name in NUMERIC_AGGREGATES and len(node.args) == 1:
        arg = numeric_add(node.args[0])
        return node if arg is node.args[0] else replace(node, args=(arg,))
    return node


def numeric_add(node: e.Expr) -> e.Expr:
    """``node`` where Cypher fails unless its value is a number, a duration or an instant: a
    ``+`` there adds (nested ``+`` are in the same place)."""
    if isinstance(node, e.Arithmetic) and node.op is e.ArithOp.ADD:
        left, right = numeric_add(node.left), numeric_add(node.right)
        return e.Arithmetic(e.ArithOp.ADD_NUMBERS, left, right, pos=node.pos)
    return node


def _numeric_operands(node: e.Arithmetic) -> e.Arithmetic:
    """``node`` (not a ``+``) with a ``+`` operand adding when the other operand is a number
    literal: Cypher's ``-``, ``*``, ``/``, ``%`` and ``^`` fail on a string or list beside a
    non-null number (beside null they give null, which is why the other operand must be a
    literal)."""
    left, right = node.left, node.right
    if _number_literal(right):
        left = numeric_add(left)
    if _number_literal(node.left):
        right = numeric_add(right)
    if left is node.left and right is node.right:
        return node
    return replace(node, left=left, right=right)


def _number_literal(node: e.Expr) -> bool:
    if isinstance(node, (e.Negate, e.UnaryPlus)):
        node = node.operand
    return isinstance(node, (e.Integer, e.Float))


def _add(walk: Lowering, node: e.Arithmetic, lt: VType, rt: VType) -> e.Expr:
    kinds = (lt.kind, rt.kind)
    if "null" in kinds:
        elements = walk.types.elements()
        if cannot_fail(node.left, elements) and cannot_fail(node.right, elements):
            return e.Null(pos=node.pos)
    if lt.kind in NUMERIC and rt.kind in NUMERIC:
        return node
    # A temporal instant or a duration only adds a duration (or, for a duration, an instant):
    # any other operand is an error in Cypher, so + means the same whatever the other is.
    if lt.kind in TEMPORAL | {"duration"} and rt.kind in ("duration", "any", "property"):
        return node
    if rt.kind in TEMPORAL | {"duration"} and lt.kind in ("duration", "any", "property"):
        return node
    if lt.kind == "string" and rt.kind == "string":
        return e.Concat(node.left, node.right, pos=node.pos)
    if lt.kind == "list" and rt.kind == "list":
        return e.Concat(node.left, node.right, pos=node.pos)
    if lt.kind == "list" and rt.kind in _SCALAR:
        return e.Concat(node.left, e.ListLiteral((node.right,)), pos=node.pos)
    if rt.kind == "list" and lt.kind in _SCALAR:
        return e.Concat(e.ListLiteral((node.left,)), node.right, pos=node.pos)
    if (lt.kind, rt.kind) == ("string", "integer"):
        return e.Concat(node.left, e.Cast(node.right, e.TypeRef("STRING")), pos=node.pos)
    if (lt.kind, rt.kind) == ("integer", "string"):
        return e.Concat(e.Cast(node.left, e.TypeRef("STRING")), node.right, pos=node.pos)
    dispatched = _dispatch_add(walk, node, lt, rt)
    if dispatched is not None:
        return dispatched
    raise walk.unsupported(
        "polymorphic +",
        node,
        message=f"+ on {lt.kind} and {rt.kind}: Cypher adds numbers and concatenates "
        f"strings and lists, {walk.dialect.name} has + for numbers and || for strings and "
        "lists, and the operand types are not known",
        rewrite="make the types explicit: toString(x) + '…' / toInteger(x) + 1, or || for "
        "concatenation",
    )


def _dispatch_add(walk: Lowering, node: e.Arithmetic, lt: VType, rt: VType) -> e.Expr | None:
    """``+`` on operands whose types are only partly known, as a CASE on their runtime types.
    None when some possible pair of types has no GQL spelling: a string with a float or a
    boolean (GQL's CAST writes them differently from Cypher's toString), or when an operand
    cannot be evaluated more than once."""
    if not walk.caps.type_predicates or not (repeatable(node.left) and repeatable(node.right)):
        return None
    a, b = node.left, node.right
    left, right = runtime_kinds(lt), runtime_kinds(rt)
    if ("string" in left and right & {"float", "boolean"}) or (
        "string" in right and left & {"float", "boolean"}
    ):
        return None

    # A list operand concatenates whatever the other is: test only the other one, once.
    if left == {"list"}:
        return e.Concat(a, _as_list(b, right), pos=node.pos)
    if right == {"list"}:
        return e.Concat(_as_list(a, left), b, pos=node.pos)
    text = e.TypeRef("STRING")
    nullable: list[e.Expr] = [e.IsNull(x) for x in (a, b) if not non_null_literal(x)]
    branches: list[tuple[e.Expr | bool, e.Expr]] = [
        (disjoin(nullable) if nullable else False, e.Null()),
        (all_of(typed(a, left, "list", "LIST"), typed(b, right, "list", "LIST")), e.Concat(a, b)),
        (typed(a, left, "list", "LIST"), e.Concat(a, e.ListLiteral((b,)))),
        (typed(b, right, "list", "LIST"), e.Concat(e.ListLiteral((a,)), b)),
        (
            all_of(typed(a, left, "string", "STRING"), typed(b, right, "string", "STRING")),
            e.Concat(a, b),
        ),
        (
            all_of(typed(a, left, "string", "STRING"), typed(b, right, "integer", "INTEGER")),
            e.Concat(a, e.Cast(b, text)),
        ),
        (
            all_of(typed(a, left, "integer", "INTEGER"), typed(b, right, "string", "STRING")),
            e.Concat(e.Cast(a, text), b),
        ),
    ]
    # What no branch takes adds as numbers or temporal values, or is an error in both.
    whens, default = dispatch(branches, e.Arithmetic(e.ArithOp.ADD_NUMBERS, a, b))
    if not whens:
        return default
    return e.Case(None, whens, default, pos=node.pos)


def _as_list(x: e.Expr, kinds: frozenset[str]) -> e.Expr:
    """``x`` as the right operand of Cypher's list ``+``: a list as it is, another value as a
    one-element list, null as null (so that the concatenation is null)."""
    is_list = typed(x, kinds, "list", "LIST")
    if is_list is True:
        return x
    wrapped = e.ListLiteral((x,))
    if is_list is False and non_null_literal(x):
        return wrapped
    whens = [e.CaseWhen(e.IsNull(x), e.Null())]
    if is_list is not False:
        whens.append(e.CaseWhen(is_list, x))
    return e.Case(None, tuple(whens), wrapped)
