"""Cypher functions written as GoogleSQL functions where both give the same value.

Spanner has none of Cypher's ``left``, ``right``, ``substring``, ``toFloat``, ``toInteger``
(dialects/spanner.toml, ``unsupported_functions``). Where the arguments make GoogleSQL's
functions agree with Cypher's, a target that spells ``SUBSTR`` gets:

* ``left(s, n)`` with a literal ``n >= 0`` as ``SUBSTR(s, 1, n)``; ``right(s, n)`` with a
  literal ``n > 0`` as ``SUBSTR(s, -n)``; ``substring(s, i[, n])`` with literals ``i, n >= 0``
  as ``SUBSTR(s, i + 1[, n])``. ``SUBSTR`` counts positions from 1, a negative position from
  the end, a position beyond the end gives '' and one before the start is 1
  (https://cloud.google.com/spanner/docs/reference/standard-sql/string_functions#substr); a
  negative or non-literal position or length, where the two differ (Cypher fails), stays
  refused.
* ``toFloat(x)`` of a value known to be a number as ``CAST(x AS FLOAT64)`` (an INT64 converts
  exactly as Cypher's does; https://cloud.google.com/spanner/docs/reference/standard-sql/
  conversion_functions#cast), and ``toInteger(x)`` of a value known to be an integer as ``x``.
  A string argument stays refused: Java's and GoogleSQL's number syntaxes differ.
* ``round(x)``, which rounds half up (toward positive infinity: ``round(-2.5)`` is -2.0;
  https://neo4j.com/docs/cypher-manual/current/functions/mathematical-numeric/#functions-round),
  as ``CASE WHEN x - FLOOR(x) >= 0.5 THEN CEIL(x) ELSE FLOOR(x) END``: GoogleSQL's ``ROUND``
  rounds half away from zero (…/mathematical_functions#round), and ``FLOOR(x + 0.5)`` is
  wrong where ``x + 0.5`` is not exact. ``x`` is evaluated three times, so only an ``x``
  without chance or subqueries; ``round`` with a precision stays refused.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.analysis import OPAQUE
from ..ir.node import Node
from .googlesql_division import known_integer
from .gql_family import known_number

#: functions whose value may differ between two calls with the same arguments
_VOLATILE = frozenset({"rand", "randomuuid", "timestamp"})


def _repeatable(node: e.Expr) -> bool:
    """Whether ``node`` gives the same value each time it is evaluated in one row."""
    for inner in node.walk():
        if isinstance(inner, (*OPAQUE, e.ListComprehension, e.Reduce)):
            return False
        if isinstance(inner, e.FunctionCall) and (
            inner.name in _VOLATILE or inner.name.endswith((".realtime", ".statement"))
        ):
            return False
    return True


def _literal(node: e.Expr, least: int) -> int | None:
    if isinstance(node, e.Integer) and node.value >= least:
        return node.value
    return None


#: The functions :func:`lower_functions` may rewrite.
NAMES = frozenset({"left", "right", "substring", "round", "tofloat", "tointeger"})


def lower_functions(root: Node, target: Dialect) -> Node:
    """``root`` with the Cypher functions ``target`` lacks written as GoogleSQL ones, where
    the values agree."""
    lacking = set(target.capabilities.unsupported_functions)
    substr = "googlesql.substr" in target.functions
    if not lacking:
        return root

    def call(name: str, args: tuple[e.Expr, ...], at: e.Expr) -> e.Expr:
        return e.FunctionCall(name, args, pos=at.pos)

    def rewrite(node: Node) -> Node:
        if not isinstance(node, e.FunctionCall) or node.name not in lacking:
            return node
        args = node.args
        if substr and node.name == "left" and len(args) == 2:
            n = _literal(args[1], 0)
            if n is not None:
                return call("googlesql.substr", (args[0], e.Integer(1), e.Integer(n)), node)
        if substr and node.name == "right" and len(args) == 2:
            n = _literal(args[1], 1)
            if n is not None:
                return call("googlesql.substr", (args[0], e.Integer(-n)), node)
        if substr and node.name == "substring" and len(args) in (2, 3):
            start = _literal(args[1], 0)
            length = _literal(args[2], 0) if len(args) == 3 else None
            if start is not None and (len(args) == 2 or length is not None):
                rest = () if length is None else (e.Integer(length),)
                return call("googlesql.substr", (args[0], e.Integer(start + 1), *rest), node)
        if node.name == "round" and len(args) == 1 and _repeatable(args[0]):
            x = args[0]
            floor = call("floor", (x,), node)
            half = e.Comparison(e.CompOp.GE, e.Arithmetic(e.ArithOp.SUB, x, floor), e.Float(0.5))
            up = e.CaseWhen(half, call("ceil", (x,), node))
            return e.Case(None, (up,), floor, pos=node.pos)
        if node.name == "tofloat" and len(args) == 1 and known_number(args[0]):
            return e.Cast(args[0], e.TypeRef("FLOAT"), pos=node.pos)
        if node.name == "tointeger" and len(args) == 1 and known_integer(args[0]):
            return args[0]
        return node

    return root.transform(rewrite)
