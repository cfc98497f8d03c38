"""Cypher functions whose GQL form depends on their arguments' types or values.

Rules (each a same-meaning rewrite, decided by the argument's type in scope, see
:mod:`gqlir.analysis.scope`; the printer writes the result as it stands):

* ``size(s)`` / ``length(s)`` of a string is ``CHAR_LENGTH(s)``; ``length(l)`` of a list is
  ``size(l)`` (GQL's ``CARDINALITY``): GQL.g4 20.22 ``characterLengthExpression``,
  ``cardinalityExpression``; Cypher's ``size()`` takes both (Neo4j Cypher manual, scalar
  functions).
* ``toString(x)`` of a string is ``x``; of an integer (or null) ``CAST(x AS STRING)`` (the same
  decimal digits); of a boolean ``'true'``/``'false'`` (GQL's CAST writes ``TRUE``/``FALSE``,
  GQL.g4 20.31 ``castSpecification``, ISO/IEC 39075 20.31 general rule on boolean to character
  string). A float's text differs between the two, so it is left to the printer's refusal.
* ``toBoolean(x)``: a boolean as is, an integer as ``x <> 0``, a string as
  ``CASE LOWER(BTRIM(x, whitespace)) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END``
  (Neo4j Cypher manual, ``toBoolean()``), anything else an error as GQL's ``CAST(x AS
  BOOLEAN)`` is; a value of unknown type is dispatched on ``IS TYPED``.
* ``ceil(x)`` / ``floor(x)`` of a value that may be an integer compute on ``CAST(x AS FLOAT)``:
  Cypher returns a float (Neo4j Cypher manual, numeric functions), GQL the argument's type.
  GQL's own ``ceil_typed`` / ``floor_typed`` (an integer stays an integer) are the target's
  CEIL / FLOOR where they keep the type (capability ``integer_rounding_float`` false), else
  the argument itself for an integer and the float function for a float; refused otherwise.
* ``substring(s, start[, length])`` (0-based in Cypher, with literal non-negative bounds) with
  GQL's ``LEFT`` and ``RIGHT`` (GQL.g4 20.23 ``characterSubstringFunction``).
* ``range(a, b[, step])`` of integer literals, ``head``/``last``/``tail``/``reverse`` of a
  constant list, are folded to their values; ``head(l)`` / ``last(l)`` of another list are the
  subscripts ``l[0]`` / ``l[-1]``, which the printer writes as a list walk. A target with its own
  list function of that name (TuGraph's) keeps the call.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..analysis.types import is_const, runtime_kinds
from ..ir import expr as e
from ..ir.functions import WHITESPACE
from .exprs import dispatch, pure, typed

if TYPE_CHECKING:
    from .gql_expressions import GqlExpressions as Lowering

__all__ = ["NAMES", "fold_range", "rewrite"]

#: The functions this pass may rewrite.
NAMES = frozenset(
    {"range", "head", "last", "tail", "reverse", "size", "length", "substring", "tostring"}
    | {"toboolean", "ceil", "floor", "ceil_typed", "floor_typed"}
)
#: Largest constant list written out when folding ``range()``.
MAX_FOLDED_LIST = 10_000
#: Kinds whose value may be a list (head() and last() of anything else fail in Cypher).
_LISTS = frozenset({"list", "property", "any"})


def _has_function(walk: Lowering, canonical: str) -> bool:
    """Whether the dialect has a built-in that means ``canonical``."""
    return canonical in walk.dialect.functions and canonical not in walk.caps.unsupported_functions


def rewrite(walk: Lowering, node: e.FunctionCall) -> e.Expr:
    """A call of one of :data:`NAMES` in its GQL form (``node`` when none applies)."""
    name, args = node.name, node.args
    if name in ("range", "head", "last", "tail", "reverse") and _has_function(walk, name):
        return node  # the dialect's own function (TuGraph's list functions)
    if name == "range" and 2 <= len(args) <= 3:
        return fold_range(node) or node
    if name in ("head", "last", "tail", "reverse") and len(args) == 1:
        return _list_function(walk, node)
    if name in ("size", "length") and len(args) == 1:
        kind = walk.type_of(args[0]).kind
        if kind == "string":
            return e.FunctionCall("char_length", args, pos=node.pos)
        if name == "length" and kind == "list":
            return e.FunctionCall("size", args, pos=node.pos)
        return node
    if name == "substring" and 2 <= len(args) <= 3:
        return _substring(walk, node)
    if name == "tostring" and len(args) == 1:
        return _to_string(walk, node)
    if name == "toboolean" and len(args) == 1:
        return _to_boolean(walk, node)
    if name in ("ceil", "floor") and len(args) == 1:
        return _float_rounding(walk, node)
    if name in ("ceil_typed", "floor_typed") and len(args) == 1:
        return _typed_rounding(walk, node)
    return node


def _float_rounding(walk: Lowering, node: e.FunctionCall) -> e.Expr:
    """Cypher's float-returning ceil/floor: the target's function of a float argument."""
    name, arg = node.name, node.args[0]
    if walk.type_of(arg).kind != "float":
        arg = e.Cast(arg, e.TypeRef("FLOAT"))
    if not _has_function(walk, name) and _has_function(walk, name + "_typed"):
        return e.FunctionCall(name + "_typed", (arg,), pos=node.pos)
    return node if arg is node.args[0] else e.FunctionCall(name, (arg,), pos=node.pos)


def _typed_rounding(walk: Lowering, node: e.FunctionCall) -> e.Expr:
    """GQL's CEIL/FLOOR, which keep an integer an integer: the target's own where it has that
    meaning, the argument itself for an integer, the float function for a float."""
    name, arg = node.name, node.args[0]
    if not walk.caps.integer_rounding_float and _has_function(walk, name):
        return node
    kind = walk.type_of(arg).kind
    if kind == "integer":
        return arg
    if kind == "float":
        return e.FunctionCall(name.removesuffix("_typed"), node.args, pos=node.pos)
    surface = name.removesuffix("_typed").upper()
    raise walk.unsupported(
        f"{surface} of a number of unknown type",
        node,
        message=f"GQL's {surface} keeps an integer an integer; {walk.dialect.name}'s returns "
        "a float",
        rewrite="CAST the argument to INT64 or FLOAT64",
    )


def _list_function(walk: Lowering, node: e.FunctionCall) -> e.Expr:
    name, (arg,) = node.name, node.args
    items = walk.const_list(arg)
    if items is not None and all(is_const(x) for x in items):
        if name == "head":
            return items[0] if items else e.Null(pos=node.pos)
        if name == "last":
            return items[-1] if items else e.Null(pos=node.pos)
        if name == "tail":
            return e.ListLiteral(tuple(items[1:]), pos=node.pos)
        return e.ListLiteral(tuple(reversed(items)), pos=node.pos)
    if name in ("head", "last") and walk.type_of(arg).kind in _LISTS:
        # the first or last element: a subscript, which a walk WITH OFFSET can read
        return e.Index(arg, e.Integer(0 if name == "head" else -1), pos=node.pos)
    return node


def _to_string(walk: Lowering, node: e.FunctionCall) -> e.Expr:
    (arg,) = node.args
    kind = walk.type_of(arg).kind
    if kind == "string":
        return arg
    if kind in ("integer", "null"):
        # An integer's decimal digits; a float's text differs from CAST's.
        return e.Cast(arg, e.TypeRef("STRING"), pos=node.pos)
    if isinstance(arg, e.Boolean):
        return e.String("true" if arg.value else "false", pos=node.pos)
    if kind == "boolean":  # Cypher writes 'true'/'false', GQL's CAST 'TRUE'/'FALSE'
        words = (
            e.CaseWhen(e.Boolean(True), e.String("true")),
            e.CaseWhen(e.Boolean(False), e.String("false")),
        )
        return e.Case(arg, words, e.Null(), pos=node.pos)
    return node


def _to_boolean(walk: Lowering, node: e.FunctionCall) -> e.Expr:
    (x,) = node.args
    kinds = runtime_kinds(walk.type_of(x))
    if kinds == {"null"}:
        return x
    trimmed = e.FunctionCall("btrim", (x, e.String(WHITESPACE)))
    word = e.FunctionCall("lower", (trimmed,))
    parsed = e.Case(
        word,
        (
            e.CaseWhen(e.String("true"), e.Boolean(True)),
            e.CaseWhen(e.String("false"), e.Boolean(False)),
        ),
        e.Null(),
    )
    branches: list[tuple[e.Expr | bool, e.Expr]] = [
        (typed(x, kinds, "boolean", "BOOLEAN"), x),
        (typed(x, kinds, "integer", "INTEGER"), e.Comparison(e.CompOp.NE, x, e.Integer(0))),
        (typed(x, kinds, "string", "STRING"), parsed),
    ]
    # anything else fails, as toBoolean() does
    whens, default = dispatch(branches, e.Cast(x, e.TypeRef("BOOLEAN")))
    if not whens:
        return replace(default, pos=node.pos)
    if not (walk.caps.type_predicates and pure(x)):
        raise walk.unsupported(
            "function toboolean()",
            node,
            message="toBoolean() of a value of unknown type needs IS TYPED and a value "
            "that may be evaluated more than once",
        )
    return e.Case(None, whens, default, pos=node.pos)


def _substring(walk: Lowering, node: e.FunctionCall) -> e.Expr:
    """``LEFT(s, n)`` from the start, else the last characters of ``LEFT(s, start + n)``
    after ``start``, and '' when ``s`` is no longer than ``start``."""
    s, *bounds = node.args
    if not all(isinstance(b, e.Integer) and b.value >= 0 for b in bounds):
        return node
    if walk.type_of(s).kind not in ("string", "null", "property", "any"):
        return node
    start = bounds[0].value  # type: ignore[attr-defined]
    length = bounds[1].value if len(bounds) == 2 else None  # type: ignore[attr-defined]
    if length is not None and start == 0:
        return e.FunctionCall("left", (s, e.Integer(length)), pos=node.pos)
    if not pure(s):
        return node
    head = s if length is None else e.FunctionCall("left", (s, e.Integer(start + length)))
    rest = e.Arithmetic(e.ArithOp.SUB, e.FunctionCall("char_length", (head,)), e.Integer(start))
    too_short = e.Comparison(e.CompOp.LE, e.FunctionCall("char_length", (s,)), e.Integer(start))
    return e.Case(
        None,
        (e.CaseWhen(too_short, e.String("")),),
        e.FunctionCall("right", (head, rest)),
        pos=node.pos,
    )


def fold_range(node: e.FunctionCall) -> e.Expr | None:
    """``range()`` of integer literals as its list (None: not constant, or too long)."""
    bounds = node.args
    if not all(isinstance(b, e.Integer) for b in bounds):
        return None
    start, end = bounds[0].value, bounds[1].value  # type: ignore[attr-defined]
    step = bounds[2].value if len(bounds) == 3 else 1  # type: ignore[attr-defined]
    if step == 0:
        return None
    values = range(start, end + (1 if step > 0 else -1), step)
    if len(values) > MAX_FOLDED_LIST:
        return None
    return e.ListLiteral(tuple(e.Integer(v) for v in values), pos=node.pos)
