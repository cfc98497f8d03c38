"""Rounding that keeps an integer an integer, written for targets whose rounding returns floats.

Cypher's ``ceil``, ``floor`` and ``round`` return a float whatever their argument (Neo4j Cypher
manual, mathematical functions). Two other meanings reach the IR through the readers:

* GQL's ``CEIL`` and ``FLOOR`` (``ceil_typed``, ``floor_typed``) keep an integer an integer, as
  SQL's do (dialects/iso-gql.toml ``integer_rounding_float``); FalkorDB's ``ceil`` and
  ``floor`` are the same functions (dialects/falkordb.toml).
* FalkorDB's ``round`` (``falkordb.round``) keeps an integer an integer too, and rounds a float
  half away from zero: ``round(-2.5)`` is ``-3.0`` where Cypher's (Java's ``Math.round``) is
  ``-2.0`` (FalkorDB/docs:cypher/functions.mdx, Mathematical functions, notes ** and ***;
  dialects/falkordb.toml ``integer_rounding_float``, ``round_half_up``).

For a Cypher-family or SQL target that does not spell the function, each is written with the
target's float-returning functions: of an integer literal it is the literal; of a float literal
Cypher's ``ceil`` / ``floor``, or for ``falkordb.round`` ``sign(x) * round(abs(x))`` (half up
on the absolute value is half away from zero); of any other value ``CASE WHEN x IS :: INTEGER
THEN x ELSE … END`` where the target has type predicates and ``x`` gives one value however
often it is evaluated. Elsewhere the function is refused (left in the IR as a refusal the
printer raises where it writes it, so a query's first refusal stays its first in writing
order), and so is FalkorDB's round of anything
but an integer literal where the target has no ``round`` of Cypher's meaning (Kuzu, SQL).
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e

__all__ = ["NAMES", "rewrite"]

#: The rounding functions this module writes.
NAMES = frozenset({"ceil_typed", "floor_typed", "falkordb.round"})
_VOLATILE = frozenset({"rand", "randomuuid", "timestamp"})
#: Each function's name in a refusal's construct, and whose function it is in its message.
_SURFACE = {
    "ceil_typed": ("CEIL", "GQL's CEIL"),
    "floor_typed": ("FLOOR", "GQL's FLOOR"),
    "falkordb.round": ("round", "FalkorDB's round"),
}


def rewrite(node: e.FunctionCall, target: Dialect) -> e.Expr:
    """``node`` (a call of one of :data:`NAMES`) as ``target`` writes it (see the module
    docstring). A target that spells the function has it (FalkorDB's ceil, floor and round)."""
    if node.name in target.functions or len(node.args) != 1:
        return node
    (x,) = node.args
    if isinstance(x, e.Integer):
        return x
    if node.name == "falkordb.round" and not _has_cypher_round(target):
        return e.Untranslatable(
            node,
            "round()",
            f"FalkorDB's round() rounds ties away from zero and keeps an integer an integer; "
            f"{target.name} has no round() of Cypher's meaning to write it with",
            pos=node.pos,
        )
    if isinstance(x, e.Float):
        return _as_float(node, x)
    volatile = any(f.name in _VOLATILE for f in x.find_all(e.FunctionCall))
    if target.capabilities.type_predicates and not volatile:
        is_integer = e.TypeTest(x, e.TypeRef("INTEGER"), pos=node.pos)
        return e.Case(None, (e.CaseWhen(is_integer, x),), _as_float(node, x), pos=node.pos)
    surface, whose = _SURFACE[node.name]
    return e.Untranslatable(
        node,
        f"{surface} of a number of unknown type",
        f"{whose} keeps an integer an integer; {target.name}'s returns a float",
        "CAST the argument to an integer or a float",
        pos=node.pos,
    )


def _has_cypher_round(target: Dialect) -> bool:
    """Whether ``target`` writes Cypher's ``round``, ``sign`` and ``abs`` (what FalkorDB's round
    of a float is written with): a Cypher-family target that lacks none of them (Kuzu's round
    is another function; the SQL printers write none of Cypher's)."""
    lacking = target.capabilities.unsupported_functions
    return target.family == "cypher" and not {"round", "sign", "abs"} & set(lacking)


def _as_float(node: e.FunctionCall, x: e.Expr) -> e.Expr:
    """The function of a float ``x``, with Cypher's float-returning functions."""
    if node.name == "falkordb.round":
        magnitude = e.FunctionCall("round", (e.FunctionCall("abs", (x,)),), pos=node.pos)
        sign = e.FunctionCall("sign", (x,), pos=node.pos)
        return e.Arithmetic(e.ArithOp.MUL, sign, magnitude, pos=node.pos)
    return e.FunctionCall(node.name.removesuffix("_typed"), (x,), pos=node.pos)
