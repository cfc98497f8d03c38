"""Cypher functions that GQL writes with other built-ins, where no type needs to be known.

Rules (each a same-meaning rewrite; the ones that depend on argument types are the pass
gql-expressions', :mod:`.typed_functions`):

* ``e()`` and ``pi()`` are the constants (Neo4j Cypher manual, mathematical functions:
  logarithmic and trigonometric: "e() returns the base of the natural logarithm", "pi()
  returns the mathematical constant pi"); GQL has no such functions (``dialects/iso-gql.toml``
  ``unsupported_functions``), so they are float literals.
* ``coalesce(x)`` of one argument is ``x``.
* ``nodes(null)`` and ``relationships(null)`` are null.
* the one-argument trims strip whitespace in Cypher (Java's ``Character.isWhitespace``) but only
  spaces in GQL (neo4j/docs-cypher gql-conformance/supported-optional.adoc), so they are written
  with the whitespace set as second argument: ``trim(x)`` is ``BTRIM(x, ws)``, and ``ltrim``,
  ``rtrim``, ``btrim`` keep their name (GQL.g4 20.23 multiCharacterTrimFunction).
* ``sign(x)``, for a target without it (GQL.g4 20.9-20.29 has no SIGN; TuGraph's GQL lists
  none either, dialects/tugraph-gql.toml), is ``CASE WHEN x > 0 THEN 1 WHEN x < 0 THEN -1
  WHEN x IS NOT NULL THEN 0 END``: an integer as Cypher's ``sign()`` gives (Neo4j Cypher
  manual, mathematical numeric functions: "sign() returns the signum of an INTEGER or FLOAT
  value: 0 if the number is 0, -1 for any negative number, and 1 for any positive number"),
  null for null. ``x`` is evaluated up to three times, so an ``x`` that calls ``rand()`` stays
  refused.
* FalkorDB's ``round()`` (``falkordb.round``) of an integer literal is the literal; otherwise it
  is refused in place under the name the query wrote (:mod:`.typed_rounding`: GQL has no ROUND).
"""

from __future__ import annotations

import math

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.functions import WHITESPACE
from ..ir.node import Node
from . import typed_rounding

__all__ = ["NAMES", "lower_gql_functions"]

#: The functions this pass may rewrite.
NAMES = frozenset({"e", "pi", "coalesce", "nodes", "relationships", "trim", "btrim"})
NAMES |= {"ltrim", "rtrim", "sign", "falkordb.round"}

#: functions whose value may differ between two calls with the same arguments
_VOLATILE = frozenset({"rand", "randomuuid", "timestamp"})


def lower_gql_functions(root: Node, target: Dialect) -> Node:
    """``root`` with the functions above written as GQL writes them."""
    lacks_sign = "sign" in target.capabilities.unsupported_functions

    def rewrite(node: Node) -> Node:
        if lacks_sign and isinstance(node, e.FunctionCall) and node.name == "sign":
            return _sign(node)
        if isinstance(node, e.FunctionCall) and node.name == "falkordb.round":
            return typed_rounding.rewrite(node, target)
        return _rewrite(node)

    return root.transform(rewrite)


def _sign(node: e.FunctionCall) -> e.Expr:
    """``sign(x)`` as a CASE, where ``x`` gives one value however often it is evaluated."""
    if len(node.args) != 1:
        return node
    (x,) = node.args
    if any(isinstance(n, e.FunctionCall) and n.name in _VOLATILE for n in x.walk()):
        return node
    at = node.pos

    def compare(op: e.CompOp) -> e.Expr:
        return e.Comparison(op, x, e.Integer(0), pos=at)

    whens = (
        e.CaseWhen(compare(e.CompOp.GT), e.Integer(1)),
        e.CaseWhen(compare(e.CompOp.LT), e.Integer(-1)),
        e.CaseWhen(e.IsNull(x, negated=True), e.Integer(0)),
    )
    return e.Case(None, whens, None, pos=at)


def _rewrite(node: Node) -> Node:
    if not isinstance(node, e.FunctionCall):
        return node
    name, args = node.name, node.args
    if name in ("e", "pi") and not args:
        return e.Float(math.e if name == "e" else math.pi, pos=node.pos)
    if name == "coalesce" and len(args) == 1:
        return args[0]
    if name in ("nodes", "relationships") and args == (e.Null(),):
        return e.Null(pos=node.pos)
    if name in ("trim", "btrim", "ltrim", "rtrim") and len(args) == 1:
        canonical = "btrim" if name == "trim" else name
        return e.FunctionCall(canonical, (args[0], e.String(WHITESPACE)), pos=node.pos)
    return node
